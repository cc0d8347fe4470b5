"""The ndonnx backend: ONNX graphs with the standard's semantics (docs/onnx.md).

An ndonnx array is eager (its value computed as the graph is built) or symbolic (it
depends on an ``ndx.argument``: a model being built, as `eagerpy_xp.export` builds one).
`core` holds the hooks (dtypes, devices, values, indexing); `functions` the chapters of
the standard where ndonnx differs from it or lacks a function; `linalg` and `fft` the
sub-namespaces, composed of ONNX operators where ONNX has none of its own.
`NdonnxBackend` composes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._export import InputSpec, ModelFunction, trace
from ._functions import NdonnxFunctions
from ._subnamespaces import NdonnxFFT, NdonnxInfo, NdonnxLinalg

__all__ = ["BACKEND", "NdonnxBackend"]


class NdonnxBackend(NdonnxFunctions):
    """Every function of the standard that ONNX can hold, on ``ndonnx.Array``."""

    linalg_class = NdonnxLinalg
    fft_class = NdonnxFFT
    info_class = NdonnxInfo

    def export_model(self, fn: Callable[..., Any], inputs: Sequence[InputSpec],
                     wrap: Callable[[Any], Any], unwrap: Callable[[Any], Any],
                     function_name: str) -> Any:  # fmt: skip
        """The hook behind `eagerpy_xp.export`: the ``onnx.ModelProto`` of ``fn`` traced on
        symbolic arrays of ``inputs`` (`export.trace`)."""
        return trace(fn, inputs, wrap, unwrap, function_name)

    def model_function(self, model: Any) -> ModelFunction:
        """The hook behind `eagerpy_xp.onnx_function`: ``model`` run by onnxruntime on
        NumPy arrays."""
        return ModelFunction(model)


#: The one ndonnx backend object (the native module exports it).
BACKEND = NdonnxBackend()
