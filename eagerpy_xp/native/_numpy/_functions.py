"""The NumPy backend's reductions, sorting, sets and manipulation fixes."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base import fastpath
from .._base.core import raise_translated, translated
from .._base.functions import (
    accumulates_in_bool,
    accumulation_dtype,
    bool_accumulation,
    check_repeats,
)
from ._core import _NDARRAY, _NUMERIC, _REAL_NUMERIC, _REDUCE, NumPyCore

#: The standard's floating dtypes.
_FLOATING = frozenset(map(np.dtype, ("float32", "float64", "complex64", "complex128")))


def _ndarray_mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return x.mean(axis, None, None, keepdims)


class NumPyFunctions(NumPyCore):
    """Statistics, sorting, sets and manipulation."""

    # Reductions through the ufuncs' own `reduce`: the same dtype rules as ``numpy.sum``
    # (small integers accumulate in int64/uint64) without its Python dispatch layers, and
    # no decorator frame either (checks and translation in `_reduced`).
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._reduced("sum", _REDUCE["add"], _NUMERIC, x, axis, dtype, keepdims)

    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._reduced("prod", _REDUCE["multiply"], _NUMERIC, x, axis, dtype, keepdims)

    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._reduced("max", _REDUCE["maximum"], _REAL_NUMERIC, x, axis, None, keepdims)

    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._reduced("min", _REDUCE["minimum"], _REAL_NUMERIC, x, axis, None, keepdims)

    def _reduced(self, function: str, reduce: Any, accepted: tuple[str | None, frozenset[Any]],
                 x: Any, axis: Any, dtype: Any, keepdims: Any) -> Any:  # fmt: skip
        """``reduce`` of ``x``, an array of a dtype in ``accepted`` (`_accepted`)."""
        if type(x) is not _NDARRAY or x.dtype not in accepted[1]:
            self.check_operand(x, function, accepted[0])
        try:
            if dtype is not None:
                dtype = accumulation_dtype(self, x, dtype, function)
                if accumulates_in_bool(self, dtype):
                    return bool_accumulation(self, function, x, axis, keepdims)
            return reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)
        except Exception as exc:
            raise_translated(self, exc, function)

    @fastpath.reduction(_NDARRAY, _FLOATING, _ndarray_mean)
    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """On arrays of the standard's floating dtypes, ``ndarray.mean`` (what
        ``numpy.mean`` calls, without its dispatch)."""
        return np.mean(x, axis=axis, keepdims=keepdims)

    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        """NumPy has no ``descending``; a stable descending sort keeps ties in order."""
        if not descending:
            return np.argsort(x, axis=axis, stable=stable)
        if x.dtype.kind in "biu":  # ~x reverses the order exactly, ties stay ties
            return np.argsort(np.invert(x), axis=axis, stable=True)
        size = np.shape(x)[axis]
        flipped = np.argsort(np.flip(x, axis=axis), axis=axis, stable=True)
        return (size - 1) - np.flip(flipped, axis=axis)

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        if not descending:
            return np.sort(x, axis=axis, stable=stable)
        if x.dtype.kind in "fc":  # signed zeros are ties that a flip would reorder
            return np.take_along_axis(x, self.argsort(x, axis=axis, descending=True), axis)
        return np.flip(np.sort(x, axis=axis), axis=axis)

    @translated
    def unique_values(self, x: Any, /) -> Any:
        """Sorted, as every other backend and ``unique_all/counts/inverse`` return them
        (NumPy >= 2.3 hashes and returns them unordered; array-api-extra's ``union1d`` and
        ``setdiff1d`` promise sorted results on top of it).  NaNs stay distinct."""
        return np.unique(np.reshape(x, (-1,)), equal_nan=False)

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """NumPy refuses uint64 ``repeats`` (no safe cast to intp)."""
        check_repeats(self, repeats)
        if getattr(repeats, "dtype", None) == np.uint64:
            repeats = repeats.astype(np.intp)
        return np.repeat(x, repeats, axis=axis)
