"""The array object: operators incl. reflected and in-place, indexing, mutation,
attributes, conversions, DLPack; compared with array_api_strict's array.

Checked where the array object is the namespace's own (``array_object`` marker): the
wrapped flavour, and another namespace whose arrays name it as theirs.  The native
flavour's arrays are the frameworks' own objects and are not checked here;
``from_dlpack`` is checked for every target.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import array_api_strict as xs
import numpy as np
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .compare import assert_matches, assert_or_flushed
from .functions import CASES
from .harness import Target
from .strategies import Call, arrays, dtypes, shapes
from .test_differential import dtype_names, input_scale

AREA = "array object"
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

BINARY = {
    "__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow",
    "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
    "__lshift__": "bitwise_left_shift", "__rshift__": "bitwise_right_shift",
    "__eq__": "equal", "__ne__": "not_equal", "__lt__": "less", "__le__": "less_equal",
    "__gt__": "greater", "__ge__": "greater_equal",
}  # fmt: skip
_NO_INPLACE = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__")
UNARY = {"__abs__": "abs", "__neg__": "negative", "__pos__": "positive",
         "__invert__": "bitwise_invert"}  # fmt: skip


def _quiet(fn: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _strict(v: Any) -> Any:
    return xs.asarray(v) if isinstance(v, np.ndarray) else v


_FORMS = [(name, form) for name in sorted(BINARY) for form in ("forward", "in-place")
          if form == "forward" or name not in _NO_INPLACE]


@pytest.mark.array_object
@pytest.mark.parametrize(("name", "form"), _FORMS)
def test_binary_operator(target: Target, name: str, form: str) -> None:
    """``x1 <op> x2`` (arrays or a Python scalar on either side) and ``x1 <op>= x2``."""
    case = CASES[BINARY[name]]
    op = getattr(operator, name)
    iop = getattr(operator, f"__i{name[2:]}", None)

    def expect(c: Call) -> Any:
        try:
            return _quiet(lambda: op(_strict(c.args[0]), _strict(c.args[1])))
        except (TypeError, ValueError):
            reject()

    @given(call=case.calls)
    def check(call: Call) -> None:
        a, b = call.args
        expected = expect(call)
        target.check_holds(*dtype_names(call, expected))
        if form == "forward":
            result = _quiet(lambda: op(target.asarray(a), target.asarray(b)))
            assert_or_flushed(target, call, lambda c: assert_matches(
                target, result, expected if c is call else expect(c), tol=case.tol,
                mask=case.mask(c) if case.mask is not None else None, what=f"{c!r}",
                scale=input_scale(BINARY[name], c)))
            return
        if not isinstance(a, np.ndarray) or expected.shape != a.shape:
            reject()
        ref = xs.asarray(a.copy())  # array_api_strict may share memory with ``a``
        try:
            _quiet(lambda: iop(ref, _strict(b)))
        except (TypeError, ValueError):
            reject()
        x = _quiet(lambda: iop(target.asarray(a), target.asarray(b)))

        def compare(c: Call) -> None:
            wanted = ref if c is call else xs.asarray(expect(c))
            assert_matches(target, x, wanted, tol=case.tol,
                           mask=case.mask(c) if case.mask is not None else None,
                           what=f"in-place {c!r}", scale=input_scale(BINARY[name], c))  # fmt: skip

        assert_or_flushed(target, call, compare)

    check()


#: An in-place operator's operands whose result keeps the left one's dtype: (dtype, right).
_INPLACE_OPERANDS = {"__truediv__": ("float32", 2.0), "__pow__": ("float32", 2.0),
                     "__lshift__": ("int32", 1), "__rshift__": ("int32", 1),
                     "__and__": ("int32", 6), "__or__": ("int32", 6), "__xor__": ("int32", 6)}


@pytest.mark.array_object
@pytest.mark.tier("house", "the standard leaves mutation to the library (its copy-view page: "
                  "after y -= 1, for TensorFlow, JAX and Dask x keeps its value); the same "
                  "object back from x <op>= y is eagerpy_xp's own promise")
@pytest.mark.parametrize("name", [n for n in sorted(BINARY) if n not in _NO_INPLACE])
def test_inplace_operator_identity(target: Target, name: str) -> None:
    """``x <op>= y`` gives back ``x`` itself, holding the result, on eagerpy_xp's arrays."""
    if not target.ours:
        pytest.skip("eagerpy_xp's own promise (house), not asked of another namespace")
    dtype, right = _INPLACE_OPERANDS.get(name, ("float32", 3.0))
    left = np.asarray([5, 7, 12], dtype=dtype)
    iop = getattr(operator, f"__i{name[2:]}")
    x = target.asarray(left)
    before = x
    x = _quiet(lambda: iop(x, right))
    assert x is before, f"x {name[2:-2]}= y returned a new object"
    expected = _quiet(lambda: getattr(operator, name)(left, np.asarray(right, dtype=dtype)))
    assert_matches(target, x, xs.asarray(expected), tol="close",
                   what=f"x {name[2:-2]}= {right!r}")


@pytest.mark.array_object
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_operator(target: Target, name: str) -> None:
    case = CASES[UNARY[name]]
    op = {"__abs__": abs, "__neg__": operator.neg, "__pos__": operator.pos,
          "__invert__": operator.invert}[name]  # fmt: skip

    @given(call=case.calls)
    def check(call: Call) -> None:
        (a,) = call.args
        try:
            expected = _quiet(lambda: op(xs.asarray(a)))
        except TypeError:
            reject()
        mask = case.mask(call) if case.mask is not None else None
        result = _quiet(lambda: op(target.asarray(a)))
        assert_matches(target, result, expected, tol=case.tol, mask=mask, what=f"{call!r}")

    check()


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["__matmul__"])
def test_matmul_operator(target: Target, name: str) -> None:
    case = CASES["matmul"]

    @given(call=case.calls)
    def check(call: Call) -> None:
        a, b = call.args
        expected = xs.asarray(a) @ xs.asarray(b)
        target.check_holds(*dtype_names(call, expected))
        result = target.asarray(a) @ target.asarray(b)
        assert_matches(target, result, expected, tol=case.tol, what=f"{call!r}")

    check()


# -- indexing ---------------------------------------------------------------------------------
@st.composite
def _basic_key(draw: Any, shape: tuple[int, ...]) -> Any:
    """A basic index: integers, slices, an ellipsis and new axes."""
    parts: list[Any] = []
    for side in shape:
        choice = draw(st.sampled_from(["int", "slice", "slice", "none"]))
        if choice == "int" and side > 0:
            parts.append(draw(st.integers(-side, side - 1)))
        elif choice == "none":
            parts.append(None)
            parts.append(slice(None))
        else:
            start = draw(st.none() | st.integers(-side - 1, side + 1))
            stop = draw(st.none() | st.integers(-side - 1, side + 1))
            step = draw(st.none() | st.integers(-3, 3).filter(bool))
            parts.append(slice(start, stop, step))
    if parts and draw(st.booleans()):
        cut = draw(st.integers(0, len(parts)))
        parts = [*parts[:cut], Ellipsis]
    return tuple(parts) if len(parts) != 1 or draw(st.booleans()) else parts[0]


@st.composite
def _indexing(draw: Any) -> tuple[np.ndarray, Any]:
    x = draw(arrays(draw(dtypes("all")), shapes(), "moderate"))
    kind = draw(st.sampled_from(["basic", "basic", "mask", "integers"]))
    if kind == "mask":
        return x, draw(arrays("bool", x.shape))
    if kind == "integers" and x.ndim > 0 and all(x.shape):
        idx = tuple(draw(hnp.arrays(np.dtype("int64"), (2,), elements=st.integers(-s, s - 1)))
                    for s in x.shape)  # fmt: skip
        return x, idx
    return x, draw(_basic_key(x.shape))


def _key_for(key: Any, convert: Callable[[np.ndarray], Any]) -> Any:
    if isinstance(key, np.ndarray):
        return convert(key)
    if isinstance(key, tuple):
        return tuple(convert(k) if isinstance(k, np.ndarray) else k for k in key)
    return key


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["__getitem__"])
def test_getitem(target: Target, name: str) -> None:
    @given(case=_indexing())
    def check(case: tuple[np.ndarray, Any]) -> None:
        x, key = case
        try:
            expected = xs.asarray(x)[_key_for(key, xs.asarray)]
        except (IndexError, TypeError, ValueError):
            reject()
        result = target.asarray(x)[_key_for(key, target.asarray)]
        assert_matches(target, result, expected, what=f"x{x.shape}[{key!r}]")

    check()


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["__setitem__"])
def test_setitem(target: Target, name: str) -> None:
    @given(case=_indexing(), data=st.data())
    def check(case: tuple[np.ndarray, Any], data: Any) -> None:
        x, key = case
        ref = xs.asarray(x.copy())
        try:
            shape = ref[_key_for(key, xs.asarray)].shape
        except (IndexError, TypeError, ValueError):
            reject()
        if isinstance(key, tuple) and any(isinstance(k, np.ndarray) for k in key):
            reject()  # integer-array assignment is not in the standard
        value: Any = data.draw(arrays(x.dtype.name, hnp.broadcastable_shapes(shape, min_side=0),
                                      "moderate") | st.just(x.flat[0].item() if x.size else 0))
        try:
            ref[_key_for(key, xs.asarray)] = _strict(value)
        except (IndexError, TypeError, ValueError):
            reject()
        arr = target.asarray(x)
        arr[_key_for(key, target.asarray)] = target.asarray(value)
        assert_matches(target, arr, ref, what=f"x{x.shape}[{key!r}] = {value!r}")

    check()


# -- attributes and conversions ---------------------------------------------------------------
@pytest.mark.array_object
@pytest.mark.parametrize("name", ["attributes"])
def test_attributes(target: Target, name: str) -> None:
    @given(x=arrays("float32", shapes(), "moderate"))
    def check(x: np.ndarray) -> None:
        a, r = target.asarray(x), xs.asarray(x)
        assert a.shape == r.shape and a.ndim == r.ndim and a.size == r.size
        if target.dev is not None:  # a namespace whose default_device() is None (JAX)
            assert a.device == target.dev
        assert target.dtype_name(a.dtype) == "float32"
        assert a.__array_namespace__() is target.xp
        if x.ndim >= 2:
            assert_matches(target, a.mT, r.mT, what="mT")
        if x.ndim == 2:
            assert_matches(target, a.T, r.T, what="T")

    check()


_SCALARS = [("__bool__", "bool", True), ("__bool__", "float64", 0.0), ("__int__", "int16", -7),
            ("__int__", "float32", 2.75), ("__float__", "float64", -1.5),
            ("__float__", "int32", 3), ("__complex__", "complex128", 1 - 2j),
            ("__complex__", "float32", 0.5), ("__index__", "uint8", 200)]  # fmt: skip


@pytest.mark.array_object
@pytest.mark.parametrize(("name", "dtype", "value"), _SCALARS)
def test_scalar_conversion(target: Target, name: str, dtype: str, value: Any) -> None:
    a = target.asarray(np.array(value, dtype=dtype))
    expected = getattr(xs.asarray(np.array(value, dtype=dtype)), name)()
    got = getattr(a, name)()
    assert got == expected and type(got) is type(expected), f"{got!r} vs {expected!r}"


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["to_device"])
def test_to_device(target: Target, name: str) -> None:
    a = target.asarray(np.arange(3.0))
    b = a.to_device(a.device)
    assert b.device == a.device
    np.testing.assert_array_equal(target.to_numpy(b), np.arange(3.0))


@pytest.mark.parametrize(("name", "area"), [("from_dlpack", "creation")])
def test_from_dlpack(target: Target, name: str, area: str) -> None:
    """A producer of the same library round-trips through ``from_dlpack``."""

    @given(x=st.sampled_from(["float64", "int32", "bool", "complex64"]).flatmap(
        lambda d: arrays(d, shapes(), "moderate")))
    def check(x: np.ndarray) -> None:
        a = target.asarray(x)
        b = target.function("from_dlpack")(a)
        assert target.is_array(b)
        np.testing.assert_array_equal(target.to_numpy(b), x)
        assert target.dtype_name(b.dtype) == x.dtype.name

    check()


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["__dlpack__"])
def test_dlpack_methods(target: Target, name: str) -> None:
    a = target.asarray(np.arange(4, dtype="int32"))
    device_type, _ = a.__dlpack_device__()
    assert int(device_type) == (1 if target.device == "cpu" else 2)
    capsule = a.__dlpack__()
    assert type(capsule).__name__ == "PyCapsule"
