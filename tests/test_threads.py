"""Writes from threads, writes through views, and NumPy conversion, on every wrapped backend.

Where a backend's writes rebind (JAX, TensorFlow, Dask, MLX: ``x[k] = v`` makes a new
array that the `Array` points to), a write is a read-modify-write of the wrapper; two
threads writing disjoint rows of one `Array` lost rows before the write lock (issue 37:
JAX in 27 of 30 trials, TensorFlow in 30 of 30), and on MLX an array written in another
thread could not be read at all (MLX evaluates a lazy graph only in the thread whose
stream built it).  Each test runs several threads over many trials and checks every row's
exact values; a backend whose writes go into the buffer (NumPy, torch) runs them too.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

#: Each wrapped backend, by the framework module it needs.
BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core"}

THREADS = 4
#: Trials per test: enough that an unguarded read-modify-write loses rows in nearly every
#: run of the test on JAX and TensorFlow, few enough for the file to run in seconds.
TRIALS = 25
N = 20_000


@pytest.fixture(params=list(BACKENDS))
def xp(request: pytest.FixtureRequest) -> ModuleType:
    pytest.importorskip(BACKENDS[request.param], reason=f"{request.param} is not installed")
    return importlib.import_module(f"eagerpy_xp.{request.param}")


def _in_threads(work: Callable[[int], None]) -> None:
    """``work(i)`` for each thread ``i``, started together behind a barrier."""
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:  # reported in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def test_disjoint_row_writes_from_threads_are_all_kept(xp: ModuleType) -> None:
    lost = []
    for trial in range(TRIALS):
        a = xp.zeros((THREADS, N))

        def write(i: int, a: Any = a) -> None:
            a[i, ...] = xp.full((N,), float(i + 1))

        _in_threads(write)
        host = np.asarray(a)  # read back in the main thread (MLX: built in others)
        rows = [i for i in range(THREADS) if not (host[i] == i + 1).all()]
        if rows:
            lost.append((trial, rows))
    assert lost == [], f"rows lost (trial, rows): {lost}"


def test_in_place_operators_on_disjoint_slices_from_threads(xp: ModuleType) -> None:
    steps = 3
    lost = []
    for trial in range(TRIALS if xp.__name__ != "eagerpy_xp.dask" else TRIALS // 3):
        a = xp.zeros((THREADS, N))
        width = N // THREADS
        one = xp.ones((width,))

        def add(i: int, a: Any = a, one: Any = one, width: int = width) -> None:
            for _ in range(steps):
                a[i, i * width:(i + 1) * width] += one  # a read of a's slice, then a write
                row = a[(i + 1) % THREADS]  # a view (on immutable backends: write-through)
                row[i * width:(i + 1) * width] -= 0.5  # a view of a view

        _in_threads(add)
        expected = np.zeros((THREADS, N))
        for i in range(THREADS):
            expected[i, i * width:(i + 1) * width] += steps
            expected[(i + 1) % THREADS, i * width:(i + 1) * width] -= 0.5 * steps
        host = np.asarray(a)
        if not np.array_equal(host, expected):
            lost.append((trial, [i for i in range(THREADS) if not np.array_equal(host[i], expected[i])]))
    assert lost == [], f"rows with lost writes (trial, rows): {lost}"


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b not in ("numpy", "torch")])
def test_readers_see_a_whole_state(backend: str) -> None:
    """A reader in another thread sees every row's write whole or not at all: each write
    makes a row all ``k``; no read finds a row of mixed values.  (Where writes rebind;
    NumPy and torch write into the buffer a reader reads, as the frameworks do.)"""
    pytest.importorskip(BACKENDS[backend], reason=f"{backend} is not installed")
    xp = importlib.import_module(f"eagerpy_xp.{backend}")
    # made from values (MLX: a lazy ``zeros`` of this thread is readable only here)
    a = xp.asarray(np.zeros((THREADS, 256), dtype=np.float32))
    done = threading.Event()
    torn: list[np.ndarray] = []

    failed: list[BaseException] = []

    def reader() -> None:
        try:
            while not done.is_set():
                host = np.asarray(a)
                for row in host:
                    if row.min() != row.max():
                        torn.append(row)
        except BaseException as exc:  # (MLX: an array this thread cannot evaluate)
            failed.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for k in range(1, 30):
            for i in range(THREADS):
                a[i] = float(k)
    finally:
        done.set()
        thread.join()
    assert failed == []
    assert torn == []
    assert (np.asarray(a) == 29.0).all()


# -- views: a basic-indexing result writes through to its parent ---------------------------------
def test_writes_into_a_basic_indexing_result_reach_the_parent(xp: ModuleType) -> None:
    """scikit-learn's GaussianMixture: ``_add_to_diagonal(covariances[k, :, :], reg, xp)``
    writes ``array[i, i] = value[i]`` into the indexing result and expects
    ``covariances`` to change, as NumPy's and torch's views do."""
    covariances = xp.zeros((3, 2, 2))
    for k in range(3):
        cov = covariances[k, :, :]
        diagonal = xp.linalg.diagonal(cov) + (k + 1.0)
        for i in range(2):
            cov[i, i] = diagonal[i]
    expected = np.zeros((3, 2, 2))
    for k in range(3):
        expected[k] += np.eye(2) * (k + 1)
    assert np.array_equal(np.asarray(covariances), expected)


def test_views_write_through_in_chains_and_with_in_place_operators(xp: ModuleType) -> None:
    a = xp.reshape(xp.arange(24, dtype=xp.float32), (2, 3, 4))
    b = a[1]  # (3, 4)
    c = b[:, 1:3]  # (3, 2), a view of a view
    c += 100.0
    c[0, 0] = -1.0
    expected = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    expected[1, :, 1:3] += 100.0
    expected[1, 0, 1] = -1.0
    assert np.array_equal(np.asarray(a), expected)
    assert np.array_equal(np.asarray(b), expected[1])
    assert np.array_equal(np.asarray(c), expected[1, :, 1:3])
    # a write into the parent, then into the older view: the view's write starts from
    # the parent's values, so the parent's write is kept
    a[1, 2, 2] = 7.0
    c[2, 0] = 8.0
    expected[1, 2, 2] = 7.0
    expected[1, 2, 1] = 8.0
    assert np.array_equal(np.asarray(a), expected)
    assert np.array_equal(np.asarray(c), expected[1, :, 1:3])
    # an integer-array key gives a copy, as NumPy's does: nothing writes through
    d = a[xp.asarray([0, 1])]
    d[...] = 0.0
    assert np.array_equal(np.asarray(a), expected)


def test_a_failed_write_into_a_view_changes_nothing(xp: ModuleType) -> None:
    a = xp.zeros((2, 3), dtype=xp.int32)
    row = a[0]
    with pytest.raises(TypeError, match="cannot cast the result dtype"):
        row += 1.5
    with pytest.raises(ValueError):
        row[...] = xp.ones((2,), dtype=xp.int32)
    assert np.array_equal(np.asarray(a), np.zeros((2, 3), dtype=np.int32))
    assert np.array_equal(np.asarray(row), np.zeros(3, dtype=np.int32))


# -- NumPy conversion ------------------------------------------------------------------------------
def test_numpy_conversion_is_writable(xp: ModuleType) -> None:
    """Cython kernels (scikit-learn's ``additive_chi2_kernel``) and SciPy's ``sosfilt``
    write into the buffers ``numpy.asarray`` gives them."""
    a = xp.reshape(xp.arange(6, dtype=xp.float32), (2, 3))
    for host in (np.asarray(a), np.asarray(a, dtype=np.float64), np.array(a), np.array(a, copy=True)):
        assert host.flags.writeable
        assert np.array_equal(host, np.arange(6).reshape(2, 3))
    copied = np.array(a, copy=True)
    copied[0, 0] = 99.0
    assert float(a[0, 0]) == 0.0  # a copy is a copy, on every backend


def test_numpy_conversion_without_copy_follows_numpy_protocol(xp: ModuleType) -> None:
    """``copy=False``: the framework's memory as it is, or ValueError where only a copy
    can give a NumPy array (TensorFlow's tensors, Dask's graphs)."""
    a = xp.reshape(xp.arange(6, dtype=xp.float32), (2, 3))
    try:
        host = np.asarray(a, copy=False)
    except ValueError as exc:
        assert xp.__name__.rsplit(".", 1)[1] in ("tensorflow", "dask"), exc
    else:
        assert np.array_equal(host, np.arange(6).reshape(2, 3))
        with pytest.raises(ValueError):
            np.asarray(a, dtype=np.float64, copy=False)  # a dtype change needs a copy


def test_an_mlx_graph_read_in_another_thread_raises_the_contract_error() -> None:
    """MLX evaluates a lazy graph only in the thread whose stream built it (docs/mlx.md,
    "Threads"): a read elsewhere raises a RuntimeError naming the function and the backend
    and saying what to do, not MLX's bare one; evaluated in its thread, it reads anywhere."""
    xp = pytest.importorskip("eagerpy_xp.mlx")
    lazy = xp.asarray(np.arange(6.0, dtype=np.float32)) * 2.0  # not evaluated yet
    caught: list[BaseException] = []

    def read(convert: Callable[[Any], Any]) -> None:
        try:
            convert(lazy)
        except BaseException as exc:  # the test inspects it in the main thread
            caught.append(exc)

    for convert in (np.asarray, lambda a: float(a[0])):
        caught.clear()
        worker = threading.Thread(target=read, args=(convert,))
        worker.start()
        worker.join()
        assert len(caught) == 1 and type(caught[0]) is RuntimeError, caught
        message = str(caught[0])
        assert message.startswith("eagerpy_xp.mlx.Array."), message
        assert "another thread" in message and "mx.eval" in message, message
        assert "in current thread" in str(caught[0].__cause__)
    assert np.asarray(lazy).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]  # its own thread
    caught.clear()
    worker = threading.Thread(target=read, args=(np.asarray,))
    worker.start()
    worker.join()
    assert caught == []  # evaluated: plain memory, readable from any thread
