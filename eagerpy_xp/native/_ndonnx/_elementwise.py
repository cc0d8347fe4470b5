"""Element-wise functions ndonnx gets wrong or lacks.

onnxruntime has no float64 kernel for ``Tan``, ``Atan``, ``Asin``, ``Acos``, ``Cosh``,
``Sinh``, ``Asinh``, ``Acosh`` and ``Atanh`` (and ndonnx casts ``Cos``, which has one):
ndonnx computes them in float32 (with a UserWarning).  Here float64 ``cos`` is ONNX's
double ``Cos``, ``tan`` is ``sin / cos``, ``atan`` is float32's refined by Newton steps in
double precision (``asin``, ``acos``, ``atan2`` build on it), and the hyperbolic
functions are composed of ``Exp``, ``Log``, ``Sqrt`` and ndonnx's ``log1p``/``expm1``,
in forms that keep their accuracy near zero and do not overflow early.  Signs are
applied by a product or kept in ``Where``'s second operand: onnxruntime's ``Where``
makes a -0.0 picked from its first operand +0.0.  Also here: ``copysign``, ``signbit``,
``hypot``, ``logaddexp``, ``trunc``, a right shift that is arithmetic for every count,
``nextafter`` by arithmetic, integer division by zero, Python ints beside 64-bit
arrays.  float32 goes to ndonnx's own functions where they are right.
"""

from __future__ import annotations

import math
from typing import Any

import ndonnx as ndx
import numpy as np
import spox.opset.ai.onnx.v21 as _onnx

from .._base.core import int_beyond_dtype, translated
from ._core import Array, constant
from ._indexing import NdonnxIndexing

_LN2 = math.log(2.0)
#: Beyond this magnitude the large-argument forms are exact to float64's precision.
_LARGE = 1e8


#: A floating dtype's (mantissa bits, smallest normal exponent): its spacing at ``2**e``
#: is ``2**(e - bits)``, and ``2**(low - bits)`` below ``2**low`` (the subnormals).
_FLOAT_LAYOUT = {"float32": (23, -126), "float64": (52, -1022)}


class NdonnxElementwise(NdonnxIndexing):
    """float64 ``cosh``, ``sinh``, ``asinh``, ``acosh``, ``atanh`` in double precision;
    the element-wise functions whose ndonnx versions lose a zero's sign, overflow early
    or fail in onnxruntime."""

    def _sign_of(self, x: Any) -> Any:
        """1 or -1 by ``x``'s sign bit, as an array of ``x``'s dtype."""
        return 1 - 2 * ndx.astype((x < 0) | (ndx.reciprocal(x) < 0), x.dtype)

    @translated
    def expm1(self, x: Any, /) -> Any:
        """ndonnx's, with the sign of ``x`` (its ``Where`` makes ``expm1(-0.0)`` +0.0;
        ``expm1`` keeps the sign of its argument)."""
        return self.fuse("expm1", lambda a: ndx.abs(ndx.expm1(a)) * self._sign_of(a), x)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """ndonnx's, with the sign of ``x`` (``log1p(-0.0)`` is -0.0; ``log1p`` keeps the
        sign of its argument)."""
        return self.fuse("log1p", lambda a: ndx.abs(ndx.log1p(a)) * self._sign_of(a), x)

    @translated
    def cosh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.cosh(x)
        return self.fuse("cosh", lambda a: ndx.exp(ndx.abs(a) - _LN2) + 0.5 * ndx.exp(-ndx.abs(a)), x)

    @translated
    def sinh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.sinh(x)
        return self.fuse("sinh", self._sinh, x)

    def _sinh(self, x: Any) -> Any:
        a = ndx.abs(x)
        u = ndx.expm1(a)
        small = 0.5 * (u + u / (u + 1.0))
        large = ndx.exp(a - _LN2) - 0.5 * ndx.exp(-a)
        return ndx.where(a > 20.0, large, small) * self._sign_of(x)

    @translated
    def asinh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.asinh(x)
        return self.fuse("asinh", self._asinh, x)

    def _asinh(self, x: Any) -> Any:
        a = ndx.abs(x)
        small = ndx.log1p(a + a * a / (1.0 + ndx.sqrt(1.0 + a * a)))
        large = ndx.log(a) + _LN2
        return ndx.where(a > _LARGE, large, small) * self._sign_of(x)

    @translated
    def acosh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.acosh(x)
        return self.fuse("acosh", self._acosh, x)

    def _acosh(self, x: Any) -> Any:
        t = x - 1.0
        small = ndx.log1p(t + ndx.sqrt(2.0 * t + t * t))
        large = ndx.log(x) + _LN2
        result = ndx.where(x > _LARGE, large, small)
        return ndx.where(x < 1.0, ndx.full_like(x, math.nan), result)  # (t * t overflows)

    @translated
    def atanh(self, x: Any, /) -> Any:
        if x.dtype != ndx.float64:
            return ndx.atanh(x)
        return self.fuse("atanh", self._atanh, x)

    def _atanh(self, x: Any) -> Any:
        a = ndx.abs(x)
        return 0.5 * ndx.log1p(2.0 * a / (1.0 - a)) * self._sign_of(x)

    # -- float64 trigonometry: onnxruntime has double Sin and Cos, not Tan, Atan, Asin, Acos
    @translated
    def cos(self, x: Any, /) -> Any:
        """ONNX's ``Cos`` itself for float64 (onnxruntime has a double kernel; ndonnx
        casts to float32 anyway)."""
        if x.dtype != ndx.float64:
            return ndx.cos(x)
        return ndx.asarray(_onnx.cos(x.unwrap_spox()))

    @translated
    def tan(self, x: Any, /) -> Any:
        """float64: ``sin(x) / cos(x)`` in double precision (onnxruntime has no double
        ``Tan``)."""
        if x.dtype != ndx.float64:
            return ndx.tan(x)
        return ndx.sin(x) / self.cos(x)

    @translated
    def atan(self, x: Any, /) -> Any:
        """float64: float32's ``Atan`` (onnxruntime has no double one) refined by two
        Newton steps on ``sin(y) - x cos(y)`` in double precision (each squares the
        error: 1e-7, 1e-14, below float64's); ``|x| > 1`` through
        ``pi/2 - atan(1/|x|)``; infinities give ``pi/2`` exactly; the sign is ``x``'s."""
        if x.dtype != ndx.float64:
            return ndx.atan(x)
        return self.fuse("atan", self._atan, x)

    def _atan(self, x: Any) -> Any:
        a = ndx.abs(x)
        large = a > 1.0
        t = ndx.where(large, 1.0 / a, a)  # in [0, 1] (NaN stays NaN)
        y = ndx.astype(ndx.atan(ndx.astype(t, ndx.float32)), ndx.float64)
        for _ in range(2):
            c = self.cos(y)
            y = y - c * (ndx.sin(y) - t * c)
        y = ndx.where(large, math.pi / 2 - y, y)
        return ndx.abs(y) * self._sign_of(x)

    @translated
    def asin(self, x: Any, /) -> Any:
        """float64: ``atan(x / sqrt((1 - x)(1 + x)))`` (``±1``: ``±pi/2``; beyond: NaN)."""
        if x.dtype != ndx.float64:
            return ndx.asin(x)
        return self.fuse("asin", self._asin, x)

    def _asin(self, x: Any) -> Any:
        return self._atan(x / ndx.sqrt((1.0 - x) * (1.0 + x)))

    @translated
    def acos(self, x: Any, /) -> Any:
        """float64: ``2 atan(sqrt((1 - x) / (1 + x)))`` (``-1``: ``pi``; beyond: NaN)."""
        if x.dtype != ndx.float64:
            return ndx.acos(x)
        return self.fuse("acos", self._acos, x)

    def _acos(self, x: Any) -> Any:
        return 2.0 * self._atan(ndx.sqrt((1.0 - x) / (1.0 + x)))

    @translated
    def trunc(self, x: Any, /) -> Any:
        """ndonnx's, with the sign of ``x`` (its ``Where`` makes ``trunc(-0.5)`` +0.0)."""
        if self.dtype_name(x.dtype) not in ("float32", "float64"):
            return ndx.trunc(x)
        return self.fuse("trunc", lambda a: ndx.abs(ndx.trunc(a)) * self._sign_of(a), x)

    @translated
    def logaddexp(self, x1: Any, x2: Any, /) -> Any:
        """``max + log1p(exp(-|x1 - x2|))`` (ndonnx's ``log(exp(x1) + exp(x2))`` overflows
        above 709); equal operands, infinities included, give ``x + log(2)``."""
        x1, x2 = self.float_pair(x1, x2, "logaddexp")
        return self.fuse("logaddexp", self._logaddexp, x1, x2)

    def _logaddexp(self, x1: Any, x2: Any) -> Any:
        high = ndx.maximum(x1, x2)
        gap = ndx.abs(x1 - x2)
        result = high + ndx.log1p(ndx.exp(-gap))
        return ndx.where(x1 == x2, x1 + _LN2, result)

    def float_pair(self, x1: Any, x2: Any, function: str) -> tuple[Any, Any]:
        """Both operands as arrays of their promoted real floating dtype (a Python scalar
        takes the other operand's)."""
        if type(x1) is not Array:
            x1 = constant(x1, x2.dtype.unwrap_numpy())
        if type(x2) is not Array:
            x2 = constant(x2, x1.dtype.unwrap_numpy())
        name = self.promote_names(self.dtype_name(x1.dtype), self.dtype_name(x2.dtype), function)
        dtype = self.dtypes_by_name[name]
        return ndx.astype(x1, dtype, copy=False), ndx.astype(x2, dtype, copy=False)

    @translated
    def bitwise_right_shift(self, x1: Any, x2: Any, /) -> Any:
        """An arithmetic shift for every shift count: ndonnx divides a signed ``x1`` by
        ``2**x2``, which overflows (and onnxruntime's ``Div`` fails) once ``x2`` reaches
        the width; here a signed ``x1`` shifts as its unsigned twin through ONNX's
        ``BitShift`` (a negative one as the complement of its complement's shift), with
        counts clamped to ``[0, bits - 1]`` (the same result; ``BitShift`` by the width
        or more is undefined in C++).  A Python int beside an array takes its dtype."""
        beyond = int_beyond_dtype(self, "bitwise_right_shift", x1, x2)
        if beyond is not None:  # (raises: no comparison)
            return beyond
        if type(x1) is not Array:
            x1 = self.scalar_like(x1, x2)
        if type(x2) is not Array:
            x2 = self.scalar_like(x2, x1)
        name = self.promote_names(self.dtype_name(x1.dtype), self.dtype_name(x2.dtype),
                                  "bitwise_right_shift")  # fmt: skip
        dtype = self.dtypes_by_name[name]
        x1, x2 = ndx.astype(x1, dtype, copy=False), ndx.astype(x2, dtype, copy=False)
        return self.fuse("bitwise_right_shift", self._right_shift, x1, x2)

    def _right_shift(self, x1: Any, x2: Any) -> Any:
        dtype = x1.dtype
        name = self.dtype_name(dtype)
        bits = np.iinfo(dtype.unwrap_numpy()).bits
        unsigned = self.dtypes_by_name[name if name.startswith("u") else f"u{name}"]
        count = ndx.astype(ndx.clip(x2, 0, bits - 1), unsigned)
        if name.startswith("u"):
            return ndx.bitwise_right_shift(x1, count)
        negative = x1 < 0
        magnitude = ndx.where(negative, ndx.bitwise_invert(x1), x1)  # (non-negative)
        shifted = ndx.astype(ndx.bitwise_right_shift(ndx.astype(magnitude, unsigned), count),
                             dtype)  # fmt: skip
        return ndx.where(negative, ndx.bitwise_invert(shifted), shifted)

    @translated
    def nextafter(self, x1: Any, x2: Any, /) -> Any:
        """The next representable number after ``x1`` toward ``x2``, by arithmetic (ONNX
        opset 21 reads no float's bits): ``x1`` plus or minus the spacing of its binade,
        ``2**(e - mantissa bits)`` for ``2**e <= |x1| < 2**(e + 1)`` (``e`` from ``log2``,
        corrected by one either way; half of it going down from ``2**e`` itself; the
        smallest subnormal at and below the smallest normal), which addition makes exact.
        ``x1 == x2`` gives ``x2`` (signed zeros kept); NaN gives NaN; an infinity steps to
        the largest finite number."""
        x1, x2 = self.float_pair(x1, x2, "nextafter")
        return self.fuse("nextafter", self._nextafter, x1, x2)

    def _nextafter(self, x1: Any, x2: Any) -> Any:
        name = self.dtype_name(x1.dtype)
        bits, low = _FLOAT_LAYOUT[name]
        dtype = x1.dtype
        two = ndx.asarray(2.0, dtype=dtype)
        magnitude = ndx.abs(x1)
        finite = ndx.isfinite(magnitude) & (magnitude > 0)
        safe = ndx.where(finite, magnitude, ndx.ones_like(magnitude))
        e = ndx.floor(ndx.log2(safe))
        e = ndx.where(two ** e > safe, e - 1, e)
        e = ndx.where(two ** (e + 1) <= safe, e + 1, e)
        e = ndx.maximum(e, ndx.asarray(float(low), dtype=dtype))
        up = two ** (e - bits)  # the spacing above |x1|
        power = (two ** e == safe) & (e > low)
        down = ndx.where(power, up / 2, up)  # the spacing below |x1|
        tiny = ndx.asarray(float(np.finfo(dtype.unwrap_numpy()).smallest_subnormal), dtype=dtype)
        largest = ndx.asarray(float(np.finfo(dtype.unwrap_numpy()).max), dtype=dtype)
        rising = x2 > x1
        away = ndx.where(rising, x1 >= 0, x1 <= 0)  # |x1| grows
        step = ndx.where(magnitude == 0, tiny, ndx.where(away, up, down))
        moved = ndx.where(rising, x1 + step, x1 - step)
        moved = ndx.where(ndx.isinf(x1), ndx.where(x1 > 0, largest, -largest), moved)
        same = x1 == x2
        chosen = ndx.where(same, x2, moved)
        # (onnxruntime's Where returns +0.0 for a -0.0 it picks from its first operand)
        # (a step to zero keeps x1's sign: nextafter(-tiny, 1) is -0.0)
        sign = ndx.where(same, self._sign_of(x2),
                         ndx.where(moved == 0, self._sign_of(x1), self._sign_of(moved)))  # fmt: skip
        result = ndx.abs(chosen) * sign
        return ndx.where(ndx.isnan(x1) | ndx.isnan(x2), ndx.full_like(x1, math.nan), result)

    def _int_operands(self, function: str, x1: Any, x2: Any) -> tuple[Any, Any]:
        """A Python int operand beside an integer array as a 0-d array of its dtype
        (`OverflowError` beyond it); other operands as they are."""
        if (type(x1) is int and type(x2) is Array) or (type(x2) is int and type(x1) is Array):
            int_beyond_dtype(self, function, x1, x2)  # (raises: no comparison here)
            array: Any = x2 if type(x2) is Array else x1
            if self.dtype_name(array.dtype) in _INTEGERS:
                return self.scalar_like(x1, x2), self.scalar_like(x2, x1)
        return x1, x2

    @translated
    def conj(self, x: Any, /) -> Any:
        """Real arrays only (ndonnx has no complex dtype): the values themselves."""
        return ndx.asarray(x, copy=True)

    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """``|x1|``, negated where ``x2``'s sign bit is set (ndonnx has no copysign):
        ``Neg`` flips a NaN's sign too, and the negated value is ``Where``'s second
        operand, whose signed zeros and NaNs onnxruntime keeps (it makes a -0.0 picked
        from its first operand +0.0).  The sign of a NaN ``x2`` is not seen (`signbit`)."""
        x1, x2 = self.float_pair(x1, x2, "copysign")
        return self.fuse("copysign", self._copysign, x1, x2)

    def _copysign(self, x1: Any, x2: Any) -> Any:
        magnitude = ndx.abs(x1)
        return ndx.where(~self.signbit(x2), magnitude, -magnitude)

    @translated
    def signbit(self, x: Any, /) -> Any:
        """Negative values and negative zero (``1 / -0.0`` is ``-inf``); ONNX reads no
        bits, so a NaN's sign is not seen (False)."""
        if self.dtype_name(x.dtype) not in ("float32", "float64"):
            return x < 0
        return (x < 0) | (ndx.reciprocal(x) < 0)

    @translated
    def hypot(self, x1: Any, x2: Any, /) -> Any:
        """``sqrt(x1**2 + x2**2)`` scaled by the larger magnitude (no overflow); an
        infinity wins over NaN, as the standard says."""
        x1, x2 = self.float_pair(x1, x2, "hypot")
        return self.fuse("hypot", self._hypot, x1, x2)

    def _hypot(self, x1: Any, x2: Any) -> Any:
        a, b = ndx.abs(x1), ndx.abs(x2)
        big, small = ndx.maximum(a, b), ndx.minimum(a, b)
        safe = ndx.where(big == 0, ndx.ones_like(big), big)
        ratio = small / safe
        result = big * ndx.sqrt(1 + ratio * ratio)
        return ndx.where(ndx.isinf(a) | ndx.isinf(b), ndx.full_like(big, math.inf), result)

    @translated
    def atan2(self, x1: Any, x2: Any, /) -> Any:
        """The angle of ``(x2, x1)``: ``atan(|x1| / |x2|)`` moved to its quadrant, then
        given ``x1``'s sign by a product (onnxruntime's ``Where`` drops a zero's); the
        standard's special values (multiples of pi/4, signed zeros) as exact constants,
        not through ``atan``."""
        y, x = self.float_pair(x1, x2, "atan2")
        return self.fuse("atan2", self._atan2, y, x)

    def _atan2(self, y: Any, x: Any) -> Any:
        dtype = y.dtype
        pi = ndx.asarray(math.pi, dtype=dtype)
        half = ndx.asarray(math.pi / 2, dtype=dtype)
        sign_y = 1 - 2 * ndx.astype(self.signbit(y), dtype)
        ay, ax = ndx.abs(y), ndx.abs(x)
        inf_y, inf_x = ndx.isinf(ay), ndx.isinf(ax)
        ratio = ay / ax
        angle = self._atan(ratio) if y.dtype == ndx.float64 else ndx.atan(ratio)  # [0, pi/2]
        angle = ndx.where(inf_y | (ax == 0), half, angle)
        angle = ndx.where(inf_y & inf_x, ndx.asarray(math.pi / 4, dtype=dtype), angle)
        angle = ndx.where(ay == 0, ndx.zeros_like(y), angle)  # (x == 0 too: the zeros)
        angle = ndx.where(self.signbit(x), pi - angle, angle)
        result = ndx.where(ndx.isnan(x) | ndx.isnan(y), ndx.full_like(y, math.nan), angle)
        return result * sign_y

    @translated
    def real(self, x: Any, /) -> Any:
        """Real arrays only (ndonnx has no complex dtype): the values themselves."""
        return ndx.asarray(x, copy=True)

    @translated
    def imag(self, x: Any, /) -> Any:
        """Real arrays only: zeros."""
        return ndx.zeros_like(x)

    @translated
    def divide(self, x1: Any, x2: Any, /) -> Any:
        """``ndx.divide`` of the operands at their promoted dtype: with an integer array
        first and a floating one second, ndonnx divides in float64 whatever the floating
        one's dtype (``uint8 / float32`` is float64, ``float32 / uint8`` float32, and
        ``result_type`` float32).  Two integer arrays give the default float64."""
        int_beyond_dtype(self, "divide", x1, x2)  # OverflowError for an int beyond the dtype
        if type(x1) is Array and type(x2) is Array and x1.dtype != x2.dtype:
            dtype = ndx.result_type(x1, x2)
            if self.dtype_name(dtype) in ("float32", "float64"):
                x1, x2 = ndx.astype(x1, dtype), ndx.astype(x2, dtype)
        return ndx.divide(x1, x2)

    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """Integer division by zero gives 0, as NumPy's (onnxruntime's ``Div`` fails the
        whole model on it)."""
        return self._integer_safe("floor_divide", ndx.floor_divide, x1, x2)

    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """An integer remainder by zero is 0, as NumPy's (onnxruntime's ``Mod`` fails)."""
        return self._integer_safe("remainder", ndx.remainder, x1, x2)

    def _integer_safe(self, function: str, op: Any, x1: Any, x2: Any) -> Any:
        """``op(x1, x2)``, an integer division by zero giving 0; ndonnx's floor division
        and remainder are a dozen operators: run fused (`NdonnxCore.fuse`) where both
        operands are arrays or a Python number that takes the array's dtype."""
        x1, x2 = self._int_operands(function, x1, x2)
        x1, x2 = self._same_kind(x1, x2), self._same_kind(x2, x1)
        if type(x1) is not Array or type(x2) is not Array:
            return self._divided(op, x1, x2)
        return self.fuse(function, lambda a, b: self._divided(op, a, b), x1, x2)

    def _divided(self, op: Any, x1: Any, x2: Any) -> Any:
        divisor = x2 if type(x2) is Array else None
        if divisor is None or self.dtype_name(divisor.dtype) not in _INTEGERS:
            return op(x1, x2)
        zero = divisor == 0
        result = op(x1, self.select(zero, ndx.asarray(1, dtype=divisor.dtype), divisor))
        return self.select(zero, ndx.zeros_like(result), result)

    def _same_kind(self, value: Any, like: Any) -> Any:
        """A Python number as a 0-d constant of the array ``like``'s dtype where the
        standard's promotion gives that dtype (an int beside an integer or floating
        array, a float beside a floating one, a bool beside a bool); else as it is."""
        if type(like) is not Array or type(value) not in (bool, int, float):
            return value
        name = self.dtype_name(like.dtype)
        fits = (type(value) is bool and name == "bool") or \
            (type(value) is int and name != "bool") or \
            (type(value) is float and name in ("float32", "float64"))  # fmt: skip
        return constant(value, like.dtype.unwrap_numpy()) if fits else value


#: The integer dtype names.
_INTEGERS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
