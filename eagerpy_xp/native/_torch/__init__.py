"""The PyTorch backend (``_backend`` composes it).  This module describes it: importing it
imports no framework."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..._descriptor import Compiler, Descriptor, StubNames


def _devices() -> list[str]:
    import torch

    return ["cpu", *(f"cuda:{i}" for i in range(torch.cuda.device_count()))]


def _device_name(device: str) -> str:
    import torch

    return str(torch.cuda.get_device_name(int(device.partition(":")[2] or 0)))


def _from_numpy(a: Any, device: str) -> Any:
    import numpy as np
    import torch

    return torch.from_numpy(np.array(a, copy=True, order="C")).to(device)


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x.detach().cpu().resolve_conj().resolve_neg().numpy())


def _global_state() -> dict[str, Any]:
    import torch

    return {"torch default dtype": str(torch.get_default_dtype()),
            "torch grad mode": torch.is_grad_enabled()}


def _call_again(compiled: Any, args: list[Any]) -> Any:
    """Dynamo replays a body's side effects on every call, so a second call is held to
    ``error_on_recompile`` instead of a count of traces."""
    import torch

    with torch._dynamo.config.patch(error_on_recompile=True):
        return compiled(*args)


DESCRIPTOR = Descriptor(
    name="torch",
    packages=("torch",),
    array_types="torch.Tensor",
    framework="torch",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import torch", "torch.Tensor", "torch.dtype"),
    differentiable=True,
    devices=_devices,
    device_name=_device_name,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    global_state=_global_state,
    peers=("array_api_compat.torch",),
    # torch.compile traces data-dependent shapes (unbacked sizes): no compiler limit
    compiler=Compiler(suite_options=MappingProxyType({"backend": "aot_eager"}),
                      call_again=_call_again, vmap_refuses_data_dependent=True),
    eagerpy_class="PyTorchTensor",
    in_eagerpy=True,
    in_array_api_compat=True,
    compiler_modules=("torch._dynamo", "torch._inductor"),
    benchmark_setup="import torch as fw; x = fw.linspace(0.0, 1.0, 16)",
    benchmark_spellings=MappingProxyType({
        "xp.sum(x, axis=0)": "fw.sum(a, dim=0)", "xp.mean(x, axis=0)": "fw.mean(a, dim=0)",
        "x[::-1]": "a.flip(0)"}),
    benchmark_fast=True,
)
