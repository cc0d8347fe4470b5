"""The Dask backend: the standard on ``dask.array``, lazily, chunk by chunk.

Defaults delegate to ``array_api_compat.dask.array`` (``dask.array`` with the standard's
names); this class holds what differs.

* **Lazy**: no function computes.  Only what must give a Python or NumPy value does:
  ``__bool__``, ``__int__``, ``__float__``, ``__complex__``, ``__index__``, ``__array__``,
  ``__dlpack__`` (the `item`, `to_numpy`, `dlpack` hooks), ``repeat`` with an array of
  repeats (only the repeats: the output's shape is their values), and indexing by position
  into an axis of unknown size (its chunk sizes).  Data-dependent shapes (``unique_*``,
  ``nonzero``, boolean masks) stay lazy with unknown sizes: ``shape`` reports ``None``
  there.  ``repr`` shows the graph's summary, not values.
* **Chunks** are kept where the operation allows: element-wise functions and cumulative
  sums work chunk by chunk; functions along an axis (sorts, ``take_along_axis``, the FFTs)
  rechunk that axis into one chunk and keep the others; reductions drop the reduced axes'
  chunks (over every axis: one chunk).  Matrix decompositions need each matrix in one
  chunk (see `_extensions`).
* **Semantics**: where Dask's chunk function is NumPy's and NumPy deviates from the
  standard (``floor_divide``, ``pow``, ``expm1``, ``log1p``, ``sign``, descending stable
  sorts, ``unique_*``), each chunk runs the NumPy backend's fixed function.
* **Immutable** for the wrapped flavour: ``x[k] = v`` rebinds the `Array` to a new Dask
  array; arrays sharing the old graph do not change.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import array_api_compat.dask.array as cda
import dask
import dask.array as da
import numpy as np

from ..._detect import plain_scalar
from ..._dtypes import promote
from .._base import Backend
from .._base.core import NOT_RECOVERED, NumPyDtypes, translated, truncates
from .._base.creation import check_dlpack
from .._base.functions import (
    check_correction,
    check_reduced_elements,
    check_repeats,
    check_roll,
    check_sorter,
)
from .._base.keys import as_it_is, selects_nothing, standard_key
from ._chunks import NUMPY, elementwise, gufunc, known, match_loop_chunks, reshape, whole_axes
from ._subnamespaces import DaskFFT, DaskLinalg


def _unique_parts(flat: Any, shape: tuple[float, ...]) -> tuple[Any, ...]:
    """NumPy's unique values, first indices, inverse (shaped ``shape``) and counts of
    one chunk holding the whole array (flattened, or in its shape where that had unknown
    sizes: ``shape`` holds NaN then)."""
    values, indices, inverse, counts = NUMPY._unique(np.reshape(flat, (-1,)), "unique_all")
    if any(math.isnan(n) for n in shape):
        shape = np.shape(flat)
    return values, indices, np.reshape(inverse, shape), counts


class DaskBackend(NumPyDtypes, Backend):
    name = "dask"
    _f: Any = cda
    native_types = (da.Array,)
    mutable = False
    writes_in_place = False
    linalg_class = DaskLinalg
    fft_class = DaskFFT

    # -- hooks -----------------------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """Only Dask arrays are arrays here (Dask would take NumPy arrays and lists and
        compute on them, or fail deep in its graph code)."""
        if not isinstance(x, da.Array):
            raise self.error(function, f"expected a Dask array, got {type(x).__name__}",
                             TypeError)  # fmt: skip

    def any_dtype_members(self) -> list[Any] | None:
        """Only the standard's dtypes (as NumPy: no ``object`` or string arrays)."""
        return list(self.dtypes_by_name.values())

    def normalize(self, raw: Any) -> Any:
        return raw if isinstance(raw, da.Array) else da.asarray(raw)

    def native_device(self, device: Any, function: str = "device") -> Any:
        if device == "cpu" or self.as_device(device, function) == "cpu":
            return "cpu"
        raise self.error(function, f"unsupported device {device!r}; Dask arrays live on 'cpu' "
                                   "(the workers' memory)")  # fmt: skip

    def shape_of(self, raw: Any) -> tuple[int | None, ...]:
        """Unknown sizes (after a boolean mask, ``nonzero``, ``unique_*``) are ``None``."""
        return tuple(known(s) for s in raw.shape)

    def item(self, raw: Any) -> bool | int | float | complex:
        """Computes the graph."""
        return raw.compute().item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        """Computes the graph (a new NumPy array: ``copy=False``, which NumPy's protocol
        reads as "never copy", is a `ValueError`)."""
        if copy is False:
            raise self.error("__array__", "a Dask array computes a new NumPy array: it "
                             "cannot be converted with copy=False")  # fmt: skip
        return np.asarray(raw.compute(), dtype=dtype)

    def format_values(self, raw: Any) -> str:
        """The graph's summary (shape, dtype, chunks): showing values would compute."""
        return repr(raw)

    def dlpack(
        self,
        raw: Any,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """Computes the graph into a NumPy array and exports that.  The standard's rule for
        ``copy``: None reuses a buffer where one exists "and copies otherwise", so a lazy
        array, which has none, is computed into a new one (unknown sizes included); True
        does the same; False ("must never copy") raises `BufferError`."""
        if copy is False:
            raise self.error("__dlpack__", "copy=False, but a Dask array has no buffer to "
                             "share: exporting computes it into a new one", BufferError)  # fmt: skip
        return np.asarray(raw.compute()).__dlpack__(stream=stream, max_version=max_version,
                                                    dl_device=dl_device)  # fmt: skip

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return (1, 0)  # kDLCPU

    # -- arrays of unknown size ------------------------------------------------------------
    def recover(self, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A function Dask refuses on an array of unknown size (after a mask,
        ``unique_*``, ``nonzero``: ``sort``, ``flip``, ``roll``, ``reshape(x, (-1, 3))``,
        ...) runs `lazily`: the standard's result, still a graph."""
        if not _has_unknown((args, kwargs)):
            return NOT_RECOVERED
        result = self._one_task(function, args, kwargs)
        return NOT_RECOVERED if result is None else result

    def lazily(self, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """`_one_task`, or `ValueError` where the call fits no stand-ins."""
        result = self._one_task(function, args, kwargs)
        if result is None:
            raise self.error(function, "the call fits no array of the sizes given, whatever "
                             "the unknown ones are")  # fmt: skip
        return result

    def _one_task(self, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``function`` of the NumPy backend as one lazy task on the whole arrays (each
        computed with the graph): what Dask cannot do chunk by chunk on unknown sizes.
        The result's shape: ``reshape``'s is its argument's; the ``unique_*`` functions'
        and ``nonzero``'s sizes are unknown; any other's sizes are those the function
        gives stand-ins of two sizes for each unknown one (a size that differs between
        them is unknown).  None where every stand-in fails (an invalid call)."""
        numpy_function = _numpy_function(function)
        small = large = None
        unknown = function in _DATA_DEPENDENT
        # pairs of sizes, then (where none fits: a reshape to 5 columns, a square matrix)
        # each size the call names, once: every size of that result is unknown then
        for sizes in (*_STAND_IN_SIZES, *((n, n) for n in _sizes_in((args, kwargs)))):
            for fill in _FILLS:  # values that suit positions, decompositions, ...
                try:
                    small = numpy_function(*_stand_ins(args, sizes[0], fill),
                                           **_stand_ins(kwargs, sizes[0], fill))  # fmt: skip
                    large = numpy_function(*_stand_ins(args, sizes[1], fill),
                                           **_stand_ins(kwargs, sizes[1], fill))  # fmt: skip
                    break
                except Exception:
                    small = None
            if small is not None:
                unknown = unknown or sizes[0] == sizes[1]
                break
        if small is None:
            return None
        task = dask.delayed(_run_numpy, pure=True)(function, args, kwargs)
        if function == "reshape":
            shape = tuple(math.nan if n == -1 else n for n in (args[1] if len(args) > 1
                                                                else kwargs["shape"]))  # fmt: skip
            return da.from_delayed(task, shape=shape, dtype=small.dtype)
        return _lazy_result(task, small, large, unknown)

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
            if _needs_gather(key):
                return self._advanced(raw, key)
            if isinstance(key, (da.Array, np.ndarray)) and key.dtype == np.bool_:
                if key.ndim == 0:
                    return raw[None][da.reshape(da.asarray(key), (1,))]  # a new axis, 1 or 0
                if 0 in key.shape:  # Dask fails on these
                    return da.zeros((0, *raw.shape[key.ndim:]), dtype=raw.dtype)
                key = da.asarray(key)  # Dask takes NumPy masks of one dimension only
                if 1 < key.ndim < raw.ndim:  # nor a mask of some leading axes: merged
                    rows = reshape(raw, (-1, *raw.shape[key.ndim:]))
                    return rows[reshape(key, (-1,))]
            try:
                return raw[key]
            except ValueError:
                if None not in self.shape_of(raw):
                    raise
            sized = raw.copy().compute_chunk_sizes()  # on a copy: the caller's keeps its graph
            return sized[key]
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
            picked = picked.copy().compute_chunk_sizes()
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

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """A new Dask array with ``value`` written at ``key``; ``raw`` (and every array
        sharing its graph) is unchanged.  ``value`` must fit ``raw``'s dtype without a
        downcast (`TypeError` otherwise)."""
        target = self.dtype_name(raw.dtype)
        if isinstance(value, (bool, int, float, complex)):
            value = self.setitem_scalar(target, plain_scalar(value))
        else:
            source = self.dtype_name(value.dtype)
            if promote(source, target) != target and not truncates(source, target):
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
                return da.where(mask[(...,) + (None,) * rest], value, raw)
            unknown = isinstance(value, da.Array) and None in self.shape_of(value)
            if unknown or (isinstance(mask, da.Array) and np.ndim(value) == rest + 1):
                # values of unknown count (another mask's result), or one value per row
                # that a lazy mask selects (Dask cannot check a count it does not know
                # yet: "cannot broadcast shape (2,) to shape (nan,)"): one task writes them
                write = dask.delayed(_keyed_write, pure=True)(raw, mask, value)
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
        result = raw.copy()  # a new Array object on the same graph: writing rebinds it only
        try:
            result[key] = value
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
            raw = raw.copy().compute_chunk_sizes()
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
        write = dask.delayed(_keyed_write, pure=True)(raw, key, value)
        return da.from_delayed(write, shape=raw.shape, dtype=raw.dtype).rechunk(raw.chunks)

    # -- creation --------------------------------------------------------------------------
    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """A Dask array passes through (``copy=True``: a new graph node); anything else
        becomes a NumPy array by the NumPy backend's rules (Python scalars, nested lists,
        buffers; ``copy=False`` raises for those), then one Dask chunk per ``"auto"`` size."""
        if device is not None:
            self.native_device(device, "asarray")
        target = self.check_dtype(dtype, "asarray")
        if isinstance(obj, da.Array):
            if target is not None and obj.dtype != target:
                if copy is False:
                    raise self.error("asarray", f"copy=False, but {obj.dtype} to {target} "
                                                "needs a copy")  # fmt: skip
                return obj.astype(target)
            return obj.copy() if copy else obj
        if copy is False:
            raise self.error("asarray", f"copy=False, but making a Dask array of "
                                        f"{type(obj).__name__} needs a copy")  # fmt: skip
        host = NUMPY.asarray(obj, dtype=target, copy=True)
        return da.from_array(np.asarray(host), chunks="auto")

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """From two ``arange``s (``dask.array.eye`` loses chunks for some ``k``)."""
        if device is not None:
            self.native_device(device, "eye")
        target = self.check_dtype(dtype, "eye") or np.dtype(np.float64)
        k = self._check_eye(n_rows, n_cols, k)
        rows, cols = self._check_shape((n_rows, n_rows if n_cols is None else n_cols), "eye")
        grid = da.arange(rows)[:, None] + k == da.arange(cols)[None, :]
        return grid.astype(target)

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        """The last value is ``stop`` exactly with ``endpoint`` (Dask's steps may miss it)."""
        result = super().linspace(start, stop, num, dtype=dtype, device=device, endpoint=endpoint)
        if not endpoint or num < 2:
            return result
        return da.where(da.arange(num, chunks=result.chunks) == num - 1,
                        np.asarray(stop, dtype=result.dtype), result)  # fmt: skip

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """A Dask array is taken as it is (``copy=True``: a new graph node); anything else
        is copied into one chunk."""
        if device is not None:
            self.native_device(device, "from_dlpack")
        if isinstance(x, da.Array):
            return x.copy() if copy else x
        check_dlpack(self, x)
        if copy is False:
            raise self.error("from_dlpack", "copy=False: a Dask array cannot share a DLPack "
                                            "buffer (it always holds its own chunks)")  # fmt: skip
        return da.from_array(np.from_dlpack(x, copy=True), chunks="auto")

    # -- element-wise: NumPy's deviations fixed chunk by chunk --------------------------------
    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """``floor(x1 / x2)`` for infinite operands (NumPy's ``//`` rounds like Python's)."""
        return elementwise(NUMPY.floor_divide, x1, x2)

    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """``(-inf) ** 0.5`` is +inf and ``(-0.) ** 0.5`` is +0 (NumPy takes ``sqrt``)."""
        return elementwise(NUMPY.pow, x1, x2)

    @translated
    def expm1(self, x: Any, /) -> Any:
        """Complex special cases with an infinite or NaN real part, from the spec's table."""
        return elementwise(NUMPY.expm1, x)

    @translated
    def tan(self, x: Any, /) -> Any:
        """Chunk by chunk through the NumPy backend's ``tan`` (complex infinities)."""
        return elementwise(NUMPY.tan, x)

    @translated
    def tanh(self, x: Any, /) -> Any:
        """Chunk by chunk through the NumPy backend's ``tanh`` (``tanh(inf + yj)`` is
        ``1 + 0j`` with ``y``'s sign: NumPy's kernel takes it from ``sin(2y)``)."""
        return elementwise(NUMPY.tanh, x)

    @translated
    def log1p(self, x: Any, /) -> Any:
        """Complex ``x`` near 0 keeps its digits (NumPy computes ``log(1 + x)``)."""
        return elementwise(NUMPY.log1p, x)

    @translated
    def sign(self, x: Any, /) -> Any:
        """Complex: NaN + NaN j whenever a component is NaN."""
        return elementwise(NUMPY.sign, x)

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
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        """The number of arrays is ``x``'s size along ``axis``: where that is unknown
        (after a mask), ``x``'s chunk sizes are computed first (on a copy)."""
        axis = self.normalize_axis(axis, x.ndim, "unstack")
        if math.isnan(x.shape[axis]):
            x = x.copy().compute_chunk_sizes()
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
        positions = dask.delayed(_repeat_positions, pure=True)(size, repeats, template)
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
        return self._f.prod(x, axis=self._axes(x, axis, "prod"), dtype=self.check_dtype(dtype, "prod"),
                        keepdims=keepdims)  # fmt: skip

    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._f.sum(x, axis=self._axes(x, axis, "sum"), dtype=self.check_dtype(dtype, "sum"),
                       keepdims=keepdims)  # fmt: skip

    # -- sets --------------------------------------------------------------------------------
    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """Lazy: one task runs NumPy's unique on the flattened array; values, indices and
        counts have an unknown size, the inverse is shaped like ``x``."""
        flat = x if None in self.shape_of(x) else whole_axes(reshape(x, (-1,)), (0,))
        parts = dask.delayed(_unique_parts, nout=4, pure=True)(flat, x.shape)
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


#: single-precision dtype -> the dtype its moments accumulate in, and the real dtype of
#: a complex one (``std``/``var`` of complex input are real).
_DOUBLE = {np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.complex64): np.dtype(np.complex128)}
_REAL = {np.dtype(np.complex64): np.dtype(np.float32)}


def checked_indices(backend: Any, indices: Any, size: float, axis: int, function: str) -> Any:
    """Dask integer ``indices`` into an axis of ``size`` that raise `IndexError` (the
    contract's, naming ``function``) for an entry out of range when they are computed:
    the check is lazy, as the indexing is; NumPy indices and unknown sizes pass as they are."""
    if not isinstance(indices, da.Array) or math.isnan(size):
        return indices
    template = backend.error(function, "", IndexError)
    return da.map_blocks(_in_range, indices, int(size), axis, template, dtype=indices.dtype)


def _in_range(block: Any, size: int, axis: int, template: Exception) -> Any:
    """``block`` of indices, or the `IndexError` of ``template``'s kind and prefix."""
    outside = (block < -size) | (block >= size)
    if np.any(outside):
        raise type(template)(f"{template}index {block[outside].flat[0]} is out of range for "
                             f"axis {axis} of size {size}")  # fmt: skip
    return block


def _needs_gather(key: Any) -> bool:
    """Whether ``key`` holds integer arrays Dask does not index with as NumPy does: two or
    more, one that is not 1-D, or one beside an int or None (NumPy moves the arrays'
    dimensions first when an int and an array are apart)."""
    items = key if type(key) is tuple else (key,)
    arrays = [k for k in items if isinstance(k, (da.Array, np.ndarray)) and k.dtype.kind in "iu"]
    if not arrays:
        return False
    if len(arrays) > 1 or arrays[0].ndim != 1:
        return True
    return any(k is None or (type(k) is int) for k in items)


def _selects_nothing(raw: Any, key: Any) -> bool:
    """Whether a key of NumPy index arrays selects no element (an empty index array)."""
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, np.ndarray) and k.dtype.kind in "iu" and k.size == 0
               for k in parts)  # fmt: skip


#: Functions whose result sizes depend on the values, not only on the input's sizes.
_DATA_DEPENDENT = frozenset({"unique_all", "unique_counts", "unique_inverse", "unique_values",
                             "nonzero", "repeat"})  # fmt: skip
#: The sizes stand-ins give an unknown size (`DaskBackend.lazily`), tried in turn: many
#: divisors, so that a reshape to a few columns fits one pair.
_STAND_IN_SIZES = ((12, 24), (60, 120), (420, 840))
#: How stand-ins are filled, tried in turn: distinct values (1, 2, 3, ...), identity
#: matrices (decompositions, solves), zeros (positions: ``take``, ``take_along_axis``).
_FILLS = ("distinct", "identity", "zeros")
#: The most elements a stand-in may have.
_STAND_IN_LIMIT = 2**18


def _same_sizes(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether shapes ``a`` and ``b`` may be equal (an unknown size, NaN, matches any)."""
    return len(a) == len(b) and all(m == n or math.isnan(m) or math.isnan(n)
                                    for m, n in zip(a, b))  # fmt: skip


def _reduced_shape(shape: tuple[int, ...], axis: Any, keepdims: bool) -> tuple[int, ...]:
    """The shape of a reduction of an array of ``shape`` over ``axis`` (None, an int or a
    tuple of ints, already checked)."""
    ndim = len(shape)
    if axis is None:
        axes = set(range(ndim))
    else:
        axes = {a % ndim for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _has_unknown(obj: Any) -> bool:
    """Whether ``obj`` (arguments: arrays, in lists, tuples and dicts) holds a Dask array
    of unknown size."""
    if isinstance(obj, da.Array):
        return any(math.isnan(n) for n in obj.shape)
    if isinstance(obj, (list, tuple)):
        return any(_has_unknown(o) for o in obj)
    if isinstance(obj, dict):
        return any(_has_unknown(o) for o in obj.values())
    return False


def _sizes_in(obj: Any) -> list[int]:
    """The known sizes of the arrays and the ints (shapes, counts) in ``obj``, and 1, 2
    and 3: sizes an unknown one may have to take for the call to be valid."""
    found: set[int] = {1, 2, 3}
    if isinstance(obj, da.Array):
        found.update(int(n) for n in obj.shape if not math.isnan(n))
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            found.update(_sizes_in(o))
    elif isinstance(obj, dict):
        found.update(_sizes_in(list(obj.values())))
    elif isinstance(obj, int) and not isinstance(obj, bool) and 0 < obj <= 4096:
        found.add(obj)
    return sorted(found)


def _stand_ins(obj: Any, size: int, fill: str) -> Any:
    """``obj`` with each Dask array as a NumPy array of its dtype and shape, ``size`` for
    each unknown size, filled as ``fill`` says (`_FILLS`; `ValueError` beyond
    `_STAND_IN_LIMIT` elements)."""
    if isinstance(obj, da.Array):
        shape = tuple(size if math.isnan(n) else int(n) for n in obj.shape)
        count = math.prod(shape)
        if count > _STAND_IN_LIMIT:
            raise ValueError(f"a stand-in of shape {shape} is too large")
        if fill == "distinct":
            values = np.arange(1, count + 1).reshape(shape)
            return values % 2 == 0 if obj.dtype == np.bool_ else values.astype(obj.dtype)
        if fill == "identity" and len(shape) >= 2:
            return np.broadcast_to(np.eye(shape[-2], shape[-1]), shape).astype(obj.dtype)
        return np.zeros(shape, obj.dtype)
    if isinstance(obj, list):
        return [_stand_ins(o, size, fill) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_stand_ins(o, size, fill) for o in obj)
    if isinstance(obj, dict):
        return {k: _stand_ins(v, size, fill) for k, v in obj.items()}
    return obj


def _numpy_function(function: str) -> Any:
    """The NumPy backend's function named ``function`` (``linalg.``/``fft.`` included)."""
    owner: Any = NUMPY
    for part in function.split("."):
        owner = getattr(owner, part, None)
    return owner


def _run_numpy(function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The NumPy backend's ``function`` on computed arguments (a task of `lazily`)."""
    result = _numpy_function(function)(*args, **kwargs)
    if isinstance(result, (list, tuple)):
        return type(result)(np.asarray(r) for r in result) if not hasattr(result, "_fields") \
            else type(result)(*(np.asarray(r) for r in result))  # fmt: skip
    return np.asarray(result)


def _lazy_result(task: Any, small: Any, large: Any, unknown: bool) -> Any:
    """Dask arrays of ``task``'s result, shaped as stand-in results ``small`` and
    ``large`` agree (sizes that differ, or all sizes where ``unknown``, are NaN)."""
    if isinstance(small, (list, tuple)):
        parts = [_lazy_result(task[i], one, other, unknown)
                 for i, (one, other) in enumerate(zip(small, large))]  # fmt: skip
        return type(small)(*parts) if hasattr(small, "_fields") else type(small)(parts)
    small, large = np.asarray(small), np.asarray(large)
    shape = tuple(math.nan if unknown or a != b else a for a, b in zip(small.shape, large.shape))
    return da.from_delayed(task, shape=shape, dtype=small.dtype)


def _repeat_positions(size: int, repeats: Any, template: Exception) -> Any:
    """The positions along an axis of ``size`` that ``repeat`` takes, each as often as
    ``repeats`` says (computed with the graph)."""
    counts = np.asarray(repeats)
    if np.any(counts < 0):
        raise type(template)(f"{template}repeats must be non-negative, got "
                             f"{counts[counts < 0].flat[0]}")  # fmt: skip
    return np.repeat(np.arange(size), np.broadcast_to(counts.astype(np.intp), (size,)))


def _has_bool(key: Any) -> bool:
    """Whether ``key`` holds a Python bool (a 0-d mask)."""
    if type(key) is tuple:
        return any(type(k) is bool for k in key)
    return type(key) is bool


def _bools_as_new_axes(key: Any) -> Any:
    """``key`` with each Python bool as None (a new axis; `_bool_axes` empties False's)."""
    if type(key) is tuple:
        return tuple(None if type(k) is bool else k for k in key)
    return None


def _bool_axes(result: Any, key: Any, ndim: int) -> Any:
    """``result`` of `_bools_as_new_axes`'s key with the axes of False emptied: NumPy's
    ``x[False]`` selects nothing along a new axis."""
    items = key if type(key) is tuple else (key,)
    consumed = sum(k is not None and k is not Ellipsis and type(k) is not bool and not (
        isinstance(k, (da.Array, np.ndarray)) and k.dtype == np.bool_) for k in items)
    axis, empty = 0, []
    for k in items:
        if type(k) is bool:
            if not k:
                empty.append(axis)
            axis += 1
        elif k is None or isinstance(k, slice):
            axis += 1
        elif k is Ellipsis:
            axis += ndim - consumed
        elif isinstance(k, (da.Array, np.ndarray)):
            axis += k.ndim if k.dtype != np.bool_ else 1
    if not empty:
        return result
    return result[tuple(slice(0, 0) if a in empty else slice(None) for a in range(result.ndim))]


def _plain_slice(k: slice) -> slice:
    """A slice whose bounds are NumPy integers (or 0-d arrays) with Python int bounds."""
    bounds = (k.start, k.stop, k.step)
    if all(b is None or type(b) is int for b in bounds):
        return k
    return slice(*(b if b is None or isinstance(b, da.Array) else operator.index(b)
                   for b in bounds))  # fmt: skip


def _from_end(index: Any, size: int, lazy: bool) -> Any:
    """An integer index (an int, a NumPy or Dask array) with negative entries counted
    from the end of an axis of ``size`` (entries are range-checked already)."""
    if isinstance(index, int):
        index = np.asarray(index)
    if lazy:
        index = da.asarray(index)
        return da.where(index < 0, index + size, index)
    return np.where(index < 0, index + size, index)


def _keyed_write(raw: Any, key: Any, value: Any) -> Any:
    out = np.array(raw, copy=True)
    out[key] = value
    return out


def _take_last(x: Any, indices: Any) -> Any:
    return np.take_along_axis(x, indices, axis=-1)


def _sort_ascending(x: Any) -> Any:
    return NUMPY.sort(x, axis=-1)


def _sort_descending(x: Any) -> Any:
    return NUMPY.sort(x, axis=-1, descending=True)


def _argsort_ascending(x: Any) -> Any:
    return NUMPY.argsort(x, axis=-1)


def _argsort_descending(x: Any) -> Any:
    return NUMPY.argsort(x, axis=-1, descending=True)


#: The one Dask backend object (the native module exports it).
BACKEND = DaskBackend()

__all__ = ["BACKEND", "DaskBackend"]


def _contracted_sizes(b: Any, function: str, sizes: list[tuple[Any, Any]], x1: Any,
                      x2: Any) -> None:  # fmt: skip
    """`ValueError` where a pair of sizes that ``function`` contracts differ (sizes Dask
    does not know yet, NaN, are left to it)."""
    for s1, s2 in sizes:
        if not (math.isnan(s1) or math.isnan(s2)) and s1 != s2:
            raise b.error(function, f"contracted dimensions differ ({s1} and {s2}): shapes "
                          f"{x1.shape} and {x2.shape}")  # fmt: skip
