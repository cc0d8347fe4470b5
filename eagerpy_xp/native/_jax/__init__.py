"""The JAX backend (``_backend``: ``jax.numpy`` is close to the standard; it holds only
what differs).  This module describes it: importing it imports no framework."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..._descriptor import Compiler, Descriptor, StubNames


def _devices() -> list[str]:
    import jax

    try:
        return ["cpu", *(f"cuda:{i}" for i in range(len(jax.devices("gpu"))))]
    except RuntimeError:  # no GPU backend
        return ["cpu"]


def _device(device: str) -> Any:
    import jax

    kind, _, index = device.partition(":")
    return jax.devices("gpu" if kind == "cuda" else kind)[int(index or 0)]


def _device_name(device: str) -> str:
    return str(_device(device).device_kind)


def _from_numpy(a: Any, device: str) -> Any:
    import jax

    return jax.device_put(a, _device(device))


def _to_numpy(x: Any) -> Any:
    import jax
    import numpy as np

    return np.asarray(jax.device_get(x))


def _x64() -> bool:
    import jax

    return bool(jax.config.read("jax_enable_x64"))


def _problem() -> str | None:
    """The suite runs JAX with its 64-bit types, which must be enabled before jax loads."""
    return None if _x64() else "not available: jax was imported before the harness enabled x64"


def _global_state() -> dict[str, Any]:
    return {"jax x64": _x64()}


def _release_caches() -> None:
    import jax

    jax.clear_caches()


def _wait(result: Any) -> None:
    import jax

    jax.block_until_ready(result)


DESCRIPTOR = Descriptor(
    name="jax",
    packages=("jax", "jaxlib"),
    array_types="jax.Array",
    framework="jax.numpy",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import jax\nimport numpy", "jax.Array", "numpy.dtype[Any]"),
    differentiable=True,
    numpy_dtypes=True,
    devices=_devices,
    device_name=_device_name,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    problem=_problem,
    suite_environment=MappingProxyType({"JAX_ENABLE_X64": "1"}),
    # JAX rewrites the traceback of every exception that leaves its API, calling
    # os.path.samefile on each frame: 0.6 ms per exception, a third of the error fuzzer's
    # time on JAX (it raises some 36,000).  Only the traceback's frames differ.
    suite_environment_defaults=MappingProxyType({"JAX_TRACEBACK_FILTERING": "off"}),
    # every kernel is cached: the defaults leave out those compiled in under a second
    suite_cache=MappingProxyType({"JAX_COMPILATION_CACHE_DIR": "{cache}",
                                  "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
                                  "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0"}),
    global_state=_global_state,
    release_caches=_release_caches,
    flushes_subnormals=True,
    # array-api-compat passes jax.numpy through (its JAX namespace is jax.numpy itself)
    peers=("jax.numpy",),
    compiler=Compiler(traces_run_the_body=True,
                      data_dependent="a data-dependent shape: XLA compiles static shapes only",
                      vmap_refuses_data_dependent=True),
    wait=_wait,
    eagerpy_class="JAXTensor",
    in_eagerpy=True,
    in_array_api_compat=True,
    compiler_modules=("jax.experimental",),
    benchmark_setup="import jax.numpy as fw; x = fw.linspace(0.0, 1.0, 16, dtype=fw.float32)",
)
