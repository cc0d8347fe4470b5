"""The other chapters on MLX: indexing, linear algebra, manipulation, searching, sets,
sorting, statistics and utilities.

MLX lacks ``nonzero``, ``isin`` and the standard's ``unique_*``; its ``matmul`` takes
floating dtypes only, ``sort``/``argsort`` have no ``descending``, ``var``/``std`` take
an integer ``ddof``, ``argmax`` returns uint32.  Each is completed here, lazily where the
result's shape does not depend on values; ``nonzero`` and ``unique_*`` evaluate their
input (docs/mlx.md).
"""

from __future__ import annotations

import math
from typing import Any

import mlx.core as mx

from ..._dtypes import COMPLEX_FLOATING
from .._base import fastpath, functions
from .._base.core import translated
from .._base.functions import check_correction, check_diff, check_roll
from ._core import MAPPING, filled, part, reduce, take
from ._creation import MLXCreation
from ._elementwise import IN, MLXElementwise

_INTEGRAL = IN["integer"]
#: The dtypes whose sums, products and means MLX computes in their own dtype.
_FLOATING = IN["floating-point"]
_FLOAT_KINDS = ("real floating", "complex floating")


def _nonempty(op: Any, identity: Any) -> Any:
    """``op(x, axis, keepdims)`` for a fast path, ``identity`` where ``x`` has no elements
    (see `reduce`)."""

    def run(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        if x.size:
            return op(x, axis, keepdims)
        axes = list(range(x.ndim)) if axis is None else [axis % x.ndim]
        return filled(x, axes, keepdims, identity)

    return run


class MLXFunctions(MLXElementwise, MLXCreation):
    """Linear algebra, manipulation, searching, sets, sorting, statistics and
    utilities."""

    # -- linear algebra ---------------------------------------------------------------------
    def _pair(self, x1: Any, x2: Any, function: str) -> tuple[Any, Any]:
        """Two arrays (no Python scalars) of the function's category, promoted."""
        x1, x2 = self._raw(x1, function), self._raw(x2, function)
        self.check_category(function, x1, x2)
        return self.promoted_operands(function, x1, x2)

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        """Integer operands too (MLX multiplies floating ones only): exact products summed
        in the promoted dtype, with its wraparound."""
        x1, x2 = self._pair(x1, x2, "matmul")
        if x1.ndim == 0 or x2.ndim == 0:
            raise self.error("matmul", f"operands must have at least one dimension, got shapes "
                             f"{tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
        if x1.shape[-1] != x2.shape[-2 if x2.ndim > 1 else 0]:
            raise self.error("matmul", f"shapes {tuple(x1.shape)} and {tuple(x2.shape)} do not "
                             "fit: the last dimension of x1 must match the contracted one of "
                             "x2")  # fmt: skip
        if self._kind(x1) in _FLOAT_KINDS:
            return mx.matmul(x1, x2)
        a = x1[None, :] if x1.ndim == 1 else x1
        b = x2[:, None] if x2.ndim == 1 else x2
        result = _exact_sum(mx.expand_dims(a, -1) * mx.expand_dims(b, -3), -2, a.dtype)
        if x1.ndim == 1:
            result = mx.squeeze(result, -2)
        if x2.ndim == 1:
            result = mx.squeeze(result, -1)
        return result

    @translated
    def matrix_transpose(self, x: Any, /) -> Any:
        x = self._matrices(self._raw(x, "matrix_transpose"), "matrix_transpose")
        return mx.swapaxes(x, -1, -2)

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        """``axes`` is a non-negative int or two sequences of axes of equal sizes."""
        x1, x2 = self._pair(x1, x2, "tensordot")
        if isinstance(axes, (tuple, list)):
            if len(axes) != 2 or not all(isinstance(a, (tuple, list)) for a in axes):
                raise self.error("tensordot", f"axes must be an int or a pair of sequences of "
                                 f"ints, got {axes!r}", TypeError)  # fmt: skip
            first = [self.normalize_axis(a, x1.ndim, "tensordot") for a in axes[0]]
            second = [self.normalize_axis(a, x2.ndim, "tensordot") for a in axes[1]]
            if len(first) != len(second):
                raise self.error("tensordot", f"axes {axes!r} name different numbers of axes")
        else:
            count = self.check_int(axes, "axes", "tensordot", 0)
            if count > min(x1.ndim, x2.ndim):
                raise self.error("tensordot", f"axes={count} exceeds the dimensions of shapes "
                                 f"{tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
            first = list(range(x1.ndim - count, x1.ndim))
            second = list(range(count))
        for i, j in zip(first, second):
            if x1.shape[i] != x2.shape[j]:
                raise self.error("tensordot", f"contracted axes {i} and {j} differ in size: "
                                 f"shapes {tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
        free1 = [i for i in range(x1.ndim) if i not in first]
        free2 = [i for i in range(x2.ndim) if i not in second]
        size = math.prod(x1.shape[a] for a in first)
        left = mx.transpose(x1, free1 + first).reshape(
            (math.prod(x1.shape[i] for i in free1), size))  # fmt: skip
        right = mx.transpose(x2, second + free2).reshape(
            (size, math.prod(x2.shape[i] for i in free2)))  # fmt: skip
        result = self.matmul(left, right)
        return result.reshape([x1.shape[i] for i in free1] + [x2.shape[i] for i in free2])

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """``sum(conj(x1) * x2)`` over ``axis`` of the broadcast operands."""
        x1, x2 = self._pair(x1, x2, "vecdot")
        ndim = max(x1.ndim, x2.ndim)
        if min(x1.ndim, x2.ndim) == 0:
            raise self.error("vecdot", f"operands must have at least one dimension, got shapes "
                             f"{tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
        axis = self.normalize_axis(axis, ndim, "vecdot")
        if axis - ndim < -min(x1.ndim, x2.ndim) or \
                x1.shape[axis - ndim] != x2.shape[axis - ndim]:  # fmt: skip
            raise self.error("vecdot", f"shapes {tuple(x1.shape)} and {tuple(x2.shape)} differ "
                             f"along axis {axis}")  # fmt: skip
        x1, x2 = mx.broadcast_arrays(x1, x2)
        if self._kind(x1) == "complex floating":
            x1 = mx.conj(x1)
        return _exact_sum(x1 * x2, axis, x1.dtype)

    # -- manipulation -----------------------------------------------------------------------
    def _promoted(self, arrays: Any, function: str) -> list[Any]:
        """A tuple or list of arrays of this backend, cast to their promoted dtype."""
        if not isinstance(arrays, (tuple, list)):
            raise self.error(function, f"expected a tuple or list of arrays, got "
                             f"{type(arrays).__name__}", TypeError)  # fmt: skip
        raws = [self._raw(a, function) for a in arrays]
        if not raws:
            raise self.error(function, "at least one array is required")
        name = self._name(raws[0])
        for a in raws[1:]:
            name = self.promote_names(name, self._name(a), function)
        dtype = self.dtypes_by_name[name]
        return [a if a.dtype == dtype else a.astype(dtype) for a in raws]

    @translated
    def broadcast_arrays(self, *arrays: Any) -> tuple[Any, ...]:
        raws = [self._raw(a, "broadcast_arrays") for a in arrays]
        if not raws:
            return ()
        shape = self.broadcast_shapes(*(tuple(a.shape) for a in raws))
        return tuple(mx.broadcast_to(a, shape) for a in raws)

    @translated
    def broadcast_shapes(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        result: list[int] = []
        for shape in shapes:
            dims = self.check_sizes(shape, "shapes", "broadcast_shapes")
            if len(dims) > len(result):
                result = [1] * (len(dims) - len(result)) + result
            for i, d in enumerate(dims, start=len(result) - len(dims)):
                if result[i] == 1:
                    result[i] = d
                elif d != 1 and d != result[i]:
                    raise self.error("broadcast_shapes", f"shapes {', '.join(str(tuple(s)) for s in shapes)} "
                                     "cannot be broadcast")  # fmt: skip
        return tuple(result)

    @translated
    def broadcast_to(self, x: Any, /, shape: tuple[int, ...]) -> Any:
        x = self._raw(x, "broadcast_to")
        dims = self.check_sizes(shape, "shape", "broadcast_to")
        if len(dims) < x.ndim or self.broadcast_shapes(tuple(x.shape), dims) != dims:
            raise self.error("broadcast_to", f"shape {tuple(x.shape)} cannot be broadcast to "
                             f"{dims}")  # fmt: skip
        return mx.broadcast_to(x, dims)

    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        raws = self._promoted(arrays, "concat")
        if axis is None:
            return mx.concat([a.reshape(-1) for a in raws], axis=0)
        ndim = raws[0].ndim
        if ndim == 0:
            raise self.error("concat", "0-d arrays cannot be concatenated (use axis=None)")
        axis = self.normalize_axis(axis, ndim, "concat")
        for a in raws:
            if a.ndim != ndim or any(s != t for i, (s, t) in enumerate(zip(a.shape, raws[0].shape))
                                     if i != axis):  # fmt: skip
                raise self.error("concat", f"shapes {[tuple(r.shape) for r in raws]} differ "
                                 f"outside axis {axis}")  # fmt: skip
        return mx.concat(raws, axis=axis)

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        """``axis`` may be a tuple (2025.12); axes count in the output's dimensions."""
        x = self._raw(x, "expand_dims")
        count = len(axis) if isinstance(axis, tuple) else 1
        axes = self.normalize_axes(axis, x.ndim + count, "expand_dims")
        return mx.expand_dims(x, list(axes))

    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        x = self._raw(x, "flip")
        axes = self.normalize_axes(axis, x.ndim, "flip")
        if not axes:
            return x
        return x[tuple(slice(None, None, -1) if i in axes else slice(None)
                       for i in range(x.ndim))]  # fmt: skip

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        x = self._raw(x, "moveaxis")
        src = self.normalize_axes(source, x.ndim, "moveaxis")
        dst = self.normalize_axes(destination, x.ndim, "moveaxis")
        if len(src) != len(dst):
            raise self.error("moveaxis", f"source {source!r} and destination {destination!r} "
                             "differ in length")  # fmt: skip
        order = [i for i in range(x.ndim) if i not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return mx.transpose(x, order)

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        x = self._raw(x, "permute_dims")
        if not isinstance(axes, (tuple, list)) or len(axes) != x.ndim:
            raise self.error("permute_dims", f"axes {axes!r} must name each of the {x.ndim} "
                             "dimensions once")  # fmt: skip
        return mx.transpose(x, list(self.normalize_axes(tuple(axes), x.ndim, "permute_dims")))

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """An int count, or an integer array of counts (evaluated: the result's shape is
        made of its values)."""
        import numpy as np

        x = self._raw(x, "repeat")
        if axis is None:
            x, axis = x.reshape(-1), 0
        else:
            axis = self.normalize_axis(axis, x.ndim, "repeat")
        if type(repeats) is mx.array or (self.wrapper_type is not None
                                         and type(repeats) is self.wrapper_type):  # fmt: skip
            repeats = self._raw(repeats, "repeat")
            if repeats.dtype not in _INTEGRAL:
                raise self.error("repeat", f"repeats must be an int or an integer array, got "
                                 f"an array of {self._name(repeats)}", TypeError)  # fmt: skip
            counts = self.host_values(repeats, "repeat", "the result's length is the sum of "
                                      "the repeats array's values")  # fmt: skip
            if counts.dtype.kind == "u":
                # NumPy counts in intp: uint64 does not cast 'safe'ly; a count past MLX's
                # extents is refused before the cast could wrap it.
                if counts.size:
                    self.check_extent((int(counts.max()),), "repeat")
                counts = counts.astype(np.int64)
            counts = np.broadcast_to(counts.reshape(-1), (x.shape[axis],)) \
                if counts.size in (1, x.shape[axis]) else counts  # fmt: skip
            if counts.shape != (x.shape[axis],):
                raise self.error("repeat", f"repeats of shape {tuple(repeats.shape)} does not fit "
                                 f"axis {axis} of size {x.shape[axis]}")  # fmt: skip
            if (counts < 0).any():
                raise self.error("repeat", f"repeats must not be negative, got {counts.min()}")
            positions = np.repeat(np.arange(x.shape[axis]), counts)
            self.check_extent((len(positions),), "repeat")
            return take(x, mx.array(positions.astype(np.int64)), axis)
        count = self.check_int(repeats, "repeats", "repeat", 0)
        self.check_extent((x.shape[axis] * count,), "repeat")
        if count == 0 or x.shape[axis] == 0:
            shape = list(x.shape)
            shape[axis] = 0
            return mx.zeros(shape, dtype=x.dtype)
        return mx.repeat(x, count, axis=axis)

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        """``copy=False`` is always honoured: MLX reshapes without copying (lazily)."""
        x = self._raw(x, "reshape")
        dims = self.check_sizes(shape, "shape", "reshape", unknown=True)
        known = math.prod(d for d in dims if d != -1)
        size = math.prod(x.shape)
        if -1 in dims:
            if known == 0 or size % known:
                raise self.error("reshape", f"cannot reshape an array of shape "
                                 f"{tuple(x.shape)} into {dims}")  # fmt: skip
            dims = tuple(size // known if d == -1 else d for d in dims)
        elif known != size:
            raise self.error("reshape", f"cannot reshape an array of shape {tuple(x.shape)} "
                             f"into {dims}")  # fmt: skip
        result = mx.reshape(x, dims)
        return mx.array(result) if copy else result

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        x = self._raw(x, "roll")
        check_roll(self, shift, axis)
        if axis is None:
            count = shift if not isinstance(shift, (tuple, list)) else sum(shift)
            return mx.roll(x.reshape(-1), count).reshape(x.shape) if x.size else x
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        shifts = shift if isinstance(shift, (tuple, list)) else (shift,) * len(axes)
        for a in axes:
            self.normalize_axis(a, x.ndim, "roll")
        if x.size == 0:
            return x
        return mx.roll(x, tuple(shifts), tuple(axes))

    @translated
    def squeeze(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        x = self._raw(x, "squeeze")
        axes = self.normalize_axes(axis, x.ndim, "squeeze")
        for a in axes:
            if x.shape[a] != 1:
                raise self.error("squeeze", f"axis {a} has size {x.shape[a]}, not 1 (shape "
                                 f"{tuple(x.shape)})")  # fmt: skip
        return mx.squeeze(x, axis=list(axes)) if axes else x

    @translated
    def stack(self, arrays: Any, /, *, axis: int = 0) -> Any:
        raws = self._promoted(arrays, "stack")
        axis = self.normalize_axis(axis, raws[0].ndim + 1, "stack")
        if len({tuple(a.shape) for a in raws}) > 1:
            raise self.error("stack", f"the arrays must have one shape, got "
                             f"{[tuple(a.shape) for a in raws]}")  # fmt: skip
        return mx.stack(raws, axis=axis)

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        x = self._raw(x, "tile")
        reps = self.check_sizes(repetitions, "repetitions", "tile")
        shape = (1,) * (len(reps) - x.ndim) + tuple(x.shape)
        full = (1,) * (len(shape) - len(reps)) + reps
        self.check_extent([s * r for s, r in zip(shape, full)], "tile")
        if 0 in full or x.size == 0:
            return mx.zeros([s * r for s, r in zip(shape, full)], dtype=x.dtype)
        return mx.tile(x, list(reps))

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        x = self._raw(x, "unstack")
        if x.ndim == 0:
            raise self.error("unstack", "a 0-d array cannot be unstacked")
        axis = self.normalize_axis(axis, x.ndim, "unstack")
        return tuple(part(x, i, axis) for i in range(x.shape[axis]))

    # -- searching --------------------------------------------------------------------------
    def _index_result(self, result: Any) -> Any:
        """MLX's uint32 indices as the default indexing dtype (int64)."""
        return result.astype(self._default("indexing"))

    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._arg_extreme(x, axis, keepdims, "argmax")

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._arg_extreme(x, axis, keepdims, "argmin")

    def _arg_extreme(self, x: Any, axis: Any, keepdims: bool, function: str) -> Any:
        x = self._raw(x, function)
        fn = mx.argmax if function == "argmax" else mx.argmin
        if axis is None:
            if x.size == 0:
                raise self.error(function, "the array is empty")
            result = fn(x.reshape(-1))
            return self._index_result(result.reshape((1,) * x.ndim) if keepdims else result)
        axis = self.normalize_axis(axis, x.ndim, function)
        if x.shape[axis] == 0:
            raise self.error(function, f"axis {axis} has size 0")
        if x.size == 0:  # another axis is empty: an empty result (MLX refuses the array)
            shape = [1 if i == axis else n for i, n in enumerate(x.shape) if keepdims or i != axis]
            return mx.zeros(shape, dtype=self._default("indexing"))
        return self._index_result(fn(x, axis=axis, keepdims=keepdims))

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "count_nonzero")
        axes = self.normalize_axes(axis, x.ndim, "count_nonzero")
        nonzero = mx.not_equal(x, mx.zeros((), dtype=x.dtype)).astype(self._default("indexing"))
        return reduce(mx.sum, nonzero, list(axes), keepdims, 0)

    @translated
    def nonzero(self, x: Any, /) -> tuple[Any, ...]:
        """Evaluates ``x``: the result's shape depends on its values (MLX has no
        ``nonzero``)."""
        import numpy as np

        x = self._raw(x, "nonzero")
        if x.ndim == 0:
            raise self.error("nonzero", "a 0-d array has no positions; use nonzero on a 1-d "
                             "array")  # fmt: skip
        values = self.host_values(x, "nonzero")
        return tuple(mx.array(p.astype(np.int64)) for p in np.nonzero(values))

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        x1 = self._raw(x1, "searchsorted")
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        if x1.ndim != 1:
            raise self.error("searchsorted", f"x1 must be 1-d, got shape {tuple(x1.shape)}")
        if sorter is not None:
            sorter = self._raw(sorter, "searchsorted")
            if sorter.dtype not in _INTEGRAL:
                raise self.error("searchsorted", f"sorter must be an integer array, got "
                                 f"{self._name(sorter)}", TypeError)  # fmt: skip
            if tuple(sorter.shape) != tuple(x1.shape):
                raise self.error("searchsorted", f"sorter must have x1's shape {tuple(x1.shape)}, "
                                 f"got {tuple(sorter.shape)}")  # fmt: skip
            x1 = take(x1, sorter, 0)
        a, v = self.promoted_operands("searchsorted", x1, x2)
        if v.ndim == 0:
            return self._index_result(_search(a, v.reshape(1), side)).reshape(())
        return self._index_result(_search(a, v, side))

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        condition = self._raw(condition, "where")
        a, b = self.promoted_operands("where", x1, x2)
        self.broadcast_shapes(tuple(condition.shape), tuple(a.shape), tuple(b.shape))
        return mx.where(condition, a, b)

    # -- sets -------------------------------------------------------------------------------
    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """Whether each element of ``x1`` is in ``x2``: a sort of ``x2`` and a binary search
        (lazy; MLX has no ``isin``).  NaN is in nothing."""
        a, b = self.promoted_operands("isin", x1, x2)
        flat = mx.sort(b.reshape(-1))
        if flat.size == 0:
            found = mx.zeros(a.shape, dtype=mx.bool_)
        else:
            where_ = _search(flat, a.reshape(-1), "left")
            where_ = mx.minimum(where_, flat.size - 1)
            found = (mx.take(flat, where_) == a.reshape(-1)).reshape(a.shape)
        return mx.logical_not(found) if invert else found

    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """Values, first indices, inverse indices (shaped like ``x``) and counts, from the
        evaluated ``x`` (their number depends on the values); each NaN is its own value."""
        import numpy as np

        x = self._raw(x, function)
        values = self.host_values(x, function, "the number of unique values depends on "
                                  "the array's values")  # fmt: skip
        flat = values.reshape(-1)
        nan = np.isnan(flat) if flat.dtype.kind in "fc" else np.zeros(flat.shape, dtype=bool)
        keep = np.flatnonzero(~nan)
        uniq, first, inverse, counts = np.unique(flat[keep], return_index=True,
                                                 return_inverse=True, return_counts=True)  # fmt: skip
        nan_positions = np.flatnonzero(nan)
        all_values = np.concatenate([uniq, flat[nan_positions]])
        all_first = np.concatenate([keep[first], nan_positions])
        all_counts = np.concatenate([counts, np.ones(len(nan_positions), dtype=counts.dtype)])
        all_inverse = np.empty(flat.shape, dtype=np.int64)
        all_inverse[keep] = inverse.reshape(-1)
        all_inverse[nan_positions] = len(uniq) + np.arange(len(nan_positions))
        index = self._default("indexing")
        return (mx.array(all_values, dtype=x.dtype), mx.array(all_first.astype(np.int64)).astype(index),
                mx.array(all_inverse.reshape(values.shape)).astype(index),
                mx.array(all_counts.astype(np.int64)).astype(index))  # fmt: skip

    # -- sorting ----------------------------------------------------------------------------
    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """Always stable; descending keeps equal elements in their order (the ascending
        sort of the reversed array, reversed); NaN sorts last (first when descending)."""
        x = self._raw(x, "argsort")
        if x.ndim == 0:
            return mx.zeros((), dtype=self._default("indexing"))
        axis = self.normalize_axis(axis, x.ndim, "argsort")
        return self._index_result(_stable_argsort(x, axis, descending))

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        x = self._raw(x, "sort")
        if x.ndim == 0:
            return x
        axis = self.normalize_axis(axis, x.ndim, "sort")
        if not descending:
            return mx.sort(x, axis=axis)
        return mx.take_along_axis(x, _stable_argsort(x, axis, True), axis=axis)

    # -- statistics -------------------------------------------------------------------------
    def _accumulator(self, x: Any, dtype: Any, function: str) -> Any:
        """The dtype of a sum or product: `accumulation_dtype`'s; small integers widen to the
        default integer (unsigned ones to uint64), floating dtypes keep theirs."""
        if dtype is not None:
            return functions.accumulation_dtype(self, x, dtype, function)
        kind = self._kind(x)
        if kind == "signed integer":
            return mx.int64
        if kind == "unsigned integer":
            return mx.uint64
        return x.dtype

    def _reduction_axes(self, x: Any, axis: Any, function: str) -> list[int]:
        return list(self.normalize_axes(axis, x.ndim, function))

    @fastpath.reduction(mx.array, _FLOATING, _nonempty(mx.sum, 0), accumulates=True)
    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "sum")
        target = self._accumulator(x, dtype, "sum")
        if functions.accumulates_in_bool(self, target):
            return functions.bool_accumulation(self, "sum", x, axis, keepdims)
        axes = self._reduction_axes(x, axis, "sum")
        return _exact_sum(x.astype(target) if x.dtype != target else x, axes, target, keepdims)

    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "prod")
        target = self._accumulator(x, dtype, "prod")
        if functions.accumulates_in_bool(self, target):
            return functions.bool_accumulation(self, "prod", x, axis, keepdims)
        axes = self._reduction_axes(x, axis, "prod")
        x = x.astype(target) if x.dtype != target else x
        return reduce(mx.prod, x, axes, keepdims, 1).astype(target)

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        return self._cumulative(x, axis, dtype, include_initial, "cumulative_sum")

    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        return self._cumulative(x, axis, dtype, include_initial, "cumulative_prod")

    def _cumulative(self, x: Any, axis: Any, dtype: Any, include_initial: bool,
                    function: str) -> Any:  # fmt: skip
        x = self._raw(x, function)
        if axis is None:
            if x.ndim > 1:
                raise self.error(function, f"axis is required for a {x.ndim}-d array")
            if x.ndim == 0:
                raise self.error(function, "a 0-d array has no axis to accumulate along")
            axis = 0
        axis = self.normalize_axis(axis, x.ndim, function)
        target = self._accumulator(x, dtype, function)
        if functions.accumulates_in_bool(self, target):
            return functions.bool_accumulation(self, function, x, axis, False, include_initial)
        x = x.astype(target) if x.dtype != target else x
        fn = mx.cumsum if function == "cumulative_sum" else mx.cumprod
        result = fn(x, axis=axis) if x.size else x
        if include_initial:
            shape = list(x.shape)
            shape[axis] = 1
            start = (mx.zeros if function == "cumulative_sum" else mx.ones)(shape, dtype=target)
            result = mx.concat([start, result], axis=axis)
        return result.astype(target)

    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(x, axis, keepdims, "max")

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(x, axis, keepdims, "min")

    def _extreme(self, x: Any, axis: Any, keepdims: bool, function: str) -> Any:
        """NaN propagates (MLX's ``max`` already does); an empty reduction raises."""
        x = self._raw(x, function)
        axes = self._reduction_axes(x, axis, function)
        if any(x.shape[a] == 0 for a in axes):
            raise self.error(function, f"cannot take the {function} over a zero-size axis "
                             f"(shape {tuple(x.shape)})")  # fmt: skip
        if not axes:
            return x
        return (mx.max if function == "max" else mx.min)(x, axis=axes, keepdims=keepdims)

    @fastpath.reduction(mx.array, _FLOATING, _nonempty(mx.mean, math.nan))
    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "mean")
        axes = self._reduction_axes(x, axis, "mean")
        count = math.prod(x.shape[a] for a in axes)
        total = _exact_sum(x, axes, x.dtype, keepdims)
        return total / count if count else total * float("nan")

    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        return mx.sqrt(self._variance(x, axis, correction, keepdims, "std"))

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        return self._variance(x, axis, correction, keepdims, "var")

    def _variance(self, x: Any, axis: Any, correction: Any, keepdims: bool,
                  function: str) -> Any:  # fmt: skip
        """``sum(|x - mean|**2) / (N - correction)`` (a real ``correction``: MLX's ``ddof``
        is an int); NaN where ``N - correction <= 0``."""
        x = self._raw(x, function)
        check_correction(self, correction, function)
        axes = self._reduction_axes(x, axis, function)
        count = math.prod(x.shape[a] for a in axes)
        if count == 0:
            return filled(x, axes, keepdims, math.nan)
        centred = x - mx.sum(x, axis=axes, keepdims=True) / count
        squares = mx.square(mx.abs(centred)) if self._kind(x) == "complex floating" else \
            mx.square(centred)  # fmt: skip
        divisor = count - correction
        total = mx.sum(squares, axis=axes, keepdims=keepdims)
        if divisor <= 0:
            return total * float("nan")
        return total / divisor

    # -- utility ----------------------------------------------------------------------------
    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "all")
        axes = self._reduction_axes(x, axis, "all")
        return reduce(mx.all, self._truth(x), axes, keepdims, True)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self._raw(x, "any")
        axes = self._reduction_axes(x, axis, "any")
        return reduce(mx.any, self._truth(x), axes, keepdims, False)

    def _truth(self, x: Any) -> Any:
        return x if x.dtype == mx.bool_ else mx.not_equal(x, mx.zeros((), dtype=x.dtype))

    @translated
    def diff(
        self, x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
    ) -> Any:
        x = self._raw(x, "diff")
        check_diff(self, x, axis, n)
        axis = self.normalize_axis(axis, x.ndim, "diff")
        if n == 0:  # x as it is, prepend and append unused (NumPy, array_api_strict)
            return x
        parts = [self._raw(p, "diff") for p in (prepend, x, append) if p is not None]
        if len(parts) > 1:
            x = self.concat(parts, axis=axis)
        for _ in range(n):
            if x.shape[axis] == 0:
                break
            later = x[(slice(None),) * axis + (slice(1, None),)]
            earlier = x[(slice(None),) * axis + (slice(None, -1),)]
            x = mx.not_equal(later, earlier) if x.dtype == mx.bool_ else later - earlier
        return x


def _exact_sum(x: Any, axis: Any, dtype: Any, keepdims: bool = False) -> Any:
    """``sum(x, axis)`` in ``dtype`` (MLX widens small integers to int32); an empty axis
    list leaves ``x`` as it is, zero-size inputs give zeros."""
    axes = [a % x.ndim for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
    return reduce(mx.sum, x, axes, keepdims, 0).astype(dtype)


def _stable_argsort(x: Any, axis: int, descending: bool) -> Any:
    """A stable argsort along ``axis`` (descending: equal elements keep their order)."""
    if not descending:
        return mx.argsort(x, axis=axis)
    n = x.shape[axis]
    flipped = x[tuple(slice(None, None, -1) if i == axis else slice(None)
                      for i in range(x.ndim))]  # fmt: skip
    order = mx.argsort(flipped, axis=axis)
    order = order[tuple(slice(None, None, -1) if i == axis else slice(None)
                        for i in range(x.ndim))]  # fmt: skip
    return (n - 1) - order.astype(mx.int64)


def _search(sorted_values: Any, values: Any, side: str) -> Any:
    """Insertion points of ``values`` into the 1-d ``sorted_values`` (NaN sorts last).
    While `eagerpy_xp.vmap` traces (``mx.vmap`` cannot map MLX's ``searchsorted`` over
    the sorted values): the count of sorted values before each value, compared all
    against all."""
    if sorted_values.size == 0:
        return mx.zeros(values.shape, dtype=mx.int64)
    if not MAPPING[0]:
        return mx.searchsorted(sorted_values, values, side=side).astype(mx.int64)
    v = values[..., None]
    before = sorted_values < v if side == "left" else sorted_values <= v
    if sorted_values.dtype in _FLOATING:  # NaN: after every number, and equal to NaN
        nan = mx.isnan(v)
        before = mx.logical_or(before, nan if side == "right" else
                               mx.logical_and(nan, mx.logical_not(mx.isnan(sorted_values))))  # fmt: skip
    return mx.sum(before, axis=-1).astype(mx.int64)


__all__ = ["COMPLEX_FLOATING", "MLXFunctions"]
