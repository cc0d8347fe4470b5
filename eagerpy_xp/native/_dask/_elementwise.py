"""The Dask backend's element-wise fixes: NumPy's deviations fixed chunk by chunk."""

from __future__ import annotations

from typing import Any

from .._base.core import translated
from ._chunks import NUMPY, aligned, elementwise
from ._core import DaskCore


class DaskElementwise(DaskCore):
    """The element-wise chapter."""

    def call_binary(self, function: str, fn: Any, x1: Any, x2: Any) -> Any:
        """``fn(x1, x2)`` on operands whose chunks Dask can line up (`aligned`)."""
        return fn(*aligned(x1, x2))

    # -- element-wise: NumPy's deviations fixed chunk by chunk --------------------------------
    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """``floor(x1 / x2)`` for infinite operands (NumPy's ``//`` rounds like Python's)."""
        return elementwise(NUMPY.floor_divide, x1, x2)

    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """``(-inf) ** 0.5`` is +inf and ``(-0.) ** 0.5`` is +0 (NumPy takes ``sqrt``)."""
        return elementwise(NUMPY.pow, x1, x2)

    @translated
    def expm1(self, x: Any, /) -> Any:
        """Complex special cases with an infinite or NaN real part, from the spec's table."""
        return elementwise(NUMPY.expm1, x)

    @translated
    def tan(self, x: Any, /) -> Any:
        """Chunk by chunk through the NumPy backend's ``tan`` (complex infinities)."""
        return elementwise(NUMPY.tan, x)

    @translated
    def tanh(self, x: Any, /) -> Any:
        """Chunk by chunk through the NumPy backend's ``tanh`` (``tanh(inf + yj)`` is
        ``1 + 0j`` with ``y``'s sign: NumPy's kernel takes it from ``sin(2y)``)."""
        return elementwise(NUMPY.tanh, x)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """Complex ``x`` near 0 keeps its digits (NumPy computes ``log(1 + x)``)."""
        return elementwise(NUMPY.log1p, x)

    @translated
    def sign(self, x: Any, /) -> Any:
        """Complex: NaN + NaN j whenever a component is NaN."""
        return elementwise(NUMPY.sign, x)
