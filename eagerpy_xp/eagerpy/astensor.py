"""`astensor` and friends (``eagerpy.astensor``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import eagerpy_xp

from .tensor import NATIVE_CLASSES, ArrayTensor, EagerPyTypeError, PyTorchTensor, Tensor, TensorType
from .types import NativeTensor

if TYPE_CHECKING:
    import torch

__all__ = ["RestoreTypeFunc", "T", "astensor", "astensor_", "astensors", "astensors_"]


@overload
def astensor(x: TensorType) -> TensorType: ...


@overload
def astensor(x: torch.Tensor) -> PyTorchTensor: ...


@overload
def astensor(x: NativeTensor) -> Tensor: ...


def astensor(x: Any) -> Tensor:
    """``x`` as an EagerPy tensor: a framework array gets its framework's class, an
    `eagerpy_xp.Array` an `ArrayTensor`, a tensor is returned as it is.  Anything else (a
    Python or NumPy scalar included, as in EagerPy) raises `EagerPyTypeError`, which is
    also a `ValueError` (EagerPy's)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, eagerpy_xp.Array):
        return ArrayTensor(x)
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(x, numpy.generic):
        # EagerPy's rule: a tensor wraps a framework's array, never a scalar; so
        # ep.numpy.tanh(3) stays a numpy.float64, as EagerPy's module wrapper leaves it
        raise EagerPyTypeError(f"astensor: unknown type {type(x)!r} (a NumPy scalar; "
                               "numpy.asarray(x) makes it a 0-d array)")  # fmt: skip
    try:
        xp = eagerpy_xp.get_namespace(x)
    except TypeError as e:
        raise EagerPyTypeError(f"astensor: unknown type {type(x)!r}") from e
    return NATIVE_CLASSES[xp.__name__.rsplit(".", 1)[-1]](x)


def astensors(*xs: Any) -> tuple[Tensor, ...]:
    return tuple(astensor(x) for x in xs)


T = TypeVar("T")


class RestoreTypeFunc(Generic[T]):
    """Gives results back in the type of the original input: raw arrays for a raw input,
    tensors for a tensor."""

    def __init__(self, x: T) -> None:
        self.unwrap = not isinstance(x, Tensor)

    @overload
    def __call__(self, x: Tensor) -> T: ...

    @overload
    def __call__(self, x: Tensor, y: Tensor) -> tuple[T, T]: ...

    @overload
    def __call__(self, x: Tensor, y: Tensor, z: Tensor, *args: Tensor) -> tuple[T, ...]: ...

    @overload
    def __call__(self, *args: Any) -> Any: ...

    def __call__(self, *args: Any) -> Any:  # type: ignore[misc]
        result = tuple(x.raw for x in args) if self.unwrap else args
        return result[0] if len(result) == 1 else result


def astensor_(x: T) -> tuple[Tensor, RestoreTypeFunc[T]]:
    return astensor(x), RestoreTypeFunc[T](x)


def astensors_(x: T, *xs: T) -> tuple[tuple[Tensor, ...], RestoreTypeFunc[T]]:
    return astensors(x, *xs), RestoreTypeFunc[T](x)
