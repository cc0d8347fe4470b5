"""Complex ``log1p`` near zero and on the real axis, on every backend with complex dtypes,
against the NumPy backend's ``log1p`` (its own small-``x`` formula,
``log1p(a (2 + a) + b²) / 2`` and ``atan2(b, 1 + a)``).

A deeper conformance run found torch's ``log1p(6.8e-295+5e-324j)`` to be NaN+NaNj: torch
fails where the imaginary part is subnormal and the real one below about eps/2; it also
gave +0 for the imaginary part of ``a - 0j`` with small ``a``, and MLX -0 for the real
part of ``log1p(-0 + bj)``, which is ``log|1 + bj| >= 0``.  Every pair of magnitudes from
0 and the subnormals to 0.5, both signs: within 8 eps, zeros with their signs.
"""

from __future__ import annotations

import importlib
import itertools
import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

CASES = [(name, dtype) for name in ("torch", "jax", "tensorflow", "dask", "mlx")
         for dtype in ("complex64", "complex128")
         if not (name == "mlx" and dtype == "complex128")]  # MLX has no complex128


def _grid(dtype: str) -> np.ndarray:
    f = np.finfo(dtype)
    magnitudes = [0.0, float(f.smallest_subnormal), float(f.tiny), float(f.tiny) * 1e10,
                  float(f.eps) / 4, float(f.eps) / 2, float(f.eps), 1e-3, 0.5]
    values = [sign * m for m in magnitudes for sign in (1.0, -1.0)]
    return np.array([complex(a, b) for a, b in itertools.product(values, values)], dtype=dtype)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("name", "dtype"), CASES)
def test_complex_log1p_near_zero_and_on_the_real_axis(name: str, dtype: str) -> None:
    pytest.importorskip({"dask": "dask.array", "mlx": "mlx.core"}.get(name, name),
                        reason=f"{name} is not installed")  # fmt: skip
    if name == "jax":
        import jax

        if dtype == "complex128" and not jax.config.jax_enable_x64:
            pytest.skip("complex128 on JAX needs the x64 mode (off in this process)")
    import eagerpy_xp.native.numpy as xn

    xp = importlib.import_module(f"eagerpy_xp.native.{name}")
    z = _grid(dtype)
    result = xp.log1p(xp.asarray(z))
    got = np.asarray(result.compute() if name == "dask" else result)
    want = xn.log1p(z)
    f = np.finfo(dtype)
    for x, g, w in zip(z, got, want):
        for part, p, q in (("real", g.real, w.real), ("imag", g.imag, w.imag)):
            if q == 0:
                close = p == q and np.signbit(p) == np.signbit(q)
            elif abs(q) < f.tiny:
                close = abs(p - q) <= 4 * f.tiny
            else:
                close = abs(p - q) <= 8 * f.eps * abs(q)
            assert close, f"{name} log1p({x}) {part}: {p!r}, expected {q!r}"
