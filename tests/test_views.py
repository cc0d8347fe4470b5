"""Writes through transposed views (``permute_dims``, ``moveaxis``), on every wrapped backend.

NumPy's ``transpose`` is always a view, and SciPy's ``signal.oaconvolve`` depends on it:
its ``_split`` swaps an axis to the front (``xp_swapaxes``, a ``permute_dims``), slices,
and swaps back, and the overlap-add ``ret_overpart += overpart`` writes into such a piece
of such a piece of the FFT result.  Where writes rebind (JAX, TensorFlow, Dask, MLX) the
write used to stay in the last transposed copy, and ``oaconvolve`` returned the blocks
without their overlaps (issue 37: thousands of SciPy's TestOAConvolve cases).  Each test
here does the same on NumPy itself and compares every value.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core"}


@pytest.fixture(params=list(BACKENDS))
def xp(request: pytest.FixtureRequest) -> ModuleType:
    pytest.importorskip(BACKENDS[request.param], reason=f"{request.param} is not installed")
    return importlib.import_module(f"eagerpy_xp.{request.param}")


def _swap(ns: ModuleType, a: object, axis: int) -> object:
    """SciPy's ``xp_swapaxes(a, axis, 0)``: a ``permute_dims`` with two axes swapped."""
    axes = list(range(a.ndim))  # type: ignore[attr-defined]
    axes[axis], axes[0] = axes[0], axes[axis]
    return ns.permute_dims(a, axes)


def _split(ns: ModuleType, x: object, at: int, axis: int) -> list[object]:
    """SciPy's ``_split``: pieces of ``x`` along ``axis`` through a swap, a slice, a swap."""
    swapped = _swap(ns, x, axis)
    n = x.shape[axis]  # type: ignore[attr-defined]
    at %= n
    return [_swap(ns, swapped[a:b, ...], axis) for a, b in ((0, at), (at, n))]  # type: ignore[index]


def _overlap_add(ns: ModuleType, ret: object) -> object:
    """oaconvolve's overlap-add of blocks ``ret`` (steps on axis 0, block on axis 1)."""
    ret, over = _split(ns, ret, -2, 1)
    over = _split(ns, over, -1, 0)[0]
    piece = _split(ns, ret, 2, 1)[0]
    piece = _split(ns, piece, 1, 0)[1]
    piece += over  # type: ignore[operator]
    return ret


@pytest.mark.parametrize("shape", [(4, 6), (3, 6, 2)])
def test_overlap_add_writes_through_transposed_slices(xp: ModuleType, shape: tuple[int, ...]) -> None:
    values = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    expected = np.asarray(_overlap_add(np, values.copy()))
    got = _overlap_add(xp, xp.asarray(values))
    assert np.array_equal(np.asarray(got), expected)


@pytest.mark.parametrize(("source", "destination"), [(0, 2), ((0, 1), (2, 0)), (-1, 0), ((0, 2), (1, 0))])
def test_moveaxis_and_permute_dims_write_through(xp: ModuleType, source: object, destination: object) -> None:
    values = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = xp.asarray(values)
    expected = values.copy()
    moved, moved_np = xp.moveaxis(x, source, destination), np.moveaxis(expected, source, destination)
    moved[0] += 100
    moved_np[0] += 100
    assert np.array_equal(np.asarray(x), expected)
    assert np.array_equal(np.asarray(moved), moved_np)
    perm, perm_np = xp.permute_dims(x, (2, 0, -2)), expected.transpose(2, 0, 1)
    perm[1:, 0] = -1.0
    perm_np[1:, 0] = -1.0
    assert np.array_equal(np.asarray(x), expected)
    # a write into the parent is read again by the transposed view's next write
    x[1, 2, 3] = 7.0
    expected[1, 2, 3] = 7.0
    perm[0, 0, 0] = 9.0
    perm_np[0, 0, 0] = 9.0
    assert np.array_equal(np.asarray(x), expected)
    assert np.array_equal(np.asarray(perm), perm_np)


#: SciPy's oaconvolve on a wrapped backend against NumPy's, in a process of its own: SciPy
#: takes other namespaces only with SCIPY_ARRAY_API=1 set before it is first imported.
_OACONVOLVE = """
import importlib, sys
import numpy as np
import scipy.signal as signal
xp = importlib.import_module("eagerpy_xp." + sys.argv[1])
rng = np.random.default_rng(0)
for n, m in ((50, 7), (200, 9), (31, 30), (64, 5)):
    a = rng.random(n).astype(np.float32)
    b = rng.random(m).astype(np.float32)
    expected = signal.oaconvolve(a.astype(np.float64), b.astype(np.float64))
    got = np.asarray(signal.oaconvolve(xp.asarray(a), xp.asarray(b)))
    assert got.shape == expected.shape, (n, m, got.shape)
    assert np.allclose(got, expected, rtol=1e-4, atol=1e-4), (n, m, np.abs(got - expected).max())
    a2 = rng.random((40, 6)).astype(np.float32)
    b2 = rng.random((7, 1)).astype(np.float32)
    expected = signal.oaconvolve(a2.astype(np.float64), b2.astype(np.float64), axes=0)
    got = np.asarray(signal.oaconvolve(xp.asarray(a2), xp.asarray(b2), axes=0))
    assert np.allclose(got, expected, rtol=1e-4, atol=1e-4), ("axes=0", np.abs(got - expected).max())
print("ok")
"""


def test_scipy_oaconvolve(xp: ModuleType) -> None:
    pytest.importorskip("scipy.signal")
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    backend = xp.__name__.rpartition(".")[2]
    done = subprocess.run([sys.executable, "-c", _OACONVOLVE, backend], env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
