"""Element-wise functions (spec chapter "Element-wise Functions").

The defaults delegate to the framework function of the same name; they are made from two
tables rather than written out ninety times.  Backends override the ones their framework
gets wrong (special cases, dtypes, promotion).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    return method


def _binary(name: str) -> Callable[..., Any]:
    def method(self: Any, x1: Any, x2: Any, /) -> Any:
        return getattr(self._f, name)(x1, x2)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``."
    return method


class ElementwiseFunctions:
    _f: Any

    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        return self._f.clip(x, min, max)


for _name in UNARY:
    setattr(ElementwiseFunctions, _name, _unary(_name))
for _name in BINARY:
    setattr(ElementwiseFunctions, _name, _binary(_name))
del _name
