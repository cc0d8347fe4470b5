"""A complex array to a Python int power, against NumPy.

NumPy (``npy_cpow``) and Python raise a complex number to an integer power ``|n| < 100``
by squaring and multiplying, so a purely imaginary ``x`` squared is real with an
imaginary part of exactly 0.  torch, TensorFlow and MLX computed ``exp(n * log(x))``,
which leaves ``1e-16`` there; SciPy's ``poly`` of conjugate zeros then kept odd
coefficients that cancel exactly elsewhere (``signal`` ``TestCheby2::test_ba_output`` and
``TestEllip::test_ba_output`` on torch, issue 37).  Every backend, in both flavours and
through the ``**`` operator, now gives NumPy's values: zeros exactly where NumPy's are
zero, and the rest within a few ulps.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

BASES = [1.0514622242382672j, -1.7013016167040798j, 0.3 + 0.7j, -2.5 + 0j, 1e-3 + 2j,
         -0.0 - 1.25j, 3.0 + 0j, 0j, 1 + 1j]  # fmt: skip
EXPONENTS = [0, 1, 2, 3, 4, 5, 7, 8, 13, 31, 99, -1, -2, -3, -7, 2.0, 3.0, -2.0]
ULPS = {"complex64": 2e-6, "complex128": 1e-14}


def _power(xp: ModuleType, x: object, n: object, operator: bool) -> np.ndarray:
    return values(x ** n if operator else xp.pow(x, n))  # type: ignore[operator]


@pytest.mark.parametrize("n", EXPONENTS, ids=repr)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_array_to_a_python_int_power(xp: ModuleType, dtype: str, n: float) -> None:
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    base = np.asarray(BASES, dtype=dtype)
    with np.errstate(all="ignore"):
        expected = np.power(base, n)
    x = xp.asarray(base)
    forms = [False] if xp.__name__.startswith("eagerpy_xp.native.") else [False, True]
    for operator in forms:
        got = _power(xp, x, n, operator)
        assert got.dtype == expected.dtype
        finite = np.isfinite(expected)
        wide, reference = got.astype(np.complex128), expected.astype(np.complex128)
        scale = np.maximum(np.abs(reference[finite]), 1e-300)
        error = np.abs(wide[finite] - reference[finite]) / scale
        assert error.max(initial=0) <= ULPS[dtype] * max(1, abs(int(n))), (operator, got)
        # zeros exactly where NumPy's are: the real or imaginary part of a power of a
        # purely real or purely imaginary base (the first six have an exact zero part)
        for k in range(len(BASES)):
            if not finite[k]:
                continue
            if expected[k].imag == 0:
                assert got[k].imag == 0, (k, operator, got[k])
            if expected[k].real == 0:
                assert got[k].real == 0, (k, operator, got[k])


def test_a_zero_power_is_one_even_of_nan(xp: ModuleType) -> None:
    x = xp.asarray([complex("nan"), 0j, 2 + 3j], dtype=xp.complex64)
    assert values(xp.pow(x, 0)).tolist() == [1 + 0j, 1 + 0j, 1 + 0j]


def test_other_exponents_keep_the_general_power(xp: ModuleType) -> None:
    """A fractional exponent and one of 100 or more are not by multiplication."""
    base = np.asarray([0.3 + 0.7j, -1.2 + 0j, 1 + 0.5j], dtype=np.complex64)
    x = xp.asarray(base)
    for n in (0.5, 2.5, 100, -100):
        expected = np.power(base.astype(np.complex128), n)
        got = values(xp.pow(x, n)).astype(np.complex128)
        np.testing.assert_allclose(got, expected, rtol=1e-5 * max(1, abs(n)))
