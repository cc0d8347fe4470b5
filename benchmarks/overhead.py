"""Per-call overhead of eagerpy_xp against native code, array-api-compat and EagerPy.

The same small computation (eleven element-wise operations and a reduction on a
shape-(16,) float32 array) is written natively, with array-api-compat, with EagerPy and with
both eagerpy_xp flavours.  All variants of a backend are timed interleaved in one process
(round after round, each variant in turn) and the medians are reported, so machine noise
hits every variant alike.

    python -m benchmarks.overhead [--backends numpy torch] [--rounds 30] [--calls 2000]

What cannot run (a library not installed, array-api-compat on TensorFlow) is listed at the
end with the reason.  The results are also saved to reports/overhead.json, which
``python -m conformance`` shows in reports/conformance.html.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

OPS_PER_CALL = 12  # eleven element-wise operations and one reduction


def portable(xp: Any, x: Any) -> Any:
    """The computation, against a standard namespace (operators on its arrays)."""
    y = x * x
    y = y + 1.0
    y = xp.sqrt(y)
    y = y - x
    y = xp.exp(-y)
    y = xp.maximum(y, 0.1)
    y = xp.log(y)
    y = xp.abs(y)
    y = xp.tanh(y)
    y = xp.square(y)
    y = y * 0.5
    return xp.sum(y)


def _native_numpy() -> Callable[[Any], Any]:
    import numpy as np

    def run(x: Any) -> Any:
        y = x * x
        y = y + 1.0
        y = np.sqrt(y)
        y = y - x
        y = np.exp(-y)
        y = np.maximum(y, 0.1)
        y = np.log(y)
        y = np.abs(y)
        y = np.tanh(y)
        y = np.square(y)
        y = y * 0.5
        return np.sum(y)

    return run


def _native_torch() -> Callable[[Any], Any]:
    import torch

    def run(x: Any) -> Any:
        y = x * x
        y = y + 1.0
        y = torch.sqrt(y)
        y = y - x
        y = torch.exp(-y)
        y = torch.clamp_min(y, 0.1)
        y = torch.log(y)
        y = torch.abs(y)
        y = torch.tanh(y)
        y = torch.square(y)
        y = y * 0.5
        return torch.sum(y)

    return run


def _native_jax() -> Callable[[Any], Any]:
    import jax.numpy as jnp

    return lambda x: portable(jnp, x)


def _native_tensorflow() -> Callable[[Any], Any]:
    import tensorflow as tf

    def run(x: Any) -> Any:
        y = x * x
        y = y + 1.0
        y = tf.sqrt(y)
        y = y - x
        y = tf.exp(-y)
        y = tf.maximum(y, 0.1)
        y = tf.math.log(y)
        y = tf.abs(y)
        y = tf.tanh(y)
        y = tf.square(y)
        y = y * 0.5
        return tf.reduce_sum(y)

    return run


NATIVE = {
    "numpy": _native_numpy,
    "torch": _native_torch,
    "jax": _native_jax,
    "tensorflow": _native_tensorflow,
}


def _make_input(backend: str) -> Any:
    import numpy as np

    data = np.linspace(-2.0, 2.0, 16, dtype=np.float32)
    if backend == "numpy":
        return data
    if backend == "torch":
        import torch

        return torch.asarray(data)
    if backend == "jax":
        import jax.numpy as jnp

        return jnp.asarray(data)
    import tensorflow as tf

    return tf.constant(data)


def _problem(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _variants(backend: str, left_out: list[str]) -> dict[str, Callable[[Any], Any]]:
    """name -> function of a native array; what cannot run is appended to ``left_out``
    with the reason."""
    variants: dict[str, Callable[[Any], Any]] = {"native": NATIVE[backend]()}
    if backend == "tensorflow":
        left_out.append("tensorflow / array-api-compat: array-api-compat has no TensorFlow "
                        "namespace")  # fmt: skip
    else:
        try:
            import array_api_compat

            def compat(x: Any) -> Any:
                return portable(array_api_compat.array_namespace(x), x)

            variants["array-api-compat"] = compat
        except ImportError as error:
            left_out.append(f"{backend} / array-api-compat: not installed ({_problem(error)}; "
                            "pip install -e '.[bench]')")  # fmt: skip
    try:
        import eagerpy

        def eagerpy_run(x: Any) -> Any:
            t = eagerpy.astensor(x)
            y = t * t
            y = y + 1.0
            y = y.sqrt()
            y = y - t
            y = (-y).exp()
            y = eagerpy.maximum(y, 0.1)
            y = y.log()
            y = y.abs()
            y = y.tanh()
            y = y.square()
            y = y * 0.5
            return y.sum().raw

        variants["eagerpy"] = eagerpy_run
    except ImportError as error:
        left_out.append(f"{backend} / EagerPy: not installed ({_problem(error)}; "
                        "pip install -e '.[bench]')")  # fmt: skip
    import eagerpy_xp as ep

    try:
        importlib.import_module(f"eagerpy_xp.native.{backend}")
    except ImportError as error:
        left_out.append(f"{backend} / eagerpy_xp: the backend does not import "
                        f"({_problem(error)})")  # fmt: skip
        return variants

    def xp_native(x: Any) -> Any:
        return portable(ep.namespace(x), x)

    def xp_wrapped(x: Any) -> Any:
        a = ep.astensor(x)
        return portable(a.__array_namespace__(), a).raw

    variants["eagerpy_xp native"] = xp_native
    variants["eagerpy_xp wrapped"] = xp_wrapped
    return variants


def measure(backend: str, rounds: int, calls: int, left_out: list[str]) -> dict[str, float]:
    """Median microseconds per call of each variant, timed interleaved."""
    x = _make_input(backend)
    variants = _variants(backend, left_out)
    for run in variants.values():  # warm up (and check every variant agrees)
        for _ in range(20):
            run(x)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, run in variants.items():
            start = time.perf_counter()
            for _ in range(calls):
                run(x)
            samples[name].append((time.perf_counter() - start) / calls * 1e6)
    return {name: statistics.median(values) for name, values in samples.items()}


def report(backend: str, medians: dict[str, float]) -> str:
    native = medians["native"]
    lines = [
        f"## {backend}",
        "",
        "| variant | median µs/call | ratio to native | added µs/op |",
        "|---|---:|---:|---:|",
    ]
    for name, value in medians.items():
        added = (value - native) / OPS_PER_CALL
        lines.append(f"| {name} | {value:.2f} | {value / native:.2f} | {added:+.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="*", default=list(NATIVE))
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--json", default="reports/overhead.json", metavar="PATH",
                        help="also save the results there (python -m conformance shows them "
                        "in reports/conformance.html); '' for none")  # fmt: skip
    args = parser.parse_args(argv)
    left_out: list[str] = []
    results: dict[str, Any] = {}
    for backend in args.backends:
        framework = {"tensorflow": "tensorflow", "jax": "jax"}.get(backend, backend)
        try:
            importlib.import_module(framework)
        except ImportError as error:
            left_out.append(f"{backend}: not installed ({_problem(error)})")
            print(f"## {backend}\n\nleft out: not installed ({_problem(error)})\n", flush=True)
            continue
        calls = args.calls if backend in ("numpy", "torch") else max(args.calls // 10, 20)
        medians = measure(backend, args.rounds, calls, left_out)
        print(report(backend, medians), "\n", flush=True)
        results[backend] = {"median_us": medians, "added_us": {
            name: (value - medians["native"]) / OPS_PER_CALL
            for name, value in medians.items() if name != "native"}}
    print("Left out:" if left_out else "Left out: nothing (every variant ran).")
    for line in left_out:
        print(f"- {line}")
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({
            "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "ops_per_call": OPS_PER_CALL, "rounds": args.rounds, "calls": args.calls,
            "platform": platform.platform(), "backends": results, "left_out": left_out,
        }, indent=1))  # fmt: skip
        print(f"saved to {path}")


if __name__ == "__main__":
    main()
