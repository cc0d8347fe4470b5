"""``x[k] = values`` with values of another dtype of the array's own kind (issue 37).

SciPy's cluster tests build ``q = xp.zeros((3,))`` (the default floating dtype: float32
on MLX and torch) and store float64 distances into it with ``xpx.at(q, 0).set(...)``,
which writes ``q[0] = value``.  The standard leaves a value whose dtype does not promote
to the array's unspecified; NumPy, torch, JAX, Dask and MLX all store it cast to the
array's dtype (float64 rounded to float32, int64 wrapped to int8, as ``astype`` does), and
eagerpy_xp's in-place operators already cast a result of the array's kind back
(`tests/test_in_place_casts.py`).  So ``x[k] = v`` stores such values cast, on every
wrapped backend (DESIGN.md, "Spec first"); a complex value into a real array and
integer or boolean values into another kind stay refused
(`tests/test_setitem_scalars.py`).

The family: every ordered pair of distinct dtypes of one kind that the backend holds,
each key form (an integer, a slice, a boolean mask, an integer array, the whole array),
values that fit and values that wrap (integers) or round (floats), judged against NumPy
storing the same values; the array keeps its dtype and identity, and a failed write of
another kind leaves it as it was.
"""

from __future__ import annotations

import importlib
import itertools
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import x64

#: Each wrapped backend, by the framework module it needs.
BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core", "ndonnx": "ndonnx"}  # fmt: skip

KINDS = ("signed integer", "unsigned integer", "real floating", "complex floating")

#: The array's values (6 elements) and the values stored, by kind: the second set wraps
#: every integer dtype narrower than the value's (300 in int8 is 44), and rounds in
#: float32 and complex64 (0.1 has no float32 of its own).  No subnormals (JAX flushes
#: them on CPU) and nothing beyond float32's range (NumPy warns on that cast).
_BASE = {
    "signed integer": [1, -2, 3, -4, 5, -6],
    "unsigned integer": [1, 2, 3, 4, 5, 6],
    "real floating": [1.0, -2.0, 3.0, -4.0, 5.0, -6.0],
    "complex floating": [1.0, -2j, 3.0, -4j, 5.0, -6j],
}
_STORED = {
    "signed integer": ([7, -8, 9, 10], [300, -200, 127, 1000]),
    "unsigned integer": ([7, 8, 9, 10], [300, 256, 65537, 255]),
    "real floating": ([0.5, -1.25, 8.0, 3.0], [0.1, -1 / 3, 2.0 ** 0.5, 123456.789]),
    "complex floating": ([0.5 + 1j, -1.25, 8.0j, 3.0],
                         [0.1 - 0.2j, -1 / 3, 2.0 ** 0.5 * 1j, 123456.789 + 0.3j]),
}  # fmt: skip

#: Key forms: (name, the key for NumPy and the namespace, how many values it selects;
#: 0: one element, given a 0-d value).
_KEYS: list[tuple[str, Callable[[ModuleType | Any], Any], int]] = [
    ("int", lambda m: 2, 0),
    ("slice", lambda m: slice(1, 5), 4),
    ("step", lambda m: slice(None, None, -2), 3),
    ("mask", lambda m: m.asarray([True, False, True, True, False, False]), 3),
    ("int array", lambda m: m.asarray([5, 0, 3]), 3),
    ("all", lambda m: ..., 6),
]


@pytest.fixture(params=list(BACKENDS))
def xp(request: pytest.FixtureRequest) -> Any:
    pytest.importorskip(BACKENDS[request.param], reason=f"{request.param} is not installed")
    with x64(request.param):
        yield importlib.import_module(f"eagerpy_xp.{request.param}")


def _pairs(xp: ModuleType) -> list[tuple[str, str, str]]:
    """(kind, array dtype, value dtype): the value's dtype does not promote to the
    array's (a wider one, or the other way round for the narrower array)."""
    info = xp.__array_namespace_info__()
    return [(kind, a, b) for kind in KINDS
            for a, b in itertools.permutations(info.dtypes(kind=kind), 2)]  # fmt: skip


def _values(kind: str, row: int, count: int, dtype: str) -> np.ndarray:
    stored = _STORED[kind][row]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen = np.asarray((stored * 2)[:count]) if count else np.asarray(stored[1])
        return chosen.astype(dtype)


def test_same_kind_values_are_stored_cast(xp: ModuleType) -> None:
    checked = 0
    for (kind, a_name, v_name), row, (key_name, key_of, count) in itertools.product(
        _pairs(xp), (0, 1), _KEYS
    ):
        base = np.asarray(_BASE[kind]).astype(a_name)
        value = _values(kind, row, count, v_name)
        want = base.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want[key_of(np)] = value  # NumPy stores the values cast to the array's dtype
        x = xp.asarray(base)
        before = x
        x[key_of(xp)] = xp.asarray(value)
        context = f"{a_name}[{key_name}] = {v_name} values {value.tolist()}"
        assert x is before, context
        assert x.dtype == getattr(xp, a_name), context
        got = np.asarray(x)
        assert got.dtype == want.dtype, context
        np.testing.assert_array_equal(got, want, err_msg=context)
        checked += 1
    assert checked >= len(_KEYS) * 2


def test_a_same_kind_value_into_a_view_writes_through(xp: ModuleType) -> None:
    """A row of a float32 matrix (a basic-indexing result) given float64 values: the
    parent holds them rounded to float32."""
    if "float64" not in xp.__array_namespace_info__().dtypes(kind="real floating"):
        pytest.skip(f"{xp.__name__} has no float64")
    parent = xp.zeros((2, 3), dtype=xp.float32)
    row = parent[1, :]
    row[:] = xp.asarray([0.1, 0.2, 0.3], dtype=xp.float64)
    want = np.zeros((2, 3), dtype=np.float32)
    want[1, :] = np.asarray([0.1, 0.2, 0.3])
    assert parent.dtype == xp.float32 and row.dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(parent), want)
    np.testing.assert_array_equal(np.asarray(row), want[1])


@pytest.mark.parametrize(("source", "target"), [("int64", "float32"), ("uint8", "int8"),
                                                ("bool", "int32"), ("float32", "bool")])
def test_other_kinds_stay_refused(xp: ModuleType, source: str, target: str) -> None:
    """Values of another kind (other than a real floating value into an integer array,
    stored truncated) are the contract's `TypeError`, and the array keeps its values."""
    x = xp.asarray([1, 0, 1], dtype=getattr(xp, target))
    before = np.asarray(x).copy()
    value = xp.asarray([1, 1, 0], dtype=getattr(xp, source))
    with pytest.raises(TypeError, match=rf"cannot store {source} values in an array of "
                       rf"dtype {target} without a downcast"):  # fmt: skip
        x[:] = value
    assert x.dtype == getattr(xp, target)
    np.testing.assert_array_equal(np.asarray(x), before)
