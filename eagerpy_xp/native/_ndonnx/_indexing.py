"""``x[key]`` and ``x[key] = value`` on ndonnx arrays, with NumPy's meaning.

ndonnx indexes with ints, slices, None, the ellipsis and one boolean array alone; it
writes through the same keys.  The rest is built here of ONNX operators, the same on
eager and symbolic arrays:

* integer arrays (any number, with ints among them, NumPy's rules for where the
  broadcast index dimensions go) and boolean arrays inside a tuple (as their
  ``nonzero`` index arrays, which is what NumPy does): the basic part of the key first,
  then the indexed axes moved to the front, flattened, and one ``Gather`` of the linear
  positions;
* writes through such keys: the positions ``arange(size)`` shaped like ``x``, indexed by
  the same key, say where ``value`` goes, and one ``ScatterND`` writes it into the
  flattened array (a new node: other references keep theirs);
* NumPy's keys (arrays, integers, booleans, slice bounds) and a lone Python bool (a new
  axis of size 1 or 0).
"""

from __future__ import annotations

import math
from typing import Any, cast

import ndonnx as ndx
import numpy as np
import spox.opset.ai.onnx.v21 as _onnx

from .._base.core import raise_translated
from ._core import _NO_VALUE, Array, NdonnxCore, constant, constant_var, holdable


class NdonnxIndexing(NdonnxCore):
    """Reading and writing through any key NumPy takes."""

    def getitem(self, raw: Any, key: Any) -> Any:
        try:
            key = self._key(key)
            return self._get(raw, key, "__getitem__")
        except Exception as exc:
            raise_translated(self, _indexing_error(exc, key), "__getitem__")

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """A new array: ``raw`` with ``value`` written at ``key`` (``raw`` itself, which
        other references hold, keeps its node)."""
        value = self.check_setitem_value(raw, value)
        if type(value) is Array and value.dtype != raw.dtype:
            value = value.astype(raw.dtype)
        try:
            key = self._key(key)
            items = key if isinstance(key, tuple) else (key,)
            if _advanced(items):
                return self._scatter(raw, items, value)
            result = raw.copy()
            if len(items) == 1 and type(items[0]) is bool:  # (a new axis of size 1 or 0)
                if not items[0]:
                    return result
                items = (Ellipsis,)
            mask = _lone_mask(items)
            spread = type(value) is Array and len(self.shape_of(value)) > 0
            if mask is not None:
                if spread:  # (ndonnx does not broadcast the value: the scattering path does)
                    return self._scatter(raw, items, value)
                result[mask] = value
                return result
            self._check_ints(items, self.shape_of(raw), "__setitem__")
            key = self._full_key(items, raw)
            if spread:  # ndonnx writes a value of the selection's exact shape only
                target = _basic_shape(items, self.shape_of(raw))
                self._check_spread(value, target)
                value = ndx.broadcast_to(value, target if target is not None and None not in
                                         target else raw[key].dynamic_shape)  # fmt: skip
            result[key] = value
            return result
        except Exception as exc:
            raise_translated(self, _indexing_error(exc, key), "__setitem__")

    # -- reading --------------------------------------------------------------------------------
    def _get(self, raw: Any, key: Any, function: str) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        if len(items) == 1 and type(items[0]) is bool:  # a 0-d boolean index: a new axis
            added = raw[(None, Ellipsis)]
            return added if items[0] else added[(slice(0, 0), Ellipsis)]
        if any(type(k) is bool for k in items):
            raise self.error(function, f"a Python bool among other indices ({key!r:.80}): the "
                             "ndonnx backend takes a bool alone", NotImplementedError)  # fmt: skip
        mask = _lone_mask(items)
        if mask is not None:
            return raw[mask]
        if _advanced(items):
            return self._advanced_get(raw, items, function)
        self._check_ints(items, self.shape_of(raw), function)
        return _basic(raw, items)

    def _check_ints(self, items: tuple[Any, ...], shape: tuple[int | None, ...],
                    function: str) -> None:  # fmt: skip
        """The ints of a basic key within their axes' (known) sizes: `IndexError`
        (ndonnx would read or write elsewhere, or leave an eager result without value)."""
        used = sum(1 for k in items if k is not None and k is not Ellipsis)
        if used > len(shape):
            raise self.error(function, f"too many indices ({used}) for an array of "
                             f"{len(shape)} dimensions", IndexError)  # fmt: skip
        axis = 0
        for k in items:
            if k is Ellipsis:
                axis += len(shape) - used
            elif k is not None:
                size = shape[axis]
                if type(k) is int and size is not None and not -size <= k < size:
                    raise self.error(function, f"index {k} is out of bounds for axis {axis} "
                                     f"of size {size}", IndexError)  # fmt: skip
                axis += 1

    def _full_key(self, items: tuple[Any, ...], raw: Any) -> Any:
        """``items`` with an ellipsis added where they index fewer dimensions than ``raw``
        has and name none (ndonnx requires one)."""
        if any(k is Ellipsis for k in items):
            return items
        used = sum(1 for k in items if k is not None)
        if used < len(raw.shape):
            return (*items, Ellipsis)
        return items

    def _expand(self, items: tuple[Any, ...], ndim: int, function: str) -> list[Any]:
        """The key as one entry per axis of the result of its basic part: the ellipsis
        as full slices (trailing ones added), a boolean array as its ``nonzero`` index
        arrays (one per dimension it covers)."""
        used = sum(len(k.shape) if type(k) is Array and k.dtype == ndx.bool else 1
                   for k in items if k is not None and k is not Ellipsis)  # fmt: skip
        if used > ndim:
            raise self.error(function, f"too many indices ({used}) for an array of {ndim} "
                             "dimensions", IndexError)  # fmt: skip
        entries: list[Any] = []
        for k in items:
            if k is Ellipsis:
                entries.extend([slice(None)] * (ndim - used))
                used = ndim
            elif type(k) is Array and k.dtype == ndx.bool:
                entries.extend(ndx.nonzero(k))
            else:
                entries.append(k)
        entries.extend([slice(None)] * (ndim - used))
        return entries

    def _advanced_get(self, raw: Any, items: tuple[Any, ...], function: str) -> Any:
        """``raw[items]`` with integer (or boolean) arrays among ``items``: NumPy's
        advanced indexing, ints then counting as 0-d index arrays."""
        entries = self._expand(items, len(self.shape_of(raw)), function)
        at = [i for i, e in enumerate(entries) if type(e) is Array or type(e) is int]
        basic = tuple(slice(None) if i in at else e for i, e in enumerate(entries))
        y = _basic(raw, basic)
        shape = self.shape_of(y)  # (each entry of `basic` made one axis of y)
        indices = [self._index(entries[i], y, i, function) for i in at]
        indices = list(ndx.broadcast_arrays(*indices)) if len(indices) > 1 else indices
        linear = indices[0]
        for i, index in zip(at[1:], indices[1:]):
            linear = linear * self._extent(y, i) + index
        rest = [i for i in range(len(shape)) if i not in at]
        moved = ndx.permute_dims(y, (*at, *rest)) if at != list(range(len(at))) else y
        if len(at) > 1:
            moved = _reshaped(moved, [(-1,)], [(moved, len(at), len(shape))])
        if len(linear.shape) == 1:
            result = ndx.take(moved, linear, axis=0)
        else:
            taken = ndx.take(moved, ndx.reshape(linear, (-1,)), axis=0)
            result = _reshaped(taken, [], [(linear, 0, len(linear.shape)),
                                           (taken, 1, len(rest) + 1)])  # fmt: skip
        first, count = at[0], len(linear.shape)
        if at != list(range(first, first + len(at))) or first == 0:
            return result  # (apart, or already in front: the index dimensions lead)
        order = [count + j for j in range(first)] + list(range(count)) + \
            [count + j for j in range(first, len(rest))]  # fmt: skip
        return ndx.permute_dims(result, tuple(order))

    def _index(self, entry: Any, y: Any, axis: int, function: str) -> Any:
        """One advanced index of axis ``axis`` of ``y`` as int64, in bounds (`IndexError`
        where known), negative entries counted from the end."""
        size = self.shape_of(y)[axis]
        if type(entry) is int:
            if size is not None and not -size <= entry < size:
                raise self.error(function, f"index {entry} is out of bounds for axis {axis} of "
                                 f"size {size}", IndexError)  # fmt: skip
            entry = ndx.asarray(entry, dtype=ndx.int64)
        else:
            self.check_indices(entry, size, axis, function)
            entry = ndx.astype(entry, ndx.int64)
        return ndx.where(entry < 0, entry + self._extent(y, axis), entry)

    def _extent(self, y: Any, axis: int) -> Any:
        """The size of ``y``'s axis as an int64 array (known, or read from the graph)."""
        size = self.shape_of(y)[axis]
        if size is not None:
            return ndx.asarray(size, dtype=ndx.int64)
        return ndx.astype(y.dynamic_shape[axis], ndx.int64)

    # -- writing --------------------------------------------------------------------------------
    def _scatter(self, raw: Any, items: tuple[Any, ...], value: Any) -> Any:
        """``raw`` with ``value`` written at an advanced key: the flat positions the key
        selects (the key applied to ``arange(size)`` shaped like ``raw``), one
        ``ScatterND``.  A position named twice takes the last value written there."""
        shape = self.shape_of(raw)
        if None in shape:
            raise self.error("__setitem__", f"writing through integer or boolean arrays into an "
                             f"array of unknown shape {shape}: the ndonnx backend needs the "
                             "size", NotImplementedError)  # fmt: skip
        known = cast("tuple[int, ...]", shape)
        positions = ndx.reshape(ndx.arange(0, math.prod(known), dtype=ndx.int64), known)
        chosen = self._get(positions, items, "__setitem__")
        if type(value) is not Array:
            value = constant(value, raw.dtype.unwrap_numpy())
        target = self.shape_of(chosen)
        spread = ndx.broadcast_to(value, cast("tuple[int, ...]", target) if None not in target
                                  else chosen.dynamic_shape)  # fmt: skip
        flat = ndx.reshape(raw, (-1,))
        written = _onnx.scatter_nd(flat.unwrap_spox(), ndx.reshape(chosen, (-1, 1)).unwrap_spox(),
                                   ndx.reshape(spread, (-1,)).unwrap_spox())  # fmt: skip
        return ndx.reshape(ndx.asarray(written), known)

    def _check_spread(self, value: Any, target: tuple[int | None, ...] | None) -> None:
        """`ValueError` where the array ``value`` cannot broadcast to the ``target`` shape
        of the selection it is written to (None: not known here)."""
        if type(value) is not Array or target is None:
            return
        shape = self.shape_of(value)
        fits = len(shape) <= len(target) and all(
            v in (1, None) or t is None or v == t
            for v, t in zip(reversed(shape), reversed(target)))  # fmt: skip
        if not fits:
            raise self.error("__setitem__", f"a value of shape {shape} does not broadcast to "
                             f"the selected shape {target}")  # fmt: skip

    # -- keys -----------------------------------------------------------------------------------
    def _key(self, key: Any) -> Any:
        """NumPy arrays and lists in ``key`` as ndonnx arrays; NumPy integers and bools
        (also as slice bounds) as Python's; `Array`s as their raw."""
        items = key if isinstance(key, tuple) else (key,)
        out = []
        for k in items:
            if isinstance(k, (np.ndarray, list)):
                k = np.asarray(k)
                k = constant(k) if holdable(k) else ndx.asarray(k)
            elif isinstance(k, np.integer):
                k = int(k)
            elif isinstance(k, np.bool_):
                k = bool(k)
            elif isinstance(k, slice):
                k = slice(*(int(b) if isinstance(b, np.integer) else b
                            for b in (k.start, k.stop, k.step)))  # fmt: skip
            elif self.wrapper_type is not None and type(k) is self.wrapper_type:
                k = k.raw
            if type(k) is Array and self.dtype_name(k.dtype) not in _KEY_DTYPES:
                raise IndexError(f"index arrays must have an integer or boolean dtype, got "
                                 f"{self.dtype_name(k.dtype)}")  # fmt: skip
            if not (k is None or k is Ellipsis or type(k) in (Array, int, bool, slice)):
                raise IndexError(f"an index must be an int, a slice, None, the ellipsis or an "
                                 f"integer or boolean array, got {type(k).__name__}")  # fmt: skip
            out.append(k)
        if sum(1 for k in out if k is Ellipsis) > 1:
            raise IndexError("a key holds at most one ellipsis")
        return tuple(out) if isinstance(key, tuple) else out[0]


#: The dtypes of index arrays.
_KEY_DTYPES = frozenset({"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                         "uint64"})  # fmt: skip


def _advanced(items: tuple[Any, ...]) -> bool:
    """Whether a key needs the advanced path: an integer array, or a boolean array that
    is not the whole key."""
    arrays = [k for k in items if type(k) is Array]
    return any(a.dtype != ndx.bool for a in arrays) or (bool(arrays) and len(items) > 1)


def _lone_mask(items: tuple[Any, ...]) -> Any:
    """The boolean array that is the whole key (ndonnx's own case), or None."""
    if len(items) == 1 and type(items[0]) is Array and items[0].dtype == ndx.bool:
        return items[0]
    return None


_FIRST, _LAST = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def _basic(raw: Any, items: tuple[Any, ...]) -> Any:
    """``raw[items]`` for a basic key (ints within their axes, slices, None, at most one
    ellipsis): one ``Slice`` of the sliced and indexed axes, one ``Squeeze`` of the
    indexed ones, one ``Unsqueeze`` for the new ones (ndonnx's own indexing builds and
    folds a dozen operators more per key).  ONNX's ``Slice`` clamps its bounds as Python
    does, for either sign of step and for sizes unknown here."""
    ndim = len(raw.shape)
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    starts, ends, axes, steps, dropped, added = [], [], [], [], [], []
    axis = position = 0
    for k in (*items, *((Ellipsis,) if Ellipsis not in items else ())):
        if k is None:
            added.append(position)
            position += 1
        elif k is Ellipsis:
            axis += ndim - used
            position += ndim - used
        elif type(k) is int:
            starts.append(k)
            ends.append(k + 1 if k != -1 else _LAST)
            axes.append(axis)
            steps.append(1)
            dropped.append(axis)
            axis += 1
        else:
            step = 1 if k.step is None else k.step
            if (k.start, k.stop, step) != (None, None, 1):
                starts.append(k.start if k.start is not None else 0 if step > 0 else _LAST)
                ends.append(k.stop if k.stop is not None else _LAST if step > 0 else _FIRST)
                axes.append(axis)
                steps.append(step)
            axis += 1
            position += 1
    var = raw.unwrap_spox()
    if axes:
        var = _onnx.slice(var, *(constant_var(v, np.int64) for v in (starts, ends, axes, steps)))
    if dropped:
        var = _onnx.squeeze(var, constant_var(dropped, np.int64))
    if added:
        var = _onnx.unsqueeze(var, constant_var(added, np.int64))
    return raw if var is raw.unwrap_spox() else ndx.asarray(var)


def _basic_shape(items: tuple[Any, ...], shape: tuple[int | None, ...]) -> tuple[Any, ...] | None:
    """The shape a basic key (ints, slices, None, the ellipsis) selects from ``shape``,
    or None where a size is unknown or the key is not basic."""
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    out: list[int | None] = []
    axis = 0
    for k in (*items, *((Ellipsis,) if Ellipsis not in items else ())):
        if k is None:
            out.append(1)
        elif k is Ellipsis:
            take = len(shape) - used
            out.extend(shape[axis:axis + take])
            axis += take
        elif type(k) is int:
            axis += 1
        elif isinstance(k, slice):
            if axis >= len(shape) or shape[axis] is None:
                return None
            out.append(len(range(*k.indices(shape[axis]))))  # type: ignore[arg-type]
            axis += 1
        else:
            return None
    return tuple(out)


def _reshaped(x: Any, fixed: list[tuple[int, ...]], parts: list[tuple[Any, int, int]]) -> Any:
    """``x`` reshaped to the sizes ``fixed`` followed by ``a.shape[lo:hi]`` of each part
    ``(a, lo, hi)``: a tuple where every size is known, else a shape read from the graph
    (ndonnx's ``dynamic_shape``)."""
    sizes: list[int | None] = [s for f in fixed for s in f]
    for a, lo, hi in parts:
        sizes.extend(tuple(a.shape)[lo:hi])
    if None not in sizes:
        return ndx.reshape(x, tuple(sizes))  # type: ignore[arg-type]
    pieces = [constant(f, np.int64) for f in fixed if f]
    for a, lo, hi in parts:  # (known sizes as constants: shape inference keeps them)
        for k in range(lo, hi):
            size = a.shape[k]
            pieces.append(a.dynamic_shape[k:k + 1] if size is None else
                          constant([size], np.int64))  # fmt: skip
    return ndx.reshape(x, ndx.concat(pieces))


def _indexing_error(exc: Exception, key: Any) -> Exception:
    """An indexing failure of ndonnx as an `IndexError` naming the key (ndonnx raises
    `IndexError`, `ValueError` or `TypeError` for bad keys)."""
    if str(exc).startswith("eagerpy_xp."):
        return exc
    if isinstance(exc, ValueError) and _NO_VALUE in str(exc):
        return exc
    text = str(exc).strip()
    new = IndexError(f"index {key!r:.80}: {text.splitlines()[0] if text else type(exc).__name__}")
    new.__cause__ = exc
    return new


__all__ = ["NdonnxIndexing"]
