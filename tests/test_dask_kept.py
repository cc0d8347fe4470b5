"""The Dask backend's kept values (`native._dask._kept`): a loop that asks for a Python
value at each step runs each step's new tasks, not its whole history, and gets the values
NumPy gets; kept values never leak to the caller, failures stay Dask's own, the memory
kept is bounded."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import dask.array as da
import numpy as np
import pytest
from dask.callbacks import Callback

import eagerpy_xp.dask as wxp
import eagerpy_xp.numpy as wnp
from eagerpy_xp.native._dask import _kept
from eagerpy_xp.native._dask._kept import KEPT, KeptValues


class _Tasks(Callback):
    """Counts the tasks Dask's local schedulers run."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _posttask(self, key: Any, result: Any, dsk: Any, state: Any, id: Any) -> None:
        self.count += 1


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    KEPT.clear()
    yield
    KEPT.clear()


def _loop(xp: Any, steps: int, tasks: list[int] | None = None) -> tuple[list[bool], float]:
    """A loop in the shape of SciPy's adaptive cubature: an error accumulated in place,
    a Python decision each step, regions compared by ``bool``."""
    rng = np.random.default_rng(3)
    parts = rng.normal(size=(steps, 3))
    err = xp.asarray(0.0)
    est = xp.zeros(3)
    seen = []
    previous = None
    for i in range(steps):
        e = xp.asarray(parts[i])
        err += xp.sum(xp.abs(e)) / (i + 1)
        est = est + e * 0.5
        if tasks is None:
            seen.append(bool(err > xp.max(est)))
        else:
            with _Tasks() as counter:
                seen.append(bool(err > xp.max(est)))
            tasks.append(counter.count)
        if previous is not None:
            seen.append(bool(xp.max(xp.abs(e)) < xp.max(xp.abs(previous))))
        previous = e
    return seen, float(err)


def test_a_loop_of_decisions_gives_numpy_values() -> None:
    assert _loop(wxp, 60) == _loop(wnp, 60)


def test_each_step_runs_only_its_new_tasks() -> None:
    tasks: list[int] = []
    _loop(wxp, 120, tasks)
    # without kept values step i reruns all i earlier steps (the count grows linearly)
    assert max(tasks[20:]) <= 3 * max(tasks[:20]), tasks
    assert max(tasks[-20:]) <= max(tasks[10:30]) + 2, tasks


def test_an_array_rebound_in_a_loop_keeps_a_short_graph() -> None:
    err = wxp.asarray(0.0)
    sizes = []
    for i in range(200):
        err += wxp.asarray(float(i))
        if i % 5 == 0:
            assert float(err) == sum(range(i + 1))
        sizes.append(len(err.raw.__dask_graph__().layers))
    assert max(sizes[100:]) <= max(sizes[:20]) + 2, sizes
    # an array written without any value computed keeps its graph as Dask builds it
    other = wxp.asarray(1.0)
    for _ in range(20):
        other += other
    assert len(other.raw.__dask_graph__().layers) > 20
    assert float(other) == 2.0**20


def test_python_iteration_compares_from_kept_values() -> None:
    values = np.random.default_rng(5).normal(size=400)
    x = wxp.asarray(values)
    for _ in range(30):  # a history of 30 rotations (tasks Dask does not fuse)
        x = wxp.concat([x[1:], x[:1]])
    with _Tasks() as counter:
        biggest = max(x)
    assert float(biggest) == values.max()
    assert counter.count < 12 * 400  # each comparison its few tasks, not x's history


def test_values_handed_out_are_the_callers_own() -> None:
    x = wxp.asarray([1.0, 2.0, 3.0]) * 2.0
    first = np.asarray(x)
    assert first.flags.writeable
    first[0] = 99.0
    again = np.asarray(x)  # computed from the kept value
    assert again.tolist() == [2.0, 4.0, 6.0]
    assert again.flags.writeable
    again[1] = -1.0
    native = KEPT.compute(x.raw)  # (the backend's own callers: dlpack exports it)
    assert native.flags.writeable
    native[2] = 0.0
    assert np.asarray(x + 1.0).tolist() == [3.0, 5.0, 7.0]
    assert float(x[2]) == 6.0


def test_a_kept_chunk_handed_out_as_it_is_is_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    x = (wxp.asarray([1.0, 2.0]) + 1.0).raw
    assert KEPT.compute(x).tolist() == [2.0, 3.0]
    # a finalize handing back the one chunk itself (Dask's copies it today)
    monkeypatch.setattr(da.Array, "__dask_postcompute__", lambda self: (lambda r: r[0], ()))
    value = KEPT.compute(x)
    assert value.tolist() == [2.0, 3.0]
    assert value.flags.writeable
    value[0] = 7.0
    assert KEPT.compute(x).tolist() == [2.0, 3.0]


def test_kept_values_are_read_only_copies() -> None:
    x = wxp.asarray([1.0, 2.0]) + 1.0
    float(x[0])
    assert len(KEPT) > 0
    for chunks, _ in KEPT._values.values():
        for value in chunks.values():
            assert not value.flags.writeable
            with pytest.raises(ValueError):
                value[...] = 0


def _failing(block: np.ndarray) -> np.ndarray:
    raise ZeroDivisionError("the second chunk fails when computed")


def test_a_chunk_the_value_does_not_read_does_not_fail_it() -> None:
    good = da.from_array(np.array([1.0, 2.0]), chunks=2)
    bad = da.from_array(np.array([3.0, 4.0]), chunks=2).map_blocks(_failing, dtype=np.float64, meta=np.empty(0))
    both = wxp.asarray(da.concatenate([good, bad]))  # small: would be kept whole
    assert float(both[1]) == 2.0  # Dask reads the first chunk only
    with pytest.raises(ZeroDivisionError):
        float(both[3])
    with pytest.raises(ZeroDivisionError):
        np.asarray(both)


def test_the_contracts_lazy_errors_stay_what_they_were() -> None:
    x = wxp.asarray([1.0, 2.0, 3.0])
    float(x[0])  # keeps x
    with pytest.raises(IndexError, match="dask"):
        float(wxp.take(x, wxp.asarray([5]))[0])


def test_large_arrays_and_what_they_make_are_not_kept() -> None:
    big = wxp.ones(_kept.LAYER_LIMIT // 8 + 1) * 2.0
    assert float(wxp.sum(big)) == 2.0 * (_kept.LAYER_LIMIT // 8 + 1)
    picked = big[big > 1.0]  # unknown size, from a large array: may be large
    assert float(wxp.sum(picked)) == 2.0 * (_kept.LAYER_LIMIT // 8 + 1)
    x = wxp.asarray([1.0, -2.0, 3.0])
    masked = x[x > 0.0]  # unknown size, from small arrays only: kept
    assert masked.shape == (None,)
    assert float(wxp.sum(masked)) == 4.0
    kept_names = set(KEPT._values)
    assert big.raw.name not in kept_names
    assert picked.raw.name not in kept_names
    assert x.raw.name in kept_names
    assert masked.raw.name in kept_names
    assert masked.shape == (None,)  # (what is kept never changes an array's shape)
    chunked = wxp.asarray(da.ones(100, chunks=1)) * 3.0  # more chunks than CHUNK_LIMIT
    assert float(chunked[7]) == 3.0
    assert chunked.raw.name not in set(KEPT._values)
    # an array of unknown size found larger than the limit once computed is dropped
    grown = wxp.repeat(wxp.asarray([1.0]), wxp.asarray([_kept.LAYER_LIMIT // 8 + 1]))
    assert grown.shape == (None,)
    assert float(wxp.sum(grown)) == _kept.LAYER_LIMIT // 8 + 1
    assert grown.raw.name not in set(KEPT._values)
    assert KEPT.nbytes <= _kept.LAYER_LIMIT


def test_the_budget_drops_the_least_recently_used() -> None:
    kept = KeptValues(budget=3 * 8 * 100)
    arrays = [da.from_array(np.full(100, float(i)), chunks=100) + 1.0 for i in range(6)]
    for a in arrays[:3]:
        kept.compute(a.sum())
    assert kept.nbytes <= kept.budget
    kept.compute(arrays[0].sum())  # used again: the last to be dropped
    for a in arrays[3:]:
        assert float(kept.compute(a.sum())) == 100.0 * (float(a[0].compute()))
        assert kept.nbytes <= kept.budget
    assert arrays[5].name in kept._values
    assert arrays[1].name not in kept._values
    assert all(float(kept.compute(a.sum())) == 100.0 * (i + 1) for i, a in enumerate(arrays))


def test_threads_forcing_one_history_agree_with_numpy() -> None:
    base = wxp.asarray(np.arange(50.0)) / 7.0
    expected = [float(np.sum((np.arange(50.0) / 7.0) ** 2 * k)) for k in range(8)]
    results: dict[int, list[float]] = {}

    def work(k: int) -> None:
        results[k] = [float(wxp.sum(base**2 * k)) for _ in range(30)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(8):
        assert results[k] == [pytest.approx(expected[k], rel=1e-15)] * 30


def test_every_conversion_reads_kept_values() -> None:
    x = wxp.asarray([1.5, 2.5]) * 2.0
    assert float(x[0]) == 3.0
    assert x.raw.name in KEPT._values
    with _Tasks() as counter:
        assert int(x[1]) == 5
        assert complex(x[0]) == 3 + 0j
        assert bool(x[1] > x[0])
        assert np.asarray(x).tolist() == [3.0, 5.0]
        assert np.from_dlpack(x).tolist() == [3.0, 5.0]
    # x's own tasks (from_array, multiply) never ran again: only the new selections
    assert counter.count <= 12


def test_the_suites_memory_bound_drops_kept_values() -> None:
    from eagerpy_xp.native._dask import DESCRIPTOR

    x = wxp.asarray([1.0, 2.0]) * 3.0
    assert float(x[1]) == 6.0
    assert len(KEPT) > 0 and KEPT.nbytes > 0
    assert DESCRIPTOR.release_caches is not None
    DESCRIPTOR.release_caches()
    assert len(KEPT) == 0 and KEPT.nbytes == 0
    assert float(x[0]) == 3.0


def test_sizes_after_a_mask_are_read_from_kept_chunks() -> None:
    from eagerpy_xp.native._dask._chunks import sized

    values = np.random.default_rng(8).normal(size=40)
    x = da.from_array(values, chunks=10)
    for _ in range(10):  # a history of 10 rotations (tasks Dask does not fuse)
        x = da.concatenate([x[1:], x[:1]])
    picked = x[x > 0]
    assert np.isnan(picked.shape[0])
    counted = sized(picked)
    expected = picked.copy().compute_chunk_sizes().chunks
    assert counted.chunks == tuple(tuple(n for n in axis if n) for axis in expected)
    np.testing.assert_array_equal(counted.compute(), np.roll(values, -10)[np.roll(values, -10) > 0])
    with _Tasks() as counter:  # again: from the kept chunks, no task of the history
        assert sized(picked).chunks == counted.chunks
    assert counter.count <= 4
    assert KEPT.chunk_sizes(da.ones(100, chunks=1)) is None  # more chunks than kept


def _asked(monkeypatch: pytest.MonkeyPatch, kept: KeptValues) -> list[str]:
    """The names of the arrays ``kept``'s runs ask for to keep (their outputs), as they run."""
    asked: list[str] = []
    store = kept._store

    def recording(keep: dict[str, Any], *rest: Any) -> None:
        asked.extend(keep)
        store(keep, *rest)

    monkeypatch.setattr(kept, "_store", recording)
    return asked


def test_unknown_sizes_from_large_arrays_are_not_held_to_the_end_of_a_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _asked(monkeypatch, KEPT)
    big = wxp.ones(_kept.LAYER_LIMIT // 8 + 1)
    picked = big[big > 0.5]  # a mask's result: as large as the array, for all Dask knows
    small = wxp.asarray([1.0, 2.0]) + 0.0
    assert float(wxp.sum(picked) + wxp.sum(small)) == _kept.LAYER_LIMIT // 8 + 4.0
    assert small.raw.name in asked
    assert picked.raw.name not in asked  # (a run's outputs are held until it ends)


def test_the_size_limit_is_the_instances(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = KeptValues(layer_limit=100)
    asked = _asked(monkeypatch, kept)
    small = da.from_array(np.arange(10.0), chunks=10) + 1.0  # 80 bytes
    large = da.from_array(np.arange(20.0), chunks=20) + 1.0  # 160 bytes
    assert float(kept.compute(small.sum())) == 55.0
    assert float(kept.compute(large.sum())) == 210.0
    assert small.name in kept._values
    assert large.name not in kept._values
    assert small.name in asked and large.name not in asked  # (not even held for the run)
    assert all(size <= 100 for _, size in kept._values.values())


@pytest.mark.parametrize("split", [1, 2, 3], ids=["one-chunk", "two-chunks", "three-chunks"])
def test_what_dask_computes_inside_its_algorithms_is_not_taken_for_arrays(split: int) -> None:
    """Dask's ``var``/``std`` pass dicts of partial sums between layers annotated as float
    arrays; kept as arrays, they broke every later computation reading them."""
    values = np.random.default_rng(11).random((6, 7))
    x = wxp.asarray(da.from_array(values, chunks=(max(1, 6 // split), 7)))
    for _ in range(3):
        for axis in (0, 1, None):
            got = np.asarray(wxp.std(x, axis=axis, correction=1))
            np.testing.assert_allclose(got, values.std(axis=axis, ddof=1), rtol=1e-13)
            assert float(wxp.var(x[:, 2])) == pytest.approx(values[:, 2].var(), rel=1e-13)
    for chunks, _ in KEPT._values.values():
        for value in chunks.values():
            assert isinstance(value, np.ndarray) and value.dtype != object
