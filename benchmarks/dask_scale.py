"""Dask at scale: one standardise-and-reduce pipeline, written once with ``xp``, on an array
larger than any worker may hold, through a `dask.distributed.LocalCluster`.

The pipeline (`pipeline`): standardise the columns of a tall matrix (``mean``, ``std``),
project them with a small matrix (``matmul``), square and ``sum`` over the rows.  It runs
unchanged on four namespaces: plain ``dask.array``, ``array_api_compat.dask.array``, and
both eagerpy_xp flavours (``eagerpy_xp.native.dask`` on Dask arrays, ``eagerpy_xp.dask`` on
`Array`s).  The input is generated on the workers chunk by chunk (``dask.array.random``, uniform),
so the client never holds it; the cluster's workers each get a memory limit below the
array's size (they spill to disk beyond it).  Variants run interleaved, round after round (a
different one first each round), and the medians are reported, with each worker's peak process memory during the runs (the
scheduler's heartbeat metrics, sampled every 0.2 s; the workers are not restarted between
runs, so the peak includes what a worker process keeps from earlier runs).

Second part: the graph-building cost per operation on a 1e6-element array (no compute),
each namespace against plain ``dask.array``.

    python -m benchmarks.dask_scale [--rows 8_000_000] [--cols 64] [--memory-limit 3GiB]
                                    [--rounds 2] [--workers 2] [--namespaces a,b,c]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np


def pipeline(xp: Any, x: Any, w: Any) -> Any:
    """Standardise the columns, project, sum the squares: written once against ``xp``."""
    z = (x - xp.mean(x, axis=0)) / xp.std(x, axis=0, correction=1)
    y = xp.matmul(z, w)
    return xp.sum(y * y, axis=0)


def plain_dask(x: Any, w: Any) -> Any:
    """The same pipeline as Dask users write it (``ddof``, operators, methods)."""
    z = (x - x.mean(axis=0)) / x.std(axis=0, ddof=1)
    y = z @ w
    return (y * y).sum(axis=0)


def _namespaces() -> dict[str, tuple[Any, Callable[[Any], Any], Callable[[Any], Any]]]:
    """name -> (namespace, wrap its input, unwrap its output to a Dask array)."""
    import array_api_compat.dask.array as compat

    import eagerpy_xp as ep
    import eagerpy_xp.dask as wrapped
    import eagerpy_xp.native.dask as native

    def same(a: Any) -> Any:
        return a

    def raw(a: Any) -> Any:
        return a.raw

    return {
        "dask.array": (da, same, same),
        "array_api_compat": (compat, same, same),
        "eagerpy_xp.native.dask": (native, same, same),
        "eagerpy_xp.dask (wrapped)": (wrapped, ep.astensor, raw),
    }


class PeakMemory:
    """Each worker's peak process memory while running, from the scheduler's metrics."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.peaks: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            for address, info in self._client.scheduler_info()["workers"].items():
                memory = int(info["metrics"]["memory"])
                self.peaks[address] = max(self.peaks.get(address, 0), memory)
            time.sleep(0.2)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()


def scale(rows: int, cols: int, chunk_rows: int, workers: int, memory_limit: str,
          rounds: int, names: list[str]) -> None:  # fmt: skip
    from dask.distributed import Client, LocalCluster
    from dask.utils import format_bytes, parse_bytes

    size = rows * cols * 8
    limit = parse_bytes(memory_limit)
    print(f"array: float64[{rows}, {cols}] = {format_bytes(size)} in chunks of {chunk_rows} rows; "
          f"{workers} workers x 1 thread, memory limit {format_bytes(limit)} each "
          f"({'below' if limit < size else 'NOT below'} the array size)")  # fmt: skip
    weights = np.random.default_rng(1).normal(size=(cols, 8))
    variants = {name: v for name, v in _namespaces().items() if name in names}
    times: dict[str, list[float]] = {name: [] for name in variants}
    peaks: dict[str, list[int]] = {name: [] for name in variants}
    results: dict[str, Any] = {}
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      memory_limit=memory_limit, dashboard_address=None) as cluster, \
            Client(cluster) as client:  # fmt: skip
        warm = da.random.default_rng(0).random(size=(4 * chunk_rows, cols), chunks=(chunk_rows, cols))
        for xp, wrap, unwrap in variants.values():  # imports and first-use costs, untimed
            w = da.from_array(weights)
            out = plain_dask(warm, w) if xp is da else unwrap(pipeline(xp, wrap(warm), wrap(w)))
            client.compute(out).result()
        names = list(variants)
        for r in range(rounds):
            # a different variant goes first each round: the first one after another pays
            # for the release of that one's data (spilled files, freed memory)
            for name in names[r % len(names):] + names[: r % len(names)]:
                xp, wrap, unwrap = variants[name]
                client.run(gc.collect)  # what the last variant left is released
                time.sleep(2)
                x = da.random.default_rng(0).random(size=(rows, cols), chunks=(chunk_rows, cols))
                w = da.from_array(weights)
                with PeakMemory(client) as memory:
                    start = time.perf_counter()
                    if xp is da:
                        out = plain_dask(x, w)
                    else:
                        out = unwrap(pipeline(xp, wrap(x), wrap(w)))
                    results[name] = client.compute(out).result()
                    times[name].append(time.perf_counter() - start)
                peaks[name].append(max(memory.peaks.values()))
    reference = results["dask.array"]
    base = statistics.median(times["dask.array"])
    print(f"\n| namespace | wall time (median of {rounds}) | all runs | vs dask.array | peak "
          "memory per worker (max) | same result |")
    print("|---|---|---|---|---|---|")
    for name in variants:
        t = statistics.median(times[name])
        agree = np.allclose(results[name], reference, rtol=1e-9)
        runs = ", ".join(f"{r:.1f}" for r in times[name])
        print(f"| {name} | {t:.1f} s | {runs} | {t / base:.3f} | {format_bytes(max(peaks[name]))} | "
              f"{'yes' if agree else 'NO'} |")  # fmt: skip


Operation = Callable[[Any, Any, Any], Any]
#: operation -> (how it is written against a standard namespace, with plain dask.array);
#: x has 1e6 elements, as float64[1000, 1000].
_OPERATIONS: dict[str, tuple[Operation, Operation]] = {
    "add": (lambda xp, x, w: xp.add(x, x), lambda xp, x, w: da.add(x, x)),
    "multiply by scalar": (lambda xp, x, w: xp.multiply(x, 2.0),
                           lambda xp, x, w: da.multiply(x, 2.0)),
    "exp": (lambda xp, x, w: xp.exp(x), lambda xp, x, w: da.exp(x)),
    "where": (lambda xp, x, w: xp.where(x > 0, x, 0.0), lambda xp, x, w: da.where(x > 0, x, 0.0)),
    "sum(axis=0)": (lambda xp, x, w: xp.sum(x, axis=0), lambda xp, x, w: da.sum(x, axis=0)),
    "mean": (lambda xp, x, w: xp.mean(x), lambda xp, x, w: da.mean(x)),
    "std(axis=0, correction=1)": (lambda xp, x, w: xp.std(x, axis=0, correction=1),
                                  lambda xp, x, w: da.std(x, axis=0, ddof=1)),
    "matmul (1000x1000 @ 1000x8)": (lambda xp, x, w: xp.matmul(x, w),
                                    lambda xp, x, w: da.matmul(x, w)),
    "whole pipeline (7 operations)": (lambda xp, x, w: pipeline(xp, x, w),
                                      lambda xp, x, w: plain_dask(x, w)),
}  # fmt: skip


def overhead(repeats: int) -> None:
    """Graph-building time per operation (no compute), interleaved, medians."""
    variants = _namespaces()
    x0 = da.random.default_rng(0).normal(size=(1000, 1000), chunks=(250, 1000))
    w0 = da.random.default_rng(1).normal(size=(1000, 8), chunks=(250, 8))
    print("\ngraph building on 1e6 elements (float64[1000, 1000] in 4 chunks), median us per "
          "operation:\n")
    names = list(variants)
    print("| operation | " + " | ".join(names) + " | eagerpy_xp native - dask.array |")
    print("|---|" + "---|" * (len(names) + 1))
    for op_name, (portable, plain) in _OPERATIONS.items():
        samples: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(repeats):
            for name in names:
                xp, wrap, _unwrap = variants[name]
                x, w = wrap(x0), wrap(w0)
                op = plain if xp is da else portable
                start = time.perf_counter()
                op(xp, x, w)
                samples[name].append(time.perf_counter() - start)
        medians = {name: statistics.median(samples[name]) * 1e6 for name in names}
        extra = medians["eagerpy_xp.native.dask"] - medians["dask.array"]
        print(f"| {op_name} | " + " | ".join(f"{medians[n]:.0f}" for n in names)
              + f" | {extra:+.0f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=8_000_000)
    parser.add_argument("--cols", type=int, default=64)
    parser.add_argument("--chunk-rows", type=int, default=250_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GiB")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=200, help="graph-building samples")
    parser.add_argument("--skip-scale", action="store_true", help="only the graph-building part")
    parser.add_argument("--namespaces", default="dask.array,array_api_compat,eagerpy_xp.native.dask",
                        help="comma-separated namespaces for the scale part (all four: add "
                             "'eagerpy_xp.dask (wrapped)')")  # fmt: skip
    args = parser.parse_args()
    overhead(args.repeats)
    if not args.skip_scale:
        scale(args.rows, args.cols, args.chunk_rows, args.workers, args.memory_limit,
              args.rounds, args.namespaces.split(","))  # fmt: skip


if __name__ == "__main__":
    main()
