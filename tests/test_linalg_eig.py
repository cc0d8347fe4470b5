"""``linalg.eig`` and ``linalg.eigvals`` (2025.12) on every backend and flavour.

The eigenpairs are checked by their definition (``x @ v == v * w``) and the eigenvalues
against NumPy's, compared as sets (no backend promises an order).  JAX runs with x64 on
(the thread-local switch) so the 64-bit dtypes exist.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask")
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
              "complex128": "complex128"}  # fmt: skip
TOLERANCE = {"complex64": 2e-4, "complex128": 1e-10}
SHAPES = [(1, 1), (4, 4), (2, 3, 3), (0, 3, 3), (2, 0, 0), (0, 0)]


xp = namespaces(*BACKENDS)


def dtype_name(xp: ModuleType, x: Any) -> str:
    return next(n for n in COMPLEX_OF if x.dtype == getattr(xp, n))


def matrices(shape: tuple[int, ...], name: str) -> np.ndarray:
    """Random matrices (real ones generically have complex conjugate eigenvalue pairs)."""
    rng = np.random.default_rng(sum(shape) + len(name))
    a = rng.standard_normal(shape)
    if name.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(name)


def assert_same_set(got: np.ndarray, expected: np.ndarray, tolerance: float) -> None:
    """Equal eigenvalues per matrix, in any order (nearest-neighbour matching)."""
    assert got.shape == expected.shape
    if got.size == 0:
        return
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    for g, e in zip(got.reshape(-1, got.shape[-1]), expected.reshape(-1, expected.shape[-1])):
        remaining = list(g)
        for value in e:
            distances = [abs(value - r) for r in remaining]
            best = int(np.argmin(distances))
            assert distances[best] <= tolerance * scale * 10, (g, e)
            remaining.pop(best)


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_eig_and_eigvals(xp: ModuleType, name: str, shape: tuple[int, ...]) -> None:
    a = matrices(shape, name)
    x = xp.asarray(a)
    want = COMPLEX_OF[name]
    result = xp.linalg.eig(x)
    assert type(result).__name__ == "EigResult"
    assert result._fields == ("eigenvalues", "eigenvectors")
    w, v = result
    assert dtype_name(xp, w) == want and dtype_name(xp, v) == want
    assert tuple(w.shape) == shape[:-1] and tuple(v.shape) == shape
    wn, vn = values(w), values(v)
    scale = max(1.0, float(np.abs(a).max(initial=0.0)))
    np.testing.assert_allclose(a @ vn, vn * wn[..., None, :], rtol=0,
                               atol=TOLERANCE[want] * scale * shape[-1])  # fmt: skip
    expected = np.linalg.eigvals(a.astype(COMPLEX_OF[name].replace("64", "128")))
    assert_same_set(wn, expected, TOLERANCE[want])
    only = xp.linalg.eigvals(x)
    assert dtype_name(xp, only) == want and tuple(only.shape) == shape[:-1]
    assert_same_set(values(only), expected, TOLERANCE[want])


def test_complex_eigenvalues_of_a_real_matrix(xp: ModuleType) -> None:
    rotation = xp.asarray(np.array([[0.0, -1.0], [1.0, 0.0]]))
    w = values(xp.linalg.eigvals(rotation))
    assert w.dtype == np.complex128
    assert_same_set(w, np.array([1j, -1j]), 1e-12)


@pytest.mark.parametrize("function", ["eig", "eigvals"])
def test_eig_rejects_what_the_spec_excludes(xp: ModuleType, function: str) -> None:
    fn = getattr(xp.linalg, function)
    with pytest.raises(TypeError, match=f"linalg.{function}.*int32"):
        fn(xp.asarray(np.eye(2, dtype="int32")))
    with pytest.raises(TypeError, match=f"linalg.{function}.*bool"):
        fn(xp.asarray(np.eye(2, dtype=bool)))
    with pytest.raises(ValueError, match=f"linalg.{function}.*(square|2 dimensions)"):
        fn(xp.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match=f"linalg.{function}.*(square|2 dimensions)"):
        fn(xp.asarray(np.ones(3)))
