"""The ndonnx backend (``_backend`` composes it; docs/onnx.md).  This module describes it:
importing it imports no framework."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..._descriptor import Descriptor, Limitation, StubNames


def _from_numpy(a: Any, device: str) -> Any:
    from ._core import constant

    return constant(a)


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x.unwrap_numpy())


#: The decompositions ONNX has no operator for, with real results (the complex ones,
#: eig and eigvals, are skipped by the suite: ndonnx holds no complex dtype).
_DECOMPOSITIONS = ("cholesky", "eigh", "eigvalsh", "qr", "svd", "svdvals", "pinv",
                   "matrix_rank")  # fmt: skip
#: Those of them, and the real-input transforms, with keyword defaults to check.
_REFUSED_WITH_DEFAULTS = (("linalg", ("cholesky", "qr", "svd", "pinv", "matrix_rank")),
                          ("fft", ("rfft", "rfftn", "ihfft")))  # fmt: skip

_LIMITATIONS = (
    Limitation(
        "*", "constants and dtypes",
        "ndonnx has no complex dtype (complex64, complex128), which the standard requires: "
        "neither namespace has the attributes, and a complex value raises "
        "NotImplementedError (docs/onnx.md)",
        test="test_constants_and_dtypes",
    ),
    *(Limitation("*", name, f"ONNX has no operator for linalg.{name} (a decomposition, or "
                 "built on one): the ndonnx backend refuses it with NotImplementedError "
                 "(docs/onnx.md)", test="reference[")
      for name in _DECOMPOSITIONS),
    *(Limitation("*", f"{module}.{name}", f"{module}.{name} is refused with "
                 "NotImplementedError: ONNX has no operator for it, or ndonnx no complex "
                 "dtype (docs/onnx.md)", test="explicit_defaults[")
      for module, names in _REFUSED_WITH_DEFAULTS for name in names),
    Limitation("*", "matrix_norm",
               "ord=2, -2 and 'nuc' need singular values, which ONNX has no operator for: "
               "NotImplementedError (docs/onnx.md)", test="extension_matches_reference["),
    Limitation("*", "default_dtypes", "ndonnx has no complex dtype, so "
               "default_dtypes()['complex floating'] names the absent complex128, which is "
               "none of the namespace's dtypes (docs/onnx.md)", test="test_default_dtypes["),
    Limitation("*", "signbit", "ONNX opset 21 has no operator that reads a float's bits "
               "(BitCast arrives in opset 26) and no comparison or arithmetic tells -NaN from "
               "NaN: signbit of a negative NaN is False (docs/onnx.md)", test="x NaN- ->"),
    Limitation("*", "copysign", "ONNX opset 21 has no operator that reads a float's bits "
               "(BitCast arrives in opset 26): a negative NaN x2 gives x1 the + sign "
               "(docs/onnx.md)", test="x2 NaN- ->"),
)

DESCRIPTOR = Descriptor(
    name="ndonnx",
    packages=("ndonnx",),
    array_types="ndonnx.Array",
    framework="ndonnx",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import ndonnx", "ndonnx.Array", "ndonnx.DType"),
    absent=("complex64", "complex128"),
    unheld=MappingProxyType({"*": frozenset({"complex64", "complex128"})}),
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    peers=("ndonnx",),
    limitations=_LIMITATIONS,
    not_a_client_target="a graph builder for ONNX export: each eager operation runs through "
                        "onnxruntime and it holds no complex dtype, so SciPy's, "
                        "scikit-learn's and array-api-extra's numerical tests are not its "
                        "use; its own tests and the main job's columns cover it",
    benchmark_setup="import ndonnx as fw; import numpy; "
                    "x = fw.asarray(numpy.linspace(0.0, 1.0, 16, dtype=numpy.float32))",
)
