"""The Dask backend's core: hooks, arrays of unknown size (`DaskCore.recover`) and the helpers every chapter uses."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import array_api_compat.dask.array as cda
import dask
import dask.array as da
import numpy as np

from .._base import Backend
from .._base.core import NOT_RECOVERED
from .._base.hooks import NumPyDtypes
from ._chunks import NUMPY, known
from ._kept import KEPT


def _unique_parts(flat: Any, shape: tuple[float, ...]) -> tuple[Any, ...]:
    """NumPy's unique values, first indices, inverse (shaped ``shape``) and counts of
    one chunk holding the whole array (flattened, or in its shape where that had unknown
    sizes: ``shape`` holds NaN then)."""
    values, indices, inverse, counts = NUMPY._unique(np.reshape(flat, (-1,)), "unique_all")
    if any(math.isnan(n) for n in shape):
        shape = np.shape(flat)
    return values, indices, np.reshape(inverse, shape), counts


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


def _map_arrays(obj: Any, function: Callable[[Any], Any], kind: type = da.Array) -> Any:
    """``obj`` with ``function`` applied to each Dask array (or other ``kind``) in it
    (lists, tuples and dicts searched, other values kept)."""
    if isinstance(obj, kind):
        return function(obj)
    if isinstance(obj, list):
        return [_map_arrays(o, function, kind) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_map_arrays(o, function, kind) for o in obj)
    if isinstance(obj, dict):
        return {k: _map_arrays(v, function, kind) for k, v in obj.items()}
    return obj


def _reshape_target(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The shape a ``reshape`` call (the backend's arguments) asks for, as given."""
    return args[1] if len(args) > 1 else kwargs.get("shape", ())


def _known_reshape(function: str, args: tuple[Any, ...],
                   kwargs: dict[str, Any]) -> tuple[int, ...] | None:  # fmt: skip
    """The target of ``reshape`` of an array with one unknown size to a shape without -1
    whose element count the known sizes divide, else None: the target names the unknown
    size, and is the result's shape whatever the size (a million: beyond stand-ins); a
    size that does not fit raises `ValueError` when computed."""
    if function != "reshape" or not args or not isinstance(args[0], da.Array):
        return None
    shape = _reshape_target(args, kwargs)
    unknown = [n for n in args[0].shape if math.isnan(n)]
    if len(unknown) != 1 or not isinstance(shape, (tuple, list)) or -1 in shape:
        return None
    known = math.prod(int(n) for n in args[0].shape if not math.isnan(n))
    return tuple(shape) if known > 0 and math.prod(shape) % known == 0 else None


def _stand_ins(obj: Any, size: int, fill: str) -> Any:
    """``obj`` with each Dask array as a NumPy array of its dtype and shape, ``size`` for
    each unknown size, filled as ``fill`` says (`_FILLS`; `ValueError` beyond
    `_STAND_IN_LIMIT` elements)."""
    return _map_arrays(obj, lambda a: _stand_in(a, size, fill))


def _stand_in(obj: Any, size: int, fill: str) -> Any:
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


def task(function: Any, *args: Any, nout: int | None = None) -> Any:
    """``function(*args)`` as one Dask task (a `dask.Delayed`), each Dask array in
    ``args`` (lists, tuples and dicts searched) handed over as its whole NumPy value,
    joined from its chunks as built: each chunk is one positional argument of the task, so
    that Dask optimizes no graph on the way.

    ``dask.delayed`` optimizes, call by call, the graphs of the collections it finds as
    arguments or inside containers (an array; a list of an array's chunks).  Given the
    arrays, its optimizer gave a key a task that was not that array's (an alias to a
    rewritten getitem), and a later task whose graph held the same key read the wrong
    array: "operands could not be broadcast together with shapes (2,) (5,)" when computed
    (SciPy's ``cramervonmises`` loop: masked writes, one-task products, values of unknown
    size; `tests/test_dask_unknown_chunks.py`).  Given lists of chunks, it materializes
    and culls each graph: the loops of that test file took about a quarter longer."""
    chunks: list[Any] = []

    def slot(x: Any) -> _Slot:
        parts = x.to_delayed(optimize_graph=False)
        chunks.extend(parts.ravel().tolist())
        return _Slot(len(chunks) - parts.size, parts.shape)

    structure = _map_arrays(args, slot)
    return dask.delayed(_run_task, pure=True, nout=nout)(function, structure, *chunks)


class _Slot:
    """Where an array's chunks are among a task's positional arguments (`task`)."""

    __slots__ = ("start", "shape")

    def __init__(self, start: int, shape: tuple[int, ...]) -> None:
        self.start, self.shape = start, shape

    def __dask_tokenize__(self) -> tuple[str, int, tuple[int, ...]]:
        return ("eagerpy_xp-slot", self.start, self.shape)

    def whole(self, chunks: tuple[Any, ...]) -> Any:
        """The array's NumPy value, joined from its chunks."""
        count = math.prod(self.shape)
        return np.block(_nested(list(chunks[self.start: self.start + count]), self.shape))


def _nested(flat: list[Any], shape: tuple[int, ...]) -> Any:
    """``flat`` (in C order) as nested lists of ``shape``; a 0-d array of its one value."""
    if not shape:
        return np.asarray(flat[0])
    step = len(flat) // shape[0]
    return [_nested(flat[i * step: (i + 1) * step], shape[1:]) for i in range(shape[0])]


def _run_task(function: Any, structure: tuple[Any, ...], *chunks: Any) -> Any:
    """The task of `task`: ``function`` on ``structure`` with each slot's array joined."""
    return function(*_map_arrays(structure, lambda s: s.whole(chunks), _Slot))


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


def _contracted_sizes(b: Any, function: str, sizes: list[tuple[Any, Any]], x1: Any,
                      x2: Any) -> None:  # fmt: skip
    """`ValueError` where a pair of sizes that ``function`` contracts differ (sizes Dask
    does not know yet, NaN, are left to it)."""
    for s1, s2 in sizes:
        if not (math.isnan(s1) or math.isnan(s2)) and s1 != s2:
            raise b.error(function, f"contracted dimensions differ ({s1} and {s2}): shapes "
                          f"{x1.shape} and {x2.shape}")  # fmt: skip


class DaskCore(NumPyDtypes, Backend):
    """What every chapter of the Dask backend builds on."""

    name = "dask"
    _f: Any = cda
    native_types = (da.Array,)
    mutable = False
    writes_in_place = False

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
        """Computes the graph (from the small values computed before: `_kept`)."""
        return KEPT.compute(raw).item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        """Computes the graph (a new NumPy array: ``copy=False``, which NumPy's protocol
        reads as "never copy", is a `ValueError`)."""
        if copy is False:
            raise self.error("__array__", "a Dask array computes a new NumPy array: it "
                             "cannot be converted with copy=False")  # fmt: skip
        return np.asarray(KEPT.compute(raw), dtype=dtype)

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
        return np.asarray(KEPT.compute(raw)).__dlpack__(stream=stream, max_version=max_version,
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
        target = _known_reshape(function, args, kwargs)
        if target is not None:  # the result's shape, known: no stand-ins
            return da.from_delayed(task(_run_numpy, function, args, kwargs), shape=target,
                                   dtype=args[0].dtype)  # fmt: skip
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
        result = task(_run_numpy, function, args, kwargs)
        if function == "reshape":
            shape = tuple(math.nan if n == -1 else n for n in _reshape_target(args, kwargs))
            return da.from_delayed(result, shape=shape, dtype=small.dtype)
        return _lazy_result(result, small, large, unknown)
