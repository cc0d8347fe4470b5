"""EagerPy's norms (``eagerpy.norms``), with EagerPy's formulas (``l2`` is
``x.square().sum().sqrt()``, not a scaled norm), so results match EagerPy to the bit."""

from __future__ import annotations

import math

from .tensor import TensorType
from .types import AxisAxes

__all__ = ["l0", "l1", "l2", "linf", "lp"]


def l0(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    return (x != 0).sum(axis=axis, keepdims=keepdims).astype(x.dtype)


def l1(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    return x.abs().sum(axis=axis, keepdims=keepdims)


def l2(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    return x.square().sum(axis=axis, keepdims=keepdims).sqrt()


def linf(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    return x.abs().max(axis=axis, keepdims=keepdims)


def lp(x: TensorType, p: int | float, axis: AxisAxes | None = None,
       keepdims: bool = False) -> TensorType:  # fmt: skip
    if p == 0:
        return l0(x, axis=axis, keepdims=keepdims)
    if p == 1:
        return l1(x, axis=axis, keepdims=keepdims)
    if p == 2:
        return l2(x, axis=axis, keepdims=keepdims)
    if p == math.inf:
        return linf(x, axis=axis, keepdims=keepdims)
    return x.abs().pow(p).sum(axis=axis, keepdims=keepdims).pow(1.0 / p)
