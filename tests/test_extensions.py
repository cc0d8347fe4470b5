"""The EagerPy extensions: the native boundary, devices, conversion, namespaces, `Array`
methods.  Also holds the helpers the other ``test_ext_*`` files import.

Arrays are made with the frameworks directly, so the autodiff tests run even where a
backend's namespace is not importable; tests that need a namespace skip with the reason.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from eagerpy_xp import Array

ALL_BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask")
DIFFERENTIABLE = ("torch", "jax", "tensorflow")


@pytest.fixture(autouse=True)
def jax_x64() -> Iterator[None]:
    """Float64 on JAX inside each test (a thread-local context, no global switch)."""
    import jax

    with jax.enable_x64(True):
        yield


def native(backend: str, values: Any, dtype: str = "float64") -> Any:
    """A native array of ``backend`` made by the framework itself."""
    a = np.asarray(values, dtype=dtype)
    if backend == "numpy":
        return a
    if backend == "torch":
        import torch

        return torch.tensor(a)
    if backend == "jax":
        import jax.numpy as jnp

        return jnp.asarray(a)
    if backend == "dask":
        import dask.array as da

        # two chunks along the first axis; matrices stay whole (linalg decompositions)
        halves = (a.shape[0] + 1) // 2 if a.ndim and a.ndim != 2 else -1
        return da.from_array(a, chunks={0: max(halves, 1) if halves != -1 else -1} if a.ndim else ())
    import tensorflow as tf

    return tf.constant(a)


def to_np(x: Any) -> np.ndarray:
    """A NumPy copy of a native array or `Array`."""
    if type(x) is Array:
        x = x.raw
    if hasattr(x, "detach"):
        x = x.detach()
    if hasattr(x, "compute"):  # dask
        x = x.compute()
    if hasattr(x, "numpy") and not isinstance(x, np.ndarray):
        return np.asarray(x.numpy())
    return np.asarray(x)


def namespaces(backend: str) -> tuple[ModuleType, ModuleType]:
    """``(eagerpy_xp.native.<b>, eagerpy_xp.<b>)``, or a skip saying why not."""
    try:
        return (importlib.import_module(f"eagerpy_xp.native.{backend}"),
                importlib.import_module(f"eagerpy_xp.{backend}"))  # fmt: skip
    except ImportError as e:  # the backend's namespace is written in another issue
        pytest.skip(f"eagerpy_xp namespace for {backend} not importable yet: {e}")


def flavoured(backend: str, flavour: str, values: Any, dtype: str = "float64") -> Any:
    """A native array (flavour "native") or an `Array` (flavour "wrapped")."""
    x = native(backend, values, dtype)
    if flavour == "native":
        return x
    namespaces(backend)
    return ep.astensor(x)


def check_type(result: Any, backend: str, flavour: str) -> None:
    """``result`` is an `Array` of ``backend`` (wrapped) or a native of ``backend``."""
    if flavour == "wrapped":
        assert type(result) is Array and result.backend == backend
    else:
        assert type(result) is not Array
        assert ep.get_namespace(result) is namespaces(backend)[0]


def framework_ops(backend: str) -> dict[str, Callable[..., Any]]:
    """sin/sum/log1p of each framework, for functions written without our namespaces."""
    if backend == "torch":
        import torch

        return {"sin": torch.sin, "sum": torch.sum, "log1p": torch.log1p, "cos": torch.cos}
    if backend == "jax":
        import jax.numpy as jnp

        return {"sin": jnp.sin, "sum": jnp.sum, "log1p": jnp.log1p, "cos": jnp.cos}
    if backend == "tensorflow":
        import tensorflow as tf

        return {"sin": tf.sin, "sum": tf.reduce_sum, "log1p": tf.math.log1p, "cos": tf.cos}
    return {"sin": np.sin, "sum": np.sum, "log1p": np.log1p, "cos": np.cos}


# -- import hygiene --------------------------------------------------------------------------


def test_import_imports_no_framework() -> None:
    code = (
        "import sys, eagerpy_xp, eagerpy_xp.extensions;"
        "bad = {'torch', 'jax', 'tensorflow', 'numpy'} & set(sys.modules);"
        "assert not bad, bad;"
        "assert callable(eagerpy_xp.value_and_grad) and callable(eagerpy_xp.norms.l2)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the native boundary ------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_astensor_restores_native(backend: str) -> None:
    namespaces(backend)
    x = native(backend, [1.0, -2.0])
    t, restore = ep.astensor_(x)
    assert type(t) is Array and t.backend == backend
    y = restore(t * 2)
    assert type(y) is type(x)
    np.testing.assert_array_equal(to_np(y), [2.0, -4.0])
    pair = restore(t, {"a": [t + 1, 3]})
    assert type(pair) is tuple and type(pair[1]["a"][0]) is type(x) and pair[1]["a"][1] == 3


def test_astensor_restores_array() -> None:
    a = ep.astensor(np.arange(3.0))
    t, restore = ep.astensor_(a)
    assert t is a
    out = restore(np.ones(2))
    assert type(out) is Array
    np.testing.assert_array_equal(to_np(out), [1.0, 1.0])


def test_astensors_nested_and_mixed() -> None:
    x, y = np.arange(2.0), np.ones(2)
    (tx, ty), restore = ep.astensors_(x, y)
    assert type(tx) is Array and type(ty) is Array
    assert type(restore(tx + ty)) is np.ndarray
    (_, nested), restore = ep.astensors_(x, {"k": (y,)})
    assert type(nested["k"][0]) is Array
    assert type(restore(nested)["k"][0]) is np.ndarray
    _, restore = ep.astensors_(x, ep.astensor(y))  # any Array: Arrays out
    assert type(restore(tx)) is Array


def test_astensor_errors() -> None:
    with pytest.raises(TypeError, match="astensor_"):
        ep.astensor_([1.0, 2.0])
    with pytest.raises(TypeError, match="astensors_"):
        ep.astensors_()


def test_portable_decorator() -> None:
    seen: list[type] = []

    @ep.portable
    def f(x: Any, pair: tuple[Any, Any], *, scale: float = 1.0) -> dict[str, Any]:
        seen.extend(type(v) for v in (x, *pair))
        return {"sum": (x + pair[0]) * scale, "list": [pair[1], "text"]}

    x = np.array([1.0, 2.0])
    out = f(x, (x, x), scale=2.0)
    assert seen == [Array, Array, Array]
    assert type(out["sum"]) is np.ndarray and type(out["list"][0]) is np.ndarray
    assert out["list"][1] == "text"
    np.testing.assert_array_equal(out["sum"], [4.0, 8.0])
    wrapped = f(ep.astensor(x), (x, x))
    assert type(wrapped["sum"]) is Array
    assert f.__name__ == "f"

    @ep.portable
    def no_arrays(a: int) -> int:
        return a + 1

    assert no_arrays(1) == 2


# -- devices and conversion -------------------------------------------------------------------


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_device_and_to_device(backend: str) -> None:
    namespaces(backend)
    x = native(backend, [1.0, 2.0])
    d = ep.device(x)
    assert isinstance(d, ep.Device) and d == "cpu"
    assert ep.device(ep.astensor(x)) == d
    moved = ep.to_device(x, "cpu")
    assert type(moved) is type(x) and ep.device(moved) == "cpu"
    np.testing.assert_array_equal(to_np(moved), [1.0, 2.0])
    moved_array = ep.to_device(ep.astensor(x), ep.Device("cpu"))
    assert type(moved_array) is Array and moved_array.device == "cpu"
    with pytest.raises((ValueError, TypeError)):
        ep.to_device(x, "tpu:7")


def test_device_rejects_non_arrays() -> None:
    with pytest.raises(TypeError, match="device"):
        ep.device([1.0])


@pytest.mark.parametrize("source", ALL_BACKENDS)
@pytest.mark.parametrize("target", ALL_BACKENDS)
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_convert_every_pair(source: str, target: str, dtype: str) -> None:
    namespaces(source)
    namespaces(target)
    values = [[1, 0, 3], [0, 5, 6]]
    x = native(source, values, dtype)
    y = ep.convert(x, target)
    assert ep.get_namespace(y) is namespaces(target)[0]
    assert str(to_np(y).dtype) == dtype
    np.testing.assert_array_equal(to_np(y), np.asarray(values, dtype=dtype))
    wrapped = ep.convert(ep.astensor(x), target)
    assert type(wrapped) is Array and wrapped.backend == target
    np.testing.assert_array_equal(to_np(wrapped), np.asarray(values, dtype=dtype))


def test_convert_shares_memory_numpy_torch() -> None:
    import torch

    namespaces("torch")
    a = np.zeros(3)
    t = ep.convert(a, "torch")
    assert isinstance(t, torch.Tensor)
    t[1] = 5.0  # a DLPack view: the write shows through
    assert a[1] == 5.0
    back = ep.convert(t, "numpy")
    back_array = np.asarray(back)
    assert np.shares_memory(back_array, a)


def test_convert_errors() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        ep.convert(np.ones(2), "mxnet")
    with pytest.raises(TypeError, match="convert"):
        ep.convert([1.0], "numpy")
    x = np.ones(2)
    assert ep.convert(x, "numpy") is x


def test_convert_float64_to_jax_without_x64_raises() -> None:
    import jax

    namespaces("jax")
    with jax.enable_x64(False), pytest.raises((TypeError, ValueError), match="float64"):
        ep.convert(np.ones(2), "jax")


# -- namespaces carry the extensions --------------------------------------------------------


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_namespaces_carry_extensions(backend: str) -> None:
    nat, wrapped = namespaces(backend)
    x = native(backend, [[1.0, 2.0], [3.0, 5.0]])
    for name in ep.extensions.NAMESPACE_NAMES:
        assert hasattr(nat, name) and hasattr(wrapped, name), name
    s_native = nat.softmax(ep.astensor(x))  # Array in, native out
    check_type(s_native, backend, "native")
    s_wrapped = wrapped.softmax(x)  # native in, Array out
    check_type(s_wrapped, backend, "wrapped")
    np.testing.assert_allclose(to_np(s_native), to_np(s_wrapped))
    check_type(nat.norms.l2(x, axis=1), backend, "native")
    check_type(wrapped.norms.l2(x, axis=1), backend, "wrapped")
    check_type(wrapped.topk(x, 1)[1], backend, "wrapped")
    assert wrapped.device(x) == "cpu"
    other = "numpy" if backend != "numpy" else "torch"
    namespaces(other)
    with pytest.raises(TypeError, match=f"got a {other} array"):
        nat.softmax(native(other, [1.0]))


def test_extensions_never_shadow_standard_names() -> None:
    from eagerpy_xp import _spec

    standard = {*_spec.FUNCTIONS, *_spec.CONSTANTS, "linalg", "fft", "__array_namespace_info__"}
    assert not standard & set(ep.extensions.NAMESPACE_NAMES)
    nat = namespaces("numpy")[0]
    assert nat.sum == nat.__backend__.sum and "softmax" not in nat.__all__


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_namespaces_carry_autodiff(backend: str) -> None:
    nat, wrapped = namespaces(backend)
    x = native(backend, [1.0, -2.0])

    def loss(v: Any) -> Any:
        xp = ep.namespace(v)
        return xp.sum(v * v)

    value, g = nat.value_and_grad(loss, ep.astensor(x))
    check_type(value, backend, "native")
    np.testing.assert_allclose(to_np(g), [2.0, -4.0])
    value, g = wrapped.value_and_grad(loss, x)
    check_type(g, backend, "wrapped")
    fn = wrapped.value_and_grad_fn(x, loss)
    check_type(fn(x)[1], backend, "wrapped")
    np.testing.assert_allclose(to_np(fn(x)[0]), 5.0)


def test_numpy_namespace_autodiff_raises() -> None:
    nat, wrapped = namespaces("numpy")
    for xp in (nat, wrapped):
        with pytest.raises(NotImplementedError, match="torch, jax, tensorflow or mlx"):
            xp.value_and_grad(lambda v: v.sum(), np.ones(2))


# -- Array methods ------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_method_chain(backend: str) -> None:
    namespaces(backend)
    values = np.array([[3.0, -4.0, 0.5], [1.0, 2.0, -2.0]])
    x = ep.astensor(native(backend, values))
    np.testing.assert_allclose(to_np(x.square().sum(axis=1).sqrt()),
                               np.sqrt((values**2).sum(axis=1)))  # fmt: skip
    np.testing.assert_allclose(to_np(x.abs()), np.abs(values))
    np.testing.assert_allclose(to_np(x.abs().log().exp()), np.abs(values))
    np.testing.assert_allclose(to_np(x.clip(-1.0, 1.0)), np.clip(values, -1, 1))
    assert x.float32().dtype == x.__array_namespace__().float32
    assert x.flatten().shape == (6,) and x.flatten(0, 0).shape == (2, 3)
    assert x.reshape(6).shape == (6,) and x.reshape((3, 2)).shape == (3, 2)
    assert x.mean().item() == pytest.approx(values.mean())
    assert x.max().item() == 3.0 and x.min(axis=0).shape == (3,)
    assert x.argmax().item() == 0 and to_np(x.argmax(axis=1)).tolist() == [0, 1]
    assert x.astype(x.__array_namespace__().int32).dtype == x.__array_namespace__().int32
    np.testing.assert_array_equal(x.numpy(), values)
    assert isinstance(x.numpy(), np.ndarray)
    assert x.sign().sum().item() == 2.0
    np.testing.assert_allclose(to_np(x.transpose()), values.T)
    np.testing.assert_allclose(to_np(x.cumsum()), np.cumsum(values))
    np.testing.assert_allclose(to_np(x.cumsum(axis=1)), np.cumsum(values, axis=1))
    assert x.expand_dims(0).shape == (1, 2, 3) and x.expand_dims(0).squeeze().shape == (2, 3)
    np.testing.assert_allclose(to_np(x.flip(axis=1)), values[:, ::-1])
    np.testing.assert_allclose(to_np(x.maximum(0.0)), np.maximum(values, 0))
    np.testing.assert_allclose(to_np(x.pow(2)), values**2)
    np.testing.assert_allclose(to_np(x.norms.l2(axis=1)), np.linalg.norm(values, axis=1))
    np.testing.assert_allclose(to_np(x.softmax().sum(axis=-1)), [1.0, 1.0])
    top_values, top_indices = x.topk(2)
    np.testing.assert_allclose(to_np(top_values), [[3.0, 0.5], [2.0, 1.0]])
    assert to_np(top_indices).tolist() == [[0, 2], [1, 0]]
    updated = x.index_update((0, 0), 9.0)
    assert updated[0, 0].item() == 9.0 and x[0, 0].item() == 3.0
    assert x.ones(2).shape == (2,) and x.ones(2).dtype == x.dtype
    assert x.zeros_like().sum().item() == 0.0 and x.full_like(2.0).sum().item() == 12.0
    assert to_np(x.arange(3)).tolist() == [0, 1, 2]
    assert x.from_numpy(np.ones(2)).backend == backend
    assert (x > 0).any().item() is True and (x > 0).all().item() is False
    assert to_np(x.argsort(axis=1)).tolist() == [[1, 2, 0], [2, 0, 1]]
    np.testing.assert_allclose(to_np(x.sort(axis=1)), np.sort(values, axis=1))
    sign, logdet = x[:, :2].slogdet()
    assert sign.item() == 1.0 and logdet.item() == pytest.approx(np.log(10.0))
    np.testing.assert_allclose(to_np((x > 0).where(x, 0.0)), np.maximum(values, 0))
    assert x.pad(((0, 0), (1, 0))).shape == (2, 4) and x.pad(((1, 1), (0, 0))).sum().item() == 0.5
    assert x.uniform(3).shape == (3,) and x.normal((1, 2)).dtype == x.dtype
    assert x.crossentropy(x.argmax(axis=1)).shape == (2,)
    assert x.onehot_like(x.argmax(axis=1)).sum().item() == 2.0
    assert x.logsumexp(axis=1).shape == (2,) and x.log_softmax().shape == (2, 3)
    _, g = x.value_and_grad(lambda a: a.sum()) if backend in DIFFERENTIABLE else (None, x)
    assert g.shape == (2, 3)


def test_item_of_one_element_array() -> None:
    x = ep.astensor(np.array([[7.0]]))
    assert x.item() == 7.0
    with pytest.raises((TypeError, ValueError)):
        ep.astensor(np.ones(2)).item()
