"""The NumPy backend's element-wise functions: NumPy's ufuncs behind checks (`_ufunc1`, `_ufunc2`), and the fixes of NumPy's deviations."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._detect import plain_scalar
from .._base import fastpath
from .._base.core import explain_overflow, raise_translated, translated
from ._core import _NDARRAY, _SCALAR_TYPES, NumPyCore, _accepted


def _ufunc1(name: str, ufunc: Any,
            complex_fix: Callable[[Any, Any], Any] | None = None) -> Callable[..., Any]:  # fmt: skip
    """The standard's unary ``name`` as ``ufunc`` on a NumPy array or scalar;
    ``complex_fix(x, result)`` corrects a complex result.  One test admits an array of a
    dtype of the function's category; anything else (another dtype, a NumPy scalar, not
    an array: NumPy would compute on ``None`` or a string as an object array) goes
    through `BackendCore.check_operand`."""
    category, allowed = _accepted(name)

    if complex_fix is None:

        def method(self: NumPyCore, x: Any, /) -> Any:
            if type(x) is not _NDARRAY or x.dtype not in allowed:
                self.check_operand(x, name, category)
            try:
                return ufunc(x)
            except Exception as exc:
                raise_translated(self, exc, name)

    else:

        def method(self: NumPyCore, x: Any, /) -> Any:
            if type(x) is not _NDARRAY or x.dtype not in allowed:
                self.check_operand(x, name, category)
            try:
                result = ufunc(x)
            except Exception as exc:
                raise_translated(self, exc, name)
            if result.dtype.kind == "c":
                return complex_fix(x, result)
            return result

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}`` (``numpy.{ufunc.__name__}``)."
    return method



def _ufunc2(name: str, ufunc: Any) -> Callable[..., Any]:
    """The standard's binary ``name`` as ``ufunc``: arrays, or one array and a Python
    scalar; arrays of a dtype of the function's category pass one test each, anything
    else goes through `NumPyCore.check_operands`."""
    allowed = _accepted(name)[1]

    def method(self: NumPyCore, x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        if t1 is _NDARRAY:
            if not (((t2 is _NDARRAY and x2.dtype in allowed) or t2 in _SCALAR_TYPES)
                    and x1.dtype in allowed):  # fmt: skip
                x2 = plain_scalar(x2)  # (NumPy's float64 scalar: a Python float, weak)
                self.check_operands(name, x1, x2)
        elif not (t2 is _NDARRAY and t1 in _SCALAR_TYPES and x2.dtype in allowed):
            if t2 is _NDARRAY:  # (two NumPy scalars, as Dask's chunks hold, stay NumPy's)
                x1 = plain_scalar(x1)
            self.check_operands(name, x1, x2)
        try:
            return ufunc(x1, x2)
        except Exception as exc:
            if isinstance(exc, OverflowError):  # a Python int beyond the dtype: name both
                explain_overflow(self, name, x1, x2, exc)
            raise_translated(self, exc, name)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}`` (``numpy.{ufunc.__name__}``)."
    return method



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



#: The functions behind `Array`'s operators that the NumPy backend defines as their ufunc
#: (on the dtypes of their category, `_accepted`).  ``floor_divide`` and ``pow`` have
#: fixes and are not here.
_OPERATOR_UFUNCS: dict[str, Any] = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "remainder": np.remainder, "equal": np.equal, "not_equal": np.not_equal,
    "less": np.less, "less_equal": np.less_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "bitwise_left_shift": np.bitwise_left_shift, "bitwise_right_shift": np.bitwise_right_shift,
    "negative": np.negative, "positive": np.positive, "abs": np.abs,
    "bitwise_invert": np.bitwise_invert,
}  # fmt: skip


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


class NumPyElementwise(NumPyCore):
    """The element-wise chapter."""

    # Element-wise functions NumPy gets right: the ufunc behind a type check (NumPy would
    # compute on ``None`` or a string as an object array) and the error translation.
    # ``np.real``, ``np.imag`` and ``np.round`` are not ufuncs (other signatures): the
    # generic defaults call them.
    abs = _ufunc1("abs", np.abs)
    acos = _ufunc1("acos", np.acos)
    acosh = _ufunc1("acosh", np.acosh)
    asin = _ufunc1("asin", np.asin)
    asinh = _ufunc1("asinh", np.asinh)
    atan = _ufunc1("atan", np.atan)
    atanh = _ufunc1("atanh", np.atanh)
    bitwise_invert = _ufunc1("bitwise_invert", np.bitwise_invert)
    ceil = _ufunc1("ceil", np.ceil)
    conj = _ufunc1("conj", np.conj)
    cos = _ufunc1("cos", np.cos)
    cosh = _ufunc1("cosh", np.cosh)
    exp = _ufunc1("exp", np.exp)
    floor = _ufunc1("floor", np.floor)
    isfinite = _ufunc1("isfinite", np.isfinite)
    isinf = _ufunc1("isinf", np.isinf)
    isnan = _ufunc1("isnan", np.isnan)
    log = _ufunc1("log", np.log)
    log2 = _ufunc1("log2", np.log2)
    log10 = _ufunc1("log10", np.log10)
    logical_not = _ufunc1("logical_not", np.logical_not)
    negative = _ufunc1("negative", np.negative)
    positive = _ufunc1("positive", np.positive)
    reciprocal = _ufunc1("reciprocal", np.reciprocal)
    signbit = _ufunc1("signbit", np.signbit)
    sin = _ufunc1("sin", np.sin)
    sinh = _ufunc1("sinh", np.sinh)
    square = _ufunc1("square", np.square)
    sqrt = _ufunc1("sqrt", np.sqrt)
    # complex: an infinite real part and a finite imaginary part b give ±1 + copysign(0, b) j
    # (NumPy takes the zero's sign from sin(2b)); tan(x) = -i tanh(ix) likewise
    tan = _ufunc1("tan", np.tan, complex_fix=lambda x, r: _zero_beside_infinity(x, r, False))
    tanh = _ufunc1("tanh", np.tanh, complex_fix=lambda x, r: _zero_beside_infinity(x, r, True))
    trunc = _ufunc1("trunc", np.trunc)
    add = _ufunc2("add", np.add)
    atan2 = _ufunc2("atan2", np.atan2)
    bitwise_and = _ufunc2("bitwise_and", np.bitwise_and)
    bitwise_left_shift = _ufunc2("bitwise_left_shift", np.bitwise_left_shift)
    bitwise_or = _ufunc2("bitwise_or", np.bitwise_or)
    bitwise_right_shift = _ufunc2("bitwise_right_shift", np.bitwise_right_shift)
    bitwise_xor = _ufunc2("bitwise_xor", np.bitwise_xor)
    copysign = _ufunc2("copysign", np.copysign)
    divide = _ufunc2("divide", np.divide)
    equal = _ufunc2("equal", np.equal)
    greater = _ufunc2("greater", np.greater)
    greater_equal = _ufunc2("greater_equal", np.greater_equal)
    hypot = _ufunc2("hypot", np.hypot)
    less = _ufunc2("less", np.less)
    less_equal = _ufunc2("less_equal", np.less_equal)
    logaddexp = _ufunc2("logaddexp", np.logaddexp)
    logical_and = _ufunc2("logical_and", np.logical_and)
    logical_or = _ufunc2("logical_or", np.logical_or)
    logical_xor = _ufunc2("logical_xor", np.logical_xor)
    maximum = _ufunc2("maximum", np.maximum)
    minimum = _ufunc2("minimum", np.minimum)
    multiply = _ufunc2("multiply", np.multiply)
    nextafter = _ufunc2("nextafter", np.nextafter)
    not_equal = _ufunc2("not_equal", np.not_equal)
    remainder = _ufunc2("remainder", np.remainder)
    subtract = _ufunc2("subtract", np.subtract)

    def fast_case(self, function: str) -> Any:
        """The functions behind `Array`'s operators that are their ufunc (`_ufunc1`,
        `_ufunc2`, `_OPERATOR_UFUNCS`): on arrays of one dtype of the function's category
        in the standard, or such an array and any Python scalar, in either order, the
        function is the ufunc call, which `Array` makes itself.  ``pow`` is
        ``numpy.power`` but where its exponent is 0.5 (`_power`, `_not_half`), and by a
        Python scalar NumPy's own ``**`` (``x ** 2`` is ``numpy.square``), as `pow`
        computes it too."""
        if function == "pow":
            return fastpath.binary_case(_NDARRAY, _POW_DTYPES, _power, _not_half, operator.pow,
                                        scalar_first=False, scalar_types=fastpath.SCALARS)
        ufunc = _OPERATOR_UFUNCS.get(function)
        if ufunc is None:
            return None
        dtypes = _accepted(function)[1]
        if ufunc.nin == 1:
            return fastpath.UnaryCase(_NDARRAY, dtypes, ufunc)
        return fastpath.binary_case(_NDARRAY, dtypes, ufunc, scalar_types=fastpath.SCALARS)

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
