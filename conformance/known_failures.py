"""Failures the suite knows about, each with its reason.  This list must only shrink.

A failure found in a backend is fixed in that backend; an entry here is the record of one
that is not fixed yet (owner busy, framework bug).  An entry matches test items by
backend, flavour ("*" for both), spec function name (or test name) and, optionally, a
substring of the test id.  Matching items are marked ``xfail`` with the reason; one that
passes anyway is reported by ``python -m conformance`` so that its entry can go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class KnownFailure:
    backend: str
    flavour: str  # "wrapped", "native" or "*"
    function: str  # spec name as in the matrix's --functions rows, or "*"
    reason: str
    test: str = ""  # substring of the test id, "" for any

    def matches(self, nodeid: str, facts: dict[str, Any]) -> bool:
        return (
            facts["backend"] == self.backend
            and self.flavour in ("*", facts["flavour"])
            and self.function in ("*", facts["function"])
            and self.test in nodeid
        )


KNOWN_FAILURES: tuple[KnownFailure, ...] = (
    KnownFailure(
        "mlx", "native", "__setitem__",
        "MLX 0.32's own slice assignment under mx.vmap writes a value that is not mapped into "
        "the first example only: mx.vmap(f)(mx.arange(6.0).reshape(2, 3)) with "
        "f(z): z = z * 1; z[0] = -1.0; return z gives [[-1, 1, 2], [3, 4, 5]].  The native "
        "flavour's z[...] = v is MLX's own operator; the wrapped flavour's setitem maps the "
        "value first (eagerpy_xp.vmap)",
        test="test_vectorized",
    ),
    KnownFailure(
        "mlx", "*", "constants and dtypes",
        "MLX has no complex128 (its one complex dtype is complex64), which the standard "
        "requires: neither MLX namespace has the attribute, so clients that find dtypes by "
        "name (array-api-tests, hypothesis) never draw a dtype no array can have; results "
        "that would be complex128 raise NotImplementedError (docs/mlx.md)",
        test="test_constants_and_dtypes",
    ),
    KnownFailure(
        "ndonnx", "*", "constants and dtypes",
        "ndonnx has no complex dtype (complex64, complex128), which the standard requires: "
        "neither namespace has the attributes, and a complex value raises "
        "NotImplementedError (docs/onnx.md)",
        test="test_constants_and_dtypes",
    ),
    *(KnownFailure("ndonnx", "*", name, f"ONNX has no operator for linalg.{name} (a "
                   "decomposition, or built on one): the ndonnx backend refuses it with "
                   "NotImplementedError (docs/onnx.md)", test=test)
      for name in ("cholesky", "eig", "eigh", "eigvals", "eigvalsh", "qr", "svd", "svdvals",
                   "pinv", "matrix_rank")
      for test in ("reference[", "test_linalg_eig[")),
    *(KnownFailure("ndonnx", "*", f"{module}.{name}", f"{module}.{name} is refused with "
                   "NotImplementedError: ONNX has no operator for it, or ndonnx no complex "
                   "dtype (docs/onnx.md)", test="explicit_defaults[")
      for module, names in (("linalg", ("cholesky", "qr", "svd", "pinv", "matrix_rank", "eig",
                                        "eigh", "eigvals", "eigvalsh", "svdvals")),
                            ("fft", ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn",
                                     "irfftn", "hfft", "ihfft")))
      for name in names),
    KnownFailure("ndonnx", "*", "matrix_norm",
                 "ord=2, -2 and 'nuc' need singular values, which ONNX has no operator for: "
                 "NotImplementedError (docs/onnx.md)", test="reference["),
    *(KnownFailure("ndonnx", "*", name, f"fft.{name} gives or takes complex values and "
                   "ndonnx has no complex dtype: NotImplementedError (docs/onnx.md)",
                   test="reference[")
      for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn",
                   "hfft", "ihfft")),
    *(KnownFailure("ndonnx", "*", name, f"onnxruntime has no float64 kernel for {name}'s "
                   "operator: ndonnx computes float64 inputs in float32 (with a UserWarning), "
                   "so float64 results carry float32's error (docs/onnx.md)", test="reference[")
      for name in ("acos", "asin", "atan", "cos", "tan", "atan2")),
)


def match(nodeid: str, facts: dict[str, Any]) -> str | None:
    """The reason of the first entry matching a test item, or None."""
    for entry in KNOWN_FAILURES:
        if entry.matches(nodeid, facts):
            return entry.reason
    return None
