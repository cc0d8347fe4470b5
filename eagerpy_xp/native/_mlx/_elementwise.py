"""Element-wise functions on MLX: the standard's promotion and special cases.

MLX's element-wise functions are right for most real inputs; each function here is MLX's
own behind a fast path (`_LANE`: arrays of one dtype of the function's category), with the
standard's promotion of mixed dtypes and Python scalars (`MLXElementwise.call_binary`) and
the fixes MLX needs behind it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mlx.core as mx

from ..._dtypes import BITS, CATEGORIES
from .._base import elementwise, fastpath
from .._base.core import raise_translated, translated
from ._core import MLXCore, batch_safe
from ._creation import complex_from_parts

#: Category (`_dtypes.CATEGORIES`, None: every dtype) -> its MLX dtypes.
_ALL = frozenset(getattr(mx, "bool_" if n == "bool" else n) for n in CATEGORIES["numeric"]
                 if n != "complex128") | {mx.bool_}  # fmt: skip
IN: dict[str | None, frozenset[Any]] = {
    None: _ALL,
    **{c: frozenset(getattr(mx, "bool_" if n == "bool" else n) for n in names
                    if n != "complex128") for c, names in CATEGORIES.items()},
}  # fmt: skip
REAL_FLOATING = IN["real floating-point"]
#: The floating dtypes whose MLX kernels are exact to an ulp (float64's exp, sin, cos
#: and logaddexp are computed in float32 precision).
_SHORT_FLOATING = frozenset({mx.float32})
FLOATING = IN["floating-point"]
INTEGER = IN["integer"]
Method = Callable[..., Any]


#: MLX dtypes a Python float may meet without changing them.
_FLOAT_KEEPS = frozenset({mx.float32, mx.float64, mx.complex64})
#: MLX dtype -> the Python ints it takes as they are beside an array of it: the dtype's
#: range (MLX wraps a negative int for uint64), within int32 (MLX reads a Python int as
#: int32 first) for integers; any int32 value for floating dtypes.
_INT_RANGES: dict[Any, tuple[int, int]] = {
    **{d: (-(2**31), 2**31 - 1) for d in (mx.float32, mx.float64, mx.complex64, mx.int64,
                                          mx.int32)},
    mx.int8: (-(2**7), 2**7 - 1), mx.int16: (-(2**15), 2**15 - 1), mx.uint8: (0, 2**8 - 1),
    mx.uint16: (0, 2**16 - 1), mx.uint32: (0, 2**31 - 1), mx.uint64: (0, 2**31 - 1),
}  # fmt: skip


def _fits(value: Any, dtype: Any) -> bool:
    """Whether MLX keeps ``dtype`` for a Python ``value`` beside an array of it, and gives
    the standard's result."""
    t = type(value)
    if t is float:
        return dtype in _FLOAT_KEEPS
    if t is int:
        limits = _INT_RANGES.get(dtype)
        return limits is not None and limits[0] <= value <= limits[1]
    return False


def _scalar_operand(value: Any, dtype: Any) -> Any:
    """`fastpath.FastCase`'s scalar hook: a Python float or int ``Array``'s operators may
    hand to the op with an array of ``dtype``."""
    return value if _fits(value, dtype) else None


#: MLX's fast lane: arrays of one dtype of the function's category, or one and a Python
#: int or float MLX keeps its dtype for (`_fits`), straight to MLX's function; the full
#: paths are `MLXElementwise.call_unary` and `call_binary`.
_LANE = elementwise.Lane(mx.array, IN, _scalar_operand)


#: The dtypes whose smallest value divided by -1 traps in MLX's CPU kernel (SIGFPE: the
#: process dies) instead of wrapping; smaller ints are computed wider and wrap.
_TRAPPING = frozenset({mx.int32, mx.int64})


def _floor_divide(a: Any, b: Any) -> Any:
    """``mx.floor_divide``, where a division by -1 of int32/int64 is a negation (which
    wraps the smallest value as NumPy does) rather than MLX's trapping kernel."""
    dtype = a.dtype if type(a) is mx.array else b.dtype
    if dtype not in _TRAPPING:
        return mx.floor_divide(a, b)
    if type(b) is not mx.array:  # a Python int
        return -a if b == -1 else mx.floor_divide(a, b)
    if type(a) is not mx.array:  # a Python int first: negated in the dtype (-(-2**31) wraps)
        a = mx.array(a, dtype=dtype)
    by_minus_one = b == -1
    return mx.where(by_minus_one, -a, mx.floor_divide(a, mx.where(by_minus_one, 1, b)))


#: Integer MLX dtype -> its width in bits.
_WIDTH = {getattr(mx, n): BITS[n] for n in CATEGORIES["integer"]}


def _shift(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A shift of MLX (``op``, of two integer operands of one dtype, or one and a Python
    int) that is right for shifts as wide as the dtype or wider: MLX's kernels take the
    shift modulo their word (``int8(1) << 32`` is 1), where the standard's reference
    shifts every bit out (0, and -1 for a negative ``x1 >> x2``).  Shifted in two steps,
    first by at most the width less one, then by one more bit where the shift is wider
    (which empties the value: a right shift of a negative value stays -1): elementwise
    on ``x2`` alone, so ``mx.vmap`` maps it as ``op``."""

    def shift(a: Any, b: Any) -> Any:
        width = _WIDTH[a.dtype if type(a) is mx.array else b.dtype] - 1
        if type(b) is not mx.array:  # a Python int
            return op(a, b) if b <= width else op(op(a, width), 1)
        first = mx.minimum(b, width)
        return op(op(a, first), mx.minimum(b - first, 1))

    shift.__name__ = shift.__qualname__ = getattr(op, "__name__", "shift")
    return shift


def _remainder(a: Any, b: Any) -> Any:
    """``mx.remainder``, where the remainder of int32/int64 by -1 is 0 without MLX's
    trapping kernel (`_floor_divide`)."""
    dtype = a.dtype if type(a) is mx.array else b.dtype
    if dtype not in _TRAPPING:
        return mx.remainder(a, b)
    if type(b) is not mx.array:
        return mx.zeros_like(a) if b == -1 else mx.remainder(a, b)
    by_minus_one = b == -1
    return mx.where(by_minus_one, 0, mx.remainder(a, mx.where(by_minus_one, 1, b)))


#: ``mx.not_equal``, mapped right by ``mx.vmap`` (`batch_safe`).
_NOT_EQUAL = batch_safe(mx.not_equal)


def _bits_of(x: Any) -> Any:
    """The bits of a float32/float64 array as int32/int64 (a view: no copy)."""
    return mx.view(x, mx.int64 if x.dtype == mx.float64 else mx.int32)


def signbit_of(x: Any) -> Any:
    """Whether each element's sign bit is set (``-0.0`` and negative NaNs included)."""
    return _bits_of(x) < 0


def _log1p(x: Any) -> Any:
    """``mx.log1p``, whose complex result has real part -0 where ``x``'s real part is
    -0; the real part of ``log1p(±0 + bj)``, ``log|1 + bj|``, is never negative."""
    result = mx.log1p(x)
    if x.dtype != mx.complex64:
        return result
    real = mx.real(result)
    return complex_from_parts(mx.where(mx.real(x) == 0, mx.abs(real), real), mx.imag(result))


#: ln 2 in two parts (Cody and Waite): ``k * _LN2_HIGH`` is exact in float32 for the
#: ``|k| <= 127`` of `_exp32`, and ``_LN2_HIGH + _LN2_LOW`` is ln 2 to float32's precision.
_LN2_HIGH = 0.693359375
_LN2_LOW = -2.12194440e-4


def _exp_derivatives(exp: Any) -> None:
    """Give the ``mx.custom_function`` ``exp`` (one of MLX's exp done another way) exp's
    derivatives: the output itself, for the vector-Jacobian and the Jacobian-vector
    products alike.  (A one-argument function's jvp gets its primal and tangent as the
    arrays themselves, not in a sequence.)"""

    @exp.vjp
    def vjp(x: Any, cotangent: Any, output: Any) -> Any:
        return cotangent * output

    @exp.jvp
    def jvp(primals: Any, tangents: Any) -> Any:
        return tangents * exp(primals)


@mx.custom_function
def _exp32(x: Any) -> Any:
    """float32 ``exp(x) = 2**k exp(r)``: ``k = round(x / ln 2)`` clipped to the normal
    exponents [-126, 127], ``r = x - k ln 2`` in two exact steps, ``2**k`` exact.  MLX's
    own ``exp`` reduces its argument in too little precision (its error grows with ``x``
    to 3.9e-6 relative, 60 ulp, near 87; it overflows to inf from 88.03, where the result
    is up to 3.4e38, and loses subnormal results) but is within an ulp on the small ``r``
    (|r| <= 0.35; up to 1.04 where 2**127 clips near overflow).  Max relative error
    1.1e-7 over the normal results (NumPy's float32: 2.0e-7), a subnormal ulp below them;
    infinities and NaN come through ``r``.  Costs 9 more MLX operations (CPU, each call
    evaluated: 10 -> 90 us on 3 elements, 15 -> 23 ms on 10**6), the price of no wrong
    answers."""
    k = mx.clip(mx.round(x * 1.4426950408889634), -126.0, 127.0)
    r = (x - k * _LN2_HIGH) - k * _LN2_LOW
    return mx.exp(r) * mx.power(2.0, k)


_exp_derivatives(_exp32)


class MLXElementwise(MLXCore):
    """The element-wise chapter."""

    abs = elementwise.unary("abs", mx.abs, _LANE)
    acos = elementwise.unary("acos", mx.acos, _LANE)
    acosh = elementwise.unary("acosh", mx.acosh, _LANE)
    asin = elementwise.unary("asin", mx.asin, _LANE)
    asinh = elementwise.unary("asinh", mx.asinh, _LANE)
    atan = elementwise.unary("atan", mx.atan, _LANE)
    atanh = elementwise.unary("atanh", mx.atanh, _LANE)
    bitwise_invert = elementwise.unary("bitwise_invert", mx.bitwise_invert, _LANE)
    ceil = elementwise.unary("ceil", mx.ceil, _LANE)
    conj = elementwise.unary("conj", mx.conj, _LANE)
    cosh = elementwise.unary("cosh", mx.cosh, _LANE)
    floor = elementwise.unary("floor", mx.floor, _LANE)
    imag = elementwise.unary("imag", mx.imag, _LANE)
    isfinite = elementwise.unary("isfinite", mx.isfinite, _LANE)
    isinf = elementwise.unary("isinf", mx.isinf, _LANE)
    isnan = elementwise.unary("isnan", mx.isnan, _LANE)
    log = elementwise.unary("log", mx.log, _LANE)
    log1p = elementwise.unary("log1p", _log1p, _LANE)
    log2 = elementwise.unary("log2", mx.log2, _LANE)
    log10 = elementwise.unary("log10", mx.log10, _LANE)
    logical_not = elementwise.unary("logical_not", mx.logical_not, _LANE)
    negative = elementwise.unary("negative", mx.negative, _LANE)
    positive = elementwise.unary("positive", mx.positive, _LANE)
    real = elementwise.unary("real", mx.real, _LANE)
    reciprocal = elementwise.unary("reciprocal", mx.reciprocal, _LANE)
    round = elementwise.unary("round", mx.round, _LANE)
    sinh = elementwise.unary("sinh", mx.sinh, _LANE)
    square = elementwise.unary("square", mx.square, _LANE)
    sqrt = elementwise.unary("sqrt", mx.sqrt, _LANE)
    trunc = elementwise.unary("trunc", mx.trunc, _LANE)

    add = elementwise.binary("add", mx.add, _LANE)
    atan2 = elementwise.binary("atan2", mx.atan2, _LANE)
    bitwise_and = elementwise.binary("bitwise_and", batch_safe(mx.bitwise_and), _LANE)
    bitwise_left_shift = elementwise.binary("bitwise_left_shift", _shift(batch_safe(mx.bitwise_left_shift)), _LANE)
    bitwise_or = elementwise.binary("bitwise_or", batch_safe(mx.bitwise_or), _LANE)
    bitwise_right_shift = elementwise.binary("bitwise_right_shift", _shift(batch_safe(mx.bitwise_right_shift)), _LANE)
    bitwise_xor = elementwise.binary("bitwise_xor", batch_safe(mx.bitwise_xor), _LANE)
    divide = elementwise.binary("divide", mx.divide, _LANE)
    floor_divide = elementwise.binary("floor_divide", _floor_divide, _LANE)
    greater = elementwise.binary("greater", mx.greater, _LANE)
    greater_equal = elementwise.binary("greater_equal", mx.greater_equal, _LANE)
    less = elementwise.binary("less", mx.less, _LANE)
    less_equal = elementwise.binary("less_equal", mx.less_equal, _LANE)
    logical_and = elementwise.binary("logical_and", mx.logical_and, _LANE)
    logical_or = elementwise.binary("logical_or", mx.logical_or, _LANE)
    logical_xor = elementwise.binary("logical_xor", batch_safe(mx.logical_xor), _LANE)
    maximum = elementwise.binary("maximum", mx.maximum, _LANE)
    minimum = elementwise.binary("minimum", mx.minimum, _LANE)
    multiply = elementwise.binary("multiply", mx.multiply, _LANE)
    subtract = elementwise.binary("subtract", mx.subtract, _LANE)

    def call_unary(self, function: str, fn: Callable[[Any], Any], x: Any) -> Any:
        """MLX's ``fn`` of ``x`` as an MLX array (an `Array` of this backend gives its
        ``.raw``)."""
        return fn(self._raw(x, function))

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        """MLX's ``fn`` once both operands have the standard's promoted dtype
        (`MLXCore.promoted_operands`)."""
        return fn(*self.promoted_operands(function, x1, x2))

    # -- functions MLX gets wrong for some inputs: a fast path for the dtypes it gets right
    @fastpath.unary(mx.array, _SHORT_FLOATING, mx.cos)
    @translated
    def cos(self, x: Any, /) -> Any:
        """float64: from ``tan`` (MLX computes float64 ``cos`` in float32 precision, and
        NaN beyond 2**24)."""
        x = self._raw(x, "cos")
        return _cos64(x) if x.dtype == mx.float64 else mx.cos(x)

    @fastpath.unary(mx.array, _SHORT_FLOATING, _exp32)
    @translated
    def exp(self, x: Any, /) -> Any:
        """float32: reduced by multiples of ln 2 first (`_exp32`; MLX's own is 60 ulp off
        at large arguments and overflows from 88.03); float64: ``cosh(x) + sinh(x)`` (MLX
        computes float64 ``exp`` in float32 precision, and overflows beyond 88)."""
        x = self._raw(x, "exp")
        if x.dtype == mx.float32:
            return _exp32(x)
        return _exp64(x) if x.dtype == mx.float64 else mx.exp(x)

    @fastpath.unary(mx.array, REAL_FLOATING, mx.expm1)
    @translated
    def expm1(self, x: Any, /) -> Any:
        """Complex: ``expm1(a) cos(b) - 2 sin(b/2)**2 + exp(a) sin(b) j`` with the
        standard's special cases (MLX has no complex ``expm1``); ``expm1(-0 + 0j)`` is
        ``+0 + 0j``, as for ``+0`` (the library's choice)."""
        x = self._raw(x, "expm1")
        if x.dtype != mx.complex64:
            return mx.expm1(x)
        return _complex_expm1(x)

    @fastpath.unary(mx.array, INTEGER, mx.sign)
    @translated
    def sign(self, x: Any, /) -> Any:
        """NaN gives NaN (MLX: 0); a zero gives +0 (complex: ``0 + 0j``)."""
        x = self._raw(x, "sign")
        result = mx.sign(x)
        zero = mx.zeros((), dtype=x.dtype)
        result = mx.where(x == 0, zero, result)
        if x.dtype == mx.complex64:
            nan = mx.logical_or(mx.isnan(mx.real(x)), mx.isnan(mx.imag(x)))
            return mx.where(nan, mx.array(complex(_NAN, _NAN), dtype=mx.complex64), result)
        return mx.where(mx.isnan(x), x, result)

    @fastpath.unary(mx.array, _SHORT_FLOATING, lambda x: _sin32(x))
    @translated
    def sin(self, x: Any, /) -> Any:
        """A zero keeps its sign (MLX: ``sin(-0) = +0``); float64 from ``tan`` (MLX
        computes float64 ``sin`` in float32 precision)."""
        x = self._raw(x, "sin")
        if x.dtype == mx.float64:
            return _sin64(x)
        return _sin32(x) if x.dtype == mx.float32 else mx.sin(x)

    @translated
    def tan(self, x: Any, /) -> Any:
        """Complex: as the standard defines it, ``-1j * tanh(1j * x)``, the factors of
        ``1j`` exact swaps of the parts."""
        x = self._raw(x, "tan")
        if x.dtype != mx.complex64:
            return mx.tan(x)
        w = _complex_tanh(complex_from_parts(-mx.imag(x), mx.real(x)))
        return complex_from_parts(mx.imag(w), -mx.real(w))

    @fastpath.unary(mx.array, REAL_FLOATING, mx.tanh)
    @translated
    def tanh(self, x: Any, /) -> Any:
        """Complex ``tanh(±inf + bj)`` for finite ``b`` is ``±1 + 0j`` with the sign of
        ``b`` (MLX: NaN parts beyond float32's range of ``2b``)."""
        x = self._raw(x, "tanh")
        return _complex_tanh(x) if x.dtype == mx.complex64 else mx.tanh(x)

    @fastpath.binary(mx.array, _SHORT_FLOATING, lambda a, b: mx.logaddexp(a, b) + 0.0)
    @translated
    def logaddexp(self, x1: Any, x2: Any, /) -> Any:
        """float64: ``max + log1p(exp(-|x1 - x2|))`` (MLX computes float64 ``logaddexp``
        in float32 precision); a zero result is +0 (``log(1)``; MLX: ``-0`` for
        ``logaddexp(-0, -inf)``)."""
        a, b = self.promoted_operands("logaddexp", x1, x2)
        if a.dtype != mx.float64:
            return mx.logaddexp(a, b) + 0.0
        top = mx.maximum(a, b)
        result = top + mx.log1p(_exp64(-mx.abs(a - b)))  # type: ignore[arg-type]
        result = mx.where(a == b, a + math.log(2), result)  # both infinite: no inf - inf
        return mx.where(mx.logical_or(mx.isnan(a), mx.isnan(b)), math.nan, result).astype(mx.float64) + 0.0

    @fastpath.binary(mx.array, REAL_FLOATING, mx.power, _scalar_operand)
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """An integer to a negative integer power (unspecified) gives what torch,
        TensorFlow and JAX give here: 1 for base 1, ±1 for base -1, else 0 (MLX: 0)."""
        a, b = self.promoted_operands("pow", x1, x2)
        if self._kind(a) == "complex floating":
            n = elementwise.integral_exponent(x2)
            if n is not None:  # by multiplying, as NumPy's (MLX: exp(n * log(x)))
                return elementwise.complex_integer_power(a, n, mx.multiply, mx.reciprocal,
                                                         mx.ones_like)  # fmt: skip
        if self._kind(a) not in ("signed integer", "unsigned integer"):
            return mx.power(a, b)
        if self._kind(a) == "unsigned integer":
            return mx.power(a, b)
        negative = b < 0
        result = mx.power(a, mx.where(negative, mx.zeros_like(b), b))
        one = mx.ones_like(a)
        odd = mx.remainder(b, 2) == 1  # MLX: the sign of the divisor
        inverse = mx.where(a == 1, one, mx.where(mx.logical_and(a == -1, odd), -one,
                                                 mx.where(a == -1, one, mx.zeros_like(a))))  # fmt: skip
        return mx.where(negative, inverse, result)

    @fastpath.binary(mx.array, INTEGER, _remainder, _scalar_operand)
    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """A zero result takes the sign of ``x2`` (MLX: of ``x1``)."""
        a, b = self.promoted_operands("remainder", x1, x2)
        result = _remainder(a, b)
        if self._kind(result) != "real floating":
            return result
        return mx.where(result == 0, _copysign(mx.zeros_like(result), b), result)

    @fastpath.binary(mx.array, IN[None], mx.equal, _scalar_operand)
    @translated
    def equal(self, x1: Any, x2: Any, /) -> Any:
        """float64 with complex64 (whose promoted dtype, complex128, MLX lacks) compares
        part by part, exactly: the complex parts are float32, which float64 holds."""
        return self._compare(x1, x2, "equal")

    @fastpath.binary(mx.array, IN[None], _NOT_EQUAL, _scalar_operand)
    @translated
    def not_equal(self, x1: Any, x2: Any, /) -> Any:
        """As `equal`: float64 with complex64 part by part."""
        return mx.logical_not(self._compare(x1, x2, "not_equal"))

    def _compare(self, x1: Any, x2: Any, function: str) -> Any:
        """``x1 == x2`` (``not_equal`` negates it), with the standard's promotion."""
        pair = self._float64_and_complex64(x1, x2)
        if pair is None:
            a, b = self.promoted_operands(function, x1, x2)
            return mx.equal(a, b) if function == "equal" else mx.logical_not(_NOT_EQUAL(a, b))
        real, z = pair
        return mx.equal(real, mx.real(z).astype(mx.float64)) & mx.equal(mx.imag(z), 0)

    def _float64_and_complex64(self, x1: Any, x2: Any) -> tuple[Any, Any] | None:
        """``(the float64 operand, the complex64 one)`` when the operands are those (a
        Python complex counts as complex64), else None."""
        first, second = (getattr(x, "dtype", None) for x in (x1, x2))
        if not (first is not None and first == mx.float64) and not (
                second is not None and second == mx.float64):  # fmt: skip
            return None
        real = x1 if first is not None and first == mx.float64 else x2
        other = x2 if real is x1 else x1
        other_dtype = getattr(other, "dtype", None)  # MLX's dtypes refuse == None
        if type(other) is complex:
            other = complex_from_parts(mx.array(other.real), mx.array(other.imag))
        elif other_dtype is None or other_dtype != mx.complex64:
            return None
        return self._raw(real, "equal"), self._raw(other, "equal")

    @fastpath.unary(mx.array, REAL_FLOATING, signbit_of)
    @translated
    def signbit(self, x: Any, /) -> Any:
        """The sign bit, read from the bits (MLX has no ``signbit``)."""
        return signbit_of(self._raw(x, "signbit"))

    @fastpath.binary(mx.array, REAL_FLOATING, lambda a, b: _copysign(a, b))
    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """``|x1|`` with the sign bit of ``x2`` (MLX has no ``copysign``)."""
        return _copysign(*self.promoted_operands("copysign", x1, x2))

    @fastpath.binary(mx.array, REAL_FLOATING, lambda a, b: _hypot(a, b))
    @translated
    def hypot(self, x1: Any, x2: Any, /) -> Any:
        """``sqrt(x1**2 + x2**2)`` without overflow: ``m * sqrt(1 + (n/m)**2)`` for
        ``m = max(|x1|, |x2|)``; an infinity wins over NaN (MLX has no ``hypot``)."""
        return _hypot(*self.promoted_operands("hypot", x1, x2))

    @fastpath.binary(mx.array, REAL_FLOATING, lambda a, b: _nextafter(a, b))
    @translated
    def nextafter(self, x1: Any, x2: Any, /) -> Any:
        """The next representable value after ``x1`` towards ``x2``, by stepping the bits
        (MLX has no ``nextafter``)."""
        return _nextafter(*self.promoted_operands("nextafter", x1, x2))

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """``minimum(maximum(x, min), max)`` in ``x``'s dtype, with the spec's order and
        NaN rule (the shared ``clip``); array bounds of this backend, or Python scalars."""
        x = self._raw(x, "clip")
        bounds = []
        for bound in (min, max):
            if bound is not None and type(bound) not in (bool, int, float):
                bound = self._raw(bound, "clip")
                self.check_category("clip", bound)
            bounds.append(bound)
        return super().clip(x, *bounds)


_NAN, _INF = math.nan, math.inf


def _sin32(x: Any) -> Any:
    """MLX's ``sin``, keeping the sign of a zero (MLX: ``sin(-0) = +0``)."""
    return mx.where(x == 0, x, mx.sin(x))


# MLX computes float64 exp, sin and cos in float32 precision.  The three below are exact
# to a few ulps, built from MLX's float64 cosh, sinh and tan (exact to an ulp); each is an
# ``mx.custom_function`` whose derivatives are the other two, so gradients are right
# everywhere (the formulas' own derivatives would be NaN where a branch not taken divides
# by zero) and nest, vmap and compile like MLX's own functions.
@mx.custom_function
def _exp64(x: Any) -> Any:
    """``cosh + sinh`` for ``x >= 0``, ``1 / (cosh - sinh)`` below (no cancellation
    either way), ``exp(x/2)**2`` below -700 (where ``cosh`` overflows)."""
    positive = mx.where(x >= 0, x, 0.0)
    negative = mx.where(x >= 0, -1.0, mx.maximum(x, -700.0))
    deep = mx.maximum(x, -1400.0) / 2  # exp(-700) squared underflows to 0 as it should
    half = 1 / (mx.cosh(deep) - mx.sinh(deep))
    result = mx.where(x >= 0, mx.cosh(positive) + mx.sinh(positive),
                      1 / (mx.cosh(negative) - mx.sinh(negative)))  # fmt: skip
    return mx.where(x < -700, half * half, result)


_exp_derivatives(_exp64)


@mx.custom_function
def _sin64(x: Any) -> Any:
    """From ``t = tan(x/2)``: ``2 / (t + 1/t)`` (both terms of one sign: no cancellation);
    ``x`` itself below 1e-8 (``x/2`` would lose a subnormal's last bit)."""
    tiny = mx.abs(x) < 1e-8
    t = mx.tan(mx.where(tiny, 1.0, x) / 2)
    return mx.where(tiny, x, 2 / (t + 1 / t))


@_sin64.vjp
def _sin64_vjp(x: Any, cotangent: Any, output: Any) -> Any:
    return cotangent * _cos64(x)


@_sin64.jvp
def _sin64_jvp(primals: Any, tangents: Any) -> Any:
    return tangents * _cos64(primals)


@mx.custom_function
def _cos64(x: Any) -> Any:
    """``1 / sqrt(1 + tan(x)**2)`` (``1 / |tan(x)|`` where the square overflows),
    negative where ``|tan(x/2)| > 1``."""
    t = mx.tan(x)
    size = mx.abs(t)
    huge = size > 1e100
    small = mx.where(huge, 0.0, t)
    magnitude = mx.where(huge, 1 / mx.where(huge, size, 1.0), 1 / mx.sqrt(1 + small * small))
    return mx.where(mx.abs(mx.tan(x / 2)) > 1, -magnitude, magnitude)


@_cos64.vjp
def _cos64_vjp(x: Any, cotangent: Any, output: Any) -> Any:
    return -cotangent * _sin64(x)


@_cos64.jvp
def _cos64_jvp(primals: Any, tangents: Any) -> Any:
    return -tangents * _sin64(primals)


def _complex_tanh(x: Any) -> Any:
    a, b = mx.real(x), mx.imag(x)
    result = mx.tanh(x)
    edge = mx.logical_and(mx.isinf(a), mx.isfinite(b))
    fixed = complex_from_parts(_copysign(mx.ones_like(a), a), _copysign(mx.zeros_like(b), b))
    return mx.where(edge, fixed, result)


def _complex_expm1(x: Any) -> Any:
    """``exp(x) - 1`` part by part without cancellation, and C99's special cases."""
    a, b = mx.real(x), mx.imag(x)
    half = mx.sin(b / 2)
    real = mx.expm1(a) * mx.cos(b) - 2 * half * half
    imag = mx.exp(a) * mx.sin(b)
    nonfinite_b = ~mx.isfinite(b)
    minus_inf, plus_inf = mx.logical_and(mx.isinf(a), a < 0), mx.logical_and(mx.isinf(a), a > 0)
    real = mx.where(minus_inf, -1.0, real)
    imag = mx.where(mx.logical_and(minus_inf, nonfinite_b), _copysign(mx.zeros_like(b), b), imag)
    real = mx.where(mx.logical_and(plus_inf, nonfinite_b), _INF, real)
    imag = mx.where(mx.logical_and(plus_inf, nonfinite_b), _NAN, imag)
    imag = mx.where(b == 0, b, imag)  # a zero imaginary part stays (inf * 0 would be NaN)
    real = mx.where(mx.logical_and(a == 0, b == 0), 0.0, real)  # -0 + 0j: +0, as for +0
    return complex_from_parts(real.astype(mx.float32), imag.astype(mx.float32))


def _copysign(x1: Any, x2: Any) -> Any:
    return mx.where(signbit_of(x1) == signbit_of(x2), x1, -x1)


def _hypot(x1: Any, x2: Any) -> Any:
    a, b = mx.abs(x1), mx.abs(x2)
    big, small = mx.maximum(a, b), mx.minimum(a, b)
    ratio = mx.where(big == 0, mx.zeros_like(big), small / mx.where(big == 0, 1, big))
    result = big * mx.sqrt(1 + ratio * ratio)
    result = mx.where(mx.logical_or(mx.isnan(x1), mx.isnan(x2)), mx.array(float("nan"), dtype=big.dtype),
                      result)  # fmt: skip
    return mx.where(mx.logical_or(mx.isinf(x1), mx.isinf(x2)), mx.array(float("inf"), dtype=big.dtype),
                    result)  # fmt: skip


def _nextafter(x1: Any, x2: Any) -> Any:
    bits = _bits_of(x1)
    towards_larger_magnitude = (x2 > x1) == (x1 > 0)
    stepped = mx.view(mx.where(towards_larger_magnitude, bits + 1, bits - 1), x1.dtype)
    tiniest = mx.view(mx.ones_like(bits), x1.dtype)  # the smallest subnormal
    from_zero = _copysign(tiniest, x2)
    result = mx.where(x1 == 0, from_zero, stepped)
    result = mx.where(x1 == x2, x2, result)
    nan = mx.array(float("nan"), dtype=x1.dtype)
    return mx.where(mx.logical_or(mx.isnan(x1), mx.isnan(x2)), nan, result)


__all__ = ["FLOATING", "IN", "INTEGER", "MLXElementwise", "REAL_FLOATING", "raise_translated",
           "signbit_of"]
