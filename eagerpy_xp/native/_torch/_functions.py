"""The remaining chapters on torch: indexing, linear algebra, manipulation, searching,
sets, sorting, statistics and utilities."""

from __future__ import annotations

import math
from typing import Any

import torch

from ..._detect import SCALAR_TYPES
from ..._dtypes import CATEGORY_OF
from .._base import fastpath
from .._base.core import raise_translated, translated
from .._base.functions import (
    accumulation_dtype,
    bool_accumulation,
    check_correction,
    check_reduced_elements,
    check_repeats,
    check_roll,
    check_sorter,
)
from ._core import SIGNED_VIEW, Tensor, TorchCore, transformed

#: Dtypes whose sum and product torch computes in the standard's result dtype (small
#: signed integers and bool widen to int64 as the standard says; unsigned ones do not).
_ACCUMULATES_AS_STANDARD = frozenset((
    torch.float32, torch.float64, torch.complex64, torch.complex128,
    torch.int64, torch.int32, torch.int16, torch.int8,
))  # fmt: skip  (bool is not numeric: `_accumulate` raises the TypeError)
#: The standard's floating dtypes: `mean` is torch's on them.
_FLOATING = frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))
#: The dtypes of `_ACCUMULATES_AS_STANDARD` whose sum and product are int64.
_WIDENS = frozenset((torch.int32, torch.int16, torch.int8))


def _wraps_negative_indices() -> bool:
    """Whether ``torch.take_along_dim`` counts a negative index from the end itself (it
    does on recent torch, where its compiled form already normalises the index)."""
    try:
        return int(torch.take_along_dim(torch.tensor([3, 4]), torch.tensor([-1]), 0)) == 4
    except (IndexError, RuntimeError):
        return False


#: Checked once: where torch wraps negative indices, `take_along_axis` adds no second
#: normalisation, and compiles to the kernels of ``take_along_dim`` written by hand
#: (tests/test_compile.py; a second one changed inductor's fusion of the gradient).
_TAKE_ALONG_WRAPS = _wraps_negative_indices()


class TorchFunctions(TorchCore):
    """Functions of the non-element-wise chapters."""

    # -- indexing ----------------------------------------------------------------------------
    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        self._check_tensor(x, "take")
        if axis is None:
            if x.ndim != 1:
                raise self.error("take", f"axis is required for {x.ndim}-d arrays")
            axis = 0
        axis = self.normalize_axis(axis, x.ndim, "take")
        return x[(slice(None),) * axis + (self._index_tensor(indices, x, "take"),)]

    def _index_tensor(self, indices: Any, x: Tensor, function: str) -> Tensor:
        if isinstance(indices, int) and not isinstance(indices, bool):
            return torch.tensor(indices, device=x.device)
        self._check_tensor(indices, function)
        if indices.dtype == torch.bool or indices.is_floating_point() or indices.is_complex():
            raise self.error(function, f"indices must be integers, got {indices.dtype}", TypeError)
        return indices.to(torch.int64)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        self._check_tensor(x, "take_along_axis")
        axis = self.normalize_axis(axis, x.ndim, "take_along_axis")
        idx = self._index_tensor(indices, x, "take_along_axis")
        size = x.shape[axis]
        outside = (idx < -size) | (idx >= size)
        # a compiled graph cannot raise on values, nor vmap read them: there the check is
        # left out (torch's kernel then fails on an index out of range)
        if not transformed(idx) and bool(outside.any()):
            raise self.error("take_along_axis", f"index {int(idx[outside][0])} is out of range "
                             f"for axis {axis} of size {size}", IndexError)  # fmt: skip
        if not _TAKE_ALONG_WRAPS:
            idx = torch.where(idx < 0, idx + size, idx)
        return self._on_bits(torch.take_along_dim, x, idx, dim=axis)

    # -- linear algebra ----------------------------------------------------------------------
    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        """Integer products run as multiply-and-sum where torch has no kernel (CUDA, uint16+)."""
        a, b = self._as_tensors((x1, x2), "matmul")
        if a.ndim == 0 or b.ndim == 0:
            raise self.error("matmul", "0-d arrays are not allowed")
        inner_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
        if a.shape[-1] != inner_b:
            raise self.error("matmul", f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not "
                             "align")  # fmt: skip
        floating = a.is_floating_point() or a.is_complex()
        if floating or (a.device.type == "cpu" and a.dtype not in SIGNED_VIEW
                        and a.dtype != torch.bool):  # fmt: skip
            return torch.matmul(a, b)
        left = self._bits(a if a.ndim > 1 else a[None])
        right = self._bits(b if b.ndim > 1 else b[:, None])
        result = (left[..., :, :, None] * right[..., None, :, :]).sum(-2, dtype=left.dtype)
        if a.ndim == 1:
            result = result.squeeze(-2)
        if b.ndim == 1:
            result = result.squeeze(-1)
        return self._unbits(result, a.dtype)

    @translated
    def matrix_transpose(self, x: Any, /) -> Any:
        self._check_matrix(x, "matrix_transpose")
        return x.mT

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        a, b = self._as_tensors((x1, x2), "tensordot")
        if not isinstance(axes, (tuple, list)):
            axes = self.check_int(axes, "axes", "tensordot")
        if isinstance(axes, int):
            if axes < 0:
                raise self.error("tensordot", f"axes must be non-negative, got {axes}")
            axes_a, axes_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
        else:
            axes_a = [self.normalize_axis(i, a.ndim, "tensordot") for i in axes[0]]
            axes_b = [self.normalize_axis(i, b.ndim, "tensordot") for i in axes[1]]
        if len(axes_a) != len(axes_b) or any(a.shape[i] != b.shape[j]
                                             for i, j in zip(axes_a, axes_b)):  # fmt: skip
            raise self.error("tensordot", f"axes {axes!r} do not match shapes "
                             f"{tuple(a.shape)} and {tuple(b.shape)}")  # fmt: skip
        free_a = [i for i in range(a.ndim) if i not in axes_a]
        free_b = [i for i in range(b.ndim) if i not in axes_b]
        inner = math.prod([a.shape[i] for i in axes_a])  # a list: Dynamo traces no generator here
        rows = [a.shape[i] for i in free_a]
        columns = [b.shape[i] for i in free_b]
        # explicit sizes: -1 is ambiguous when an operand has zero elements
        left = a.permute((*free_a, *axes_a)).reshape(math.prod(rows), inner)
        right = b.permute((*axes_b, *free_b)).reshape(inner, math.prod(columns))
        return self.matmul(left, right).reshape(rows + columns)

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        a, b = self._as_tensors((x1, x2), "vecdot")
        self.normalize_axis(axis, min(a.ndim, b.ndim), "vecdot")
        if a.shape[axis] != b.shape[axis]:
            raise self.error("vecdot", f"sizes along axis {axis} differ: {tuple(a.shape)} and "
                             f"{tuple(b.shape)}")  # fmt: skip
        product = self.multiply(torch.conj_physical(a) if a.is_complex() else a, b)
        return self.sum(product, axis=axis, dtype=a.dtype)

    # -- manipulation ------------------------------------------------------------------------
    @translated
    def broadcast_arrays(self, *arrays: Any) -> tuple[Any, ...]:
        try:
            return tuple(torch.broadcast_tensors(*arrays))
        except RuntimeError as e:
            raise self.error("broadcast_arrays", str(e)) from None

    @translated
    def broadcast_to(self, x: Any, /, shape: tuple[int, ...]) -> Any:
        self._check_tensor(x, "broadcast_to")
        shape = self.check_sizes(shape, "shape", "broadcast_to")
        try:
            return torch.broadcast_to(x, tuple(shape))
        except RuntimeError:
            raise self.error("broadcast_to", f"cannot broadcast shape {tuple(x.shape)} to "
                             f"{tuple(shape)}") from None  # fmt: skip

    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        tensors = self._as_tensors(arrays, "concat")
        if axis is None:
            return torch.cat([t.reshape(-1) for t in tensors])
        return torch.cat(tensors, dim=self.normalize_axis(axis, tensors[0].ndim, "concat"))

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        self._check_tensor(x, "expand_dims")
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        out_ndim = x.ndim + len(axes)
        new = self.normalize_axes(axes, out_ndim, "expand_dims")
        sizes = iter(x.shape)
        return x.reshape([1 if i in new else next(sizes) for i in range(out_ndim)])

    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        self._check_tensor(x, "flip")
        return self._on_bits(torch.flip, x, self.normalize_axes(axis, x.ndim, "flip"))

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        self._check_tensor(x, "moveaxis")
        return torch.movedim(x, source, destination)

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        self._check_tensor(x, "permute_dims")
        if len(axes) != x.ndim:
            raise self.error("permute_dims", f"axes {axes!r} do not fit {x.ndim} dimensions")
        return x.permute(tuple(axes))

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        self._check_tensor(x, "repeat")
        check_repeats(self, repeats)
        if axis is None:
            x, axis = x.reshape(-1), 0
        if isinstance(repeats, torch.Tensor):
            if repeats.dtype == torch.bool or repeats.is_floating_point() or repeats.is_complex():
                raise self.error("repeat", f"repeats must be integers, got {repeats.dtype}",
                                 TypeError)  # fmt: skip
            repeats = repeats.to(device=x.device, dtype=torch.int64)
        elif isinstance(repeats, bool) or not isinstance(repeats, int):
            raise self.error("repeat", f"repeats must be an int or an integer array, got "
                             f"{type(repeats).__name__}", TypeError)  # fmt: skip
        return self._on_bits(torch.repeat_interleave, x, repeats, dim=axis)

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        self._check_tensor(x, "reshape")
        shape = self.check_sizes(shape, "shape", "reshape", unknown=True)
        try:
            if copy is False:
                return x.view(shape)
            result = x.reshape(shape)
        except RuntimeError as e:
            raise self.error(
                "reshape", f"cannot reshape {tuple(x.shape)} to {shape}: {e}"
            ) from None
        return result.clone() if copy else result

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        self._check_tensor(x, "roll")
        check_roll(self, shift, axis)
        if axis is None:
            return self._on_bits(torch.roll, x.reshape(-1), shift).reshape(x.shape)
        if isinstance(axis, (tuple, list)) and not isinstance(shift, (tuple, list)):
            shift = (shift,) * len(axis)  # one shift for every axis (torch wants a tuple)
        return self._on_bits(torch.roll, x, shift, axis)

    @translated
    def squeeze(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        self._check_tensor(x, "squeeze")
        axes = self.normalize_axes(axis, x.ndim, "squeeze")
        if any(x.shape[a] != 1 for a in axes):
            raise self.error("squeeze", f"axis {axis!r} of shape {tuple(x.shape)} is not 1")
        return x.reshape([n for i, n in enumerate(x.shape) if i not in axes])

    @translated
    def stack(self, arrays: Any, /, *, axis: int = 0) -> Any:
        tensors = self._as_tensors(arrays, "stack")
        return torch.stack(tensors, dim=self.normalize_axis(axis, tensors[0].ndim + 1, "stack"))

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        self._check_tensor(x, "tile")
        return self._on_bits(torch.tile, x, self.check_sizes(repetitions, "repetitions", "tile"))

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        self._check_tensor(x, "unstack")
        return torch.unbind(x, dim=self.normalize_axis(axis, x.ndim, "unstack"))

    # -- searching ---------------------------------------------------------------------------
    def _arg(self, fn: Any, x: Any, axis: int | None, keepdims: bool, function: str) -> Tensor:
        self._check_tensor(x, function)
        check_reduced_elements(self, x.shape, axis, function)
        values = self._ordered(x.to(torch.uint8) if x.dtype == torch.bool else x)
        if axis is None:
            result = fn(values.reshape(-1), dim=0)
            return result.reshape((1,) * x.ndim) if keepdims else result  # type: ignore[no-any-return]
        return fn(values, dim=self.normalize_axis(axis, x.ndim, function), keepdim=keepdims)  # type: ignore[no-any-return]

    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._arg(torch.argmax, x, axis, keepdims, "argmax")

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._arg(torch.argmin, x, axis, keepdims, "argmin")

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._check_tensor(x, "count_nonzero")
        return self._reduce(torch.sum, x != 0, axis, keepdims, "count_nonzero")

    @translated
    def nonzero(self, x: Any, /) -> tuple[Any, ...]:
        self._check_tensor(x, "nonzero")
        if x.ndim == 0:
            raise self.error("nonzero", "0-d arrays are not allowed")
        self.refuse_data_dependent("nonzero", x)
        return torch.nonzero(x if x.dtype == torch.bool else x != 0, as_tuple=True)

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        a, b = self.promoted_operands("searchsorted", x1, x2)
        if a.ndim != 1:
            raise self.error("searchsorted", f"x1 must be 1-d, got shape {tuple(a.shape)}")
        if a.is_complex():
            raise self.error("searchsorted", "complex arrays have no order", TypeError)
        check_sorter(self, sorter, a.shape[0])
        if sorter is not None:
            sorter = sorter.to(torch.int64)
        if not a.is_floating_point():
            return torch.searchsorted(self._ordered(a), self._ordered(b), side=side,
                                      sorter=sorter)  # fmt: skip
        return self._searchsorted_nan_last(a, b, side, sorter)

    @staticmethod
    def _searchsorted_nan_last(a: Tensor, b: Tensor, side: str, sorter: Any) -> Tensor:
        """``searchsorted`` in `sort`'s order, NaN after +inf (torch's binary search reads
        every comparison with NaN as false and walks past the NaNs): the NaNs of ``a``
        become +inf, a position is at most the count of non-NaN values, and a NaN query
        goes before the NaNs (left) or after them (right), as NumPy places it."""
        nan = torch.isnan(a)
        numbers = a.shape[0] - nan.sum()
        found = torch.searchsorted(a.masked_fill(nan, math.inf), b, side=side, sorter=sorter)
        placed = torch.minimum(found, numbers)
        nan_query = numbers if side == "left" else torch.full_like(numbers, a.shape[0])
        return torch.where(torch.isnan(b), nan_query, placed)

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        self._check_tensor(condition, "where")
        if condition.dtype != torch.bool:
            raise self.error("where", f"condition must be a bool array, got {condition.dtype}",
                             TypeError)  # fmt: skip
        if isinstance(x1, SCALAR_TYPES) and isinstance(x2, SCALAR_TYPES):
            x1 = self.asarray(x1, device=condition.device)
        a, b = self.promoted_operands("where", x1, x2)
        return self._unbits(torch.where(condition, self._bits(a), self._bits(b)), a.dtype)

    # -- sets --------------------------------------------------------------------------------
    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        a, b = self.promoted_operands("isin", x1, x2)
        if a.is_complex() or a.dtype == torch.bool:
            found = (a[..., None] == b.reshape(-1)).any(-1)
            return ~found if invert else found
        return torch.isin(self._ordered(a), self._ordered(b), invert=invert)

    def _sort_order(self, flat: Tensor) -> Tensor:
        """A stable argsort of a 1-d tensor; complex values sort by (real, imag)."""
        if flat.is_complex():
            by_imag = torch.argsort(flat.imag, stable=True)
            return by_imag[torch.argsort(flat.real[by_imag], stable=True)]
        return torch.argsort(self._ordered(flat), stable=True)

    def _unique(self, x: Any, function: str) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """Sorted unique values, first indices, inverse indices and counts; NaNs are distinct."""
        self._check_tensor(x, function)
        self.refuse_data_dependent(function, x)
        flat = x.reshape(-1)
        n = flat.shape[0]
        order = self._sort_order(flat)
        ordered = flat[order]
        new = torch.ones(n, dtype=torch.bool, device=x.device)
        if n > 1:
            new[1:] = ordered[1:] != ordered[:-1]
        starts = torch.nonzero(new).reshape(-1)
        counts = torch.diff(starts, append=torch.tensor([n], device=x.device))
        inverse = torch.empty(n, dtype=torch.int64, device=x.device)
        inverse[order] = torch.cumsum(new, 0) - 1
        return ordered[starts], order[starts], inverse.reshape(x.shape), counts

    # -- sorting -----------------------------------------------------------------------------
    def _sort(self, x: Any, axis: int, descending: bool, function: str) -> Any:
        self._check_tensor(x, function)
        if x.is_complex():
            raise self.error(function, "complex arrays have no order", TypeError)
        if x.ndim == 0:
            return x.clone(), torch.zeros((), dtype=torch.int64, device=x.device)
        dim = self.normalize_axis(axis, x.ndim, function)
        values, indices = torch.sort(self._ordered(x), dim=dim, descending=descending,
                                     stable=True)  # fmt: skip
        return self._unordered(values, x.dtype), indices

    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """Always stable (``stable=False`` is allowed to be stable)."""
        return self._sort(x, axis, descending, "argsort")[1]

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """Always stable (``stable=False`` is allowed to be stable)."""
        return self._sort(x, axis, descending, "sort")[0]

    # -- statistics --------------------------------------------------------------------------
    def _accumulator(self, x: Tensor, dtype: Any, function: str) -> torch.dtype:
        """The result dtype of sum/prod/cumulative_*: small integers widen to 64 bits."""
        if dtype is not None:
            return accumulation_dtype(self, x, dtype, function)  # type: ignore[no-any-return]
        kind = self._kinds.get(x.dtype, "real floating")  # torch's half floats: not in _kinds
        if kind in ("bool", "signed integer"):
            return torch.int64
        return torch.uint64 if kind == "unsigned integer" else x.dtype

    def _accumulate(self, fn: Any, x: Any, dtype: Any, function: str, in_bool: tuple[Any, ...],
                    **kwargs: Any) -> Tensor:  # fmt: skip
        """``fn(values, dtype=..., **kwargs)`` computed so integer results wrap correctly;
        for ``dtype`` bool, `bool_accumulation` (``in_bool``: its arguments after ``x``)."""
        self.check_operand(x, function, CATEGORY_OF[function])
        target = self._accumulator(x, dtype, function)
        if target is torch.bool:
            return bool_accumulation(self, function, x, *in_bool)  # type: ignore[no-any-return]
        if target.is_floating_point or target.is_complex:
            values = x if x.dtype == target else x.to(target)
            return fn(values, dtype=target, **kwargs)  # type: ignore[no-any-return]
        values = self._bits(x) if x.dtype == torch.uint64 else x.to(torch.int64)
        result = fn(values, dtype=torch.int64, **kwargs)
        return self._unbits(result, target) if target in SIGNED_VIEW else result.to(target)

    # sum and prod translate inline (no decorator frame behind the fast reduction)
    @fastpath.reduction(Tensor, _ACCUMULATES_AS_STANDARD, torch.sum, accumulates=True,
                        widens=_WIDENS)
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        try:
            return self._accumulate(
                lambda v, dtype: self._reduce(torch.sum, v, axis, keepdims, "sum", dtype=dtype),
                x, dtype, "sum", (axis, keepdims))  # fmt: skip
        except Exception as exc:
            raise_translated(self, exc, "sum")

    @fastpath.reduction(Tensor, _ACCUMULATES_AS_STANDARD, torch.prod, accumulates=True,
                        widens=_WIDENS)
    def prod(
        self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False
    ) -> Any:
        try:
            return self._accumulate(
                lambda v, dtype: self._reduce(_prod, v, axis, keepdims, "prod", dtype=dtype),
                x, dtype, "prod", (axis, keepdims))  # fmt: skip
        except Exception as exc:
            raise_translated(self, exc, "prod")

    def _cumulative(self, fn: Any, identity: int, x: Any, axis: int | None, dtype: Any,
                    include_initial: bool, function: str) -> Tensor:  # fmt: skip
        self._check_tensor(x, function)
        if axis is None:
            if x.ndim > 1:
                raise self.error(function, f"axis is required for {x.ndim}-d arrays")
            x, axis = x.reshape(-1), 0
        dim = self.normalize_axis(axis, x.ndim, function)
        result = self._accumulate(fn, x, dtype, function, (dim, False, include_initial), dim=dim)
        if not include_initial or result.dtype is torch.bool:  # bool_accumulation's has it
            return result
        shape = list(result.shape)
        shape[dim] = 1
        first = self._bits(torch.full(shape, identity, dtype=result.dtype, device=result.device))
        return self._unbits(torch.cat([first, self._bits(result)], dim=dim), result.dtype)

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        return self._cumulative(torch.cumsum, 0, x, axis, dtype, include_initial,
                                "cumulative_sum")  # fmt: skip

    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        return self._cumulative(torch.cumprod, 1, x, axis, dtype, include_initial,
                                "cumulative_prod")  # fmt: skip

    def _extreme(self, fn: Any, x: Any, axis: Any, keepdims: bool, function: str) -> Tensor:
        self._check_tensor(x, function)
        check_reduced_elements(self, x.shape, axis, function)
        return self._unordered(self._reduce(fn, self._ordered(x), axis, keepdims, function),
                               x.dtype)  # fmt: skip

    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(torch.amax, x, axis, keepdims, "max")

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(torch.amin, x, axis, keepdims, "min")

    def _floating(self, x: Any, function: str) -> None:
        self._check_tensor(x, function)
        if not (x.is_floating_point() or x.is_complex()):
            raise self.error(function, f"expected a floating-point array, got {x.dtype}",
                             TypeError)  # fmt: skip

    @fastpath.reduction(Tensor, _FLOATING, torch.mean)
    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._floating(x, "mean")
        return self._reduce(torch.mean, x, axis, keepdims, "mean")

    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        check_correction(self, correction, "std")
        return torch.sqrt(self._variance(x, axis, correction, keepdims, "std"))

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        check_correction(self, correction, "var")
        return self._variance(x, axis, correction, keepdims, "var")

    def _variance(
        self, x: Any, axis: Any, correction: float, keepdims: bool, function: str
    ) -> Tensor:
        """Two passes (mean in double precision, then squared deviations): exactly 0 for
        constant data, where torch's one-pass kernel leaves rounding noise."""
        self._floating(x, function)
        if axis == ():  # no reduction: over a new axis of length one, then dropped
            axis, x, keepdims = -1, x.unsqueeze(-1), False
        axes = self.normalize_axes(axis, x.ndim, function)
        precise = {torch.float32: torch.float64, torch.complex64: torch.complex128}.get(x.dtype)
        if precise is None or x.device.type == "mps":  # mps has no float64
            precise = x.dtype
        mean = torch.mean(x, dim=axes, keepdim=True, dtype=precise).to(x.dtype) if axes else x
        deviations = (x - mean).abs().square() if x.is_complex() else (x - mean).square()
        count = math.prod([x.shape[a] for a in axes])  # a list: Dynamo traces no generator here
        return torch.sum(deviations, dim=axes, keepdim=keepdims) / max(count - correction, 0)

    # -- utilities ---------------------------------------------------------------------------
    def _truth(self, fn: Any, x: Any, axis: Any, keepdims: bool, function: str) -> Tensor:
        self._check_tensor(x, function)
        return self._reduce(fn, x if x.dtype == torch.bool else x != 0, axis, keepdims, function)

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._truth(torch.all, x, axis, keepdims, "all")

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._truth(torch.any, x, axis, keepdims, "any")

    @translated
    def diff(
        self, x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
    ) -> Any:
        """Booleans differ by ``not_equal`` (as NumPy); prepend/append may be scalars."""
        self._check_tensor(x, "diff")
        if n < 0:
            raise self.error("diff", f"n must be non-negative, got {n}")
        dim = self.normalize_axis(axis, x.ndim, "diff")
        if n == 0:
            return x
        parts = [self._diff_part(p, x, dim) for p in (prepend, x, append) if p is not None]
        values = self.concat(parts, axis=dim) if len(parts) > 1 else x
        step = self.not_equal if values.dtype == torch.bool else self.subtract
        for _ in range(n):
            size = max(values.shape[dim] - 1, 0)
            values = step(values.narrow(dim, min(1, values.shape[dim]), size),
                          values.narrow(dim, 0, size))  # fmt: skip
        return values

    def _diff_part(self, part: Any, x: Tensor, dim: int) -> Tensor:
        if isinstance(part, SCALAR_TYPES):
            shape = list(x.shape)
            shape[dim] = 1
            return torch.full(shape, part, dtype=self._scalar_dtype(x.dtype, part),
                              device=x.device)  # fmt: skip
        self._check_tensor(part, "diff")
        return part


def _prod(
    x: Tensor, dim: tuple[int, ...] | int | None = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    """``torch.prod`` over several dims (torch takes one); all of them for ``None``."""
    if dim is None:
        return torch.prod(x, dtype=dtype)
    if isinstance(dim, int):
        return torch.prod(x, dim=dim, keepdim=keepdim, dtype=dtype)
    result = x
    for d in sorted(dim, reverse=True):
        result = torch.prod(result, dim=d, keepdim=keepdim, dtype=dtype)
    return result
