"""Element-wise functions (spec chapter "Element-wise Functions") and the factories every
backend makes its element-wise functions with.

A backend states each function of the chapter as one explicit line, ``exp =
elementwise.unary("exp", torch.exp, _LANE)``: the standard's ``name``, the framework's
function that computes it, and the backend's `Lane` (the fast path's array type and
dtypes).  The two factories, `unary` and `binary`, are the only ones: a backend gives them
its functions and states, in two hooks, how a framework function meets the standard's
operands (`hooks.BackendCore.call_unary`, `call_binary`: promotion, Python scalars, a
wrapped `Array` of the backend).  A function the framework gets wrong for some inputs is
written out (a ``def``) in the backend, usually behind its own `fastpath` decorator.

The defaults below delegate to the function of the same name in the framework's
NumPy-like namespace (``self._f``), one explicit ``name = unary("name")`` line each;
`UNARY` and `BINARY` list the chapter's names for tests and backends.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, NamedTuple

from ..._dtypes import CATEGORY_OF, LANE_CATEGORY_OF
from . import fastpath
from .core import int_beyond_dtype, int_range, translated

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

Method = Callable[..., Any]
Decorator = Callable[[Method], Method]


class Lane(NamedTuple):
    """How a backend's functions made by `unary` and `binary` take their fast path
    (`fastpath.unary`, `fastpath.binary`): arrays of exactly ``array_type`` whose dtype is
    among ``dtypes[category]`` (the function's category, `_dtypes.CATEGORY_OF`; None for
    the functions without one): the dtypes on which the framework's function computes the
    standard's without any fix.

    A binary function's lane also takes a Python scalar beside such an array where
    ``scalar`` is given (`fastpath.BinaryCase`'s hook, of ``scalar_types``, fastpath's
    default where None), before the array too for the dtypes of ``first`` (None: every
    dtype of the case).  ``compiled`` makes the fast path's op from the framework's
    function (JAX: `jax.jit`), and a unary function's full path calls the same compiled
    function, so that both give the same bits; ``checked`` makes a unary op that tests
    the dtype itself (`fastpath.UnaryCase.checked`).  ``binary_path`` is the binary fast
    path's decorator, `fastpath.binary`'s signature (NumPy's `_ufunc_path` hands two NumPy
    scalars to the ufunc as they are)."""

    array_type: Any
    dtypes: Mapping[str | None, Collection[Any]]
    scalar: fastpath.ScalarOperand | None = None
    scalar_types: tuple[type, ...] | None = None
    first: Collection[Any] | None = None
    compiled: Callable[[Method], Method] | None = None
    checked: Callable[[Method, Any], Method] | None = None
    binary_path: Callable[..., Decorator] = fastpath.binary


def unary(name: str, fn: Method | None = None, lane: Lane | None = None, *,
          op: Method | None = None, dtypes: Collection[Any] | None = None,
          doc: str | None = None) -> Method:  # fmt: skip
    """The standard's unary ``name``: ``fn`` (the framework's function, right for every
    dtype of the function's category), called by the backend's
    `hooks.BackendCore.call_unary` on the array `core.translated` admitted; ``fn`` None:
    the function of that name in the framework's namespace (``self._f``), the generic
    default.  With a ``lane``, a fast path in front: ``op`` (default ``fn``, compiled as
    the lane says) for an array of the lane's type and of ``dtypes`` (default: the
    lane's dtypes of the function's category)."""
    if fn is None:

        def method(self: Any, x: Any, /) -> Any:
            return self.call_unary(name, getattr(self._f, name), x)

    else:
        call = fn if lane is None or lane.compiled is None else lane.compiled(fn)

        def method(self: Any, x: Any, /) -> Any:
            return self.call_unary(name, call, x)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc or _doc(name, fn)
    full = translated(method)
    if lane is None or fn is None:
        return full
    cases = lane.dtypes[LANE_CATEGORY_OF.get(name, CATEGORY_OF.get(name))] if dtypes is None else dtypes
    if op is None and lane.checked is not None:
        return fastpath.unary(lane.array_type, cases, lane.checked(fn, cases), checked=True)(full)
    return fastpath.unary(lane.array_type, cases, call if op is None else op)(full)


#: Binary functions whose frameworks compute an integer array with a Python int in a
#: floating dtype (true division), so none of them refuses an int beyond the array's
#: dtype, which the contract does for every binary function but the comparisons
#: (`core.int_beyond_dtype`, docs/errors.md); checked in the full path, which integer
#: operands take (the lanes hold floating dtypes only).
_INT_OVERFLOW_CHECKED = frozenset({"divide"})


def binary(name: str, fn: Method | None = None, lane: Lane | None = None, *,
           op: Method | None = None, dtypes: Collection[Any] | None = None,
           scalar_op: Method | bool = True, first: bool = True,
           doc: str | None = None) -> Method:  # fmt: skip
    """The standard's binary ``name``: ``fn`` (the framework's function, right for two
    arrays of one dtype of the function's category), called by the backend's
    `hooks.BackendCore.call_binary`, which promotes the operands `core.translated`
    admitted as the standard says; ``fn`` None: the function of that name in the
    framework's namespace (``self._f``), the generic default.  With a ``lane``, a fast
    path in front: ``op`` (default ``fn``, compiled as the lane says) for two arrays of
    the lane's type and one dtype of ``dtypes`` (default: the lane's dtypes of the
    function's category); where the lane takes Python scalars, ``scalar_op`` (True: ``op``;
    False: no scalar case) for one such array and a scalar, the scalar first too where
    ``first``."""
    if name in _INT_OVERFLOW_CHECKED:
        framework_fn = fn

        def method(self: Any, x1: Any, x2: Any, /) -> Any:
            int_beyond_dtype(self, name, x1, x2)  # OverflowError for an int beyond the dtype
            call = getattr(self._f, name) if framework_fn is None else framework_fn
            return self.call_binary(name, call, x1, x2)

    elif fn is None:

        def method(self: Any, x1: Any, x2: Any, /) -> Any:
            return self.call_binary(name, getattr(self._f, name), x1, x2)

    else:
        call = fn

        def method(self: Any, x1: Any, x2: Any, /) -> Any:
            return self.call_binary(name, call, x1, x2)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc or _doc(name, fn)
    full = translated(method)
    if lane is None or fn is None:
        return full
    cases = lane.dtypes[LANE_CATEGORY_OF.get(name, CATEGORY_OF.get(name))] if dtypes is None else dtypes
    if op is None:
        op = fn if lane.compiled is None else lane.compiled(fn)
    if scalar_op is False or (lane.scalar is None and lane.scalar_types is None):
        return lane.binary_path(lane.array_type, cases, op, None, None, False, ())(full)
    before = (cases if lane.first is None else frozenset(cases) & frozenset(lane.first)) \
        if first else False  # fmt: skip
    return lane.binary_path(lane.array_type, cases, op, lane.scalar,
                            op if scalar_op is True else scalar_op, before,
                            lane.scalar_types)(full)  # fmt: skip


def _doc(name: str, fn: Method | None) -> str:
    """A made function's docstring: a backend's own ``fn``'s (a function of eagerpy_xp that
    has one), else the standard's ``name`` and the framework's function."""
    if fn is None:
        return f"The standard's ``{name}``: the framework's function of that name."
    module = getattr(fn, "__module__", None) or ""
    if module.startswith("eagerpy_xp.") and fn.__doc__:
        return fn.__doc__
    qualified = f"{module}.{getattr(fn, '__name__', name)}".lstrip(".")
    return f"The standard's ``{name}``: ``{qualified}``."


class ElementwiseFunctions:
    _f: Any

    # The functions a NumPy-like framework gets right under the same name.
    abs = unary("abs")
    acos = unary("acos")
    acosh = unary("acosh")
    asin = unary("asin")
    asinh = unary("asinh")
    atan = unary("atan")
    atanh = unary("atanh")
    bitwise_invert = unary("bitwise_invert")
    ceil = unary("ceil")
    conj = unary("conj")
    cos = unary("cos")
    cosh = unary("cosh")
    exp = unary("exp")
    expm1 = unary("expm1")
    floor = unary("floor")
    imag = unary("imag")
    isfinite = unary("isfinite")
    isinf = unary("isinf")
    isnan = unary("isnan")
    log = unary("log")
    log1p = unary("log1p")
    log2 = unary("log2")
    log10 = unary("log10")
    logical_not = unary("logical_not")
    negative = unary("negative")
    positive = unary("positive")
    real = unary("real")
    reciprocal = unary("reciprocal")
    round = unary("round")
    sign = unary("sign")
    signbit = unary("signbit")
    sin = unary("sin")
    sinh = unary("sinh")
    square = unary("square")
    sqrt = unary("sqrt")
    tan = unary("tan")
    tanh = unary("tanh")
    trunc = unary("trunc")
    add = binary("add")
    atan2 = binary("atan2")
    bitwise_and = binary("bitwise_and")
    bitwise_left_shift = binary("bitwise_left_shift")
    bitwise_or = binary("bitwise_or")
    bitwise_right_shift = binary("bitwise_right_shift")
    bitwise_xor = binary("bitwise_xor")
    copysign = binary("copysign")
    divide = binary("divide")
    equal = binary("equal")
    floor_divide = binary("floor_divide")
    greater = binary("greater")
    greater_equal = binary("greater_equal")
    hypot = binary("hypot")
    less = binary("less")
    less_equal = binary("less_equal")
    logaddexp = binary("logaddexp")
    logical_and = binary("logical_and")
    logical_or = binary("logical_or")
    logical_xor = binary("logical_xor")
    maximum = binary("maximum")
    minimum = binary("minimum")
    multiply = binary("multiply")
    nextafter = binary("nextafter")
    not_equal = binary("not_equal")
    pow = binary("pow")
    remainder = binary("remainder")
    subtract = binary("subtract")

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """The spec's ``maximum(minimum(x, max), min)``: ``min`` wins where ``min > max``,
        ties keep ``x`` (signed zeros), NaN in any operand gives NaN.  The result keeps
        ``x``'s dtype even for array bounds of another dtype; Python int bounds outside an
        integer dtype's range are clamped to it."""
        if type(min) is int or type(max) is int:
            min, max = (clamp_int_bound(self, x.dtype, b) for b in (min, max))
        f = self._f
        result = f.asarray(x, copy=True) if max is None else f.minimum(max, x)
        if min is not None:
            result = f.maximum(min, result)
        if result.dtype != x.dtype:
            result = result.astype(x.dtype)
        return result


def clamp_int_bound(backend: Any, dtype: Any, bound: Any) -> Any:
    """A Python int ``bound`` moved into the range of an integer ``dtype``."""
    if type(bound) is not int:
        return bound
    bounds = int_range(backend.dtype_name(dtype))
    if bounds is None:
        return bound
    low, high = bounds
    return low if bound < low else high if bound > high else bound


#: The integer exponents below which NumPy (``npy_cpow``) and Python raise a complex number
#: to a power by repeated multiplication rather than through ``exp(x2 * log(x1))``.
_EXACT_POWERS = 100


def integral_exponent(value: Any) -> int | None:
    """A Python int (or an integral Python float) exponent ``n`` with ``|n| < 100`` as an
    int: the exponents `complex_integer_power` computes; None for any other value."""
    kind = type(value)
    if kind is float and value.is_integer():
        value = int(value)
    elif kind is not int:
        return None
    return value if -_EXACT_POWERS < value < _EXACT_POWERS else None


def complex_integer_power(x: Any, n: int, multiply: Callable[[Any, Any], Any],
                          reciprocal: Callable[[Any], Any], one: Callable[[Any], Any]) -> Any:  # fmt: skip
    """``x ** n`` for a complex array ``x`` and an int ``n`` (`integral_exponent`) by
    squaring and multiplying, as NumPy's and Python's complex power computes it: a purely
    imaginary ``x`` squared is real, with an imaginary part of exactly 0 (torch,
    TensorFlow and MLX compute ``exp(n * log(x))``, whose rounding leaves ``1e-16``
    there, and SciPy's ``poly`` of conjugate zeros then keeps odd coefficients that
    should cancel: ``signal.cheby2``).  ``x ** 0`` is 1 (NaN included), as NumPy's; a
    negative ``n`` is the reciprocal of ``x ** -n``.  ``one(x)`` makes ones like ``x``."""
    if n == 0:
        return one(x)
    count = -n if n < 0 else n
    result = None
    base = x
    while True:
        if count & 1:
            result = base if result is None else multiply(result, base)
        count >>= 1
        if not count:
            break
        base = multiply(base, base)
    return reciprocal(result) if n < 0 else result
