"""`linspace` with complex endpoints and complex dtypes, on every backend and flavour.

Found by SciPy's `TestSOSFilt::test_rank2` on JAX: `linspace(0, 11, 12, dtype=complex64)`
gave 9.000001 where every other backend (and its own float32 linspace) gives 9, and Dask
refused complex endpoints altogether.  The family: complex, real and integer endpoints,
both complex dtypes the backend holds, lengths 0, 1, 2, 12 and 50, with and without the
endpoint; each result compared with NumPy's complex128 linspace rounded to the dtype, and
the real and imaginary parts of an evenly spaced integer grid exact.
"""

from __future__ import annotations

import itertools
from types import ModuleType

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

ENDPOINTS = [(0, 11), (0.0, 1.0), (1 - 2j, 12 + 9j), (-3.5j, 2.25 + 0j), (2 + 2j, 2 + 2j),
             (1e3 + 1j, -1e3 - 1j)]  # fmt: skip
LENGTHS = [0, 1, 2, 12, 50]
EPS = {"complex64": float(np.finfo(np.float32).eps), "complex128": float(np.finfo(np.float64).eps)}


def _dtypes(xp: ModuleType) -> list[str]:
    held = xp.__array_namespace_info__().dtypes(kind="complex floating")
    return [name for name in ("complex64", "complex128") if name in held]


def test_values(xp: ModuleType) -> None:
    for name, (start, stop), num, endpoint in itertools.product(
        _dtypes(xp), ENDPOINTS, LENGTHS, (True, False)
    ):
        got = values(xp.linspace(start, stop, num, dtype=getattr(xp, name), endpoint=endpoint))
        want = np.linspace(complex(start), complex(stop), num, endpoint=endpoint)
        what = f"linspace({start!r}, {stop!r}, {num}, dtype={name}, endpoint={endpoint})"
        assert got.dtype == np.dtype(name), what
        assert got.shape == (num,), what
        scale = max(abs(complex(start)), abs(complex(stop)), 1.0)
        assert np.abs(got - want).max(initial=0.0) <= 4 * EPS[name] * scale, (what, got, want)


def test_an_integer_grid_is_exact(xp: ModuleType) -> None:
    """Points that are integers (of both parts) come out exact, as they do in real dtypes."""
    for name in _dtypes(xp):
        got = values(xp.linspace(0, 11, 12, dtype=getattr(xp, name)))
        assert np.array_equal(got, np.arange(12, dtype=name)), (name, got)
        got = values(xp.linspace(-4 + 8j, 7 - 3j, 12, dtype=getattr(xp, name)))
        want = np.arange(-4, 8) + 1j * np.arange(8, -4, -1)
        assert np.array_equal(got, want.astype(name)), (name, got)


def test_complex_endpoints_without_a_dtype_give_the_default_complex(xp: ModuleType) -> None:
    got = xp.linspace(1 + 1j, 3 + 5j, 3)
    default = xp.__array_namespace_info__().default_dtypes()["complex floating"]
    assert got.dtype == default
    assert np.array_equal(values(got), np.asarray([1 + 1j, 2 + 3j, 3 + 5j]))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_complex_endpoints_into_a_real_dtype_are_refused(xp: ModuleType, dtype: str) -> None:
    """The standard: a complex start or stop with a real dtype is an error."""
    with pytest.raises(TypeError, match="linspace"):
        xp.linspace(1 + 1j, 3, 3, dtype=getattr(xp, dtype))


def test_a_real_integer_grid_is_exact(xp: ModuleType) -> None:
    """The same of real floating dtypes (JAX's own float32 ``linspace(-4, 7, 12)`` gave
    -1.0000001, and -2.4e-07 where the point is 0)."""
    held = xp.__array_namespace_info__().dtypes(kind="real floating")
    for name in ("float32", "float64"):
        if name not in held:
            continue
        for start, stop, num in ((-4, 7, 12), (8, -3, 12), (0.5, 6.0, 12), (-10, 10, 41)):
            got = values(xp.linspace(start, stop, num, dtype=getattr(xp, name)))
            assert np.array_equal(got, np.linspace(start, stop, num).astype(name)), (name, got)
        got = values(xp.linspace(-4, 8, 12, dtype=getattr(xp, name), endpoint=False))
        assert np.array_equal(got, np.arange(-4, 8, dtype=name)), (name, got)
