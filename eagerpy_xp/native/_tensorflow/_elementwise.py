"""Element-wise functions on TensorFlow: promotion, integer corners and special cases."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from ..._dtypes import BITS
from .._base import elementwise, fastpath
from .._base.core import int_beyond_dtype, translated
from ._core import BITS_OF_FLOAT, FLOAT_KINDS, INTEGRAL_KINDS, TFBase
from ._eager import (
    ANY,
    BOOL,
    EAGER,
    FLOATING,
    INTEGER,
    NUMERIC,
    REAL,
    REAL_FLOAT,
    raw_binary,
    raw_op,  # fmt: skip
    scalar,
)
from ._ranks import select

#: TensorFlow's fast lane: eager tensors of the dtypes whose raw op computes the
#: standard's function, by category (a tuple, most common first: a hit is an identity
#: test), or one beside a Python scalar made a cached constant of its dtype (`scalar`).
#: A function made on it names its raw op (``op=``): the `tf.math` function adds its own
#: dispatch layers.
_LANE = elementwise.Lane(EAGER, {"numeric": NUMERIC, "real numeric": REAL,
                                 "floating-point": FLOATING, "real floating-point": REAL_FLOAT},
                         scalar)  # fmt: skip


#: (complex64?) -> the component magnitudes between which |z|**2 is a normal number.
_SQUARE_SAFE = {False: (2.0**-500, 2.0**500), True: (2.0**-60, 2.0**60)}
#: (complex64?) -> ``(2**k, 2**(-k/2))``: a complex below `_SQUARE_SAFE`'s range, even a
#: subnormal one, times ``2**k`` is inside it (exactly: powers of two).
_TINY_SQRT_SCALE = {False: (2.0**1000, 2.0**-500), True: (2.0**100, 2.0**-50)}


class ElementwiseMixin(TFBase):
    """The element-wise chapter."""

    # -- TensorFlow's function (`call_unary`: a variable or `Array` read as a tensor) -----
    acos = elementwise.unary("acos", tf.math.acos, _LANE, op=raw_op("Acos"))
    acosh = elementwise.unary("acosh", tf.math.acosh, _LANE, op=raw_op("Acosh"))
    asin = elementwise.unary("asin", tf.math.asin, _LANE, op=raw_op("Asin"))
    asinh = elementwise.unary("asinh", tf.math.asinh, _LANE, op=raw_op("Asinh"))
    atan = elementwise.unary("atan", tf.math.atan, _LANE, op=raw_op("Atan"))
    atanh = elementwise.unary("atanh", tf.math.atanh, _LANE, op=raw_op("Atanh"))
    cos = elementwise.unary("cos", tf.math.cos, _LANE, op=raw_op("Cos"))
    cosh = elementwise.unary("cosh", tf.math.cosh, _LANE, op=raw_op("Cosh"))
    exp = elementwise.unary("exp", tf.math.exp, _LANE, op=raw_op("Exp"))
    sin = elementwise.unary("sin", tf.math.sin, _LANE, op=raw_op("Sin"))
    sinh = elementwise.unary("sinh", tf.math.sinh, _LANE, op=raw_op("Sinh"))

    # -- TensorFlow's function once the operands are promoted (`call_binary`) -------------
    add = elementwise.binary("add", tf.math.add, _LANE, op=raw_binary("AddV2", "add"))
    subtract = elementwise.binary("subtract", tf.math.subtract, _LANE, op=raw_binary("Sub", "subtract"))
    multiply = elementwise.binary("multiply", tf.math.multiply, _LANE, op=raw_binary("Mul", "multiply"))
    maximum = elementwise.binary("maximum", tf.math.maximum, _LANE, op=raw_binary("Maximum", "maximum"))
    minimum = elementwise.binary("minimum", tf.math.minimum, _LANE, op=raw_binary("Minimum", "minimum"))
    nextafter = elementwise.binary("nextafter", tf.math.nextafter, _LANE, op=raw_binary("NextAfter", "nextafter"))

    def call_unary(self, function: str, fn: Callable[[Any], Any], x: Any) -> Any:
        """TensorFlow's ``fn`` of ``x`` read as a tensor (a variable, an `Array`)."""
        return fn(self.tensor(x, function))

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        """TensorFlow's ``fn`` of the operands promoted as the standard says (`_pair`:
        arrays of this backend and of the function's category, or Python scalars)."""
        a, b, _ = self._pair(function, x1, x2)
        return fn(a, b)

    # -- arithmetic ----------------------------------------------------------------------
    @fastpath.binary(EAGER, REAL_FLOAT, raw_binary("RealDiv", "divide"), scalar)
    @translated
    def divide(self, x1: Any, x2: Any, /) -> Any:
        """Integer operands divide in float64 (unspecified by the standard)."""
        a, b, _ = self._pair("divide", x1, x2)
        if self.kind(a) == "complex floating":
            return self._complex_divide(a, b)
        if self.kind(a) not in FLOAT_KINDS:
            a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
        return tf.math.divide(a, b)

    def _complex_divide(self, a: Any, b: Any) -> Any:
        """Smith's algorithm with NumPy's zero-divisor rule (TensorFlow's kernel gives NaN
        for finite / 0 and for infinite divisors)."""
        ar, ai, br, bi = tf.math.real(a), tf.math.imag(a), tf.math.real(b), tf.math.imag(b)
        abs_r, abs_i = tf.math.abs(br), tf.math.abs(bi)
        one = tf.ones_like(br)
        real_first = abs_r >= abs_i
        zero = tf.equal(abs_r, 0) & tf.equal(abs_i, 0)
        safe_r = select(tf.equal(br, 0), one, br)
        safe_i = select(tf.equal(bi, 0), one, bi)
        rat1 = bi / safe_r
        den1 = br + bi * rat1
        re1, im1 = (ar + ai * rat1) / den1, (ai - ar * rat1) / den1
        rat2 = br / safe_i
        den2 = bi + br * rat2
        re2, im2 = (ar * rat2 + ai) / den2, (ai * rat2 - ar) / den2
        re = select(real_first, select(zero, ar / abs_r, re1), re2)
        im = select(real_first, select(zero, ai / abs_r, im1), im2)
        return tf.complex(re, im)

    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """Integer division by zero gives 0; floats follow NumPy's floor division."""
        a, b, _ = self._pair("floor_divide", x1, x2)
        if self.kind(a) in INTEGRAL_KINDS:
            special, a, safe = self._safe_divisor(a, b)
            patched = select(tf.equal(b, 0), tf.zeros_like(a), self.negative(a))
            return select(special, patched, tf.math.floordiv(a, safe))
        return self._float_floor_divide(a, b)

    def _float_floor_divide(self, a: Any, b: Any) -> Any:
        # NumPy's algorithm: (a - fmod(a, b)) / b, corrected towards floor; floor(a / b)
        # where an operand is infinite or b is zero.
        mod = self._fmod(a, b)
        div = (a - mod) / b
        wrong_sign = tf.not_equal(mod, 0) & tf.not_equal(b < 0, mod < 0)
        div = select(wrong_sign, div - 1, div)
        floor = tf.math.floor(div)
        floor = select(div - floor > 0.5, floor + 1, floor)
        quotient = a / b
        floor = select(tf.equal(div, 0), self.copysign(tf.zeros_like(a), quotient), floor)
        special = tf.math.is_inf(a) | tf.math.is_inf(b) | tf.equal(b, 0)
        return select(special, tf.math.floor(quotient), floor)

    def _fmod(self, a: Any, b: Any) -> Any:
        """C's fmod (the sign of the dividend)."""
        return tf.raw_ops.TruncateMod(x=a, y=b)

    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """Integer remainder by zero gives 0; floats have the sign of the divisor."""
        a, b, _ = self._pair("remainder", x1, x2)
        if self.kind(a) in INTEGRAL_KINDS:
            special, a, safe = self._safe_divisor(a, b)
            return select(special, tf.zeros_like(a), tf.math.floormod(a, safe))
        # NumPy's algorithm: fmod, moved into the divisor's sign; zeros take its sign
        mod = self._fmod(a, b)
        wrong_sign = tf.not_equal(mod, 0) & tf.not_equal(b < 0, mod < 0)
        mod = select(wrong_sign, mod + b, mod)
        return select(tf.equal(mod, 0), self.copysign(tf.zeros_like(a), b), mod)

    @fastpath.binary(EAGER, REAL_FLOAT, raw_binary("Pow", "pow"), scalar)
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """Integer powers wrap around; a negative integer exponent gives 0 (unspecified)."""
        a, b, name = self._pair("pow", x1, x2)
        if self.kind(a) == "complex floating":
            n = elementwise.integral_exponent(x2)
            if n is not None:  # by multiplying, as NumPy's (TensorFlow: exp(n * log(x)))
                return elementwise.complex_integer_power(a, n, tf.math.multiply,
                                                         tf.math.reciprocal, tf.ones_like)  # fmt: skip
            return self._complex_pow(a, b)
        if self.kind(a) not in INTEGRAL_KINDS:
            return tf.math.pow(a, b)
        int64 = tf.int64
        sa = tf.bitcast(a, int64) if name == "uint64" else tf.cast(a, int64)
        sb = tf.bitcast(b, int64) if name == "uint64" else tf.cast(b, int64)
        if name == "uint64":  # exponents of 2**63 or more: a huge exponent has the same effect
            sb = select(sb < 0, tf.constant(2**62, int64), sb)
        negative = sb < 0
        result = tf.math.pow(sa, select(negative, tf.zeros_like(sb), sb))
        odd = tf.equal(tf.math.floormod(sb, 2), 1)
        inverse = select(
            tf.equal(sa, 1) | (tf.equal(sa, -1) & ~odd),
            tf.ones_like(sa),
            select(tf.equal(sa, -1), -tf.ones_like(sa), tf.zeros_like(sa)),
        )
        result = select(negative, inverse, result)
        return tf.bitcast(result, a.dtype) if name == "uint64" else tf.cast(result, a.dtype)

    def _complex_pow(self, a: Any, b: Any) -> Any:
        """``x ** 0 == 1`` and ``0 ** x == 0`` for ``real(x) > 0`` (TensorFlow: NaN)."""
        result = tf.math.pow(a, b)
        zero_exponent = tf.equal(b, tf.zeros((), b.dtype))
        zero_base = tf.equal(a, tf.zeros((), a.dtype)) & (tf.math.real(b) > 0)
        result = select(zero_base, tf.zeros_like(result), result)
        return select(zero_exponent, tf.ones_like(result), result)

    @fastpath.binary(EAGER, REAL_FLOAT, raw_binary("Atan2", "atan2"), scalar)
    @translated
    def atan2(self, x1: Any, x2: Any, /) -> Any:
        a, b, _ = self._pair("atan2", x1, x2)
        if self.kind(a) not in FLOAT_KINDS:
            a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
        return tf.math.atan2(a, b)

    @translated
    def hypot(self, x1: Any, x2: Any, /) -> Any:
        """Computed in float64 for float32 (no TensorFlow kernel); inf wins over NaN."""
        a, b, name = self._pair("hypot", x1, x2)
        wide = tf.cast(a, tf.float64) if name != "float64" else a
        wb = tf.cast(b, tf.float64) if name != "float64" else b
        wa, wb = tf.abs(wide), tf.abs(wb)
        big, small = tf.maximum(wa, wb), tf.minimum(wa, wb)
        safe = select(tf.equal(big, 0), tf.ones_like(big), big)
        ratio = small / safe
        result = big * tf.sqrt(1 + ratio * ratio)
        result = select(tf.equal(big, 0), tf.zeros_like(big), result)
        result = select(tf.math.is_inf(wa) | tf.math.is_inf(wb),
                          tf.constant(math.inf, tf.float64), result)  # fmt: skip
        out = "float64" if name not in ("float32", "float64") else name
        return tf.cast(result, self.tfd(out))

    @translated
    def logaddexp(self, x1: Any, x2: Any, /) -> Any:
        a, b, _name = self._pair("logaddexp", x1, x2)
        if self.kind(a) not in FLOAT_KINDS:
            a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
        big = tf.maximum(a, b)
        diff = select(tf.equal(a, b), tf.zeros_like(a), -tf.abs(a - b))
        return select(tf.math.is_nan(a) | tf.math.is_nan(b), a + b,
                        big + tf.math.log1p(tf.exp(diff)))  # fmt: skip

    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """Exact on the bits: NaN signs and signed zeros are honoured."""
        a, b, name = self._pair("copysign", x1, x2)
        if self.kind(a) not in FLOAT_KINDS:
            a, b, name = tf.cast(a, tf.float64), tf.cast(b, tf.float64), "float64"
        ibits = self.tfd(BITS_OF_FLOAT[name])
        sign = tf.constant(-(2 ** (BITS[name] - 1)), ibits)
        magnitude = tf.bitwise.bitwise_and(tf.bitcast(a, ibits), tf.bitwise.invert(sign))
        return tf.bitcast(tf.bitwise.bitwise_or(magnitude, tf.bitwise.bitwise_and(
            tf.bitcast(b, ibits), sign)), a.dtype)  # fmt: skip

    # -- comparisons and logic -------------------------------------------------------------
    @fastpath.binary(EAGER, ANY, raw_binary("Equal", "equal"), scalar)
    @translated
    def equal(self, x1: Any, x2: Any, /) -> Any:
        beyond = self._int_beyond("equal", x1, x2)
        if beyond is not None:
            return beyond
        (a, b), _ = self.operands("equal", x1, x2)
        return tf.math.equal(a, b)

    @fastpath.binary(EAGER, ANY, raw_binary("NotEqual", "not_equal"), scalar)
    @translated
    def not_equal(self, x1: Any, x2: Any, /) -> Any:
        beyond = self._int_beyond("not_equal", x1, x2)
        if beyond is not None:
            return beyond
        (a, b), _ = self.operands("not_equal", x1, x2)
        return tf.math.not_equal(a, b)

    def _int_beyond(self, function: str, x1: Any, x2: Any) -> Any:
        """A comparison of an integer tensor with a Python int beyond its dtype: exact
        (``int8 < 1000`` is all True, as NumPy); None for any other operands."""
        beyond = int_beyond_dtype(self, function, x1, x2)
        if beyond is None:
            return None
        array, value = beyond
        return tf.fill(tf.shape(array), value)

    def _ordered(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        beyond = self._int_beyond(function, x1, x2)
        if beyond is not None:
            return beyond
        a, b, _ = self._pair(function, x1, x2)
        if self.kind(a) == "bool":
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return fn(a, b)

    @fastpath.binary(EAGER, REAL, raw_binary("Less", "less"), scalar)
    @translated
    def less(self, x1: Any, x2: Any, /) -> Any:
        return self._ordered("less", tf.math.less, x1, x2)

    @fastpath.binary(EAGER, REAL, raw_binary("LessEqual", "less_equal"), scalar)
    @translated
    def less_equal(self, x1: Any, x2: Any, /) -> Any:
        return self._ordered("less_equal", tf.math.less_equal, x1, x2)

    @fastpath.binary(EAGER, REAL, raw_binary("Greater", "greater"), scalar)
    @translated
    def greater(self, x1: Any, x2: Any, /) -> Any:
        return self._ordered("greater", tf.math.greater, x1, x2)

    @fastpath.binary(EAGER, REAL, raw_binary("GreaterEqual", "greater_equal"), scalar)
    @translated
    def greater_equal(self, x1: Any, x2: Any, /) -> Any:
        return self._ordered("greater_equal", tf.math.greater_equal, x1, x2)

    def _logical(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        self.check_operands(function, x1, x2)
        (a, b), _ = self.operands(function, x1, x2)
        return fn(self._as_bool(a), self._as_bool(b))

    def _as_bool(self, x: Any) -> Any:
        return self.nonzero_mask(x)

    @fastpath.binary(EAGER, BOOL, raw_binary("LogicalAnd", "logical_and"), scalar)
    @translated
    def logical_and(self, x1: Any, x2: Any, /) -> Any:
        return self._logical("logical_and", tf.math.logical_and, x1, x2)

    @fastpath.binary(EAGER, BOOL, raw_binary("LogicalOr", "logical_or"), scalar)
    @translated
    def logical_or(self, x1: Any, x2: Any, /) -> Any:
        return self._logical("logical_or", tf.math.logical_or, x1, x2)

    @translated
    def logical_xor(self, x1: Any, x2: Any, /) -> Any:
        return self._logical("logical_xor", tf.math.logical_xor, x1, x2)

    @fastpath.unary(EAGER, BOOL, raw_op("LogicalNot"))
    @translated
    def logical_not(self, x: Any, /) -> Any:
        return tf.math.logical_not(self._as_bool(self.tensor(x, "logical_not")))

    # -- bitwise ---------------------------------------------------------------------------
    def _bitwise(self, function: str, int_fn: Callable[[Any, Any], Any],
                 bool_fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:  # fmt: skip
        a, b, _ = self._pair(function, x1, x2)
        return bool_fn(a, b) if a.dtype == tf.bool else int_fn(a, b)

    @fastpath.binary(EAGER, INTEGER, raw_binary("BitwiseAnd", "bitwise_and"), scalar)
    @translated
    def bitwise_and(self, x1: Any, x2: Any, /) -> Any:
        return self._bitwise("bitwise_and", tf.bitwise.bitwise_and, tf.math.logical_and, x1, x2)

    @fastpath.binary(EAGER, INTEGER, raw_binary("BitwiseOr", "bitwise_or"), scalar)
    @translated
    def bitwise_or(self, x1: Any, x2: Any, /) -> Any:
        return self._bitwise("bitwise_or", tf.bitwise.bitwise_or, tf.math.logical_or, x1, x2)

    @fastpath.binary(EAGER, INTEGER, raw_binary("BitwiseXor", "bitwise_xor"), scalar)
    @translated
    def bitwise_xor(self, x1: Any, x2: Any, /) -> Any:
        return self._bitwise("bitwise_xor", tf.bitwise.bitwise_xor, tf.math.logical_xor, x1, x2)

    @translated
    def bitwise_invert(self, x: Any, /) -> Any:
        x = self.tensor(x, "bitwise_invert")
        return tf.math.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)

    def _shift(self, function: str, x1: Any, x2: Any) -> tuple[Any, Any, Any]:
        a, b, name = self._pair(function, x1, x2)
        out_of_range = (b < 0) | (b >= BITS[name]) if self.kind(b) == "signed integer" \
            else b >= BITS[name]  # fmt: skip
        return a, select(out_of_range, tf.zeros_like(b), b), out_of_range

    @translated
    def bitwise_left_shift(self, x1: Any, x2: Any, /) -> Any:
        """Shifts by the bit width or more give 0 (TensorFlow leaves them undefined)."""
        a, b, big = self._shift("bitwise_left_shift", x1, x2)
        return select(big, tf.zeros_like(a), tf.bitwise.left_shift(a, b))

    @translated
    def bitwise_right_shift(self, x1: Any, x2: Any, /) -> Any:
        """Shifts by the bit width or more give 0, or -1 for negative values."""
        a, b, big = self._shift("bitwise_right_shift", x1, x2)
        fill = select(a < 0, -tf.ones_like(a), tf.zeros_like(a)) \
            if self.kind(a) == "signed integer" else tf.zeros_like(a)  # fmt: skip
        return select(big, fill, tf.bitwise.right_shift(a, b))

    # -- unary -----------------------------------------------------------------------------
    @fastpath.unary(EAGER, REAL, raw_op("Abs"))
    @translated
    def abs(self, x: Any, /) -> Any:
        x = self.tensor(x, "abs")
        return x if self.kind(x) == "unsigned integer" else tf.math.abs(x)

    @fastpath.unary(EAGER, NUMERIC, raw_op("Neg"))
    @translated
    def negative(self, x: Any, /) -> Any:
        """Unsigned values wrap around (``-x == 2**n - x``)."""
        x = self.tensor(x, "negative")
        return tf.math.subtract(tf.zeros_like(x), x) if self.kind(x) == "unsigned integer" \
            else tf.math.negative(x)  # fmt: skip

    @translated
    def positive(self, x: Any, /) -> Any:
        return self.tensor(x, "positive")

    @fastpath.unary(EAGER, NUMERIC, raw_op("Square"))
    @translated
    def square(self, x: Any, /) -> Any:
        x = self.tensor(x, "square")
        return tf.math.multiply(x, x)

    @translated
    def reciprocal(self, x: Any, /) -> Any:
        x = self.floating(x, "reciprocal")
        if x.dtype.is_complex:
            return self._complex_divide(tf.ones_like(x), x)
        return tf.math.divide(tf.ones_like(x), x)

    def _extent(self, x: Any) -> tuple[Any, Any, Any]:
        """The larger and smaller component magnitudes of a complex tensor, and where the
        larger is beyond the range in which TensorFlow's complex kernels may square it
        (``|z|**2`` overflows or underflows) while still finite and nonzero."""
        re, im = tf.math.abs(tf.math.real(x)), tf.math.abs(tf.math.imag(x))
        big, small = tf.math.maximum(re, im), tf.math.minimum(re, im)
        low, high = _SQUARE_SAFE[x.dtype == tf.complex64]
        extreme = ((big > high) & tf.math.is_finite(big)) | ((big < low) & (big > 0))
        return big, small, extreme

    def _complex_log(self, x: Any) -> Any:
        """``log`` whose real part is ``log(big) + log1p((small/big)**2) / 2`` where
        TensorFlow's kernel would square an extreme ``|z|`` (it gives NaN there).  A part
        the CPU kernels read as zero (a subnormal) is made that zero first: the kernel
        gave NaN for ``log(1e-42 + 1e-42j)``, whose magnitude it read as 0 and whose
        angle `atan2` read exactly."""
        re, im = tf.math.real(x), tf.math.imag(x)
        x = tf.complex(select(re == 0, re * 0, re), select(im == 0, im * 0, im))
        result = tf.math.log(x)
        big, small, extreme = self._extent(x)
        safe = select(extreme, big, tf.ones_like(big))
        ratio = select(extreme, small / safe, tf.zeros_like(small))
        real = tf.math.log(safe) + 0.5 * tf.math.log1p(ratio * ratio)
        angle = tf.math.atan2(tf.math.imag(x), tf.math.real(x))
        return select(extreme, tf.complex(real, angle), result)

    def _complex_log1p(self, x: Any, shifted: Any) -> Any:
        """``log1p`` of finite complex ``x`` (``shifted`` is ``1 + x``): the real part
        ``log1p(a (2 + a) + b**2) / 2`` where ``|1 + x|`` is near 1 (TensorFlow's kernel
        loses digits near 0), ``log|1 + x|`` elsewhere; the angle of ``1 + x``."""
        a, b = tf.math.real(x), tf.math.imag(x)
        near = tf.math.abs(a) < 0.25
        near &= tf.math.abs(b) < 0.25  # no overflow in the squares below
        safe_a, safe_b = select(near, a, tf.zeros_like(a)), select(near, b, tf.zeros_like(b))
        real_near = 0.5 * tf.math.log1p(safe_a * (2 + safe_a) + safe_b * safe_b)
        real = select(near, real_near, tf.math.real(self._complex_log(shifted)))
        return tf.complex(real, tf.math.atan2(b, a + 1))

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Log"))
    @translated
    def log(self, x: Any, /) -> Any:
        """Complex: also for extreme ``|z|`` (TensorFlow's kernel squares it)."""
        x = self.floating(x, "log")
        return self._complex_log(x) if x.dtype.is_complex else tf.math.log(x)

    def _complex_fix(self, x: Any, exact: Any, fallback: Any) -> Any:
        """``exact(x)`` for finite ``x``, ``fallback(x)`` where a component is not finite."""
        finite = tf.math.is_finite(tf.math.real(x)) & tf.math.is_finite(tf.math.imag(x))
        safe = select(finite, x, tf.zeros_like(x))
        return select(finite, exact(safe), fallback(x))

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Expm1"))
    @translated
    def expm1(self, x: Any, /) -> Any:
        """Complex: ``exp(x) - 1`` away from 0 (TensorFlow's kernel gives NaN at infinities),
        ``+0 ± 0j`` at zero."""
        x = self.floating(x, "expm1")
        if not x.dtype.is_complex:
            return tf.math.expm1(x)
        small = tf.math.abs(x) < 1  # TensorFlow's kernel overflows for large |x|
        near = select(small, x, tf.zeros_like(x))
        result = select(small, tf.math.expm1(near), tf.math.exp(x) - 1)
        # expm1(-0 + 0j) is +0 + 0j (the kernel keeps the real part's sign)
        im = tf.math.imag(x)
        zero = tf.complex(tf.zeros_like(im), im)
        return select(self.nonzero_mask(x), result, zero)

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Tan"))
    @translated
    def tan(self, x: Any, /) -> Any:
        """Complex: as the standard defines it, ``-1j * tanh(1j * x)``, with the factors of
        ``1j`` as exact swaps of the parts (so `tanh`'s special cases carry over)."""
        x = self.floating(x, "tan")
        if not x.dtype.is_complex:
            return tf.math.tan(x)
        w = self.tanh(tf.complex(-tf.math.imag(x), tf.math.real(x)))
        return tf.complex(tf.math.imag(w), -tf.math.real(w))

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Tanh"))
    @translated
    def tanh(self, x: Any, /) -> Any:
        """Complex: ``tanh(±inf + yj)`` for finite ``y`` is ``±1 + 0j``, the zero with
        ``y``'s sign (TensorFlow's kernel gives the zero the sign of ``sin(2y)``)."""
        x = self.floating(x, "tanh")
        result = tf.math.tanh(x)
        if not x.dtype.is_complex:
            return result
        re, im = tf.math.real(x), tf.math.imag(x)
        edge = tf.math.is_inf(re) & tf.math.is_finite(im)
        limit = tf.complex(tf.math.sign(re), self.copysign(tf.zeros_like(im), im))
        return select(edge, limit, result)

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Log1p"))
    @translated
    def log1p(self, x: Any, /) -> Any:
        """Complex infinities, -1 and huge values get the spec's values (TensorFlow's kernel
        gives NaN)."""
        x = self.floating(x, "log1p")
        if not x.dtype.is_complex:
            return tf.math.log1p(x)
        re, im = tf.math.real(x), tf.math.imag(x)
        shifted = tf.complex(re + 1, im)  # not x + 1: -0 imaginary parts stay
        result = self._complex_fix(x, lambda v: self._complex_log1p(v, shifted),
                                   lambda v: tf.math.log(shifted))  # fmt: skip
        pole = tf.equal(re, -1) & tf.equal(im, 0)
        return select(pole, tf.complex(tf.fill(tf.shape(re), tf.constant(-math.inf, re.dtype)),
                                         im), result)  # fmt: skip

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Sqrt"))
    @translated
    def sqrt(self, x: Any, /) -> Any:
        """Complex: ``sqrt(conj(x)) == conj(sqrt(x))`` also on the negative real axis, no
        overflow near the largest values (``sqrt(z) = 2 sqrt(z / 4)`` there) and no flush
        to zero near the smallest (``sqrt(1.2e-38j)`` was 0 in complex64: ``sqrt(z) =
        sqrt(z * 2**k) / 2**(k/2)`` there)."""
        x = self.floating(x, "sqrt")
        if not x.dtype.is_complex:
            return tf.math.sqrt(x)
        im = tf.math.imag(x)
        upper = tf.complex(tf.math.real(x), tf.math.abs(im))
        big, _, extreme = self._extent(x)
        huge = extreme & (big > 1)
        up, down = _TINY_SQRT_SCALE[x.dtype == tf.complex64]
        root = select(huge, 2 * tf.math.sqrt(upper * 0.25),
                        select(extreme & (big < 1), tf.math.sqrt(upper * up) * down,
                                 tf.math.sqrt(upper)))  # fmt: skip
        return tf.complex(tf.math.real(root), self.copysign(tf.math.imag(root), im))

    @translated
    def sign(self, x: Any, /) -> Any:
        """Complex: ``x / |x|`` (``0 + 0j`` for any zero, NaN for NaN components), without overflow for
        huge ``|x|``."""
        x = self.tensor(x, "sign")
        kind = self.kind(x)
        if kind == "unsigned integer":
            return tf.cast(x > 0, x.dtype)
        if kind == "complex floating":  # x / |x|, scaled first: |x| may overflow
            re, im = tf.math.real(x), tf.math.imag(x)
            big = tf.math.maximum(tf.math.abs(re), tf.math.abs(im))
            one = tf.ones_like(big)
            scale = select(tf.math.is_finite(big) & (big > 0), big, one)
            sr, si = re / scale, im / scale
            mag = tf.math.sqrt(sr * sr + si * si)
            safe = select(tf.equal(mag, 0), one, mag)
            infinite = tf.math.is_inf(big)  # |x| is inf: the plain quotient, as torch and JAX
            result = tf.complex(select(infinite, re / big, sr / safe),
                                select(infinite, im / big, si / safe))  # fmt: skip
            nan = tf.math.is_nan(re) | tf.math.is_nan(im)
            result = select(self.nonzero_mask(x), result, tf.zeros_like(x))  # 0 + 0j
            return select(nan, tf.complex(big * np.nan, big * np.nan), result)
        if kind == "real floating":  # from the bits: subnormals are not zero
            one = tf.ones_like(x)
            signed = select(self.signbit(x), -one, one)
            signed = select(self.nonzero_mask(x), signed, tf.zeros_like(x))
            return select(tf.math.is_nan(x), x, signed)
        return tf.math.sign(x)

    @translated
    def signbit(self, x: Any, /) -> Any:
        x = self.tensor(x, "signbit")
        name = self.dn(x)
        if name in BITS_OF_FLOAT:
            return tf.bitcast(x, self.tfd(BITS_OF_FLOAT[name])) < 0
        return x < 0 if self.kind(x) == "signed integer" else tf.zeros_like(x, tf.bool)

    def _rounding(self, function: str, x: Any, fn: Callable[[Any], Any]) -> Any:
        x = self.tensor(x, function)
        return fn(x) if self.kind(x) == "real floating" else x

    def _tiny(self, x: Any, negative: bool) -> Any:
        """Where ``x`` is a subnormal of the given sign (TensorFlow's kernels see 0 there)."""
        name = self.dn(x)
        ibits = self.tfd(BITS_OF_FLOAT[name])
        bits = tf.bitcast(x, ibits)
        exponent = 0x7F800000 if name == "float32" else 0x7FF0000000000000
        zero_exponent = tf.equal(tf.bitwise.bitwise_and(bits, tf.constant(exponent, ibits)), 0)
        sign = bits < 0 if negative else bits >= 0
        return zero_exponent & self.nonzero_mask(x) & sign

    @translated
    def ceil(self, x: Any, /) -> Any:
        """Positive subnormals give 1 (TensorFlow's kernel gives 0)."""
        return self._rounding("ceil", x, lambda v: select(
            self._tiny(v, False), tf.ones_like(v), tf.math.ceil(v)))  # fmt: skip

    @translated
    def floor(self, x: Any, /) -> Any:
        """Negative subnormals give -1 (TensorFlow's kernel gives -0)."""
        return self._rounding("floor", x, lambda v: select(
            self._tiny(v, True), -tf.ones_like(v), tf.math.floor(v)))  # fmt: skip

    @translated
    def trunc(self, x: Any, /) -> Any:
        return self._rounding("trunc", x, lambda v: select(v < 0, tf.math.ceil(v),
                                                             tf.math.floor(v)))  # fmt: skip

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("Round"))
    @translated
    def round(self, x: Any, /) -> Any:
        """Half to even; complex numbers round each component."""
        x = self.tensor(x, "round")
        if self.kind(x) == "complex floating":
            return tf.complex(tf.math.round(tf.math.real(x)), tf.math.round(tf.math.imag(x)))
        return tf.math.round(x) if self.kind(x) == "real floating" else x

    @translated
    def conj(self, x: Any, /) -> Any:
        x = self.tensor(x, "conj")
        return tf.math.conj(x) if self.kind(x) == "complex floating" else x

    @translated
    def real(self, x: Any, /) -> Any:
        x = self.tensor(x, "real")
        return tf.math.real(x) if self.kind(x) == "complex floating" else x

    @translated
    def imag(self, x: Any, /) -> Any:
        x = self.tensor(x, "imag")
        return tf.math.imag(x) if self.kind(x) == "complex floating" else tf.zeros_like(x)

    def _classify(self, function: str, x: Any, fn: Callable[[Any], Any], both: bool,
                  integer_value: bool) -> Any:  # fmt: skip
        x = self.tensor(x, function)
        kind = self.kind(x)
        if kind == "complex floating":
            re, im = fn(tf.math.real(x)), fn(tf.math.imag(x))
            return re & im if both else re | im
        if kind == "real floating":
            return fn(x)
        return tf.fill(tf.shape(x), integer_value)

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("IsFinite"))
    @translated
    def isfinite(self, x: Any, /) -> Any:
        return self._classify("isfinite", x, tf.math.is_finite, True, True)

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("IsInf"))
    @translated
    def isinf(self, x: Any, /) -> Any:
        return self._classify("isinf", x, tf.math.is_inf, False, False)

    @fastpath.unary(EAGER, REAL_FLOAT, raw_op("IsNan"))
    @translated
    def isnan(self, x: Any, /) -> Any:
        return self._classify("isnan", x, tf.math.is_nan, False, False)

    def _log_base(self, function: str, x: Any, base: float) -> Any:
        """log(x) / log(base), exact at integer powers of the base."""
        x = self.floating(x, function)
        if self.kind(x) == "complex floating":  # scale each part: no complex division
            z = self._complex_log(x)
            scale = 1 / math.log(base)
            return tf.complex(tf.math.real(z) * scale, tf.math.imag(z) * scale)
        wide = tf.cast(x, tf.float64)
        result = tf.math.log(wide) / math.log(base)
        nearest = tf.math.round(result)
        exact = tf.math.is_finite(nearest) & tf.equal(tf.pow(tf.constant(base, tf.float64),
                                                               nearest), wide)  # fmt: skip
        return tf.cast(select(exact, nearest, result), x.dtype)

    @translated
    def log2(self, x: Any, /) -> Any:
        return self._log_base("log2", x, 2.0)

    @translated
    def log10(self, x: Any, /) -> Any:
        return self._log_base("log10", x, 10.0)

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """Bounds may be scalars or arrays; the result keeps ``x``'s dtype and shape."""
        x = self.tensor(x, "clip")
        result = x
        for bound, fn in ((min, tf.math.maximum), (max, tf.math.minimum)):
            if bound is None:
                continue
            if isinstance(bound, (int, float)) and not isinstance(bound, bool):
                if self.kind(x) in INTEGRAL_KINDS and isinstance(bound, int):
                    info = np.iinfo(self.dn(x))
                    bound = info.min if bound < info.min else info.max if bound > info.max \
                        else bound  # fmt: skip
                b = self.constant(bound, self.dn(x), "clip")
            else:
                b = self.tensor(bound, "clip")
                if self.promote_names(self.dn(b), self.dn(x), "clip") != self.dn(x):
                    raise self.error("clip", f"a {self.dn(b)} bound would change the "
                                     f"{self.dn(x)} result dtype", TypeError)  # fmt: skip
                b = tf.cast(b, x.dtype)
            if x.dtype == tf.bool:
                b8, r8 = tf.cast(b, tf.int8), tf.cast(result, tf.int8)
                result = tf.cast(fn(r8, b8), tf.bool)
            else:
                result = fn(result, b)
        return result
