"""The JAX backend, both flavours, with 64-bit types off and on.

x64 is switched per test with the thread-local ``jax.enable_x64`` context (the global switch
is never flipped); `test_x64_from_the_environment` checks the ``JAX_ENABLE_X64`` variable
itself in subprocesses.
"""

from __future__ import annotations

import inspect
import math
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed: nothing to test here")
jnp = jax.numpy

import array_api_strict as xs  # noqa: E402

import eagerpy_xp as ep  # noqa: E402
import eagerpy_xp.jax as wx  # noqa: E402
import eagerpy_xp.native.jax as nx  # noqa: E402
from eagerpy_xp import _spec  # noqa: E402

BITS64 = ("int64", "uint64", "float64", "complex128")
DTYPES32 = ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float32", "complex64")


@pytest.fixture(params=[False, True], ids=["x64off", "x64on"])
def x64(request: pytest.FixtureRequest) -> Iterator[bool]:
    with jax.enable_x64(request.param):
        yield request.param


@pytest.fixture(params=["native", "wrapped"])
def xp(request: pytest.FixtureRequest) -> ModuleType:
    return nx if request.param == "native" else wx


def values(x: Any) -> Any:
    """A NumPy copy of a native array or an `Array`."""
    return np.asarray(x.raw if isinstance(x, ep.Array) else x)


def same(actual: Any, expected: Any) -> None:
    """Equal values, NaNs in the same places and the same signs of zero."""
    a, e = values(actual), np.asarray(expected, dtype=values(actual).dtype)
    np.testing.assert_array_equal(a, e)
    for part in (np.real, np.imag) if a.dtype.kind == "c" else (np.asarray,):
        np.testing.assert_array_equal(np.signbit(part(a)), np.signbit(part(e)))


# -- the namespace ------------------------------------------------------------------------------
def test_every_name_of_the_standard(xp: ModuleType) -> None:
    for name in (*_spec.FUNCTIONS, *_spec.CONSTANTS, *_spec.DTYPES):
        assert hasattr(xp, name), name
    for name in _spec.LINALG:
        assert callable(getattr(xp.linalg, name)), name
    for name in _spec.FFT:
        assert callable(getattr(xp.fft, name)), name
    assert xp.__array_api_version__ == "2025.12"
    info = xp.__array_namespace_info__()
    for name in _spec.INFO_METHODS:
        assert callable(getattr(info, name)), name


def test_signatures_follow_the_spec() -> None:
    for module in (nx, wx):
        for name, text in _spec.FUNCTIONS.items():
            params = text.partition("(")[2].rstrip(")")
            spec_names = [p.split("=")[0].strip(" */") for p in params.split(",")]
            got = list(inspect.signature(getattr(module, name)).parameters)
            assert got == [n for n in spec_names if n], (module.__name__, name, got)


def test_detection_of_arrays_and_tracers() -> None:
    x = jnp.ones(2)
    assert ep.get_namespace(x) is nx
    assert ep.get_namespace(ep.astensor(x)) is wx
    assert ep.astensor(x).__array_namespace__() is wx
    seen: list[ModuleType] = []

    def f(t: Any) -> Any:
        seen.append(ep.get_namespace(t))
        return t

    jax.jit(f)(x)
    jax.vmap(f)(x)
    jax.grad(lambda t: f(t).sum())(x)
    assert seen == [nx, nx, nx]


# -- dtypes and x64 ---------------------------------------------------------------------------
def test_dtypes_are_numpy_dtypes(xp: ModuleType) -> None:
    assert xp.float32 == jnp.ones(1, dtype=jnp.float32).dtype
    assert xp.asarray([1.0], dtype=jnp.float32).dtype == xp.float32
    assert xp.isdtype(jnp.int8, "signed integer")
    assert xp.zeros(2, dtype=xp.uint8).dtype == xp.uint8
    with pytest.raises(TypeError, match=r"eagerpy_xp\.jax\.zeros: unsupported dtype"):
        xp.zeros(2, dtype=jnp.bfloat16)


def test_info_follows_x64(xp: ModuleType, x64: bool) -> None:
    info = xp.__array_namespace_info__()
    names = tuple(info.dtypes())
    assert names == (tuple(_spec.DTYPES) if x64 else DTYPES32)
    assert all(info.dtypes()[n] == getattr(xp, n) for n in names)
    bits = "64" if x64 else "32"
    assert info.default_dtypes() == {
        "real floating": getattr(xp, f"float{bits}"),
        "complex floating": getattr(xp, "complex128" if x64 else "complex64"),
        "integral": getattr(xp, f"int{bits}"),
        "indexing": getattr(xp, f"int{bits}"),
    }
    assert tuple(info.dtypes(kind="real floating")) == (("float32", "float64") if x64 else ("float32",))
    assert info.devices() == ("cpu",) and info.default_device() == "cpu"
    assert info.capabilities()["boolean indexing"] is True


def test_defaults_follow_x64(xp: ModuleType, x64: bool) -> None:
    bits = 64 if x64 else 32
    assert xp.asarray(1.5).dtype == np.dtype(f"float{bits}")
    assert xp.asarray([1, 2]).dtype == np.dtype(f"int{bits}")
    assert xp.asarray(1j).dtype == np.dtype(f"complex{2 * bits}")
    assert xp.arange(3).dtype == np.dtype(f"int{bits}")
    assert xp.zeros(2).dtype == np.dtype(f"float{bits}")
    assert xp.fft.fftfreq(4).dtype == np.dtype(f"float{bits}")
    assert xp.searchsorted(xp.asarray([1.0, 2.0]), xp.asarray([1.5])).dtype == np.dtype(f"int{bits}")
    assert xp.sum(xp.asarray([1, 2], dtype=xp.int8)).dtype == np.dtype(f"int{bits}")
    assert xp.cumulative_prod(xp.asarray([1, 2], dtype=xp.uint8)).dtype == np.dtype(f"uint{bits}")


def _requests_for_64bit(xp: ModuleType, dtype: Any) -> list[Callable[[], Any]]:
    x = xp.asarray([1, 2], dtype=xp.int32)
    return [
        lambda: xp.asarray([1, 2], dtype=dtype),
        lambda: xp.zeros(2, dtype=dtype),
        lambda: xp.ones((2,), dtype=dtype),
        lambda: xp.empty(2, dtype=dtype),
        lambda: xp.full(2, 1, dtype=dtype),
        lambda: xp.arange(3, dtype=dtype),
        lambda: xp.linspace(0, 1, 3, dtype=dtype),
        lambda: xp.eye(2, dtype=dtype),
        lambda: xp.zeros_like(x, dtype=dtype),
        lambda: xp.astype(x, dtype),
        lambda: xp.sum(x, dtype=dtype),
        lambda: xp.cumulative_sum(x, dtype=dtype),
        lambda: xp.linalg.trace(xp.reshape(xp.arange(4, dtype=xp.int32), (2, 2)), dtype=dtype),
    ]


@pytest.mark.parametrize("name", BITS64)
def test_64bit_requests_without_x64_raise(xp: ModuleType, name: str) -> None:
    with jax.enable_x64(False):
        dtype = getattr(xp, name)
        for request in _requests_for_64bit(xp, dtype):
            with pytest.raises(ValueError, match=f"{name} is not available.*JAX_ENABLE_X64=1"):
                request()
        if name.startswith("float"):
            with pytest.raises(ValueError, match="jax_enable_x64"):
                xp.fft.fftfreq(4, dtype=dtype)


@pytest.mark.parametrize("name", BITS64)
def test_64bit_requests_with_x64_work(xp: ModuleType, name: str) -> None:
    with jax.enable_x64(True):
        dtype = getattr(xp, name)
        for request in _requests_for_64bit(xp, dtype):
            assert request().dtype == dtype


@pytest.mark.parametrize("name", ["float64", "int64", "complex128", "uint64"])
def test_host_64bit_arrays_are_never_downcast(xp: ModuleType, x64: bool, name: str) -> None:
    """Without a dtype, a 64-bit NumPy array stays 64-bit with x64 and raises without it
    (no silent downcast), naming the fix; an explicit 32-bit dtype converts."""
    host = np.array([1, 2]).astype(name)
    if x64:
        assert xp.asarray(host).dtype == getattr(xp, name)
        assert values(xp.asarray(host)).tolist() == host.tolist()
    else:
        with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.asarray: .*JAX_ENABLE_X64=1"):
            xp.asarray(host)
        with pytest.raises(ValueError, match="JAX_ENABLE_X64=1"):
            xp.asarray(host[0])
    small = name.replace("64", "32").replace("complex128", "complex64")
    assert xp.asarray(host, dtype=getattr(xp, small)).dtype == getattr(xp, small)


def _mode_report() -> list[str]:
    return [str(len(wx.__array_namespace_info__().dtypes())), str(wx.asarray(1.0).dtype),
            str(jax.config.jax_enable_x64)]  # fmt: skip


def test_x64_from_the_environment() -> None:
    """This process's mode comes from its environment; a subprocess checks the other one."""
    here = jax.config.jax_enable_x64
    assert _mode_report() == (["13", "float64", "True"] if here else ["9", "float32", "False"])
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    if not here:
        env["JAX_ENABLE_X64"] = "1"
    code = "from tests.test_jax import _mode_report; print(*_mode_report())"
    other = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True, cwd=Path(__file__).parents[1])  # fmt: skip
    assert other.stdout.split() == (["9", "float32", "False"] if here else
                                    ["13", "float64", "True"])  # fmt: skip


def test_python_scalars_give_strongly_typed_arrays(xp: ModuleType, x64: bool) -> None:
    small = xp.asarray([1, 2], dtype=xp.int8)
    for made in (xp.asarray(3), xp.full((2,), 3), xp.arange(2)):
        assert not values(made).dtype == xp.int8
        assert (made + small if xp is wx else xp.add(made, small)).dtype == made.dtype
    assert xp.add(xp.asarray(1.0), xp.asarray([1j], dtype=xp.complex64)).dtype == (
        xp.complex128 if x64 else xp.complex64
    )
    assert not getattr(ep.astensor(jnp.asarray(2.0)).raw, "weak_type", False)


def test_result_type_follows_x64(xp: ModuleType, x64: bool) -> None:
    a, b = xp.ones(2, dtype=xp.int32), xp.ones(2, dtype=xp.uint32)
    assert xp.result_type(a, b) == xp.add(a, b).dtype == (xp.int64 if x64 else xp.int32)
    assert xp.result_type(xp.int8, xp.uint8, 1) == xp.int16
    assert xp.result_type(xp.float32, xp.complex64) == xp.complex64
    # a float with an integer dtype: the default floating dtype, as `add` gives it
    assert xp.result_type(xp.int8, 1.5) == xp.add(xp.ones(2, dtype=xp.int8), 1.5).dtype == (
        xp.float64 if x64 else xp.float32
    )


def test_finfo_iinfo(xp: ModuleType) -> None:
    f = xp.finfo(xp.float32)
    assert (f.bits, f.eps, f.dtype) == (32, float(np.finfo(np.float32).eps), xp.float32)
    assert f.smallest_normal == float(np.finfo(np.float32).smallest_normal)
    assert xp.finfo(xp.complex64).dtype == xp.float32
    assert xp.finfo(xp.ones(1, dtype=xp.float32)).max == float(np.finfo(np.float32).max)
    assert xp.finfo(jnp.float32).bits == 32
    assert xp.finfo(xp.float64).bits == 64
    i = xp.iinfo(xp.int8)
    assert (i.bits, i.min, i.max, i.dtype) == (8, -128, 127, xp.int8)
    # a dtype finfo does not take: a TypeError (docs/errors.md; a ValueError before issue 15)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.jax\.finfo: int32 is not a floating-point dtype"):
        xp.finfo(xp.int32)


def test_astype(xp: ModuleType) -> None:
    x = xp.asarray([1.7, -2.5])
    assert values(xp.astype(x, xp.int32)).tolist() == [1, -2]
    assert xp.astype(x, xp.complex64).dtype == xp.complex64
    with pytest.raises(TypeError, match=r"eagerpy_xp\.jax\.astype:.*imaginary"):
        xp.astype(xp.asarray([1j]), xp.float32)
    assert xp.astype(x, x.dtype, copy=False).dtype == x.dtype
    assert xp.astype(x, xp.float32, device="cpu").dtype == xp.float32


# -- creation and copies -------------------------------------------------------------------
def test_asarray_copies(xp: ModuleType) -> None:
    native = jnp.arange(3.0)
    assert nx.asarray(native, copy=False) is native
    assert nx.asarray(native) is native
    copied = xp.asarray(native, copy=True)
    assert values(copied).tolist() == [0.0, 1.0, 2.0]
    for obj in ([1.0, 2.0], np.arange(3.0), 1.0):
        with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.asarray: copy=False"):
            xp.asarray(obj, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(native, dtype=xp.int32, copy=False)
    assert values(xp.asarray([[1, 2], [3, 4]], dtype=xp.float32)).tolist() == [[1, 2], [3, 4]]
    wrapped = wx.asarray(native)
    assert wx.asarray(wrapped, copy=False).raw is native


def test_meshgrid_and_broadcast_arrays(xp: ModuleType) -> None:
    a, b = xp.asarray([1, 2, 3]), xp.asarray([4, 5])
    grids = xp.meshgrid(a, b)
    assert type(grids) is tuple and [g.shape for g in grids] == [(2, 3), (2, 3)]
    assert [g.shape for g in xp.meshgrid(a, b, indexing="ij")] == [(3, 2), (3, 2)]
    assert values(xp.meshgrid(a, b)[1]).tolist() == [[4, 4, 4], [5, 5, 5]]
    with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.meshgrid: the arrays must share one dtype"):
        xp.meshgrid(a, xp.asarray([1.0]))
    with pytest.raises(ValueError, match="1-D"):
        xp.meshgrid(xp.reshape(a, (3, 1)))
    with pytest.raises(ValueError, match="indexing"):
        xp.meshgrid(a, indexing="xx")
    out = xp.broadcast_arrays(a, xp.reshape(b, (2, 1)))
    assert type(out) is tuple and [o.shape for o in out] == [(2, 3), (2, 3)]


def test_expand_dims_and_permute_dims(xp: ModuleType) -> None:
    x = xp.ones((2, 3))
    assert xp.expand_dims(x, axis=0).shape == (1, 2, 3)
    assert xp.expand_dims(x, axis=-1).shape == (2, 3, 1)
    assert xp.expand_dims(x, axis=(0, -1)).shape == (1, 2, 3, 1)
    assert xp.expand_dims(x, axis=(-1, -2)).shape == (2, 3, 1, 1)
    assert xp.expand_dims(x, axis=(1, 3)).shape == (2, 1, 3, 1)
    for bad in (3, -4, (0, 0), (0, -4), (0, 4)):
        with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.expand_dims:"):
            xp.expand_dims(x, axis=bad)
    y = xp.reshape(xp.arange(24), (2, 3, 4))
    assert xp.permute_dims(y, (-1, 0, 1)).shape == (4, 2, 3)
    assert values(xp.permute_dims(y, (2, -3, -2))).tolist() == np.arange(24).reshape(
        2, 3, 4).transpose(2, 0, 1).tolist()  # fmt: skip
    for bad in ((0, 0, 1), (0, 1), (0, 1, 3), (0, 1, -4)):
        with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.permute_dims:"):
            xp.permute_dims(y, bad)


def test_searchsorted_and_cumulative_prod(xp: ModuleType, x64: bool) -> None:
    x1 = xp.asarray([1.0, 2.0, 3.0])
    assert values(xp.searchsorted(x1, 2.0)).tolist() == 1
    assert values(xp.searchsorted(x1, 2.0, side="right")).tolist() == 2
    assert values(xp.searchsorted(xp.asarray([3.0, 1, 2]), xp.asarray([2.5]),
                                  sorter=xp.asarray([1, 2, 0]))).tolist() == [2]  # fmt: skip
    with pytest.raises(ValueError, match="side"):
        xp.searchsorted(x1, 2.0, side="middle")
    c = xp.cumulative_prod(xp.asarray([2, 3, 4], dtype=xp.int8), include_initial=True)
    assert c.dtype == (xp.int64 if x64 else xp.int32) and values(c).tolist() == [1, 2, 6, 24]
    s = xp.cumulative_sum(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    assert values(s).tolist() == [[1.0, 3.0], [3.0, 7.0]]


def test_pow_promotes_like_the_standard(xp: ModuleType) -> None:
    small = xp.asarray(3, dtype=xp.int16)
    assert xp.pow(small, xp.asarray(2, dtype=xp.int32)).dtype == xp.int32  # JAX: int16
    assert xp.pow(2, xp.asarray([3], dtype=xp.uint8)).dtype == xp.uint8  # JAX: default int
    assert values(xp.pow(xp.asarray([2, 3], dtype=xp.int8), 2)).tolist() == [4, 9]
    assert xp.pow(xp.asarray([2.0], dtype=xp.float32), 0.5).dtype == xp.float32


def test_pow_of_a_zero_base_with_a_complex_exponent(xp: ModuleType) -> None:
    """``0 ** w`` with ``real(w) > 0`` is ``exp(w * log(0)) = exp(-inf + ...) = 0``, also
    for a non-real or huge ``w`` (XLA gives NaN + NaN j there); the reference agrees."""
    dtype = xp.complex64
    base = xp.asarray([0.0, -0.0, 0.0, 0.0], dtype=xp.float32)
    exponent = xp.asarray([2.8e37 + 2.8e37j, 2 - 1j, 0.5 + 0j, 2 + 0j], dtype=dtype)
    got = values(xp.pow(base, exponent))
    assert got.dtype == np.complex64 and got.tolist() == [0j] * 4
    assert not np.signbit(got.real).any() and not np.signbit(got.imag).any()
    expected = np.asarray(xs.pow(xs.asarray([0.0, -0.0, 0.0, 0.0], dtype=xs.float32),
                                 xs.asarray([2.8e37 + 2.8e37j, 2 - 1j, 0.5 + 0j, 2 + 0j],
                                            dtype=xs.complex64)))  # fmt: skip
    assert expected.tolist() == got.tolist()
    one = values(xp.pow(xp.asarray(0.0 + 0j, dtype=dtype), xp.asarray(0j, dtype=dtype)))
    assert one == 1  # real(w) == 0 is not covered: 0 ** 0 stays 1


def test_pow_of_integers_to_negative_powers(xp: ModuleType) -> None:
    """Unspecified by the standard; JAX raised `TypeError` for any concrete negative integer
    exponent, even on an empty array (60-example run, seed 6001: empty int8 ``**= -1``).
    Now as torch and TensorFlow: 1 for base 1, ±1 for base -1, else 0."""
    base = xp.asarray([2, 1, -1, -1, 0, 3], dtype=xp.int8)
    exponent = xp.asarray([-1, -1, -1, -2, -1, -3], dtype=xp.int8)
    got = xp.pow(base, exponent)
    assert got.dtype == xp.int8 and values(got).tolist() == [0, 1, -1, 1, 0, 0]
    assert values(xp.pow(base, -1)).tolist() == [0, 1, -1, -1, 0, 0]
    assert values(xp.pow(base, xp.asarray(-2, dtype=xp.int8))).tolist() == [0, 1, 1, 1, 0, 0]
    mixed = xp.asarray([0, 1, 2, 3, -1, 2], dtype=xp.int8)  # non-negative entries unchanged
    assert values(xp.pow(base, mixed)).tolist() == [1, 1, 1, -1, 0, 9]
    assert values(xp.pow(xp.asarray([2, 1], dtype=xp.uint8), xp.asarray(-1, dtype=xp.int8))
                  ).tolist() == [0, 1]  # promoted to int16 # fmt: skip
    with pytest.raises(OverflowError, match="the Python int -1 does not fit uint8"):
        xp.pow(xp.asarray([2, 1], dtype=xp.uint8), -1)  # as every backend (docs/errors.md)
    empty = xp.zeros(0, dtype=xp.int8)
    assert xp.pow(empty, -1).dtype == xp.int8 and xp.pow(empty, -1).shape == (0,)
    if xp is wx:
        x = wx.zeros(0, dtype=wx.int8)
        x **= -1
        assert x.dtype == wx.int8 and x.shape == (0,)
    assert values(jax.jit(nx.pow)(nx.asarray(base), nx.asarray(exponent))).tolist() == [
        0, 1, -1, 1, 0, 0]


def test_all_any_of_complex(xp: ModuleType) -> None:
    z = xp.asarray([5.5j, 1 + 0j], dtype=xp.complex64)  # JAX looks at real parts only
    assert bool(values(xp.all(z))) and bool(values(xp.any(z[:1], axis=0)))
    assert values(xp.all(z, axis=())).tolist() == [True, True]
    assert not bool(values(xp.any(xp.asarray([0j, -0j]))))


# -- element-wise special cases --------------------------------------------------------------
INF, NAN = math.inf, math.nan


def test_floor_divide_special_cases(xp: ModuleType, x64: bool) -> None:
    dtype = xp.float64 if x64 else xp.float32
    x1 = xp.asarray([1.0, -1.0, -0.0, -0.0, 0.0, INF, 7.0, -7.0, 1.0, -1.0], dtype=dtype)
    x2 = xp.asarray([-INF, INF, 1.0, -1.0, -2.0, 2.0, 2.0, 2.0, 0.0, -0.0], dtype=dtype)
    same(xp.floor_divide(x1, x2), [-0.0, -0.0, -0.0, 0.0, -0.0, INF, 3.0, -4.0, INF, INF])
    same(xp.floor_divide(xp.asarray([7, -7]), 2), [3, -4])


def test_remainder_sign_of_zero(xp: ModuleType) -> None:
    x1 = xp.asarray([0.0, -0.0, 1.0, -1.0, 5.0, -5.0])
    x2 = xp.asarray([-1.0, 1.0, -1.0, 1.0, 3.0, 3.0])
    same(xp.remainder(x1, x2), [-0.0, 0.0, -0.0, 0.0, 2.0, 1.0])
    same(xp.remainder(xp.asarray([-5, 5]), 3), [1, 2])


def test_sign_of_zero(xp: ModuleType) -> None:
    same(xp.sign(xp.asarray([-0.0, 0.0, -3.0, 2.0, NAN])), [0.0, 0.0, -1.0, 1.0, NAN])
    same(xp.sign(xp.asarray([-3, 0, 4], dtype=xp.int8)), [-1, 0, 1])


PARTS = [0.0, -0.0, INF, -INF, NAN, 1.0, -2.0, 1e300]
GRID = np.array([complex(a, b) for a in PARTS for b in PARTS])
COMPLEX_FUNCTIONS = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh",
                     "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt",
                     "tan", "tanh"]  # fmt: skip
NUMPY_NAMES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
               "atan": "arctan", "atanh": "arctanh"}  # fmt: skip


def _components_agree(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    both_nan = np.isnan(actual) & np.isnan(expected)
    close = np.isclose(actual, expected, rtol=1e-12, atol=0) & (
        np.signbit(actual) == np.signbit(expected))  # fmt: skip
    return both_nan | close


def _magnitudes(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    out.real, out.imag = abs(z.real), abs(z.imag)
    return out


@pytest.mark.parametrize("name", COMPLEX_FUNCTIONS)
def test_complex_special_cases(name: str) -> None:
    """Signed zeros, infinities and NaNs as C99 (NumPy) and the standard have them."""
    with jax.enable_x64(True):
        actual = values(getattr(nx, name)(jnp.asarray(GRID)))
    with np.errstate(all="ignore"):
        expected = getattr(np, NUMPY_NAMES.get(name, name))(GRID)
    # where NumPy differs from the standard: expm1(-0 + 0j) is +0 + 0j, and
    # tanh(±inf + yj) for finite y is ±1 + 0j with y's sign (NumPy: the sign of sin(2y))
    if name == "expm1":
        zero = GRID == 0
        expected.real[zero], expected.imag[zero] = 0.0, GRID.imag[zero]
    if name == "tanh":
        edge = np.isinf(GRID.real) & np.isfinite(GRID.imag)
        expected.real[edge] = np.sign(GRID.real[edge])
        expected.imag[edge] = np.copysign(0.0, GRID.imag[edge])
    if name == "tan":  # -1j tanh(1j z): tan(a ± inf j), a finite, is copysign(0, a) ± 1j
        edge = np.isfinite(GRID.real) & np.isinf(GRID.imag)
        expected.real[edge] = np.copysign(0.0, GRID.real[edge])
        expected.imag[edge] = np.sign(GRID.imag[edge])
    if name == "abs":
        assert _components_agree(actual, expected).all()
        return
    # Beside a NaN part the sign of the other part is unspecified: compare magnitudes.
    with_nan = np.isnan(expected.real) | np.isnan(expected.imag)
    actual = np.where(with_nan, _magnitudes(actual), actual)
    expected = np.where(with_nan, _magnitudes(expected), expected)
    ok = _components_agree(actual.real, expected.real) & _components_agree(
        actual.imag, expected.imag)  # fmt: skip
    unspecified = np.zeros(GRID.shape, dtype=bool)
    if name == "atanh":  # atanh(NaN + inf j) is "+-0 + pi/2 j"
        unspecified = np.isnan(GRID.real) & np.isinf(GRID.imag)
    if name == "expm1":  # NumPy differs from the standard on non-finite input and overflow
        unspecified = ~np.isfinite(GRID) | (abs(GRID.real) > 1e3)
    bad = ~ok & ~unspecified
    assert not bad.any(), list(zip(GRID[bad], actual[bad], expected[bad]))


def test_complex_sinh_of_tiny_values(xp: ModuleType) -> None:
    z = np.array([3.9e-11 + 0j, 1e-20 - 2e-20j, 0.5 - 0.25j], dtype=np.complex64)
    np.testing.assert_allclose(values(xp.sinh(xp.asarray(z))), np.sinh(z), rtol=1e-6)


def test_expm1_complex_special_cases() -> None:
    x = jnp.asarray([complex(INF, 0.0), complex(-INF, INF), complex(-INF, NAN),
                     complex(NAN, 0.0), complex(0.0, INF), complex(-0.0, 0.0)])  # fmt: skip
    result = values(nx.expm1(x))
    assert np.isinf(result[0].real) and result[0].imag == 0
    assert result[1].real == -1 and result[2].real == -1 and result[1].imag == 0
    assert np.isnan(result[3].real) and result[3].imag == 0
    assert np.isnan(result[4].real) and np.isnan(result[4].imag)
    same(result[5:], [complex(0.0, 0.0)])  # the standard: +0 + 0j for a ±0 real part


# -- differential check against array_api_strict ------------------------------------------
A = np.array([[0.5, -1.25, 2.0], [3.0, -0.0, 1.5]])
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
ZC = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j, 0.5j])
CASES: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("argmax", (A,), {"axis": 1, "keepdims": True}),
    ("argsort", (np.array([3, 1, 3, 2]),), {"descending": True}),
    ("clip", (A,), {"min": -1.0, "max": 1.0}),
    ("concat", ([A, A],), {"axis": None}),
    ("count_nonzero", (A,), {"axis": 0}),
    ("cumulative_sum", (A,), {"axis": 0, "include_initial": True}),
    ("diff", (A,), {"n": 2, "prepend": np.zeros((2, 1))}),
    ("flip", (A,), {"axis": (0, 1)}),
    ("isin", (np.array([1, 2, 3]), np.array([2, 5])), {}),
    ("matmul", (A, A.T), {}),
    ("max", (A,), {"axis": 0, "keepdims": True}),
    ("mean", (A,), {"axis": -1}),
    ("moveaxis", (A[None], 0, -1), {}),
    ("nonzero", (A,), {}),
    ("prod", (A,), {"axis": 1}),
    ("repeat", (A, np.array([2, 1])), {"axis": 0}),
    ("reshape", (A, (3, -1)), {}),
    ("roll", (A, (1, -1)), {"axis": (0, 1)}),
    ("sort", (A,), {"axis": 0, "descending": True}),
    ("squeeze", (A[None],), {"axis": 0}),
    ("stack", ([A, A],), {"axis": -1}),
    ("std", (A,), {"axis": 0, "correction": 1}),
    ("take", (A, np.array([2, 0])), {"axis": 1}),
    ("take_along_axis", (A, np.array([[2], [0]])), {"axis": 1}),
    ("tensordot", (A, A), {"axes": ([0, 1], [0, 1])}),
    ("tile", (A, (2, 1)), {}),
    ("tril", (SPD,), {"k": -1}),
    ("unique_counts", (np.array([3.0, 1.0, 3.0, 2.0]),), {}),
    ("unique_inverse", (np.array([3.0, 1.0, 3.0, 2.0]),), {}),
    ("unstack", (A,), {"axis": 1}),
    ("var", (A,), {"axis": None}),
    ("vecdot", (A, A), {}),
    ("where", (A > 0, A, np.zeros_like(A)), {}),
    ("linalg.cholesky", (SPD,), {"upper": True}),
    ("linalg.cross", (SPD, SPD[::-1]), {}),
    ("linalg.det", (SPD,), {}),
    ("linalg.eigvalsh", (SPD,), {}),
    ("linalg.inv", (SPD,), {}),
    ("linalg.matrix_norm", (A,), {"ord": "nuc"}),
    ("linalg.matrix_power", (SPD, -2), {}),
    ("linalg.matrix_rank", (SPD,), {}),
    ("linalg.outer", (A[0], A[1]), {}),
    ("linalg.pinv", (A,), {}),
    ("linalg.slogdet", (SPD,), {}),
    ("linalg.solve", (SPD, A.T), {}),
    ("linalg.svdvals", (A,), {}),
    ("linalg.trace", (SPD,), {"offset": 1}),
    ("linalg.vector_norm", (A,), {"ord": 1, "axis": 1, "keepdims": True}),
    ("fft.fft", (ZC,), {"n": 6, "norm": "ortho"}),
    ("fft.ifftn", (ZC.reshape(2, 2),), {}),
    ("fft.rfft", (A,), {"axis": 0}),
    ("fft.irfft", (ZC,), {"n": 5}),
    ("fft.hfft", (ZC,), {}),
    ("fft.fftshift", (A,), {"axes": 1}),
]


def _call(module: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
          convert: Callable[[Any], Any]) -> Any:  # fmt: skip
    function = module
    for part in name.split("."):
        function = getattr(function, part)
    conv = [([convert(a) for a in arg] if isinstance(arg, list) else
             convert(arg) if isinstance(arg, np.ndarray) else arg) for arg in args]  # fmt: skip
    return function(*conv, **{k: convert(v) if isinstance(v, np.ndarray) else v
                              for k, v in kwargs.items()})  # fmt: skip


def _flat(result: Any) -> list[Any]:
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_matches_array_api_strict(name: str, args: tuple[Any, ...],
                                  kwargs: dict[str, Any]) -> None:  # fmt: skip
    """The wrapped flavour, which runs the native functions and wraps their results."""
    xp = wx
    with jax.enable_x64(True):
        expected = _flat(_call(xs, name, args, kwargs, xs.asarray))
        actual = _flat(_call(xp, name, args, kwargs, xp.asarray))
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert isinstance(a, ep.Array)
            e = np.asarray(e)
            assert values(a).dtype == e.dtype and values(a).shape == e.shape
            np.testing.assert_allclose(values(a), e, rtol=1e-10, atol=1e-12)


# -- the Array object: indexing, mutation, conversions ----------------------------------------
def test_setitem_every_key_kind() -> None:
    x = wx.reshape(wx.arange(12.0), (3, 4))
    expected = np.arange(12.0).reshape(3, 4)
    steps: list[tuple[Any, Any]] = [
        (1, 9.0), (-1, 8.0), ((0, -1), 7.0), (slice(None, None, -2), 6.0),
        ((slice(None), slice(3, None, -2)), wx.asarray([1.0, 2.0])), (None, 5.0),
        (Ellipsis, 4.0), ((Ellipsis, 0), wx.asarray([1.0, 2.0, 3.0])),
        (wx.asarray([True, False, True]), wx.asarray([0.5, 1.5, 2.5, 3.5])),
        (wx.asarray([[True] * 4, [False] * 4, [True, False] * 2]), -1.0),
        (wx.asarray(True), 3.0), (True, 2.0), (wx.asarray(False), 1.0),
        (wx.asarray([2, 0]), wx.asarray([[1.0], [2.0]])),
        ((wx.asarray([0, 2]), wx.asarray([1, 3])), wx.asarray([-5.0, -6.0])),
        ((None, 1, slice(1, 3)), 11.0),
    ]
    for key, value in steps:
        x[key] = value
        np_key = tuple(values(k) if isinstance(k, ep.Array) else k for k in key) if isinstance(
            key, tuple) else values(key) if isinstance(key, ep.Array) else key  # fmt: skip
        expected[np_key] = values(value) if isinstance(value, ep.Array) else value
        np.testing.assert_array_equal(values(x), expected, err_msg=repr(key))
    assert x.dtype == wx.float32 or jax.config.jax_enable_x64


def test_setitem_boolean_mask_with_rows() -> None:
    x = wx.zeros((3, 2))
    x[wx.asarray([True, False, True])] = wx.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert values(x).tolist() == [[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]]


def test_setitem_drops_leading_size_one_dimensions_of_the_value() -> None:
    """As NumPy, torch, TensorFlow and array_api_strict: a (1,) value into a 0-d selection
    (JAX's ``.at[].set`` alone refuses to broadcast (1,) to ())."""
    x = wx.zeros(2, dtype=wx.float32)
    x[(0, ...)] = wx.asarray([5.0], dtype=wx.float32)
    assert values(x).tolist() == [5.0, 0.0]
    y = wx.zeros((2, 3))
    y[0:1] = wx.ones((1, 1, 3))
    y[1, 1] = wx.full((1, 1), 7.0)
    assert values(y).tolist() == [[1.0, 1.0, 1.0], [0.0, 7.0, 0.0]]
    with pytest.raises(ValueError):  # a dimension that is not 1 still has to broadcast
        y[0] = wx.ones((2, 3))
    assert values(y).tolist() == [[1.0, 1.0, 1.0], [0.0, 7.0, 0.0]]
    reference = xs.zeros(2)
    reference[(0, ...)] = xs.asarray([5.0])
    assert np.asarray(reference).tolist() == values(x).tolist()


def test_setitem_errors_leave_the_array_alone() -> None:
    x = wx.asarray([1, 2, 3])
    for key, value, kind, text in [
        (3, 0, IndexError, "index 3 is out of bounds for axis 0 with size 3"),
        (-4, 0, IndexError, "out of bounds"),
        (0, 1.5j, TypeError, "Python complex in an array of dtype int(32|64)"),
        (0, float("nan"), ValueError, "Python float nan in an array of dtype int(32|64)"),
        (0, wx.asarray(1.5j), TypeError, "without a downcast"),
        (wx.asarray([True, False]), 0, IndexError, "boolean index of shape"),
    ]:
        with pytest.raises(kind, match=text):
            x[key] = value
        assert values(x).tolist() == [1, 2, 3]
    with pytest.raises(IndexError, match=r"eagerpy_xp\.jax\.Array\.__getitem__: index 5"):
        x[5]


def test_views_do_not_alias() -> None:
    x = wx.asarray([1.0, 2.0, 3.0])
    view = x[0:2]
    native = x.raw
    x[0] = 9.0
    assert values(view).tolist() == [1.0, 2.0] and values(native).tolist() == [1.0, 2.0, 3.0]
    assert values(x).tolist() == [9.0, 2.0, 3.0]


def test_inplace_operators_rebind() -> None:
    x = wx.asarray([1.0, 2.0])
    alias = x
    x += 1
    x *= wx.asarray([2.0, 3.0])
    assert alias is x and values(x).tolist() == [4.0, 9.0]
    with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.Array\.__iadd__:"):
        x += wx.asarray([[1.0], [2.0]])
    assert values(x).tolist() == [4.0, 9.0]


def test_array_object_behaviours() -> None:
    x = wx.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert (x.shape, x.ndim, x.size, x.device) == ((2, 2), 2, 4, ep.Device("cpu"))
    assert values(x.mT).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert values(x @ x).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert values(x[::-1, -1] // 2).tolist() == [2.0, 1.0]
    assert values(2 ** wx.asarray([1, 3])).tolist() == [2, 8]
    assert values(jnp.ones(2) + wx.asarray([1.0, 2.0])).tolist() == [2.0, 3.0]
    assert float(x[1, 0]) == 3.0 and int(x[0, 1]) == 2 and bool(x[0, 0])
    assert [10, 20][wx.asarray(1)] == 20
    assert "backend=jax" in repr(x) and "4." in str(x)
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, ep.Array) and values(y).tolist() == values(x).tolist()
    assert [values(r).tolist() for r in x] == [[1.0, 2.0], [3.0, 4.0]]


def test_dlpack() -> None:
    x = wx.asarray([1.0, 2.0])
    assert tuple(int(v) for v in x.__dlpack_device__()) == (1, 0)
    assert np.from_dlpack(x).tolist() == [1.0, 2.0]
    assert values(wx.from_dlpack(np.arange(3.0))).tolist() == [0.0, 1.0, 2.0]
    assert values(nx.from_dlpack(x.raw, copy=True)).tolist() == [1.0, 2.0]
    assert x.__dlpack__(max_version=(1, 0), dl_device=(1, 0)) is not None
    with pytest.raises(BufferError, match=r"DLPack device \(2, 0\) without a copy"):
        x.__dlpack__(dl_device=(2, 0), copy=False)
    with pytest.raises(BufferError, match="stream"):
        x.__dlpack__(stream=1)


# -- devices -----------------------------------------------------------------------------------
def test_devices(xp: ModuleType) -> None:
    cpu = jax.devices("cpu")[0]
    x = xp.asarray([1.0], device="cpu")
    assert ep.astensor(x).device == ep.Device("cpu") == "cpu"
    for target in ("cpu", ep.Device("cpu"), cpu):
        moved = xp.asarray([1.0], device=target)
        assert values(moved).tolist() == [1.0]
        assert xp.zeros(1, device=target).shape == (1,)
        assert ep.astensor(wx.asarray(x).to_device(target)).device == "cpu"
    assert nx.__backend__.native_device("cpu:0") is cpu
    with pytest.raises(ValueError, match=r"eagerpy_xp\.jax\.asarray: device 'cuda:0' is not available.*cpu"):
        xp.asarray([1.0], device="cuda:0")
    with pytest.raises(TypeError, match="unsupported device"):
        xp.zeros(1, device=3)
    with pytest.raises(ValueError, match="streams"):
        wx.asarray([1.0]).to_device("cpu", stream=1)


# -- transformations ------------------------------------------------------------------------
def portable(x: Any) -> Any:
    """Written against whatever namespace ``x`` brings (native or wrapped)."""
    xp = ep.get_namespace(x)
    y = xp.where(x > 0, xp.sqrt(xp.abs(x)), xp.exp(x))
    z = xp.matmul(xp.reshape(y, (2, 2)), xp.linalg.matrix_transpose(xp.reshape(y, (2, 2))))
    return xp.sum(z * xp.floor_divide(z, 0.5)) + xp.mean(xp.cumulative_sum(y))


POINT = [1.0, -2.0, 0.25, 3.0]


def test_portable_code_under_jit(xp: ModuleType, x64: bool) -> None:
    jitted = jax.jit(portable)(xp.asarray(POINT))
    assert isinstance(jitted, ep.Array if xp is wx else jax.Array)
    assert values(jitted).dtype == (np.float64 if x64 else np.float32)
    expected = portable(np.asarray(POINT))  # the same code on the NumPy backend
    np.testing.assert_allclose(values(jitted), expected, rtol=1e-6)


def test_grad_and_vmap_of_arrays() -> None:
    a = wx.asarray(POINT)
    grad = jax.jit(jax.grad(lambda t: portable(t).raw))(a)
    native_grad = jax.jit(jax.grad(portable))(a.raw)
    assert isinstance(grad, ep.Array)
    np.testing.assert_allclose(values(grad), values(native_grad), rtol=1e-6)
    step = 1e-3 * np.eye(4)[2]  # a finite difference along one coordinate
    slope = (portable(np.asarray(POINT) + step) - portable(np.asarray(POINT) - step)) / 2e-3
    np.testing.assert_allclose(values(grad)[2], slope, rtol=1e-3)
    batch = wx.reshape(wx.arange(8.0), (2, 4))
    mapped = jax.jit(jax.vmap(portable))(batch)
    assert isinstance(mapped, ep.Array) and mapped.shape == (2,)
    np.testing.assert_allclose(values(mapped)[1], portable(np.arange(4.0, 8.0)), rtol=1e-6)


def test_setitem_under_jit() -> None:
    def clean(x: ep.Array) -> ep.Array:
        x[x < 0] = 0.0
        x[..., 0] = x[..., 1] * 2
        x[::-1] += 1.0
        return x

    a = wx.asarray([-1.0, 2.0, -3.0, 4.0])
    assert values(jax.jit(clean)(a)).tolist() == [5.0, 3.0, 1.0, 5.0]
    assert values(a).tolist() == [-1.0, 2.0, -3.0, 4.0]


def test_jit_traces_without_host_transfers(xp: ModuleType) -> None:
    """Tracing fails on any ``.item()``, ``bool()`` or ``np.asarray`` of a traced value."""
    x = xp.asarray([1.0, -2.0, 0.25, 3.0])
    jaxpr = jax.make_jaxpr(portable)(x)
    assert "sqrt" in str(jaxpr)


# -- Python ints beyond JAX's weak integer range ------------------------------------------------
# jax.numpy reads a Python int as a weak int32/int64 and raises OverflowError for a larger
# one, even where the array's dtype holds it; the standard converts the scalar to that dtype.

BIG_INT_CALLS: dict[str, Callable[[Any, Any, int], Any]] = {
    "add": lambda xp, a, s: xp.add(a, s),
    "add, scalar first": lambda xp, a, s: xp.add(s, a),
    "subtract, scalar first": lambda xp, a, s: xp.subtract(s, a),
    "maximum": lambda xp, a, s: xp.maximum(a, s),
    "minimum": lambda xp, a, s: xp.minimum(s, a),
    "equal": lambda xp, a, s: xp.equal(a, s),
    "less": lambda xp, a, s: xp.less(s, a),
    "bitwise_and": lambda xp, a, s: xp.bitwise_and(a, s),
    "bitwise_xor": lambda xp, a, s: xp.bitwise_xor(s, a),
    "floor_divide": lambda xp, a, s: xp.floor_divide(a, s),
    "remainder, scalar first": lambda xp, a, s: xp.remainder(s, a),
    "where": lambda xp, a, s: xp.where(a > 1, a, s),
    "where, scalar first": lambda xp, a, s: xp.where(a > 1, s, a),
    "clip": lambda xp, a, s: xp.clip(a, min=s // 2, max=s),
    "isin": lambda xp, a, s: xp.isin(a, s),
    "searchsorted": lambda xp, a, s: xp.searchsorted(xp.sort(a), s),
}


@pytest.mark.parametrize("call", list(BIG_INT_CALLS), ids=list(BIG_INT_CALLS))
def test_python_ints_beyond_the_weak_range(xp: ModuleType, x64: bool, call: str) -> None:
    dtype = "uint64" if x64 else "uint32"
    bits = 64 if x64 else 32
    numbers = [1, 2, 2 ** (bits - 1) + 3]
    a = xp.asarray(numbers, dtype=getattr(xp, dtype))
    n = np.asarray(numbers, dtype=dtype)
    for scalar in (2 ** (bits - 1), 2**bits - 1):
        got = values(BIG_INT_CALLS[call](xp, a, scalar))
        want = BIG_INT_CALLS[call](np, n, scalar)
        assert got.tolist() == want.tolist(), (call, scalar)
        if call != "searchsorted":  # its result is the default index dtype (int32 without x64)
            assert got.dtype == want.dtype, (call, scalar)


def test_python_ints_beyond_the_weak_range_in_operators(x64: bool) -> None:
    dtype, bits = ("uint64", 64) if x64 else ("uint32", 32)
    big = 2 ** (bits - 1)
    a = wx.asarray([1, 5], dtype=getattr(wx, dtype))
    assert values(a + big).tolist() == [big + 1, big + 5]
    assert values(big + a).tolist() == [big + 1, big + 5]
    assert values(a == big).tolist() == [False, False]
    assert values(a // big).tolist() == [0, 0]
    assert values(big % a).tolist() == [0, big % 5]
    a += big
    assert values(a).tolist() == [big + 1, big + 5] and a.dtype == getattr(wx, dtype)
    f = wx.asarray([1.0], dtype=wx.float32)
    assert values(f * 2**40).tolist() == [2.0**40] and (f * 2**40).dtype == wx.float32
    # an int outside the dtype's range is not converted: JAX's own error, translated
    with pytest.raises(OverflowError, match=r"eagerpy_xp\.jax\."):
        wx.asarray([1], dtype=wx.int8) + 2**bits
