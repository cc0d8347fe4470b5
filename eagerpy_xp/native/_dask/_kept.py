"""Small values kept once computed, so that a loop asking for Python values step by step
runs each step's new graph, not the whole history.

A Dask array is its graph: ``bool(x)`` computes every operation ``x`` comes from, however
often some of them were computed before.  Code written for eager arrays asks for Python
values inside loops (SciPy's adaptive ``cubature``: ``while xp.any(err > tol)``, with
``err`` accumulated in place and a heap of regions compared by ``bool``; Python's
``max(x)`` over an array's elements), and each step then recomputes all earlier steps:
quadratic time, minutes per call where NumPy takes milliseconds.

`KeptValues.compute` (the wrapped flavour's ``bool``/``int``/``float``/``complex``/
``operator.index``/``__array__``/``__dlpack__``, through `DaskCore.item`, `to_numpy`,
`dlpack`) computes ``x`` and, in the same run, every small array of its history (NumPy
chunks of known sizes, at most `CHUNK_LIMIT` chunks and `LAYER_LIMIT` bytes; arrays of
unknown size too where every array of known size in the run is small): those values are
kept by name (a Dask array's name identifies its value: Dask's own schedulers rely on
it), and a later computation reading one of them starts from the kept value instead of
that array's graph.  `KeptValues.trimmed` gives an array written in place the same values
on a graph starting from kept ones, so that an array rebound in a loop keeps a short
graph.  Dask's laziness stays as it was: nothing is computed but what a conversion
computes, and the other chunks of a small array of which it reads some (where one of
those fails, the conversion runs again as Dask runs it).  Kept values are bounded by
`BUDGET` bytes in all, the least recently used dropped first.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
from dask.base import get_scheduler
from dask.core import flatten
from dask.highlevelgraph import HighLevelGraph, MaterializedLayer
from dask.local import get_sync
from dask.threaded import get as threaded_get

#: The largest array whose value is kept (bytes), its most chunks; the total kept (bytes).
LAYER_LIMIT = 8 << 20
CHUNK_LIMIT = 64
BUDGET = 128 << 20
#: How far `KeptValues.trimmed` looks for kept values (arrays of the history).
TRIM_WALK = 256

_ARRAY_TYPE = "dask.array.core.Array"
_CHUNK_TYPE = "numpy.ndarray"


def small_chunks(layer: Any, limit: int = LAYER_LIMIT,
                 ) -> tuple[list[tuple[int, ...]], bool] | None:  # fmt: skip
    """The chunks' positions of the Dask array ``layer`` makes, and whether its sizes are
    known, where that array may be small: NumPy chunks, at most `CHUNK_LIMIT` of them,
    and at most ``limit`` bytes in all where the sizes are known (read from the facts
    Dask writes on every array's layer); else None."""
    facts = getattr(layer, "collection_annotations", None)
    if not facts or facts.get("type") != _ARRAY_TYPE or facts.get("chunk_type") != _CHUNK_TYPE:
        return None
    chunks, dtype, shape = facts.get("chunks"), facts.get("dtype"), facts.get("shape")
    if chunks is None or dtype is None or shape is None:
        return None
    if math.prod(len(c) for c in chunks) > CHUNK_LIMIT:
        return None
    known = not any(math.isnan(n) for n in shape)
    if known and math.prod(shape) * np.dtype(dtype).itemsize > limit:
        return None
    return list(itertools.product(*(range(len(c)) for c in chunks))), known


class KeptValues:
    """The kept values of one process: layer name -> (its chunks by key, their size in
    bytes), in order of last use."""

    def __init__(self, layer_limit: int = LAYER_LIMIT, budget: int = BUDGET) -> None:
        self.layer_limit = layer_limit
        self.budget = budget
        self._values: OrderedDict[str, tuple[dict[Any, Any], int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._bytes = 0

    def compute(self, x: Any) -> Any:
        """``x.compute()``, starting from kept values where its history has them, and
        keeping the small arrays of that history (``x`` included)."""
        history = self._history(x)
        if history is None:
            return x.compute()
        layers, dependencies, found = history
        keep: dict[str, list[tuple[Any, ...]]] = {}
        unknown: dict[str, list[tuple[Any, ...]]] = {}
        small = True  # every array computed small (threads would only hand tasks around)
        for name, layer in layers.items():
            facts = small_chunks(layer, self.layer_limit)
            if facts is not None:
                (keep if facts[1] else unknown)[name] = [(name, *p) for p in facts[0]]
            elif getattr(layer, "collection_annotations", None):
                small = False
        if small:  # arrays of unknown size made from small ones: kept where they are
            keep.update(unknown)
        if not found and not keep:
            return x.compute()
        try:
            return self._run(x, HighLevelGraph(layers, dependencies), keep, small)
        except Exception:
            # a kept array's chunk that ``x`` does not read may fail (a lazy error of
            # the contract's): ``x`` alone, as Dask computes it, says whether it fails
            return x.compute()

    def chunk_sizes(self, x: Any) -> tuple[tuple[int, ...], ...] | None:
        """``x``'s chunk sizes (where some are unknown: after a mask), computed as
        `compute` computes ``x``, from its kept chunks; None where ``x`` is not kept
        (large, or of many chunks: Dask's ``compute_chunk_sizes`` then)."""
        graph = x.__dask_graph__()
        layer = graph.layers.get(x.name) if isinstance(graph, HighLevelGraph) else None
        if layer is None or small_chunks(layer, self.layer_limit) is None:
            return None
        self.compute(x)
        with self._lock:
            kept = self._values.get(x.name)
        if kept is None:
            return None
        chunks = kept[0]
        counts = [len(c) for c in x.chunks]
        sizes = []
        for axis, count in enumerate(counts):
            first = [0] * len(counts)
            axis_sizes = []
            for j in range(count):
                first[axis] = j
                key = (x.name, *first)
                axis_sizes.append(int(chunks[key].shape[axis]))
            sizes.append(tuple(axis_sizes))
        return tuple(sizes)

    def trimmed(self, x: Any, walk: int = TRIM_WALK) -> Any:
        """``x``, or where its history reaches kept values within ``walk`` arrays, the
        same array (name, chunks, values) on a graph starting from them: for an array
        rebound again and again (``err += e`` in a loop), whose graph would otherwise
        hold every step, and every new step copy that graph."""
        if not self._values:
            return x
        history = self._history(x, walk)
        if history is None or not history[2]:
            return x
        layers, dependencies, _ = history
        if len(layers) == len(x.__dask_graph__().layers):
            return x
        return type(x)(HighLevelGraph(layers, dependencies), x.name, x.chunks, meta=x._meta)

    def _history(self, x: Any, limit: int | None = None,
                 ) -> tuple[dict[str, Any], dict[str, set[str]], bool] | None:  # fmt: skip
        """The part of ``x``'s graph its value needs: the layers back to kept values (each
        then a layer of its chunks' values), their dependencies, and whether a kept value
        was reached; None where ``x`` has no such graph, or more than ``limit`` layers."""
        graph = x.__dask_graph__()
        if not isinstance(graph, HighLevelGraph):
            return None
        layers: dict[str, Any] = {}
        dependencies: dict[str, set[str]] = {}
        found = False
        stack = [x.name]
        with self._lock:
            while stack:
                name = stack.pop()
                if name in layers:
                    continue
                kept = self._values.get(name)
                if kept is not None:
                    self._values.move_to_end(name)
                    layers[name] = MaterializedLayer(kept[0])
                    dependencies[name] = set()
                    found = True
                    continue
                if name not in graph.layers or (limit is not None and len(layers) >= limit):
                    return None
                layers[name] = graph.layers[name]
                dependencies[name] = set(graph.dependencies.get(name, ()))
                stack.extend(dependencies[name])
        return layers, dependencies, found

    def _run(self, x: Any, graph: HighLevelGraph, keep: dict[str, list[Any]],
             small: bool) -> Any:  # fmt: skip
        """One run for ``x`` and the arrays to keep: Dask's optimizer keeps every key asked
        for (fusing around them); its scheduler (threads, or a cluster) runs them, or the
        calling thread where every array is small and the scheduler would be threads."""
        keys = [x.__dask_keys__(), *keep.values()]
        run = get_scheduler(collections=[x]) or type(x).__dask_scheduler__
        if small and run is threaded_get:
            run = get_sync
            dsk = graph.to_dict()
        else:
            dsk = type(x).__dask_optimize__(graph, list(flatten(keys)))
        results = run(dsk, keys)
        finalize, extra = x.__dask_postcompute__()
        result = finalize(results[0], *extra)
        self._store(keep, results[1:], {name: graph.layers[name].collection_annotations
                                        for name in keep})  # fmt: skip
        if isinstance(result, np.ndarray) and not result.flags.writeable:
            result = result.copy()  # (a kept value, or a view of one: the caller's own)
        return result

    def _store(self, keep: dict[str, list[Any]], results: Any,
               facts: dict[str, Any]) -> None:  # fmt: skip
        """Keeps each array's chunks (read-only copies: the caller gets its own), where
        each is what the array's facts say: a NumPy array of its dtype and chunk shape.
        (The layers inside Dask's own algorithms may say otherwise: the partial results of
        ``var``/``std`` are dicts of sums in layers annotated as float arrays.)"""
        with self._lock:
            for (name, keys), values in zip(keep.items(), results):
                if name in self._values:
                    continue
                chunks = {}
                size = 0
                for key, value in zip(keys, values):
                    if not _as_declared(value, key[1:], facts[name]):
                        break
                    value = np.array(value, copy=True)
                    value.flags.writeable = False
                    chunks[key] = value
                    size += value.nbytes
                else:
                    if size > self.layer_limit:  # (an array of unknown size, found large)
                        continue
                    self._values[name] = (chunks, size)
                    self._bytes += size
            while self._bytes > self.budget and self._values:
                _, (_, size) = self._values.popitem(last=False)
                self._bytes -= size


def _as_declared(value: Any, position: tuple[int, ...], facts: Any) -> bool:
    """Whether ``value`` is the chunk at ``position`` that Dask's facts of its array
    declare: a NumPy array (or scalar) of the array's dtype and of the chunk's sizes where
    they are known."""
    if not isinstance(value, (np.ndarray, np.generic)) or value.dtype != facts["dtype"]:
        return False
    if value.ndim != len(position):
        return False
    sizes = [axis[i] for axis, i in zip(facts["chunks"], position)]
    return all(math.isnan(n) or n == m for n, m in zip(sizes, value.shape))


#: The process's kept values (the Dask backend's conversions use it).
KEPT = KeptValues()
