"""The standard on ndonnx (ONNX graphs), wrapped flavour: `eagerpy_xp.Array` in and out.

Composed by `eagerpy_xp._assembly` from `eagerpy_xp.native.ndonnx`.
"""

from ._assembly import assemble_wrapped

assemble_wrapped(globals())
