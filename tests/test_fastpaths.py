"""The fast paths (`eagerpy_xp.native._base.fastpath` and the inline ones of reductions)
give exactly what the full implementations give.

Each function is called twice on the same values: once on plain tensors (the fast path's
case) and once on inputs of another type that the fast paths never take (a
``tf.Variable``; a torch.Tensor subclass; an `eagerpy_xp.Array` given to a native JAX
function), which go through the full implementation.
Results must agree bit for bit (NaN, signed zeros), in dtype, and in the errors raised.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from eagerpy_xp.native._base.elementwise import BINARY, UNARY

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = ("float32", "float64", "int64", "int32", "int16", "int8", "uint8", "uint16",
          "uint32", "uint64", "bool", "complex64", "complex128")  # fmt: skip
FLOATS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.5, 0.7, 2.5, -2.6, 1e-40, 1e30]
SCALARS = [0.0, -0.0, 2.5, -1.0, 1e-40, math.nan, math.inf, 3, -2, 0, 2**40, 2**70]


def _values(dtype: str) -> np.ndarray:
    if dtype == "bool":
        return np.array([True, False] * 6)
    if dtype.startswith("float"):
        return np.array(FLOATS, dtype=dtype)
    if dtype.startswith("complex"):
        return (np.array(FLOATS) + 1j * np.array(FLOATS[::-1])).astype(dtype)
    info = np.iinfo(dtype)
    return np.array([0, 1, 2, 3, 7, 100, info.max, info.min, info.max - 1, 5, 6, 9]
                    ).astype(dtype)  # fmt: skip


class _Torch:
    name = "torch"

    def __init__(self) -> None:
        self.torch = pytest.importorskip("torch")

        class Sub(self.torch.Tensor):  # type: ignore[name-defined,misc]
            """A tensor type no fast path takes."""

        self.sub = Sub

    def plain(self, values: np.ndarray) -> Any:
        return self.torch.asarray(values.copy())

    def other(self, values: np.ndarray) -> Any:
        return self.plain(values).as_subclass(self.sub)

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        x = x.as_subclass(self.torch.Tensor)
        dtype = str(x.dtype).removeprefix("torch.")
        if dtype in ("uint16", "uint32", "uint64"):
            signed = getattr(self.torch, dtype.replace("u", ""))
            return dtype, x.view(signed).numpy().view(dtype)
        return dtype, x.numpy()


class _TensorFlow:
    name = "tensorflow"

    def __init__(self) -> None:
        self.tf = pytest.importorskip("tensorflow")

    def plain(self, values: np.ndarray) -> Any:
        return self.tf.constant(values)

    def other(self, values: np.ndarray) -> Any:
        return self.tf.Variable(values)

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        return x.dtype.name, x.numpy()


class _Jax:
    name = "jax"
    #: Each dtype compiles every op anew (seconds each): one dtype per kind, both widths
    #: of the floating ones (the fast paths' dtypes are whole categories).
    dtypes = ("float32", "float64", "int64", "uint8", "bool", "complex64")
    #: No reduction of the JAX backend has a fast path.
    reductions = False

    def __init__(self) -> None:
        self.jnp = pytest.importorskip("jax.numpy")
        import eagerpy_xp

        self.wrap = eagerpy_xp.astensor

    def plain(self, values: np.ndarray) -> Any:
        return self.jnp.asarray(values.copy())

    def other(self, values: np.ndarray) -> Any:
        """An `eagerpy_xp.Array` given to a native function: no fast path takes it."""
        return self.wrap(self.plain(values))

    def numpy(self, x: Any) -> tuple[str, np.ndarray]:
        host = np.asarray(x)
        return host.dtype.name, host


_CASES = {"torch": _Torch, "tensorflow": _TensorFlow, "jax": _Jax}


@pytest.fixture(scope="module", params=sorted(_CASES))
def case(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    backend = _CASES[request.param]()
    return backend, importlib.import_module(f"eagerpy_xp.native.{request.param}")


def _outcome(backend: Any, fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
             ) -> Any:  # fmt: skip
    try:
        result = fn(*args, **kwargs)
    except Exception as error:  # the same error type either way
        return type(error).__name__
    dtype, values = backend.numpy(result)
    return dtype, values.shape, values.tobytes()


def _same(backend: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """``fn`` on plain tensors (arrays given as NumPy arrays) equals ``fn`` on the others."""
    fast = [backend.plain(a) if isinstance(a, np.ndarray) else a for a in args]
    full = [backend.other(a) if isinstance(a, np.ndarray) else a for a in args]
    a, b = _outcome(backend, fn, fast, kwargs), _outcome(backend, fn, full, kwargs)
    what = f"{fn.__name__}{tuple(getattr(a, 'dtype', a) for a in args)} {kwargs}"
    assert a == b, f"{what}: fast path {a!r} != full implementation {b!r}"


def _covered(backend: Any, dtype: str) -> None:
    if dtype not in getattr(backend, "dtypes", DTYPES):
        pytest.skip(f"{backend.name}: {dtype} is left out (see its `dtypes`)")


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary(case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = case
    _covered(backend, dtype)
    for name in UNARY:
        _same(backend, getattr(xp, name), _values(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_binary(case: tuple[Any, Any], dtype: str) -> None:
    backend, xp = case
    _covered(backend, dtype)
    values = _values(dtype)
    for name in BINARY:
        fn = getattr(xp, name)
        _same(backend, fn, values, np.roll(values, 5))
        for scalar in SCALARS:
            _same(backend, fn, values, scalar)
            _same(backend, fn, scalar, values)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions(case: tuple[Any, Any], name: str, dtype: str) -> None:
    backend, xp = case
    if not getattr(backend, "reductions", True):
        pytest.skip(f"{backend.name}: no reduction has a fast path")
    values = _values(dtype).reshape(3, 4)
    for axis in (None, 0, 1, -1, -2, 2, (0, 1), (1,), (), False, (0, 0)):
        for keepdims in (False, True):
            _same(backend, getattr(xp, name), values, axis=axis, keepdims=keepdims)


def test_scalar_zero_sign_survives_the_cache(case: tuple[Any, Any]) -> None:
    """0.0 and -0.0 are equal as dict keys; the cached constants must keep them apart."""
    backend, xp = case
    x = backend.plain(np.array([1.0, -1.0], dtype="float32"))
    for _ in range(2):  # the second round reads the cache
        assert backend.numpy(xp.copysign(x, 0.0))[1].tolist() == [1.0, 1.0]
        assert backend.numpy(xp.copysign(x, -0.0))[1].tolist() == [-1.0, -1.0]
        assert np.signbit(backend.numpy(xp.multiply(x, -0.0))[1]).tolist() == [True, False]
        assert np.signbit(backend.numpy(xp.add(-0.0, backend.plain(
            np.array([-0.0], "float32"))))[1]).tolist() == [True]  # fmt: skip


def test_float_scalar_with_integer_array_is_not_cached_as_int(case: tuple[Any, Any]) -> None:
    """``1`` and ``1.0`` are equal as dict keys: an int array meeting 1.0 after 1 must not
    reuse the int constant."""
    backend, xp = case
    x = np.array([3, 4], dtype="int64")
    assert backend.numpy(xp.multiply(backend.plain(x), 1))[0] == "int64"
    _same(backend, xp.multiply, x, 1.0)
