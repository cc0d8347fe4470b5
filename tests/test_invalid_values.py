"""Invalid calls that some backend answered with a value (issue 23, item 4), each widened
into the family it belongs to: both flavours of every backend (JAX with x64 on).

- a dtype the standard requires, given as None (``astype(x, None)``);
- negative and non-integer sizes, shifts, sorters, ``arange`` bounds;
- a value that does not fit a ``__setitem__`` selection (JAX wrote nothing and went on);
- Python ints beyond a dtype's range: `OverflowError` in arithmetic, exact comparisons,
  `OverflowError` in ``asarray``/``full``/``full_like`` (docs/errors.md).
"""

from __future__ import annotations

import operator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from eagerpy_xp._dtypes import CATEGORY_OF
from eagerpy_xp.native._base.core import COMPARISONS
from eagerpy_xp.native._base.elementwise import BINARY
from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask")

INTEGER_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _backend(xp: ModuleType) -> str:
    return str(xp.__backend__.name)


def _raises(xp: ModuleType, kind: type[Exception], function: str, call: Any,
            needle: str = "") -> None:  # fmt: skip
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert message.startswith(f"eagerpy_xp.{_backend(xp)}.{function}: "), message
    assert needle in message, (needle, message)


# -- a required dtype given as None -------------------------------------------------------------
def test_a_required_dtype_is_not_none(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0])
    _raises(xp, TypeError, "astype", lambda: xp.astype(x, None), "dtype is required, got None")
    for function, call in [
        ("can_cast", lambda: xp.can_cast(None, xp.float64)),
        ("can_cast", lambda: xp.can_cast(xp.float32, None)),
        ("finfo", lambda: xp.finfo(None)), ("iinfo", lambda: xp.iinfo(None)),
        ("isdtype", lambda: xp.isdtype(None, "real floating")),
        ("result_type", lambda: xp.result_type(None)),
    ]:  # fmt: skip
        _raises(xp, TypeError, function, call)
    assert values(xp.astype(x, xp.float32)).dtype == np.float32  # a dtype still works
    assert values(xp.zeros(2, dtype=None)).shape == (2,)  # optional dtypes may be None


# -- negative and non-integer sizes, shifts, sorters -------------------------------------------
def test_sizes_are_non_negative_ints(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0, 3.0])
    six = xp.ones((6,))
    for function, call, kind, needle in [
        ("broadcast_shapes", lambda: xp.broadcast_shapes((-1,)), ValueError, "-1"),
        ("broadcast_shapes", lambda: xp.broadcast_shapes((2, -1), (1,)), ValueError, "-1"),
        ("broadcast_shapes", lambda: xp.broadcast_shapes((2,), (-3, 1)), ValueError, "-3"),
        ("broadcast_shapes", lambda: xp.broadcast_shapes((1.5,)), TypeError, "1.5"),
        ("broadcast_shapes", lambda: xp.broadcast_shapes((2, 3), (4,)), ValueError, ""),
        ("broadcast_to", lambda: xp.broadcast_to(x, (-1, 3)), ValueError, "-1"),
        ("broadcast_to", lambda: xp.broadcast_to(x, (2.0, 3)), TypeError, "2.0"),
        ("reshape", lambda: xp.reshape(six, (-2, 3)), ValueError, "-2"),
        ("reshape", lambda: xp.reshape(six, (-1, -1)), ValueError, ""),
        ("reshape", lambda: xp.reshape(six, (2.0, 3)), TypeError, "2.0"),
        ("roll", lambda: xp.roll(x, 1.5), TypeError, "1.5"),
        ("roll", lambda: xp.roll(xp.ones((2, 2)), (1, 0.5), axis=(0, 1)), TypeError, "0.5"),
        ("arange", lambda: xp.arange(1 + 2j), TypeError, "(1+2j)"),
        ("arange", lambda: xp.arange(0, 5, 1j), TypeError, "1j"),
        ("arange", lambda: xp.arange("3"), TypeError, "'3'"),
    ]:  # fmt: skip
        _raises(xp, kind, function, call, needle)
    assert xp.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert xp.broadcast_shapes((0, 1), (1, 4)) == (0, 4) and xp.broadcast_shapes() == ()
    assert values(xp.reshape(six, (-1, 3))).shape == (2, 3)
    assert values(xp.broadcast_to(x, (2, 3))).shape == (2, 3)
    np.testing.assert_array_equal(values(xp.roll(x, -1)), [2.0, 3.0, 1.0])
    np.testing.assert_array_equal(values(xp.arange(3.0)), [0.0, 1.0, 2.0])


def test_searchsorted_sorter(xp: ModuleType) -> None:
    x = xp.asarray([3.0, 1.0, 2.0])
    v = xp.asarray([2.5])
    _raises(xp, TypeError, "searchsorted",
            lambda: xp.searchsorted(x, v, sorter=xp.asarray([1.0, 2.0, 0.0])), "sorter")
    _raises(xp, TypeError, "searchsorted",
            lambda: xp.searchsorted(x, v, sorter=xp.asarray([True, False, True])), "sorter")
    _raises(xp, ValueError, "searchsorted",
            lambda: xp.searchsorted(x, v, sorter=xp.asarray([1, 2])), "sorter")
    sorter = xp.asarray([1, 2, 0])
    np.testing.assert_array_equal(values(xp.searchsorted(x, v, sorter=sorter)), [2])
    x_np = np.asarray([3.0, 1.0, 2.0])
    expected = np.searchsorted(x_np, [0.5, 1.0, 2.5, 9.0], side="right", sorter=[1, 2, 0])
    got = xp.searchsorted(x, xp.asarray([0.5, 1.0, 2.5, 9.0]), side="right", sorter=sorter)
    np.testing.assert_array_equal(values(got), expected)


# -- a value that does not fit the selection of __setitem__ --------------------------------------
#: (array shape, key, value shape): NumPy's broadcasting rule decides, also where either
#: side is empty (JAX's .at[].set wrote nothing and raised nothing there)
SETITEM_CASES: list[tuple[tuple[int, ...], Any, tuple[int, ...]]] = [
    ((1, 2), (slice(1, None), Ellipsis), (3, 0, 2)), ((1, 2), slice(1, None), (3, 0, 2)),
    ((1, 2), slice(1, None), (3, 2)), ((1, 2), slice(1, None), (0, 3)),
    ((3,), slice(3, None), (2,)), ((3,), slice(3, None), (0, 0)), ((2, 0), Ellipsis, (2, 1)),
    ((2, 0), Ellipsis, (3, 0)), ((2, 0), 0, (5,)), ((2, 3), (slice(0, 0), slice(None)), (2, 3)),
    ((2, 3), slice(1, None), (1, 1, 3)), ((2, 3), slice(1, None), (2, 1, 3)),
    ((2, 3), slice(None), (3,)), ((2, 3), slice(None), (2, 1)), ((2, 3), 0, (1, 3)),
    ((2, 3), (slice(None), 0), (2,)), ((0, 3), slice(None), (1, 3)), ((0, 3), slice(None), (2, 3)),
    ((4,), np.array([], dtype=np.int64), (2,)), ((4,), np.array([0, 2]), (3,)),
    # negative steps and index arrays: leading dims of size 1 beyond the selection's drop
    ((2,), slice(None, 0, -1), (1, 1)), ((4,), slice(None, None, -2), (1, 1, 2)),
    ((2, 3), (slice(None, None, -1), slice(None)), (1, 2, 3)),
    ((4,), slice(None, None, -1), (2, 1)), ((4,), slice(None, None, -1), (1, 2, 4)),
    ((4,), np.array([1]), (1, 1)), ((4,), np.array([0, 2]), (1, 1, 2)),
    ((4,), np.array([0, 2]), (2, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("shape", "key", "value_shape"), SETITEM_CASES,
                         ids=[f"{s}[{k!r}]={v}" for s, k, v in SETITEM_CASES])  # fmt: skip
def test_setitem_values_broadcast_as_numpy(xp: ModuleType, shape: tuple[int, ...], key: Any,
                                           value_shape: tuple[int, ...]) -> None:  # fmt: skip
    if not xp.__name__.startswith("eagerpy_xp.") or ".native." in xp.__name__:
        pytest.skip("indexing a native array is the framework's own operator")
    reference = np.zeros(shape)
    try:
        reference[key] = np.ones(value_shape)
        fits = True
    except ValueError:
        fits = False
    x = xp.zeros(shape)
    k = xp.asarray(key) if isinstance(key, np.ndarray) else key
    if fits:
        x[k] = xp.ones(value_shape)
        np.testing.assert_array_equal(values(x), reference)
    else:
        with pytest.raises(ValueError, match=rf"eagerpy_xp\.{_backend(xp)}\.Array\.__setitem__"):
            x[k] = xp.ones(value_shape)
        np.testing.assert_array_equal(values(x), np.zeros(shape))  # unchanged


# -- Python ints beyond a dtype's range ---------------------------------------------------------
def _integer_binary() -> list[str]:
    """The binary element-wise functions that take integer arrays."""
    refused = ("floating-point", "real floating-point", "complex floating-point", "boolean")
    return [n for n in BINARY if CATEGORY_OF.get(n) not in refused]


def _beyond(dtype: str) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return int(info.max) + 1, int(info.min) - 1


_OPERATORS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
              "floor_divide": operator.floordiv, "remainder": operator.mod, "pow": operator.pow,
              "bitwise_and": operator.and_, "bitwise_or": operator.or_,
              "bitwise_xor": operator.xor, "bitwise_left_shift": operator.lshift,
              "bitwise_right_shift": operator.rshift, "equal": operator.eq,
              "not_equal": operator.ne, "less": operator.lt, "less_equal": operator.le,
              "greater": operator.gt, "greater_equal": operator.ge}  # fmt: skip


@pytest.mark.parametrize("function", _integer_binary())
def test_python_ints_beyond_the_dtype(xp: ModuleType, function: str) -> None:
    """Arithmetic raises `OverflowError` naming the int (JAX wrapped ``int8 + 1000`` to
    -24); a comparison is exact (``int8 < 1000`` is all True), as NumPy's.  Both operand
    orders, every integer dtype, both ends of its range, functions and operators."""
    wrapped = ".native." not in xp.__name__
    op = _OPERATORS.get(function) if wrapped else None
    for dtype in INTEGER_DTYPES:
        a = np.array([0, 1, 7], dtype=dtype)
        x = xp.asarray(a)
        for value in _beyond(dtype):
            for first in (False, True):
                args = (value, x) if first else (x, value)
                calls = [getattr(xp, function)] + ([op] if op is not None else [])
                for call in calls:
                    if function in COMPARISONS:
                        reference = getattr(np, function)(*((value, a) if first else (a, value)))
                        result = values(call(*args))
                        assert result.dtype == np.bool_ and result.shape == (3,)
                        np.testing.assert_array_equal(result, reference,
                                                      err_msg=f"{function}{dtype}{value}{first}")
                    else:
                        with pytest.raises(OverflowError, match=rf"{value}.*{dtype}") as info:
                            call(*args)
                        assert str(info.value).startswith(f"eagerpy_xp.{_backend(xp)}."), info
        np.testing.assert_array_equal(values(x), a)  # unchanged
    # the ends of the range itself are fine
    i8 = xp.asarray(np.array([1, 2], dtype="int8"))
    if function in ("add", "maximum", "minimum", "bitwise_and", "equal", "less"):
        getattr(xp, function)(i8, 127), getattr(xp, function)(-128, i8)


def test_python_ints_beyond_the_dtype_in_where(xp: ModuleType) -> None:
    """``where(c, x, v)`` with a Python int ``v`` outside ``x``'s integer dtype raises
    `OverflowError` in either position (NumPy and JAX wrapped ``1000`` into int8 as -24);
    the ends of the range are taken."""
    for dtype in INTEGER_DTYPES:
        a = np.array([0, 1, 7], dtype=dtype)
        x, c = xp.asarray(a), xp.asarray(np.array([True, False, True]))
        for value in _beyond(dtype):
            for first in (False, True):
                args = (c, value, x) if first else (c, x, value)
                with pytest.raises(OverflowError, match=rf"where: .*{value}.*{dtype}"):
                    xp.where(*args)
        info = np.iinfo(dtype)
        for value in (int(info.min), int(info.max)):
            got = values(xp.where(c, x, value))
            assert got.dtype == np.dtype(dtype)
            np.testing.assert_array_equal(got, np.where([True, False, True], a, value))
        np.testing.assert_array_equal(values(x), a)  # unchanged


def test_python_ints_beyond_the_dtype_in_creation(xp: ModuleType) -> None:
    for obj in (2**70, -(2**70), 2**63, -(2**63) - 1, 2**64, [1, 2**70], [[1], [2**63]]):
        _raises(xp, OverflowError, "asarray", lambda obj=obj: xp.asarray(obj), "Python int")
    for obj, dtype in ((1000, "int8"), (-1, "uint8"), ([1, 256], "uint8"), (2**63, "int64")):
        _raises(xp, OverflowError, "asarray",
                lambda obj=obj, dtype=dtype: xp.asarray(obj, dtype=getattr(xp, dtype)))
    _raises(xp, OverflowError, "full", lambda: xp.full((2,), 2**70), "does not fit int64")
    _raises(xp, OverflowError, "full", lambda: xp.full((2,), 1000, dtype=xp.int8), "int8")
    i8 = xp.asarray(np.array([1, 2], dtype="int8"))
    _raises(xp, OverflowError, "full_like", lambda: xp.full_like(i8, 1000), "does not fit int8")
    assert values(xp.asarray(2**63, dtype=xp.uint64)).tolist() == 2**63
    assert values(xp.asarray(2**63 - 1)).tolist() == 2**63 - 1
    assert values(xp.full((1,), 2**70, dtype=xp.float64)).tolist() == [float(2**70)]
