"""Portable code under every framework's compiler and transform: `eagerpy_xp.jit`,
`eagerpy_xp.vmap`, their composition with `eagerpy_xp.grad`, and the frameworks' own
entry points (``torch.compile``, ``torch.func``, ``jax.jit``/``vmap``/``grad``,
``tf.function``, ``tf.vectorized_map``) taking `Array`s.

The broad sweep (every function of the standard under each compiler) is the conformance
suite's ``compiled`` area (`conformance/test_compiled.py`); here: the API's contract, the
compositions, the flavours, recompilation, inductor, and a cold start in a fresh process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

BATCH = np.linspace(-1.5, 1.5, 12).reshape(4, 3).astype(np.float32)


def _native(backend: str, a: np.ndarray) -> Any:
    if backend == "torch":
        torch = pytest.importorskip("torch", reason="torch is not installed")
        return torch.asarray(a)
    if backend == "jax":
        jnp = pytest.importorskip("jax.numpy", reason="jax is not installed")
        return jnp.asarray(a)
    if backend == "tensorflow":
        tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")
        return tf.constant(a)
    if backend == "dask":
        da = pytest.importorskip("dask.array", reason="dask is not installed")
        return da.from_array(a, chunks=(2, 3))
    if backend == "mlx":
        mx = pytest.importorskip("mlx.core", reason="mlx is not installed")
        return mx.array(a)
    return np.array(a)


def _numpy(x: Any) -> np.ndarray:
    if type(x) is ep.Array:
        x = x.raw
    if hasattr(x, "compute"):
        x = x.compute()
    if hasattr(x, "detach"):
        x = x.detach()
    return np.asarray(x)


def _args(backend: str, flavour: str, *arrays: np.ndarray) -> list[Any]:
    natives = [_native(backend, a) for a in arrays]
    return [ep.astensor(n) for n in natives] if flavour == "wrapped" else natives


def _is_flavour(x: Any, backend: str, flavour: str) -> bool:
    if flavour == "wrapped":
        return type(x) is ep.Array and x.backend == backend
    return type(x) is not ep.Array and ep.namespace(x).__backend__.name == backend


FLAVOURS = ("native", "wrapped")
DIFFERENTIABLE = ("torch", "jax", "tensorflow", "mlx")
ALL = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")
#: torch's broad tests use aot_eager (inductor compiles slowly on 2 cores: a few below)
OPTIONS = {"torch": {"backend": "aot_eager"}}


def loss(w: Any) -> Any:
    xp = ep.namespace(w)
    return xp.sum(xp.tanh(w) ** 2)


def loss_grad_by_hand(v: np.ndarray) -> np.ndarray:
    t = np.tanh(v.astype(np.float64))
    return 2 * t * (1 - t**2)


def softmax_xent(logits: Any, labels: Any) -> Any:
    xp = ep.namespace(logits)
    z = logits - xp.max(logits, axis=-1, keepdims=True)
    log_p = z - xp.log(xp.sum(xp.exp(z), axis=-1, keepdims=True))
    picked = xp.take_along_axis(log_p, xp.expand_dims(labels, axis=-1), axis=-1)
    return -xp.mean(picked)


# -- eagerpy_xp.jit ------------------------------------------------------------------------
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("backend", ALL)
def test_jit_gives_the_eager_result_in_the_callers_flavour(backend: str, flavour: str) -> None:
    def f(x: Any, y: Any) -> Any:
        xp = ep.namespace(x)
        z = xp.where(x > 0, xp.clip(x, 0.1, 0.5), -x) @ xp.matrix_transpose(y)
        return {"z": z, "parts": (xp.sum(z, axis=0), z.shape)}

    x, y = _args(backend, flavour, BATCH, BATCH[::-1].copy())
    compiled = ep.jit(f, **OPTIONS)
    out = compiled(x, y)
    again = compiled(x, y)
    want = f(x, y)
    assert _is_flavour(out["z"], backend, flavour) and _is_flavour(out["parts"][0], backend, flavour)
    np.testing.assert_allclose(_numpy(out["z"]), _numpy(want["z"]), rtol=1e-6)
    np.testing.assert_allclose(_numpy(again["parts"][0]), _numpy(want["parts"][0]), rtol=1e-6)
    assert tuple(out["parts"][1]) == (4, 4)


def test_jit_on_dask_stays_lazy() -> None:
    da = pytest.importorskip("dask.array", reason="dask is not installed")
    x = da.from_array(BATCH, chunks=(2, 3))
    out = ep.jit(lambda a: ep.namespace(a).exp(a) * 2.0)(x)
    assert isinstance(out, da.Array)  # a graph, not computed values
    np.testing.assert_allclose(out.compute(), np.exp(BATCH) * 2.0, rtol=1e-6)


def test_jit_compiles_once_per_framework_and_takes_per_framework_options() -> None:
    jax = pytest.importorskip("jax", reason="jax is not installed")
    traces: list[str] = []

    def f(x: Any, n: int) -> Any:
        traces.append(type(x).__name__)
        return x * n

    compiled = ep.jit(f, jax={"static_argnums": 1}, torch={"backend": "aot_eager"})
    x = jax.numpy.ones(3)
    assert _numpy(compiled(x, 2)).tolist() == [2.0, 2.0, 2.0]
    assert _numpy(compiled(x + 1, 2)).tolist() == [4.0, 4.0, 4.0]
    assert len(traces) == 1  # jax.jit traced once: n is static, shapes equal
    assert _numpy(compiled(x, 3)).tolist() == [3.0, 3.0, 3.0]
    assert len(traces) == 2  # a new static n traces again
    assert _numpy(compiled(np.ones(2), 5)).tolist() == [5.0, 5.0]  # NumPy: as is, no options


def test_jit_decorator_forms() -> None:
    @ep.jit
    def double(x: Any) -> Any:
        return x * 2

    @ep.jit(torch={"backend": "aot_eager"})
    def triple(x: Any) -> Any:
        return x * 3

    assert double.__name__ == "double" and _numpy(double(np.ones(2))).tolist() == [2.0, 2.0]
    assert _numpy(triple(np.ones(2))).tolist() == [3.0, 3.0]


def test_jit_and_vmap_errors() -> None:
    with pytest.raises(TypeError, match="fn must be callable"):
        ep.jit(3)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="no array among the arguments"):
        ep.jit(lambda a: a)(1.0)
    with pytest.raises(TypeError, match="in_axes must be"):
        ep.vmap(lambda a: a, in_axes=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out_axes must be"):
        ep.vmap(lambda a: a, out_axes=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="in_axes has 2 entries for 1 positional"):
        ep.vmap(lambda a: a, in_axes=(0, None))(np.ones((2, 3)))
    with pytest.raises(ValueError, match="maps no argument"):
        ep.vmap(lambda a: a, in_axes=None)(np.ones((2, 3)))
    with pytest.raises(ValueError, match="one known size"):
        ep.vmap(lambda a, b: a + b)(np.ones((2, 3)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="out of range"):
        ep.vmap(lambda a: a, in_axes=2)(np.ones((2, 3)))
    torch = pytest.importorskip("torch", reason="torch is not installed")
    with pytest.raises(TypeError, match="several libraries"):
        ep.jit(lambda a, b: a)(np.ones(2), torch.ones(2))


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("backend", ALL)
def test_errors_inside_jit_keep_the_contract(backend: str, flavour: str) -> None:
    """A misuse inside compiled code raises what it raises eagerly (docs/errors.md): the
    contract's type, a message naming the function and backend; not the compiler's."""
    (x,) = _args(backend, flavour, BATCH)

    def wrong_dtype(a: Any) -> Any:
        xp = ep.namespace(a)
        return xp.sin(xp.astype(a, xp.int32))

    def bad_axis(a: Any) -> Any:
        return ep.namespace(a).sum(a, axis=5)

    with pytest.raises(TypeError, match=rf"eagerpy_xp\.{backend}\.sin: .*floating"):
        ep.jit(wrong_dtype, **OPTIONS)(x)
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.sum: .*axis"):
        ep.jit(bad_axis, **OPTIONS)(x)


# -- eagerpy_xp.vmap -----------------------------------------------------------------------
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("backend", ALL)
def test_vmap_equals_a_loop(backend: str, flavour: str) -> None:
    def f(row: Any, scale: Any) -> Any:
        xp = ep.namespace(row)
        return xp.stack([xp.sum(row * scale), xp.max(row)]), xp.flip(row, axis=0) * 2.0

    (batch,) = _args(backend, flavour, BATCH)
    firsts, seconds = ep.vmap(f, in_axes=(0, None), out_axes=(0, 1))(batch, 3.0)
    want_first = np.stack([[np.sum(r * 3.0), np.max(r)] for r in BATCH])
    want_second = np.stack([r[::-1] * 2.0 for r in BATCH], axis=1)
    assert _is_flavour(firsts, backend, flavour) and _is_flavour(seconds, backend, flavour)
    np.testing.assert_allclose(_numpy(firsts), want_first, rtol=1e-6)
    np.testing.assert_allclose(_numpy(seconds), want_second, rtol=1e-6)
    # in_axes=1 maps the columns; keyword arguments are not mapped
    cols = ep.vmap(lambda c, offset=0.0: c + offset, in_axes=1)(batch, offset=1.0)
    np.testing.assert_allclose(_numpy(cols), BATCH.T + 1.0, rtol=1e-6)


@pytest.mark.parametrize("backend", ["numpy", "dask"])
def test_vmap_loop_over_a_zero_size_axis_gives_the_result_shape(backend: str) -> None:
    (empty,) = _args(backend, "native", np.zeros((0, 3), np.float32))
    out = ep.vmap(lambda r: ep.namespace(r).stack([r * 2.0, r]))(empty)
    assert tuple(out.shape) == (0, 2, 3)
    assert out.dtype == ep.namespace(empty).float32


# -- composition: jit(vmap(grad)) ----------------------------------------------------------
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_per_example_gradients_under_jit_and_vmap(backend: str, flavour: str) -> None:
    (batch,) = _args(backend, flavour, BATCH)
    per_example = ep.jit(ep.vmap(lambda v: ep.grad(loss, v)), **OPTIONS)
    got = per_example(batch)
    loop = np.stack([_numpy(ep.grad(loss, row)) for row in _args(backend, flavour, *BATCH)])
    assert _is_flavour(got, backend, flavour)
    np.testing.assert_allclose(_numpy(got), loop, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_numpy(got), loss_grad_by_hand(BATCH), rtol=1e-5, atol=1e-6)
    # and value_and_grad, with aux, inside vmap alone
    value, aux, grads = ep.vmap(lambda v: ep.value_and_grad(
        lambda w: (loss(w), {"w2": w * 2.0}), v, has_aux=True))(batch)
    np.testing.assert_allclose(_numpy(value), np.sum(np.tanh(BATCH) ** 2, axis=1), rtol=1e-5)
    np.testing.assert_allclose(_numpy(aux["w2"]), BATCH * 2.0, rtol=1e-6)
    np.testing.assert_allclose(_numpy(grads), loss_grad_by_hand(BATCH), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("backend", DIFFERENTIABLE)
def test_grad_under_jit(backend: str, flavour: str) -> None:
    logits, = _args(backend, flavour, BATCH)
    labels = _native(backend, np.array([0, 2, 1, 0]))
    labels = ep.astensor(labels) if flavour == "wrapped" else labels
    step = ep.jit(lambda z, y: ep.value_and_grad(softmax_xent, z, y), **OPTIONS)
    value, grad = step(logits, labels)
    want_value, want_grad = ep.value_and_grad(softmax_xent, logits, labels)
    assert _is_flavour(grad, backend, flavour)
    np.testing.assert_allclose(_numpy(value), _numpy(want_value), rtol=1e-5)
    np.testing.assert_allclose(_numpy(grad), _numpy(want_grad), rtol=1e-5, atol=1e-7)


# -- the frameworks' own entry points with Arrays -----------------------------------------
def test_torch_compile_wrapped_flavour_one_graph_no_recompile() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")

    def f(x: Any) -> Any:
        xp = ep.namespace(x)
        y = xp.asarray(x, copy=True)
        y[..., 0] = 0.0
        z = xp.tanh(y @ y.mT) + xp.astype(~(x > 0), x.dtype)
        return xp.linalg.vector_norm(xp.linalg.solve(z + 4 * xp.eye(4), x), axis=-1)

    x = ep.astensor(torch.randn(4, 4, dtype=torch.float64))
    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    out = compiled(x)
    with torch._dynamo.config.patch(error_on_recompile=True):
        again = compiled(ep.astensor(torch.randn(4, 4, dtype=torch.float64)))
    assert type(out) is ep.Array and type(again) is ep.Array
    np.testing.assert_allclose(_numpy(out), _numpy(f(x)), rtol=1e-10)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_torch_inductor(flavour: str) -> None:
    """The default backend (inductor, which generates and compiles C++ on the CPU: slow
    on small machines, so one combined case)."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    logits, = _args("torch", flavour, BATCH)
    labels = torch.tensor([0, 2, 1, 0])
    labels = ep.astensor(labels) if flavour == "wrapped" else labels

    def step(z: Any, y: Any) -> Any:
        xp = ep.namespace(z)
        s = ep.softmax(z @ xp.matrix_transpose(z) @ z, axis=-1)
        return s, ep.value_and_grad(softmax_xent, z, y)

    compiled = torch.compile(step, fullgraph=True)
    (s, (value, grad)), (s0, (value0, grad0)) = compiled(logits, labels), step(logits, labels)
    assert _is_flavour(s, "torch", flavour) and _is_flavour(grad, "torch", flavour)
    np.testing.assert_allclose(_numpy(s), _numpy(s0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(_numpy(value), _numpy(value0), rtol=1e-5)
    np.testing.assert_allclose(_numpy(grad), _numpy(grad0), rtol=1e-5, atol=1e-7)


def _kernels(codes: list[str]) -> list[str]:
    """inductor's generated code without what names it (hashes, kernel and argument names,
    comments, the benchmark harness at its end)."""
    import re

    text = "\n".join(codes)
    text = re.sub(r"[0-9a-z]{52}", "H", text)
    text = re.sub(r"cpp_fused_\w+", "K", text)
    text = re.sub(r"arg\d+_1", "ARG", text)
    text = re.sub(r"#.*", "", text)
    text = text.split("def benchmark_compiled_module")[0].split("def get_args")[0]
    return [line.rstrip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_torch_inductor_compiles_the_same_kernels_as_code_by_hand(flavour: str) -> None:
    """The portable cross-entropy and its gradient compile to the very kernels of the same
    math written with torch by hand (take_along_dim counts negative labels from the end,
    as the standard's take_along_axis must): eagerpy_xp leaves nothing in the graph."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from torch._inductor.utils import run_and_get_code

    def by_hand(z: Any, y: Any) -> Any:
        def mean_xent(q: Any) -> Any:
            shifted = q - q.amax(dim=-1, keepdim=True)
            log_p = shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
            return -torch.mean(torch.take_along_dim(log_p, y[:, None], dim=-1))

        grad, value = torch.func.grad_and_value(mean_xent)(z)
        return value, grad

    logits = torch.randn(6, 5)
    labels = torch.tensor([0, 4, -1, 2, -5, 3])

    def portable(z: Any, y: Any) -> Any:
        return ep.value_and_grad(softmax_xent, z, y)

    torch._dynamo.reset()
    want, hand_code = run_and_get_code(torch.compile(by_hand, fullgraph=True), logits, labels)
    args = (logits, labels) if flavour == "native" else (ep.astensor(logits), ep.astensor(labels))
    torch._dynamo.reset()
    got, code = run_and_get_code(torch.compile(portable, fullgraph=True), *args)
    assert _is_flavour(got[1], "torch", flavour)
    np.testing.assert_allclose(_numpy(got[0]), want[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(_numpy(got[1]), want[1].numpy(), rtol=1e-6, atol=1e-8)
    assert _kernels(code) == _kernels(hand_code)


def test_torch_func_transforms_take_arrays() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")
    batch = ep.astensor(torch.asarray(BATCH))
    rows = torch.func.vmap(lambda r: ep.namespace(r).sum(r * r))(batch)
    assert type(rows) is ep.Array
    np.testing.assert_allclose(_numpy(rows), np.sum(BATCH**2, axis=1), rtol=1e-6)
    g = torch.func.grad(lambda w: loss(w).raw)(batch)
    assert type(g) is ep.Array
    np.testing.assert_allclose(_numpy(g), loss_grad_by_hand(BATCH), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("jit_compile", [True, False])
def test_tf_function_keeps_arrays_and_setitem_inside(jit_compile: bool) -> None:
    tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")

    @tf.function(jit_compile=jit_compile)
    def f(y: Any) -> Any:
        xp = ep.namespace(y)
        z = xp.asarray(y, copy=True)
        z[..., 0] = 0.0
        z[z < -1.0] = -1.0
        return z * 2.0, xp.sum(z @ z.mT)

    x = ep.astensor(tf.constant(BATCH))
    z, total = f(x)
    assert type(z) is ep.Array and type(total) is ep.Array
    want = BATCH.copy()
    want[..., 0] = 0.0
    want[want < -1.0] = -1.0
    np.testing.assert_allclose(_numpy(z), want * 2.0, rtol=1e-6)
    np.testing.assert_allclose(_numpy(total), np.sum(want @ want.T), rtol=1e-5)
    f(ep.astensor(tf.constant(BATCH + 1.0)))
    assert f.experimental_get_tracing_count() == 1
    assert x.raw is not z.raw and _numpy(x)[0, 0] == BATCH[0, 0]  # the input is unchanged


def test_tf_jit_takes_arrays_apart_at_the_boundary() -> None:
    """`ep.jit` on TensorFlow hands ``tf.function`` tensors only: Arrays anywhere in the
    arguments (nests, keywords, beside tensors and Python values) reach ``fn`` as
    Arrays, its Array results come back as Arrays and its tensors as tensors; one trace
    per pattern of Arrays and shapes, none on a repeat; AutoGraph still converts ``fn``'s
    Python control flow on tensors; the arguments are never written to."""
    tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")
    seen: list[tuple[str, ...]] = []

    def f(x: Any, pair: Any, *, scale: Any, k: int) -> Any:
        seen.append(tuple(type(v).__name__ for v in (x, pair[0], pair[1], scale)))
        xp = ep.namespace(x)
        z = xp.asarray(x, copy=True)
        if type(z) is ep.Array:  # (a tf.Tensor has no item assignment)
            z[..., 0] = 0.0
        if tf.reduce_sum(tf.convert_to_tensor(z)) > 0:  # on a tensor: AutoGraph's tf.cond
            z = z * k
        else:
            z = z - k
        return {"z": z * scale, "raw": tf.reduce_sum(pair[1]), "n": k}, (pair[0] + 1.0,)

    compiled = ep.jit(f)
    a, t = tf.constant(BATCH), tf.constant(BATCH + 1.0)
    for x, first, scale in [(ep.astensor(a), ep.astensor(t), ep.astensor(tf.constant(2.0))),
                            (a, t, tf.constant(2.0)), (ep.astensor(a), t, 2.0)]:
        for positive in (True, False):
            arg = x if positive else -x
            got = compiled(arg, (first, t), scale=scale, k=3)
            want = f(arg, (first, t), scale=scale, k=3)
            assert type(got[0]["z"]) is type(want[0]["z"]) and got[0]["n"] == 3
            assert type(got[1][0]) is type(first) and type(got[0]["raw"]) is not ep.Array
            np.testing.assert_allclose(_numpy(got[0]["z"]), _numpy(want[0]["z"]), rtol=1e-6)
            np.testing.assert_allclose(_numpy(got[1][0]), _numpy(want[1][0]), rtol=1e-6)
            np.testing.assert_allclose(_numpy(got[0]["raw"]), np.sum(BATCH + 1.0), rtol=1e-6)
    assert _numpy(a)[0, 0] == BATCH[0, 0]
    # traced once per pattern of Arrays (each with a call of f eagerly beside: 2 a pattern)
    # traced once per pattern of Arrays, with Arrays where the caller passed them
    traced = [kinds for kinds in seen if "SymbolicTensor" in kinds]
    assert traced == [("Array", "Array", "SymbolicTensor", "Array"), ("SymbolicTensor",) * 4,
                      ("Array", "SymbolicTensor", "SymbolicTensor", "float")]
    assert len(seen) == 3 + 6  # and the eager calls beside
    before = len(seen)
    compiled(ep.astensor(a + 5.0), (ep.astensor(t), t), scale=ep.astensor(tf.constant(4.0)), k=3)
    assert len(seen) == before  # no new trace for new values of the same shapes
    hook = ep.namespace(a).__backend__.compile(f, {})  # what eagerpy_xp.jit calls per backend
    hook(ep.astensor(a), (ep.astensor(t), t), scale=2.0, k=3)
    hook(a, (t, t), scale=2.0, k=3)
    assert hook.experimental_get_tracing_count() == 2  # as tf.function counts its own
    # positional arguments only (the call without nests or keywords)
    product = ep.jit(lambda u, v, w: (u * v + w, v))
    for u, v in [(ep.astensor(a), ep.astensor(t)), (a, t), (ep.astensor(a), t), (a, ep.astensor(t))]:
        for w in (1.0, 2):
            got = product(u, v, w)
            assert type(got[0]) is type(u * v) and type(got[1]) is type(v)
            np.testing.assert_allclose(_numpy(got[0]), BATCH * (BATCH + 1.0) + w, rtol=1e-6)


def test_tf_vectorized_map_takes_arrays() -> None:
    """`Array`s in; native results out.  An `Array` result trips TensorFlow's structure
    check, which compares ``len()`` of the per-example and the stacked result (a custom
    nest's length is its component count elsewhere in TensorFlow): `eagerpy_xp.vmap`
    passes tensors across the map instead (docs/compile.md)."""
    tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")
    batch = ep.astensor(tf.constant(BATCH))
    out = tf.vectorized_map(lambda r: ep.namespace(r).sum(r * r).raw, batch)
    np.testing.assert_allclose(_numpy(out), np.sum(BATCH**2, axis=1), rtol=1e-6)
    out = ep.vmap(lambda r: ep.namespace(r).sum(r * r))(batch)
    assert type(out) is ep.Array
    np.testing.assert_allclose(_numpy(out), np.sum(BATCH**2, axis=1), rtol=1e-6)


def test_tf_refuses_under_xla_what_xla_cannot_compile() -> None:
    """Data-dependent shapes (TensorFlow's XLA bridge can abort the process reading their
    size back) and functions without an XLA CPU kernel: the contract's NotImplementedError
    at trace time; without jit_compile they work."""
    tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")
    import eagerpy_xp.tensorflow as xp

    x = ep.astensor(tf.constant([[1.0, 0.0], [2.0, 3.0]]))
    for name, call in [("nonzero", lambda a: xp.nonzero(a)[0]),
                       ("unique_values", xp.unique_values),
                       ("linalg.det", xp.linalg.det),
                       ("Array.__getitem__", lambda a: a[a > 0.5])]:  # fmt: skip
        with pytest.raises(NotImplementedError, match=f"eagerpy_xp.tensorflow.{name}: .*jit_compile"):
            tf.function(call, jit_compile=True)(x)
        tf.function(call, jit_compile=False)(x)  # the graph runs it


def test_jax_transforms_keep_arrays_and_refuse_data_dependent_shapes() -> None:
    jax = pytest.importorskip("jax", reason="jax is not installed")
    import eagerpy_xp.jax as xp

    batch = ep.astensor(jax.numpy.asarray(BATCH))
    out = jax.jit(jax.vmap(jax.grad(lambda w: loss(w).raw)))(batch)
    assert type(out) is ep.Array
    np.testing.assert_allclose(_numpy(out), loss_grad_by_hand(BATCH), rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match=r"eagerpy_xp\.jax\.nonzero: .*data-dependent"):
        jax.jit(lambda a: xp.nonzero(a)[0])(batch)


# -- torch: the guards eagerpy_xp.jit keeps -------------------------------------------------
def _guard_entries(fn: Any, *args: Any) -> list[Any]:
    """Every guard Dynamo makes for ``fn(*args)`` (a spying ``guard_filter_fn`` that keeps
    all), through plain ``torch.compile``."""
    import torch

    seen: list[Any] = []
    torch._dynamo.reset()  # (a code object compiled before would not be traced again)

    def spy(entries: list[Any]) -> list[bool]:
        seen.extend(entries)
        return [True] * len(entries)

    torch.compile(fn, fullgraph=True, backend="eager", options={"guard_filter_fn": spy})(*args)
    return seen


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_torch_guards_on_eagerpy_xps_own_state_are_dropped(flavour: str) -> None:
    """Portable code makes Dynamo guard on eagerpy_xp's tables, closures and the backend
    an `Array` carries (fixed once a backend is built); `ep.jit` drops those guards, so
    what is left is about what the same code written with torch alone has, and every
    guard on an argument, on the caller's globals and on global state stays."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from eagerpy_xp.native._torch._compile import own_guards_dropped

    logits, labels = torch.randn(6, 5), torch.tensor([0, 4, 1, 3, 2, -1])
    args = [ep.astensor(logits), ep.astensor(labels)] if flavour == "wrapped" else [logits, labels]

    def by_hand(z: Any, y: Any) -> Any:
        shifted = z - z.amax(dim=-1, keepdim=True)
        log_p = shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
        return -torch.take_along_dim(log_p, y[:, None], dim=-1).mean()

    hand = _guard_entries(by_hand, logits, labels)
    entries = _guard_entries(softmax_xent, *args)
    kept = [e for e, k in zip(entries, own_guards_dropped()(entries)) if k]
    dropped = [e for e in entries if e not in kept]
    assert len(entries) > 10 * len(hand)  # what there is to drop (205 and 226 against 13)
    assert len(kept) <= 3 * len(hand), sorted(e.name for e in kept)  # (29 and 36)
    assert not [e.name for e in kept if "__import_eagerpy_xp" in e.name]
    for e in dropped:
        assert "__import_eagerpy_xp" in e.name or "___unnamed_scope" in e.name \
            or "._b" in e.name, e.name  # fmt: skip
    kinds = {(e.guard_type, e.name) for e in kept}
    raws = ("logits._raw", "labels._raw") if flavour == "wrapped" else ("logits", "labels")
    assert {("TENSOR_MATCH", raw) for raw in raws} <= kinds
    if flavour == "wrapped":
        assert {("TYPE_MATCH", "logits"), ("TYPE_MATCH", "labels")} <= kinds
    assert {"GLOBAL_STATE", "GRAD_MODE", "DEFAULT_DEVICE"} <= {e.guard_type for e in kept}
    assert ("MODULE_MATCH", "G['ep']") in kinds  # the caller's own global


def test_torch_jit_recompiles_where_the_result_would_differ() -> None:
    """With eagerpy_xp's guards dropped, every change that changes the result still
    recompiles: dtype, shape, flavour, torch's default dtype; each call equals the eager
    one in value, dtype and flavour."""
    torch = pytest.importorskip("torch", reason="torch is not installed")

    def f(x: Any) -> Any:
        xp = ep.namespace(x)
        return xp.sum(x * 2 + 1, axis=-1) + xp.ones(x.shape[0]), xp.asarray(1.5) + xp.zeros(1)

    compiled = ep.jit(f, backend="eager", recompile_limit=32)
    calls = [torch.ones(3), torch.ones(3, dtype=torch.float64), ep.astensor(torch.ones(3)),
             ep.astensor(torch.arange(3)), torch.ones(2, 4), ep.astensor(torch.ones(2, 4))]
    try:
        for default in (torch.float32, torch.float64):
            torch.set_default_dtype(default)
            for x in calls:
                got, want = compiled(x), f(x)
                for g, w in zip(got, want):
                    assert type(g) is type(w) and g.dtype == w.dtype and g.shape == w.shape
                    np.testing.assert_array_equal(_numpy(g), _numpy(w))
    finally:
        torch.set_default_dtype(torch.float32)


def test_torch_jit_settings_keep_the_callers_filter_and_mode() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from eagerpy_xp.native._torch._compile import _settings

    defaults = _settings({})
    assert defaults["fullgraph"] is True and set(defaults["options"]) == {"guard_filter_fn"}
    # inductor's mode becomes the options it stands for (torch takes no options beside it)
    reduce = _settings({"mode": "reduce-overhead"})
    assert "mode" not in reduce and reduce["options"]["triton.cudagraphs"] is True
    assert "guard_filter_fn" in reduce["options"]
    assert set(_settings({"mode": "default"})["options"]) == {"guard_filter_fn"}
    # another backend takes its mode itself; both mode and options: torch's own error
    assert _settings({"backend": "aot_eager", "mode": "x"}) == {
        "fullgraph": True, "backend": "aot_eager", "mode": "x"}
    assert "guard_filter_fn" not in _settings({"mode": "m", "options": {}})["options"]
    # the caller's filter is asked too, and a guard it drops stays dropped
    asked: list[int] = []

    def theirs(entries: list[Any]) -> list[bool]:
        asked.append(len(entries))
        return [e.guard_type != "TENSOR_MATCH" for e in entries]

    given = {"backend": "eager", "options": {"guard_filter_fn": theirs}}
    settings = _settings(given)
    assert given == {"backend": "eager", "options": {"guard_filter_fn": theirs}}
    assert settings["options"]["guard_filter_fn"] is not theirs
    compiled = torch.compile(lambda x: x * 2, **settings)
    assert compiled(torch.ones(2)).tolist() == [2.0, 2.0] and asked
    # no tensor guard kept: another dtype reuses the graph (what the caller asked for)
    with torch._dynamo.config.patch(error_on_recompile=True):
        compiled(torch.ones(3, dtype=torch.float64))


# -- cold starts and recompilation, each in a fresh process -------------------------------
def _run_fresh(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, timeout=600, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_torch_compile_cold_start_traces_once(flavour: str) -> None:
    """The first eagerpy_xp call ever is inside the compiled function (the backend is
    imported while Dynamo traces): one graph, no recompilation on the next calls, not
    even after another framework's backend is imported between them."""
    pytest.importorskip("torch", reason="torch is not installed")
    out = _run_fresh(f"""
        import torch, eagerpy_xp as ep
        def f(x):
            xp = ep.namespace(x)
            return xp.tanh(x @ xp.matrix_transpose(x)) * 2.0 + xp.sum(x, axis=-1, keepdims=True)
        x = torch.randn(3, 3)
        arg = ep.astensor(x) if {flavour == "wrapped"} else x
        c = torch.compile(f, fullgraph=True, backend="eager")
        first = c(arg)
        with torch._dynamo.config.patch(error_on_recompile=True):
            c(arg * 1.0)
            import eagerpy_xp.numpy, numpy
            ep.namespace(numpy.ones(2)); ep.astensor(numpy.ones(2)) + 1.0
            c(arg)
        print(type(first).__name__)
    """)
    assert out.split()[-1] == ("Array" if flavour == "wrapped" else "Tensor")
