"""MLX's ``linalg.qr`` gives finite, correct factors at every scale its dtypes hold:
float32 and complex64 matrices (every shape kind: square, tall, wide, a stack) whose
entries go from 1e-20 to 1.5e19, where the squares a reflection is built from pass
float32's range.  (The Householder QR that serves complex matrices formed ``2 v v^H``
before dividing and returned ``inf``/``NaN`` for an entry near 6.5e18; the independent
array-api-tests run found it, docs/conformance.md.)  Checked: no non-finite value, ``R``
upper triangular with exact zeros, ``Q^H Q = I`` and ``Q R = x`` to float32 accuracy,
for both modes and both flavours."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytest.importorskip("mlx.core", reason="mlx is not installed")

SHAPES = [(1, 1), (2, 1), (3, 2), (2, 3), (4, 4), (2, 3, 2)]
SCALES = [1e-20, 1.0, 1e18, 6.5e18, 1.5e19]
DTYPES = ["float32", "complex64"]


def _matrix(shape: tuple[int, ...], dtype: str, scale: float) -> np.ndarray:
    rng = np.random.default_rng(abs(hash((shape, dtype))) % 2**32)
    a = rng.uniform(-1, 1, shape)
    if dtype == "complex64":
        a = a + 1j * rng.uniform(-1, 1, shape)
    a.flat[0] = 1j * 1.0 if dtype == "complex64" else 1.0  # a purely imaginary head
    return (a * scale).astype(dtype)


@pytest.mark.parametrize("flavour", ["eagerpy_xp.mlx", "eagerpy_xp.native.mlx"])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_qr_at_every_scale(flavour: str, mode: str, dtype: str,
                           shape: tuple[int, ...]) -> None:  # fmt: skip
    ns = importlib.import_module(flavour)
    for scale in SCALES:
        a = _matrix(shape, dtype, scale)
        q, r = ns.linalg.qr(ns.asarray(a), mode=mode)
        q_np = np.asarray(q.raw if hasattr(q, "raw") else q).astype(np.complex128)
        r_np = np.asarray(r.raw if hasattr(r, "raw") else r).astype(np.complex128)
        assert np.all(np.isfinite(q_np)) and np.all(np.isfinite(r_np)), (scale, q_np, r_np)
        n = shape[-1]
        lower = np.arange(r_np.shape[-2])[:, None] > np.arange(n)[None, :]
        assert np.all(r_np[..., lower] == 0), scale
        eye = np.eye(q_np.shape[-1])
        gram = np.swapaxes(q_np.conj(), -1, -2) @ q_np
        assert np.allclose(gram, np.broadcast_to(eye, gram.shape), atol=1e-5), scale
        back = q_np @ r_np
        assert np.allclose(back / scale, a.astype(np.complex128) / scale, atol=1e-5), scale
