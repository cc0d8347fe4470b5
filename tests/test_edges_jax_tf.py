"""Edge cases of the JAX and TensorFlow backends that an outside conformance suite found
(issue 13): signed zeros and infinities of complex special cases, zero-size ``tensordot``,
DLPack versions, ``asarray(copy=False)``.  Both flavours; JAX with x64 on (thread-local).
"""

from __future__ import annotations

import ctypes
import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("jax", "tensorflow")


xp = namespaces(*BACKENDS)


def same(actual: Any, expected: Any) -> None:
    """Equal values (NaNs equal) with the same signs of zero in both parts."""
    a, e = values(actual), np.asarray(expected)
    assert a.dtype == e.dtype, (a.dtype, e.dtype)
    np.testing.assert_array_equal(a, e)
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.signbit(part(a)), np.signbit(part(e)))


def complexes(*pairs: tuple[float, float], dtype: str = "complex128") -> np.ndarray:
    out = np.empty(len(pairs), dtype)
    out.real, out.imag = [p[0] for p in pairs], [p[1] for p in pairs]
    return out


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_of_a_complex_zero_is_positive_zero(xp: ModuleType, dtype: str) -> None:
    x = complexes((-0.0, -0.0), (-0.0, 0.0), (0.0, -0.0), (0.0, 0.0), (-3.0, -0.0), dtype=dtype)
    want = complexes((0, 0), (0, 0), (0, 0), (0, 0), (-1.0, -0.0), dtype=dtype)
    same(xp.sign(xp.asarray(x)), want)


@pytest.mark.parametrize(("dtype", "big"), [("complex64", 4.5e30), ("complex128", 4.5e152)])
def test_tanh_at_infinite_real_part(xp: ModuleType, dtype: str, big: float) -> None:
    """tanh(±inf + yj) = ±1 + 0j with y's sign, for every finite y (the kernels give the
    zero the sign of sin(2y), negative for y = 2 or 3)."""
    ys = [0.0, -0.0, 1.0, 2.0, 3.0, -2.0, big, -big]
    x = complexes(*[(s * np.inf, y) for s in (1, -1) for y in ys], dtype=dtype)
    want = complexes(*[(s, np.copysign(0.0, y)) for s in (1.0, -1.0) for y in ys], dtype=dtype)
    same(xp.tanh(xp.asarray(x)), want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_expm1_of_a_complex_zero(xp: ModuleType, dtype: str) -> None:
    x = complexes((0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), dtype=dtype)
    want = complexes((0.0, 0.0), (0.0, 0.0), (0.0, -0.0), (0.0, -0.0), dtype=dtype)
    same(xp.expm1(xp.asarray(x)), want)


@pytest.mark.parametrize(("s1", "s2", "axes"), [
    ((0,), (0,), 1), ((0, 3), (3,), 1), ((3, 0), (0,), 1), ((2, 0), (0, 3), 1),
    ((0,), (3,), 0), ((2, 0, 3), (0, 3, 4), 2), ((0, 2), (0, 2), ([0], [0])),
    ((2, 3), (3, 0), 1), ((0, 3), (3, 0), 1)])  # fmt: skip
def test_tensordot_with_zero_size_operands(xp: ModuleType, s1: Any, s2: Any, axes: Any) -> None:
    a = np.arange(np.prod(s1), dtype="float64").reshape(s1)
    b = np.arange(np.prod(s2), dtype="float64").reshape(s2)
    same(xp.tensordot(xp.asarray(a), xp.asarray(b), axes=axes), np.tensordot(a, b, axes=axes))


def _capsule_name(capsule: Any) -> bytes:
    get = ctypes.pythonapi.PyCapsule_GetName
    get.restype, get.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get(capsule)  # type: ignore[no-any-return]


@pytest.mark.parametrize("version", [(0, 0), (0, 8)])
def test_dlpack_below_1_0_gives_the_legacy_capsule(xp: ModuleType, version: Any) -> None:
    """The standard lets a producer return another version than ``max_version``; for a
    consumer of DLPack 0.x every backend returns the legacy capsule (as NumPy does)."""
    if xp.__name__ == "eagerpy_xp.native.jax":
        pytest.skip("a native jax.Array's __dlpack__ is JAX's own method, not eagerpy_xp's")
    x = xp.asarray(np.arange(3.0))
    assert _capsule_name(x.__dlpack__(max_version=version)) == b"dltensor"
    assert _capsule_name(x.__dlpack__(max_version=(1, 0))) in (b"dltensor", b"dltensor_versioned")


def test_native_asarray_copy_false_returns_the_array_itself() -> None:
    """The backend side of ``asarray(x, copy=False)``: an immutable native array that needs
    no conversion is returned as it is (no copy)."""
    for backend in BACKENDS:
        nx = importlib.import_module(f"eagerpy_xp.native.{backend}")
        x = nx.asarray(np.arange(3, dtype="float32"))
        assert nx.asarray(x, copy=False) is x
        assert nx.asarray(x, copy=False, dtype=nx.float32) is x
        with pytest.raises(ValueError, match="copy"):
            nx.asarray(x, copy=False, dtype=nx.int32)


@pytest.mark.parametrize("backend", [*BACKENDS, "numpy", "torch"])
def test_wrapped_asarray_copy_false_sees_later_writes(backend: str) -> None:
    wx = importlib.import_module(f"eagerpy_xp.{backend}")
    x = wx.asarray(np.zeros(3, dtype="float32"))
    y = wx.asarray(x, copy=False)
    x[0] = 1.0
    assert values(y)[0] == 1.0
    assert wx.asarray(x) is x and wx.asarray(x, dtype=x.dtype, device=x.device) is x
    z = wx.asarray(x, copy=True)
    x[1] = 2.0
    assert values(z)[1] == 0.0  # a copy does not see the write
    assert wx.asarray(x, dtype=wx.float64 if backend != "jax" else wx.int32) is not x


@pytest.mark.parametrize("offset", [0, 1, -1, 5])
def test_diagonal_of_zero_size_stacks(xp: ModuleType, offset: int) -> None:
    a = np.zeros((0, 2, 3))
    same(xp.linalg.diagonal(xp.asarray(a), offset=offset),
         np.diagonal(a, offset=offset, axis1=-2, axis2=-1))  # fmt: skip
