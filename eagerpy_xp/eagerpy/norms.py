"""EagerPy's norms (``eagerpy.norms``), with EagerPy's formulas (``l2`` is
``x.square().sum().sqrt()``, not a scaled norm), so results match EagerPy to the bit; and
``x.norms``, the same bound to one tensor (`NormsMethods`)."""

from __future__ import annotations

import math
from typing import Any, Generic, TypeVar

from .types import AxisAxes

#: A tensor (`eagerpy_xp.eagerpy.Tensor`): each norm gives the type it is given.
TensorType = TypeVar("TensorType")

__all__ = ["NormsMethods", "l0", "l1", "l2", "linf", "lp"]


def l0(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    t: Any = x
    return (t != 0).sum(axis=axis, keepdims=keepdims).astype(t.dtype)  # type: ignore[no-any-return]


def l1(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    t: Any = x
    return t.abs().sum(axis=axis, keepdims=keepdims)  # type: ignore[no-any-return]


def l2(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    t: Any = x
    return t.square().sum(axis=axis, keepdims=keepdims).sqrt()  # type: ignore[no-any-return]


def linf(x: TensorType, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
    t: Any = x
    return t.abs().max(axis=axis, keepdims=keepdims)  # type: ignore[no-any-return]


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
    t: Any = x
    return t.abs().pow(p).sum(axis=axis, keepdims=keepdims).pow(1.0 / p)  # type: ignore[no-any-return]


class NormsMethods(Generic[TensorType]):
    """``x.norms``: `eagerpy_xp.eagerpy.norms` bound to one tensor."""

    __slots__ = ("_instance",)

    def __init__(self, instance: TensorType) -> None:
        self._instance = instance

    def l0(self, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
        return l0(self._instance, axis=axis, keepdims=keepdims)

    def l1(self, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
        return l1(self._instance, axis=axis, keepdims=keepdims)

    def l2(self, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
        return l2(self._instance, axis=axis, keepdims=keepdims)

    def linf(self, axis: AxisAxes | None = None, keepdims: bool = False) -> TensorType:
        return linf(self._instance, axis=axis, keepdims=keepdims)

    def lp(self, p: int | float, axis: AxisAxes | None = None,
           keepdims: bool = False) -> TensorType:  # fmt: skip
        return lp(self._instance, p, axis=axis, keepdims=keepdims)
