"""Element-wise functions on torch: the standard's promotion, all 13 dtypes, special cases."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

from ..._dtypes import ALL, BITS, CATEGORIES, scalar_kind_ok
from .._base import elementwise, fastpath
from .._base.core import COMPARISONS, int_beyond_dtype, translated
from ._core import INT64_MIN, SIGNED_VIEW, WIDER, Tensor, TorchCore

INT64_MAX = 2**63 - 1

#: Binary functions whose wrapping result on the same-width signed view is exact.
_ON_BITS = {"add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor",
            "equal", "not_equal"}  # fmt: skip
#: Binary functions that only need an order-preserving view of unsigned operands.
_ON_ORDER = {"less", "less_equal", "greater", "greater_equal"}
_MINMAX = {"maximum", "minimum"}
#: Binary functions with a torch version taking a Python scalar as second operand (real
#: dtypes; complex add/subtract need the workaround in `call_binary`), where it is not the
#: function's own.
_TAKES_SCALAR = frozenset({"add", "subtract", "multiply", "equal", "not_equal", "less",
                           "less_equal", "greater", "greater_equal", "bitwise_and",
                           "bitwise_or", "bitwise_xor", "maximum", "minimum"})  # fmt: skip
_WITH_SCALAR: dict[str, Callable[..., Any]] = {"maximum": torch.clamp_min,
                                               "minimum": torch.clamp_max}


#: Dtypes that a fast path may hand straight to torch: the standard's (and torch's half
#: floats), except the unsigned ones torch lacks kernels for (`SIGNED_VIEW`).
_REAL_FLOATS = frozenset((torch.float32, torch.float64, torch.float16, torch.bfloat16))
_PLAIN = (frozenset(getattr(torch, n) for n in ALL) | _REAL_FLOATS) - set(SIGNED_VIEW)
_NO_COMPLEX = _PLAIN - {torch.complex64, torch.complex128}


def _in_category(category: str | None, dtypes: frozenset[Any]) -> frozenset[Any]:
    """The ``dtypes`` of a fast path that are in ``category`` (`_dtypes.CATEGORIES`, with
    torch's half floats among the real floating ones, as `TorchCore.category_members`
    says; None: every dtype): a dtype outside it takes the full implementation, whose
    `translated` check raises the `TypeError`."""
    if category is None:
        return dtypes
    members = {getattr(torch, n) for n in CATEGORIES[category]}
    if torch.float32 in members:
        members |= {torch.float16, torch.bfloat16}
    return dtypes & frozenset(members)


#: Integer dtype (those with torch kernels) -> the Python ints `_binary` passes beside it
#: as they are (`TorchCore._check_fits`).
_INT_BOUNDS: dict[Any, tuple[int, int]] = {
    getattr(torch, n): (-(2 ** (BITS[n] - 1)), 2 ** (BITS[n] - 1) - 1) if n[0] == "i"
    else (0, 2 ** BITS[n] - 1)
    for n in ("int8", "int16", "int32", "int64", "uint8")
}  # fmt: skip
#: The standard's real floating dtypes (a Python int or an exponent beside torch's half
#: floats takes the full path, which refuses them).
_STANDARD_FLOATS = frozenset((torch.float32, torch.float64))
#: The Python ints a float64 holds exactly: `float()` of them is exact, so it rounds to a
#: float32 as a 0-d tensor of the int does (beyond them, or beyond int64, which such a
#: tensor cannot take: the full path decides).
_EXACT_INT = 2**53
_LEAST_EXACT_INT = -_EXACT_INT  # (not negated per call: a new int object each time)
#: The standard's dtypes a Python scalar may precede in a fast path: torch computes a
#: Python scalar beside a half float in float32 (its "opmath"), where `_binary` makes the
#: scalar a 0-d tensor of the half float first.
_SCALAR_FIRST = frozenset(getattr(torch, n) for n in ALL) - set(SIGNED_VIEW)


def _scalar_operand(value: Any, dtype: Any) -> Any:
    """A Python scalar beside a tensor of ``dtype`` as `_binary` hands it to torch when
    torch keeps the tensor's dtype (the standard's rule): a float beside a real floating
    tensor, an int (`_EXACT_INT`) beside one (as a float) or beside an integer tensor whose range holds
    it, a bool beside a bool tensor; None for anything else (the full path decides; a
    float beside torch's half floats is torch's own, as before)."""
    kind = type(value)
    if kind is float:
        return value if dtype in _REAL_FLOATS else None
    if kind is int:
        if dtype in _STANDARD_FLOATS:
            return float(value) if _LEAST_EXACT_INT <= value <= _EXACT_INT else None
        bounds = _INT_BOUNDS.get(dtype)
        return value if bounds is not None and bounds[0] <= value <= bounds[1] else None
    if kind is bool:
        return value if dtype is torch.bool else None
    return None


# (an int beside a float tensor goes on as it is: torch rounds it to the tensor's dtype
# once, as it does the float of it, which is exact within `_EXACT_INT`)
fastpath.as_is(_scalar_operand, _REAL_FLOATS,
               _STANDARD_FLOATS | {torch.int32, torch.int64})  # fmt: skip


#: Exponents that ``torch.pow`` with a Python number computes by a shortcut whose special
#: cases the standard does not allow: ``sqrt`` for 0.5 and ``rsqrt`` for -0.5
#: (``(-0.) ** 0.5`` is -0 and ``(-inf) ** -0.5`` NaN where the standard asks for +0 and
#: +0).  They meet a 0-d tensor.  (Its other shortcuts, ``x * x`` for 2, ``1 / x`` for
#: -1, ``x * x * x`` for 3, ``1 / (x * x)`` for -2, ones for 0, keep the special cases.)
_SHORTCUT_EXPONENTS = frozenset((0.5, -0.5))


def _exponent(value: Any, dtype: Any) -> Any:
    """A Python int or float exponent of `TorchElementwise.pow` that keeps the tensor's
    dtype (the standard's rule, `_scalar_operand`), where ``Tensor.pow`` takes the number
    as it is (its ``x * x`` for 2, ``1 / x`` for -1, ...): the number itself; None for
    anything else: an exponent of `_SHORTCUT_EXPONENTS` or a negative one of an integer
    tensor (which ``Tensor.pow`` refuses as a number) must meet a 0-d tensor of the dtype,
    as the full path makes it.  The operator's fast case calls ``Tensor.pow`` with it: no
    frame of ours (``x ** 2`` costs less than torch's own ``__pow__``)."""
    kind = type(value)
    if kind is float:
        if dtype not in _STANDARD_FLOATS:
            return None
    elif kind is int:
        if dtype in _STANDARD_FLOATS:
            if not _LEAST_EXACT_INT <= value <= _EXACT_INT:
                return None
        else:
            bounds = _INT_BOUNDS.get(dtype)
            if bounds is None or not bounds[0] <= value <= bounds[1] or value < 0:
                return None
    else:
        return None
    return None if value in _SHORTCUT_EXPONENTS else value


# (an int exponent within int32's range, beside a standard float tensor, goes on as it is:
# no shortcut exponent is an int, and the tensor's dtype is kept)
fastpath.as_is(_exponent, frozenset(), _STANDARD_FLOATS)


#: torch's fast lane: plain tensors of one dtype that needs no fix (`_PLAIN`), or such a
#: tensor and a Python scalar `call_binary` would pass as it is (`_scalar_operand`: a
#: float, where torch keeps the tensor's dtype, or int, or a bool beside a bool tensor),
#: the scalar first too where `call_binary`'s 0-d tensor of it gives the same
#: (`_SCALAR_FIRST`; ``scalar_op=False`` where torch's function takes no scalar).
_LANE = elementwise.Lane(Tensor, {c: _in_category(c, _PLAIN) for c in (None, *CATEGORIES)},
                         _scalar_operand, (float, int, bool), _SCALAR_FIRST)
#: The numeric dtypes of add and subtract's fast path: torch's complex kernels give
#: ``nan+infj`` for ``0j + infj`` (`call_binary` adds the parts).
_NO_COMPLEX_NUMERIC = _in_category("numeric", _NO_COMPLEX)


class TorchElementwise(TorchCore):
    """The element-wise chapter."""

    # -- torch's function (its own name rather than its alias of the standard's:
    # ``torch.lt``, not ``torch.less``, an alias costing some 0.1 µs a call; the kernel is the
    # same), with the fixes of `call_binary` (promotion, unsigned views, scalars) behind the
    # fast path of `_LANE`; the comparisons' fast path calls the `torch.Tensor` method
    # (``Tensor.lt(a, b)``: some 0.09 µs faster than ``torch.lt(a, b)``, the same kernel)
    acosh = elementwise.unary("acosh", torch.acosh, _LANE)
    asin = elementwise.unary("asin", torch.asin, _LANE)
    asinh = elementwise.unary("asinh", torch.asinh, _LANE)
    atan = elementwise.unary("atan", torch.atan, _LANE)
    atanh = elementwise.unary("atanh", torch.atanh, _LANE)
    conj = elementwise.unary("conj", torch.conj_physical, _LANE)
    cos = elementwise.unary("cos", torch.cos, _LANE)
    cosh = elementwise.unary("cosh", torch.cosh, _LANE)
    exp = elementwise.unary("exp", torch.exp, _LANE)
    log = elementwise.unary("log", torch.log, _LANE)
    log2 = elementwise.unary("log2", torch.log2, _LANE)
    log10 = elementwise.unary("log10", torch.log10, _LANE)
    logical_not = elementwise.unary("logical_not", torch.logical_not, _LANE)
    signbit = elementwise.unary("signbit", torch.signbit, _LANE)
    sin = elementwise.unary("sin", torch.sin, _LANE)
    sinh = elementwise.unary("sinh", torch.sinh, _LANE)
    sqrt = elementwise.unary("sqrt", torch.sqrt, _LANE)
    floor = elementwise.unary("floor", torch.floor, _LANE)
    ceil = elementwise.unary("ceil", torch.ceil, _LANE)
    trunc = elementwise.unary("trunc", torch.trunc, _LANE)

    add = elementwise.binary("add", torch.add, _LANE, dtypes=_NO_COMPLEX_NUMERIC)
    atan2 = elementwise.binary("atan2", torch.atan2, _LANE, scalar_op=False)
    bitwise_and = elementwise.binary("bitwise_and", torch.bitwise_and, _LANE)
    bitwise_or = elementwise.binary("bitwise_or", torch.bitwise_or, _LANE)
    bitwise_xor = elementwise.binary("bitwise_xor", torch.bitwise_xor, _LANE)
    copysign = elementwise.binary("copysign", torch.copysign, _LANE, scalar_op=False)
    equal = elementwise.binary("equal", torch.eq, _LANE, op=Tensor.eq, first=False)
    greater = elementwise.binary("greater", torch.gt, _LANE, op=Tensor.gt, first=False)
    greater_equal = elementwise.binary("greater_equal", torch.ge, _LANE, op=Tensor.ge, first=False)
    hypot = elementwise.binary("hypot", torch.hypot, _LANE, scalar_op=False)
    less = elementwise.binary("less", torch.lt, _LANE, op=Tensor.lt, first=False)
    less_equal = elementwise.binary("less_equal", torch.le, _LANE, op=Tensor.le, first=False)
    logaddexp = elementwise.binary("logaddexp", torch.logaddexp, _LANE, scalar_op=False)
    logical_and = elementwise.binary("logical_and", torch.logical_and, _LANE, scalar_op=False)
    logical_or = elementwise.binary("logical_or", torch.logical_or, _LANE, scalar_op=False)
    logical_xor = elementwise.binary("logical_xor", torch.logical_xor, _LANE, scalar_op=False)
    maximum = elementwise.binary("maximum", torch.maximum, _LANE, scalar_op=torch.clamp_min, first=False)
    minimum = elementwise.binary("minimum", torch.minimum, _LANE, scalar_op=torch.clamp_max, first=False)
    multiply = elementwise.binary("multiply", torch.mul, _LANE)
    nextafter = elementwise.binary("nextafter", torch.nextafter, _LANE, scalar_op=False)
    not_equal = elementwise.binary("not_equal", torch.ne, _LANE, op=Tensor.ne, first=False)
    subtract = elementwise.binary("subtract", torch.sub, _LANE, dtypes=_NO_COMPLEX_NUMERIC)

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any
                    ) -> Tensor:  # fmt: skip
        """torch's ``fn`` with the standard's promotion (`TorchCore.promoted_operands`),
        Python scalars as torch takes them where it keeps the tensor's dtype, the unsigned
        dtypes torch lacks kernels for on their signed views (`SIGNED_VIEW`), complex
        ``add`` and ``subtract`` part by part, and comparisons with a Python int beyond the
        tensor's dtype exact."""
        name = function
        if name in COMPARISONS:  # exact with an int beyond the array's dtype, as NumPy
            beyond = int_beyond_dtype(self, name, x1, x2)
            if beyond is not None:
                array, value = beyond
                return torch.full(array.shape, value, dtype=torch.bool, device=array.device)
        if (
            name in _TAKES_SCALAR
            and isinstance(x1, torch.Tensor)
            and isinstance(x2, (int, float))
            and x1.dtype not in SIGNED_VIEW
            and not x1.is_complex()
            and scalar_kind_ok(self.dtype_name(x1.dtype), x2)
        ):  # torch keeps the tensor's dtype here too: no 0-d tensor needed
            self._check_fits(x2, x1.dtype, name)
            if x1.is_floating_point() and type(x2) is int:
                x2 = float(x2)  # torch refuses ints beyond int64 here
            return _WITH_SCALAR.get(name, fn)(x1, x2)  # type: ignore[no-any-return]
        a, b = self.promoted_operands(name, x1, x2)
        if name in ("add", "subtract") and a.is_complex():  # torch: 0j + infj is nan+infj
            return torch.complex(fn(a.real, b.real), fn(a.imag, b.imag))
        if a.dtype in SIGNED_VIEW:
            if name in _ON_BITS:
                result = fn(self._bits(a), self._bits(b))
                return result if result.dtype == torch.bool else self._unbits(result, a.dtype)
            if name in _ON_ORDER:
                return fn(self._ordered(a), self._ordered(b))  # type: ignore[no-any-return]
            if name in _MINMAX:
                return self._unordered(fn(self._ordered(a), self._ordered(b)), a.dtype)
        return fn(a, b)  # type: ignore[no-any-return]

    # -- unary fixes -------------------------------------------------------------------------
    @fastpath.unary(Tensor, _REAL_FLOATS | {torch.int64, torch.int32, torch.int16, torch.int8},
                    torch.abs)  # fmt: skip
    @translated
    def abs(self, x: Any, /) -> Any:
        self._check_tensor(x, "abs")
        if self._kind(x) in ("unsigned integer", "bool"):
            return x.clone()
        return torch.abs(x)

    @translated
    def positive(self, x: Any, /) -> Any:
        self._check_tensor(x, "positive")
        return x

    @fastpath.unary(Tensor, _NO_COMPLEX - {torch.bool}, torch.neg)
    @translated
    def negative(self, x: Any, /) -> Any:
        """Complex zeros flip sign too (torch's vector kernel computes ``0 - x``)."""
        self._check_tensor(x, "negative")
        if x.is_complex():
            return torch.complex(-x.real, -x.imag)
        return self._on_bits(torch.neg, x) if x.dtype in SIGNED_VIEW else torch.neg(x)

    @fastpath.unary(Tensor, _LANE.dtypes["numeric"], torch.square)
    @translated
    def square(self, x: Any, /) -> Any:
        """The unsigned dtypes torch lacks kernels for wrap on their signed views' bits."""
        return self._on_bits(torch.square, x) if x.dtype in SIGNED_VIEW else torch.square(x)

    @translated
    def expm1(self, x: Any, /) -> Any:
        """Complex: ``expm1(x) cos(y) - 2 sin²(y/2) + i exp(x) sin(y)`` with the spec's
        special cases (torch gives NaN for infinite real parts)."""
        self._check_tensor(x, "expm1")
        if not x.is_complex():
            return torch.expm1(x)
        re, im = x.real, x.imag
        real = torch.expm1(re) * torch.cos(im) - 2 * torch.sin(im / 2) ** 2
        imag = torch.where(im == 0, im, torch.exp(re) * torch.sin(im))
        nonfinite_im = ~torch.isfinite(im)
        negative_inf, positive_inf = re == -torch.inf, re == torch.inf
        real = torch.where(negative_inf, -1.0, real)
        imag = torch.where(negative_inf & nonfinite_im, 0.0, imag)
        real = torch.where(positive_inf & nonfinite_im, torch.inf, real)
        imag = torch.where(positive_inf & nonfinite_im, torch.nan, imag)
        real = torch.where((re == 0) & (im == 0), 0.0, real)  # expm1(-0 ± 0j) is +0 ± 0j
        return torch.complex(real, imag)

    @fastpath.unary(Tensor, _REAL_FLOATS, torch.tanh)
    @translated
    def tanh(self, x: Any, /) -> Any:
        """Complex: an infinite real part and a finite imaginary part ``b`` give
        ``±1 + copysign(0, b) j`` (torch takes the zero's sign from ``sin(2b)``)."""
        self._check_tensor(x, "tanh")
        return _zero_beside_infinity(x, torch.tanh(x), real_infinite=True)

    @fastpath.unary(Tensor, _REAL_FLOATS, torch.tan)
    @translated
    def tan(self, x: Any, /) -> Any:
        """Complex, as ``-i tanh(i x)``: a finite real part ``a`` and an infinite imaginary
        part give ``copysign(0, a) ± 1j``."""
        self._check_tensor(x, "tan")
        return _zero_beside_infinity(x, torch.tan(x), real_infinite=False)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """Complex: ``log1p(-0+0j)`` has real part +0; an infinite and a NaN part give
        ``inf+nanj``; an infinite part gives ``log(x + 1)`` (torch: NaN for small real
        parts).  Where both parts are below the dtype's epsilon, the series ``a - a²/2 +
        b²/2`` and ``b (1 - a)``, exact to rounding there (torch gives NaN+NaNj when the
        imaginary part is subnormal and the real one below about eps/2).  A zero
        imaginary part keeps its sign where ``1 + a >= 0`` (torch: +0 for some -0)."""
        self._check_tensor(x, "log1p")
        result = torch.log1p(x)
        if not x.is_complex():
            return result
        shifted = torch.complex(x.real + 1, x.imag)  # not x + 1: -0 imaginary parts stay
        result = torch.where(torch.isinf(x.real) | torch.isinf(x.imag), torch.log(shifted), result)
        a, b = x.real, x.imag
        eps = torch.finfo(a.dtype).eps
        tiny = (a.abs() < eps) & (b.abs() < eps)
        series = torch.complex(a * (1 - a / 2) + b * b / 2, b * (1 - a))
        result = torch.where(tiny, series, result)
        # a zero imaginary part keeps its sign where 1 + a >= 0 (torch's small-x path
        # gives +0 for -0: log1p(conj(x)) is conj(log1p(x)))
        result = torch.complex(result.real, torch.where((b == 0) & (a >= -1), b, result.imag))
        real = torch.where(x == 0, torch.zeros_like(result.real), result.real)
        infinite_nan = torch.isinf(x.real) & torch.isnan(x.imag)
        infinite_nan |= torch.isnan(x.real) & torch.isinf(x.imag)
        real = torch.where(infinite_nan, torch.inf, real)
        return torch.complex(real, result.imag)

    @translated
    def reciprocal(self, x: Any, /) -> Any:
        """Complex zero gives NaN+NaNj (as the reference); torch gives inf+nanj."""
        self._check_tensor(x, "reciprocal")
        result = torch.reciprocal(x)
        if not x.is_complex():
            return result
        nan = torch.full((), torch.nan, dtype=x.real.dtype, device=x.device)
        return torch.where(x == 0, torch.complex(nan, nan), result)

    @translated
    def acos(self, x: Any, /) -> Any:
        """Complex: on the real segment [-1, 1] the imaginary part is ``-imag(x)``."""
        self._check_tensor(x, "acos")
        result = torch.acos(x)
        if not x.is_complex():
            return result
        segment = (x.imag == 0) & (x.real.abs() <= 1)
        return torch.complex(result.real, torch.where(segment, -x.imag, result.imag))

    @translated
    def sign(self, x: Any, /) -> Any:
        """Also NaN for NaN (torch gives 0) and ``x / |x|`` for complex, also where ``|x|``
        overflows (torch gives 0 there)."""
        self._check_tensor(x, "sign")
        kind = self._kind(x)
        if kind == "unsigned integer":
            return (x != 0).to(x.dtype)
        if kind == "complex floating":  # sign(±0 ± 0j) is +0 + 0j
            half = torch.finfo(x.real.dtype).max / 2  # |x| would overflow: sgn(x / 2)
            huge = ((x.real.abs() > half) | (x.imag.abs() > half)) & torch.isfinite(x)
            return torch.where(x == 0, torch.zeros_like(x), torch.sgn(torch.where(huge, x * 0.5, x)))
        result = torch.sign(x)
        if kind != "real floating":
            return result
        # NaN is the one value unequal to itself; `x != x` rather than `isnan`: inductor's
        # CPU code vectorises the comparison and fuses it (isnan cost 8 % of a PGD step)
        return torch.where(x != x, x, result)

    @translated
    def bitwise_invert(self, x: Any, /) -> Any:
        self._check_tensor(x, "bitwise_invert")
        return self._on_bits(torch.bitwise_not, x)

    @translated
    def real(self, x: Any, /) -> Any:
        self._check_tensor(x, "real")
        return torch.real(x) if x.is_complex() else x

    @translated
    def imag(self, x: Any, /) -> Any:
        self._check_tensor(x, "imag")
        return torch.imag(x) if x.is_complex() else torch.zeros_like(x)

    @translated
    def round(self, x: Any, /) -> Any:
        """Complex: both parts rounded (torch has no complex kernel)."""
        if x.is_complex():
            return torch.complex(torch.round(x.real), torch.round(x.imag))
        return torch.round(x)

    @translated
    def isfinite(self, x: Any, /) -> Any:
        self._check_tensor(x, "isfinite")
        return torch.isfinite(x) if x.is_floating_point() or x.is_complex() else torch.ones_like(
            x, dtype=torch.bool)  # fmt: skip

    @translated
    def isinf(self, x: Any, /) -> Any:
        self._check_tensor(x, "isinf")
        return torch.isinf(x) if x.is_floating_point() or x.is_complex() else torch.zeros_like(
            x, dtype=torch.bool)  # fmt: skip

    @translated
    def isnan(self, x: Any, /) -> Any:
        self._check_tensor(x, "isnan")
        return torch.isnan(x) if x.is_floating_point() or x.is_complex() else torch.zeros_like(
            x, dtype=torch.bool)  # fmt: skip

    # -- division ----------------------------------------------------------------------------
    @translated
    def divide(self, x1: Any, x2: Any, /) -> Any:
        """Integer operands divide in the default floating dtype."""
        a, b = self.promoted_operands("divide", x1, x2)
        if not (a.is_floating_point() or a.is_complex()):
            dtype = self._default("real floating")
            a, b = a.to(dtype), b.to(dtype)
        return torch.true_divide(a, b)

    def _integer_division(self, a: Tensor, b: Tensor, want_quotient: bool) -> Tensor:
        """Floor quotient or remainder of integers; division by zero gives 0 (as NumPy)."""
        dtype = a.dtype
        if dtype == torch.uint64:
            q, r = _unsigned_divmod64(a.view(torch.int64), b.view(torch.int64))
            return (q if want_quotient else r).view(torch.uint64)
        if dtype in WIDER:
            a, b = a.to(WIDER[dtype]), b.to(WIDER[dtype])
        zero = b == 0
        safe = torch.where(zero, torch.ones_like(b), b)
        fn = torch.floor_divide if want_quotient else torch.remainder
        result = torch.where(zero, torch.zeros_like(a), fn(a, safe))
        return result if result.dtype == dtype else result.to(dtype)

    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """``floor(x1 / x2)`` where an operand is infinite (torch follows Python's ``//``)."""
        a, b = self.promoted_operands("floor_divide", x1, x2)
        if not a.is_floating_point():
            return self._integer_division(a, b, True)
        result = torch.floor_divide(a, b)
        special = torch.isinf(a) | torch.isinf(b)
        return torch.where(special, torch.floor(a / b), result)

    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """A zero result takes the sign of ``x2``; integer division by zero gives 0."""
        a, b = self.promoted_operands("remainder", x1, x2)
        if not a.is_floating_point():
            return self._integer_division(a, b, False)
        result = torch.remainder(a, b)
        return torch.where(result == 0, torch.copysign(torch.zeros_like(result), b), result)

    @fastpath.binary(Tensor, _NO_COMPLEX_NUMERIC - {torch.bool}, torch.pow,
                     _exponent, Tensor.pow, False, (float, int))  # fmt: skip
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """A tensor to a Python int or float exponent that keeps its dtype (`_exponent`)
        is ``Tensor.pow`` of the number (the operator's fast case too)."""
        if isinstance(x1, Tensor) and type(x2) in (int, float):
            exponent = _exponent(x2, x1.dtype)
            if exponent is not None:
                return Tensor.pow(x1, exponent)
            if x1.is_complex():
                n = elementwise.integral_exponent(x2)
                if n is not None:  # by multiplying, as NumPy's (torch: exp(n * log(x)))
                    return elementwise.complex_integer_power(x1, n, torch.mul, torch.reciprocal,
                                                             torch.ones_like)  # fmt: skip
        a, b = self.promoted_operands("pow", x1, x2)
        if a.dtype in WIDER:
            return self._unbits(torch.pow(a.to(WIDER[a.dtype]), b.to(WIDER[a.dtype])), a.dtype)
        if a.dtype == torch.uint64:
            return self._unbits(torch.pow(self._bits(a), self._bits(b)), a.dtype)
        if a.is_complex():  # x ** 0 is 1 (torch: NaN for 0 ** 0j); 0 ** -1 is NaN (torch: inf)
            result = torch.where(b == 0, torch.ones_like(a), torch.pow(a, b))
            undefined = (a == 0) & (b.real < 0)
            nan = torch.full((), torch.nan, dtype=a.real.dtype, device=a.device)
            return torch.where(undefined, torch.complex(nan, nan), result)
        return torch.pow(a, b)

    # -- shifts ------------------------------------------------------------------------------
    def _shift(self, x1: Any, x2: Any, left: bool) -> Tensor:
        """Counts that are negative or at least the bit width shift everything out."""
        function = "bitwise_left_shift" if left else "bitwise_right_shift"
        a, b = self.promoted_operands(function, x1, x2)
        dtype = a.dtype
        if dtype == torch.bool or a.is_floating_point() or a.is_complex():
            raise self.error(function, f"expected integer arrays, got {dtype}", TypeError)
        bits = BITS[self.dtype_name(dtype)]
        if dtype in WIDER:
            a, b = a.to(WIDER[dtype]), b.to(WIDER[dtype])
        else:
            a, b = self._bits(a), self._bits(b)
        over = (b < 0) | (b >= bits)
        count = torch.where(over, torch.zeros_like(b), b)
        if left:
            result = torch.where(over, torch.zeros_like(a), a << count)
        elif dtype == torch.uint64:  # logical shift of the int64 view
            logical = ((a >> 1) & INT64_MAX) >> (count - 1).clamp(min=0)
            result = torch.where(over, torch.zeros_like(a), torch.where(count == 0, a, logical))
        else:
            result = torch.where(over, torch.where(a < 0, -1, 0).to(a.dtype), a >> count)
        return self._unbits(result, dtype) if dtype in SIGNED_VIEW else result

    @translated
    def bitwise_left_shift(self, x1: Any, x2: Any, /) -> Any:
        return self._shift(x1, x2, True)

    @translated
    def bitwise_right_shift(self, x1: Any, x2: Any, /) -> Any:
        return self._shift(x1, x2, False)

    # -- clip --------------------------------------------------------------------------------
    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """Bounds are cast to ``x.dtype`` (out-of-range Python ints saturate first)."""
        self._check_tensor(x, "clip")
        if self._kind(x) in ("bool", "complex floating"):
            raise self.error("clip", f"expected a real numeric array, got {x.dtype}", TypeError)
        result = self._ordered(x)
        for bound, fn in ((min, torch.maximum), (max, torch.minimum)):
            if bound is not None:
                result = fn(result, self._ordered(self._bound(bound, x)))
        result = self._unordered(result, x.dtype)
        return x.clone() if result is x else result

    def _bound(self, bound: Any, x: Tensor) -> Tensor:
        if isinstance(bound, torch.Tensor):
            return bound.to(x.dtype)
        if isinstance(bound, bool) or not isinstance(bound, (int, float)):
            raise self.error("clip", f"bounds must be real numbers or arrays, got {bound!r}",
                             TypeError)  # fmt: skip
        if not (x.is_floating_point()):
            if isinstance(bound, float):
                if math.isnan(bound):
                    raise self.error("clip", "a NaN bound on an integer array")
                bound = math.floor(bound) if math.isfinite(bound) else bound
            info = self.iinfo(x.dtype)
            bound = info.max if bound > info.max else info.min if bound < info.min else int(bound)
        return self._scalar_tensor(bound, x.dtype, x, "clip")


def _zero_beside_infinity(x: Tensor, result: Tensor, real_infinite: bool) -> Tensor:
    """``result`` of a complex ``x`` whose ``real_infinite`` part (the real one, or else
    the imaginary one) is infinite and whose other part is finite: its other part is
    the zero with that finite part's sign."""
    if not x.is_complex():
        return result
    infinite, finite = (x.real, x.imag) if real_infinite else (x.imag, x.real)
    fix = torch.isinf(infinite) & torch.isfinite(finite)
    zero = torch.where(fix, torch.copysign(torch.zeros_like(finite), finite),
                       result.imag if real_infinite else result.real)  # fmt: skip
    if real_infinite:
        return torch.complex(result.real, zero)
    return torch.complex(zero, result.imag)


def _unsigned_divmod64(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """Unsigned 64-bit floor division and remainder on int64 bit patterns (b == 0 gives 0)."""
    flip = INT64_MIN
    big = b < 0  # divisor >= 2**63: the quotient is 0 or 1
    safe = torch.where((b == 0) | big, torch.ones_like(b), b)
    q = (((a >> 1) & INT64_MAX) // safe) << 1
    r = a - q * safe
    fix = (r ^ flip) >= (safe ^ flip)
    q = torch.where(fix, q + 1, q)
    r = torch.where(fix, r - safe, r)
    big_q = ((a ^ flip) >= (b ^ flip)).to(torch.int64)
    q = torch.where(big, big_q, q)
    r = torch.where(big, a - big_q * b, r)
    zero = b == 0
    return torch.where(zero, 0, q), torch.where(zero, 0, r)


__all__ = ["TorchElementwise"]
