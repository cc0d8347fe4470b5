"""Sorting, set functions and ``isin`` on TensorFlow.

Everything sorts integer *order keys* (`TFBase.order_key`) with ``top_k``, which is
stable: NaNs order last, -0 equals +0, and unsigned 64-bit values order correctly.
Unique values come out sorted, and every NaN is its own unique value.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from .._base.core import translated
from ._common import TFBase


class SortingSetsMixin(TFBase):
    """The sorting and set chapters."""

    def _keys(self, x: Any, function: str) -> list[Any]:
        """Order keys, most significant first (complex: real part, then imaginary part)."""
        if x.dtype.is_complex:
            return [self.order_key(tf.math.real(x), function),
                    self.order_key(tf.math.imag(x), function)]  # fmt: skip
        return [self.order_key(x, function)]

    def _argsort_key(self, key: Any, descending: bool) -> Any:
        """Stable argsort of integer keys along the last axis."""
        ranked = key if descending else tf.bitwise.invert(key)
        return tf.cast(tf.math.top_k(ranked, k=tf.shape(key)[-1]).indices, tf.int64)

    def _argsort_last(self, x: Any, descending: bool, function: str) -> Any:
        keys = self._keys(x, function)
        perm = self._argsort_key(keys[-1], descending)
        batch = self.ndim(x) - 1
        for key in reversed(keys[:-1]):
            step = self._argsort_key(tf.gather(key, perm, batch_dims=batch), descending)
            perm = tf.gather(perm, step, batch_dims=batch)
        return perm

    @translated
    def argsort(self, x: Any, /, *, axis: int = -1, descending: bool = False,
                stable: bool = True) -> Any:  # fmt: skip
        """Always stable; NaNs last (first when descending, as reversing a stable sort)."""
        x = self.tensor(x, "argsort")
        if x.dtype.is_complex:
            raise self.error("argsort", "complex inputs have no order", TypeError)
        if self.ndim(x) == 0:
            return tf.zeros([], tf.int64)
        moved, inverse = self.move_to_last(x, self.normalize_axis(axis, self.ndim(x), "argsort"))
        return self.undo_move(self._argsort_last(moved, descending, "argsort"), inverse)

    @translated
    def sort(self, x: Any, /, *, axis: int = -1, descending: bool = False,
             stable: bool = True) -> Any:  # fmt: skip
        x = self.tensor(x, "sort")
        if x.dtype.is_complex:
            raise self.error("sort", "complex inputs have no order", TypeError)
        if self.ndim(x) == 0:
            return x
        moved, inverse = self.move_to_last(x, self.normalize_axis(axis, self.ndim(x), "sort"))
        perm = self._argsort_last(moved, descending, "sort")
        return self.undo_move(tf.gather(moved, perm, batch_dims=self.ndim(x) - 1), inverse)

    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """values, first indices, inverse indices (shaped like x) and counts."""
        x = self.tensor(x, function)
        self.refuse_under_xla(function, "a result whose shape depends on the array's values")
        flat = tf.reshape(x, [-1])
        n = tf.shape(flat, out_type=tf.int64)[0]
        perm = self._argsort_last(flat, False, function)
        ordered = tf.gather(flat, perm)
        is_new = tf.concat([tf.ones([tf.minimum(n, 1)], tf.bool),
                            tf.not_equal(ordered[1:], ordered[:-1])], 0)  # fmt: skip
        values = tf.boolean_mask(ordered, is_new)
        starts = tf.where(is_new)[:, 0]
        counts = tf.concat([starts[1:], n[None]], 0) - starts
        group = tf.cumsum(tf.cast(is_new, tf.int64)) - 1
        inverse = tf.scatter_nd(perm[:, None], group, n[None])
        return values, tf.gather(perm, starts), tf.reshape(inverse, tf.shape(x)), counts

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """NaN is never found; -0 and +0 match."""
        (a, b), _ = self.operands("isin", x1, x2)
        flat_b = tf.reshape(b, [-1])
        if a.dtype.is_complex:
            found = tf.reduce_any(tf.equal(a[..., None], flat_b), axis=-1)
        else:
            kb = tf.sort(self.order_key(flat_b, "isin"))
            ka = tf.reshape(self.order_key(a, "isin"), [-1])
            pos = tf.searchsorted(kb, ka, side="left", out_type=tf.int64)
            padded = tf.concat([kb, tf.zeros([1], kb.dtype)], 0)
            hit = (pos < tf.shape(kb, out_type=tf.int64)[0]) & tf.equal(tf.gather(padded, pos), ka)
            found = tf.reshape(hit, tf.shape(a))
            if a.dtype.is_floating:
                found = found & ~tf.math.is_nan(a)
        return ~found if invert else found
