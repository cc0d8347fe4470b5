"""The MLX backend's indexing and mutation: MLX's own indexing where it reads right, NumPy's meaning everywhere (docs/mlx.md)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import mlx.core as mx

from ..._detect import SCALAR_TYPES, plain_scalar
from .._base.core import raise_translated, translated
from .._base.keys import basic_in_range, without_leading_ones
from ._core import _WRITE_STREAMS, MAPPING, MLXCore, described, take


def _separated_arrays(items: Any) -> bool:
    """Whether the key ``items`` holds index arrays (and ints beside them) that are not
    next to each other: NumPy's rule puts their dimensions first."""
    parts = items if isinstance(items, tuple) else (items,)
    if not any(type(k) is mx.array for k in parts):
        return False
    advanced = [i for i, k in enumerate(parts) if type(k) in (mx.array, int)]
    return advanced[-1] - advanced[0] + 1 != len(advanced)


def _dims_used(k: Any) -> int:
    """How many axes of the indexed array one component of a key consumes."""
    if k is None or k is Ellipsis or isinstance(k, bool):
        return 0
    if type(k) is mx.array and k.dtype == mx.bool_:
        return k.ndim
    return 1


def _take_basic(raw: Any, key: Any) -> Any:
    """``raw[key]`` for a basic key MLX reads right (`MLXCore.index_case`), None for any
    other (an int out of range: MLX would read past the axis)."""
    return raw[key] if basic_in_range(raw.shape, key) else None


class MLXIndexing(MLXCore):
    """Indexing and mutation (a wrapped `Array`'s writes on their own stream)."""

    # -- indexing and mutation ---------------------------------------------------------------
    def index_case(self) -> tuple[Any, ...] | None:
        """A basic key whose ints are in range (`keys.basic_in_range`) is MLX's own
        indexing, negative steps too (`_take_basic`); `getitem` checks the rest."""
        return (mx.array, True, _take_basic, None, False)

    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]`` with the standard's keys: integers, slices (negative steps),
        ``None``, ``...``, integer arrays and boolean arrays.  Integers, and integer arrays
        whose values exist already, out of range raise `IndexError` (MLX would read
        garbage; `_check_index_array`); a boolean array is evaluated to find its positions
        (the result's shape depends on them)."""
        function = "__getitem__"
        items, empty = self._key(raw, key, function)
        try:
            result = raw[items]
        except Exception as exc:
            raise self._key_error(exc, key, function) from exc
        if empty is not None:  # a False component: its new axis has no element
            result = result[(slice(None),) * empty + (slice(0, 0),)]
        return result

    def _key_error(self, exc: Exception, key: Any, function: str) -> Exception:
        """The contract's error for a key MLX refused: `IndexError`."""
        error = self.translate(exc, function)
        if isinstance(error, (MemoryError, NotImplementedError, IndexError)):
            return error
        return self.error(function, f"invalid index {key!r:.80}: "
                          f"{str(error).partition(': ')[2]}", IndexError)  # fmt: skip

    def _key(self, raw: Any, key: Any, function: str) -> tuple[Any, int | None]:
        """``key`` checked against ``raw``'s shape and made into one MLX reads right, and
        the axis of the result that a ``False`` component empties (or None).  `IndexError`
        for a bad component or an index out of range; boolean arrays become integer arrays
        of their positions, a Python bool a new axis."""
        items = key if isinstance(key, tuple) else (key,)
        shape = tuple(raw.shape)
        items = tuple(self._key_item(k, function) for k in items)
        ellipses = sum(k is Ellipsis for k in items)
        if ellipses > 1:
            raise self.error(function, f"index {key!r:.80} has more than one ellipsis",
                             IndexError)  # fmt: skip
        used = [_dims_used(k) for k in items]
        if sum(used) > len(shape):
            raise self.error(function, f"index {key!r:.80} has {sum(used)} indices for an "
                             f"array of {len(shape)} dimensions", IndexError)  # fmt: skip
        out: list[Any] = []
        empty: int | None = None
        produced = 0  # dimensions of the result made by the components so far
        arrays = False
        dim = 0
        for i, k in enumerate(items):
            if k is Ellipsis:
                dim = len(shape) - sum(used[i + 1:])
                produced += dim - sum(used[:i])
                out.append(k)
                continue
            if type(k) is mx.array and k.dtype == mx.bool_ and k.ndim == 0:
                k = bool(self._mask_positions(k, (), dim, function))
            if isinstance(k, bool):
                if not k and empty is None:
                    empty = produced
                out.append(None)
                produced += 1
                continue
            if type(k) is int:
                if not -shape[dim] <= k < shape[dim]:
                    raise self.error(function, f"index {k} is out of bounds for axis {dim} "
                                     f"with size {shape[dim]}", IndexError)  # fmt: skip
            elif type(k) is mx.array:
                arrays = True
                if k.dtype == mx.bool_:
                    out.extend(self._mask_positions(k, shape[dim:dim + k.ndim], dim, function))
                    dim += used[i]
                    continue
                self._check_index_array(k, shape[dim], dim, function)
            produced += 0 if type(k) is int else 1
            out.append(k)
            dim += used[i]
        if empty is not None and arrays:
            raise self.error(function, f"index {key!r:.80}: a Python bool beside index arrays "
                             "is not supported", IndexError)  # fmt: skip
        if len(out) == 1 and not isinstance(key, tuple):
            return out[0], empty
        return tuple(out), empty

    def _key_item(self, k: Any, function: str) -> Any:
        """One component of a key in the form `_key` reads (an `Array` as its array)."""
        if self.wrapper_type is not None and type(k) is self.wrapper_type:
            k = k.raw
        if k is None or k is Ellipsis or type(k) in (bool, int, slice, mx.array):
            if type(k) is slice:
                for part in (k.start, k.stop, k.step):
                    if part is not None and (isinstance(part, bool) or not hasattr(
                            type(part), "__index__")):  # fmt: skip
                        raise self.error(function, f"slice {k!r} has a non-integer part",
                                         IndexError)  # fmt: skip
                if k.step == 0:
                    raise self.error(function, f"slice {k!r} has step 0", IndexError)
            if type(k) is mx.array and k.dtype != mx.bool_ and self._kinds.get(k.dtype) not in (
                    "signed integer", "unsigned integer"):  # fmt: skip
                raise self.error(function, f"index arrays must have an integer or boolean "
                                 f"dtype, got {k.dtype}", IndexError)  # fmt: skip
            return k
        import numpy as np  # (NumPy scalars, NumPy arrays and lists, as NumPy reads them)

        if isinstance(k, (np.integer,)) or (hasattr(type(k), "__index__")
                                            and not isinstance(k, (np.bool_, np.ndarray))):
            return operator.index(k)
        if isinstance(k, np.bool_):
            return bool(k)
        if isinstance(k, np.ndarray) or type(k) is list:  # NumPy's meaning: index arrays
            try:
                host = np.asarray(k)
            except (ValueError, TypeError):  # a ragged list: the IndexError below
                host = np.asarray(0.0)
            if host.dtype == np.bool_ or host.dtype.kind in "iu":
                if host.ndim == 0:
                    return bool(host) if host.dtype == np.bool_ else int(host)
                return mx.array(host)
        raise self.error(function, f"invalid index {k!r:.80} ({described(k)}): keys are ints, "
                         "slices, None, ..., and integer or boolean MLX arrays", IndexError)

    def _mask_positions(self, mask: Any, dims: tuple[int, ...], dim: int,
                        function: str) -> list[Any]:  # fmt: skip
        """A boolean mask over ``dims`` as the integer arrays of its true positions: the
        mask is evaluated (its count of true values is the result's size)."""
        import numpy as np

        if tuple(mask.shape) != dims:
            raise self.error(function, f"boolean index of shape {tuple(mask.shape)} does not "
                             f"match the indexed dimensions {dims} (from axis {dim})",
                             IndexError)  # fmt: skip
        values = self.host_values(mask, function, "a boolean index selects as many elements "
                                  "as it holds True values")  # fmt: skip
        if mask.ndim == 0:  # a 0-d mask: one position (a new axis, kept) or none
            return [None] if values else []
        return [mx.array(p.astype(np.int64)) for p in np.nonzero(values)]

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """The array ``raw`` with ``value`` written at ``key``: a new array object (a
        reshape of ``raw`` to its own shape, which keeps gradients), whose graph node the
        write replaces; ``raw`` itself, which other references and threads may hold and
        read, is left as it is (MLX's own ``raw[k] = v`` replaces the node of the object
        it is given).  The key and the value are checked in full before anything is
        written; ``value`` must fit ``raw``'s dtype without a downcast."""
        function = "__setitem__"
        value = self._setitem_value(raw, value)
        raw = raw.reshape(raw.shape)
        if type(key) is mx.array and key.dtype == mx.bool_ and value.ndim == 0 \
                and 0 < key.ndim <= raw.ndim and tuple(key.shape) == tuple(raw.shape[:key.ndim]):  # fmt: skip
            # one value where a mask over leading axes is True: one lazy where, no
            # data-dependent shape (so mx.compile and mx.vmap take it too)
            mask = key.reshape(*key.shape, *(1,) * (raw.ndim - key.ndim))
            raw[...] = mx.where(mask, value, raw)
            return raw
        items, empty = self._key(raw, key, function)
        try:
            target_shape = list(raw[items].shape)
        except Exception as exc:  # index arrays that do not broadcast together
            raise self._key_error(exc, key, function) from exc
        try:
            if empty is not None:  # a False component selects nothing on its new axis
                target_shape[empty] = 0
            value = mx.broadcast_to(without_leading_ones(value, len(target_shape)),
                                    target_shape)  # fmt: skip
        except Exception as exc:
            error = self.translate(exc, function)
            raise (error if isinstance(error, IndexError) else self.error(
                function, f"value of shape {tuple(value.shape)} does not fit the selection "
                f"of index {key!r:.80}")) from exc  # fmt: skip
        if empty is not None or 0 in target_shape:
            return raw  # nothing is selected
        parts = items if isinstance(items, tuple) else (items,)
        if any(k is None for k in parts):  # new axes select nothing: MLX refuses them here
            items = tuple(k for k in parts if k is not None) or Ellipsis
            value = value.reshape(raw[items].shape)
        try:
            if MAPPING[0]:  # mx.vmap writes an unmapped value into the first example only
                selected = raw[items]
                value = mx.where(mx.equal(selected, selected), value, value)  # now mapped too
            if _separated_arrays(items):
                # NumPy (and MLX's own read) put the dimensions of index arrays apart from
                # each other first; MLX's write keeps them in place: through the positions
                positions = mx.arange(raw.size, dtype=mx.int64).reshape(raw.shape)[items]
                flat = raw.reshape(-1)
                flat[positions.reshape(-1)] = value.reshape(-1)
                raw[...] = flat.reshape(raw.shape)
            else:
                raw[items] = value
        except Exception as exc:
            raise_translated(self, exc, function)
        return raw

    def _setitem_value(self, raw: Any, value: Any) -> Any:
        name = self._name(raw)
        if type(value) in SCALAR_TYPES:
            value = self.setitem_scalar(name, plain_scalar(value))
            return self.scalar_array(value, raw.dtype, "__setitem__")
        if self.wrapper_type is not None and type(value) is self.wrapper_type:
            value = value.raw
        if type(value) is not mx.array:
            raise self.error("__setitem__", f"value must be an MLX array or a Python scalar, "
                             f"got {described(value)}", TypeError)  # fmt: skip
        self.check_stored_dtype(self._name(value), name)
        return value if value.dtype == raw.dtype else value.astype(raw.dtype)

    def run_write(self, write: Callable[[], list[tuple[Any, Any]]], operand: Any) -> Any:
        """A wrapped `Array`'s write, under its write lock, made readable from every thread.

        MLX evaluates a lazy array only in the thread whose stream built each node of
        its graph (another thread gets ``RuntimeError: There is no Stream(cpu, N) in
        current thread``; each thread has its own default stream).  So ``operand`` (the
        value written, or the in-place operator's other operand) is evaluated here, in
        the thread that most likely built it, and the write's own nodes are built on a
        stream every thread may evaluate (`mx.new_thread_unsafe_stream`: the write lock
        orders the nodes built on it).  The new arrays are then evaluated here, before
        they are stored, where that can be done: no other thread evaluates them at the
        same time (MLX may crash then), a reader in any thread reads memory, and writes
        in a loop do not grow one graph.  Where it cannot (the array written to was made
        lazily in another thread), they stay lazy: nodes of that thread's stream and of
        the shared one, which that thread (or, once evaluated, any) can read.
        """
        if type(operand) is mx.array:
            try:
                mx.eval(operand)
            except (RuntimeError, ValueError):  # another thread's graph, or traced (vmap,
                pass  # compile): it stays as it is
        device = mx.default_device()
        # keyed by the device's repr ("Device(cpu, 0)"): an ``mx.Device`` compares equal
        # to another of the same device but hashes by identity, and each call of
        # ``default_device()`` gives a new one, so a dict keyed by it never hits; each
        # write then made a new stream, and MLX keeps a thread per stream for the life of
        # the process (SciPy's test suite reached 32,000 and thread creation failed)
        key = repr(device)
        stream = _WRITE_STREAMS.get(key)
        if stream is None:
            stream = _WRITE_STREAMS.setdefault(key, mx.new_thread_unsafe_stream(device))
        with mx.stream(stream):
            stored = write()
        try:
            mx.eval(*(new for _, new in stored))
        except (RuntimeError, ValueError):  # a graph of another thread's stream, evaluated
            pass  # there; or traced (vmap, compile), evaluated by the transform
        return stored

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        """An in-place operator's result, checked, as the array's new value (the wrapped
        `Array` rebinds to it; ``raw``, which others may hold, is left as it is)."""
        if result.dtype != raw.dtype or tuple(result.shape) != tuple(raw.shape):
            return self.in_place_result(raw, result, function)  # cast back, or the error
        return result

    # -- indexing ---------------------------------------------------------------------------
    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """Indices out of range raise `IndexError` where their values exist already (MLX
        would read garbage; an index array that is still a graph is not evaluated for the
        check: docs/mlx.md)."""
        x, indices = self._raw(x, "take"), self._raw(indices, "take")
        if axis is None:
            if x.ndim != 1:
                raise self.error("take", f"axis is required for a {x.ndim}-d array")
            axis = 0
        axis = self.normalize_axis(axis, x.ndim, "take")
        if indices.ndim != 1:
            raise self.error("take", f"indices must be 1-d, got shape {tuple(indices.shape)}")
        self._check_index_array(indices, x.shape[axis], axis, "take")
        return take(x, indices, axis)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        x, indices = self._raw(x, "take_along_axis"), self._raw(indices, "take_along_axis")
        axis = self.normalize_axis(axis, x.ndim, "take_along_axis")
        if indices.ndim != x.ndim:
            raise self.error("take_along_axis", f"indices must have {x.ndim} dimensions like x, "
                             f"got shape {tuple(indices.shape)}")  # fmt: skip
        self._check_index_array(indices, x.shape[axis], axis, "take_along_axis")
        shape = [max(a, b) if min(a, b) != 0 else 0 for a, b in zip(x.shape, indices.shape)]
        shape[axis] = indices.shape[axis]
        for i, (a, b) in enumerate(zip(x.shape, indices.shape)):
            if i != axis and a != b and 1 not in (a, b):
                raise self.error("take_along_axis", f"shapes {tuple(x.shape)} and "
                                 f"{tuple(indices.shape)} do not broadcast")  # fmt: skip
        x_shape = list(shape)
        x_shape[axis] = x.shape[axis]
        return mx.take_along_axis(mx.broadcast_to(x, x_shape), mx.broadcast_to(indices, shape),
                                  axis=axis)  # fmt: skip
