"""Python ints at and beyond each integer dtype's bounds, through every creation function,
on every backend and both flavours (issue 23: TensorFlow's ``asarray([2**64 - 1, 5,
2**63 + 1], dtype=uint64)`` gave ``[0, 5, 2**63]``: the list went through float64).

Inside the bounds the values are exact; one beyond raises `OverflowError` naming the
function (as NumPy and the standard's test suite expect), never a wrapped value.  JAX runs
with x64 on (the fixture); without it, a 64-bit request raises and 32-bit ones hold.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from eagerpy_xp._dtypes import INT_RANGE
from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask")
INTEGER_DTYPES = tuple(INT_RANGE)

xp = namespaces(*BACKENDS)


def exact(result: Any, expected: list[Any] | int, dtype: str) -> None:
    got = values(result)
    assert str(got.dtype) == dtype, f"dtype {got.dtype}, expected {dtype}"
    assert got.tolist() == expected, f"{got.tolist()} != {expected}"


def overflows(xp: ModuleType, function: str, *args: Any, **kwargs: Any) -> None:
    """``xp.<function>(*args, **kwargs)`` raises the contract's `OverflowError`, at the call."""
    name = xp.__name__.rpartition(".")[2]
    with pytest.raises(OverflowError, match=rf"eagerpy_xp\.{name}\.{function}: .*does not fit"):
        getattr(xp, function)(*args, **kwargs)


def inside(dtype: str) -> list[int]:
    low, high = INT_RANGE[dtype]
    return [low, low + 1, high - 1, high]


def beyond(dtype: str) -> list[int]:
    low, high = INT_RANGE[dtype]
    return [low - 1, high + 1, low - 2**70, high + 2**70]


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_values_at_the_bounds_are_exact(xp: ModuleType, dtype: str) -> None:
    d = getattr(xp, dtype)
    ends = inside(dtype)
    exact(xp.asarray(ends, dtype=d), ends, dtype)
    exact(xp.asarray(tuple(ends), dtype=d), ends, dtype)
    exact(xp.asarray([ends, ends[::-1]], dtype=d), [ends, ends[::-1]], dtype)
    exact(xp.asarray([[v] for v in ends], dtype=d), [[v] for v in ends], dtype)
    zero_d = [xp.asarray(v, dtype=d) for v in ends]
    exact(xp.asarray(zero_d, dtype=d), ends, dtype)
    exact(xp.asarray([zero_d[:2], zero_d[2:]], dtype=d), [ends[:2], ends[2:]], dtype)
    exact(xp.from_dlpack(np.array(ends, dtype=dtype)), ends, dtype)
    like = xp.asarray([0, 0, 0], dtype=d)
    for v in ends:
        exact(xp.asarray(v, dtype=d), v, dtype)
        exact(xp.full((2,), v, dtype=d), [v, v], dtype)
        exact(xp.full_like(like, v), [v] * 3, dtype)
        exact(xp.full_like(xp.asarray([0.5]), v, dtype=d), [v], dtype)
        exact(xp.arange(v, v + 1, dtype=d), [v], dtype)
    low, high = INT_RANGE[dtype]
    exact(xp.arange(high - 2, high + 1, dtype=d), [high - 2, high - 1, high], dtype)  # stop beyond
    exact(xp.arange(high, high - 3, -1, dtype=d), [high, high - 1, high - 2], dtype)
    exact(xp.arange(low, low + 5, 2, dtype=d), [low, low + 2, low + 4], dtype)
    exact(xp.arange(low, high, high - low, dtype=d), [low], dtype)
    exact(xp.arange(low + 1, low - 1, -1, dtype=d), [low + 1, low], dtype)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_one_beyond_the_bounds_raises(xp: ModuleType, dtype: str) -> None:
    d = getattr(xp, dtype)
    like = xp.asarray([0], dtype=d)
    low, high = INT_RANGE[dtype]
    for v in beyond(dtype):
        overflows(xp, "asarray", v, dtype=d)
        overflows(xp, "asarray", [1, v], dtype=d)
        overflows(xp, "asarray", [[1], [v]], dtype=d)
        overflows(xp, "full", (2,), v, dtype=d)
        overflows(xp, "full_like", like, v)
        overflows(xp, "arange", v, v + 1, dtype=d)
    overflows(xp, "arange", high - 1, high + 2, dtype=d)  # the last value
    overflows(xp, "arange", low + 1, low - 2, -1, dtype=d)


def test_without_a_dtype_python_ints_get_the_default_integer_dtype(xp: ModuleType) -> None:
    """Python ints alone make the default integer dtype (int64); beyond it `OverflowError`
    (NumPy would make uint64, float64 or object arrays of them)."""
    high = 2**63 - 1
    exact(xp.asarray(high), high, "int64")
    exact(xp.asarray([-high - 1, high]), [-high - 1, high], "int64")
    exact(xp.full((1,), high), [high], "int64")
    exact(xp.arange(high - 1, high + 1), [high - 1, high], "int64")
    for v in (2**63, -(2**63) - 1, 2**64, 2**70):
        overflows(xp, "asarray", v)
        overflows(xp, "asarray", [v, 1])
        overflows(xp, "asarray", [[1], [v]])
        overflows(xp, "full", (1,), v)
        overflows(xp, "arange", v, v + 1)
    # beside a float, a big int is a float (the default floating dtype)
    np.testing.assert_array_equal(values(xp.asarray([2**64, 0.5], dtype=xp.float64)),
                                  [2.0**64, 0.5])  # fmt: skip


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linspace_takes_python_ints_beyond_int64(xp: ModuleType, dtype: str) -> None:
    """``linspace``'s ends are real numbers: ``2**64`` is a float, not an integer that
    no int64 holds (NumPy raised TypeError, JAX and torch OverflowError)."""
    d = getattr(xp, dtype)
    for start, stop in ((0, 2**64 - 1), (0, 2**64), (-(2**70), 2**70), (2**63, 2**63)):
        want = np.linspace(float(start), float(stop), 3, dtype=dtype)
        np.testing.assert_allclose(values(xp.linspace(start, stop, 3, dtype=d)), want,
                                   rtol=1e-6)  # fmt: skip
    with pytest.raises(OverflowError, match=r"linspace: the Python int"):
        xp.linspace(0, 10**400, 3, dtype=d)


@pytest.mark.parametrize("flavour", ["eagerpy_xp.native.jax", "eagerpy_xp.jax"])
def test_jax_without_x64(flavour: str) -> None:
    """x64 off: a 64-bit dtype raises `ValueError` (with the fix), 32-bit bounds hold, and
    ``from_dlpack`` of a 64-bit producer raises (JAX would truncate it to 32 bits)."""
    pytest.importorskip("jax")
    import jax

    with jax.enable_x64(False):
        xp = importlib.import_module(flavour)
        for dtype in ("int64", "uint64"):
            with pytest.raises(ValueError, match="JAX_ENABLE_X64"):
                xp.asarray([1], dtype=getattr(xp, dtype))
            with pytest.raises(ValueError, match="JAX_ENABLE_X64"):
                xp.from_dlpack(np.array(inside(dtype), dtype=dtype))
        for dtype in ("int32", "uint32"):
            ends = inside(dtype)
            exact(xp.asarray(ends, dtype=getattr(xp, dtype)), ends, dtype)
            exact(xp.full((1,), ends[-1], dtype=getattr(xp, dtype)), [ends[-1]], dtype)
            exact(xp.from_dlpack(np.array(ends, dtype=dtype)), ends, dtype)
        exact(xp.asarray(2**31 - 1), 2**31 - 1, "int32")  # the default integer dtype
        for call in (lambda: xp.full((1,), 2**31), lambda: xp.arange(2**31, 2**31 + 1)):
            with pytest.raises(OverflowError, match="does not fit int32"):
                call()
