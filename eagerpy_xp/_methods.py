"""EagerPy-style method chaining on `Array` (``x.square().sum(axis=1).sqrt()``).

Each method calls the wrapped namespace of the array's backend, the standard's functions
and the EagerPy extensions every namespace carries (``xp.softmax``, ``xp.norms``, ...),
so chained code means exactly what the equivalent standard calls mean.  Names and
defaults follow EagerPy 0.30's `Tensor`, with the standard's keywords added where the
migration guide promises them (``keepdims`` of ``argmin``/``argmax``, ``descending`` and
``stable`` of ``sort``/``argsort``).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self  # methods return arrays of their own class

Axis = int | tuple[int, ...] | None


class ArrayMethods:
    """Base of `Array` holding the EagerPy convenience methods."""

    __slots__ = ()

    if TYPE_CHECKING:  # provided by `Array` (its conversions, `ArrayConversions`, too)
        _raw: Any
        _b: Any

        @property
        def ndim(self) -> int: ...
        @property
        def shape(self) -> tuple[int | None, ...]: ...
        @property
        def dtype(self) -> Any: ...
        @property
        def device(self) -> Any: ...
        def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType: ...
        def to_device(self, device: Any, /, *, stream: Any = None) -> Self: ...

    # -- element-wise ------------------------------------------------------------------
    def abs(self) -> Self:
        return self.__array_namespace__().abs(self)

    def sign(self) -> Self:
        return self.__array_namespace__().sign(self)

    def sqrt(self) -> Self:
        return self.__array_namespace__().sqrt(self)

    def square(self) -> Self:
        return self.__array_namespace__().square(self)

    def exp(self) -> Self:
        return self.__array_namespace__().exp(self)

    def log(self) -> Self:
        return self.__array_namespace__().log(self)

    def log2(self) -> Self:
        return self.__array_namespace__().log2(self)

    def log10(self) -> Self:
        return self.__array_namespace__().log10(self)

    def log1p(self) -> Self:
        return self.__array_namespace__().log1p(self)

    def tanh(self) -> Self:
        return self.__array_namespace__().tanh(self)

    def arctanh(self) -> Self:
        """The standard's ``atanh``."""
        return self.__array_namespace__().atanh(self)

    def isnan(self) -> Self:
        return self.__array_namespace__().isnan(self)

    def isinf(self) -> Self:
        return self.__array_namespace__().isinf(self)

    def logical_not(self) -> Self:
        return self.__array_namespace__().logical_not(self)

    def logical_and(self, other: Any) -> Self:
        return self.__array_namespace__().logical_and(self, other)

    def logical_or(self, other: Any) -> Self:
        return self.__array_namespace__().logical_or(self, other)

    def pow(self, exponent: Any) -> Self:
        return self.__array_namespace__().pow(self, exponent)

    def minimum(self, other: Any) -> Self:
        return self.__array_namespace__().minimum(self, other)

    def maximum(self, other: Any) -> Self:
        return self.__array_namespace__().maximum(self, other)

    def clip(self, min_: Any = None, max_: Any = None) -> Self:
        """The standard's ``clip``: either bound may be None."""
        return self.__array_namespace__().clip(self, min_, max_)

    def where(self, x: Any, y: Any) -> Self:
        """``where(self, x, y)``: ``self`` is the condition."""
        return self.__array_namespace__().where(self, x, y)

    def matmul(self, other: Any) -> Self:
        """The standard's ``matmul`` (EagerPy: 2-D only)."""
        return self.__array_namespace__().matmul(self, other)

    # -- dtypes and conversion ------------------------------------------------------------
    def astype(self, dtype: Any) -> Self:
        return self.__array_namespace__().astype(self, dtype)

    def float32(self) -> Self:
        xp = self.__array_namespace__()
        return xp.astype(self, xp.float32)

    def float64(self) -> Self:
        """Raises on JAX without x64 rather than silently giving float32."""
        xp = self.__array_namespace__()
        return xp.astype(self, xp.float64)

    def bool(self) -> Self:
        xp = self.__array_namespace__()
        return xp.astype(self, xp.bool)

    def numpy(self) -> Any:
        """A `numpy.ndarray` with the values (moved to the CPU first if needed)."""
        import numpy as np

        from ._devices import CPU

        return np.asarray(self if self.device == CPU else self.to_device(CPU))

    def item(self) -> builtins.bool | int | float | complex:
        """The Python scalar of a one-element array."""
        x = self if self.ndim == 0 else self.reshape(())
        value: builtins.bool | int | float | complex = x._b.item(x._raw)
        return value

    # -- reductions -------------------------------------------------------------------------
    def sum(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().sum(self, axis=axis, keepdims=keepdims)

    def prod(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().prod(self, axis=axis, keepdims=keepdims)

    def mean(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().mean(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().min(self, axis=axis, keepdims=keepdims)

    def max(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().max(self, axis=axis, keepdims=keepdims)

    def all(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().all(self, axis=axis, keepdims=keepdims)

    def any(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().any(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis: int | None = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().argmin(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis: int | None = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().argmax(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis: int | None = None) -> Self:
        """The standard's ``cumulative_sum``; ``axis=None`` flattens first (as EagerPy)."""
        x = self.flatten() if axis is None else self
        return self.__array_namespace__().cumulative_sum(x, axis=0 if axis is None else axis)

    # -- sorting and searching ----------------------------------------------------------
    def argsort(self, axis: int = -1, descending: builtins.bool = False,
                stable: builtins.bool = True) -> Self:  # fmt: skip
        xp = self.__array_namespace__()
        return xp.argsort(self, axis=axis, descending=descending, stable=stable)

    def sort(self, axis: int = -1, descending: builtins.bool = False,
             stable: builtins.bool = True) -> Self:  # fmt: skip
        xp = self.__array_namespace__()
        return xp.sort(self, axis=axis, descending=descending, stable=stable)

    def topk(self, k: int, sorted: builtins.bool = True) -> tuple[Self, Self]:
        values, indices = self.__array_namespace__().topk(self, k, sorted=sorted)
        return values, indices

    def take_along_axis(self, index: Any, axis: int) -> Self:
        return self.__array_namespace__().take_along_axis(self, index, axis=axis)

    # -- shapes -------------------------------------------------------------------------------
    def reshape(self, shape: int | tuple[int, ...]) -> Self:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return self.__array_namespace__().reshape(self, shape)

    def flatten(self, start: int = 0, end: int = -1) -> Self:
        """Merge axes ``start`` to ``end`` (inclusive) into one."""
        if self.ndim == 0:
            return self.reshape((1,))
        start, end = start % self.ndim, end % self.ndim
        return self.reshape((*self.shape[:start], -1, *self.shape[end + 1 :]))  # type: ignore[arg-type]

    def transpose(self, axes: tuple[int, ...] | None = None) -> Self:
        """``permute_dims``; ``axes=None`` reverses the axes (as EagerPy)."""
        order = tuple(range(self.ndim - 1, -1, -1)) if axes is None else axes
        return self.__array_namespace__().permute_dims(self, order)

    def squeeze(self, axis: Axis = None) -> Self:
        """``axis=None`` removes every axis of length 1 (the standard requires an axis)."""
        if axis is None:
            axis = tuple(i for i, n in enumerate(self.shape) if n == 1)
        return self.__array_namespace__().squeeze(self, axis)

    def expand_dims(self, axis: int) -> Self:
        return self.__array_namespace__().expand_dims(self, axis=axis)

    def flip(self, axis: Axis = None) -> Self:
        return self.__array_namespace__().flip(self, axis=axis)

    def tile(self, multiples: tuple[int, ...]) -> Self:
        return self.__array_namespace__().tile(self, tuple(multiples))

    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Self, ...]:
        return tuple(self.__array_namespace__().meshgrid(self, *arrays, indexing=indexing))

    # -- creation like self (dtype and device of self) ---------------------------------------
    def ones(self, shape: int | tuple[int, ...]) -> Self:
        return self.__array_namespace__().ones(shape, dtype=self.dtype, device=self.device)

    def zeros(self, shape: int | tuple[int, ...]) -> Self:
        return self.__array_namespace__().zeros(shape, dtype=self.dtype, device=self.device)

    def full(self, shape: int | tuple[int, ...], value: Any) -> Self:
        xp = self.__array_namespace__()
        return xp.full(shape, value, dtype=self.dtype, device=self.device)

    def ones_like(self) -> Self:
        return self.__array_namespace__().ones_like(self)

    def zeros_like(self) -> Self:
        return self.__array_namespace__().zeros_like(self)

    def full_like(self, fill_value: Any) -> Self:
        return self.__array_namespace__().full_like(self, fill_value)

    def arange(self, start: int, stop: int | None = None, step: int | None = None) -> Self:
        """``arange`` on ``self``'s device (default integer dtype, as EagerPy)."""
        xp = self.__array_namespace__()
        return xp.arange(start, stop, 1 if step is None else step, device=self.device)

    def from_numpy(self, a: Any) -> Self:
        """``a`` as an array of ``self``'s backend and device (its own dtype)."""
        return self.__array_namespace__().asarray(a, device=self.device)

    # -- linear algebra ---------------------------------------------------------------------
    def slogdet(self) -> tuple[Self, Self]:
        sign, logabsdet = self.__array_namespace__().linalg.slogdet(self)
        return sign, logabsdet

    # -- EagerPy helpers (the extensions every namespace carries) -----------------------------
    def softmax(self, axis: int = -1) -> Self:
        return self.__array_namespace__().softmax(self, axis=axis)

    def log_softmax(self, axis: int = -1) -> Self:
        return self.__array_namespace__().log_softmax(self, axis=axis)

    def logsumexp(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self.__array_namespace__().logsumexp(self, axis=axis, keepdims=keepdims)

    def onehot_like(self, indices: Any, *, value: Any = 1) -> Self:
        return self.__array_namespace__().onehot_like(self, indices, value=value)

    def crossentropy(self, labels: Any) -> Self:
        return self.__array_namespace__().crossentropy(self, labels)

    def pad(self, paddings: tuple[tuple[int, int], ...], mode: str = "constant",
            value: Any = 0) -> Self:  # fmt: skip
        return self.__array_namespace__().pad(self, paddings, mode=mode, value=value)

    def uniform(self, shape: int | tuple[int, ...], low: float = 0.0, high: float = 1.0,
                *, rng: Any = None) -> Self:  # fmt: skip
        """Drawn on the host by NumPy (see `eagerpy_xp.uniform`)."""
        return self.__array_namespace__().uniform(self, shape, low, high, rng=rng)

    def normal(self, shape: int | tuple[int, ...], mean: float = 0.0, stddev: float = 1.0,
               *, rng: Any = None) -> Self:  # fmt: skip
        """Drawn on the host by NumPy (see `eagerpy_xp.normal`)."""
        return self.__array_namespace__().normal(self, shape, mean, stddev, rng=rng)

    def index_update(self, indices: Any, values: Any) -> Self:
        return self.__array_namespace__().index_update(self, indices, values)

    @property
    def norms(self) -> BoundNorms:
        """``x.norms.l2(axis=1)``: the norms with ``x`` bound as first argument."""
        return BoundNorms(self)

    def value_and_grad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``value_and_grad(f, self, *args, **kwargs)``."""
        result: tuple[Any, ...] = self.__array_namespace__().value_and_grad(f, self, *args,
                                                                            **kwargs)  # fmt: skip
        return result

    def value_aux_and_grad(self, f: Callable[..., Any], *args: Any,
                           **kwargs: Any) -> tuple[Any, Any, Any]:  # fmt: skip
        """``value_aux_and_grad(f, self, *args, **kwargs)``."""
        value, aux, grad = self.__array_namespace__().value_aux_and_grad(f, self, *args, **kwargs)
        return value, aux, grad


class BoundNorms:
    """``x.norms``: the norms of the namespace's ``norms`` with ``x`` as first argument."""

    __slots__ = ("_x",)

    def __init__(self, x: ArrayMethods) -> None:
        self._x = x

    def __repr__(self) -> str:
        return "<eagerpy_xp norms of an Self: l0, l1, l2, linf, lp>"

    def l0(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self._x.__array_namespace__().norms.l0(self._x, axis=axis, keepdims=keepdims)

    def l1(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self._x.__array_namespace__().norms.l1(self._x, axis=axis, keepdims=keepdims)

    def l2(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self._x.__array_namespace__().norms.l2(self._x, axis=axis, keepdims=keepdims)

    def linf(self, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self._x.__array_namespace__().norms.linf(self._x, axis=axis, keepdims=keepdims)

    def lp(self, p: float, axis: Axis = None, keepdims: builtins.bool = False) -> Self:
        return self._x.__array_namespace__().norms.lp(self._x, p, axis=axis, keepdims=keepdims)
