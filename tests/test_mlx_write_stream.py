"""MLX: every write of a wrapped `Array` is built on one stream per device (issue 37).

`MLXCore.run_write` builds a write's nodes on a stream every thread may evaluate, made
once per device and kept in ``_WRITE_STREAMS``.  It was keyed by ``mx.default_device()``,
which compares equal to the same device but hashes by identity and is a new object on
each call, so the cache never hit: every ``x[k] = v`` and in-place operator made a new
stream, and MLX keeps an OS thread per stream for the life of the process.  SciPy's own
test suite on ``eagerpy_xp.mlx`` reached 32,000 threads in one process, after which
thread creation failed ("RuntimeError: Resource temporarily unavailable") for it and for
every other process of the machine.

The family: writes of every key kind (an integer, a slice, a negative step, a boolean
mask, an integer array, the whole array) and the in-place operators, over the dtypes MLX
holds and several shapes, judged against NumPy doing the same writes; after all of them
there is one write stream, and the process has at most a few more OS threads than before.
"""

from __future__ import annotations

import itertools
import operator
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

mx = pytest.importorskip("mlx.core", reason="MLX is not installed (pip install 'eagerpy-xp[mlx]')")

import eagerpy_xp.mlx as wxp  # noqa: E402
from eagerpy_xp.native._mlx._core import _WRITE_STREAMS  # noqa: E402

DTYPES = ("int8", "int32", "int64", "uint8", "uint32", "float32", "float64", "complex64")
SHAPES = ((6,), (3, 4), (2, 3, 2))

#: Key forms on the first axis: (name, key of an axis of length n).
KEYS: list[tuple[str, Callable[[Any, int], Any]]] = [
    ("int", lambda m, n: n - 1),
    ("slice", lambda m, n: slice(1, n)),
    ("step", lambda m, n: slice(None, None, -2)),
    ("mask", lambda m, n: m.asarray([i % 2 == 0 for i in range(n)])),
    ("int array", lambda m, n: m.asarray([n - 1, 0])),
    ("all", lambda m, n: ...),
]

IN_PLACE: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
}  # fmt: skip


def _threads() -> int | None:
    """The process's OS threads (Linux), None where /proc does not list them."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def _base(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 7
    return values.astype(dtype)


def test_writes_keep_one_stream_and_no_new_threads() -> None:
    # one write first: the stream (and its thread) made once is not a leak
    first = wxp.zeros(3)
    first[0] = 1.0
    np.asarray(first)
    before = _threads()
    checked = 0
    for dtype, shape, (name, key_of) in itertools.product(DTYPES, SHAPES, KEYS):
        want = _base(shape, dtype)
        x = wxp.asarray(want)
        selected = want[key_of(np, shape[0])]
        value = (np.arange(np.size(selected)) % 5 + 2).reshape(np.shape(selected)).astype(dtype)
        want[key_of(np, shape[0])] = value
        x[key_of(wxp, shape[0])] = wxp.asarray(value)
        context = f"{dtype}{shape}[{name}] = {value.tolist()}"
        got = np.asarray(x)
        assert got.dtype == want.dtype, context
        np.testing.assert_array_equal(got, want, err_msg=context)
        for symbol, op in IN_PLACE.items():
            other = (np.arange(want.size) % 3 + 1).reshape(shape).astype(dtype)
            expected = want.copy()
            op(expected, other)
            y = wxp.asarray(want)
            op(y, wxp.asarray(other))
            np.testing.assert_array_equal(np.asarray(y), expected, err_msg=f"{context} {symbol}")
            checked += 1
    assert checked == len(DTYPES) * len(SHAPES) * len(KEYS) * len(IN_PLACE)
    # every one of those writes was built on the same stream
    assert list(_WRITE_STREAMS) == [repr(mx.default_device())]
    after = _threads()
    if before is not None and after is not None:
        # 1,008 writes above: a stream (and a thread) each before the fix
        assert after - before <= 2, f"{after - before} new OS threads after the writes"
