"""Element-wise functions on MLX: the standard's promotion and special cases.

MLX's element-wise functions are right for most real inputs; each function here is MLX's
own behind a fast path (`_fast_unary`, `_fast_binary`: arrays of one dtype of the
function's category), with the standard's promotion of mixed dtypes and Python scalars
(`MLXCore._operands`) and the fixes MLX needs behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx

from ..._dtypes import CATEGORIES, CATEGORY_OF
from .._base import fastpath
from .._base.core import raise_translated, translated
from ._core import MLXCore

#: Category (`_dtypes.CATEGORIES`, None: every dtype) -> its MLX dtypes.
_ALL = frozenset(getattr(mx, "bool_" if n == "bool" else n) for n in CATEGORIES["numeric"]
                 if n != "complex128") | {mx.bool_}  # fmt: skip
IN: dict[str | None, frozenset[Any]] = {
    None: _ALL,
    **{c: frozenset(getattr(mx, "bool_" if n == "bool" else n) for n in names
                    if n != "complex128") for c, names in CATEGORIES.items()},
}  # fmt: skip
REAL_FLOATING = IN["real floating-point"]
FLOATING = IN["floating-point"]
INTEGER = IN["integer"]
Method = Callable[..., Any]


def _fast_unary(name: str, op: Callable[[Any], Any], dtypes: frozenset[Any] | None = None
                ) -> Callable[[Method], Method]:  # fmt: skip
    """`fastpath.unary` for ``op`` on MLX arrays of ``dtypes`` (default: the function's
    category)."""
    return fastpath.unary(mx.array, IN[CATEGORY_OF.get(name)] if dtypes is None else dtypes, op)


def _fast_binary(name: str, op: Callable[[Any, Any], Any], dtypes: frozenset[Any] | None = None
                 ) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated binary function: ``op(x1, x2)`` for two MLX
    arrays of one dtype of ``dtypes`` (default: the function's category), or one of them
    and a Python int or float MLX keeps the array's dtype for (an int with a numeric
    array, a float with a floating one).  MLX's dtype objects are new Python objects on
    each ``.dtype`` read, so dtypes compare by ``==`` (`fastpath.binary` tests identity).
    Any failure takes the full path, which raises the contract's error."""
    allowed = IN[CATEGORY_OF.get(name)] if dtypes is None else dtypes

    def decorate(slow: Method) -> Method:
        def method(self: Any, x1: Any, x2: Any, /) -> Any:
            t1, t2 = type(x1), type(x2)
            if t1 is mx.array:
                dtype = x1.dtype
                if dtype in allowed and ((t2 is mx.array and x2.dtype == dtype)
                                         or _fits(x2, dtype)):  # fmt: skip
                    try:
                        return op(x1, x2)
                    except Exception:  # the full path raises the contract's error
                        pass
            elif t2 is mx.array and x2.dtype in allowed and _fits(x1, x2.dtype):
                try:
                    return op(x1, x2)
                except Exception:
                    pass
            return slow(self, x1, x2)

        fastpath.describe(method, slow)
        method.fast_case = (mx.array, allowed, op, _scalar_operand, op, True)  # type: ignore[attr-defined]
        return method

    return decorate


#: MLX dtypes a Python float may meet without changing them.
_FLOAT_KEEPS = frozenset({mx.float32, mx.float64, mx.complex64})
#: ... and a Python int (within the dtype's range, which MLX checks).
_INT_KEEPS = _ALL - {mx.bool_}
_INT32_RANGE = (-(2**31), 2**31 - 1)


def _fits(value: Any, dtype: Any) -> bool:
    """Whether MLX keeps ``dtype`` for a Python ``value`` beside an array of it."""
    t = type(value)
    if t is float:
        return dtype in _FLOAT_KEEPS
    if t is int:
        return dtype in _INT_KEEPS and _INT32_RANGE[0] <= value <= _INT32_RANGE[1]
    return False


def _scalar_operand(value: Any, dtype: Any) -> Any:
    """`fastpath.FastCase`'s scalar hook: a Python float or int ``Array``'s operators may
    hand to the op with an array of ``dtype``."""
    return value if _fits(value, dtype) else None


def _unary(name: str, op: Callable[[Any], Any] | None = None) -> Method:
    """The standard's ``name`` where MLX's function (``op``, default ``mlx.core.<name>``)
    is right for every dtype of the category."""
    fn = getattr(mx, name) if op is None else op

    def method(self: Any, x: Any, /) -> Any:
        return fn(self._raw(x, name))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``: ``mlx.core.{name}``."
    return _fast_unary(name, fn)(translated(method))


def _binary(name: str, op: Callable[[Any, Any], Any] | None = None) -> Method:
    """The binary ``name`` where MLX's function is right once both operands have the
    promoted dtype."""
    fn = getattr(mx, name) if op is None else op

    def method(self: Any, x1: Any, x2: Any, /) -> Any:
        return fn(*self._operands(x1, x2, name))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``: ``mlx.core.{name}`` after promotion."
    return _fast_binary(name, fn)(translated(method))


def _bits_of(x: Any) -> Any:
    """The bits of a float32/float64 array as int32/int64 (a view: no copy)."""
    return mx.view(x, mx.int64 if x.dtype == mx.float64 else mx.int32)


def signbit_of(x: Any) -> Any:
    """Whether each element's sign bit is set (``-0.0`` and negative NaNs included)."""
    return _bits_of(x) < 0


class MLXElementwise(MLXCore):
    """The element-wise chapter."""

    abs = _unary("abs")
    acos = _unary("acos")
    acosh = _unary("acosh")
    asin = _unary("asin")
    asinh = _unary("asinh")
    atan = _unary("atan")
    atanh = _unary("atanh")
    bitwise_invert = _unary("bitwise_invert")
    ceil = _unary("ceil")
    conj = _unary("conj")
    cos = _unary("cos")
    cosh = _unary("cosh")
    exp = _unary("exp")
    expm1 = _unary("expm1")
    floor = _unary("floor")
    imag = _unary("imag")
    isfinite = _unary("isfinite")
    isinf = _unary("isinf")
    isnan = _unary("isnan")
    log = _unary("log")
    log1p = _unary("log1p")
    log2 = _unary("log2")
    log10 = _unary("log10")
    logical_not = _unary("logical_not")
    negative = _unary("negative")
    positive = _unary("positive")
    real = _unary("real")
    reciprocal = _unary("reciprocal")
    round = _unary("round")
    sign = _unary("sign")
    sin = _unary("sin")
    sinh = _unary("sinh")
    square = _unary("square")
    sqrt = _unary("sqrt")
    tan = _unary("tan")
    tanh = _unary("tanh")
    trunc = _unary("trunc")

    add = _binary("add")
    atan2 = _binary("atan2")
    bitwise_and = _binary("bitwise_and")
    bitwise_left_shift = _binary("bitwise_left_shift")
    bitwise_or = _binary("bitwise_or")
    bitwise_right_shift = _binary("bitwise_right_shift")
    bitwise_xor = _binary("bitwise_xor")
    divide = _binary("divide")
    equal = _binary("equal")
    floor_divide = _binary("floor_divide")
    greater = _binary("greater")
    greater_equal = _binary("greater_equal")
    less = _binary("less")
    less_equal = _binary("less_equal")
    logaddexp = _binary("logaddexp")
    logical_and = _binary("logical_and")
    logical_or = _binary("logical_or")
    logical_xor = _binary("logical_xor")
    maximum = _binary("maximum")
    minimum = _binary("minimum")
    multiply = _binary("multiply")
    not_equal = _binary("not_equal")
    pow = _binary("pow", mx.power)
    remainder = _binary("remainder")
    subtract = _binary("subtract")

    @_fast_unary("signbit", signbit_of)
    @translated
    def signbit(self, x: Any, /) -> Any:
        """The sign bit, read from the bits (MLX has no ``signbit``)."""
        return signbit_of(self._raw(x, "signbit"))

    @_fast_binary("copysign", lambda a, b: _copysign(a, b))
    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """``|x1|`` with the sign bit of ``x2`` (MLX has no ``copysign``)."""
        return _copysign(*self._operands(x1, x2, "copysign"))

    @_fast_binary("hypot", lambda a, b: _hypot(a, b))
    @translated
    def hypot(self, x1: Any, x2: Any, /) -> Any:
        """``sqrt(x1**2 + x2**2)`` without overflow: ``m * sqrt(1 + (n/m)**2)`` for
        ``m = max(|x1|, |x2|)``; an infinity wins over NaN (MLX has no ``hypot``)."""
        return _hypot(*self._operands(x1, x2, "hypot"))

    @_fast_binary("nextafter", lambda a, b: _nextafter(a, b))
    @translated
    def nextafter(self, x1: Any, x2: Any, /) -> Any:
        """The next representable value after ``x1`` towards ``x2``, by stepping the bits
        (MLX has no ``nextafter``)."""
        return _nextafter(*self._operands(x1, x2, "nextafter"))

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


def _copysign(x1: Any, x2: Any) -> Any:
    return mx.where(signbit_of(x1) != signbit_of(x2), -x1, x1)


def _hypot(x1: Any, x2: Any) -> Any:
    a, b = mx.abs(x1), mx.abs(x2)
    big, small = mx.maximum(a, b), mx.minimum(a, b)
    ratio = mx.where(big == 0, mx.zeros_like(big), small / mx.where(big == 0, 1, big))
    result = big * mx.sqrt(1 + ratio * ratio)
    result = mx.where(mx.isnan(x1) | mx.isnan(x2), mx.array(float("nan"), dtype=big.dtype),
                      result)  # fmt: skip
    return mx.where(mx.isinf(x1) | mx.isinf(x2), mx.array(float("inf"), dtype=big.dtype), result)


def _nextafter(x1: Any, x2: Any) -> Any:
    bits = _bits_of(x1)
    towards_larger_magnitude = (x2 > x1) == (x1 > 0)
    stepped = mx.view(mx.where(towards_larger_magnitude, bits + 1, bits - 1), x1.dtype)
    tiniest = mx.view(mx.ones_like(bits), x1.dtype)  # the smallest subnormal
    from_zero = _copysign(tiniest, x2)
    result = mx.where(x1 == 0, from_zero, stepped)
    result = mx.where(x1 == x2, x2, result)
    nan = mx.array(float("nan"), dtype=x1.dtype)
    return mx.where(mx.isnan(x1) | mx.isnan(x2), nan, result)


__all__ = ["FLOATING", "IN", "INTEGER", "MLXElementwise", "REAL_FLOATING", "raise_translated",
           "signbit_of"]
