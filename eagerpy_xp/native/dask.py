"""The standard on Dask, native flavour: the framework's own arrays in and out.

Composed by `eagerpy_xp._assembly` from the backend in `eagerpy_xp.native._dask`.
"""

from .._assembly import assemble_native

assemble_native(globals())
