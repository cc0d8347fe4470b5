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


# A mask that keeps few values computes to chunks such as (0, 0, 0, 0, 1); Dask broadcasts
# an axis of size 1, and adding two such arrays of different chunk counts gave one block
# in the graph and several values (`_chunks.sized` merges the empty chunks away).
@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("kept", [1, 2, 0])
@pytest.mark.parametrize("chunks", [(10, 5), (5, 1), (1, 10)])
def test_masks_keeping_few_values(xp: Any, call: str, kept: int,
                                  chunks: tuple[int, int]) -> None:  # fmt: skip
    if call in ("+", "-", "*", "<") and not hasattr(xp.asarray(1.0), "raw"):
        pytest.skip("the native flavour's arrays are Dask's: their operators are Dask's own")
    n = 10
    left, right = np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64) * 3
    a = xp.asarray(da.from_array(left, chunks=n // chunks[0]))
    b = xp.asarray(da.from_array(right, chunks=n // chunks[1]))
    a, b = a[a >= n - kept], b[b >= 3 * (n - kept)]  # the last `kept` values, sizes unknown
    got = _values(CALLS[call](xp, a, b))
    np_ns = importlib.import_module("eagerpy_xp.numpy")
    want = _values(CALLS[call](np_ns, np_ns.asarray(left[n - kept:]),
                               np_ns.asarray(right[n - kept:])))  # fmt: skip
    assert got.shape == want.shape
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


# -- tasks over several graphs (`_core.task`) ------------------------------------------------
# An iteration that narrows a mask until its values converge (SciPy's ``cramervonmises``
# series): each round selects the active values (unknown sizes), combines them with a
# known-size array made from their computed values (one task: `_one_task`), writes the
# result back through the mask (a value of unknown size: one task, `_keyed_write`) and
# narrows the mask by a masked write.  Each task's graph holds the earlier rounds' keys;
# Dask's optimizer, run on each task's arguments apart, gave one of them (the first
# selection's) another array's task, and a later round's product read the wrong array:
# "operands could not be broadcast together with shapes (2,) (5,)" when computed.
def _converging(xp: Any, values: Any, update: str) -> tuple[np.ndarray, int]:
    x = xp.asarray(values)
    x = x[(x > 0.001) & (x < 1000.0)]
    total = xp.zeros_like(x)
    active = xp.ones_like(x, dtype=xp.bool)
    rounds = 0
    while xp.any(active) and rounds < 60:
        sub = x[active]
        q = (4 * rounds + 1) ** 2 / (16 * sub)
        known = xp.asarray(np.exp(-np.asarray(q)))  # a known size, from computed values
        z = xp.exp(-q) * known / xp.sqrt(sub)
        total = xp.asarray(total, copy=True)
        if update == "setitem":
            total[active] = total[active] + z
        elif update == "iadd":
            total[active] += z
        else:  # "unique": the values of unknown size go through another task first
            total[active] = total[active] + z + xp.unique_values(z)[:1] * 0
        narrowed = xp.asarray(active, copy=True)
        narrowed[xp.asarray(active, copy=True)] = xp.abs(z) >= 1e-7
        active = narrowed
        rounds += 1
    return np.asarray(total), rounds


_ROUNDS = [
    *((values, 100) for values in ("five", "eight", "two")),
    *((("two", chunks)) for chunks in (1, 2, 3)),
    ("five", 1),  # an input of several chunks (five: 40 rounds; eight's 60 rounds over
    # three chunks took 30 s each and 2 GB, with nothing more to find)
]  # fmt: skip
_ROUND_VALUES = {"five": [0.0248, 0.03656, 0.11888, 1.16204, 100.0],
                 "eight": [0.5, 2.0, 0.01, 7.0, 50.0, 0.2, 400.0, 3.0],
                 "two": [100.0, 0.3]}  # fmt: skip


@pytest.mark.parametrize("update", ["setitem", "iadd", "unique"])
@pytest.mark.parametrize(("name", "chunks"), _ROUNDS)
def test_masked_rounds_over_tasks_match_numpy(name: str, chunks: int, update: str) -> None:
    # (the wrapped flavour: the native one's writes are Dask's own `__setitem__`)
    wrapped = importlib.import_module("eagerpy_xp.dask")
    reference = importlib.import_module("eagerpy_xp.numpy")
    values = _ROUND_VALUES[name]
    got, rounds = _converging(wrapped, da.from_array(np.array(values), chunks=chunks), update)
    want, want_rounds = _converging(reference, np.array(values), update)
    assert rounds == want_rounds > 1
    np.testing.assert_allclose(got, want, rtol=1e-13)


def test_task_hands_whole_values_over() -> None:
    """`_core.task` gives its function NumPy values for Dask arrays anywhere in its
    arguments (0-d, several chunks in two axes, unknown sizes, in lists and dicts)."""
    from eagerpy_xp.native._dask._core import task

    zero_d = da.from_array(np.array(3.5))
    grid = da.from_array(np.arange(24.0).reshape(4, 6), chunks=(3, 4))
    masked = grid[grid > 5]  # unknown sizes
    seen = task(lambda a, b: (a, b), [zero_d, {"g": grid}], (masked,)).compute()
    (a0, a1), (m,) = seen
    assert isinstance(a0, np.ndarray) and a0.shape == () and a0 == 3.5
    np.testing.assert_array_equal(a1["g"], np.arange(24.0).reshape(4, 6))
    np.testing.assert_array_equal(m, np.arange(6.0, 24.0))
