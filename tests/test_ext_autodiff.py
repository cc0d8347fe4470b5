"""Autodiff on torch, jax and tensorflow: against finite differences, against each other,
nested, under jax.jit / tf.function, and every error path.

The differentiated functions are written with each framework's own sin/sum, so these
tests need only the frameworks; the flavour tests also need the backend namespaces.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_extensions import (
    DIFFERENTIABLE,
    check_type,
    framework_ops,
    jax_x64,  # noqa: F401 (autouse fixture)
    namespaces,
    native,
    to_np,
)

import eagerpy_xp as ep
from eagerpy_xp import Array

X = np.array([0.3, -1.2, 2.5, 0.0])


def loss_for(backend: str) -> Any:
    """``sum(sin(x) * x**2) + c * sum(log1p(x**2))`` in the framework's own functions."""
    ops = framework_ops(backend)

    def loss(x: Any, c: float = 0.5) -> Any:
        return ops["sum"](ops["sin"](x) * x * x) + c * ops["sum"](ops["log1p"](x * x))

    return loss


def exact_grad(x: np.ndarray, c: float = 0.5) -> np.ndarray:
    return np.cos(x) * x**2 + 2 * x * np.sin(x) + c * 2 * x / (1 + x**2)


def special_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def finite_differences(f: Any, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    out = np.empty_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        out[i] = (f(x + e) - f(x - e)) / (2 * h)
    return out


def numpy_loss(x: np.ndarray, c: float = 0.5) -> float:
    return float(np.sum(np.sin(x) * x**2) + c * np.sum(np.log1p(x**2)))


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_value_and_grad_against_finite_differences(backend: str) -> None:
    x = native(backend, X)
    value, g = ep.value_and_grad(loss_for(backend), x, c=0.25)
    assert type(value) is type(x) or backend == "jax"
    assert str(to_np(g).dtype) == "float64" and to_np(g).shape == X.shape
    assert float(to_np(value)) == pytest.approx(numpy_loss(X, 0.25), rel=1e-12)
    np.testing.assert_allclose(to_np(g), finite_differences(lambda v: numpy_loss(v, 0.25), X),
                               rtol=1e-6, atol=1e-8)  # fmt: skip
    np.testing.assert_allclose(to_np(g), exact_grad(X, 0.25), rtol=1e-12, atol=1e-14)


def test_backends_agree() -> None:
    results = [ep.value_and_grad(loss_for(b), native(b, X)) for b in DIFFERENTIABLE]
    values = [float(to_np(v)) for v, _ in results]
    grads = [to_np(g) for _, g in results]
    assert values[0] == pytest.approx(values[1], rel=1e-13) == pytest.approx(values[2])
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-13)
    np.testing.assert_allclose(grads[0], grads[2], rtol=1e-13)


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_several_arguments(backend: str) -> None:
    ops = framework_ops(backend)
    x, y = native(backend, [1.0, 2.0]), native(backend, [3.0, -1.0])

    def f(a: Any, b: Any, scale: float) -> Any:
        return ops["sum"](a * b * b) * scale

    value, (ga, gb) = ep.value_and_grad(f, x, y, 2.0, argnums=(0, 1))
    assert float(to_np(value)) == pytest.approx(2 * (9.0 + 2.0))
    np.testing.assert_allclose(to_np(ga), [18.0, 2.0])
    np.testing.assert_allclose(to_np(gb), [12.0, -8.0])
    only_b = ep.grad(f, x, y, 2.0, argnums=1)
    np.testing.assert_allclose(to_np(only_b), [12.0, -8.0])
    as_tuple = ep.grad(f, x, y, 2.0, argnums=(1,))
    assert isinstance(as_tuple, tuple) and len(as_tuple) == 1


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_unused_argument_has_zero_gradient(backend: str) -> None:
    ops = framework_ops(backend)
    x, y = native(backend, [1.0, 2.0]), native(backend, [3.0, 4.0])
    _, (gx, gy) = ep.value_and_grad(lambda a, b: ops["sum"](a * a), x, y, argnums=(0, 1))
    np.testing.assert_allclose(to_np(gy), [0.0, 0.0])
    np.testing.assert_allclose(to_np(gx), [2.0, 4.0])
    constant = ep.grad(lambda a: ops["sum"](y), x)
    np.testing.assert_allclose(to_np(constant), [0.0, 0.0])


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_aux(backend: str) -> None:
    ops = framework_ops(backend)
    x = native(backend, [1.0, 2.0])

    def f(a: Any) -> tuple[Any, Any]:
        return ops["sum"](a * a), {"doubled": a * 2, "tag": "t"}

    value, aux, g = ep.value_and_grad(f, x, has_aux=True)
    v2, aux2, g2 = ep.value_aux_and_grad(f, x)
    g3, aux3 = ep.grad(f, x, has_aux=True)
    for v, a, gr in ((value, aux, g), (v2, aux2, g2), (value, aux3, g3)):
        assert float(to_np(v)) == 5.0 and a["tag"] == "t"
        np.testing.assert_allclose(to_np(a["doubled"]), [2.0, 4.0])
        np.testing.assert_allclose(to_np(gr), [2.0, 4.0])
    if backend == "torch":
        assert not aux["doubled"].requires_grad and not value.requires_grad


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_grad_of_grad(backend: str) -> None:
    ops = framework_ops(backend)
    x = native(backend, [0.5, -1.0, 2.0])

    def cube(a: Any) -> Any:
        return ops["sum"](a * a * a)

    second = ep.grad(lambda a: ops["sum"](ep.grad(cube, a)), x)  # d/dx sum(3x^2) = 6x
    np.testing.assert_allclose(to_np(second), 6 * to_np(x))
    # the inner function closes over the outer variable: d/dx sum_y d/dy (x*y)^2 at y
    y = native(backend, [1.0, 2.0, 3.0])
    mixed = ep.grad(lambda a: ops["sum"](ep.grad(lambda b: ops["sum"](a * a * b * b), y)), x)
    np.testing.assert_allclose(to_np(mixed), 4 * to_np(x) * to_np(y))


def test_torch_leaves_caller_tensor_alone() -> None:
    import torch

    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    value, g = ep.value_and_grad(lambda a: (a * a).sum(), x)
    assert not x.requires_grad and x.grad is None
    assert not value.requires_grad and not g.requires_grad
    # a tensor f closes over is left alone too (no .grad); at top level the result is
    # detached from it (nest eagerpy_xp.grad, or pass it as an argument, to go through)
    w = torch.tensor([3.0], dtype=torch.float64, requires_grad=True)
    inner = ep.grad(lambda a: (a * a * w).sum(), x)
    assert w.grad is None and x.grad is None and not inner.requires_grad
    np.testing.assert_allclose(inner.numpy(), [6.0, 12.0])
    # an input that already requires grad keeps its graph, so torch can go on
    tracked = x.clone().requires_grad_(True)
    g_tracked = ep.grad(lambda a: (a * a * a).sum(), tracked)
    (second,) = torch.autograd.grad(g_tracked.sum(), tracked)
    np.testing.assert_allclose(second.numpy(), [6.0, 12.0])
    assert tracked.grad is None


def test_torch_under_no_grad() -> None:
    import torch

    with torch.no_grad():
        g = ep.grad(lambda a: (a * a).sum(), torch.tensor([3.0]))
    assert g.item() == 6.0


def test_jax_composes_with_jit() -> None:
    import jax

    loss = loss_for("jax")
    x = native("jax", X)
    jitted = jax.jit(lambda a: ep.value_and_grad(loss, a))
    value, g = jitted(x)
    np.testing.assert_allclose(np.asarray(g), exact_grad(X), rtol=1e-12, atol=1e-14)
    assert float(value) == pytest.approx(numpy_loss(X), rel=1e-12)
    hessian_diag = jax.jit(lambda a: ep.grad(lambda b: ep.grad(loss, b).sum(), a))(x)
    expected = -np.sin(X) * X**2 + 4 * X * np.cos(X) + 2 * np.sin(X) - (X**2 - 1) / (1 + X**2) ** 2
    np.testing.assert_allclose(np.asarray(hessian_diag), expected, rtol=1e-12, atol=1e-14)
    # the helpers trace too
    updated = jax.jit(lambda a: ep.index_update(ep.softmax(a), 0, 1.0))(x)
    assert float(updated[0]) == 1.0 and float(updated[1:].sum()) == pytest.approx(
        float(special_softmax(X)[1:].sum()), rel=1e-12)  # fmt: skip


def test_jax_float32_without_x64() -> None:
    import jax
    import jax.numpy as jnp

    with jax.enable_x64(False):
        x = jnp.asarray([1.0, 2.0])
        _, g = ep.value_and_grad(lambda a: jnp.sum(a * a), x)
        assert g.dtype == jnp.float32
        np.testing.assert_allclose(np.asarray(g), [2.0, 4.0])


def test_tensorflow_inside_tf_function_and_variables() -> None:
    import tensorflow as tf

    loss = loss_for("tensorflow")
    x = native("tensorflow", X)
    value, g = tf.function(lambda a: ep.value_and_grad(loss, a))(x)
    np.testing.assert_allclose(g.numpy(), exact_grad(X), rtol=1e-12, atol=1e-14)
    assert float(value) == pytest.approx(numpy_loss(X), rel=1e-12)
    top = tf.function(lambda a: ep.topk(ep.log_softmax(a), 2))(x)
    np.testing.assert_allclose(top[0].numpy(), np.log(special_softmax(X))[[2, 0]], rtol=1e-12)
    assert top[1].numpy().tolist() == [2, 0]
    v = tf.Variable(X)
    np.testing.assert_allclose(ep.grad(loss, v).numpy(), exact_grad(X), rtol=1e-12)
    picked = ep.grad(lambda a: tf.gather(a, [0, 0, 2])[0] + tf.gather(a, [2])[0], x)
    assert isinstance(picked, tf.Tensor)  # not IndexedSlices
    np.testing.assert_allclose(picked.numpy(), [1.0, 0.0, 1.0, 0.0])


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
@pytest.mark.parametrize("flavour", ["native", "wrapped"])
def test_flavours(backend: str, flavour: str) -> None:
    namespaces(backend)
    x = native(backend, X)
    arg = ep.astensor(x) if flavour == "wrapped" else x
    received: list[type] = []

    def loss(a: Any) -> Any:
        received.append(type(a))
        xp = ep.namespace(a)
        return xp.sum(xp.sin(a) * a * a)

    value, g = ep.value_and_grad(loss, arg)
    check_type(value, backend, flavour)
    check_type(g, backend, flavour)
    assert (received[0] is Array) == (flavour == "wrapped")
    np.testing.assert_allclose(to_np(g), exact_grad(X, 0.0), rtol=1e-12, atol=1e-14)
    fn = ep.value_and_grad_fn(arg, loss)
    np.testing.assert_allclose(to_np(fn(arg)[1]), to_np(g))
    second = ep.grad(lambda a: ep.namespace(a).sum(ep.grad(loss, a)), arg)
    check_type(second, backend, flavour)
    expected = -np.sin(X) * X**2 + 4 * X * np.cos(X) + 2 * np.sin(X)
    np.testing.assert_allclose(to_np(second), expected, rtol=1e-12, atol=1e-14)
    if flavour == "wrapped":
        assert type(arg.value_and_grad(loss)[1]) is Array
        assert type(arg.value_aux_and_grad(lambda a: (loss(a), 1))[2]) is Array


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_errors(backend: str) -> None:
    ops = framework_ops(backend)
    x = native(backend, [1.0, 2.0])
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.value_and_grad:.*scalar.*\(2,\)"):
        ep.value_and_grad(lambda a: a * 2, x)
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.{backend}\.grad:.*real floating"):
        ep.grad(lambda a: ops["sum"](a), native(backend, [1, 2], "int32"))
    with pytest.raises(TypeError, match="0-d"):
        ep.grad(lambda a: 1.0, x)
    with pytest.raises(ValueError, match="argnums"):
        ep.grad(lambda a: ops["sum"](a), x, argnums=1)
    with pytest.raises(ValueError, match="repeated"):
        ep.grad(lambda a, b: ops["sum"](a), x, x, argnums=(0, 0))
    with pytest.raises(ValueError, match="pair"):
        ep.value_and_grad(lambda a: ops["sum"](a), x, has_aux=True)
    with pytest.raises(TypeError, match="callable"):
        ep.grad(3, x)
    with pytest.raises(TypeError, match="argument 0"):
        ep.grad(lambda a: a, 1.0)


def test_numpy_raises_naming_the_backends_that_can() -> None:
    message = r"eagerpy_xp\.numpy\.value_and_grad:.*torch, jax, tensorflow or mlx"
    with pytest.raises(NotImplementedError, match=message):
        ep.value_and_grad(lambda a: a.sum(), np.ones(2))
    with pytest.raises(NotImplementedError, match="value_and_grad_fn"):
        ep.value_and_grad_fn(np.ones(2), lambda a: a.sum())
    with pytest.raises(TypeError, match="mix backends"):
        ep.grad(lambda a, b: a, native("torch", [1.0]), np.ones(1), argnums=(0, 1))


@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_helpers_are_differentiable(backend: str) -> None:
    """Gradients through the helpers: crossentropy, index_update, norms.l2."""
    ops = framework_ops(backend)
    logits = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    labels = native(backend, [2, 0], "int32" if backend == "tensorflow" else "int64")
    g = ep.grad(lambda a: ops["sum"](ep.crossentropy(a, labels)), native(backend, logits))
    softmax = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(to_np(g), softmax - np.eye(3)[[2, 0]], rtol=1e-12)
    x = native(backend, [1.0, 2.0, 3.0])
    g = ep.grad(lambda a: ops["sum"](ep.index_update(a, 0, 0.0) * a), x)  # a1^2 + a2^2
    np.testing.assert_allclose(to_np(g), [0.0, 4.0, 6.0])
    g = ep.grad(lambda a: ep.norms.l2(a), x)
    np.testing.assert_allclose(to_np(g), np.array([1.0, 2.0, 3.0]) / np.sqrt(14.0), rtol=1e-12)


# -- arguments that alias each other (issue 23, item 3) --------------------------------------
def _alias_sources(backend: str) -> list[tuple[str, Any]]:
    """The differentiated value as the caller may hold it: a plain array, and the
    framework's trainable forms (a torch leaf that requires grad, a tf.Variable)."""
    sources = [("plain", native(backend, X))]
    if backend == "torch":
        sources.append(("requires_grad", native(backend, X).requires_grad_(True)))
    if backend == "tensorflow":
        import tensorflow as tf

        sources.append(("variable", tf.Variable(X)))
    return sources


#: How the second argument aliases the first: (id, function of (t, wrapped t))
_ALIASES: list[tuple[str, Any]] = [
    ("same object", lambda t, a: a),
    ("wrapped and raw", lambda t, a: t),
    ("wrapper of the raw", lambda t, a: ep.astensor(t)),
    ("slice view", lambda t, a: a[:]),
    ("reshape view", lambda t, a: ep.namespace(a).reshape(a, (2, 2)).reshape((4,))),
    ("raw slice view", lambda t, a: t[:]),
]


@pytest.mark.parametrize("alias", [a[0] for a in _ALIASES])
@pytest.mark.parametrize("flavour", ["native", "wrapped"])
@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_aliased_arguments_are_constants(backend: str, flavour: str, alias: str) -> None:
    """``value_and_grad(f, t, alias_of_t)`` differentiates through the first argument only:
    for ``f = sum(x * y)`` the gradient is ``y``'s value, as EagerPy (TensorFlow gave
    ``2 t``: the tape followed both uses of one tensor)."""
    namespaces(backend)
    make = dict(_ALIASES)[alias]
    for source_name, t in _alias_sources(backend):
        a = ep.astensor(t)
        x = a if flavour == "wrapped" else t
        y = make(t, a)
        if flavour == "native":
            y = y.raw if type(y) is Array else y
        value, g = ep.value_and_grad(lambda x, y: ep.namespace(x, y).sum(x * y), x, y)
        check_type(g, backend, flavour)
        np.testing.assert_allclose(to_np(g), X, rtol=1e-12, err_msg=source_name)
        np.testing.assert_allclose(to_np(value), float(X @ X), rtol=1e-12)
        # both arguments differentiated: each gradient is the other argument
        value, (g0, g1) = ep.value_and_grad(lambda x, y: ep.namespace(x, y).sum(x * y * y),
                                            x, y, argnums=(0, 1))  # fmt: skip
        np.testing.assert_allclose(to_np(g0), X**2, rtol=1e-12, err_msg=source_name)
        np.testing.assert_allclose(to_np(g1), 2 * X * X, rtol=1e-12, err_msg=source_name)
        # the same array closed over is a constant too
        closed = a if flavour == "wrapped" else t
        g = ep.grad(lambda x, closed=closed: ep.namespace(x).sum(x * closed), x)
        np.testing.assert_allclose(to_np(g), X, rtol=1e-12, err_msg=source_name)
        np.testing.assert_array_equal(to_np(t), X)  # the caller's array is unchanged
