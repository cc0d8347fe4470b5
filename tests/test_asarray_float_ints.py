"""Python floats given to ``asarray`` with an integer dtype, against NumPy.

The standard leaves the conversion to the library.  NumPy truncates each float toward zero
(``asarray([-0.5, 2.7], dtype=uint8)`` is ``[0, 2]``) and raises where the truncated value
has no place: NaN `ValueError`, an infinity or a value beyond the dtype `OverflowError`; as
``x[k] = v`` stores a float (docs/errors.md).  torch refused ``-0.006`` for ``uint8``
("value cannot be converted to type uint8 without overflow": SciPy's
``ndimage`` ``test_standard_deviation07``, issue 37) and every float for ``uint64`` ("an
integer is required"), and gave `ValueError` for a value beyond a signed dtype; MLX wrapped
-1.5 into 255 and NaN into 0.  Every backend, in both flavours, now gives NumPy's values,
and NumPy's exception type where NumPy raises, for a Python float alone and inside nested
lists and tuples (beside ints and bools).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from tests._flavours import namespaces

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx", "ndonnx")

INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = (-0.00619519, 0.7, 2.9, -1.5, -0.0, 127.9, 255.5, -128.7, 40000.7, 3e9, 1e20, -1e20,
          float("nan"), float("inf"), float("-inf"))  # fmt: skip


def values(x: Any) -> np.ndarray:
    """A NumPy copy of a native array or an `Array` (ndonnx's through ``unwrap_numpy``)."""
    raw = x.raw if isinstance(x, ep.Array) else x
    unwrap = getattr(raw, "unwrap_numpy", None)
    return np.asarray(raw if unwrap is None else unwrap())


def layouts(value: float) -> list[Any]:
    """The float alone, in a list, in nested lists, in a tuple beside an int and a bool."""
    return [value, [value], [[value, 1], [2, value]], (value, 3, True)]


def numpy_outcome(obj: Any, dtype: str) -> Any:
    """What NumPy makes (a NumPy array), or the type of the exception it raises."""
    try:
        return np.asarray(obj, dtype=dtype)
    except Exception as exc:
        return type(exc)


@pytest.mark.parametrize("value", FLOATS, ids=repr)
@pytest.mark.parametrize("dtype", INTEGERS)
def test_python_floats_into_integer_dtype(xp: ModuleType, dtype: str, value: float) -> None:
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    for obj in layouts(value):
        expected = numpy_outcome(obj, dtype)
        if isinstance(expected, type):
            with pytest.raises(expected, match=r"eagerpy_xp\.[\w.]+\.asarray: "):
                xp.asarray(obj, dtype=ours)
            continue
        got = xp.asarray(obj, dtype=ours)
        assert got.dtype == ours, (obj, got.dtype)
        got_values = values(got)
        assert got_values.shape == expected.shape, obj
        assert got_values.tolist() == expected.tolist(), obj


@pytest.mark.parametrize("dtype", INTEGERS)
def test_sequences_without_floats_keep_their_values(xp: ModuleType, dtype: str) -> None:
    """Ints, bools and nested sequences of them pass as they did (nothing converted)."""
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    for obj in (5, [0, 1, 2], [[1, True], [False, 7]], ((3, 4), (5, 6)), []):
        got = xp.asarray(obj, dtype=ours)
        assert got.dtype == ours
        assert values(got).tolist() == np.asarray(obj, dtype=dtype).tolist()


def test_a_float_beside_a_nan_names_the_nan(xp: ModuleType) -> None:
    """The whole sequence is read before the framework sees it: NaN anywhere raises."""
    with pytest.raises(ValueError, match=r"(?i)asarray: .*nan"):
        xp.asarray([[0.5, 1.0], [2.0, float("nan")]], dtype=xp.uint8)


@pytest.mark.parametrize("value", FLOATS, ids=repr)
@pytest.mark.parametrize("dtype", INTEGERS)
def test_full_of_a_python_float_in_an_integer_dtype(xp: ModuleType, dtype: str,
                                                     value: float) -> None:  # fmt: skip
    """``full`` and ``full_like`` store the fill as ``asarray(fill, dtype=...)`` does:
    NumPy and Dask wrapped ``full(2, -1.5, dtype=uint8)`` to 255 and NaN to 0 (NumPy's
    unsafe cast), JAX saturated -1.5 to 0 and an infinity to 255, torch refused -0.5 for
    uint8 and gave `ValueError` for values beyond the dtype."""
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    expected = numpy_outcome(value, dtype)
    makers = {
        "full (2, 3)": lambda: xp.full((2, 3), value, dtype=ours),
        "full ()": lambda: xp.full((), value, dtype=ours),
        "full_like of the dtype": lambda: xp.full_like(xp.zeros((2, 3), dtype=ours), value),
        "full_like with dtype=": lambda: xp.full_like(xp.zeros((2, 3)), value, dtype=ours),
    }
    for label, make in makers.items():
        if isinstance(expected, type):
            with pytest.raises(expected, match=r"eagerpy_xp\.[\w.]+\.full(_like)?: "):
                make()
            continue
        got = make()
        assert got.dtype == ours, label
        got_values = values(got)
        assert got_values.tolist() == np.full(got_values.shape, expected).tolist(), label
        assert got_values.shape == (() if label == "full ()" else (2, 3)), label
