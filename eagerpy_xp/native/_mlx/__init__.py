"""The MLX backend (``_backend`` composes it; docs/mlx.md).  This module describes it:
importing it imports no framework."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..._descriptor import Compiler, Descriptor, Limitation, StubNames


def _devices() -> list[str]:
    import mlx.core as mx

    if not mx.is_available(mx.gpu):
        return ["cpu"]
    metal = getattr(mx, "metal", None)  # Metal on Apple silicon ("mps"), else CUDA
    return ["cpu", "mps:0" if metal is not None and metal.is_available() else "cuda:0"]


def _from_numpy(a: Any, device: str) -> Any:
    """MLX keeps the dtype only when told (it reads float64 as float32)."""
    import mlx.core as mx
    import numpy as np

    name = "bool_" if a.dtype == np.bool_ else a.dtype.name
    return mx.array(np.asarray(a, order="C"), dtype=getattr(mx, name))


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.array(x)


def _random(kind: str, shape: tuple[int, ...], a: float, b: float, like: Any) -> Any:
    """From MLX's global generator (``mx.random.seed`` seeds it)."""
    import mlx.core as mx

    if kind == "uniform":
        return mx.random.uniform(a, b, shape, dtype=like.dtype)
    return mx.random.normal(shape, dtype=like.dtype, loc=a, scale=b)


_LIMITATIONS = (
    Limitation(
        "native", "__setitem__",
        "MLX 0.32's own slice assignment under mx.vmap writes a value that is not mapped into "
        "the first example only: mx.vmap(f)(mx.arange(6.0).reshape(2, 3)) with "
        "f(z): z = z * 1; z[0] = -1.0; return z gives [[-1, 1, 2], [3, 4, 5]].  The native "
        "flavour's z[...] = v is MLX's own operator; the wrapped flavour's setitem maps the "
        "value first (eagerpy_xp.vmap)",
        test="test_vectorized",
    ),
    Limitation(
        "*", "constants and dtypes",
        "MLX has no complex128 (its one complex dtype is complex64), which the standard "
        "requires: neither MLX namespace has the attribute, so clients that find dtypes by "
        "name (array-api-tests, hypothesis) never draw a dtype no array can have; results "
        "that would be complex128 raise NotImplementedError (docs/mlx.md)",
        test="test_constants_and_dtypes",
    ),
)

DESCRIPTOR = Descriptor(
    name="mlx",
    packages=("mlx",),
    array_types="mlx.core.array",
    framework="mlx.core",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import mlx.core", "mlx.core.array", "mlx.core.Dtype"),
    differentiable=True,
    absent=("complex128",),
    unheld=MappingProxyType({"cpu": frozenset({"complex128"}),
                             "*": frozenset({"complex128", "float64"})}),
    devices=_devices,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    peers=("mlx.core",),
    limitations=_LIMITATIONS,
    raising_dtype_objects=(
        "MLX's own Dtype.__eq__ raises TypeError for None (mx.float32 == None); the native "
        "flavour keeps MLX's objects, eagerpy_xp.mlx has its own (docs/mlx.md)"),
    compiler=Compiler(traces_run_the_body=True,
                      data_dependent="a data-dependent shape: mx.compile traces shapes",
                      vmap_refuses_data_dependent=True),
    eagerpy_class="MLXTensor",
    eagerpy_random=_random,
    # array-api-compat hands MLX's arrays to ``mlx.core`` itself
    in_array_api_compat=True,
    compiler_modules=("mlx.nn",),
    benchmark_setup="import mlx.core as fw; x = fw.linspace(0.0, 1.0, 16)",
)
