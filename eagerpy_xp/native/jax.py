"""The standard on JAX, native flavour: the framework's own arrays in and out.

Composed by `eagerpy_xp._assembly` from the backend in `eagerpy_xp.native._jax`.
"""

from .._assembly import assemble_native

assemble_native(globals())
