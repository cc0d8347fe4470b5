"""Indexing on TensorFlow: every standard key for reading and functional writing.

``getitem`` adds integer-array (NumPy "advanced") and boolean-mask indexing to
TensorFlow's strided slices; ``setitem`` returns a new tensor, written with
``tensor_scatter_nd_update`` at the flat positions the same key selects.
"""

from __future__ import annotations

import operator
from typing import Any

import tensorflow as tf

from ..._detect import SCALAR_TYPES, plain_scalar
from .._base.core import raise_translated, stores, translated
from .._base.keys import basic_in_range, selects_nothing, standard_key
from ._core import INTEGRAL_KINDS, TFBase
from ._eager import EAGER, translate
from ._ranks import MAX_KERNEL_RANK, basic_slice, positions, select


class IndexingMixin(TFBase):
    """``getitem``/``setitem`` hooks, ``take`` and ``take_along_axis``."""

    def index_case(self) -> tuple[Any, ...] | None:
        """A basic key of an eager tensor whose ints are in range: one ``StridedSlice``
        (`_take_basic`), what TensorFlow's own ``x[key]`` runs after building its
        arguments (a Python loop and three tensors each time; here cached)."""
        return (EAGER, True, _take_basic, None, False)  # (`array_type`, set later)

    def _key_tuple(self, key: Any) -> tuple[Any, ...]:
        key = standard_key(key, tf.constant, self, "__getitem__")  # NumPy's index arrays
        items = key if type(key) is tuple else (key,)
        out: list[Any] = []
        for k in items:
            if type(k) is self.wrapper_type:
                k = k.raw
            if isinstance(k, (tf.Tensor, tf.Variable)):
                k = self.tensor(k, "__getitem__")
                if self.kind(k) not in ("bool", *INTEGRAL_KINDS):
                    raise self.error("__getitem__", f"array indices must be integer or "
                                     f"boolean, got {self.dn(k)}", IndexError)  # fmt: skip
            elif hasattr(k, "__index__") and not isinstance(k, bool):
                k = int(k.__index__())
            elif isinstance(k, slice):  # bounds may be 0-d integer arrays (`x[:, :rank]`)
                k = slice(*(self._slice_bound(v) for v in (k.start, k.stop, k.step)))
                if type(k.step) is int and k.step == 0:  # (TensorFlow's kernel logs it)
                    raise self.error("__getitem__", f"slice {k!r} has step 0", IndexError)
            elif not (k is None or k is Ellipsis or isinstance(k, (bool, slice))):
                raise self.error("__getitem__", f"unsupported index {k!r}", IndexError)
            out.append(k)
        if sum(k is Ellipsis for k in out) > 1:
            raise self.error("__getitem__", "an index can only have a single ellipsis",
                             IndexError)  # fmt: skip
        return tuple(out)

    def _slice_bound(self, v: Any) -> Any:
        """A slice bound TensorFlow takes: a Python int, or an int32 tensor (graph mode)."""
        if type(v) is self.wrapper_type:
            v = v.raw
        if isinstance(v, (tf.Tensor, tf.Variable)):
            return tf.cast(v, tf.int32) if tf.is_symbolic_tensor(v) else int(v)
        return v if v is None else operator.index(v)

    def _is_mask(self, k: Any) -> bool:
        return isinstance(k, bool) or (isinstance(k, tf.Tensor) and k.dtype == tf.bool)

    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]``; a key TensorFlow refuses raises `IndexError` naming it."""
        try:
            return self._getitem(raw, key)
        except Exception as exc:
            error = self.translate(exc, "__getitem__")
            if isinstance(error, (TypeError, ValueError)):  # the key, whatever TF says
                error = self.error("__getitem__", str(error).partition(": ")[2], IndexError)
            if error is exc:
                raise
            raise error from exc

    def _getitem(self, raw: Any, key: Any) -> Any:
        x = self.tensor(raw, "__getitem__")
        items = self._key_tuple(key)
        if len(items) == 1 and self._is_mask(items[0]):
            return self._mask_index(x, items[0])
        if not any(isinstance(k, tf.Tensor) or isinstance(k, bool) for k in items):
            self._check_ints(x, items)
            return self._sliced(x, items) if items else x
        try:
            return self._advanced(x, items)
        except tf.errors.OpError as error:  # integer array indices out of range
            raise translate("__getitem__", error) from error

    def _check_ints(self, x: Any, items: tuple[Any, ...]) -> None:
        """`IndexError` for more indices than dimensions or a Python int out of range,
        naming the index, the axis and its size (TensorFlow's error names the wrong index
        and its kernel logs C++ lines)."""
        shape = tuple(x.shape)
        used = [0 if k is None or k is Ellipsis else 1 for k in items]
        if sum(used) > len(shape):
            raise self.error("__getitem__", f"{sum(used)} indices for an array of "
                             f"{len(shape)} dimensions", IndexError)  # fmt: skip
        dim = 0
        for i, k in enumerate(items):
            if k is Ellipsis:
                dim = len(shape) - sum(used[i + 1:])
            elif type(k) is int:
                size = shape[dim]
                if size is not None and not -size <= k < size:
                    raise self.error("__getitem__", f"index {k} is out of bounds for axis "
                                     f"{dim} with size {size}", IndexError)  # fmt: skip
            dim += used[i]

    def _sliced(self, x: Any, items: tuple[Any, ...]) -> Any:
        """``x[items]`` for a basic key, also beyond the 8 dimensions of TensorFlow's
        strided slice (`_ranks.basic_slice`)."""
        return basic_slice(x, items)

    def _mask_index(self, x: Any, mask: Any) -> Any:
        self.refuse_under_xla("__getitem__", "a boolean mask as the index: a result whose shape depends on the array's values")
        if isinstance(mask, bool) or self.ndim(mask) == 0:
            m = tf.reshape(tf.constant(mask) if isinstance(mask, bool) else mask, [1])
            return tf.boolean_mask(tf.expand_dims(x, 0), m)
        n = self.ndim(mask)
        if n > self.ndim(x):
            raise self.error("__getitem__", f"a {n}-d mask cannot index a {self.ndim(x)}-d "
                             "array", IndexError)  # fmt: skip
        if selects_nothing(tuple(mask.shape), tuple(x.shape)):
            return tf.zeros((0, *x.shape[n:]), x.dtype)
        for a, b in zip(mask.shape, x.shape[:n]):
            if a is not None and b is not None and a != b:
                raise self.error("__getitem__", f"mask shape {tuple(mask.shape)} does not "
                                 f"match array shape {tuple(x.shape)}", IndexError)  # fmt: skip
        return tf.boolean_mask(x, mask)

    def _advanced(self, x: Any, items: tuple[Any, ...]) -> Any:
        """NumPy's rules for integer (and boolean) arrays mixed with other indices."""
        expanded: list[Any] = []
        for k in items:
            if isinstance(k, tf.Tensor) and k.dtype == tf.bool:
                if self.ndim(k) == 0:
                    raise self.error("__getitem__", "a 0-d boolean index must be the only "
                                     "index", IndexError)  # fmt: skip
                expanded.extend(tf.unstack(positions(k), num=self.ndim(k), axis=1))
            elif isinstance(k, bool):
                raise self.error("__getitem__", "a boolean index must be the only index",
                                 IndexError)  # fmt: skip
            else:
                expanded.append(k)
        consumed = sum(k is not None and k is not Ellipsis for k in expanded)
        if consumed > self.ndim(x):
            raise self.error("__getitem__", f"too many indices for a {self.ndim(x)}-d array",
                             IndexError)  # fmt: skip
        at = next((i for i, k in enumerate(expanded) if k is Ellipsis), None)
        if at is not None:
            expanded[at : at + 1] = [slice(None)] * (self.ndim(x) - consumed)
        # new axes become full slices of an expanded array
        dim, plain = 0, []
        for k in expanded:
            if k is None:
                x = tf.expand_dims(x, dim)
                k = slice(None)
            plain.append(k)
            dim += 1
        plain += [slice(None)] * (self.ndim(x) - len(plain))
        advanced = [i for i, k in enumerate(plain) if not isinstance(k, slice)]
        x = self._sliced(x, tuple(k if isinstance(k, slice) else slice(None) for k in plain))
        shape = tf.shape(x, out_type=tf.int64)
        indices: list[Any] = []
        for i in advanced:
            k = plain[i]
            t = tf.constant(k, tf.int64) if isinstance(k, int) else tf.cast(k, tf.int64)
            self._check_range(t, shape[i], i, "__getitem__")
            indices.append(select(t < 0, t + shape[i], t))
        indices = list(self.broadcast_arrays(*indices))
        rest = [i for i in range(self.ndim(x)) if i not in advanced]
        gathered = tf.gather_nd(tf.transpose(x, advanced + rest), tf.stack(indices, axis=-1))
        nb = self.ndim(indices[0])
        if advanced == list(range(advanced[0], advanced[-1] + 1)) and advanced[0] > 0:
            p0 = advanced[0]
            perm = list(range(nb, nb + p0)) + list(range(nb)) + \
                list(range(nb + p0, self.ndim(gathered)))  # fmt: skip
            gathered = tf.transpose(gathered, perm)
        return gathered

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """A new tensor equal to ``raw`` with ``value`` written at ``key``."""
        try:
            return self._setitem(raw, key, value)
        except Exception as exc:
            raise_translated(self, exc, "__setitem__")

    def _setitem(self, raw: Any, key: Any, value: Any) -> Any:
        x = self.tensor(raw, "__setitem__")
        name = self.dn(x)
        if isinstance(value, SCALAR_TYPES):
            v = self.constant(self.setitem_scalar(name, plain_scalar(value)), name, "__setitem__")
        else:
            v = self.tensor(value, "__setitem__")
            if not stores(self.dn(v), name):
                raise self.error("__setitem__", f"cannot store {self.dn(v)} values in an array "
                                 f"of dtype {name} without a downcast", TypeError)  # fmt: skip
            v = tf.cast(v, x.dtype)
        written = self._masked_write(x, key, v)
        if written is not None:
            return written
        positions = self.getitem(tf.reshape(tf.range(self.size(x)), tf.shape(x)), key)
        extra = self.ndim(v) - self.ndim(positions)
        if extra > 0:  # leading size-1 dimensions of the value are dropped (as NumPy does)
            if any(d != 1 for d in v.shape[:extra]):
                raise self.error("__setitem__", f"value of shape {tuple(v.shape)} does not "
                                 f"fit the selection of shape {tuple(positions.shape)}")  # fmt: skip
            v = tf.reshape(v, tf.shape(v)[extra:])
        try:
            v = tf.broadcast_to(v, tf.shape(positions))
        except tf.errors.OpError as error:  # the value does not fit the selection
            raise translate("__setitem__", error) from error
        if positions.dtype != tf.int32 and x.shape.num_elements() is not None \
                and x.shape.num_elements() < 2**31:  # fmt: skip
            # int32, as tf.vectorized_map's loop indices are (it joins the two)
            positions = tf.cast(positions, tf.int32)
        flat = tf.tensor_scatter_nd_update(tf.reshape(x, [-1]), tf.reshape(positions, [-1, 1]),
                                           tf.reshape(v, [-1]))  # fmt: skip
        return tf.reshape(flat, tf.shape(x))

    def _masked_write(self, x: Any, key: Any, v: Any) -> Any:
        """``x[mask] = scalar`` for a boolean tensor ``mask`` over ``x``'s leading axes (of
        their static sizes) as one ``tf.where``: no data-dependent shape, so XLA compiles
        it too.  None for any other key or value (the general path)."""
        if not (isinstance(key, (tf.Tensor, tf.Variable)) and key.dtype == tf.bool) \
                or self.ndim(v) != 0:  # fmt: skip
            return None
        n = self.ndim(key)
        if not 0 < n <= self.ndim(x) or None in key.shape or key.shape != x.shape[:n] \
                or self.ndim(x) > MAX_KERNEL_RANK:  # (SelectV2 broadcasts at most 8 dims)
            return None
        mask = tf.reshape(key, [*key.shape, *([1] * (self.ndim(x) - n))])
        return tf.where(mask, v, x)

    def _indices(self, indices: Any, length: Any, axis: int, function: str) -> Any:
        idx = self.tensor(indices, function)
        self.check_kind(idx, function, INTEGRAL_KINDS, "an integer")
        idx = tf.cast(idx, tf.int64)
        length = tf.cast(length, tf.int64)
        self._check_range(idx, length, axis, function)
        return select(idx < 0, idx + length, idx)

    def _check_range(self, idx: Any, length: Any, axis: int, function: str) -> None:
        """`IndexError` naming the first index outside ``[-length, length)`` of an eager
        int64 ``idx`` (GPU kernels would read zeros there, CPU ones log C++ lines); inside
        ``tf.function`` the CPU kernels' error is translated instead."""
        if tf.is_symbolic_tensor(idx) or tf.is_symbolic_tensor(length):
            return
        outside = (idx < -length) | (idx >= length)
        if bool(tf.reduce_any(outside)):
            first = int(tf.boolean_mask(idx, outside)[0])
            raise self.error(function, f"index {first} is out of bounds for axis {axis} "
                                       f"with size {int(length)}", IndexError)  # fmt: skip

    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        x = self.tensor(x, "take")
        if axis is None:
            if self.ndim(x) != 1:
                raise self.error("take", "axis is required for arrays of more than one "
                                 "dimension")  # fmt: skip
            axis = 0
        a = self.normalize_axis(axis, self.ndim(x), "take")
        idx = self._indices(indices, tf.shape(x, out_type=tf.int64)[a], a, "take")
        try:
            return tf.gather(x, idx, axis=a)
        except tf.errors.OpError as error:  # indices out of range (CPU kernels check)
            raise translate("take", error) from error

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        x = self.tensor(x, "take_along_axis")
        n = self.ndim(x)
        a = self.normalize_axis(axis, n, "take_along_axis")
        idx = self.tensor(indices, "take_along_axis")
        if self.ndim(idx) != n:
            raise self.error("take_along_axis", f"indices must have {n} dimensions, got "
                             f"{self.ndim(idx)}")  # fmt: skip
        idx = self._indices(idx, tf.shape(x, out_type=tf.int64)[a], a, "take_along_axis")
        xl, inverse = self.move_to_last(x, a)
        il, _ = self.move_to_last(idx, a)
        if not (xl.shape[:-1].is_fully_defined() and xl.shape[:-1] == il.shape[:-1]):
            # (shapes known alike, as in most traced code, need no broadcast ops)
            batch = tf.broadcast_dynamic_shape(tf.shape(xl)[:-1], tf.shape(il)[:-1])
            xl = tf.broadcast_to(xl, tf.concat([batch, tf.shape(xl)[-1:]], 0))
            il = tf.broadcast_to(il, tf.concat([batch, tf.shape(il)[-1:]], 0))
        try:
            return self.undo_move(tf.gather(xl, il, batch_dims=n - 1), inverse)
        except tf.errors.OpError as error:  # indices out of range (CPU kernels check)
            raise translate("take_along_axis", error) from error


#: ``(begin, end, strides)`` as Python ints -> the three int32 tensors `_take_basic`
#: hands to ``StridedSlice`` (made once each; at most `_SLICE_CACHE_SIZE` kept).
_SLICE_ARGUMENTS: dict[tuple[tuple[int, ...], ...], tuple[Any, Any, Any]] = {}
_SLICE_CACHE_SIZE = 4096

_INT32_BOUND = 2**31 - 1


def _take_basic(raw: Any, key: Any) -> Any:
    """``raw[key]`` for a basic key (`keys.basic_in_range`) as TensorFlow's own
    ``__getitem__`` computes it: one ``StridedSlice`` with the begin, end and stride of
    each part and the masks saying which are absent, which part is the ellipsis, a new
    axis, or an int (whose axis goes); None for any other key (`getitem` decides)."""
    if type(key) is not tuple:
        key = (key,)
    elif not key:
        return raw
    shape = raw.shape
    if len(shape) > MAX_KERNEL_RANK or not basic_in_range(shape, key):
        return None  # (more dimensions than StridedSlice's kernel takes: `getitem`)
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for i, k in enumerate(key):
        bit = 1 << i
        if type(k) is int:
            begin.append(k)
            end.append(k + 1)
            strides.append(1)
            shrink_axis_mask |= bit
        elif type(k) is slice:
            start, stop, step = k.start, k.stop, k.step
            if start is None:
                begin_mask |= bit
                start = 0
            if stop is None:
                end_mask |= bit
                stop = 0
            begin.append(start)
            end.append(stop)
            strides.append(1 if step is None else step)
        else:
            if k is None:
                new_axis_mask |= bit
            else:
                ellipsis_mask |= bit
            begin.append(0)
            end.append(0)
            strides.append(1)
    spec = (tuple(begin), tuple(end), tuple(strides))
    tensors = _SLICE_ARGUMENTS.get(spec)
    if tensors is None:
        if any(abs(v) > _INT32_BOUND for part in spec for v in part):
            return None  # TensorFlow's own int64 arguments: `getitem`
        if len(_SLICE_ARGUMENTS) >= _SLICE_CACHE_SIZE:
            _SLICE_ARGUMENTS.clear()
        with tf.init_scope():  # eager constants, also while a graph is being built
            tensors = tuple(tf.constant(part, dtype=tf.int32) for part in spec)
        _SLICE_ARGUMENTS[spec] = tensors  # type: ignore[assignment]
    return tf.raw_ops.StridedSlice(
        input=raw, begin=tensors[0], end=tensors[1], strides=tensors[2],
        begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
        new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
