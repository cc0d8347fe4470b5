"""The fast paths (`eagerpy_xp.native._base.fastpath` and the inline ones of reductions)
give exactly what the full implementations give.

Each function is called twice on the same values: once on plain tensors (the fast path's
case) and once on inputs of another type that the fast paths never take (a
``tf.Variable``; a torch.Tensor subclass; an `eagerpy_xp.Array` given to a native JAX
function), which go through the full implementation.
Results must agree bit for bit (NaN, signed zeros), in dtype, and in the errors raised.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import math
import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from eagerpy_xp import Array, _dtypes
from eagerpy_xp._dtypes import LANE_MAX, LANE_MIN
from eagerpy_xp._spec import ARITHMETIC_OPERATORS, COMPARISON_OPERATORS
from eagerpy_xp._spec import UNARY_OPERATORS as UNARY_OPERATORS
from eagerpy_xp.native._base import fastpath
from eagerpy_xp.native._base.elementwise import BINARY, UNARY
from tests._flavours import namespaces

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = ("float32", "float64", "int64", "int32", "int16", "int8", "uint8", "uint16",
          "uint32", "uint64", "bool", "complex64", "complex128")  # fmt: skip
FLOATS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.5, 0.7, 2.5, -2.6, 1e-40, 1e30]
#: Python scalars beside arrays: every kind (bools and complex numbers too), signed zeros,
#: NaN, infinities, a float32 subnormal, 0.5 (NumPy's ``pow`` fixes it), 2 (``x ** 2``),
#: and ints at and beyond the edges of int8, uint8, int32 (JAX's weak ints and the fast
#: cases' int lane, `_dtypes.LANE_MIN`..`LANE_MAX`), float32's (2**24 + 1 rounds) and float64's
#: exact ints.
SCALARS = [0.0, -0.0, 2.5, -1.0, 1e-40, math.nan, math.inf, -math.inf, 0.5, 3, -2, 0, 2,
           127, 128, -129, 255, 256, -1, 2**24 + 1, -(2**24) - 3, 2**31 - 1, -(2**31),
           2**31, -(2**31) - 1, 2**40, 2**53 + 1, 2**63, 2**70,
           True, False, 1.5 - 2j, complex(math.nan, 0.0)]  # fmt: skip


def _values(dtype: str) -> np.ndarray:
    if dtype == "bool":
        return np.array([True, False] * 6)
    if dtype.startswith("float"):
        return np.array(FLOATS, dtype=dtype)
    if dtype.startswith("complex"):
        return (np.array(FLOATS) + 1j * np.array(FLOATS[::-1])).astype(dtype)
    info = np.iinfo(dtype)
    return np.array([0, 1, 2, 3, 7, 100, info.max, info.min, info.max - 1, 5, 6, 9]
                    ).astype(dtype)  # fmt: skip


class _Torch:
    name = "torch"

    def __init__(self) -> None:
        self.torch = pytest.importorskip("torch")

        class Sub(self.torch.Tensor):  # type: ignore[name-defined,misc]
            """A tensor type no fast path takes."""

        self.sub = Sub

    def plain(self, values: np.ndarray) -> Any:
        return self.torch.asarray(values.copy())

    def other(self, values: np.ndarray) -> Any:
        return self.plain(values).as_subclass(self.sub)

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        x = x.as_subclass(self.torch.Tensor)
        dtype = str(x.dtype).removeprefix("torch.")
        if dtype in ("uint16", "uint32", "uint64"):
            signed = getattr(self.torch, dtype.replace("u", ""))
            return dtype, x.view(signed).numpy().view(dtype)
        return dtype, x.numpy()


class _TensorFlow:
    name = "tensorflow"

    def __init__(self) -> None:
        self.tf = pytest.importorskip("tensorflow")

    def plain(self, values: np.ndarray) -> Any:
        return self.tf.constant(values)

    def other(self, values: np.ndarray) -> Any:
        return self.tf.Variable(values)

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        return x.dtype.name, x.numpy()


class _Jax:
    name = "jax"
    #: Each dtype compiles every op anew (seconds each): one dtype per kind, both widths
    #: of the floating ones (the fast paths' dtypes are whole categories).
    dtypes = ("float32", "float64", "int64", "uint8", "bool", "complex64")

    def __init__(self) -> None:
        self.jnp = pytest.importorskip("jax.numpy")
        import eagerpy_xp

        self.wrap = eagerpy_xp.astensor

    def plain(self, values: np.ndarray) -> Any:
        return self.jnp.asarray(values.copy())

    def other(self, values: np.ndarray) -> Any:
        """An `eagerpy_xp.Array` given to a native function: no fast path takes it."""
        return self.wrap(self.plain(values))

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        host = np.asarray(x)
        return host.dtype.name, host


class _Mlx:
    name = "mlx"
    #: MLX has no complex128.
    dtypes = tuple(d for d in DTYPES if d != "complex128")

    def __init__(self) -> None:
        self.mx = pytest.importorskip("mlx.core")
        import eagerpy_xp

        self.wrap = eagerpy_xp.astensor

    def plain(self, values: np.ndarray) -> Any:
        name = "bool_" if values.dtype == np.bool_ else values.dtype.name
        return self.mx.array(values.copy(), dtype=getattr(self.mx, name))

    def other(self, values: np.ndarray) -> Any:
        """An `eagerpy_xp.Array` given to a native MLX function: no fast path takes it."""
        return self.wrap(self.plain(values))

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        host = np.array(x)
        return host.dtype.name, host


_CASES = {"torch": _Torch, "tensorflow": _TensorFlow, "jax": _Jax, "mlx": _Mlx}


@pytest.fixture(scope="module", params=sorted(_CASES))
def case(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    backend = _CASES[request.param]()
    return backend, importlib.import_module(f"eagerpy_xp.native.{request.param}")


def _outcome(backend: Any, fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
             ) -> Any:  # fmt: skip
    try:
        result = fn(*args, **kwargs)
    except Exception as error:  # the same error type either way
        return type(error).__name__
    dtype, values = backend.numpy(result)
    return dtype, values.shape, values.tobytes(), getattr(result, "weak_type", None)


def _same(backend: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """``fn`` on plain tensors (arrays given as NumPy arrays) equals ``fn`` on the others."""
    fast = [backend.plain(a) if isinstance(a, np.ndarray) else a for a in args]
    full = [backend.other(a) if isinstance(a, np.ndarray) else a for a in args]
    a, b = _outcome(backend, fn, fast, kwargs), _outcome(backend, fn, full, kwargs)
    what = f"{fn.__name__}{tuple(getattr(a, 'dtype', a) for a in args)} {kwargs}"
    assert a == b, f"{what}: fast path {a!r} != full implementation {b!r}"


def _covered(backend: Any, dtype: str) -> None:
    if dtype not in getattr(backend, "dtypes", DTYPES):
        pytest.skip(f"{backend.name}: {dtype} is left out (see its `dtypes`)")


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary(case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = case
    _covered(backend, dtype)
    for name in UNARY:
        _same(backend, getattr(xp, name), _values(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_binary(case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = case
    _covered(backend, dtype)
    values = _values(dtype)
    for name in BINARY:
        fn = getattr(xp, name)
        _same(backend, fn, values, np.roll(values, 5))
        for scalar in SCALARS:
            _same(backend, fn, values, scalar)
            _same(backend, fn, scalar, values)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions(case: tuple[Any, Any], name: str, dtype: str) -> None:
    backend, xp = case
    _covered(backend, dtype)
    values = _values(dtype).reshape(3, 4)
    for axis in (None, 0, 1, -1, -2, 2, (0, 1), (1,), (), False, (0, 0)):
        for keepdims in (False, True):
            _same(backend, getattr(xp, name), values, axis=axis, keepdims=keepdims)


def test_scalar_zero_sign_survives_the_cache(case: tuple[Any, Any]) -> None:
    """0.0 and -0.0 are equal as dict keys; the cached constants must keep them apart."""
    backend, xp = case
    x = backend.plain(np.array([1.0, -1.0], dtype="float32"))
    for _ in range(2):  # the second round reads the cache
        assert backend.numpy(xp.copysign(x, 0.0))[1].tolist() == [1.0, 1.0]
        assert backend.numpy(xp.copysign(x, -0.0))[1].tolist() == [-1.0, -1.0]
        assert np.signbit(backend.numpy(xp.multiply(x, -0.0))[1]).tolist() == [True, False]
        assert np.signbit(backend.numpy(xp.add(-0.0, backend.plain(
            np.array([-0.0], "float32"))))[1]).tolist() == [True]  # fmt: skip


def test_float_scalar_with_integer_array_is_not_cached_as_int(case: tuple[Any, Any]) -> None:
    """``1`` and ``1.0`` are equal as dict keys: an int array meeting 1.0 after 1 must not
    reuse the int constant."""
    backend, xp = case
    x = np.array([3, 4], dtype="int64")
    assert backend.numpy(xp.multiply(backend.plain(x), 1))[0] == "int64"
    _same(backend, xp.multiply, x, 1.0)


# -- `Array` operators: their fast cases (`BackendCore.fast_case`) against the functions --------
#: Operator -> the function it stands for (`eagerpy_xp._spec`; ``@`` has no fast case).
BINARY_OPERATORS = {d: f for d, f in {**ARITHMETIC_OPERATORS, **COMPARISON_OPERATORS}.items()
                    if d != "__matmul__"}  # fmt: skip
#: Reflected operator -> the operator the interpreter runs for it, operands swapped.
REFLECTED = {d.replace("__", "__r", 1): d for d in BINARY_OPERATORS
             if hasattr(Array, d.replace("__", "__r", 1))}  # fmt: skip


def _replaced(plan: Any, **changes: Any) -> Any:
    """A copy of an operator plan (`fastpath.BinaryPlan`) with ``changes``."""
    new = copy.copy(plan)
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def _interpreted(dunder: str) -> Callable[..., Any]:
    """``Array.<dunder>`` as the interpreter runs it (``x + y``, ``-x``; ``2 - x`` for
    ``__rsub__(x, 2)``): through the type's operator slots, with Python's dispatch (the
    other operand's reflected method after NotImplemented), beside the method called
    itself."""
    forward = REFLECTED.get(dunder)
    if forward is not None:
        op = getattr(operator, forward)
        return lambda self, other: op(other, self)
    return getattr(operator, dunder)  # type: ignore[no-any-return]


#: Operand dtype pairs that no fast case takes (the function promotes, or refuses).
MIXED = [("float32", "float64"), ("int8", "uint8"), ("int64", "int32"), ("uint8", "uint16"),
         ("int32", "float32"), ("bool", "int8"), ("complex64", "float64")]  # fmt: skip


class _NumPy:
    name = "numpy"

    def plain(self, values: np.ndarray) -> Any:
        return values.copy()

    def other(self, values: np.ndarray) -> Any:
        # NumPy's functions have no separate fast path: the function on the plain array
        return values.copy()

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        x = np.asarray(x)
        return x.dtype.name, x


@pytest.fixture(scope="module", params=["numpy", "torch", "jax", "tensorflow"])
def operators_case(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """A backend whose `Array` operators and wrapped functions are compared with its native
    functions on inputs no fast case takes (for JAX: `Array`s given to native functions)."""
    backend = {"numpy": _NumPy, "torch": _Torch, "jax": _Jax,
               "tensorflow": _TensorFlow}[request.param]()  # fmt: skip
    return backend, importlib.import_module(f"eagerpy_xp.native.{request.param}")


def _operator_outcome(backend: Any, operator: Callable[..., Any], *args: Any) -> Any:
    try:
        result = operator(*args)
    except Exception as error:
        return type(error).__name__
    if result is NotImplemented:
        return "NotImplemented"
    _dtype_stored_right(result)
    dtype, values = backend.numpy(result.raw)
    return dtype, values.shape, values.tobytes(), getattr(result.raw, "weak_type", None)


def _dtype_stored_right(result: Any) -> None:
    """The dtype an `Array` stores (``_dt``, which operators and ``.dtype`` read: a fast
    case states it without reading it, `fastpath.result_dtypes`) is its array's own."""
    if type(result) is Array:
        assert result.dtype == result.raw.dtype, (result.dtype, result.raw.dtype)
        # and its operator table is its dtype's and type's (`fastpath.table_of`)
        expected = fastpath.table_of(result._b, result._raw, result._dt)
        assert result._ops is expected, (result._ops.dtype, expected.dtype, type(result._raw))


def _same_operator(backend: Any, xp: Any, dunder: str, function: str, *args: Any) -> None:
    """``Array.<dunder>`` on `Array`s of plain arrays (and scalars) equals the backend's
    ``function`` on the full implementation's inputs (arrays given as NumPy arrays; a
    reflected dunder, ``__radd__``, takes its operands swapped)."""
    import eagerpy_xp as ep

    wrapped = [ep.astensor(backend.plain(a)) if isinstance(a, np.ndarray) else a for a in args]
    full = [backend.other(a) if isinstance(a, np.ndarray) else a for a in args]
    if dunder not in BINARY_OPERATORS and dunder not in UNARY_OPERATORS:
        full = full[::-1]  # reflected: other <op> self is function(other, self)
    a = _operator_outcome(backend, getattr(type(wrapped[0]), dunder), *wrapped)
    interpreted = _operator_outcome(backend, _interpreted(dunder), *wrapped)
    try:
        # as `Array` stores it (JAX: weakly typed results made strong)
        result = xp.__backend__.normalize(getattr(xp, function)(*full))
    except Exception as error:
        b: Any = type(error).__name__
    else:
        dtype, values = backend.numpy(result)
        b = dtype, values.shape, values.tobytes(), getattr(result, "weak_type", None)
    what = f"Array.{dunder}{tuple(getattr(v, 'dtype', v) for v in args)}"
    assert a == b, f"{what}: operator {a!r} != {function} {b!r}"
    assert interpreted == a, f"{what}: in the interpreter (C) {interpreted!r} != method {a!r}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_operators(operators_case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = operators_case
    _covered(backend, dtype)
    values = _values(dtype)
    for shape in ((12,), (3, 4)):
        x, y = values.reshape(shape), np.roll(values, 5).reshape(shape)
        for dunder, function in BINARY_OPERATORS.items():
            _same_operator(backend, xp, dunder, function, x, y)
    x, y = values[:1].reshape(()), values[-1:].reshape(())  # 0-d: NumPy makes scalars
    for dunder, function in BINARY_OPERATORS.items():
        _same_operator(backend, xp, dunder, function, x, y)
        for scalar in SCALARS:
            _same_operator(backend, xp, dunder, function, values, scalar)
            reflected = dunder.replace("__", "__r", 1)  # comparisons have none
            if hasattr(Array, reflected):
                _same_operator(backend, xp, reflected, function, values, scalar)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_operators(operators_case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = operators_case
    _covered(backend, dtype)
    values = _values(dtype)
    for x in (values, values.reshape(3, 4), values[:1].reshape(())):
        for dunder, function in UNARY_OPERATORS.items():
            _same_operator(backend, xp, dunder, function, x)


@pytest.mark.parametrize("pair", MIXED, ids="-".join)
def test_operators_on_mixed_dtypes(operators_case: tuple[Any, Any], pair: tuple[str, str]
                                   ) -> None:  # fmt: skip
    backend, xp = operators_case
    x, y = _values(pair[0]), np.roll(_values(pair[1]), 3)
    for dunder, function in BINARY_OPERATORS.items():
        _same_operator(backend, xp, dunder, function, x, y)
        _same_operator(backend, xp, dunder, function, y, x)


def test_operator_fast_cases_are_taken(operators_case: tuple[Any, Any]) -> None:
    """The cases the comparisons above rely on exist: ``x + y`` on float32 arrays, ``-x``,
    ``x < y``, and ``x * 2.5``, ``x * 2`` and ``2 - x`` beside a float32 array."""

    b = operators_case[1].__backend__
    float32 = b.dtypes_by_name["float32"]
    for function in ("add", "multiply", "less", "negative"):
        case = b.fast_case(function)
        assert case is not None, function
        assert float32 in case.dtypes, function
    _, _, _, scalar, _, first, scalars, _, _ = b.fast_case("subtract")
    assert float in scalars and int in scalars
    if b.name == "tensorflow":
        return
    operand = (lambda value, dtype: value) if scalar is None else scalar
    assert operand(2.5, float32) == 2.5 and operand(2, float32) == 2
    assert float32 in first  # 2 - x
    if b.name == "torch":  # a float beside an integer tensor: `_binary` promotes it
        for name in ("int64", "int8", "uint8", "bool"):
            assert scalar(2.5, b.dtypes_by_name[name]) is None, name
        assert scalar(2**70, float32) is None and scalar(128, b.dtypes_by_name["int8"]) is None
    assert b.operator_plans["pow"].op is not None  # x ** y and x ** 2 too


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow", "mlx"])
def test_common_operators_never_call_the_function(name: str,
                                                  monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:  # fmt: skip
    """On float32 arrays the common operators (two arrays, a Python float or int on either
    side) are their fast cases: the function behind them is never called (MLX, whose
    dtype objects are new on each read, too)."""
    import eagerpy_xp as ep

    backend = _BACKENDS[name]()
    b = importlib.import_module(f"eagerpy_xp.native.{name}").__backend__
    x = ep.astensor(backend.plain(np.linspace(-1, 1, 6, dtype=np.float32)))
    y = ep.astensor(backend.plain(np.linspace(0, 2, 6, dtype=np.float32)))
    expected = {"x + y": [-1, -0.2, 0.6, 1.4, 2.2, 3], "x < y": [True] * 6,
                "x * 2.0": [-2, -1.2, -0.4, 0.4, 1.2, 2], "x * 2": [-2, -1.2, -0.4, 0.4, 1.2, 2],
                "x > 0.5": [False] * 4 + [True] * 2, "-x": [1, 0.6, 0.2, -0.2, -0.6, -1],
                "2 - x": [3, 2.6, 2.2, 1.8, 1.4, 1]}

    def refused(*args: Any) -> Any:
        raise AssertionError("the full function was called")

    for function in ("add", "less", "multiply", "greater", "negative", "subtract"):
        plan = b.operator_plans[function]
        monkeypatch.setitem(b.operator_plans, function, _replaced(plan, function=refused))
    scope = {"x": x, "y": y}
    for expression, values in expected.items():
        result = eval(expression, scope)
        assert isinstance(result, Array), expression
        np.testing.assert_allclose(backend.numpy(result.raw)[1], values, rtol=1e-6,
                                   err_msg=expression)  # fmt: skip


def _cast(name: str, dtype: Any) -> Any:
    """``[0, 1, 2]`` as a native array of ``dtype`` (any of the framework's, bfloat16 too)."""
    if name == "numpy":
        return np.array([0, 1, 2]).astype(dtype)
    if name == "torch":
        import torch

        return torch.tensor([0, 1, 2]).to(dtype)
    if name == "jax":
        import jax.numpy as jnp

        return jnp.asarray([0, 1, 2]).astype(dtype)
    if name == "tensorflow":
        import tensorflow as tf

        return tf.cast(tf.constant([0, 1, 2]), dtype)
    import mlx.core as mx

    return mx.array([0, 1, 2]).astype(dtype)


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow", "mlx"])  # (Dask: none)
def test_fast_cases_store_their_results_dtype(name: str) -> None:
    """Every operator and lifted element-wise function with a fast case, on an array of
    each dtype of its case (two arrays, and each Python scalar kind on either side): the
    dtype its result stores (`fastpath.result_dtypes`: bools from comparisons, real
    floats from a complex ``abs``) is the result's own."""
    import eagerpy_xp as ep
    from eagerpy_xp._spec import OPERATOR_FUNCTIONS
    from eagerpy_xp.native._base import fastpath

    pytest.importorskip({"mlx": "mlx.core"}.get(name, name))
    xp = importlib.import_module(f"eagerpy_xp.{name}")
    b = xp.__backend__
    dunders = {f: d for d, f in {**BINARY_OPERATORS, **UNARY_OPERATORS}.items()}
    checked, stated = 0, 0
    for function in sorted({*OPERATOR_FUNCTIONS, *UNARY, *BINARY}):
        case = b.fast_case(function)
        if case is None:
            continue
        binary = function in BINARY or OPERATOR_FUNCTIONS.get(function) == 2
        assert isinstance(case, fastpath.BinaryCase if binary else fastpath.UnaryCase)
        stated += fastpath.result_dtypes(function, case, b.dtypes_by_name) is not None
        dtypes = {*case.dtypes, *(case.first if binary else ())}
        # (a callable, its arguments: "x" stands for the array)
        calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        lifted = getattr(xp, function)
        dunder = dunders.get(function)
        if binary:
            calls += [(lifted, args) for args in (("x", "x"), ("x", 2.0), ("x", 2), ("x", True),
                                                  (2.0, "x"), (2, "x"))]  # fmt: skip
            if dunder is not None:  # the Python method, and the interpreter's (C) form
                for form in (getattr(Array, dunder), _interpreted(dunder)):
                    calls += [(form, args) for args in (("x", "x"), ("x", 2.0), ("x", 2))]
                reflected = dunder.replace("__", "__r", 1)
                if reflected in REFLECTED:
                    for form in (getattr(Array, reflected), _interpreted(reflected)):
                        calls += [(form, ("x", 2.0)), (form, ("x", 2))]
        else:
            calls.append((lifted, ("x",)))
            if dunder is not None:
                calls += [(getattr(Array, dunder), ("x",)), (_interpreted(dunder), ("x",))]
        for dtype in dtypes:
            if name == "jax" and np.dtype(dtype).name not in _Jax.dtypes:
                continue  # each dtype compiles every call anew: one of each kind (_Jax)
            x = ep.astensor(_cast(name, dtype))
            for call, args in calls:
                try:
                    result = call(*(x if a == "x" else a for a in args))
                except Exception:  # (the full path's refusal: not a stored dtype)
                    continue
                if type(result) is Array:
                    assert result.dtype == result.raw.dtype, (function, dtype, result)
                    checked += 1
    assert checked > 100 and stated > 0, (checked, stated)


def test_scalar_lanes_are_what_the_hook_passes_on(operators_case: tuple[Any, Any]) -> None:
    """A fast case's lanes (`fastpath.FastCase`: a float, or an int within
    `fastpath.LANE_INTS`, beside an array of the lane's dtypes goes on without its
    ``scalar`` hook) only hold where the hook hands the scalar on: never where it returns
    None, which sends the call to the full path (its checks, its promotion).  That the
    results agree bit for bit is `test_binary_operators`' (its scalars: the lane's edges);
    torch and JAX state lanes for the common operators."""
    from eagerpy_xp.native._base import fastpath

    b = operators_case[1].__backend__
    floats_ = [0.0, -0.0, 0.5, -2.5, 1e-40, 1e300, math.inf, -math.inf, math.nan]
    ints = [0, 1, -1, 2, 2**24 + 1, LANE_MIN, LANE_MAX]
    laned = []
    for function in OPERATOR_CATEGORIES:
        case = b.fast_case(function)
        if not isinstance(case, fastpath.BinaryCase):
            continue
        _, dtypes, _, scalar, _, first, _, float_lane, int_lane = case
        if scalar is None:
            continue  # every scalar goes on as it is (NumPy)
        for lane, values in ((float_lane, floats_), (int_lane, ints)):
            for dtype in lane:
                if dtype in dtypes or dtype in first:
                    laned.append(function)
                    for value in values:
                        assert scalar(value, dtype) is not None, (function, dtype, value)
    if b.name in ("torch", "jax"):
        assert {"add", "subtract", "multiply", "less", "greater"} <= set(laned)


#: The standard's dtype category of each function behind an operator (its signatures).
OPERATOR_CATEGORIES = {
    "add": "numeric", "subtract": "numeric", "multiply": "numeric", "pow": "numeric",
    "divide": "floating-point", "floor_divide": "real numeric", "remainder": "real numeric",
    "less": "real numeric", "less_equal": "real numeric", "greater": "real numeric",
    "greater_equal": "real numeric", "bitwise_and": "integer or boolean",
    "bitwise_or": "integer or boolean", "bitwise_xor": "integer or boolean",
    "bitwise_invert": "integer or boolean", "bitwise_left_shift": "integer",
    "bitwise_right_shift": "integer", "negative": "numeric", "positive": "numeric",
    "abs": "numeric",
}  # fmt: skip
#: The reductions with fast paths, and their categories.
REDUCTIONS = {"sum": "numeric", "prod": "numeric", "mean": "floating-point",
              "max": "real numeric", "min": "real numeric"}  # fmt: skip
CATEGORY_DTYPES = {
    "numeric": _dtypes.NUMERIC, "real numeric": _dtypes.INTEGRAL + _dtypes.REAL_FLOATING,
    "floating-point": _dtypes.REAL_FLOATING + _dtypes.COMPLEX_FLOATING,
    "integer": _dtypes.INTEGRAL, "integer or boolean": _dtypes.BOOL + _dtypes.INTEGRAL,
}  # fmt: skip


def test_fast_cases_keep_to_the_categories(operators_case: tuple[Any, Any]) -> None:
    """A fast case (of an operator's function, or a reduction's) takes only standard dtypes
    that its function accepts (its category), so it never passes by the full
    implementation's dtype check."""
    backend, xp = operators_case
    b = xp.__backend__
    category_of = getattr(_dtypes, "CATEGORY_OF", None)
    cases = {f: b.fast_case(f) for f in {**BINARY_OPERATORS, **UNARY_OPERATORS}.values()}
    cases |= {f: getattr(getattr(type(b), f), "fast_reduction", None) for f in REDUCTIONS}
    if category_of is None:  # this branch: the cases it sets itself
        if backend.name != "numpy":
            cases = {"mean": cases["mean"]}
        category_of = OPERATOR_CATEGORIES | REDUCTIONS
    standard = {b.dtypes_by_name[n]: n for n in _dtypes.ALL}
    for function, case in cases.items():
        category = category_of.get(function)  # none: any dtype
        if case is None or category is None:
            continue
        taken = {standard[d] for d in case.dtypes if d in standard}
        assert taken <= set(CATEGORY_DTYPES[category]), (function, taken)


# -- reductions: `fastpath.reduction` and the wrapped flavour's lift of it ----------------------
AXES = (None, 0, 1, -1, -2, 2, -3, (0, 1), (1,), (), False, True, (0, 0), 1.0)


def _stored(xp: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its result as `Array` stores it (`BackendCore.normalize`: JAX's weakly
    typed results made strong)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return xp.__backend__.normalize(fn(*args, **kwargs))

    return call


def _native_outcome(backend: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        result = fn(*args, **kwargs)
    except Exception as error:
        return type(error).__name__
    if hasattr(result, "raw"):
        _dtype_stored_right(result)
        result = result.raw
    dtype, values = backend.numpy(result)
    return dtype, values.shape, values.tobytes(), getattr(result, "weak_type", None)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_reduction_fast_paths_and_lifts(operators_case: tuple[Any, Any], name: str, dtype: str
                                        ) -> None:  # fmt: skip
    """A reduction's fast path (`fastpath.reduction`) gives what its full implementation
    (``__wrapped__``) gives, and the wrapped flavour (whose lift tests the fast case
    itself) what the native function gives."""
    import eagerpy_xp as ep

    backend, xp = operators_case
    _covered(backend, dtype)
    b = xp.__backend__
    wrapped_xp = importlib.import_module(f"eagerpy_xp.{backend.name}")
    native = getattr(xp, name)
    fast = getattr(native, "fast_reduction", None) is not None
    full = getattr(type(b), name).__wrapped__ if fast else None
    options: list[dict[str, Any]] = [{}]
    if name in ("sum", "prod"):
        options.append({"dtype": b.dtypes_by_name["float64"]})
    values = _values(dtype)
    for x in (values.reshape(3, 4), values[:1].reshape(())):
        for axis in AXES:
            for keepdims in (False, True, 1):
                for extra in options:
                    kwargs = {"axis": axis, "keepdims": keepdims, **extra}
                    what = f"{name}({dtype}{list(x.shape)}, {kwargs})"
                    expected = _native_outcome(backend, native, backend.plain(x), **kwargs)
                    if full is not None:
                        got = _native_outcome(backend, full, b, backend.plain(x), **kwargs)
                        assert got == expected, f"{what}: full {got!r} != fast {expected!r}"
                    got = _native_outcome(backend, getattr(wrapped_xp, name),
                                          ep.astensor(backend.plain(x)), **kwargs)
                    stored = _native_outcome(backend, _stored(xp, native), backend.plain(x),
                                             **kwargs)  # fmt: skip
                    assert got == stored, f"{what}: wrapped {got!r} != native {stored!r}"


def test_reduction_fast_paths_are_taken() -> None:
    """The cases the comparisons above rely on: torch's sum/prod/mean and NumPy's mean have
    fast paths, and the wrapped flavour lifts them with their case."""
    import eagerpy_xp.numpy as wnp
    import eagerpy_xp.torch as wtorch

    for module, names in ((wtorch, ("sum", "prod", "mean")), (wnp, ("mean",))):
        for name in names:
            function = getattr(module, name)
            assert function.__wrapped_native__.fast_reduction is not None, name
            # (made by `_wrap._lifted_reduction`, not the generic lift)
            assert function.__code__.co_filename == f"<eagerpy_xp lifted reduction {name}>"


# -- the wrapped flavour's element-wise functions: their lift tests the fast case too --------
def _same_lifted(backend: Any, xp: Any, name: str, *args: Any) -> None:
    """``eagerpy_xp.<backend>.<name>`` on `Array`s of plain arrays (and scalars) equals the
    native function on the full implementation's inputs."""
    import eagerpy_xp as ep

    wrapped_xp = importlib.import_module(f"eagerpy_xp.{backend.name}")
    wrapped = [ep.astensor(backend.plain(a)) if isinstance(a, np.ndarray) else a for a in args]
    full = [backend.other(a) if isinstance(a, np.ndarray) else a for a in args]
    a = _native_outcome(backend, getattr(wrapped_xp, name), *wrapped)
    b = _native_outcome(backend, _stored(xp, getattr(xp, name)), *full)
    what = f"{name}{tuple(getattr(v, 'dtype', v) for v in args)}"
    assert a == b, f"{what}: wrapped {a!r} != native {b!r}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_lifted_elementwise_functions(operators_case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = operators_case
    _covered(backend, dtype)
    values = _values(dtype)
    for name in UNARY:
        _same_lifted(backend, xp, name, values)
        _same_lifted(backend, xp, name, values[:1].reshape(()))
    for name in BINARY:
        _same_lifted(backend, xp, name, values, np.roll(values, 5))
        _same_lifted(backend, xp, name, values[:1].reshape(()), values[-1:].reshape(()))
        for scalar in SCALARS:
            _same_lifted(backend, xp, name, values, scalar)
            _same_lifted(backend, xp, name, scalar, values)


@pytest.mark.parametrize("pair", MIXED, ids="-".join)
def test_lifted_functions_on_mixed_dtypes(operators_case: tuple[Any, Any],
                                          pair: tuple[str, str]) -> None:  # fmt: skip
    backend, xp = operators_case
    x, y = _values(pair[0]), np.roll(_values(pair[1]), 3)
    for name in BINARY:
        _same_lifted(backend, xp, name, x, y)
        _same_lifted(backend, xp, name, y, x)


def test_lifted_functions_take_the_fast_case() -> None:
    """The lifts the comparisons above rely on: an element-wise function with a fast case
    is lifted with it; a linalg function of the same name is not."""
    import eagerpy_xp.numpy as wnp
    import eagerpy_xp.torch as wtorch

    assert wtorch.add.__code__ is wtorch.multiply.__code__ is wnp.add.__code__
    assert wtorch.negative.__code__ is wtorch.exp.__code__ is wnp.negative.__code__
    assert wnp.exp.__code__ is wnp.negative.__code__  # (every function on NumPy's lane)
    assert wnp.round.__code__ is not wnp.negative.__code__  # NumPy's round has no fast case
    assert wnp.linalg.matmul.__code__ is not wnp.add.__code__


def test_a_lift_that_misses_its_fast_case_calls_the_full_path() -> None:
    """A lifted element-wise function tests its fast case itself; on a miss (a dtype the
    case does not take) it calls the function's full implementation (`fastpath.describe`'s
    ``full_path``, with the operand checks) directly, not the function again, whose fast
    path would test the same operand a second time.  A function without a fast path, or
    one that is only `translated` (whose ``__wrapped__`` is the unchecked body), is called
    as it is."""
    import torch

    import eagerpy_xp as ep
    from eagerpy_xp._wrap import _behind_fast_path

    b = importlib.import_module("eagerpy_xp.native.torch").__backend__
    full = _behind_fast_path(b.exp, b)
    assert full.__func__ is type(b).exp.full_path and full.__self__ is b
    assert _behind_fast_path(b.matmul, b) == b.matmul  # no fast path
    assert _behind_fast_path(b.clip, b) == b.clip  # translated: its __wrapped__ is unchecked
    assert hasattr(type(b).clip, "__wrapped__")
    # the miss gives the function's result and its errors
    z = torch.tensor([0.0 + 1.0j, -0.0 - 0.0j], dtype=torch.complex64)
    got = ep.torch.exp(ep.astensor(z)).raw
    assert torch.equal(got, b.exp(z)) and got.dtype == torch.complex64
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.torch\.exp: .*int32"):
        ep.torch.exp(ep.astensor(torch.ones(2, dtype=torch.int32)))
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.torch\.add: .*NoneType"):
        ep.torch.add(ep.astensor(torch.ones(2)), None)


def test_operators_on_arrays_of_a_tensor_subclass() -> None:
    """An `Array` may hold a torch.Tensor subclass (it keeps what it is given): no fast
    case takes it, and the operator gives what the function gives."""
    torch_case = _Torch()
    xp = importlib.import_module("eagerpy_xp.native.torch")
    import eagerpy_xp as ep

    values = _values("float32")
    plain, sub = torch_case.plain(values), torch_case.other(np.roll(values, 5))
    for dunder, function in BINARY_OPERATORS.items():
        for x, y in ((plain, sub), (sub, plain), (sub, sub)):
            want = _native_outcome(torch_case, getattr(xp, function), x, y)
            for form in (getattr(Array, dunder), _interpreted(dunder)):
                got = _operator_outcome(torch_case, form, ep.astensor(x), ep.astensor(y))
                assert got == want, dunder


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_reflected_operators_keep_to_their_first_dtypes(name: str,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:  # fmt: skip
    """A Python scalar before an array (``2 ** x``) takes the fast case only for the
    dtypes its case allows a scalar first (``first_dtypes``; none for ``pow`` on NumPy,
    for torch's half floats none at all): otherwise the full function runs, even where
    the fast case takes the scalar after the array."""
    import eagerpy_xp as ep

    backend = _BACKENDS[name]()
    b = importlib.import_module(f"eagerpy_xp.native.{name}").__backend__
    x = ep.astensor(backend.plain(np.linspace(0.5, 2, 4, dtype=np.float32)))
    plan = b.operator_plans["pow"]
    assert x.dtype in plan.dtypes and x.dtype not in plan.first  # the case this test is about

    calls: list[tuple[Any, ...]] = []

    def counted(*args: Any) -> Any:  # the fast case's op, counting its calls
        calls.append(args)
        return plan.scalar_op(*args)

    monkeypatch.setitem(b.operator_plans, "pow", _replaced(plan, scalar_op=counted))
    np.testing.assert_allclose(backend.numpy((2 ** x).raw)[1], 2 ** np.linspace(0.5, 2, 4),
                               rtol=1e-6)  # fmt: skip
    assert calls == []
    np.testing.assert_allclose(backend.numpy((x ** 2.0).raw)[1], np.linspace(0.5, 2, 4) ** 2,
                               rtol=1e-6)  # fmt: skip
    assert len(calls) == 1  # (the scalar after the array: the fast case)


class _Sub(Array):
    """A subclass of `Array` (no fast case takes it: ``type(other) is Array`` fails)."""

    __slots__ = ()


def _odd_operands() -> list[tuple[str, Any]]:
    """Operands beside a NumPy float32 `Array` that no fast case takes, or takes only in
    part: other kinds, other backends, 0-d arrays (NumPy's scalars: `normalize`), ints
    outside the int32 lane, a subclass."""
    import eagerpy_xp as ep

    torch = pytest.importorskip("torch")
    operands: list[tuple[str, Any]] = [
        ("str", "a"), ("None", None), ("list", [1.0, 2.0, 3.0]), ("dict", {}),
        ("np.float64", np.float64(1.5)), ("np.int8", np.int8(3)), ("ndarray", np.ones(3)),
        ("torch.Tensor", torch.ones(3)), ("torch Array", ep.astensor(torch.ones(3))),
        ("0-d", ep.astensor(np.float32(2.0))), ("int8 Array", ep.astensor(np.ones(3, np.int8))),
        ("(4,) Array", ep.astensor(np.ones(4, np.float32))), ("2**40", 2**40),
        ("-2**63", -(2**63)), ("2**70", 2**70), ("True", True), ("1-2j", 1 - 2j),
        ("nan", math.nan), ("subclass", _Sub(np.ones(3, np.float32))),
    ]  # fmt: skip
    return operands


def _outcomes(interpreted: bool) -> dict[str, Any]:
    """Every operator on a float32 `Array` (and on its 0-d and subclass forms) beside each
    odd operand, both sides, run by the interpreter (``x + y``, ``y + x``), or as the
    forward method of the array (``Array.__add__(x, y)``, what the interpreter calls
    first for ``x + y``)."""
    import eagerpy_xp as ep

    arrays = [("x", ep.astensor(np.array([1.0, -0.0, 2.5], np.float32))),
              ("x0", ep.astensor(np.float32(-1.5))),
              ("sub", _Sub(np.array([3.0, 0.5, -1.0], np.float32)))]  # fmt: skip
    outcomes: dict[str, Any] = {}
    for (name, x), (what, other) in itertools.product(arrays, _odd_operands()):
        for dunder in (*BINARY_OPERATORS, *REFLECTED):
            for side, args in (("", (x, other)), ("swapped ", (other, x))):
                key = f"{side}{name}.{dunder}({what})"
                if not interpreted and (args[0] is not x or dunder in REFLECTED):
                    continue  # (the interpreter runs the forward method of `x` first)
                try:
                    result = (_interpreted(dunder) if interpreted
                              else getattr(Array, dunder))(*args)  # fmt: skip
                except Exception as error:
                    outcomes[key] = (type(error).__name__, str(error))
                    continue
                if isinstance(result, Array):
                    outcomes[key] = (type(result).__name__, result.backend, str(result.dtype),
                                     np.asarray(result.raw).tobytes())  # fmt: skip
                else:
                    outcomes[key] = (type(result).__name__, repr(result))
        for dunder in UNARY_OPERATORS:
            try:
                result = (_interpreted(dunder) if interpreted else getattr(Array, dunder))(x)
            except TypeError as error:  # (``~`` of a float array)
                outcomes[f"{name}.{dunder}"] = str(error)
            else:
                outcomes[f"{name}.{dunder}"] = (type(result).__name__, str(result.dtype),
                                                np.asarray(result.raw).tobytes())  # fmt: skip
        try:
            pow(x, 2, 3)  # type: ignore[call-overload]
        except TypeError as error:
            outcomes[f"pow({name}, 2, 3)"] = str(error)
    return outcomes


def test_operators_on_odd_operands_agree_with_the_interpreter() -> None:
    """Every operator beside operands no fast case takes (strings, None, lists, NumPy
    scalars, other frameworks' arrays and Arrays, other dtypes and shapes, huge ints, a
    subclass of `Array`) gives the same result, or the same error with the same message,
    run by the interpreter and called as the method; the contract's errors among them."""
    interpreted, methods = _outcomes(interpreted=True), _outcomes(interpreted=False)
    differ = [k for k in methods if methods[k] != interpreted[k] and methods[k][0] != "NotImplementedType"]
    assert not differ, [(k, interpreted[k], methods[k]) for k in differ[:5]]
    assert interpreted["x.__add__(torch Array)"][0] == "TypeError"
    assert "cannot mix a numpy" in interpreted["x.__add__(torch Array)"][1]
    assert "cannot mix a numpy Array with a torch" in interpreted["x.__add__(torch.Tensor)"][1]
    assert interpreted["x.__mul__(int8 Array)"][:3] == ("Array", "numpy", "float32")  # (promoted)
    assert interpreted["x.__eq__(None)"] == ("bool", "False")
    assert interpreted["x.__add__(str)"][0] == "TypeError"
    assert interpreted["x.__add__((4,) Array)"][0] == "ValueError"
    assert "__add__" in interpreted["x.__add__((4,) Array)"][1]


# -- basic indexing: `Array.__getitem__`'s fast case (`BackendCore.index_case`) ------------------
def _index_values(shape: tuple[int, ...]) -> np.ndarray:
    """Distinct float32 values (signed zeros and a NaN among them) of ``shape``."""
    values = np.arange(math.prod(shape), dtype=np.float32) - 2
    values[values == 0] = -0.0
    if values.size > 3:
        values[3] = np.nan
    return values.reshape(shape)


def _slice_items(n: int) -> list[slice]:
    bounds = [None, 0, 1, -1, 2, -2, n, n + 3, -n - 3]
    steps = [None, 1, 2, 3, -1, -2, -3, 0]
    return [slice(a, b, c) for a in bounds for b in bounds for c in steps]


def _basic_keys(shape: tuple[int, ...], count: int) -> list[Any]:
    """Keys for an array of ``shape``: every int (negative and out of range) and every
    slice (every sign of start, stop and step, None and out-of-range bounds, step 0) of
    the first axis alone, None, the ellipsis and (); then ``count`` tuples drawn from
    those items and the other axes' (one or two ellipses, too many indices), and a few
    keys no fast case takes (bools, NumPy ints, arrays)."""
    rng = np.random.default_rng(len(shape) * 100 + sum(shape))
    n = shape[0] if shape else 3
    ints = [0, 1, -1, n - 1, n, -n, -n - 1, 7, -7]
    keys: list[Any] = [*ints, *_slice_items(n), None, Ellipsis, (), (Ellipsis, Ellipsis)]
    pool: list[Any] = [*ints, *_slice_items(max(shape, default=3)), None, Ellipsis,
                       slice(None), slice(None, None, -1)]  # fmt: skip
    for _ in range(count):
        size = int(rng.integers(1, len(shape) + 3))
        keys.append(tuple(pool[int(i)] for i in rng.integers(0, len(pool), size)))
    keys += [True, (0, False), np.int64(1), (slice(None), np.int64(0)), slice(np.int64(1), 3),
             slice(1.5, 3), "a", (0.5,)]  # fmt: skip
    return keys


def _indexed(backend: Any, index: Callable[[Any], Any], key: Any) -> Any:
    try:
        result = index(key)
    except Exception as error:  # type and message: the error contract's, either way
        assert str(error).startswith("eagerpy_xp."), (key, error)  # (torch's 0-d x[::-1] did not)
        return type(error).__name__, str(error)
    _dtype_stored_right(result)
    raw = result.raw
    dtype, values = backend.numpy(raw)
    return dtype, values.shape, values.tobytes(), getattr(raw, "weak_type", None), type(raw)


#: Name -> the test class of each backend with an `Array` basic-index fast case.
_BACKENDS: dict[str, Any] = {"numpy": _NumPy, "torch": _Torch, "jax": _Jax,
                             "tensorflow": _TensorFlow, "mlx": _Mlx}  # fmt: skip


@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 0, 3), (0,), ()], ids=str)
@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow", "mlx"])
def test_basic_indexing_equals_the_full_path(name: str, shape: tuple[int, ...]) -> None:
    """``x[key]`` of an `Array` (its fast case for basic keys) gives, bit for bit and with
    the same type, what the backend's full `getitem` gives, wrapped as `Array` wraps it,
    for every generated key; and raises the same error, message included."""
    import eagerpy_xp as ep

    backend = _BACKENDS[name]()
    b = importlib.import_module(f"eagerpy_xp.native.{name}").__backend__
    raw = backend.plain(_index_values(shape))
    x = ep.astensor(raw)
    full = ep.astensor(b.getitem(x.raw, ()))  # the stored array, as the full path sees it
    assert b.index_plan.array_type is type(x.raw)

    def by_getitem(key: Any) -> Any:
        return ep.astensor(b.getitem(full.raw, key))

    for key in _basic_keys(shape, 150 if name == "jax" else 400):
        fast, slow = _indexed(backend, x.__getitem__, key), _indexed(backend, by_getitem, key)
        assert fast == slow, f"{name}{shape}[{key!r}]: fast {fast!r} != full {slow!r}"


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow", "mlx"])
def test_basic_keys_take_the_fast_case(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys the comparison above relies on: basic keys of a plain array never reach
    `getitem` (the full path), negative steps included (torch flips them in its
    `reverse` case, but for the unsigned dtypes it flips on their bits); a bool key, an
    array key, an int out of range (JAX clamps) reach it on every backend."""
    import eagerpy_xp as ep

    backend = _BACKENDS[name]()
    b = importlib.import_module(f"eagerpy_xp.native.{name}").__backend__
    x = ep.astensor(backend.plain(_index_values((4, 3))))
    calls: list[Any] = []
    full = type(b).getitem

    def counting(self: Any, raw: Any, key: Any) -> Any:
        calls.append(key)
        return full(self, raw, key)

    monkeypatch.setattr(type(b), "getitem", counting)
    for key in (1, -1, slice(1, 3), (Ellipsis, 0), (slice(None), None), (None, 2, 1), (),
                Ellipsis, None, (1, slice(0, 3, 2))):  # fmt: skip
        x[key]
    assert calls == []
    x[::-1], x[:, ::-2], x[None, 1:-4:-1, ..., -1]
    assert calls == []
    if name == "torch":
        ep.astensor(backend.plain(np.arange(3, dtype=np.uint16)))[::-1]
        assert calls == [slice(None, None, -1)]
    calls.clear()
    x[True], x[x[:, 0] > 0]
    for key in ((0, 0, 0), 4, (Ellipsis, Ellipsis)):
        with pytest.raises(IndexError):
            x[key]
    assert len(calls) == 5


def test_jax_checked_unary_ops_refuse_exactly_the_dtypes_outside_their_case() -> None:
    """JAX's unary fast cases test the dtype inside the jitted op (``checked``: once per
    dtype, when it traces): the op returns None for every dtype outside the case's and a
    result of the dtype's kind for every one inside it, on each dtype JAX has now; and
    the native function and the operator then give the full path's result or error."""
    pytest.importorskip("jax")
    import jax.numpy as jnp

    import eagerpy_xp as ep
    from eagerpy_xp.native._base.elementwise import UNARY as unary_names

    xp = importlib.import_module("eagerpy_xp.native.jax")
    b = xp.__backend__
    names = [n for n in unary_names if (getattr(type(b), n, None) is not None and
                                        getattr(getattr(type(b), n), "fast_case", None))]  # fmt: skip
    checked = [n for n in names if getattr(type(b), n).fast_case.checked]
    # every unary fast case is its function's whole category, checked: the plain ones
    # (`_unary`), and those that patch some of JAX's values (`_whole`: exp, sin, sqrt and
    # the other complex-patched ones, tan, sign, abs), so that no call reads ``x.dtype``
    # and no dtype of the category is refused (each shape of a refused dtype would cost a
    # trace and a compile)
    assert len(names) == len(unary_names) and checked == names
    for name in names:
        category = _dtypes.CATEGORY_OF.get(name)
        whole = _dtypes.CATEGORIES[category] if category else _dtypes.ALL
        assert getattr(type(b), name).fast_case.dtypes == frozenset(np.dtype(d) for d in whole), name
    arrays = [jnp.asarray(np.array([1, 0], dtype=d)) for d in DTYPES]
    arrays += [jnp.ones(2, dtype=jnp.bfloat16), jnp.ones(2, dtype=jnp.float16)]
    for name in checked:
        _, dtypes, op, _ = getattr(type(b), name).fast_case
        for x in arrays:
            result = op(x)
            assert (result is None) == (x.dtype not in dtypes), (name, x.dtype)
    z = jnp.asarray(np.array([complex(-0.0, 0.0), 1j], dtype=np.complex64))
    # the full path takes the rest: complex negative, bool negative refused
    assert np.signbit(np.asarray(ep.astensor(z).__neg__().raw).real).tolist() == [False, True]
    with pytest.raises(TypeError, match="numeric"):
        xp.negative(jnp.asarray([True]))
    with pytest.raises(TypeError, match="numeric"):
        -ep.astensor(jnp.asarray([True]))


def test_jax_results_are_strongly_typed() -> None:
    """JAX's fast paths store their results without `normalize`: they are never weakly
    typed (a weakly typed array promotes like a Python scalar); results of the full
    path, and of native weakly typed arrays given to the wrapped flavour, are made
    strong."""
    jnp = pytest.importorskip("jax.numpy")
    import eagerpy_xp as ep
    import eagerpy_xp.jax as wjax

    x = ep.astensor(jnp.asarray([1.0, -2.0, 3.0], dtype=jnp.float32))
    weak = jnp.asarray(2.0)
    assert weak.weak_type
    results = [x * 2.0, 2 - x, x ** 2, -x, x > 0.5, x + x, x[1:], x[0], x[..., None],
               x[::-1], wjax.exp(x), wjax.sum(x), wjax.mean(x, axis=0), wjax.add(1.5, x),
               wjax.multiply(x, True), x * weak, wjax.sin(weak), wjax.add(weak, weak),
               ep.astensor(weak), wjax.asarray(weak), x[weak.astype(int)]]  # fmt: skip
    for r in results:
        assert type(r) is ep.Array and not r.raw.weak_type, r
    strong = wjax.sin(weak)  # a 0-d array of the default float dtype, promoting as arrays do
    assert (x + strong).dtype == jnp.promote_types(x.dtype, strong.dtype)
    assert (x * 2.0).dtype == jnp.float32


def test_jax_fast_paths_follow_the_x64_mode() -> None:
    """The jitted ops read JAX's x64 mode at every call (it is part of `jax.jit`'s cache
    key): the same operation gives 64-bit results inside ``enable_x64`` and 32-bit ones
    outside, in both flavours."""
    jax = pytest.importorskip("jax")
    import eagerpy_xp as ep
    import eagerpy_xp.native.jax as njax

    with jax.enable_x64(True):
        x64 = jax.numpy.asarray(np.arange(4, dtype=np.int64))
        wide = ep.astensor(x64)
        assert (wide + 2**40).dtype == np.int64 and (wide * 3)[1:].dtype == np.int64
        assert int((wide * 3)[3]) == 9 and njax.add(x64, 1).dtype == np.int64
    with jax.enable_x64(False):
        x32 = ep.astensor(jax.numpy.asarray(np.arange(4, dtype=np.int32)))
        assert (x32 * 3).dtype == np.int32 and (x32 * 1.5).dtype == np.float32


def test_fast_paths_trace_under_torch_compile() -> None:
    """The fast cases traced by Dynamo (fullgraph): basic indexing, Python scalars of every
    kind on either side, ``**`` and comparisons give the eager result, in one graph, and a
    second call with other values neither recompiles nor falls back."""
    torch = pytest.importorskip("torch")
    import eagerpy_xp as ep

    def f(x: Any, mask: Any) -> Any:
        y = x[1:5] * 2 + 2.0 - x[0] - x[..., -1]
        z = (2 - y) ** 2 + x[:, None][0:4, 0] * 3
        w = (mask & True) | (mask == False) | (y[:3] > 0.5)  # noqa: E712 (the operator)
        return z / 2.5 + x[::-1][:4], w, x[None, 2:6:2], 3 * z - 1.5

    x = ep.astensor(torch.linspace(-2.0, 2.0, 8, dtype=torch.float64))
    mask = ep.astensor(torch.tensor([True, False, True]))
    compiled = torch.compile(f, fullgraph=True, backend="eager")
    first = compiled(x, mask)
    with torch._dynamo.config.patch(error_on_recompile=True):
        other = ep.astensor(torch.linspace(-1.0, 3.0, 8, dtype=torch.float64))
        again = compiled(other, mask)
    for got, want in ((first, f(x, mask)), (again, f(other, mask))):
        for g, w in zip(got, want):
            assert type(g) is ep.Array and g.dtype == w.dtype
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_torch_half_floats_beside_python_scalars(dtype: str) -> None:
    """torch's half floats are no dtype of the standard: a Python float after one is
    torch's own computation (as before these fast cases), while `_binary` refuses a
    Python int or bool beside one, a scalar before one and a scalar exponent (it checks
    the dtype of the 0-d tensor it makes): the operators keep exactly that (and torch
    computes a Python scalar beside a half float in float32, so a fast case with the
    scalar first would not even round like a 0-d tensor of it)."""
    torch = pytest.importorskip("torch")
    import eagerpy_xp as ep

    values = torch.tensor([0.1, -2.5, 3.3, -0.0], dtype=getattr(torch, dtype))
    x = ep.astensor(values)
    torch_ops = {"__add__": torch.add, "__sub__": torch.sub, "__mul__": torch.mul,
                 "__gt__": torch.gt}  # fmt: skip
    for dunder, op in torch_ops.items():
        for form in (getattr(Array, dunder), _interpreted(dunder)):  # (method, interpreter)
            for scalar in (0.1, 2.5, 1e-5, -0.0):
                got = form(x, scalar).raw
                want = op(values, scalar)
                assert got.dtype == want.dtype and torch.equal(got, want), (dunder, scalar)
            for scalar in (3, True):
                with pytest.raises(TypeError, match="not a dtype of the standard"):
                    form(x, scalar)
    for dunder in ("__radd__", "__rsub__", "__rmul__", "__pow__"):
        for form in (getattr(Array, dunder), _interpreted(dunder)):
            for scalar in (0.1, 3):
                with pytest.raises(TypeError, match="not a dtype of the standard"):
                    form(x, scalar)


@pytest.mark.parametrize("name", ["torch", "jax"])
def test_fast_paths_raise_the_full_paths_errors(name: str) -> None:
    """Operands the fast cases take but the framework refuses (shapes that do not
    broadcast): each native function's fast path raises what its full implementation
    raises, type and message."""
    backend = {"torch": _Torch, "jax": _Jax}[name]()
    xp = importlib.import_module(f"eagerpy_xp.native.{name}")
    b = xp.__backend__
    x = backend.plain(np.ones(3, dtype=np.float32))
    y = backend.plain(np.ones(4, dtype=np.float32))
    for function in ("add", "multiply", "pow", "less", "atan2"):
        errors = []
        for call in (getattr(xp, function), getattr(type(b), function).__wrapped__.__get__(b)):
            with pytest.raises(Exception) as info:
                call(x, y)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1] and errors[0][0] is ValueError, (function, errors)


# -- a Python scalar exponent: the shortcuts frameworks take for some exponents -----------------
#: ``(exponent, [(base, x ** exponent)])``: each exponent that a framework's ``**`` or
#: ``pow`` computes by a shortcut for a Python number (``sqrt``, ``rsqrt``, ``x * x``,
#: ``1 / x``, ``1 / (x * x)``, ``x * x * x``, ones, a copy) at the bases where the standard's
#: special cases tell the shortcut from ``pow``.
SCALAR_EXPONENTS: list[tuple[Any, list[tuple[float, float]]]] = [
    (0.5, [(-0.0, 0.0), (0.0, 0.0), (-math.inf, math.inf), (4.0, 2.0), (math.nan, math.nan)]),
    (-0.5, [(-0.0, math.inf), (0.0, math.inf), (-math.inf, 0.0), (4.0, 0.5)]),
    (-2, [(-0.0, math.inf), (-math.inf, 0.0), (2.0, 0.25)]),
    (-2.0, [(-0.0, math.inf), (-math.inf, 0.0), (0.5, 4.0)]),
    (-1, [(-0.0, -math.inf), (0.0, math.inf), (-math.inf, -0.0), (4.0, 0.25)]),
    (3, [(-0.0, -0.0), (-math.inf, -math.inf), (2.0, 8.0), (-3.0, -27.0)]),
    (2, [(-0.0, 0.0), (-math.inf, math.inf), (3.0, 9.0), (math.nan, math.nan)]),
    (0, [(math.nan, 1.0), (-0.0, 1.0), (math.inf, 1.0)]),
    (1, [(-0.0, -0.0), (-math.inf, -math.inf), (math.nan, math.nan)]),
    (math.nan, [(1.0, 1.0), (2.0, math.nan)]),
    (math.inf, [(-1.0, 1.0), (0.5, 0.0), (2.0, math.inf)]),
    (-math.inf, [(0.5, math.inf), (-0.0, math.inf)]),
]

xp_all = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_python_scalar_exponents_keep_the_special_cases(xp_all: ModuleType, dtype: str) -> None:
    """``x ** s`` (the wrapped flavour's operator, its fast case) and ``pow(x, s)`` for a
    Python int or float ``s`` give the standard's special cases and signed zeros for
    every exponent a framework takes a shortcut for, on every backend and flavour."""
    xp = xp_all
    dt = getattr(xp, dtype)
    for exponent, rows in SCALAR_EXPONENTS:
        bases = xp.asarray([b for b, _ in rows], dtype=dt)
        expected = np.array([e for _, e in rows], dtype=dtype)
        forms = {"pow": xp.pow(bases, exponent)}
        if isinstance(bases, Array):
            forms["**"] = bases ** exponent
        for form, result in forms.items():
            got = _numpy_of(result)
            what = f"{xp.__name__} {form}({[b for b, _ in rows]}, {exponent!r}) = {got.tolist()}"
            assert got.dtype == np.dtype(dtype), what
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=0, err_msg=what)
            assert (np.signbit(got) == np.signbit(expected)).all(), what


def _numpy_of(result: Any) -> np.ndarray:
    raw = result.raw if isinstance(result, Array) else result
    if hasattr(raw, "compute"):
        raw = raw.compute()
    return np.asarray(raw)


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_pow_by_a_python_number_equals_the_full_path(dtype: str) -> None:
    """NumPy's ``pow`` takes an array to a Python int or float first, outside its checks
    (`_numpy._by_number`): bit for bit what the full implementation gives (``**``'s
    ``square``/``reciprocal`` shortcuts, the 0.5 fix, ints beyond the dtype, negative
    int exponents of int arrays), or the same error; 0-d and 0-size arrays too."""
    import eagerpy_xp.native.numpy as xn

    full = type(xn.__backend__).pow.__wrapped__.__get__(xn.__backend__)
    values = _values(dtype)
    for x in (values, values[0:0], values[3].reshape(())):
        for exponent in SCALARS:
            fast, slow = (_numpy_outcome(f, x, exponent) for f in (xn.pow, full))
            assert fast == slow, f"{dtype}{x.shape} ** {exponent!r}: {fast!r} != {slow!r}"


def _numpy_outcome(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        result = np.asarray(fn(*args))
    except Exception as error:
        return type(error).__name__
    return result.dtype, result.shape, result.tobytes()
