"""Element-wise calls on Dask arrays of unknown sizes whose chunks differ in number
(`_chunks.aligned`): Dask pairs a one-chunk operand with each chunk of the other, as it
broadcasts a length-1 axis, and the graph fails or is wrong when computed (SciPy's
``stats.rankdata`` on Dask: a masked array of two chunks plus a ``diff`` of one).  Each
case here compares every value with NumPy's, for operators and functions, both orders,
masks of every chunking, 2-D arrays, and a broadcast length-1 operand that needs no
sizes."""

from __future__ import annotations

import importlib
import itertools
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed")


def _masked(xp: Any, values: np.ndarray, chunks: Any) -> Any:
    """``values`` as a Dask array of ``chunks``, masked by an all-true mask: the same
    values, with unknown sizes (NaN chunks)."""
    x = xp.asarray(da.from_array(values, chunks=chunks))
    return x[x > -1e9]


@pytest.fixture(params=["wrapped", "native"])
def xp(request: pytest.FixtureRequest) -> Any:
    prefix = "eagerpy_xp." if request.param == "wrapped" else "eagerpy_xp.native."
    return importlib.import_module(prefix + "dask")


def _values(a: Any) -> np.ndarray:
    return np.asarray(a.raw if hasattr(a, "raw") else a.compute())


CALLS = {
    "+": lambda xp, a, b: a + b,
    "-": lambda xp, a, b: a - b,
    "*": lambda xp, a, b: a * b,
    "<": lambda xp, a, b: a < b,
    "add": lambda xp, a, b: xp.add(a, b),
    "maximum": lambda xp, a, b: xp.maximum(a, b),
    "floor_divide": lambda xp, a, b: xp.floor_divide(a, b + 1),
    "pow": lambda xp, a, b: xp.pow(a, xp.ones_like(b) * 2),
    "where": lambda xp, a, b: xp.where(xp.greater(a, b), a, b),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("chunks", [(5, 10), (10, 5), (3, 4), (2, 10), (10, 1)])
def test_unknown_sizes_with_different_chunk_counts(xp: Any, call: str,
                                                   chunks: tuple[int, int]) -> None:  # fmt: skip
    n = 10
    left = np.arange(n, dtype=np.float64)
    right = np.arange(n, dtype=np.float64)[::-1].copy()
    a, b = _masked(xp, left, chunks[0]), _masked(xp, right, chunks[1])
    assert any(np.isnan(c) for c in (a.raw if hasattr(a, "raw") else a).chunks[0])
    if call in ("+", "-", "*", "<") and not hasattr(a, "raw"):
        pytest.skip("the native flavour's arrays are Dask's: their operators are Dask's own")
    got = _values(CALLS[call](xp, a, b))
    np_ns = importlib.import_module("eagerpy_xp.numpy")
    want = _values(CALLS[call](np_ns, np_ns.asarray(left), np_ns.asarray(right)))
    np.testing.assert_array_equal(got, want)


def test_two_dimensional_and_both_orders(xp: Any) -> None:
    values = np.arange(24.0).reshape(4, 6)
    full = xp.asarray(da.from_array(values, chunks=(2, 3)))
    rows = full[xp.asarray(da.from_array(np.array([True] * 4), chunks=2))]  # (nan, nan) rows
    one = xp.asarray(da.from_array(values, chunks=(4, 6)))
    one = one[xp.asarray(da.from_array(np.array([True] * 4), chunks=4))]  # (nan,) rows
    for got in (xp.add(rows, one), xp.add(one, rows)):
        np.testing.assert_array_equal(_values(got), values * 2)


def test_a_known_length_one_operand_broadcasts_without_sizes(xp: Any) -> None:
    a = _masked(xp, np.arange(10.0), 5)
    b = xp.asarray(da.from_array(np.array([1.0]), chunks=1))
    before = (a.raw if hasattr(a, "raw") else a).chunks
    got = xp.add(a, b)
    raw = got.raw if hasattr(got, "raw") else got
    assert all(np.isnan(c) for c in raw.chunks[0])  # nothing was computed to make it
    np.testing.assert_array_equal(_values(got), np.arange(10.0) + 1)
    assert (a.raw if hasattr(a, "raw") else a).chunks == before  # the operand is unchanged


def test_operands_given_are_left_as_they_are(xp: Any) -> None:
    a, b = _masked(xp, np.arange(10.0), 5), _masked(xp, np.arange(10.0), 10)
    raws = [(t.raw if hasattr(t, "raw") else t) for t in (a, b)]
    chunks = [r.chunks for r in raws]
    np.testing.assert_array_equal(_values(xp.add(a, b)), np.arange(10.0) * 2)
    assert [r.chunks for r in raws] == chunks
    for r in raws:
        assert all(np.isnan(c) for c in itertools.chain(*r.chunks))
