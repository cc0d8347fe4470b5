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
from types import ModuleType

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

CASES = [(name, dtype) for name in ("torch", "jax", "tensorflow", "dask", "mlx")
         for dtype in ("complex64", "complex128")
         if not (name == "mlx" and dtype == "complex128")]  # MLX has no complex128


def _native(name: str, dtype: str) -> ModuleType:
    """The native namespace of ``name``; skips where the framework is not installed, or
    is JAX without the x64 mode for complex128."""
    pytest.importorskip({"dask": "dask.array", "mlx": "mlx.core"}.get(name, name),
                        reason=f"{name} is not installed")  # fmt: skip
    if name == "jax":
        import jax

        if dtype == "complex128" and not jax.config.jax_enable_x64:
            pytest.skip("complex128 on JAX needs the x64 mode (off in this process)")
    return importlib.import_module(f"eagerpy_xp.native.{name}")


def _grid(dtype: str) -> np.ndarray:
    f = np.finfo(dtype)
    magnitudes = [0.0, float(f.smallest_subnormal), float(f.tiny), float(f.tiny) * 1e10,
                  float(f.eps) / 4, float(f.eps) / 2, float(f.eps), 1e-3, 0.5]
    values = [sign * m for m in magnitudes for sign in (1.0, -1.0)]
    return np.array([complex(a, b) for a, b in itertools.product(values, values)], dtype=dtype)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("name", "dtype"), CASES)
def test_complex_log1p_near_zero_and_on_the_real_axis(name: str, dtype: str) -> None:
    xp = _native(name, dtype)
    import eagerpy_xp.native.numpy as xn

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


#: The complex element-wise functions whose results depend on both parts' magnitudes.
COMPLEX_FUNCTIONS = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
                     "expm1", "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan",
                     "tanh")  # fmt: skip


def _same(p: complex, q: complex) -> bool:
    """Equal parts, NaN equal to NaN and zeros with their signs."""
    return all((np.isnan(x) and np.isnan(y)) or (x == y and np.signbit(x) == np.signbit(y))
               for x, y in ((p.real, q.real), (p.imag, q.imag)))  # fmt: skip


def _close(p: complex, q: complex, dtype: str) -> bool:
    """Within 16 eps, or within the smallest normal number of a subnormal exact part (a
    framework that flushes its results to zero gives a zero of either sign there)."""
    f = np.finfo(dtype)
    return all((np.isnan(x) and np.isnan(y)) or x == y or abs(x - y) <= 16 * f.eps * abs(y)
               or (abs(y) < f.tiny and abs(x - y) <= f.tiny)
               for x, y in ((p.real, q.real), (p.imag, q.imag)))  # fmt: skip


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("name", "dtype"), CASES)
def test_subnormal_parts_give_one_answer(name: str, dtype: str) -> None:
    """A complex input with a subnormal part: the standard's value (the NumPy backend's;
    a subnormal part of it may come out as a zero), or, where the framework reads
    subnormals as zero (XLA and TensorFlow on the CPU), the value of the input with those
    parts flushed to signed zeros — the whole result one or the other. JAX gave ``log(1e-41j)`` as ``-inf + pi/2 j``: the real part of the flushed
    input's answer, the imaginary part of the exact one (a deeper conformance run, seed
    20261207, found it in ``log``, ``log2`` and ``log10``; ``sinh`` did the same)."""
    xp = _native(name, dtype)
    import eagerpy_xp.native.numpy as xn

    s = float(np.finfo(dtype).smallest_subnormal) * 1000
    values = [s, -s, 0.0, -0.0, 0.5]
    z = np.array([complex(a, b) for a, b in itertools.product(values, values)
                  if abs(a) == s or abs(b) == s], dtype=dtype)  # fmt: skip
    flushed = np.array([complex(a if abs(a) != s else np.copysign(0.0, a),
                                b if abs(b) != s else np.copysign(0.0, b))
                        for a, b in zip(z.real, z.imag)], dtype=dtype)  # fmt: skip
    for function in COMPLEX_FUNCTIONS:
        got, on_flushed = (np.asarray(r.compute() if name == "dask" else r)
                           for r in (getattr(xp, function)(xp.asarray(v)) for v in (z, flushed)))
        want = getattr(xn, function)(z)
        for x, g, f, w in zip(z, got, on_flushed, want):
            assert _close(g, w, dtype) or _same(g, f), (
                f"{name} {function}({x}): {g!r}, expected {w!r} (exact) or {f!r} (flushed)")
