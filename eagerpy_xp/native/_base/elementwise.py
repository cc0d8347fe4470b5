"""Element-wise functions (spec chapter "Element-wise Functions").

The defaults delegate to the framework function of the same name, one explicit
``name = _unary("name")`` line each; `UNARY` and `BINARY` list them for tests and
backends.  Backends override the ones their framework gets wrong (special cases, dtypes,
promotion).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .core import int_range, translated

UNARY = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
    "conj", "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan",
    "log", "log1p", "log2", "log10", "logical_not", "negative", "positive", "real",
    "reciprocal", "round", "sign", "signbit", "sin", "sinh", "square", "sqrt", "tan", "tanh",
    "trunc",
)  # fmt: skip

BINARY = (
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal",
    "hypot", "less", "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "multiply", "nextafter", "not_equal", "pow", "remainder",
    "subtract",
)  # fmt: skip


def _unary(name: str) -> Callable[..., Any]:
    def method(self: Any, x: Any, /) -> Any:
        return getattr(self._f, name)(x)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``."
    return translated(method)


def _binary(name: str) -> Callable[..., Any]:
    def method(self: Any, x1: Any, x2: Any, /) -> Any:  # `translated` checks both operands
        return getattr(self._f, name)(x1, x2)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``."
    return translated(method)


class ElementwiseFunctions:
    _f: Any

    # The functions a NumPy-like framework gets right under the same name.
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
    signbit = _unary("signbit")
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
    copysign = _binary("copysign")
    divide = _binary("divide")
    equal = _binary("equal")
    floor_divide = _binary("floor_divide")
    greater = _binary("greater")
    greater_equal = _binary("greater_equal")
    hypot = _binary("hypot")
    less = _binary("less")
    less_equal = _binary("less_equal")
    logaddexp = _binary("logaddexp")
    logical_and = _binary("logical_and")
    logical_or = _binary("logical_or")
    logical_xor = _binary("logical_xor")
    maximum = _binary("maximum")
    minimum = _binary("minimum")
    multiply = _binary("multiply")
    nextafter = _binary("nextafter")
    not_equal = _binary("not_equal")
    pow = _binary("pow")
    remainder = _binary("remainder")
    subtract = _binary("subtract")

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """The spec's ``maximum(minimum(x, max), min)``: ``min`` wins where ``min > max``,
        ties keep ``x`` (signed zeros), NaN in any operand gives NaN.  The result keeps
        ``x``'s dtype even for array bounds of another dtype; Python int bounds outside an
        integer dtype's range are clamped to it."""
        if type(min) is int or type(max) is int:
            min, max = (_clamp_int_bound(self, x.dtype, b) for b in (min, max))
        f = self._f
        result = f.asarray(x, copy=True) if max is None else f.minimum(max, x)
        if min is not None:
            result = f.maximum(min, result)
        if result.dtype != x.dtype:
            result = result.astype(x.dtype)
        return result


def _clamp_int_bound(backend: Any, dtype: Any, bound: Any) -> Any:
    """A Python int ``bound`` moved into the range of an integer ``dtype``."""
    if type(bound) is not int:
        return bound
    bounds = int_range(backend.dtype_name(dtype))
    if bounds is None:
        return bound
    low, high = bounds
    return low if bound < low else high if bound > high else bound
