"""A Python scalar written into an array of another kind, ``x[k] = v``, against NumPy.

The standard leaves a Python float written into an integer array unspecified; NumPy and
torch both store it truncated toward zero (``int_array[0] = -1.9`` stores -1), and
SciPy-style libraries rely on it (array-api-extra's ``at(x)[i].set(1.1)``, 12 of its tests
per backend, issue 37).  eagerpy_xp did refuse it with `TypeError` on every backend; now
every backend, in both flavours, stores what NumPy stores and raises NumPy's exception
type where NumPy raises: NaN `ValueError`, an infinity or a value outside the dtype
`OverflowError`, a complex into a real array `TypeError` (the contract's types too,
docs/errors.md), the array unchanged and the message naming ``__setitem__`` and the
backend.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core"}
INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = (1.1, -1.9, 0.5, -0.0, 127.9, 255.5, 40000.7, 3e9, 1e20, -1e20,
          float("nan"), float("inf"), float("-inf"))


@pytest.fixture(params=[f"{flavour}{name}" for name in BACKENDS for flavour in ("", "native.")])
def xp(request: pytest.FixtureRequest) -> ModuleType:
    name = request.param.rpartition(".")[2]
    pytest.importorskip(BACKENDS[name], reason=f"{name} is not installed")
    return importlib.import_module(f"eagerpy_xp.{request.param}")


def _numpy_outcome(dtype: str, value: Any) -> Any:
    """What NumPy stores (a Python number), or the type of the exception it raises."""
    a = np.zeros(2, dtype)
    try:
        a[0] = value
    except Exception as exc:
        return type(exc)
    return a[0].item()


def _written(xp: ModuleType, dtype: Any, value: Any) -> Any:
    """``x = zeros(2, dtype); x[0] = value``: x's values after, as NumPy's."""
    x = xp.zeros(2, dtype=dtype)
    if xp.__name__.startswith("eagerpy_xp.native."):
        before = np.asarray(x).tolist()
        try:
            new = xp.__backend__.setitem(x, 0, value)
        finally:
            assert np.asarray(x).tolist() == before or xp.__backend__.writes_in_place
        return np.asarray(new)
    try:
        x[0] = value
    except Exception:
        assert np.asarray(x).tolist() == [0, 0]  # nothing written on failure
        raise
    return np.asarray(x)


@pytest.mark.parametrize("value", FLOATS, ids=repr)
@pytest.mark.parametrize("dtype", INTEGERS)
def test_python_float_into_integer_array(xp: ModuleType, dtype: str, value: float) -> None:
    ours = getattr(xp, dtype, None)
    if ours is None or xp.zeros(1, dtype=ours).dtype != ours:
        pytest.skip(f"{xp.__name__} has no {dtype} arrays here (JAX without x64)")
    expected = _numpy_outcome(dtype, value)
    if isinstance(expected, type):
        with pytest.raises(expected, match=r"eagerpy_xp\.\w+\.Array\.__setitem__: "):
            _written(xp, ours, value)
    else:
        got = _written(xp, ours, value)
        assert got.tolist() == [expected, 0]


@pytest.mark.parametrize("value", [1 + 2j, 0.5j, complex("nan")], ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_python_complex_into_real_array_is_refused(xp: ModuleType, dtype: str, value: complex) -> None:
    assert _numpy_outcome(dtype, value) is TypeError or dtype == "bool"  # NumPy's own refusal
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.\w+\.Array\.__setitem__: cannot store a Python complex in an array of dtype {dtype}"):
        _written(xp, getattr(xp, dtype), value)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_python_floats_into_floating_arrays(xp: ModuleType, dtype: str) -> None:
    for value in (1.1, -1.9, float("inf")):
        got = _written(xp, getattr(xp, dtype), value)
        expected = np.zeros(2, dtype)
        expected[0] = value
        assert got.tolist() == expected.tolist()


#: Real floating values written into integer arrays, and NumPy's result; NaN and
#: infinities are left out: what a cast makes of them is the framework's (as in astype).
FLOAT_ARRAYS = ([1.1, -1.9], [0.5, -0.0], [126.9, -127.9])


@pytest.mark.parametrize("values", FLOAT_ARRAYS, ids=repr)
@pytest.mark.parametrize("source", ["float32", "float64"])
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_float_array_into_integer_array(xp: ModuleType, dtype: str, source: str, values: list[float]) -> None:
    """``x[k] = float_values`` truncates as NumPy and torch do (array-api-extra's
    ``at(x)[i].min(1.1)`` writes ``minimum(x[i], 1.1)``, a float64 array)."""
    if getattr(xp, source, None) is None or xp.zeros(1, dtype=getattr(xp, source)).dtype != getattr(xp, source):
        pytest.skip(f"{xp.__name__} has no {source} arrays here")
    expected = np.zeros(3, dtype)
    expected[1:] = np.asarray(values, source)
    got = _written_array(xp, getattr(xp, dtype), xp.asarray(values, dtype=getattr(xp, source)))
    assert got.tolist() == expected.tolist()


def _written_array(xp: ModuleType, dtype: Any, value: Any) -> Any:
    x = xp.zeros(3, dtype=dtype)
    if xp.__name__.startswith("eagerpy_xp.native."):
        return np.asarray(xp.__backend__.setitem(x, slice(1, None), value))
    x[1:] = value
    return np.asarray(x)


@pytest.mark.parametrize(("source", "dtype"), [("complex64", "float32"), ("complex128", "float64"),
                                               ("complex64", "int32"), ("int32", "uint8"), ("float32", "bool")])
def test_downcasts_that_stay_refused(xp: ModuleType, source: str, dtype: str) -> None:
    """A complex array into a real one (NumPy and torch drop the imaginary part, with a
    warning) and integer or bool changes of kind stay the contract's `TypeError`."""
    if not hasattr(xp, source):  # MLX names no complex128: it cannot hold one (docs/mlx.md)
        pytest.skip(f"{xp.__name__} has no {source}")
    value = xp.asarray([1, 0], dtype=getattr(xp, source))
    with pytest.raises(TypeError, match=rf"cannot store {source} values in an array of dtype {dtype} without a downcast"):
        _written_array(xp, getattr(xp, dtype), value)
