"""Portable code under ``jax.jit``: eagerpy_xp's JAX namespaces against plain ``jax.numpy``.

One function of a few dozen standard operations is written once and run three ways, each
jitted: with ``jax.numpy`` itself, with the native flavour (``eagerpy_xp.native.jax``, JAX
arrays in and out) and with the wrapped flavour (``eagerpy_xp.jax``, `Array` in and out).
After compilation all three run XLA programs; the question is whether the namespace layer
costs anything at run time (target: median ratio <= 1.05) and how much it adds to tracing.
Run times are interleaved (one call of each variant per round) and summarised by medians.

    python -m benchmarks.jit [--rows 2048] [--cols 256] [--rounds 200] [--compiles 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

import eagerpy_xp as ep
import eagerpy_xp.jax as wx


def model(x: Any, w: Any, xp: Any) -> Any:
    """A small network layer plus statistics: 40 standard calls, written once."""
    h = xp.matmul(x, w)
    h = xp.tanh(h) + 0.5 * xp.sin(h) - xp.clip(h, -1.0, 1.0)
    h = xp.where(h > 0, h, 0.01 * h)
    mu = xp.mean(h, axis=-1, keepdims=True)
    var = xp.var(h, axis=-1, keepdims=True)
    h = (h - mu) / xp.sqrt(var + 1e-5)
    logits = xp.matmul(h, xp.matrix_transpose(w))
    top = xp.max(logits, axis=-1, keepdims=True)
    shifted = logits - top
    logsumexp = xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    logp = shifted - logsumexp
    probs = xp.exp(logp)
    entropy = -xp.sum(probs * logp, axis=-1)
    norms = xp.linalg.vector_norm(h, axis=-1)
    cos = xp.sum(h * xp.roll(h, 1, axis=0), axis=-1) / (norms * xp.roll(norms, 1) + 1e-6)
    stacked = xp.stack([entropy, cos, norms], axis=-1)
    centred = stacked - xp.mean(stacked, axis=0)
    cov = xp.matmul(xp.permute_dims(centred, (1, 0)), centred) / stacked.shape[0]
    rounded = xp.floor(xp.abs(cov) * 100.0) / 100.0
    total = xp.sum(rounded) + xp.mean(xp.square(xp.expm1(xp.tanh(entropy))))
    return total + xp.sum(xp.astype(xp.argmax(logits, axis=-1), x.dtype)) * 1e-6


def _variants() -> dict[str, Callable[[Any, Any], Any]]:
    return {
        "jax.numpy": lambda x, w: model(x, w, jnp),
        "native": lambda x, w: model(x, w, ep.get_namespace(x, w)),
        "wrapped": lambda x, w: model(x, w, ep.get_namespace(x, w)),
    }


def _block(result: Any) -> Any:
    return (result.raw if isinstance(result, ep.Array) else result).block_until_ready()


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2048)
    parser.add_argument("--cols", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--compiles", type=int, default=3)
    args = parser.parse_args(argv)

    key_x, key_w = jax.random.split(jax.random.PRNGKey(0))
    x = jax.random.normal(key_x, (args.rows, args.cols), dtype=jnp.float32)
    w = jax.random.normal(key_w, (args.cols, args.cols), dtype=jnp.float32) / args.cols**0.5
    inputs = {"jax.numpy": (x, w), "native": (x, w), "wrapped": (wx.asarray(x), wx.asarray(w))}

    # tracing and compiling: fresh jit objects, interleaved, medians
    trace_s: dict[str, list[float]] = {name: [] for name in inputs}
    compile_s: dict[str, list[float]] = {name: [] for name in inputs}
    compiled: dict[str, Callable[..., Any]] = {}
    for _ in range(args.compiles):
        for name, function in _variants().items():
            start = time.perf_counter()
            lowered = jax.jit(function).lower(*inputs[name])
            traced = time.perf_counter()
            compiled[name] = lowered.compile()
            trace_s[name].append(traced - start)
            compile_s[name].append(time.perf_counter() - traced)
    report = {name: {"trace_ms": 1e3 * statistics.median(trace_s[name]),
                     "compile_ms": 1e3 * statistics.median(compile_s[name])}
              for name in inputs}  # fmt: skip

    reference = float(_block(compiled["jax.numpy"](*inputs["jax.numpy"])))
    for name, run in compiled.items():
        value = float(_block(run(*inputs[name])))
        assert abs(value - reference) <= 1e-4 * max(1.0, abs(reference)), (name, value)

    samples: dict[str, list[float]] = {name: [] for name in compiled}
    for _ in range(args.rounds):
        for name, run in compiled.items():
            start = time.perf_counter()
            _block(run(*inputs[name]))
            samples[name].append(time.perf_counter() - start)

    base = statistics.median(samples["jax.numpy"])
    print(f"rows={args.rows} cols={args.cols} rounds={args.rounds} compiles={args.compiles} "
          f"device={jax.devices()[0]}")
    print(f"{'variant':<10} {'trace ms':>9} {'compile ms':>11} {'median us':>10} {'ratio':>6}")
    for name, times in samples.items():
        median = statistics.median(times)
        report[name].update(median_us=1e6 * median, ratio=median / base)
        r = report[name]
        print(f"{name:<10} {r['trace_ms']:>9.1f} {r['compile_ms']:>11.1f} "
              f"{r['median_us']:>10.1f} {r['ratio']:>6.3f}")  # fmt: skip
    return report


if __name__ == "__main__":
    main()
