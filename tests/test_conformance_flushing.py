"""The suite's flush-to-zero allowance (`conformance.strategies.Call.flushed`): what a
TensorFlow or JAX kernel computes with when it flushes subnormal inputs to zero.  Python
scalars count at the precision of the arrays beside them, complex ones part by part."""

from __future__ import annotations

import math

import numpy as np

from conformance.strategies import Call


def _signs(z: complex) -> tuple[float, float]:
    return math.copysign(1, z.real), math.copysign(1, z.imag)


def test_arrays_are_flushed_part_by_part_keeping_the_sign() -> None:
    x = np.array([complex(-1e-310, 2.0), complex(1.0, math.inf)])
    flushed = Call((x,)).flushed()
    assert flushed is not None
    got = flushed.args[0]
    assert got.dtype == x.dtype and got[1] == x[1]  # not re + 1j * im (1j * inf is NaN)
    assert got[0] == complex(0.0, 2.0) and _signs(complex(got[0])) == (-1.0, 1.0)


def test_a_complex_python_scalar_is_flushed() -> None:
    flushed = Call((np.array(0j), complex(3.0, -1.1125369292536007e-308))).flushed()
    assert flushed is not None
    scalar = flushed.args[1]
    assert scalar == complex(3.0, 0.0) and _signs(scalar) == (1.0, -1.0)


def test_a_python_scalar_takes_the_precision_of_the_arrays() -> None:
    # 1e-40 is normal in float64 but subnormal in float32, which a float32 array gives it
    assert Call((np.array([1.0]), 1e-40)).flushed() is None
    single = Call((np.array([1.0], np.float32), -1e-40)).flushed()
    assert single is not None and single.args[1] == 0.0 and math.copysign(1, single.args[1]) < 0
    mixed = Call((np.array([1.0], np.float32), np.array([1.0]), 1e-40)).flushed()
    assert mixed is None  # a float64 array beside: the scalar is float64
    assert Call((np.array([1.0], np.complex64), complex(1e-40, 2.0))).flushed() is not None


def test_nothing_to_flush_is_none() -> None:
    assert Call((np.array([1.0, 0.0, -0.0, math.inf]), 2.5, 1j)).flushed() is None
