"""Element-wise functions whose float64 kernels onnxruntime lacks.

onnxruntime has no float64 kernel for ``Cosh``, ``Sinh``, ``Asinh``, ``Acosh`` and
``Atanh``; ndonnx then computes them in float32 (with a UserWarning), so a float64 result
carries float32's error.  Here they are composed, for float64, of operators onnxruntime
has in double precision (``Exp``, ``Log``, ``Sqrt`` and ndonnx's ``log1p``/``expm1``),
in forms that keep their accuracy near zero and do not overflow early; signs are
applied by a product, since onnxruntime's ``Where`` drops the sign of a zero.  float32
goes to ndonnx's own functions.  (``cos``, ``tan``, ``acos``, ``asin`` and ``atan`` have
no such composition that keeps float64's accuracy for every input: they stay float32
inside, docs/onnx.md.)
"""

from __future__ import annotations

import math
from typing import Any

import ndonnx as ndx

from .._base.core import translated
from ._core import NdonnxCore

_LN2 = math.log(2.0)
#: Beyond this magnitude the large-argument forms are exact to float64's precision.
_LARGE = 1e8


class NdonnxElementwise(NdonnxCore):
    """float64 ``cosh``, ``sinh``, ``asinh``, ``acosh``, ``atanh`` in double precision."""

    def _sign_of(self, x: Any) -> Any:
        """1 or -1 by ``x``'s sign bit, as an array of ``x``'s dtype."""
        return 1 - 2 * ndx.astype((x < 0) | (ndx.reciprocal(x) < 0), x.dtype)

    @translated
    def expm1(self, x: Any, /) -> Any:
        """ndonnx's, with the sign of ``x`` (its ``Where`` makes ``expm1(-0.0)`` +0.0;
        ``expm1`` keeps the sign of its argument)."""
        return ndx.abs(ndx.expm1(x)) * self._sign_of(x)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """ndonnx's, with the sign of ``x`` (``log1p(-0.0)`` is -0.0; ``log1p`` keeps the
        sign of its argument)."""
        return ndx.abs(ndx.log1p(x)) * self._sign_of(x)

    @translated
    def cosh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.cosh(x)
        a = ndx.abs(x)
        return ndx.exp(a - _LN2) + 0.5 * ndx.exp(-a)

    @translated
    def sinh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.sinh(x)
        a = ndx.abs(x)
        u = ndx.expm1(a)
        small = 0.5 * (u + u / (u + 1.0))
        large = ndx.exp(a - _LN2) - 0.5 * ndx.exp(-a)
        return ndx.where(a > 20.0, large, small) * self._sign_of(x)

    @translated
    def asinh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.asinh(x)
        a = ndx.abs(x)
        small = ndx.log1p(a + a * a / (1.0 + ndx.sqrt(1.0 + a * a)))
        large = ndx.log(a) + _LN2
        return ndx.where(a > _LARGE, large, small) * self._sign_of(x)

    @translated
    def acosh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.acosh(x)
        t = x - 1.0
        small = ndx.log1p(t + ndx.sqrt(2.0 * t + t * t))
        large = ndx.log(x) + _LN2
        result = ndx.where(x > _LARGE, large, small)
        return ndx.where(x < 1.0, ndx.full_like(x, math.nan), result)  # (t * t overflows)

    @translated
    def atanh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.atanh(x)
        a = ndx.abs(x)
        return 0.5 * ndx.log1p(2.0 * a / (1.0 - a)) * self._sign_of(x)
