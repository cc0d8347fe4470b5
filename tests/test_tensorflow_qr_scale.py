"""TensorFlow's ``linalg.qr`` gives finite, correct factors at every scale float64 and
complex128 hold: matrices of every shape kind (square, tall, wide, a stack, an empty
one) whose entries go from 1e-300 to 1e300, where TensorFlow's Householder QR squared
the entries unscaled and returned ``inf``/``NaN`` (entries near 1.3e154; the independent
array-api-tests run found it at 200 examples, docs/conformance.md).  Checked: no
non-finite value, ``R`` upper triangular with exact zeros, ``Q^H Q = I`` and ``Q R = x``,
both modes, both flavours, float32 and complex64 too."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytest.importorskip("tensorflow", reason="tensorflow is not installed")

SHAPES = [(1, 1), (2, 1), (2, 2), (3, 2), (2, 3), (4, 4), (2, 3, 2), (0, 2)]
SCALES = {"float64": [1e-300, 1.0, 1e153, 1.3e154, 1e300],
          "complex128": [1e-300, 1.0, 1e153, 1.3e154, 1e300],
          "float32": [1e-30, 1.0, 1e19, 1e38],
          "complex64": [1e-30, 1.0, 1e19, 1e38]}  # fmt: skip


def _matrix(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    rng = np.random.default_rng(len(shape) * 31 + sum(shape))
    a = rng.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.uniform(-1, 1, shape)
    return a


@pytest.mark.parametrize("flavour", ["eagerpy_xp.tensorflow", "eagerpy_xp.native.tensorflow"])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
@pytest.mark.parametrize("dtype", list(SCALES))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_qr_at_every_scale(flavour: str, mode: str, dtype: str,
                           shape: tuple[int, ...]) -> None:  # fmt: skip
    ns = importlib.import_module(flavour)
    base = _matrix(shape, dtype)
    for scale in SCALES[dtype]:
        a = (base * scale).astype(dtype)
        q, r = ns.linalg.qr(ns.asarray(a), mode=mode)
        q_np = np.asarray(q.raw if hasattr(q, "raw") else q).astype(np.complex128)
        r_np = np.asarray(r.raw if hasattr(r, "raw") else r).astype(np.complex128)
        assert np.all(np.isfinite(q_np)) and np.all(np.isfinite(r_np)), (scale, r_np)
        n = shape[-1]
        lower = np.arange(r_np.shape[-2])[:, None] > np.arange(n)[None, :]
        assert np.all(r_np[..., lower] == 0), scale
        gram = np.swapaxes(q_np.conj(), -1, -2) @ q_np
        eye = np.broadcast_to(np.eye(q_np.shape[-1]), gram.shape)
        tol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
        assert np.allclose(gram, eye, atol=tol), scale
        assert np.allclose((q_np @ r_np) / scale, a.astype(np.complex128) / scale,
                           atol=tol * 10), scale  # fmt: skip
