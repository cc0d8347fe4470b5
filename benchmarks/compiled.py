"""Portable code under each framework's compiler against code written by hand for it.

Three real workloads are written once with eagerpy_xp (standard functions found with
``xp = eagerpy_xp.namespace(x)``, gradients by `eagerpy_xp.value_and_grad`/`grad`) and
by hand for torch, JAX and TensorFlow, the way a user of each framework writes them:

* ``mlp``: one SGD step of a 2-hidden-layer MLP (tanh, relu) with softmax
  cross-entropy: the loss, its gradient with respect to the six parameters, the update.
* ``pgd``: one Foolbox-style L-inf PGD step against a fixed one-hidden-layer model: the
  gradient of the summed cross-entropy with respect to the input, ``x + alpha *
  sign(grad)``, projected into the ``eps`` ball around ``x0`` and clipped to [0, 1].
* ``xent``: the mean softmax cross-entropy of a batch of logits and its gradient.

By hand: torch code uses ``torch.func.grad_and_value`` and ``F.cross_entropy`` under
``torch.compile(fullgraph=True)``; JAX code ``jax.value_and_grad``,
``jax.nn.log_softmax`` and ``jax.nn.relu`` under ``jax.jit``; TensorFlow code a
``tf.GradientTape`` and ``tf.nn.sparse_softmax_cross_entropy_with_logits`` under
``tf.function(jit_compile=True)``.  The portable code has no fused cross-entropy: it
shifts by the row maximum, takes ``log(sum(exp))`` and picks with ``take_along_axis``.

Variants of each workload, float32, all on the CPU (or the framework's default device):

* ``hand``: the hand-written code under the framework's compiler;
* ``same``: the hand-written code spelling out what the portable code computes: the
  cross-entropy as shift by the row maximum, ``log(sum(exp))`` and a pick along the last
  axis (the gradient also flows through the row maximum, which the fused kernels and
  ``jax.nn.log_softmax`` skip), ReLU as ``maximum(v, 0)``, and what the standard's
  functions add to the framework's ops: a negative label counts from the end (torch's
  ``take_along_dim`` and ``jax.numpy``'s already do so; on TensorFlow a ``where``), a
  row maximum is NaN where the row holds NaN (TensorFlow under XLA skips NaN), ``sign``
  keeps NaN (torch's gives 0).  ``same ÷ hand`` is the cost of the formulation and the
  standard's semantics; ``native``/``wrapped ÷ same`` is eagerpy_xp's own;
* ``bare``: ``hand``'s compiled object called through a bare Python function, the
  calibration: what one do-nothing Python layer and the noise of the machine give;
* ``native``: the portable code on the framework's own arrays under `eagerpy_xp.jit`;
* ``wrapped``: the portable code on `eagerpy_xp.Array` under `eagerpy_xp.jit`;
* ``eager``: the portable code on native arrays without a compiler (informative).

Every variant's result is checked against ``hand`` (`numpy.testing.assert_allclose`,
and the flavour of every result) before anything is timed.  Compile time is the first
call of a freshly compiled object (torch: ``torch._dynamo.reset()`` and a fresh, private
inductor cache; JAX: ``jax.clear_caches()``; TensorFlow: a new ``tf.function``), repeated
``--compiles`` times with the variants in rotated order; medians.  Steady state: after a
warm-up, rounds in which every compiled variant runs once, in a random order, each call
synchronised (the garbage collector runs every 50 rounds, untimed); the median time of
each, and the median over rounds of its time divided by ``hand``'s (or ``same``'s) in
that round: paired, so a change of the machine's load falls on both sides of a ratio.
``eager`` is timed alone afterwards (after its many small calls the next call starts
slowly, which would fall on whichever variant follows it).  Target: ``native`` and
``wrapped`` within 2 % of ``hand``, and of ``same`` where the formulation differs.

``--processes N`` times the steady state in N fresh processes instead (each builds the
compiled objects anew from warm compile caches and runs ``rounds / N`` rounds), the
samples pooled: on some machines a compiled object's time is shifted by several per
cent for the whole life of a process (two torch objects with the very same inductor
kernels measured 1.05 in one process and 0.91 in the next), which one process cannot
tell from a real difference.  What the compiled programs are is checked without a
clock in tests/test_compile.py: the portable cross-entropy and its gradient compile to
the very inductor kernels of ``same``.

On a machine whose cores are busy, torch's intra-op threads wait for each other: run with
``OMP_NUM_THREADS=1`` there (the thread counts are printed with the results).

    python -m benchmarks.compiled [--frameworks torch jax tensorflow]
        [--workloads mlp pgd xent] [--rounds 100] [--compiles 3] [--small]
        [--torch-backend inductor] [--no-eager] [--processes 1]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import eagerpy_xp as ep

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

FRAMEWORKS = ("torch", "jax", "tensorflow")
WORKLOADS = ("mlp", "pgd", "xent")
COMPILED = ("hand", "same", "native", "wrapped")  # the variants that are compiled
LR = 0.05  # the SGD step of ``mlp``
EPS = 0.03  # the radius of ``pgd``'s ball
ALPHA = 0.01  # ``pgd``'s step


# -- the portable code, written once --------------------------------------------------------
def _picked_log_probs(xp: Any, logits: Any, labels: Any) -> Any:
    """``log_softmax(logits)[i, labels[i]]`` for each row ``i``."""
    shifted = logits - xp.max(logits, axis=-1, keepdims=True)
    log_p = shifted - xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    return xp.take_along_axis(log_p, xp.expand_dims(labels, axis=-1), axis=-1)


def mean_xent(logits: Any, labels: Any) -> Any:
    """The mean softmax cross-entropy of the rows of ``logits``."""
    xp = ep.namespace(logits)
    return -xp.mean(_picked_log_probs(xp, logits, labels))


def mlp_loss(w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any, x: Any, labels: Any) -> Any:
    xp = ep.namespace(x)
    h = xp.tanh(x @ w1 + b1)
    h = xp.maximum(h @ w2 + b2, 0.0)
    return mean_xent(h @ w3 + b3, labels)


def mlp_step(w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any, x: Any, labels: Any
             ) -> tuple[tuple[Any, ...], Any]:  # fmt: skip
    """One SGD step: the new parameters and the loss before it."""
    params = (w1, b1, w2, b2, w3, b3)
    loss, grads = ep.value_and_grad(mlp_loss, *params, x, labels, argnums=(0, 1, 2, 3, 4, 5))
    return tuple(p - LR * g for p, g in zip(params, grads)), loss


def pgd_loss(x: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
    """The summed cross-entropy of the fixed model (what Foolbox's attacks ascend)."""
    xp = ep.namespace(x)
    logits = xp.maximum(x @ w1 + b1, 0.0) @ w2 + b2
    return -xp.sum(_picked_log_probs(xp, logits, labels))


def pgd_step(x: Any, x0: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
    """One L-inf PGD step from ``x`` (the attack started at ``x0``)."""
    xp = ep.namespace(x)
    g = ep.grad(pgd_loss, x, labels, w1, b1, w2, b2)
    x = x + ALPHA * xp.sign(g)
    x = x0 + xp.clip(x - x0, -EPS, EPS)
    return xp.clip(x, 0.0, 1.0)


def xent_step(logits: Any, labels: Any) -> tuple[Any, Any]:
    """The mean cross-entropy and its gradient with respect to the logits."""
    return ep.value_and_grad(mean_xent, logits, labels)


PORTABLE: dict[str, Callable[..., Any]] = {"mlp": mlp_step, "pgd": pgd_step, "xent": xent_step}


# -- by hand, per framework --------------------------------------------------------------
def _hand_torch(spelled: bool) -> dict[str, Callable[..., Any]]:
    import torch
    import torch.nn.functional as F

    def picked(logits: Any, labels: Any) -> Any:
        """(spelled) ``log_softmax(logits)[i, labels[i]]``, shape (n, 1); take_along_dim
        counts a negative label from the end, as the standard's take_along_axis does."""
        shifted = logits - logits.amax(dim=-1, keepdim=True)
        log_p = shifted - torch.log(torch.exp(shifted).sum(dim=-1, keepdim=True))
        return torch.take_along_dim(log_p, labels[:, None], dim=-1)

    def reduced_xent(reduction: str, logits: Any, labels: Any) -> Any:
        """The cross-entropy of the rows, reduced by their "mean" or "sum"."""
        if spelled:
            return -getattr(torch, reduction)(picked(logits, labels))
        return F.cross_entropy(logits, labels, reduction=reduction)

    def relu(v: Any) -> Any:
        return torch.clamp_min(v, 0.0) if spelled else torch.relu(v)

    def sign(g: Any) -> Any:  # (spelled) NaN stays NaN, as the standard's sign
        return torch.where(g != g, g, torch.sign(g)) if spelled else torch.sign(g)

    def loss(params: tuple[Any, ...], x: Any, labels: Any) -> Any:
        w1, b1, w2, b2, w3, b3 = params
        h = torch.tanh(x @ w1 + b1)
        h = relu(h @ w2 + b2)
        return reduced_xent("mean", h @ w3 + b3, labels)

    def mlp(w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any, x: Any, labels: Any) -> Any:
        params = (w1, b1, w2, b2, w3, b3)
        grads, value = torch.func.grad_and_value(loss)(params, x, labels)
        return tuple(p - LR * g for p, g in zip(params, grads)), value

    def attacked(x: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        return reduced_xent("sum", relu(x @ w1 + b1) @ w2 + b2, labels)

    def pgd(x: Any, x0: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        g = torch.func.grad(attacked)(x, labels, w1, b1, w2, b2)
        x = x + ALPHA * sign(g)
        x = x0 + torch.clamp(x - x0, -EPS, EPS)
        return torch.clamp(x, 0.0, 1.0)

    def xent(logits: Any, labels: Any) -> Any:
        g, value = torch.func.grad_and_value(lambda z: reduced_xent("mean", z, labels))(logits)
        return value, g

    return {"mlp": mlp, "pgd": pgd, "xent": xent}


def _hand_jax(spelled: bool) -> dict[str, Callable[..., Any]]:
    import jax
    import jax.numpy as jnp

    def cross_entropy(logits: Any, labels: Any) -> Any:
        if spelled:
            shifted = logits - jnp.max(logits, axis=-1, keepdims=True)
            log_p = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))
        else:
            log_p = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(log_p, labels[:, None], axis=-1)[:, 0]

    def loss(params: tuple[Any, ...], x: Any, labels: Any) -> Any:
        w1, b1, w2, b2, w3, b3 = params
        h = jnp.tanh(x @ w1 + b1)
        h = jax.nn.relu(h @ w2 + b2)
        return jnp.mean(cross_entropy(h @ w3 + b3, labels))

    def mlp(w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any, x: Any, labels: Any) -> Any:
        params = (w1, b1, w2, b2, w3, b3)
        value, grads = jax.value_and_grad(loss)(params, x, labels)
        return tuple(p - LR * g for p, g in zip(params, grads)), value

    def attacked(x: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        logits = jax.nn.relu(x @ w1 + b1) @ w2 + b2
        return jnp.sum(cross_entropy(logits, labels))

    def pgd(x: Any, x0: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        g = jax.grad(attacked)(x, labels, w1, b1, w2, b2)
        x = x + ALPHA * jnp.sign(g)
        x = x0 + jnp.clip(x - x0, -EPS, EPS)
        return jnp.clip(x, 0.0, 1.0)

    def xent(logits: Any, labels: Any) -> Any:
        return jax.value_and_grad(lambda z: jnp.mean(cross_entropy(z, labels)))(logits)

    return {"mlp": mlp, "pgd": pgd, "xent": xent}


def _hand_tensorflow(spelled: bool) -> dict[str, Callable[..., Any]]:
    import tensorflow as tf

    def picked(logits: Any, labels: Any) -> Any:
        """(spelled) ``log_softmax(logits)[i, labels[i]]``, shape (n, 1), with what the
        standard adds to TensorFlow's ops: the row maximum is NaN where a row holds NaN
        (XLA's reduce_max skips it) and a negative label counts from the end."""
        top = tf.reduce_max(logits, axis=-1, keepdims=True)
        nan = tf.reduce_any(tf.math.is_nan(logits), axis=-1, keepdims=True)
        shifted = logits - tf.where(nan, tf.constant(float("nan"), logits.dtype), top)
        log_p = shifted - tf.math.log(tf.reduce_sum(tf.exp(shifted), axis=-1, keepdims=True))
        index = labels[:, None]
        index = tf.where(index < 0, index + tf.shape(logits, out_type=index.dtype)[-1], index)
        return tf.gather(log_p, index, axis=1, batch_dims=1)

    def reduced_xent(reduce: Callable[[Any], Any], logits: Any, labels: Any) -> Any:
        """The cross-entropy of the rows, reduced by ``reduce`` (their mean or sum)."""
        if spelled:
            return -reduce(picked(logits, labels))
        return reduce(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))

    def relu(v: Any) -> Any:
        return tf.maximum(v, 0.0) if spelled else tf.nn.relu(v)

    def mlp(w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any, x: Any, labels: Any) -> Any:
        params = [w1, b1, w2, b2, w3, b3]
        with tf.GradientTape() as tape:
            tape.watch(params)
            h = tf.tanh(x @ w1 + b1)
            h = relu(h @ w2 + b2)
            value = reduced_xent(tf.reduce_mean, h @ w3 + b3, labels)
        grads = tape.gradient(value, params)
        return tuple(p - LR * g for p, g in zip(params, grads)), value

    def pgd(x: Any, x0: Any, labels: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            logits = relu(x @ w1 + b1) @ w2 + b2
            value = reduced_xent(tf.reduce_sum, logits, labels)
        g = tape.gradient(value, x)
        x = x + ALPHA * tf.sign(g)
        x = x0 + tf.clip_by_value(x - x0, -EPS, EPS)
        return tf.clip_by_value(x, 0.0, 1.0)

    def xent(logits: Any, labels: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(logits)
            value = reduced_xent(tf.reduce_mean, logits, labels)
        return value, tape.gradient(value, logits)

    return {"mlp": mlp, "pgd": pgd, "xent": xent}


#: framework -> (spelled -> workload -> function): the framework's cross-entropy, or
#: (spelled) the portable code's formulation of it written with the framework's functions
HAND: dict[str, Callable[[bool], dict[str, Callable[..., Any]]]] = {
    "torch": _hand_torch, "jax": _hand_jax, "tensorflow": _hand_tensorflow}  # fmt: skip


# -- inputs -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sizes:
    batch: int  # rows of mlp and pgd
    features: int  # inputs of mlp and pgd
    hidden: int  # width of the hidden layers
    classes: int  # outputs of mlp and pgd
    xent_batch: int
    xent_classes: int


FULL = Sizes(batch=256, features=784, hidden=256, classes=10, xent_batch=2048, xent_classes=1000)
SMALL = Sizes(batch=16, features=32, hidden=16, classes=10, xent_batch=64, xent_classes=100)


def _data(workload: str, sizes: Sizes) -> tuple[np.ndarray, ...]:
    """The arguments of ``workload`` as NumPy arrays (labels int64), fixed by a seed."""
    rng = np.random.default_rng(0)

    def normal(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    n, d, h, c = sizes.batch, sizes.features, sizes.hidden, sizes.classes
    if workload == "mlp":
        return (normal(d, h, scale=d**-0.5), normal(h, scale=0.1),
                normal(h, h, scale=h**-0.5), normal(h, scale=0.1),
                normal(h, c, scale=h**-0.5), normal(c, scale=0.1),
                normal(n, d), rng.integers(0, c, n))  # fmt: skip
    if workload == "pgd":
        x0 = rng.uniform(0.0, 1.0, (n, d)).astype(np.float32)
        x = np.clip(x0 + rng.uniform(-EPS, EPS, (n, d)).astype(np.float32), 0.0, 1.0)
        return (x, x0, rng.integers(0, c, n), normal(d, h, scale=d**-0.5), normal(h, scale=0.1),
                normal(h, c, scale=h**-0.5), normal(c, scale=0.1))  # fmt: skip
    m = sizes.xent_classes
    return normal(sizes.xent_batch, m, scale=3.0), rng.integers(0, m, sizes.xent_batch)


def _native(framework: str, a: np.ndarray) -> Any:
    """``a`` as the framework's array (labels: int64 on torch, int32 on JAX and TF)."""
    if framework == "torch":
        import torch

        return torch.from_numpy(a)
    if a.dtype == np.int64:
        a = a.astype(np.int32)
    if framework == "jax":
        import jax.numpy as jnp

        return jnp.asarray(a)
    import tensorflow as tf

    return tf.constant(a)


# -- compiling, synchronising, comparing ---------------------------------------------------
def _compiler(framework: str, torch_backend: str) -> Callable[[Callable[..., Any]], Any]:
    """The framework's own compiler, with the options `eagerpy_xp.jit` is given."""
    if framework == "torch":
        import torch

        return lambda f: torch.compile(f, fullgraph=True, backend=torch_backend)
    if framework == "jax":
        import jax

        return jax.jit
    import tensorflow as tf

    return lambda f: tf.function(f, jit_compile=True)


def _fresh_start(framework: str) -> None:
    """Forget every compiled function: the next first calls compile from scratch."""
    if framework == "torch":
        import torch

        torch._dynamo.reset()
    elif framework == "jax":
        import jax

        jax.clear_caches()
    # TensorFlow: a new tf.function traces and compiles anew


@contextlib.contextmanager
def _no_compile_cache(framework: str, torch_backend: str) -> Iterator[None]:
    """Inductor's caches (FX graphs, generated C++) empty and private to one compile, so
    that no variant reuses what another compiled."""
    if framework == "torch" and torch_backend == "inductor":
        from torch._inductor.utils import fresh_cache

        with fresh_cache():
            yield
    else:
        yield


def _flat(out: Any) -> list[Any]:
    """The arrays of a result (a nest of tuples)."""
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _flat(o)]
    return [out]


def _leaves(out: Any) -> list[Any]:
    """The native arrays of a result."""
    return [leaf.raw if type(leaf) is ep.Array else leaf for leaf in _flat(out)]


def _sync(framework: str, out: Any) -> None:
    """Wait until ``out`` is computed."""
    leaves = _leaves(out)
    if framework == "jax":
        import jax

        jax.block_until_ready(leaves)
    elif framework == "torch":
        if any(leaf.device.type != "cpu" for leaf in leaves):
            import torch

            torch.accelerator.synchronize()
        # on the CPU a compiled torch call returns when its results are computed
    else:
        for leaf in leaves:
            leaf.numpy()


def _numpy(out: Any) -> list[np.ndarray]:
    return [np.asarray(leaf.detach() if hasattr(leaf, "detach") else leaf) for leaf in _leaves(out)]


#: float32 with different formulations of the same math (fused cross-entropy, the order
#: of reductions): relative and absolute tolerance of the agreement check
RTOL, ATOL = 1e-4, 1e-5


def _agree(name: str, got: Any, want: Any) -> float:
    """The largest absolute difference of ``got`` from ``want``; `AssertionError` beyond
    the tolerance."""
    got_leaves, want_leaves = _numpy(got), _numpy(want)
    assert len(got_leaves) == len(want_leaves), (name, len(got_leaves), len(want_leaves))
    worst = 0.0
    for k, (g, w) in enumerate(zip(got_leaves, want_leaves)):
        assert g.shape == w.shape and g.dtype == w.dtype, (name, k, g.shape, w.shape, g.dtype)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"{name}, result {k}")
        worst = max(worst, float(np.max(np.abs(g - w), initial=0.0)))
    return worst


# -- measuring -----------------------------------------------------------------------------
def _rotated(names: list[str], k: int) -> list[str]:
    k %= len(names)
    return names[k:] + names[:k]


def _warm_machinery(framework: str, torch_backend: str) -> None:
    """Compile and run a tiny function both ways once: the compilers' one-time set-up
    (lazy imports, first-use initialisation) is not charged to the first variant."""
    raw = _native(framework, np.ones((2, 2), dtype=np.float32))
    tiny = _compiler(framework, torch_backend)(lambda a: a @ a + 1.0)
    _sync(framework, tiny(raw))
    portable = ep.jit(lambda a: ep.namespace(a).tanh(a @ a), torch={"backend": torch_backend})
    _sync(framework, portable(raw))
    _sync(framework, portable(ep.astensor(raw)))


def _rounds(framework: str, variants: dict[str, Callable[..., Any]],
            inputs: dict[str, tuple[Any, ...]], rounds: int, seed: int
            ) -> dict[str, list[float]]:  # fmt: skip
    """Seconds per synchronised call of each variant: ``rounds`` rounds, each calling
    every variant once, in a random order (no variant always follows the same one).
    The garbage collector runs every 50 rounds, untimed, not inside a timed call."""
    samples: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    order = np.random.default_rng(seed)
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            for k in order.permutation(len(names)):
                name = names[k]
                args, run = inputs[name], variants[name]
                start = time.perf_counter()
                _sync(framework, run(*args))
                samples[name].append(time.perf_counter() - start)
            if r % 50 == 49:
                gc.collect()
    finally:
        gc.enable()
    return samples


def _inputs(framework: str, workload: str, sizes: Sizes) -> dict[str, tuple[Any, ...]]:
    natives = tuple(_native(framework, a) for a in _data(workload, sizes))
    wrapped = tuple(ep.astensor(a) for a in natives)
    return {"hand": natives, "same": natives, "bare": natives, "native": natives,
            "wrapped": wrapped, "eager": natives}  # fmt: skip


def _builder(framework: str, workload: str, torch_backend: str
             ) -> Callable[[str], Callable[..., Any]]:  # fmt: skip
    """name -> a new compiled object of that variant (``hand``, ``same``, ``native``,
    ``wrapped``), not yet called."""
    by_hand = {"hand": HAND[framework](False)[workload], "same": HAND[framework](True)[workload]}
    compiler = _compiler(framework, torch_backend)

    def build(name: str) -> Callable[..., Any]:
        if name in by_hand:
            return compiler(by_hand[name])  # type: ignore[no-any-return]
        return ep.jit(PORTABLE[workload], torch={"backend": torch_backend})

    return build


def _with_bare(compiled: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The timed variants: the compiled ones and ``bare`` (``hand`` behind a Python call)."""
    compiled_hand = compiled["hand"]

    def bare(*args: Any) -> Any:
        return compiled_hand(*args)

    return {"hand": compiled_hand, "same": compiled["same"], "bare": bare,
            "native": compiled["native"], "wrapped": compiled["wrapped"]}  # fmt: skip


def _steady_in_processes(framework: str, workload: str, small: bool, rounds: int,
                         torch_backend: str, processes: int) -> dict[str, list[float]]:  # fmt: skip
    """The steady-state samples of ``processes`` fresh processes, ``rounds`` rounds in
    all (at least 10 a process), pooled (each keeps its rounds' pairing).  A process builds the compiled objects
    anew (from warm compile caches): on some machines a compiled object's time is shifted
    by several per cent for the life of a process (the cause is not found; placement in
    memory is the suspect), so that two objects with the very same kernels differ by up
    to 9 % in one process and by the opposite sign in the next."""
    import json
    import subprocess
    import sys
    import tempfile

    pooled: dict[str, list[float]] = {}
    per = max(rounds // processes, 10)
    with tempfile.TemporaryDirectory() as folder:
        for i in range(processes):
            out = os.path.join(folder, f"{i}.json")
            command = [sys.executable, "-m", "benchmarks.compiled", "--frameworks", framework,
                       "--workloads", workload, "--rounds", str(per), "--torch-backend",
                       torch_backend, "--steady-json", out, "--seed", str(i)]  # fmt: skip
            subprocess.run(command + (["--small"] if small else []), check=True,
                           stdout=subprocess.DEVNULL)  # fmt: skip
            with open(out) as f:
                for name, times in json.load(f).items():
                    pooled.setdefault(name, []).extend(times)
    return pooled


def steady_json(framework: str, workload: str, sizes: Sizes, rounds: int, torch_backend: str,
                seed: int, path: str) -> None:  # fmt: skip
    """(In a child of `_steady_in_processes`.)  Build, warm up and time the variants;
    write their samples to ``path``."""
    import json

    _warm_machinery(framework, torch_backend)
    inputs = _inputs(framework, workload, sizes)
    build = _builder(framework, workload, torch_backend)
    variants = _with_bare({name: build(name) for name in COMPILED})
    for name, run in variants.items():  # compile and warm up
        for _ in range(4):
            _sync(framework, run(*inputs[name]))
    samples = _rounds(framework, variants, inputs, rounds, seed=seed)
    with open(path, "w") as f:
        json.dump(samples, f)


def measure(framework: str, workload: str, sizes: Sizes, rounds: int, compiles: int,
            torch_backend: str, eager: bool, processes: int = 1
            ) -> dict[str, dict[str, float]]:  # fmt: skip
    """Compile times, steady-state medians, paired ratios and the agreement of every
    variant of ``workload`` on ``framework`` (the steady state in ``processes`` fresh
    processes where more than one, `_steady_in_processes`)."""
    inputs = _inputs(framework, workload, sizes)
    portable = PORTABLE[workload]
    build = _builder(framework, workload, torch_backend)

    # compile times: first calls of fresh objects; the last round's objects are kept
    compile_s: dict[str, list[float]] = {name: [] for name in COMPILED}
    compiled: dict[str, Callable[..., Any]] = {}
    for rep in range(compiles):
        if rep:
            _fresh_start(framework)
        for name in _rotated(list(COMPILED), rep):
            with _no_compile_cache(framework, torch_backend):
                start = time.perf_counter()
                run = build(name)
                _sync(framework, run(*inputs[name]))
                compile_s[name].append(time.perf_counter() - start)
            compiled[name] = run

    variants = _with_bare(compiled)
    if eager:
        variants["eager"] = portable

    # the same numbers, checked once before anything is timed
    want = variants["hand"](*inputs["hand"])
    result: dict[str, dict[str, float]] = {"max_abs_diff": {}}
    for name, run in variants.items():
        out = run(*inputs[name])
        flavour_kept = [(type(o) is ep.Array) == (name == "wrapped") for o in _flat(out)]
        assert all(flavour_kept), (name, [type(o) for o in _flat(out)])
        result["max_abs_diff"][name] = _agree(f"{framework} {workload} {name}", out, want)

    for run_name, run in variants.items():  # warm-up
        for _ in range(3):
            _sync(framework, run(*inputs[run_name]))
    timed = {name: run for name, run in variants.items() if name != "eager"}
    if processes > 1:
        samples = _steady_in_processes(framework, workload, sizes == SMALL, rounds,
                                       torch_backend, processes)  # fmt: skip
    else:
        samples = _rounds(framework, timed, inputs, rounds, seed=WORKLOADS.index(workload))
    result["ms"] = {name: 1e3 * statistics.median(times) for name, times in samples.items()}
    for base, key in (("hand", "ratio"), ("same", "ratio_to_same")):  # paired, per round
        result[key] = {name: statistics.median(t / b for t, b in zip(times, samples[base]))
                       for name, times in samples.items()}  # fmt: skip
    if eager:  # alone: after its many small calls the next call starts slowly
        alone = _rounds(framework, {"eager": portable}, inputs, rounds, seed=0)["eager"]
        result["ms"]["eager"] = 1e3 * statistics.median(alone)
        result["ratio"]["eager"] = result["ms"]["eager"] / result["ms"]["hand"]
        result["ratio_to_same"]["eager"] = result["ms"]["eager"] / result["ms"]["same"]
    result["compile_s"] = {name: statistics.median(times) for name, times in compile_s.items()}
    for base, key in (("hand", "compile_ratio"), ("same", "compile_ratio_to_same")):
        result[key] = {name: median / result["compile_s"][base]
                       for name, median in result["compile_s"].items()}  # fmt: skip
    return result


# -- reporting -----------------------------------------------------------------------------
COLUMNS = ("workload", "hand ms", "bare ms (÷hand)", "same math ms (÷hand)",
           "native ms (÷hand, ÷same)", "wrapped ms (÷hand, ÷same)", "eager ms (÷hand)",
           "compile hand s", "compile same s (÷hand)", "compile native s (÷hand, ÷same)",
           "compile wrapped s (÷hand, ÷same)")  # fmt: skip


def _cell(value: dict[str, float], *ratios: dict[str, float], name: str, digits: int) -> str:
    """``value[name] (ratio[name], ...)``; a dash for a variant that did not run."""
    if name not in value:
        return "—"
    return f"{value[name]:.{digits}f} (" + ", ".join(f"{r[name]:.3f}" for r in ratios) + ")"


def report(framework: str, compiler: str, table: dict[str, dict[str, dict[str, float]]]) -> str:
    """A Markdown table of one framework's workloads."""
    lines = [f"## {framework} ({compiler})", "", "| " + " | ".join(COLUMNS) + " |",
             "|---|" + "---:|" * (len(COLUMNS) - 1)]  # fmt: skip
    for workload, r in table.items():
        ms, cs = r["ms"], r["compile_s"]
        on_hand, on_same = r["ratio"], r["ratio_to_same"]
        c_hand, c_same = r["compile_ratio"], r["compile_ratio_to_same"]
        cells = [workload, f"{ms['hand']:.3f}",
                 _cell(ms, on_hand, name="bare", digits=3),
                 _cell(ms, on_hand, name="same", digits=3),
                 _cell(ms, on_hand, on_same, name="native", digits=3),
                 _cell(ms, on_hand, on_same, name="wrapped", digits=3),
                 _cell(ms, on_hand, name="eager", digits=3),
                 f"{cs['hand']:.2f}", _cell(cs, c_hand, name="same", digits=2),
                 _cell(cs, c_hand, c_same, name="native", digits=2),
                 _cell(cs, c_hand, c_same, name="wrapped", digits=2)]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _versions(frameworks: list[str]) -> str:
    parts = [f"Python {platform.python_version()}", f"NumPy {np.__version__}",
             f"eagerpy_xp {ep.__version__}"]  # fmt: skip
    for framework in frameworks:
        module = importlib.import_module(framework)
        parts.append(f"{framework} {module.__version__}")
    return ", ".join(parts)


def machine(frameworks: list[str]) -> str:
    """What the numbers depend on: the CPU, its load, the versions, the thread counts."""
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info
                        if line.startswith("model name")), cpu)  # fmt: skip
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    lines = [f"- CPU: {cpu}; {os.cpu_count()} logical cores, {usable} usable; "
             f"load average {load}", f"- {platform.platform()}; {_versions(frameworks)}"]  # fmt: skip
    if "torch" in frameworks:
        import torch

        lines.append(f"- torch threads: {torch.get_num_threads()}")
    if "jax" in frameworks:
        import jax

        lines.append(f"- JAX devices: {jax.devices()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frameworks", nargs="+", choices=FRAMEWORKS, default=list(FRAMEWORKS))
    parser.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS))
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--compiles", type=int, default=3,
                        help="compilations of each variant for the compile time (median)")
    parser.add_argument("--small", action="store_true", help="tiny sizes, for a quick run")
    parser.add_argument("--torch-backend", default="inductor",
                        help="torch.compile's backend for every torch variant (aot_eager "
                        "compiles in seconds; inductor, the default, in minutes on 2 cores)")  # fmt: skip
    parser.add_argument("--eager", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the portable code without a compiler")
    parser.add_argument("--processes", type=int, default=1,
                        help="time the steady state in this many fresh processes, pooled "
                        "(what a compiled object's place in memory adds averages out)")  # fmt: skip
    parser.add_argument("--steady-json", help=argparse.SUPPRESS)  # (a child's samples)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.compiles < 1 or args.processes < 1:
        parser.error("--rounds, --compiles and --processes must be at least 1")
    sizes = SMALL if args.small else FULL
    if args.steady_json:
        steady_json(args.frameworks[0], args.workloads[0], sizes, args.rounds,
                    args.torch_backend, args.seed, args.steady_json)  # fmt: skip
        return {}
    print(f"# eagerpy_xp under each framework's compiler\n\n{sizes}; rounds={args.rounds}, "
          f"compiles={args.compiles}, processes={args.processes}\n\n"
          f"{machine(args.frameworks)}\n", flush=True)  # fmt: skip
    results: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for framework in args.frameworks:
        compiler = {"torch": f"torch.compile(fullgraph=True, backend={args.torch_backend!r})",
                    "jax": "jax.jit",
                    "tensorflow": "tf.function(jit_compile=True)"}[framework]  # fmt: skip
        _warm_machinery(framework, args.torch_backend)
        table = results[framework] = {}
        for workload in args.workloads:
            table[workload] = measure(framework, workload, sizes, args.rounds, args.compiles,
                                      args.torch_backend, args.eager, args.processes)  # fmt: skip
        print(report(framework, compiler, table) + "\n", flush=True)
    load = " ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"Load average at the end: {load}")
    return results


if __name__ == "__main__":
    main()
