"""``arange`` with a complex ``dtype``, against NumPy.

NumPy, JAX, TensorFlow, Dask and MLX make ``arange(27, dtype=complex128)``; torch has no
complex kernel ("arange_cpu" not implemented for 'ComplexDouble': SciPy's
``signal`` ``TestConvolve::test_input_swapping``, issue 37).  eagerpy_xp's torch backend now
counts in the matching real dtype and casts.  Every backend, in both flavours, gives
NumPy's values (real parts; imaginary parts zero) and the dtype asked for, for every
form of the arguments: one bound, two, a floating step, a negative step, empty ranges.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

ARGUMENTS = [(5,), (0,), (1, 4), (-3, 3), (0.5, 3, 0.75), (5, 0, -2), (2.5, -1.0, -0.5),
             (4, 1), (0, 1, 0.1), (1, 7, 3), (0.0, 2**20, 2**18)]  # fmt: skip


@pytest.mark.parametrize("args", ARGUMENTS, ids=repr)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_arange_of_a_complex_dtype(xp: ModuleType, dtype: str, args: tuple[Any, ...]) -> None:
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    expected = np.arange(*args, dtype=dtype)
    got = xp.arange(*args, dtype=ours)
    assert got.dtype == ours
    got_values = values(got)
    assert got_values.shape == expected.shape
    assert got_values.dtype == expected.dtype
    tolerance = 1e-6 if dtype == "complex64" else 1e-14
    np.testing.assert_allclose(got_values.real, expected.real, rtol=tolerance, atol=tolerance)
    assert np.all(got_values.imag == 0)


def test_arange_of_a_complex_dtype_takes_complex_arithmetic(xp: ModuleType) -> None:
    """The result is an ordinary array of its dtype: complex arithmetic keeps it."""
    x = xp.arange(3, dtype=xp.complex64)
    y = x * (1j) + x
    assert y.dtype == xp.complex64
    assert values(y).tolist() == [0j, 1 + 1j, 2 + 2j]
