"""EagerPy's type aliases (``eagerpy.types``), unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import torch

Axes = tuple[int, ...]
AxisAxes = int | Axes
Shape = tuple[int, ...]
ShapeOrScalar = Shape | int

#: A framework's array (torch, TensorFlow, JAX, NumPy, Dask) or an `eagerpy_xp.Array`.
#: As in EagerPy, only ``torch.Tensor`` carries real type information; the rest is `Any`.
NativeTensor = Union["torch.Tensor", Any]

__all__ = ["Axes", "AxisAxes", "NativeTensor", "Shape", "ShapeOrScalar"]
