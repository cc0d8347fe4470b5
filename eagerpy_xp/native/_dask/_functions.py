"""The Dask backend's other chapters: linear algebra, manipulation, searching, statistics, sets, sorting."""

from __future__ import annotations

import math
from typing import Any

import array_api_compat.dask.array as cda
import dask.array as da
import numpy as np

from .._base.core import translated
from .._base.functions import (
    accumulates_in_bool,
    accumulation_dtype,
    bool_accumulation,
    check_correction,
    check_reduced_elements,
    check_repeats,
    check_roll,
    check_sorter,
)
from ._chunks import gufunc, known, reshape, sized, whole_axes
from ._core import (
    _DOUBLE,
    _REAL,
    DaskCore,
    _argsort_ascending,
    _argsort_descending,
    _contracted_sizes,
    _has_unknown,
    _reduced_shape,
    _repeat_positions,
    _sort_ascending,
    _sort_descending,
    _unique_parts,
    task,
)


class DaskFunctions(DaskCore):
    """Linear algebra, manipulation, searching, statistics, sets and sorting."""

    # -- linear algebra: integer products keep the standard's promoted dtype -----------------
    def _common(self, x1: Any, x2: Any) -> tuple[Any, Any, Any]:
        """Both operands in their promoted dtype (Dask accumulates integers in int64)."""
        dtype = np.result_type(x1.dtype, x2.dtype)
        return x1.astype(dtype, copy=False), x2.astype(dtype, copy=False), dtype

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        a, b, dtype = self._common(x1, x2)
        if a.ndim and b.ndim:  # (Dask would find a mismatch only when it computes)
            _contracted_sizes(self, "matmul", [(a.shape[-1], b.shape[0 if b.ndim == 1 else -2])],
                        a, b)  # fmt: skip
        return da.matmul(a, b).astype(dtype, copy=False)

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        if not isinstance(axes, (tuple, list)):
            self.check_int(axes, "axes", "tensordot", 0)
        a, b, dtype = self._common(x1, x2)
        try:  # the contracted sizes (Dask would broadcast 1 against n, or fail computing)
            if isinstance(axes, (tuple, list)):
                pairs = list(zip(axes[0], axes[1], strict=True))
            else:
                pairs = list(zip(range(a.ndim - axes, a.ndim), range(axes), strict=True))
            sizes = [(a.shape[i], b.shape[j]) for i, j in pairs]
        except (TypeError, ValueError, IndexError):  # Dask's own call raises for these
            sizes = []
        _contracted_sizes(self, "tensordot", sizes, a, b)
        return da.tensordot(a, b, axes=axes).astype(dtype, copy=False)

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        self.normalize_axis(axis, min(x1.ndim, x2.ndim), "vecdot")
        a, b, dtype = self._common(x1, x2)
        return self._f.vecdot(a, b, axis=axis).astype(dtype, copy=False)

    # -- manipulation ----------------------------------------------------------------------
    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        if axis is None:
            return cda.concat([reshape(a, (-1,)) for a in arrays], axis=0)
        return cda.concat(arrays, axis=axis)

    @translated
    def broadcast_to(self, x: Any, /, shape: tuple[int, ...]) -> Any:
        """``None`` in ``shape`` (an unknown size, as ``Array.shape`` reads it) stands for
        ``x``'s own unknown size on that axis: ``broadcast_to(x, x.shape)`` is ``x``, as
        portable code (SciPy's and array-api-extra's testing helpers) passes shapes along.
        Where other axes broadcast too, ``x``'s sizes are computed first (on a copy).  NaN,
        as a Dask array's own ``shape`` reads an unknown size, stands for it too."""
        if type(shape) is tuple:
            shape = tuple(None if type(s) is float and math.isnan(s) else s for s in shape)
        if type(shape) is not tuple or None not in shape:
            return super().broadcast_to(x, shape)
        offset = len(shape) - x.ndim
        if offset < 0 or any(s is None and (i < offset or not math.isnan(x.shape[i - offset]))
                             for i, s in enumerate(shape)):  # fmt: skip
            raise self.error("broadcast_to", f"shape {shape}: None stands only for the array's "
                             f"own unknown sizes, got an array of shape {self.shape_of(x)}",
                             TypeError)  # fmt: skip
        if offset == 0 and all(s is None or s == n for s, n in zip(shape, x.shape)):
            return x
        x = sized(x)
        shape = tuple(int(x.shape[i - offset]) if s is None else s for i, s in enumerate(shape))
        return super().broadcast_to(x, shape)

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        """The number of arrays is ``x``'s size along ``axis``: where that is unknown
        (after a mask), ``x``'s chunk sizes are computed first (on a copy)."""
        axis = self.normalize_axis(axis, x.ndim, "unstack")
        if math.isnan(x.shape[axis]):
            x = sized(x)
        return tuple(self._f.unstack(x, axis=axis))

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        """``copy=False`` is always met: Dask never copies eagerly."""
        return reshape(x, self.check_sizes(shape, "shape", "reshape", unknown=True))

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        check_roll(self, shift, axis)
        if axis is not None:
            self.normalize_axes(axis, x.ndim, "roll")
        if 0 in x.shape:
            return x
        if isinstance(axis, (tuple, list)) and not isinstance(shift, (tuple, list)):
            shift = (shift,) * len(axis)  # one shift for every axis (Dask wants a tuple)
        return da.roll(x, shift, axis=axis)

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        """``axis`` may be a tuple (2025.12); axes count in the output's dimensions."""
        count = len(axis) if isinstance(axis, tuple) else 1
        return da.expand_dims(x, self.normalize_axes(axis, x.ndim + count, "expand_dims"))

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        """Negative axes count from the end (2025.12)."""
        if not isinstance(axes, (tuple, list)) or len(axes) != x.ndim:
            raise self.error("permute_dims", f"axes {axes!r} must name each of the "
                                             f"{x.ndim} dimensions once")  # fmt: skip
        return da.transpose(x, self.normalize_axes(tuple(axes), x.ndim, "permute_dims"))

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        """Each repeated axis as a broadcast of ``x`` along a new axis before it, the two
        then merged (``reshape``), and chunked by Dask's automatic chunking.  Dask's own
        ``tile`` joins one copy of ``x`` per repetition (``block``): a (1, 4) mask tiled
        50,625 times down (SciPy's cubature in four dimensions) took 10 s to build and
        had 50,625 chunks, a task each in every later operation.  Where ``x``'s sizes are
        unknown (after a mask), the NumPy backend's ``tile`` as one task (`lazily`)."""
        self.check_sizes(repetitions, "repetitions", "tile")
        if _has_unknown(x):  # one task, lazily (Dask would repeat each unknown chunk)
            return self.lazily("tile", (x, tuple(repetitions)), {})
        if 0 in x.shape or 0 in tuple(repetitions):
            return super().tile(x, repetitions)  # (no values: Dask's as it is)
        ndim = max(x.ndim, len(repetitions))
        reps = (1,) * (ndim - len(repetitions)) + tuple(int(r) for r in repetitions)
        shape = (1,) * (ndim - x.ndim) + tuple(int(n) for n in x.shape)
        x = da.reshape(x, shape)
        if all(r == 1 for r in reps):
            return x
        paired = tuple(v for r, n in zip(reps, shape) for v in (r, n))
        spread = da.broadcast_to(da.reshape(x, tuple(v for n in shape for v in (1, n))), paired)
        result = da.reshape(spread, tuple(r * n for r, n in zip(reps, shape)))
        return result.rechunk({axis: "auto" for axis, r in enumerate(reps) if r > 1})

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """Lazy: the result of an array of repeats has an unknown size along ``axis``
        (its values make it); a negative count raises `ValueError` when computed."""
        check_repeats(self, repeats)
        if axis is None:
            x, axis = reshape(x, (-1,)), 0
        axis = self.normalize_axis(axis, x.ndim, "repeat")
        if isinstance(repeats, int) and not isinstance(repeats, bool):
            if repeats < 0:
                raise self.error("repeat", f"repeats must be non-negative, got {repeats}")
            if 0 in x.shape:  # Dask fails on empty arrays
                shape = tuple(n * repeats if i == axis else n for i, n in enumerate(x.shape))
                return da.zeros(shape, dtype=x.dtype)
            return da.repeat(x, repeats, axis=axis)
        size = known(x.shape[axis])
        count = known(repeats.shape[0]) if repeats.ndim == 1 else 1
        if repeats.ndim > 1 or (None not in (size, count) and count not in (1, size)):
            raise self.error("repeat", f"repeats of shape {self.shape_of(repeats)} do not "
                             f"match axis {axis} of size {size}")  # fmt: skip
        if size is None:  # the positions to repeat are not known: one task does it all
            return self.lazily("repeat", (x, repeats), {"axis": axis})
        # which positions repeat is data: lazily, and a negative count raises when computed
        template = self.error("repeat", "", ValueError)
        positions = task(_repeat_positions, size, repeats, template)
        index = da.from_delayed(positions, shape=(math.nan,), dtype=np.intp)
        return da.take(x, index, axis=axis)

    # -- searching -------------------------------------------------------------------------
    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        """Ties give the first index in C order (Dask, over every axis, picks the first in
        chunk order): without ``axis`` the array is flattened first."""
        return self._arg_reduce(da.argmax, x, axis, keepdims)

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        """Ties give the first index in C order (see `argmax`)."""
        return self._arg_reduce(da.argmin, x, axis, keepdims)

    def _arg_reduce(self, reduce: Any, x: Any, axis: int | None, keepdims: bool) -> Any:
        check_reduced_elements(self, x.shape, axis, reduce.__name__)
        if 0 in x.shape:  # the other axes are empty: an empty result (Dask's chunks fail)
            return da.empty(_reduced_shape(x.shape, axis, keepdims), dtype=np.int64)
        if _has_unknown(x):  # Dask's chunk function needs the sizes (fails when computed)
            return self.lazily(reduce.__name__, (x,), {"axis": axis, "keepdims": keepdims})
        if axis is not None or x.ndim <= 1:
            return reduce(x, axis=axis, keepdims=keepdims)
        result = reduce(reshape(x, (-1,)), axis=0)
        return da.reshape(result, (1,) * x.ndim) if keepdims else result

    @translated
    def nonzero(self, x: Any, /) -> tuple[Any, ...]:
        """Lazy, sizes unknown; an empty array gives empty index arrays (Dask fails)."""
        if x.ndim == 0:
            raise self.error("nonzero", "a 0-d array has no nonzero indices (the standard "
                                        "leaves them undefined); use x[None]")  # fmt: skip
        if 0 in x.shape:
            return tuple(da.zeros((0,), dtype=np.int64) for _ in range(x.ndim))
        return tuple(da.nonzero(x))

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        if x1.ndim != 1:
            raise self.error("searchsorted", f"x1 must be 1-D, got shape {x1.shape}")
        check_sorter(self, sorter, x1.shape[0])
        if sorter is not None:
            x1 = da.take(x1, sorter)
        if isinstance(x2, (bool, int, float, complex)):  # a Python scalar: a 0-d array
            x2 = da.from_array(np.asarray(x2))
        if _has_unknown(x1):  # Dask offsets each chunk's positions by the chunk sizes
            return self.lazily("searchsorted", (x1, x2), {"side": side})
        if 0 in x2.shape:  # Dask gets the shape of an empty result wrong
            return da.zeros(x2.shape, dtype=np.int64)
        if isinstance(x2, da.Array) and x2.ndim == 0:  # Dask writes into its 0-d result
            return da.searchsorted(x1, x2[None], side=side)[0]
        return da.searchsorted(x1, x2, side=side)

    # -- statistics ----------------------------------------------------------------------------
    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        """Single-precision input accumulates in double precision (Dask merges per-chunk
        moments, which in float32 leaves ~1e-8 for a constant array)."""
        return self._moment(self._f.std, x, axis, correction, keepdims)

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        """Single-precision input accumulates in double precision (see `std`)."""
        return self._moment(self._f.var, x, axis, correction, keepdims)

    def _moment(self, reduce: Any, x: Any, axis: Any, correction: float, keepdims: bool) -> Any:
        function = "std" if reduce is self._f.std else "var"
        check_correction(self, correction, function)
        axis = self._axes(x, axis, function)
        wide = _DOUBLE.get(x.dtype)
        if wide is None:
            return reduce(x, axis=axis, correction=correction, keepdims=keepdims)
        result = reduce(x.astype(wide), axis=axis, correction=correction, keepdims=keepdims)
        return result.astype(_REAL.get(x.dtype, x.dtype))

    # -- reductions over distinct axes (Dask reduces a repeated axis twice) ------------------
    def _axes(self, x: Any, axis: Any, function: str) -> Any:
        """``axis`` (None, an int or a tuple) checked: in range and distinct."""
        if axis is None:
            return None
        axes = self.normalize_axes(axis, x.ndim, function)
        return axes if isinstance(axis, (tuple, list)) else axes[0]

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.all(x, axis=self._axes(x, axis, "all"), keepdims=keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.any(x, axis=self._axes(x, axis, "any"), keepdims=keepdims)

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.count_nonzero(x, axis=self._axes(x, axis, "count_nonzero"), keepdims=keepdims)

    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        return self._f.flip(x, axis=self._axes(x, axis, "flip"))

    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(self._f.max, x, axis, keepdims, "max")

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme(self._f.min, x, axis, keepdims, "min")

    def _extreme(self, reduce: Any, x: Any, axis: Any, keepdims: bool, function: str) -> Any:
        """An empty reduced axis raises `ValueError` at the call; a zero-size ``x`` whose
        reduced axes are not empty gives an empty result (Dask's chunk reductions fail on
        it: "zero-size array to reduction operation minimum")."""
        axes = self._axes(x, axis, function)
        check_reduced_elements(self, x.shape, axis, function)
        if 0 in x.shape:
            return da.empty(_reduced_shape(x.shape, axis, keepdims), dtype=x.dtype)
        return reduce(x, axis=axes, keepdims=keepdims)

    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.mean(x, axis=self._axes(x, axis, "mean"), keepdims=keepdims)

    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._accumulate("prod", self._f.prod, x, axis, dtype, keepdims)

    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._accumulate("sum", self._f.sum, x, axis, dtype, keepdims)

    def _accumulate(self, function: str, reduce: Any, x: Any, axis: Any, dtype: Any,
                    keepdims: bool) -> Any:  # fmt: skip
        """``reduce`` (Dask's sum or prod) of ``x`` in ``dtype`` (`accumulation_dtype`)."""
        axes = self._axes(x, axis, function)
        dtype = accumulation_dtype(self, x, dtype, function)
        if accumulates_in_bool(self, dtype):
            return bool_accumulation(self, function, x, axis, keepdims)
        return reduce(x, axis=axes, dtype=dtype, keepdims=keepdims)

    # -- sets --------------------------------------------------------------------------------
    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """Lazy: one task runs NumPy's unique on the flattened array; values, indices and
        counts have an unknown size, the inverse is shaped like ``x``."""
        flat = x if None in self.shape_of(x) else whole_axes(reshape(x, (-1,)), (0,))
        parts = task(_unique_parts, flat, x.shape, nout=4)
        index = np.dtype(np.int64)
        nan = float("nan")
        return (da.from_delayed(parts[0], shape=(nan,), dtype=x.dtype),
                da.from_delayed(parts[1], shape=(nan,), dtype=index),
                da.from_delayed(parts[2], shape=x.shape, dtype=index),
                da.from_delayed(parts[3], shape=(nan,), dtype=index))  # fmt: skip

    # -- sorting: stable and descending, along one whole axis --------------------------------
    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """The sorted axis becomes one chunk; the other axes keep theirs."""
        axis = self.normalize_axis(axis, x.ndim, "argsort")
        function = _argsort_descending if descending else _argsort_ascending
        return gufunc(function, "(n)->(n)", whole_axes(x, (axis,)), axes=[(axis,), (axis,)],
                      dtypes=np.dtype(np.int64))  # fmt: skip

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """The sorted axis becomes one chunk; the other axes keep theirs."""
        axis = self.normalize_axis(axis, x.ndim, "sort")
        function = _sort_descending if descending else _sort_ascending
        return gufunc(function, "(n)->(n)", whole_axes(x, (axis,)), axes=[(axis,), (axis,)],
                      dtypes=x.dtype)  # fmt: skip
