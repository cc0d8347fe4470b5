"""The JAX backend's element-wise functions: ``jax.numpy``'s where right, its complex special cases fixed by symmetry."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._base import elementwise, fastpath
from .._base.core import (
    int_beyond_dtype,
    translated,
)
from .._base.elementwise import clamp_int_bound
from ._core import (
    _ARRAY,
    _IN,
    _REAL_FLOATING,
    JaxCore,
    _checked,
    _exact_scalars,
    _fast_scalar,
    _is_complex,
    _is_int,
    _jitted,
    _negative_int_pow,
    _pow_exponent,
    _power,
    _power_by_scalar,
    _truth,
    _weak_scalar,
)

#: JAX's fast lane: concrete arrays of a dtype of the function's category, and Python
#: scalars JAX keeps their dtype for (`_weak_scalar`), go to ``jax.numpy``'s function
#: compiled as a whole (`_jitted`); a unary function's case is its whole category, checked
#: inside the compiled op (`_checked`: no call reads ``x.dtype``), and its full path, which
#: refuses the other dtypes and takes traced arrays, calls the same compiled function, so
#: that both give the same bits (XLA fuses the patches: a NaN's sign, a part of the result
#: the standard leaves open, may differ from the one the operations give one by one).  A
#: binary function's full path is `JaxElementwise.call_binary`.
_LANE = elementwise.Lane(_ARRAY, _IN, _weak_scalar, fastpath.SCALARS, compiled=_jitted,
                         checked=_checked)


def _complex_fixed(name: str, symmetry: str) -> Callable[[Any], Any]:
    """The standard's ``name``: ``jax.numpy``'s function for real input (`_floating`), and
    for complex input its value in the first quadrant (`_patched_complex`), carried to
    the others by ``symmetry``: JAX loses the signs of zeros (``f(conj(z)) ==
    conj(f(z))`` fails on the real axis) and several infinite and NaN special cases,
    which are patched."""
    value = _floating(name, _patched_complex(name, symmetry))
    value.__doc__ = _complex_fixed.__doc__.replace("``name``", f"``{name}``")  # type: ignore[union-attr]
    return value


def _patched_complex(name: str, symmetry: str) -> Callable[[Any], Any]:
    """``jax.numpy``'s ``name`` of a complex array, computed in the first quadrant and
    carried to the others by ``symmetry`` ("odd": f(-z) = -f(z), "even": f(-z) = f(z),
    "none"; every function here has f(conj(z)) = conj(f(z))), with the special cases JAX
    gets wrong there patched (`_FIRST_QUADRANT_FIXES`, `_FIRST_QUADRANT_FORMULAS`)."""
    first_quadrant = _FIRST_QUADRANT_FORMULAS.get(name, getattr(jnp, name))
    fixes = _FIRST_QUADRANT_FIXES.get(name, ())

    def complex_value(x: Any) -> Any:
        re, im = jnp.real(x), jnp.imag(x)
        # XLA on the CPU reads a subnormal as zero in arithmetic but not in every op
        # (`atan2` sees it: log(1e-41j) was -inf + pi/2 j, half of each answer); a part
        # the platform reads as zero is made that zero, so that the result is the
        # flushed input's throughout (where subnormals are computed, `== 0` is False);
        # `copysign`, not ``re * 0``, which `jax.jit`'s simplifier folds to ``re``
        re = jnp.where(re == 0, jnp.copysign(jnp.zeros_like(re), re), re)
        im = jnp.where(im == 0, jnp.copysign(jnp.zeros_like(im), im), im)
        negative_re, negative_im = jnp.signbit(re), jnp.signbit(im)
        a = jnp.abs(re) if symmetry != "none" else re
        b = jnp.abs(im)
        result = first_quadrant(jax.lax.complex(a, b))
        for condition, value in fixes:
            result = jnp.where(condition(a, b, result), value(a, b, result).astype(result.dtype),
                               result)  # fmt: skip
        if symmetry == "odd":  # f(-a + bj) = -conj(f(a + bj))
            result = jnp.where(negative_re, -jnp.conj(result), result)
        elif symmetry == "even":  # f(-a + bj) = conj(f(a + bj))
            result = jnp.where(negative_re, jnp.conj(result), result)
        return jnp.where(negative_im, jnp.conj(result), result)

    complex_value.__name__ = complex_value.__qualname__ = name
    return complex_value


def _floating(name: str, complex_value: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The value of the standard's unary ``name`` of the floating-point category:
    ``jax.numpy``'s function for real input, ``complex_value`` for complex input (the
    dtype is static under `jax.jit`)."""
    jax_function = getattr(jnp, name)

    def value(x: Any) -> Any:
        return complex_value(x) if _is_complex(x) else jax_function(x)

    value.__name__ = value.__qualname__ = name
    value.__doc__ = complex_value.__doc__
    return value


def _cx(re: Any, im: Any) -> Callable[[Any, Any, Any], Any]:
    """A constant complex special value, broadcast like the input's parts."""
    return lambda a, b, result: jax.lax.complex(jnp.full_like(a, re), jnp.full_like(b, im))


def _signed_zero(part: str, negative: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """The result with its zero ``part`` ("real"/"imag") negative where ``negative(a, b)``:
    the sign a zero factor of the function's real-variable formula gives it."""

    def value(a: Any, b: Any, result: Any) -> Any:
        zero = jnp.where(negative(a, b), -jnp.zeros_like(a), jnp.zeros_like(a))
        if part == "real":
            return jax.lax.complex(zero, jnp.imag(result))
        return jax.lax.complex(jnp.real(result), zero)

    return value


def _zero_where(part: str) -> Callable[[Any, Any, Any], Any]:
    """Where the result has a zero ``part`` ("real"/"imag") for finite input."""
    get = jnp.real if part == "real" else jnp.imag
    return lambda a, b, result: jnp.isfinite(a) & jnp.isfinite(b) & (get(result) == 0)


def _nonfinite(t: Any) -> Any:
    return ~jnp.isfinite(t)


def _nonzero_finite(t: Any) -> Any:
    return jnp.isfinite(t) & (t != 0)


_isnan, _isinf = jnp.isnan, jnp.isinf
_NAN, _INF, _PI = np.nan, np.inf, np.pi
#: ((condition(a, b, result), value(a, b, result)), ...): later entries win.
_Fixes = tuple[tuple[Callable[..., Any], Callable[..., Any]], ...]
_LOG_FIXES: _Fixes = (
    (lambda a, b, r: (_isinf(a) & _isnan(b)) | (_isnan(a) & _isinf(b)), _cx(_INF, _NAN)),
)
#: function -> fixes on ``a + bj`` with ``b >= +0`` (or NaN) and,
#: for odd and even functions, ``a >= +0`` (or NaN): the C99 / standard special cases
#: where ``jax.numpy`` differs.
_FIRST_QUADRANT_FIXES: dict[str, _Fixes] = {
    "acos": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(_PI / 2, _NAN)),
             (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "acosh": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(_NAN, _PI / 2)),
              (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "asin": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(0.0, _NAN)),
             (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "asinh": ((lambda a, b, r: _isnan(a) & (b == 0), _cx(_NAN, 0.0)),
              (lambda a, b, r: _isnan(a) & _nonzero_finite(b), _cx(_NAN, _NAN))),
    "atan": ((lambda a, b, r: (_isnan(a) & ~_isinf(b)) | (_isnan(b) & jnp.isfinite(a)),
              _cx(_NAN, _NAN)),
             (lambda a, b, r: _isnan(a) & (_isinf(b) | (b == 0)), _cx(_NAN, 0.0)),
             (lambda a, b, r: ~_isnan(a) & (b == 0), _signed_zero("imag", lambda a, b: False))),
    "atanh": ((lambda a, b, r: _isnan(b) & ((a == 0) | _isinf(a)), _cx(0.0, _NAN)),
              (lambda a, b, r: (_isnan(b) & _nonzero_finite(a)) | (_isnan(a) & ~_isinf(b)),
               _cx(_NAN, _NAN))),
    "cos": ((_zero_where("imag"), _signed_zero("imag", lambda a, b: ~jnp.signbit(jnp.sin(a)))),
            (lambda a, b, r: _nonfinite(a) & (b == 0), _cx(_NAN, 0.0)),
            (lambda a, b, r: _nonfinite(a) & _isinf(b), _cx(_INF, _NAN)),
            (lambda a, b, r: (a == 0) & _isinf(b), _cx(_INF, -0.0))),
    "cosh": ((_zero_where("imag"), _signed_zero("imag", lambda a, b: jnp.signbit(jnp.sin(b)))),
             (lambda a, b, r: (a == 0) & _nonfinite(b), _cx(_NAN, 0.0)),
             (lambda a, b, r: _isinf(a) & _nonfinite(b), _cx(_INF, _NAN))),
    "exp": ((lambda a, b, r: _isinf(a) & (a > 0) & _nonfinite(b), _cx(_INF, _NAN)),
            (lambda a, b, r: _isinf(a) & (a < 0) & _nonfinite(b), _cx(0.0, 0.0))),
    "expm1": ((lambda a, b, r: (a == 0) & (b == 0), _cx(0.0, 0.0)),
              (lambda a, b, r: _isinf(a) & (a > 0) & _nonfinite(b), _cx(_INF, _NAN)),
              (lambda a, b, r: _isinf(a) & (a < 0) & _nonfinite(b), _cx(-1.0, 0.0))),
    "log": _LOG_FIXES, "log1p": _LOG_FIXES, "log2": _LOG_FIXES, "log10": _LOG_FIXES,
    "sin": ((lambda a, b, r: _nonfinite(a) & (b == 0), _cx(_NAN, 0.0)),
            (lambda a, b, r: _nonfinite(a) & _isinf(b), _cx(_NAN, _INF))),
    "sinh": ((_zero_where("real"), _signed_zero("real", lambda a, b: jnp.signbit(jnp.cos(b)))),
             (lambda a, b, r: (a == 0) & _nonfinite(b), _cx(0.0, _NAN)),
             (lambda a, b, r: _isinf(a) & _nonfinite(b), _cx(_INF, _NAN))),
    "sqrt": ((lambda a, b, r: _isinf(b), _cx(_INF, _INF)),
             (lambda a, b, r: _isinf(a) & (a > 0) & _isnan(b), _cx(_INF, _NAN)),
             (lambda a, b, r: _isinf(a) & (a < 0) & _isnan(b), _cx(_NAN, _INF))),
    "tanh": ((lambda a, b, r: (a == 0) & _nonfinite(b), _cx(0.0, _NAN)),
             (lambda a, b, r: _isinf(a) & jnp.isfinite(b), _cx(1.0, 0.0))),
}  # fmt: skip

def _sinh_parts(z: Any) -> Any:
    """``sinh`` from real functions: XLA's ``(exp(z) - exp(-z)) / 2`` cancels for tiny z."""
    a, b = jnp.real(z), jnp.imag(z)
    imag = jnp.where(b == 0, b, jnp.cosh(a) * jnp.sin(b))  # inf * 0 would be NaN
    return jax.lax.complex(jnp.sinh(a) * jnp.cos(b), imag)


def _log_in_base(base: float) -> Callable[[Any], Any]:
    """``log(z) / log(base)`` part by part: ``jax.numpy``'s complex division gives the
    imaginary part of ``log2(0j)`` as 2.27 instead of 0."""
    scale = 1 / math.log(base)

    def formula(z: Any) -> Any:
        w = jnp.log(z)
        return jax.lax.complex(jnp.real(w) * scale, jnp.imag(w) * scale)

    return formula


#: function -> how to evaluate it in the first quadrant where ``jax.numpy``'s is inexact.
_FIRST_QUADRANT_FORMULAS: dict[str, Callable[[Any], Any]] = {
    "sinh": _sinh_parts, "log2": _log_in_base(2.0), "log10": _log_in_base(10.0)}

_complex_tanh = _patched_complex("tanh", "odd")


def _complex_tan(x: Any) -> Any:
    """The standard's ``tan``; complex: as the standard defines it, ``-1j * tanh(1j * x)``,
    with the factors of ``1j`` as exact swaps of the parts (so `tanh`'s special cases
    carry over)."""
    w = _complex_tanh(jax.lax.complex(-jnp.imag(x), jnp.real(x)))
    return jax.lax.complex(jnp.imag(w), -jnp.real(w))


def _sign_value(x: Any) -> Any:
    """The standard's ``sign``: ``sign(-0.0)`` is ``+0`` and a complex zero gives ``0 + 0j``
    (JAX keeps the signs of the zeros); a complex ``x`` whose ``|x|`` overflows gets
    ``sign(x / 2)`` (JAX: 0)."""
    if _is_complex(x):
        half = np.finfo(x.dtype).max / 2
        huge = (jnp.abs(jnp.real(x)) > half) | (jnp.abs(jnp.imag(x)) > half)
        huge &= jnp.isfinite(x)
        x = jnp.where(huge, x * 0.5, x)
    result = jnp.sign(x)
    if result.dtype.kind in "fc":
        result = jnp.where(result == 0, jnp.zeros_like(result), result)
    return result


def _abs_value(x: Any) -> Any:
    """The standard's ``abs``: a complex number with an infinite part has ``abs`` ``+inf``,
    NaN part or not."""
    result = jnp.abs(x)
    if _is_complex(x):
        infinite = jnp.isinf(jnp.real(x)) | jnp.isinf(jnp.imag(x))
        result = jnp.where(infinite, jnp.full_like(result, np.inf), result)
    return result



def _true_divide(x1: Any, x2: Any) -> Any:
    """``jnp.divide``, integer operands first taken to the default floating dtype
    (``jnp.result_type(float)``: float64 with x64): JAX divides int8 and int16 in float32
    even with x64, where every other backend gives its default (docs/errors.md)."""
    dtype = jnp.result_type(x1, x2)
    if jnp.issubdtype(dtype, jnp.integer):
        default = jnp.result_type(float)
        return jnp.divide(jnp.asarray(x1, dtype=default), jnp.asarray(x2, dtype=default))
    return jnp.divide(x1, x2)

class JaxElementwise(JaxCore):
    """The element-wise chapter."""

    # -- complex special cases: jax.numpy's value, fixed by symmetry (odd: f(-z) = -f(z),
    # even: f(-z) = f(z), none) and f(conj(z)) = conj(f(z)); see `_complex_fixed`
    # (one compiled function per dtype, the fast case checked inside, `_LANE`)
    acos = elementwise.unary("acos", _complex_fixed("acos", "none"), _LANE)
    acosh = elementwise.unary("acosh", _complex_fixed("acosh", "none"), _LANE)
    asin = elementwise.unary("asin", _complex_fixed("asin", "odd"), _LANE)
    asinh = elementwise.unary("asinh", _complex_fixed("asinh", "odd"), _LANE)
    atan = elementwise.unary("atan", _complex_fixed("atan", "odd"), _LANE)
    atanh = elementwise.unary("atanh", _complex_fixed("atanh", "odd"), _LANE)
    cos = elementwise.unary("cos", _complex_fixed("cos", "even"), _LANE)
    cosh = elementwise.unary("cosh", _complex_fixed("cosh", "even"), _LANE)
    exp = elementwise.unary("exp", _complex_fixed("exp", "none"), _LANE)
    expm1 = elementwise.unary("expm1", _complex_fixed("expm1", "none"), _LANE)
    log = elementwise.unary("log", _complex_fixed("log", "none"), _LANE)
    log1p = elementwise.unary("log1p", _complex_fixed("log1p", "none"), _LANE)
    log2 = elementwise.unary("log2", _complex_fixed("log2", "none"), _LANE)
    log10 = elementwise.unary("log10", _complex_fixed("log10", "none"), _LANE)
    sin = elementwise.unary("sin", _complex_fixed("sin", "odd"), _LANE)
    sinh = elementwise.unary("sinh", _complex_fixed("sinh", "odd"), _LANE)
    sqrt = elementwise.unary("sqrt", _complex_fixed("sqrt", "none"), _LANE)
    tanh = elementwise.unary("tanh", _complex_fixed("tanh", "odd"), _LANE)

    tan = elementwise.unary("tan", _floating("tan", _complex_tan), _LANE)

    # -- ``jax.numpy``'s functions, right for their categories (`_LANE`)
    bitwise_invert = elementwise.unary("bitwise_invert", jnp.bitwise_invert, _LANE)
    ceil = elementwise.unary("ceil", jnp.ceil, _LANE)
    conj = elementwise.unary("conj", jnp.conj, _LANE)
    floor = elementwise.unary("floor", jnp.floor, _LANE)
    imag = elementwise.unary("imag", jnp.imag, _LANE)
    isfinite = elementwise.unary("isfinite", jnp.isfinite, _LANE)
    isinf = elementwise.unary("isinf", jnp.isinf, _LANE)
    isnan = elementwise.unary("isnan", jnp.isnan, _LANE)
    logical_not = elementwise.unary("logical_not", jnp.logical_not, _LANE)
    negative = elementwise.unary("negative", jnp.negative, _LANE)
    positive = elementwise.unary("positive", jnp.positive, _LANE)
    real = elementwise.unary("real", jnp.real, _LANE)
    reciprocal = elementwise.unary("reciprocal", jnp.reciprocal, _LANE)
    round = elementwise.unary("round", jnp.round, _LANE)
    signbit = elementwise.unary("signbit", jnp.signbit, _LANE)
    square = elementwise.unary("square", jnp.square, _LANE)
    trunc = elementwise.unary("trunc", jnp.trunc, _LANE)
    add = elementwise.binary("add", jnp.add, _LANE)
    atan2 = elementwise.binary("atan2", jnp.atan2, _LANE)
    bitwise_and = elementwise.binary("bitwise_and", jnp.bitwise_and, _LANE)
    bitwise_left_shift = elementwise.binary("bitwise_left_shift", jnp.bitwise_left_shift, _LANE)
    bitwise_or = elementwise.binary("bitwise_or", jnp.bitwise_or, _LANE)
    bitwise_right_shift = elementwise.binary("bitwise_right_shift", jnp.bitwise_right_shift, _LANE)
    bitwise_xor = elementwise.binary("bitwise_xor", jnp.bitwise_xor, _LANE)
    copysign = elementwise.binary("copysign", jnp.copysign, _LANE)
    divide = elementwise.binary("divide", _true_divide, _LANE)
    equal = elementwise.binary("equal", jnp.equal, _LANE)
    greater = elementwise.binary("greater", jnp.greater, _LANE)
    greater_equal = elementwise.binary("greater_equal", jnp.greater_equal, _LANE)
    hypot = elementwise.binary("hypot", jnp.hypot, _LANE)
    less = elementwise.binary("less", jnp.less, _LANE)
    less_equal = elementwise.binary("less_equal", jnp.less_equal, _LANE)
    logaddexp = elementwise.binary("logaddexp", jnp.logaddexp, _LANE)
    logical_and = elementwise.binary("logical_and", jnp.logical_and, _LANE)
    logical_or = elementwise.binary("logical_or", jnp.logical_or, _LANE)
    logical_xor = elementwise.binary("logical_xor", jnp.logical_xor, _LANE)
    maximum = elementwise.binary("maximum", jnp.maximum, _LANE)
    minimum = elementwise.binary("minimum", jnp.minimum, _LANE)
    multiply = elementwise.binary("multiply", jnp.multiply, _LANE)
    nextafter = elementwise.binary("nextafter", jnp.nextafter, _LANE)
    not_equal = elementwise.binary("not_equal", jnp.not_equal, _LANE)
    subtract = elementwise.binary("subtract", jnp.subtract, _LANE)

    # -- element-wise fixes ---------------------------------------------------------------
    sign = elementwise.unary("sign", _sign_value, _LANE)
    abs = elementwise.unary("abs", _abs_value, _LANE)

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        """``jax.numpy``'s ``fn`` after the operand check (`JaxCore.check_operands`: arrays
        of this backend and the category, or Python scalars, one an array at least); a
        comparison with a Python int beyond the array's dtype is exact (JAX would wrap the
        int), and an int beyond JAX's weak range is a 0-d array of the array's dtype
        (`_exact_scalars`)."""
        self.check_operands(function, x1, x2)
        beyond = int_beyond_dtype(self, function, x1, x2)
        if beyond is not None:
            return jnp.full(beyond[0].shape, beyond[1], dtype=bool)
        return fn(*_exact_scalars(x1, x2))

    @fastpath.binary(_ARRAY, _REAL_FLOATING, _power, _pow_exponent, _power_by_scalar, False)
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """Both operands take the promoted dtype first: JAX keeps ``x1``'s dtype for a 0-d
        integer ``x2`` and widens a Python integer base.  Complex results that overflow are
        ``exp(x2 log x1)`` (XLA's pow gives NaN there), and ``0 ** w`` with ``real(w) > 0``
        is ``0`` (XLA: NaN for a non-real or huge ``w``).  An integer to a negative integer
        power (unspecified) gives what torch and TensorFlow give: 1 for base 1, ±1 for base
        -1, else 0 (JAX raises `TypeError` for a concrete negative exponent, even on an empty
        array)."""
        self.check_operands("pow", x1, x2)
        int_beyond_dtype(self, "pow", x1, x2)  # OverflowError for an int beyond x1's dtype
        if type(x2) is float and getattr(x1, "dtype", None) is not None and \
                x1.dtype.kind == "c":  # fmt: skip
            n = elementwise.integral_exponent(x2)
            if n is not None:  # 2.0 as 2: by multiplying (integer_pow), as NumPy's
                return jnp.power(x1, n)
        if _is_int(x2) and hasattr(x1, "dtype"):  # x1's dtype, and JAX's integer_pow path
            if x2 < 0 and x1.dtype.kind in "iu":
                return _negative_int_pow(x1, x2)
            return jnp.power(x1, x2)
        dtype = jnp.result_type(x1, x2)
        base, exponent = jnp.asarray(x1, dtype=dtype), jnp.asarray(x2, dtype=dtype)
        if dtype.kind == "i":  # JAX raises for a concrete negative exponent, even on no values
            negative = exponent < 0
            result = jnp.power(base, jnp.where(negative, jnp.zeros_like(exponent), exponent))
            return jnp.where(negative, _negative_int_pow(base, exponent), result)
        result = jnp.power(base, exponent)
        if result.dtype.kind != "c":
            return result
        # XLA's complex pow gives NaN + NaN j where the result overflows; exp(w log z) does not
        finite = jnp.isfinite(base) & jnp.isfinite(exponent) & (base != 0)
        result = jnp.where(finite & jnp.isnan(result), jnp.exp(exponent * jnp.log(base)), result)
        # 0 ** w with real(w) > 0 is exp(w * (-inf + theta j)) = exp(-inf + ...) = 0 (XLA: NaN
        # once w has an imaginary part or is huge)
        zero = (base == 0) & (jnp.real(exponent) > 0)
        return jnp.where(zero, jnp.zeros_like(result), result)

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """Python int bounds beyond the weak range (`_WEAK_INT_MIN`) are 0-d arrays of
        ``x``'s dtype, clamped to its range first (the shared ``clip``)."""
        if type(min) is int or type(max) is int:
            min, max = (_exact_scalars(x, clamp_int_bound(self, x.dtype, b))[1]
                        for b in (min, max))  # fmt: skip
        return super().clip(x, min, max)

    @fastpath.binary(_ARRAY, _IN["integer"], _jitted(jnp.floor_divide), _fast_scalar)
    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """Floating results follow ``floor(x1 / x2)`` where JAX differs: infinite operands
        (``1 // -inf`` is ``-0``, not ``-1``) and the sign of zero results."""
        self.check_operands("floor_divide", x1, x2)
        int_beyond_dtype(self, "floor_divide", x1, x2)  # OverflowError for an int beyond x1's dtype
        x1, x2 = _exact_scalars(x1, x2)
        result = jnp.floor_divide(x1, x2)
        if result.dtype.kind != "f":
            return result
        quotient = jnp.floor(jnp.divide(x1, x2))
        special = jnp.isinf(x1) | jnp.isinf(x2) | (result == 0)
        return jnp.where(special, quotient, result)

    @fastpath.binary(_ARRAY, _IN["integer"], _jitted(jnp.remainder), _fast_scalar)
    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """A zero result takes the sign of ``x2`` (JAX: of ``x1``)."""
        self.check_operands("remainder", x1, x2)
        int_beyond_dtype(self, "remainder", x1, x2)  # OverflowError for an int beyond x1's dtype
        x1, x2 = _exact_scalars(x1, x2)
        result = jnp.remainder(x1, x2)
        if result.dtype.kind != "f":
            return result
        return jnp.where(result == 0, jnp.copysign(result, x2), result)

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """A complex element is true when either part is nonzero (JAX tests the real part)."""
        return jnp.all(_truth(x), axis=axis, keepdims=keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """A complex element is true when either part is nonzero (JAX tests the real part)."""
        return jnp.any(_truth(x), axis=axis, keepdims=keepdims)
