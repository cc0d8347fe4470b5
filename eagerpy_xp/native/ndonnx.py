"""The standard on ndonnx (ONNX graphs), native flavour: ndonnx's own arrays in and out.

Composed by `eagerpy_xp._assembly` from the backend in `eagerpy_xp.native._ndonnx`.
"""

from .._assembly import assemble_native

assemble_native(globals())
