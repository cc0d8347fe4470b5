"""Findings of the deeper conformance runs (400 examples per test, randomized) that hold on
several backends: each test names the run and the input that found it.  Both flavours of
every backend; JAX with x64 on (thread-local).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_of_a_complex_whose_modulus_overflows(xp: ModuleType, dtype: str) -> None:
    """``sign(x) = x / |x|`` has modulus 1 also where ``|x|`` overflows: NumPy gave ``1j``,
    torch and JAX 0 (400-example run, seed 40001: ``1.2711610061536462e308 * (1 + 1j)``)."""
    top = float(np.finfo(dtype).max)
    x = np.empty(3, dtype)
    x.real = [top * 0.75, -top, 0.0]
    x.imag = [top * 0.75, top * 0.5, -top]
    got = values(xp.sign(xp.asarray(x)))
    assert got.dtype == np.dtype(dtype)
    scaled = x / 4  # |x / 4| is finite: NumPy's own sign of it is the answer
    np.testing.assert_allclose(got, np.sign(scaled), rtol=1e-6, atol=0)
    np.testing.assert_allclose(np.abs(got), 1.0, rtol=1e-6)
    small = np.array([3 + 4j, 0j], dtype)  # the other elements as before
    np.testing.assert_allclose(values(xp.sign(xp.asarray(small))), [0.6 + 0.8j, 0j], rtol=1e-6)
