"""The standard on MLX, wrapped flavour: `eagerpy_xp.Array` in and out.

Composed by `eagerpy_xp._assembly` from `eagerpy_xp.native.mlx`.
"""

from ._assembly import assemble_wrapped

assemble_wrapped(globals())
