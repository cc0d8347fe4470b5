"""The chapters of the standard where ndonnx differs from it or lacks a function:
linear algebra, manipulation, searching, sets, sorting, statistics, utilities.

The generic defaults (`native._base`) call ndonnx's namespace for the rest; what is
written here composes ONNX operators that ndonnx has (``isin``) or fixes ndonnx's
deviations, the same on eager and symbolic arrays.  ndonnx reads a negative axis modulo
the rank (``sum(x, axis=-3)`` of a 2-d array sums an axis), accepts a repeated axis, and
leaves other invalid calls to ONNX: shape inference then fails naming no argument, or
(eager arrays) onnxruntime fails and ndonnx returns an array without a value
(`NdonnxCore.computed`).  So most functions here check their arguments first, with the
error contract's exceptions naming the value, then run ndonnx's own (or the generic
default).  Also here: the integer reductions and scans ndonnx computes in float64
(``prod``, ``cumulative_prod``: wrong beyond 2**53; its ``cumulative_prod`` of a negative
or zero float is NaN, being ``exp(cumsum(log(x)))``) and ``searchsorted`` of a non-1-d
``x2``.
"""

from __future__ import annotations

import math
from typing import Any, cast

import ndonnx as ndx
import numpy as np
import spox.opset.ai.onnx.v21 as _onnx

from ..._dtypes import REAL_FLOATING
from .._base.core import translated
from .._base.functions import accumulates_in_bool, accumulation_dtype, bool_accumulation
from ._core import Array, constant, constant_var
from ._creation import NdonnxCreation

_SIGNED_NARROW = frozenset({"int8", "int16", "int32"})
_UNSIGNED_NARROW = frozenset({"uint8", "uint16", "uint32"})


class NdonnxFunctions(NdonnxCreation):
    """Functions of the standard ndonnx lacks, or gets wrong."""

    def _as_array(self, x: Any, like: Any, function: str) -> Any:
        """``x`` as an ndonnx array: a Python scalar of ``like``'s dtype, an `Array`'s raw."""
        if type(x) is Array:
            return x
        if isinstance(x, (bool, int, float)):
            return ndx.asarray(x, dtype=like.dtype)
        self.check_array(x, function)
        return x.raw

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """Each element of ``x1`` compared with every element of ``x2`` (one ``Equal``
        broadcast over a new axis and an ``any``): ONNX has no set lookup for numbers,
        and ndonnx's own ``isin`` takes Python scalars only.  NaN is in nothing."""
        if type(x1) is not Array and type(x2) is not Array:
            if isinstance(x1, (bool, int, float)) and isinstance(x2, (bool, int, float)):
                return ndx.asarray((x1 == x2) != invert)
        if type(x1) is not Array:
            x1 = self._as_array(x1, x2, "isin")
        if type(x2) is not Array:
            x2 = self._as_array(x2, x1, "isin")
        return self.fuse(f"isin{invert}", lambda a, b: _membership(a, b, invert), x1, x2)

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        """ONNX's ``MatMul`` itself where both shapes are known and hold no zero (ndonnx
        builds some 200 operators around it for zero-size operands, a second per eager
        call); ``MatMul`` has no 8- and 16-bit integers: those multiply in int64 and are
        cast back (the same values modulo 2**bits, as the narrow product would wrap)."""
        b = self._b
        s1, s2 = b.shape_of(x1), b.shape_of(x2)
        name = b.promote_names(b.dtype_name(x1.dtype), b.dtype_name(x2.dtype), "matmul")
        if name == "bool":
            raise b.error("matmul", "expected numeric arrays, got bool", TypeError)
        if not s1 or not s2:
            raise b.error("matmul", f"expected arrays of at least one dimension, got shapes "
                          f"{s1} and {s2}")  # fmt: skip
        if None in s1 or None in s2 or 0 in s1 or 0 in s2:
            return ndx.matmul(x1, x2)
        inner1, inner2 = s1[-1], s2[-2] if len(s2) > 1 else s2[0]
        if inner1 != inner2:
            raise b.error("matmul", f"shapes {s1} and {s2} do not match: the last axis of x1 "
                          f"({inner1}) is not the {'first' if len(s2) == 1 else 'second-to-last'}"
                          f" of x2 ({inner2})")  # fmt: skip
        dtype = b.dtypes_by_name[name]
        wide = ndx.int64 if name in _NARROW_INTEGERS else dtype
        a1, a2 = ndx.astype(x1, wide, copy=False), ndx.astype(x2, wide, copy=False)
        result = ndx.asarray(_onnx.matmul(a1.unwrap_spox(), a2.unwrap_spox()))
        return result if wide is dtype else ndx.astype(result, dtype)

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        """One new axis per entry of ``axis`` (ndonnx takes one int, by keyword)."""
        axes = axis if isinstance(axis, tuple) else (axis,)
        ndim = len(self.shape_of(x)) + len(axes)
        positions = sorted(self.normalize_axes(axes, ndim, "expand_dims"))
        for position in positions:
            x = ndx.expand_dims(x, axis=position)
        return x

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        """A Python int beside an integer array takes its dtype through NumPy (ndonnx
        turns ``2**64 - 1`` beside a uint64 array into 0; one beyond the dtype:
        `OverflowError`); uint64 selects exactly (`NdonnxCore.select`)."""
        x1, x2 = self._int_operands("where", x1, x2)
        x1, x2 = self._same_kind(x1, x2), self._same_kind(x2, x1)
        if type(x1) is not Array or type(x2) is not Array or type(condition) is not Array \
                or self.result_type(x1, x2) not in (ndx.float32, ndx.float64):  # fmt: skip
            return self.select(condition, x1, x2)
        return self.fuse("where", _signed_where, condition, x1, x2)

    def _axes(self, x: Any, axis: Any, function: str) -> tuple[int, ...]:
        """``axis`` (None, an int, a tuple) of ``x`` normalised: `AxisError` out of range,
        `ValueError` for a repeated one, `TypeError` for a non-integer."""
        return self.normalize_axes(axis, len(self.shape_of(x)), function)  # type: ignore[no-any-return]

    # -- statistics and utilities: reductions ------------------------------------------------
    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "max")
        return self.fuse(f"max{axis!r}{keepdims}", lambda a: _unflipped(
            super(NdonnxFunctions, self).max(_flipped(a), axis=axis, keepdims=keepdims), a), x)

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "min")
        return self.fuse(f"min{axis!r}{keepdims}", lambda a: _unflipped(
            super(NdonnxFunctions, self).min(_flipped(a), axis=axis, keepdims=keepdims), a), x)

    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "mean")
        return self.fuse(f"mean{axis!r}{keepdims}",
                         lambda a: super(NdonnxFunctions, self).mean(a, axis=axis, keepdims=keepdims), x)

    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        """Integers add as their dtype does, modulo ``2**bits``, through ``MatMul`` with
        a vector of ones where the summed sizes are known (onnxruntime's int64
        ``ReduceSum`` saturates, and it has none for uint64, which ndonnx sums in
        float64)."""
        axes = self._axes(x, axis, "sum")
        target = self._accumulation(x, accumulation_dtype(self, x, dtype, "sum"), "sum")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "sum", x, axis, keepdims)
        shape = self.shape_of(x)
        kept = [a for a in range(len(shape)) if a not in axes]
        if self.dtype_name(target) in REAL_FLOATING or any(shape[a] is None for a in axes) \
                or sum(shape[a] is None for a in kept) > 1:  # fmt: skip
            return super().sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
        return self.fuse(f"sum{axes}{target}{keepdims}",
                         lambda a: self._integer_sum(a, axes, target, keepdims), x)  # fmt: skip

    def _integer_sum(self, x: Any, axes: tuple[int, ...], target: Any, keepdims: bool) -> Any:
        shape = self.shape_of(x)
        kept = [a for a in range(len(shape)) if a not in axes]
        count = math.prod(cast(int, shape[a]) for a in axes)
        outer = tuple(-1 if shape[a] is None else cast(int, shape[a]) for a in kept)
        wide = ndx.uint64 if self.dtype_name(target).startswith("u") else ndx.int64
        flat = ndx.reshape(ndx.permute_dims(ndx.astype(x, wide), (*kept, *axes)), (*outer, count))
        if count == 0:  # (onnxruntime's uint64 MatMul fails on an empty inner axis)
            result = ndx.astype(ndx.zeros_like(ndx.sum(ndx.astype(flat, ndx.int64), axis=-1)),
                                target)  # fmt: skip
        else:
            ones = constant_var(np.ones((count, 1), dtype=wide.unwrap_numpy()))
            summed = ndx.asarray(_onnx.matmul(flat.unwrap_spox(), ones))
            result = ndx.astype(summed[..., 0], target)
        if keepdims:
            for a in sorted(axes):
                result = ndx.expand_dims(result, axis=a)
        return result

    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        """Integers multiply as their dtype does, modulo ``2**bits`` (ndonnx's
        ``ReduceProd`` runs in float64, and onnxruntime's int64 ``ReduceProd``
        saturates): a product tree of ``Mul`` over the reduced axes, whose sizes must be
        known."""
        axes = self._axes(x, axis, "prod")
        target = self._accumulation(x, accumulation_dtype(self, x, dtype, "prod"), "prod")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "prod", x, axis, keepdims)
        if self.dtype_name(target) in REAL_FLOATING:
            return super().prod(x, axis=axis, dtype=target, keepdims=keepdims)
        shape = self.shape_of(x)
        if any(shape[a] is None for a in axes):
            raise self.error("prod", f"the integer product over axes {axes} of shape {shape} "
                             "needs their sizes (a product tree of Mul)", NotImplementedError)  # fmt: skip
        return self.fuse(f"prod{axes}{target}{keepdims}",
                         lambda a: self._product_tree(a, axes, target, keepdims), x)  # fmt: skip

    def _product_tree(self, x: Any, axes: tuple[int, ...], target: Any, keepdims: bool) -> Any:
        shape = self.shape_of(x)
        kept = [a for a in range(len(shape)) if a not in axes]
        moved = ndx.permute_dims(ndx.astype(x, target), (*kept, *axes))
        count = math.prod(cast(int, shape[a]) for a in axes)
        outer = tuple(-1 if shape[a] is None else cast(int, shape[a]) for a in kept)
        flat = ndx.reshape(moved, (*outer, count))
        if count == 0:
            result = ndx.astype(ndx.ones_like(ndx.sum(flat, axis=-1)), target)
        else:
            while count > 1:
                if count % 2:
                    flat = ndx.concat([flat, ndx.ones_like(flat[..., :1])], axis=-1)
                    count += 1
                flat = flat[..., : count // 2] * flat[..., count // 2:]
                count //= 2
            result = flat[..., 0]
        if keepdims:
            for a in sorted(axes):
                result = ndx.expand_dims(result, axis=a)
        return result

    def _accumulation(self, x: Any, dtype: Any, function: str) -> Any:
        """The result dtype of ``sum``/``prod``/``cumulative_*``: ``dtype`` if given (as
        `accumulation_dtype` checked it); else ``x``'s, with narrower integers widened to
        int64 or uint64 and bool to the default integer (the standard's rule)."""
        if dtype is not None:
            return dtype
        name = self.dtype_name(x.dtype)
        if name in _SIGNED_NARROW or name == "bool":
            return ndx.int64
        if name in _UNSIGNED_NARROW:
            return ndx.uint64
        return x.dtype

    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        self._axes(x, axis, "std")
        return self.fuse(f"std{axis!r}{correction!r}{keepdims}",
                         lambda a: super(NdonnxFunctions, self).std(a, axis=axis, correction=correction,
                                                                      keepdims=keepdims), x)  # fmt: skip

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        self._axes(x, axis, "var")
        return self.fuse(f"var{axis!r}{correction!r}{keepdims}",
                         lambda a: super(NdonnxFunctions, self).var(a, axis=axis, correction=correction,
                                                                      keepdims=keepdims), x)  # fmt: skip

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "all")
        return super().all(x, axis=axis, keepdims=keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "any")
        return super().any(x, axis=axis, keepdims=keepdims)

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        self._axes(x, axis, "count_nonzero")
        return super().count_nonzero(x, axis=axis, keepdims=keepdims)

    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        if axis is not None:
            self.normalize_axis(axis, len(self.shape_of(x)), "argmax")
        return super().argmax(_flipped(x), axis=axis, keepdims=keepdims)

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        if axis is not None:
            self.normalize_axis(axis, len(self.shape_of(x)), "argmin")
        return super().argmin(_flipped(x), axis=axis, keepdims=keepdims)

    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        """Running products by doubling (``ceil(log2(n))`` rounds of a shifted ``Mul``;
        ndonnx's ``exp(cumulative_sum(log(x)))`` is NaN for a negative entry and inexact
        for integers): the axis's size must be known."""
        shape = self.shape_of(x)
        if axis is None:
            if len(shape) != 1:
                raise self.error("cumulative_prod", f"axis is required for a {len(shape)}-d "
                                 "array")  # fmt: skip
            axis = 0
        axis = self.normalize_axis(axis, len(shape), "cumulative_prod")
        target = self._accumulation(x, accumulation_dtype(self, x, dtype, "cumulative_prod"),
                                    "cumulative_prod")  # fmt: skip
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "cumulative_prod", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        size = shape[axis]
        if size is None:
            raise self.error("cumulative_prod", f"axis {axis} of shape {shape} must have a "
                             "known size (the products double along it)", NotImplementedError)  # fmt: skip
        return self.fuse(f"cumulative_prod{axis}{target}{include_initial}",
                         lambda a: _running(a, axis, target, include_initial, ndx.multiply, 1), x)

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        """Integers by doubling (``ceil(log2(n))`` rounds of a shifted ``Add``, modulo
        ``2**bits`` as the dtype adds; ndonnx's ``CumSum`` of uint64 runs in float64)
        where the axis's size is known; floats, and unknown sizes, through ndonnx."""
        shape = self.shape_of(x)
        target = self._accumulation(x, accumulation_dtype(self, x, dtype, "cumulative_sum"),
                                    "cumulative_sum")  # fmt: skip
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "cumulative_sum", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        if self.dtype_name(target) in REAL_FLOATING or (axis is None and len(shape) != 1):
            return super().cumulative_sum(x, axis=axis, dtype=dtype,
                                          include_initial=include_initial)  # fmt: skip
        where = self.normalize_axis(0 if axis is None else axis, len(shape), "cumulative_sum")
        if shape[where] is None:
            return super().cumulative_sum(x, axis=axis, dtype=dtype,
                                          include_initial=include_initial)  # fmt: skip
        return self.fuse(f"cumulative_sum{where}{target}{include_initial}",
                         lambda a: _running(a, where, target, include_initial, ndx.add, 0), x)

    # -- sorting ------------------------------------------------------------------------------
    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        self.normalize_axis(axis, len(self.shape_of(x)), "argsort")
        return super().argsort(_flipped(x), axis=axis, descending=descending, stable=stable)

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        self.normalize_axis(axis, len(self.shape_of(x)), "sort")
        return _unflipped(super().sort(_flipped(x), axis=axis, descending=descending,
                                       stable=stable), x)  # fmt: skip

    # -- sets -----------------------------------------------------------------------------------
    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """ndonnx's, uint64 values through their order-keeping int64 twins (ndonnx runs
        a uint64 ``Unique`` in float64)."""
        values, indices, inverse, counts = super()._unique(_flipped(x), function)
        return _unflipped(values, x), indices, inverse, counts

    # -- manipulation ---------------------------------------------------------------------------
    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        self._axes(x, axis, "flip")
        return super().flip(x, axis=axis)

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        ndim = len(self.shape_of(x))
        for a in axis if isinstance(axis, (tuple, list)) else () if axis is None else (axis,):
            self.normalize_axis(a, ndim, "roll")  # (an axis may repeat: it rolls again)
        return super().roll(x, shift, axis=axis)

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        if axis is not None:
            self.normalize_axis(axis, len(self.shape_of(x)), "repeat")
        if type(repeats) is int:  # (a static count: some 60 operators, run fused)
            return self.fuse(f"repeat{repeats}{axis!r}",
                             lambda a: super(NdonnxFunctions, self).repeat(a, repeats, axis=axis), x)
        return self.computed(super().repeat(x, repeats, axis=axis), "repeat", x, repeats)

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        return self.computed(super().tile(x, repetitions), "tile", x)

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        ndim = len(self.shape_of(x))
        sources = self.normalize_axes(source, ndim, "moveaxis")
        targets = self.normalize_axes(destination, ndim, "moveaxis")
        if len(sources) != len(targets):
            raise self.error("moveaxis", f"source {source!r} and destination {destination!r} "
                             "differ in length")  # fmt: skip
        return super().moveaxis(x, source, destination)

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        ndim = len(self.shape_of(x))
        if not isinstance(axes, (tuple, list)):
            raise self.error("permute_dims", f"axes must be a tuple of ints, got {axes!r}",
                             TypeError)  # fmt: skip
        normal = self.normalize_axes(axes, ndim, "permute_dims")
        if len(normal) != ndim:
            raise self.error("permute_dims", f"axes {tuple(axes)!r} must name each of the "
                             f"{ndim} axes once")  # fmt: skip
        return super().permute_dims(x, tuple(axes))

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        """The new shape must hold the same number of elements (where ``x``'s is known)."""
        sizes = self.check_sizes(shape, "shape", "reshape", unknown=True)
        current = self.shape_of(x)
        if None not in current:
            total = math.prod(current)  # type: ignore[arg-type]
            known = math.prod(s for s in sizes if s != -1)
            fits = total == known if -1 not in sizes else known != 0 and total % known == 0
            if not fits:
                raise self.error("reshape", f"cannot reshape an array of shape {current} "
                                 f"({total} elements) into shape {tuple(sizes)}")  # fmt: skip
        return super().reshape(x, sizes, copy=copy)

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        ndim = len(self.shape_of(x))
        if ndim == 0:
            raise self.error("unstack", "a 0-d array has no axis to unstack")
        self.normalize_axis(axis, ndim, "unstack")
        return super().unstack(x, axis=axis)  # type: ignore[no-any-return]

    # -- indexing -------------------------------------------------------------------------------
    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """Indices of any integer dtype (ndonnx takes int64 only); negative ones count
        from the end, as the standard's; out of bounds: `IndexError` (eager indices)."""
        shape = self.shape_of(x)
        if axis is None:
            if len(shape) != 1:
                raise self.error("take", f"axis is required for a {len(shape)}-d array")
            axis = 0
        axis = self.normalize_axis(axis, len(shape), "take")
        if len(self.shape_of(indices)) != 1:
            raise self.error("take", f"indices must be a 1-d array, got shape "
                             f"{self.shape_of(indices)}")  # fmt: skip
        self.check_indices(indices, shape[axis], axis, "take")
        if indices.dtype != ndx.int64:
            indices = ndx.astype(indices, ndx.int64)
        size = shape[axis]
        extent = ndx.asarray(size, dtype=ndx.int64) if size is not None else \
            ndx.astype(x.dynamic_shape[axis], ndx.int64)  # fmt: skip
        indices = ndx.where(indices < 0, indices + extent, indices)
        return ndx.take(x, indices, axis=axis)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        shape = self.shape_of(x)
        if len(self.shape_of(indices)) != len(shape):
            raise self.error("take_along_axis", f"indices of shape {self.shape_of(indices)} "
                             f"must have as many dimensions as x of shape {shape}")  # fmt: skip
        position = self.normalize_axis(axis, len(shape), "take_along_axis")
        self.check_indices(indices, shape[position], position, "take_along_axis")
        return super().take_along_axis(x, indices, axis=axis)

    # -- searching ------------------------------------------------------------------------------
    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """``x2`` of any shape (ndonnx takes a 1-d one): searched flattened, the result
        shaped like it."""
        s1 = self.shape_of(x1)
        if len(s1) != 1:
            raise self.error("searchsorted", f"x1 must be a 1-d array, got shape {s1}")
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        if type(x2) is not Array:
            x2 = ndx.asarray(x2, dtype=x1.dtype)
        s2 = self.shape_of(x2)
        if len(s2) == 1:
            return super().searchsorted(x1, x2, side=side, sorter=sorter)
        found = super().searchsorted(x1, ndx.reshape(x2, (-1,)), side=side, sorter=sorter)
        if None in s2:
            return ndx.reshape(found, x2.dynamic_shape)
        return ndx.reshape(found, cast("tuple[int, ...]", s2))

    # -- linear algebra -------------------------------------------------------------------------
    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        """The contracted axes must have equal (known) sizes."""
        s1, s2 = self.shape_of(x1), self.shape_of(x2)
        if isinstance(axes, (tuple, list)):
            if len(axes) != 2 or not all(isinstance(a, (tuple, list)) for a in axes):
                raise self.error("tensordot", f"axes must be an int or two sequences of "
                                 f"axes, got {axes!r}")  # fmt: skip
            first = self.normalize_axes(tuple(axes[0]), len(s1), "tensordot")
            second = self.normalize_axes(tuple(axes[1]), len(s2), "tensordot")
            if len(first) != len(second):
                raise self.error("tensordot", f"axes {axes!r} name different numbers of axes")
        else:
            n = self.check_int(axes, "axes", "tensordot", 0)
            if n > len(s1) or n > len(s2):
                raise self.error("tensordot", f"axes={n} exceeds the dimensions of shapes "
                                 f"{s1} and {s2}")  # fmt: skip
            first = tuple(range(len(s1) - n, len(s1)))
            second = tuple(range(n))
        for a, b in zip(first, second):
            if s1[a] is not None and s2[b] is not None and s1[a] != s2[b]:
                raise self.error("tensordot", f"axis {a} of x1 (size {s1[a]}) and axis {b} of "
                                 f"x2 (size {s2[b]}) differ: shapes {s1} and {s2}")  # fmt: skip
        return super().tensordot(x1, x2, axes=axes)


def _running(x: Any, axis: int, target: Any, include_initial: bool, op: Any,
             identity: int) -> Any:  # fmt: skip
    """The running ``op`` (``multiply``, ``add``) of ``x`` along ``axis`` (of known size)
    in ``target``, by doubling: round ``k`` combines each entry with the one ``2**k``
    before it (the ``identity`` before the start); ``include_initial`` puts the identity
    first."""
    size = cast(int, x.shape[axis])
    running = ndx.moveaxis(ndx.astype(x, target), axis, -1)
    step = 1
    while step < size:
        before = ndx.full_like(running[..., :step], identity)
        running = op(running, ndx.concat([before, running[..., : size - step]], axis=-1))
        step *= 2
    if include_initial:
        first = ndx.full_like(ndx.sum(running, axis=-1, keepdims=True, dtype=target), identity)
        running = ndx.concat([ndx.astype(first, target), running], axis=-1)
    return ndx.moveaxis(running, -1, axis)


#: The bit that maps uint64 onto int64 keeping the order: 0 -> -2**63, 2**64 - 1 -> 2**63 - 1.
_TOP = np.int64(-(2**63))


def _flipped(x: Any) -> Any:
    """A uint64 ``x`` as int64 values in the same order (its bits through ``Cast``, the
    top one flipped): onnxruntime has no uint64 ``ReduceMax``, ``ArgMax``, ``TopK`` or
    ``Unique``, for which ndonnx goes through float64 and rounds beyond 2**53.  Any
    other ``x`` as it is."""
    if type(x) is not Array or x.dtype != ndx.uint64:
        return x
    return ndx.bitwise_xor(ndx.astype(x, ndx.int64), constant(_TOP))


def _unflipped(y: Any, like: Any) -> Any:
    """`_flipped` undone, where ``like`` is uint64."""
    if type(like) is not Array or like.dtype != ndx.uint64:
        return y
    return ndx.astype(ndx.bitwise_xor(y, constant(_TOP)), ndx.uint64)


def _signed_where(condition: Any, x1: Any, x2: Any) -> Any:
    """``where`` of floats with its zeros' signs: onnxruntime's ``Where`` returns +0.0
    where it picks a -0.0 from its first operand (from its second it keeps the sign), so
    those places are negated after it (a product: every other value keeps its bits)."""
    result = ndx.where(condition, x1, x2)
    negative_zero = condition & (x1 == 0) & (ndx.reciprocal(x1) < 0)
    return result * (1 - 2 * ndx.astype(negative_zero, result.dtype))


def _membership(x1: Any, x2: Any, invert: bool) -> Any:
    """`NdonnxFunctions.isin`'s graph."""
    flat = ndx.reshape(x2, (-1,))
    hits = ndx.any(ndx.expand_dims(x1, axis=-1) == flat, axis=-1)
    return ndx.logical_not(hits) if invert else hits


#: The integer dtypes ONNX's ``MatMul`` does not take.
_NARROW_INTEGERS = frozenset({"int8", "int16", "uint8", "uint16"})
