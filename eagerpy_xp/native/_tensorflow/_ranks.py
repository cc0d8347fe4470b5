"""TensorFlow ops whose kernels stop at 8 dimensions, in forms that take any rank.

``StridedSlice`` ("Unhandled input dimensions 9"), ``ReverseV2`` ("reverse is not
implemented for tensors of rank > 8"), ``SelectV2`` (a three-operand ``tf.where``:
"Broadcast between [...] and [...] is not supported yet", even for equal shapes) and
``Where`` (a one-operand ``tf.where``).  Each function here is the op itself up to 8
dimensions (the same graph as before) and, beyond, the same values through ops without
the limit: ``tf.gather`` per axis, or the operands flattened and the result reshaped.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

#: The most dimensions those kernels handle.
MAX_KERNEL_RANK = 8


def _rank(x: Any) -> int:
    """``x``'s number of dimensions; 0 for a Python scalar and for a rank not known while
    tracing (the op itself then, as before)."""
    if not isinstance(x, (tf.Tensor, tf.Variable)):
        return 0
    return x.shape.rank or 0


def select(condition: Any, x1: Any, x2: Any) -> Any:
    """``tf.where(condition, x1, x2)`` at any rank (operands broadcast together; a Python
    scalar takes the other operand's dtype, as ``tf.where`` gives it)."""
    if max(_rank(condition), _rank(x1), _rank(x2)) <= MAX_KERNEL_RANK:
        return tf.where(condition, x1, x2)
    if not isinstance(x1, (tf.Tensor, tf.Variable)):
        x1 = tf.constant(x1, x2.dtype)
    if not isinstance(x2, (tf.Tensor, tf.Variable)):
        x2 = tf.constant(x2, x1.dtype)
    shape = tf.broadcast_dynamic_shape(
        tf.broadcast_dynamic_shape(tf.shape(condition), tf.shape(x1)), tf.shape(x2))

    def flat(t: Any) -> Any:
        return tf.reshape(tf.broadcast_to(t, shape), [-1])

    return tf.reshape(tf.where(flat(condition), flat(x1), flat(x2)), shape)


def positions(mask: Any) -> Any:
    """``tf.where(mask)`` at any rank: the int64 positions of the true entries, one row
    each, in row-major order."""
    if _rank(mask) <= MAX_KERNEL_RANK:
        return tf.where(mask)
    flat = tf.reshape(tf.where(tf.reshape(mask, [-1])), [-1])
    return tf.transpose(tf.unravel_index(flat, tf.shape(mask, out_type=tf.int64)))


def reverse(x: Any, axes: Any) -> Any:
    """``tf.reverse(x, axes)`` at any rank (``axes``: non-negative ints)."""
    if _rank(x) <= MAX_KERNEL_RANK:
        return tf.reverse(x, axes)
    for axis in axes:
        size = tf.shape(x, out_type=tf.int64)[axis]
        x = tf.gather(x, tf.range(size - 1, -1, -1), axis=axis)
    return x


def basic_slice(x: Any, items: tuple[Any, ...]) -> Any:
    """``x[items]`` for a basic key (ints in range, slices, None, one Ellipsis) at any
    rank: TensorFlow's strided slice up to `MAX_KERNEL_RANK` dimensions; beyond, one
    ``tf.gather`` per axis the key changes, where the sizes are known (a size known only
    when a ``tf.function`` runs keeps the strided slice and its limit)."""
    news = sum(k is None for k in items)
    if _rank(x) + news <= MAX_KERNEL_RANK:
        return x[items]
    parts = list(items)
    consumed = len(parts) - news - sum(k is Ellipsis for k in parts)
    at = next((i for i, k in enumerate(parts) if k is Ellipsis), len(parts))
    parts[at:at + 1] = [slice(None)] * (_rank(x) - consumed)
    axis = 0
    for k in parts:
        if k is None:
            x = tf.expand_dims(x, axis)
            axis += 1
            continue
        size = x.shape[axis]
        if type(k) is int:
            if size is None:
                return x[items]
            x = tf.gather(x, k + size if k < 0 else k, axis=axis)
            continue
        if k != slice(None):
            if size is None or not all(v is None or type(v) is int
                                       for v in (k.start, k.stop, k.step)):  # fmt: skip
                return x[items]
            x = tf.gather(x, tf.constant(list(range(*k.indices(size))), tf.int64), axis=axis)
        axis += 1
    return x


__all__ = ["MAX_KERNEL_RANK", "basic_slice", "positions", "reverse", "select"]
