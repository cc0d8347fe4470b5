"""The standard on MLX, native flavour: the framework's own arrays in and out.

Composed by `eagerpy_xp._assembly` from the backend in `eagerpy_xp.native._mlx`.
"""

from .._assembly import assemble_native

assemble_native(globals())
