"""The Dask backend's indexing: NumPy's meaning, lazily (gathers where Dask refuses a key)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from dask.highlevelgraph import HighLevelGraph

from ..._detect import plain_scalar
from .._base.core import stores, translated
from .._base.keys import as_it_is, selects_nothing, standard_key
from ._chunks import aligned_mask, gufunc, match_loop_chunks, reshape, sized, whole_axes
from ._core import (
    DaskCore,
    _bool_axes,
    _bools_as_new_axes,
    _from_end,
    _has_bool,
    _has_unknown,
    _keyed_write,
    _needs_gather,
    _plain_slice,
    _same_sizes,
    _selects_nothing,
    _take_last,
    checked_indices,
    task,
)
from ._kept import KEPT


class DaskIndexing(DaskCore):
    """Indexing, mutation (a new graph) and ``take``."""

    # -- indexing and mutation --------------------------------------------------------------
    def getitem(self, raw: Any, key: Any) -> Any:
        """NumPy's indexing, lazily.  Integer arrays (Dask's or NumPy's) that Dask refuses
        (several, multi-dimensional ones, beside ints or None) gather from the array
        flattened over their axes.  Indexing by position into an axis of unknown size
        (after a mask or ``unique_*``) computes that array's chunk sizes first: which
        element is at a position depends on the data."""
        key = self._checked_key(raw, self._plain_key(key, "__getitem__"), "__getitem__")
        try:
            if _has_bool(key):  # Dask reads True as 1: a new axis of size 1 (or 0 for False)
                return _bool_axes(self.getitem(raw, _bools_as_new_axes(key)), key, raw.ndim)
            trailing = _trailing_mask(key, raw.ndim)
            if trailing is not None:  # x[..., mask]: Dask takes masks of the leading axes
                k = trailing.ndim
                leading = da.moveaxis(raw, tuple(range(raw.ndim - k, raw.ndim)), tuple(range(k)))
                return da.moveaxis(self.getitem(leading, trailing), 0, -1)
            if _needs_gather(key):
                return self._advanced(raw, key)
            if isinstance(key, (da.Array, np.ndarray)) and key.dtype == np.bool_:
                if key.ndim == 0:
                    return raw[None][da.reshape(da.asarray(key), (1,))]  # a new axis, 1 or 0
                if 0 in key.shape:  # Dask fails on these
                    return da.zeros((0, *raw.shape[key.ndim:]), dtype=raw.dtype)
                key = da.asarray(key)  # Dask takes NumPy masks of one dimension only
                raw, key = aligned_mask(raw, key)
                if 1 < key.ndim < raw.ndim:  # nor a mask of some leading axes: merged
                    rows = reshape(raw, (-1, *raw.shape[key.ndim:]))
                    return rows[reshape(key, (-1,))]
            try:
                return raw[key]
            except ValueError:
                if None not in self.shape_of(raw):
                    raise
            return sized(raw)[key]  # (on a copy: the caller's keeps its graph)
        except (IndexError, ValueError, TypeError, NotImplementedError) as exc:
            raise self.error("__getitem__", f"index {key!r:.200}: {exc}", type(exc)) from exc

    def _plain_key(self, key: Any, function: str) -> Any:
        """NumPy scalars, 0-d arrays and lists in ``key`` as the standard's items
        (`keys.standard_key`; NumPy index arrays stay: Dask takes them), slice bounds that
        are NumPy integers as ints."""
        key = standard_key(key, as_it_is, self, function)
        if type(key) is tuple:
            return tuple(_plain_slice(k) if type(k) is slice else k for k in key)
        return _plain_slice(key) if type(key) is slice else key

    def _checked_key(self, raw: Any, key: Any, function: str, eager: bool = False) -> Any:
        """``key`` checked as the standard's indexing allows (ints, slices, one ellipsis,
        None, integer and boolean arrays), with `IndexError` naming what is wrong.  Integer
        Dask arrays in it check their entries against the axis size (Dask itself would
        wrap or clamp them): lazily, when computed, or, ``eager`` (``__setitem__``, whose
        failure must leave the array as it was), now, computing that key array only."""
        items = key if type(key) is tuple else (key,)
        consumed = 0
        for item in items:
            if isinstance(item, (da.Array, np.ndarray)):
                if item.dtype.kind not in "biu":
                    raise self.error(function, f"index arrays must be integer or bool, got "
                                     f"{item.dtype}", IndexError)  # fmt: skip
                consumed += item.ndim if item.dtype.kind == "b" else 1
            elif item is Ellipsis or item is None:
                continue
            elif isinstance(item, slice) or (hasattr(type(item), "__index__")
                                             and not isinstance(item, bool)):  # fmt: skip
                consumed += 1
            elif not isinstance(item, bool):
                raise self.error(function, f"index {item!r} is not an int, slice, ellipsis, "
                                 "None or an array", IndexError)  # fmt: skip
        if sum(item is Ellipsis for item in items) > 1:
            raise self.error(function, f"at most one ellipsis is allowed, got {key!r}",
                             IndexError)  # fmt: skip
        if consumed > raw.ndim:
            raise self.error(function, f"too many indices ({consumed}) for an array of "
                             f"{raw.ndim} dimensions", IndexError)  # fmt: skip
        checked = []
        dim = 0
        for item in items:
            if item is Ellipsis:
                dim += raw.ndim - consumed
            elif isinstance(item, (da.Array, np.ndarray)) and item.dtype.kind == "b":
                if not _same_sizes(item.shape, raw.shape[dim:dim + item.ndim]) and not (
                        type(key) is not tuple and selects_nothing(item.shape, raw.shape)):
                    raise self.error(function, f"boolean index of shape {item.shape} does not "
                                     f"match the array's shape {raw.shape} at dimension {dim}",
                                     IndexError)  # fmt: skip
                dim += item.ndim
            elif isinstance(item, da.Array):
                item = checked_indices(self, item, raw.shape[dim], dim, function)
                if eager:
                    item = np.asarray(item.compute())
                dim += 1
            elif isinstance(item, np.ndarray):  # known entries: checked now
                size = raw.shape[dim]
                outside = (item < -size) | (item >= size) if not math.isnan(size) else None
                if outside is not None and outside.any():
                    raise self.error(function, f"index {item[outside].flat[0]} is out of range "
                                     f"for axis {dim} of size {size}", IndexError)  # fmt: skip
                dim += 1
            elif item is not None:
                dim += 1
            checked.append(item)
        return tuple(checked) if type(key) is tuple else checked[0]

    def _advanced(self, raw: Any, key: Any) -> Any:
        """``raw[key]`` by NumPy's rules for integer arrays (and ints beside them): the
        arrays broadcast together; the array is gathered from, flattened over their axes;
        their dimensions come first, or where the first of them was when they (and the ints)
        are adjacent in the key."""
        items = list(key) if type(key) is tuple else [key]
        used = sum(k is not None and k is not Ellipsis for k in items)
        at = next((i for i, k in enumerate(items) if k is Ellipsis), None)
        if at is not None:
            items[at : at + 1] = [slice(None)] * (raw.ndim - used)
        else:
            items += [slice(None)] * (raw.ndim - used)
        basic: list[Any] = []
        indices: dict[int, Any] = {}  # axis of ``raw[basic]`` -> its integer index
        for k in items:
            if k is not None and not isinstance(k, slice):
                indices[len(basic)] = k
                k = slice(None)
            basic.append(k)
        picked = raw[tuple(basic)]
        if None in self.shape_of(picked):  # positions into unknown sizes: computed
            picked = sized(picked)
        axes = sorted(indices)
        sizes = [picked.shape[a] for a in axes]
        for a, size in zip(axes, sizes):
            k = indices[a]
            if isinstance(k, int) and not -size <= k < size:
                raise self.error("__getitem__", f"index {k} is out of range for axis {a} of "
                                 f"size {size}", IndexError)  # fmt: skip
        lazy = any(isinstance(indices[a], da.Array) for a in axes)
        arrays = [_from_end(indices[a], size, lazy) for a, size in zip(axes, sizes)]
        try:
            arrays = list((da if lazy else np).broadcast_arrays(*arrays))
        except ValueError as exc:
            shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
            raise self.error("__getitem__", f"index arrays of shapes {shapes} do not "
                             "broadcast together", IndexError) from exc  # fmt: skip
        flat = arrays[0]
        for index, size in zip(arrays[1:], sizes[1:]):
            flat = flat * size + index
        rest = [a for a in range(picked.ndim) if a not in indices]
        rest_shape = tuple(picked.shape[a] for a in rest)
        rows = reshape(da.transpose(picked, axes + rest), (-1, *rest_shape))
        out = rows[reshape(flat, (-1,)) if lazy else flat.reshape(-1)]
        if flat.ndim != 1:
            out = reshape(out, (*flat.shape, *rest_shape))
        if axes == list(range(axes[0], axes[-1] + 1)) and axes[0] > 0:
            count, first = flat.ndim, axes[0]
            out = da.transpose(out, [*range(count, count + first), *range(count),
                                     *range(count + first, out.ndim)])  # fmt: skip
        return out

    def run_write(self, write: Callable[[], list[tuple[Any, Any]]], operand: Any) -> Any:
        """Each array written starts from the kept values of its history where it can
        (`_kept.KeptValues.trimmed`): an array rebound in a loop keeps a short graph."""
        return [(wrapper, KEPT.trimmed(new)) for wrapper, new in write()]

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """A new Dask array with ``value`` written at ``key``; ``raw`` (and every array
        sharing its graph) is unchanged.  ``value`` must fit ``raw``'s dtype without a
        downcast (`TypeError` otherwise)."""
        target = self.dtype_name(raw.dtype)
        if isinstance(value, (bool, int, float, complex)):
            value = self.setitem_scalar(target, plain_scalar(value))
        else:
            source = self.dtype_name(value.dtype)
            if not stores(source, target):
                raise self.error("__setitem__", f"cannot store {source} values in an array "
                                 f"of dtype {target} without a downcast", TypeError)  # fmt: skip
            value = value.astype(raw.dtype)
        key = self._checked_key(raw, self._plain_key(key, "__setitem__"), "__setitem__",
                                eager=True)  # fmt: skip
        parts = key if isinstance(key, tuple) else (key,)
        if _needs_gather(key) or _has_bool(key) or any(k is None for k in parts):
            return self._scattered(raw, key, value)  # several or multi-dimensional index
        if _selects_nothing(raw, key):  # arrays, True/False, None: Dask cannot write those
            self._scattered(raw, key, value)  # (checks the key and the value)
            return raw  # (Dask fails to broadcast a value to an empty selection)
        if isinstance(key, np.ndarray) and key.dtype == np.bool_:
            key = da.asarray(key)
        mask = key if isinstance(key, da.Array) and key.dtype == np.bool_ else None
        if mask is not None and (0 in mask.shape or selects_nothing(mask.shape, raw.shape)):
            try:  # nothing to write; the value must still fit
                np.broadcast_to(np.empty(np.shape(value), bool), (0, *raw.shape[mask.ndim:]))
            except ValueError as exc:
                raise self.error("__setitem__", f"a value of shape {np.shape(value)} does not "
                                 "fit an empty selection", ValueError) from exc  # fmt: skip
            return raw
        if mask is not None and mask.ndim <= raw.ndim:
            rest = raw.ndim - mask.ndim
            if np.ndim(value) == rest + 1 and np.shape(value)[0] == 0:
                return raw  # no values: the mask selects nothing (NumPy raises otherwise)
            if np.ndim(value) == rest + 1 and np.shape(value)[0] == 1:
                value = value[0]  # one row broadcast to every selected row
            if np.ndim(value) <= rest:  # one value for every selected element or row
                if not _same_sizes(mask.shape, raw.shape[: mask.ndim]):
                    raise self.error("__setitem__", f"boolean index of shape {mask.shape} does "
                                     f"not match the array's shape {raw.shape}", IndexError)  # fmt: skip
                raw, mask = aligned_mask(raw, mask)
                return da.where(mask[(...,) + (None,) * rest], value, raw)
            unknown = isinstance(value, da.Array) and None in self.shape_of(value)
            if unknown or (isinstance(mask, da.Array) and np.ndim(value) == rest + 1):
                # values of unknown count (another mask's result), or one value per row
                # that a lazy mask selects (Dask cannot check a count it does not know
                # yet: "cannot broadcast shape (2,) to shape (nan,)"): one task writes them
                write = task(_keyed_write, raw, mask, value)
                return da.from_delayed(write, shape=raw.shape, dtype=raw.dtype)
        if 0 in raw.shape and not any(isinstance(k, da.Array) for k in parts):
            # nothing to write: NumPy's broadcasting rules decide whether the value fits
            # (Dask refuses a (2,) value for a (0, 2) selection)
            stand_in = np.empty(raw.shape, dtype=raw.dtype)
            try:
                stand_in[key] = np.broadcast_to(np.zeros((), raw.dtype), np.shape(value))
            except (IndexError, ValueError, TypeError) as exc:
                raise self.error("__setitem__", f"index {key!r}: {exc}", type(exc)) from exc
            return raw
        try:
            result = _written(raw, key, value)
        except (IndexError, ValueError, NotImplementedError):
            # what Dask cannot write (an int beside a reversed slice): NumPy's rules decide,
            # on a stand-in, and one task writes
            return self._scattered(raw, key, value)
        except TypeError as exc:
            raise self.error("__setitem__", f"index {key!r}: {exc}", type(exc)) from exc
        return result

    def _scattered(self, raw: Any, key: Any, value: Any) -> Any:
        """``raw`` with ``value`` written at ``key`` (NumPy index arrays, ints, slices), by
        one task; the key and the value's shape are checked now, on a stand-in of
        ``raw``'s shape that holds no data."""
        if None in self.shape_of(raw):
            raw = sized(raw)
        try:
            selected = np.broadcast_to(np.zeros((), bool), raw.shape)[key].shape
            shape = tuple(np.shape(value))
            while len(shape) > len(selected) and shape[0] == 1:
                shape = shape[1:]  # NumPy drops the value's leading size-1 dimensions
            if np.broadcast_shapes(shape, selected) != selected:
                raise ValueError(f"a value of shape {np.shape(value)} does not fit the "
                                 f"selection of shape {selected}")  # fmt: skip
        except (IndexError, ValueError) as exc:
            raise self.error("__setitem__", f"index {key!r:.200}: {exc}", type(exc)) from exc
        write = task(_keyed_write, raw, key, value)
        return da.from_delayed(write, shape=raw.shape, dtype=raw.dtype).rechunk(raw.chunks)

    # -- indexing --------------------------------------------------------------------------
    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """Indices out of range raise `IndexError` when computed (Dask would wrap them)."""
        if axis is None:
            if x.ndim != 1:
                raise self.error("take", f"axis is required for a {x.ndim}-d array")
            axis = 0
        axis = self.normalize_axis(axis, x.ndim, "take")
        return self._f.take(x, checked_indices(self, indices, x.shape[axis], axis, "take"), axis=axis)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        """Broadcast over the other axes; the axis is one chunk in the result.  Indices out
        of range raise `IndexError` when computed."""
        axis = self.normalize_axis(axis, x.ndim, "take_along_axis")
        if indices.ndim != x.ndim:
            raise self.error("take_along_axis", f"indices must have {x.ndim} dimensions like "
                                                f"x, got {indices.ndim}")  # fmt: skip
        indices = checked_indices(self, indices, x.shape[axis], axis, "take_along_axis")
        x = da.moveaxis(whole_axes(x, (axis,)), axis, -1)
        indices = match_loop_chunks(x, da.moveaxis(whole_axes(indices, (axis,)), axis, -1), (1, 1))
        return da.moveaxis(gufunc(_take_last, "(n),(m)->(m)", x, indices, dtypes=x.dtype), -1, axis)


def _written(raw: Any, key: Any, value: Any) -> Any:
    """Dask's own ``raw[key] = value`` on a copy (a new Array object on the same graph:
    writing rebinds it only).  A Dask ``value`` of more than one layer is written through a
    stand-in: an array of the same chunks whose one layer names ``value``'s chunks, the
    result depending on ``value``'s graph by reference.  Dask's ``__setitem__`` copies the
    value's whole graph into the write's layer, so that a loop writing values derived from
    the array (``x[..., 3] = x[..., 0] * 2``, SciPy's ``Rotation`` and ``RigidTransform``)
    holds every earlier write's history again in each layer: quadratic in the loop's
    length (150 such writes of one chunk: 136,202 graph entries and 7.2 s to build;
    through the stand-in 2,102 and 1.3 s: docs/dask.md)."""
    result = raw.copy()
    if not isinstance(value, da.Array) or len(value.dask.layers) < 2 or _has_unknown(value):
        result[key] = value
        return result
    name = f"written-value-{value.name}"
    aliases: dict[Any, Any] = {(name, *index): (value.name, *index)
                               for index in np.ndindex(*value.numblocks)}
    stand_in = da.Array(HighLevelGraph({name: aliases}, {name: set()}), name,
                        chunks=value.chunks, meta=value._meta)  # fmt: skip
    result[key] = stand_in
    graph = result.dask
    dependencies = {**graph.dependencies, **value.dask.dependencies}
    for layer in result.__dask_layers__():  # (the write's own layer)
        dependencies[layer] = {*dependencies[layer], *value.__dask_layers__()}
    return da.Array(HighLevelGraph({**graph.layers, **value.dask.layers}, dependencies),
                    result.name, chunks=result.chunks, meta=result._meta)  # fmt: skip


def _trailing_mask(key: Any, ndim: int) -> Any:
    """The mask of ``x[..., mask]`` (a boolean array of the trailing axes, or 0-d: a new one,
    Dask's or NumPy's), else None.  The standard makes a boolean array the sole index;
    NumPy and the other frameworks take this too, and SciPy's ``vectorized_filter``
    selects a footprint's elements this way."""
    if type(key) is not tuple or len(key) != 2 or key[0] is not Ellipsis:
        return None
    mask = key[1]
    if not isinstance(mask, (da.Array, np.ndarray)) or mask.dtype != np.bool_:
        return None
    return da.asarray(mask) if mask.ndim <= ndim else None
