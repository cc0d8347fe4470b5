"""The NumPy backend's element-wise functions: NumPy's ufuncs (`elementwise.unary`,
`elementwise.binary` on NumPy's `_LANE`), and the fixes of NumPy's deviations."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._dtypes import ALL, CATEGORIES
from .._base import elementwise, fastpath
from .._base.core import raise_translated, translated
from ._core import _NDARRAY, _SCALAR_TYPES, NumPyCore, _accepted


def _ufunc_path(*case: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`fastpath.binary` of ``case`` for NumPy's ufuncs (`_LANE`'s binary path), where two
    NumPy scalars (``float32(2) * float64(3)``, what Dask's chunks of a reduction hold)
    go to the ufunc as they are, with NumPy's promotion: `translated` would make the
    ``float64`` a Python float (a subclass of one) beside the other."""
    op = case[2]

    def decorate(slow: Callable[..., Any]) -> Callable[..., Any]:
        name = slow.__name__

        def full(self: NumPyCore, x1: Any, x2: Any, /) -> Any:
            if isinstance(x1, np.generic) and isinstance(x2, np.generic):
                self.check_operands(name, x1, x2)
                try:
                    return op(x1, x2)
                except Exception as exc:
                    raise_translated(self, exc, name)
            return slow(self, x1, x2)

        return fastpath.binary(*case)(fastpath.describe(full, slow))

    return decorate


#: NumPy's fast lane: an array of a dtype of the function's category, beside another of
#: the same dtype or any Python scalar, in either order, is the ufunc's call (an int
#: beyond the array's dtype: NumPy's `OverflowError`, which the fast path names,
#: `fastpath.binary`).
_LANE = elementwise.Lane(
    _NDARRAY, {None: frozenset(np.dtype(n) for n in ALL),
               **{c: frozenset(np.dtype(n) for n in names) for c, names in CATEGORIES.items()}},
    scalar_types=fastpath.SCALARS, binary_path=_ufunc_path)  # fmt: skip


def _by_number(slow: Callable[..., Any]) -> Callable[..., Any]:
    """`NumPyElementwise.pow`'s common call first: an array of a dtype it takes to a Python
    int or float other than 0.5 is NumPy's ``x1 ** x2`` (anything else, or a call NumPy
    refuses, goes through ``slow``, whose checks raise the contract's error)."""

    def pow(self: Any, x1: Any, x2: Any, /) -> Any:
        if type(x1) is _NDARRAY and type(x2) in _INT_FLOAT and x2 != 0.5 \
                and x1.dtype in _POW_DTYPES:  # fmt: skip
            try:
                return x1 ** x2
            except Exception:
                pass
        return slow(self, x1, x2)

    return fastpath.describe(pow, slow)


_INT_FLOAT = (int, float)



def _halve_huge(x: Any) -> Any:
    """A complex ``x`` with each finite element whose larger part exceeds half the dtype's
    maximum halved (exactly): ``|x / 2|`` cannot overflow, and ``x / 2`` has ``x``'s
    direction (infinite parts are left alone: ``inf * (0.5 + 0j)`` has a NaN part)."""
    half = np.finfo(x.dtype).max / 2
    with np.errstate(invalid="ignore"):
        huge = ((np.abs(x.real) > half) | (np.abs(x.imag) > half)) & np.isfinite(x)
    if not huge.any():
        return x
    return np.where(huge, x * 0.5, x) if isinstance(x, np.ndarray) else x * 0.5

def _zero_beside_infinity(x: Any, result: Any, real_infinite: bool) -> Any:
    """``result`` of a complex ``x`` whose ``real_infinite`` part (the real one, or else
    the imaginary one) is infinite and whose other part is finite: its other part is
    the zero with that finite part's sign."""
    infinite, finite = (np.real(x), np.imag(x)) if real_infinite else (np.imag(x), np.real(x))
    fix = np.isinf(infinite) & np.isfinite(finite)
    if not fix.any():
        return result
    out = np.array(result)
    np.copyto(out.imag if real_infinite else out.real, np.copysign(0.0, finite), where=fix)
    return out



def _tan(x: Any) -> Any:
    """``numpy.tan``; complex, as ``-i tanh(i x)``: a finite real part ``a`` and an infinite
    imaginary part give ``copysign(0, a) ± 1j`` (NumPy takes the zero's sign from
    ``sin(2a)``)."""
    result = np.tan(x)
    return _zero_beside_infinity(x, result, False) if result.dtype.kind == "c" else result


def _tanh(x: Any) -> Any:
    """``numpy.tanh``; complex: an infinite real part and a finite imaginary part ``b`` give
    ``±1 + copysign(0, b) j`` (NumPy takes the zero's sign from ``sin(2b)``)."""
    result = np.tanh(x)
    return _zero_beside_infinity(x, result, True) if result.dtype.kind == "c" else result


class _HalfExponent(Exception):
    """`_power` met the exponent `NumPyElementwise.pow` fixes: the full path computes it."""


def _power(x1: Any, x2: Any) -> Any:
    """`NumPyElementwise.pow` of two arrays of one dtype, where its fix for a one-element
    exponent 0.5 is not needed (`_HalfExponent` where it is)."""
    if x2.size == 1 and x2 == 0.5:
        raise _HalfExponent
    return np.power(x1, x2)


#: The dtypes `NumPyElementwise.pow` takes (an array of one of them to a Python int or float
#: needs no other check before NumPy's ``**``).
_POW_DTYPES = _accepted("pow")[1]


def _not_half(value: Any, dtype: Any) -> Any:
    """A Python scalar exponent of `NumPyElementwise.pow` that is plain ``numpy.power``: any
    but 0.5 (None: the full path's fix)."""
    return None if value == 0.5 else value


fastpath.as_is(_not_half, frozenset(), _POW_DTYPES)  # (an int is never 0.5: ``x ** 2``)

#: The dtypes beside which a Python float, or an int within `_dtypes.LANE_MIN`..`LANE_MAX`,
#: leaves the result's dtype the array's in every function of `_LANE` (NumPy's weak
#: Python scalars: ``float32 * 2`` is float32; a comparison's result is bool): the lanes
#: of `NumPyElementwise.fast_case` (not the integer dtypes: ``int32 / 2`` is float64).
_INEXACT = frozenset(map(np.dtype, ("float32", "float64", "complex64", "complex128")))


class NumPyElementwise(NumPyCore):
    """The element-wise chapter."""

    # Element-wise functions NumPy gets right: the ufunc behind `translated`'s check (NumPy
    # would compute on ``None`` or a string as an object array), with a fast path on
    # `_LANE`.  ``np.real``, ``np.imag`` and ``np.round`` are not ufuncs (other
    # signatures): the generic defaults call them.
    abs = elementwise.unary("abs", np.abs, _LANE)
    acos = elementwise.unary("acos", np.acos, _LANE)
    acosh = elementwise.unary("acosh", np.acosh, _LANE)
    asin = elementwise.unary("asin", np.asin, _LANE)
    asinh = elementwise.unary("asinh", np.asinh, _LANE)
    atan = elementwise.unary("atan", np.atan, _LANE)
    atanh = elementwise.unary("atanh", np.atanh, _LANE)
    bitwise_invert = elementwise.unary("bitwise_invert", np.bitwise_invert, _LANE)
    ceil = elementwise.unary("ceil", np.ceil, _LANE)
    conj = elementwise.unary("conj", np.conj, _LANE)
    cos = elementwise.unary("cos", np.cos, _LANE)
    cosh = elementwise.unary("cosh", np.cosh, _LANE)
    exp = elementwise.unary("exp", np.exp, _LANE)
    floor = elementwise.unary("floor", np.floor, _LANE)
    isfinite = elementwise.unary("isfinite", np.isfinite, _LANE)
    isinf = elementwise.unary("isinf", np.isinf, _LANE)
    isnan = elementwise.unary("isnan", np.isnan, _LANE)
    log = elementwise.unary("log", np.log, _LANE)
    log2 = elementwise.unary("log2", np.log2, _LANE)
    log10 = elementwise.unary("log10", np.log10, _LANE)
    logical_not = elementwise.unary("logical_not", np.logical_not, _LANE)
    negative = elementwise.unary("negative", np.negative, _LANE)
    positive = elementwise.unary("positive", np.positive, _LANE)
    reciprocal = elementwise.unary("reciprocal", np.reciprocal, _LANE)
    signbit = elementwise.unary("signbit", np.signbit, _LANE)
    sin = elementwise.unary("sin", np.sin, _LANE)
    sinh = elementwise.unary("sinh", np.sinh, _LANE)
    square = elementwise.unary("square", np.square, _LANE)
    sqrt = elementwise.unary("sqrt", np.sqrt, _LANE)
    tan = elementwise.unary("tan", _tan, _LANE)
    tanh = elementwise.unary("tanh", _tanh, _LANE)
    trunc = elementwise.unary("trunc", np.trunc, _LANE)
    add = elementwise.binary("add", np.add, _LANE)
    atan2 = elementwise.binary("atan2", np.atan2, _LANE)
    bitwise_and = elementwise.binary("bitwise_and", np.bitwise_and, _LANE)
    bitwise_left_shift = elementwise.binary("bitwise_left_shift", np.bitwise_left_shift, _LANE)
    bitwise_or = elementwise.binary("bitwise_or", np.bitwise_or, _LANE)
    bitwise_right_shift = elementwise.binary("bitwise_right_shift", np.bitwise_right_shift, _LANE)
    bitwise_xor = elementwise.binary("bitwise_xor", np.bitwise_xor, _LANE)
    copysign = elementwise.binary("copysign", np.copysign, _LANE)
    divide = elementwise.binary("divide", np.divide, _LANE)
    equal = elementwise.binary("equal", np.equal, _LANE)
    greater = elementwise.binary("greater", np.greater, _LANE)
    greater_equal = elementwise.binary("greater_equal", np.greater_equal, _LANE)
    hypot = elementwise.binary("hypot", np.hypot, _LANE)
    less = elementwise.binary("less", np.less, _LANE)
    less_equal = elementwise.binary("less_equal", np.less_equal, _LANE)
    logaddexp = elementwise.binary("logaddexp", np.logaddexp, _LANE)
    logical_and = elementwise.binary("logical_and", np.logical_and, _LANE)
    logical_or = elementwise.binary("logical_or", np.logical_or, _LANE)
    logical_xor = elementwise.binary("logical_xor", np.logical_xor, _LANE)
    maximum = elementwise.binary("maximum", np.maximum, _LANE)
    minimum = elementwise.binary("minimum", np.minimum, _LANE)
    multiply = elementwise.binary("multiply", np.multiply, _LANE)
    nextafter = elementwise.binary("nextafter", np.nextafter, _LANE)
    not_equal = elementwise.binary("not_equal", np.not_equal, _LANE)
    remainder = elementwise.binary("remainder", np.remainder, _LANE)
    subtract = elementwise.binary("subtract", np.subtract, _LANE)

    def fast_case(self, function: str) -> Any:
        """A function made on `_LANE` records its case (the ufunc, on arrays of one dtype
        of the function's category in the standard, or such an array and any Python
        scalar, in either order).  ``pow`` is ``numpy.power`` but where its exponent is
        0.5 (`_power`, `_not_half`), and by a Python scalar NumPy's own ``**`` (``x ** 2``
        is ``numpy.square``), as `pow` computes it too.  The lanes of the cases with no
        scalar hook (every scalar goes to the ufunc as it is) are `_INEXACT`: there a
        float or an int keeps the array's dtype, which `Array`'s operators then store
        without reading the result's."""
        if function == "pow":
            return fastpath.binary_case(_NDARRAY, _POW_DTYPES, _power, _not_half, operator.pow,
                                        scalar_first=False, scalar_types=fastpath.SCALARS)
        case = super().fast_case(function)
        if isinstance(case, fastpath.BinaryCase) and case.scalar is None:
            lane = _INEXACT & frozenset((*case.dtypes, *case.first))
            return case._replace(floats=lane, ints=lane)
        return case

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        """NumPy promotes as the standard does; two Python scalars are refused (NumPy would
        compute on them)."""
        if type(x1) in _SCALAR_TYPES and type(x2) in _SCALAR_TYPES:
            self.check_operands(function, x1, x2)
        return fn(x1, x2)

    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """NumPy's floor division rounds like Python's ``//`` for infinite operands
        (``1 // -inf == -1``, ``inf // 2`` is NaN); the standard asks for
        ``floor(x1 / x2)`` there (``-0`` and ``inf``)."""
        self.check_operands("floor_divide", x1, x2)
        # a Python int is never infinite (and one beyond int64 is no input to isinf)
        special = np.isinf(0 if type(x1) is int else x1) | np.isinf(0 if type(x2) is int else x2)
        if not np.count_nonzero(special):
            return np.floor_divide(x1, x2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(special, np.floor(np.divide(x1, x2)), np.floor_divide(x1, x2))

    @_by_number
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """NumPy takes ``sqrt`` for a one-element exponent 0.5, so ``(-inf) ** 0.5`` is NaN and
        ``(-0.) ** 0.5`` is -0; the standard asks for +inf and +0 (``|x1|``) there.  An
        array to any other Python int or float is NumPy's own ``x1 ** x2``, which takes
        ``square`` for 2 and ``reciprocal`` for -1 (what NumPy users get from ``**``, and
        what the operator's fast case computes, `fast_case`; `_by_number` makes it
        first, outside `translated`)."""
        by_number = type(x1) is _NDARRAY and type(x2) in _INT_FLOAT and x2 != 0.5
        self.check_operands("pow", x1, x2)
        if by_number:
            return x1 ** x2
        if (x2 != 0.5) if type(x2) in (float, int) else (getattr(x2, "size", 0) != 1 or x2 != 0.5):
            return np.power(x1, x2)  # NumPy's shortcut is for one-element exponents only
        with np.errstate(invalid="ignore"):
            result = np.power(x1, x2)
        dtype = np.asarray(result).dtype
        if dtype.kind != "f":
            return result
        special = (x1 == -np.inf) | (x1 == 0)
        if not np.count_nonzero(special):
            return result
        return np.where(special, np.abs(x1), result).astype(dtype, copy=False)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """Complex: NumPy computes ``log(1 + x)``, losing the digits of small ``x``; near 0
        the real part is ``log1p(a (2 + a) + b**2) / 2`` and the imaginary part the angle
        of ``1 + x``."""
        if not (isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind == "c"):
            return np.log1p(x)
        a, b = np.real(x), np.imag(x)
        near = (np.abs(a) < 0.25) & (np.abs(b) < 0.25)
        with np.errstate(all="ignore"):  # both branches are computed everywhere
            result = np.array(np.log1p(x))
            if near.any():
                result.real = np.where(near, 0.5 * np.log1p(a * (2 + a) + b * b), result.real)
                result.imag = np.where(near, np.arctan2(b, 1 + a), result.imag)
        return result if isinstance(x, np.ndarray) else result[()]

    @translated
    def expm1(self, x: Any, /) -> Any:
        """NumPy gets complex special cases with an infinite or NaN real part wrong
        (``expm1(inf+0j)`` is ``inf+nanj``); they are set from the spec's table.  A real
        ``x`` whose ``exp`` overflows (``89+0j`` in complex64) keeps its zero imaginary part
        (``exp(a) sin(±0)`` is ``±0``; NumPy's kernel gives ``inf * 0 = NaN``)."""
        if not (isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind == "c"):
            return np.expm1(x)
        with np.errstate(invalid="ignore", over="ignore"):
            result = np.expm1(x)
        a, b = np.real(x), np.imag(x)
        zero = (a == 0) & (b == 0)  # expm1(-0 ± 0j) is +0 ± 0j (NumPy: -0)
        overflow = (b == 0) & np.isfinite(a) & np.isnan(np.imag(result))
        if np.isfinite(a).all() and not zero.any() and not overflow.any():
            return result
        out = np.array(result)
        real, imag = out.real, out.imag
        np.copyto(real, 0.0, where=zero)
        np.copyto(imag, b, where=overflow)
        b_zero, b_finite = b == 0, np.isfinite(b)
        pos, neg, nan = a == np.inf, a == -np.inf, np.isnan(a)
        np.copyto(real, np.inf, where=pos & ~(b_finite & ~b_zero))  # +inf + 0j, +inf + NaN j
        np.copyto(imag, b, where=(pos | nan) & b_zero)  # +inf + 0j, NaN + 0j keep b's sign
        np.copyto(imag, np.nan, where=pos & ~b_finite)
        np.copyto(real, -1.0, where=neg)  # -1 + 0j; finite b: -1 + 0 cis(b) exactly
        np.copyto(imag, 0.0, where=neg & ~b_finite)
        with np.errstate(invalid="ignore"):
            np.copyto(imag, 0.0 * np.sin(b), where=neg & b_finite)
        return out

    @translated
    def sign(self, x: Any, /) -> Any:
        """Complex: NumPy returns ``±1+0j`` for ``±inf+nanj``; the spec asks ``NaN+NaNj``
        whenever a component is NaN.  A finite ``x`` whose ``|x|`` overflows is halved
        first (NumPy's ``x / |x|`` gives ``1j`` or 0 there; ``sign(x / 2)`` is ``sign(x)``)."""
        if isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind == "c":
            x = _halve_huge(x)
        result = np.sign(x)
        if result.dtype.kind == "c":
            nan = np.isnan(x)
            if nan.any():
                result = np.where(nan, complex(np.nan, np.nan), result)
        return result
