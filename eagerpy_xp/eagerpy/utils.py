"""EagerPy's ``eagerpy.utils``."""

from __future__ import annotations

from typing import Literal, overload

import eagerpy_xp

from .astensor import astensor
from .tensor import JAXTensor, NumPyTensor, PyTorchTensor, Tensor, TensorFlowTensor

__all__ = ["get_dummy"]

#: EagerPy's framework names: (eagerpy_xp backend, device)
_FRAMEWORKS = {
    "pytorch": ("torch", "cpu"),
    "pytorch-gpu": ("torch", "cuda:0"),
    "tensorflow": ("tensorflow", "cpu"),
    "jax": ("jax", "cpu"),
    "numpy": ("numpy", "cpu"),
}


@overload
def get_dummy(framework: Literal["pytorch"]) -> PyTorchTensor: ...


@overload
def get_dummy(framework: Literal["tensorflow"]) -> TensorFlowTensor: ...


@overload
def get_dummy(framework: Literal["jax"]) -> JAXTensor: ...


@overload
def get_dummy(framework: Literal["numpy"]) -> NumPyTensor: ...


@overload
def get_dummy(framework: str) -> Tensor: ...


def get_dummy(framework: str) -> Tensor:
    """An empty float32 tensor of ``framework`` (``"pytorch"``, ``"pytorch-gpu"``,
    ``"tensorflow"``, ``"jax"`` or ``"numpy"``)."""
    if framework not in _FRAMEWORKS:
        raise ValueError(
            f"get_dummy: unknown framework {framework!r}; expected one of {sorted(_FRAMEWORKS)}"
        )
    backend, device = _FRAMEWORKS[framework]
    xp = getattr(eagerpy_xp, backend)  # the wrapped namespace, imported now
    return astensor(xp.zeros(0, dtype=xp.float32, device=device).raw)
