"""The Dask backend (``_backend``: the standard on ``dask.array``, lazily, chunk by chunk).
This module describes it: importing it imports no framework."""

from __future__ import annotations

from typing import Any

from ..._descriptor import Compiler, Descriptor, StubNames


def _from_numpy(a: Any, device: str) -> Any:
    """Several chunks along the first axis (two halves), so that chunk boundaries are
    exercised; matrices (2-D) stay whole, as the linalg decompositions need them."""
    import dask.array as da
    import numpy as np

    chunks = tuple(max(1, (n + 1) // 2) if i == 0 and a.ndim != 2 else max(1, n)
                   for i, n in enumerate(a.shape))  # fmt: skip
    return da.from_array(np.array(a, copy=True), chunks=chunks)


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x.compute(scheduler="synchronous"))


def _to_numpy_all(arrays: list[Any]) -> list[Any]:
    """One computation for all of them (shared parts of their graphs run once)."""
    import dask
    import numpy as np

    return [np.asarray(v) for v in dask.compute(*arrays, scheduler="synchronous")]


def _release_caches() -> None:
    from ._kept import KEPT

    KEPT.clear()


def _random(kind: str, shape: tuple[int, ...], a: float, b: float, like: Any) -> Any:
    import dask.array as da

    draw = da.random.uniform if kind == "uniform" else da.random.normal
    return draw(a, b, size=shape).astype(like.dtype)


DESCRIPTOR = Descriptor(
    name="dask",
    packages=("dask",),
    array_types="dask.array.Array",
    framework="dask.array",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import dask.array\nimport numpy", "dask.array.Array", "numpy.dtype[Any]"),
    numpy_dtypes=True,
    lazy=True,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    to_numpy_all=_to_numpy_all,
    peers=("array_api_compat.dask.array",),
    # no compiler (`jit` runs the function as is); the loop of `vmap` cannot stack arrays
    # of unknown shapes lazily
    compiler=Compiler(vmap_refuses_data_dependent=True),
    eagerpy_class="DaskTensor",
    eagerpy_random=_random,
    in_array_api_compat=True,
    release_caches=_release_caches,
    benchmark_setup="import dask.array as fw; "
                    "x = fw.linspace(0.0, 1.0, 16, dtype='float32', chunks=8)",
)
