"""What the eager fast paths of the TensorFlow backend use (see `.._base.fastpath`).

In eager mode a TensorFlow call costs microseconds of Python before the kernel runs;
the public ``tf.math`` functions add their own dispatch layers on top of the op.  The
fast paths call the op wrappers behind ``tf.raw_ops`` directly, and turn Python scalars
into constants once (cached), so common calls cost less than the plain ``tf`` code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

#: The type of eager tensors (graph tensors never take a fast path); made eagerly also when
#: the backend is first imported while a ``tf.function`` traces (a graph's constant there).
with tf.init_scope():
    EAGER = type(tf.constant(0))

# Dtype groups, most common first: a hit is an identity test (dtypes are interned).
REAL_FLOAT = (tf.float32, tf.float64)
FLOATING = (tf.float32, tf.float64, tf.complex64, tf.complex128)
REAL = (tf.float32, tf.float64, tf.int64, tf.int32)  # the real dtypes every kernel has
NUMERIC = (tf.float32, tf.float64, tf.int64, tf.int32, tf.complex64, tf.complex128)
ANY = (tf.float32, tf.float64, tf.int64, tf.int32, tf.bool, tf.complex64, tf.complex128)
BOOL = (tf.bool,)
INTEGER = (tf.int64, tf.int32)


def raw_op(name: str) -> Callable[..., Any]:
    """The op wrapper behind ``tf.raw_ops.<name>``, which takes positional arguments
    (``tf.raw_ops`` adds a keyword-only layer)."""
    op = getattr(tf.raw_ops, name)
    return getattr(op, "__wrapped__", op)  # type: ignore[no-any-return]


#: TensorFlow error -> the contract's exception type (`translate`; others: ValueError).
_ERROR_KINDS: tuple[tuple[type[Exception], type[Exception]], ...] = (
    (tf.errors.ResourceExhaustedError, MemoryError),
    (tf.errors.UnimplementedError, NotImplementedError),
    (tf.errors.NotFoundError, TypeError),  # no kernel for a dtype
)
#: Words of an invalid-argument message about an index rather than a shape.
_INDEX_WORDS = ("out of bounds", "is not in [", "out of range", "index")


def translate(function: str, error: Exception) -> Exception:
    """TensorFlow's op error as the contract's exception naming ``function`` and the
    backend, with TensorFlow's own message without its kernel and op decorations (the
    caller raises it ``from error``)."""
    text = str(getattr(error, "message", error))
    if text.startswith("{{"):
        text = text.split("}}", 1)[-1]
    text = text.split(" [Op:", 1)[0].strip()
    kind: type[Exception] = ValueError
    for tf_kind, ours in _ERROR_KINDS:
        if isinstance(error, tf_kind):
            kind = ours
            break
    else:
        if any(word in text.lower() for word in _INDEX_WORDS):
            kind = IndexError
    return kind(f"eagerpy_xp.tensorflow.{function}: {text}")


def raw_binary(name: str, function: str) -> Callable[[Any, Any], Any]:
    """`raw_op` of a binary op for a fast path, its errors (shapes that do not broadcast)
    translated for ``function``: free while nothing is raised."""
    op = raw_op(name)

    def call(a: Any, b: Any) -> Any:
        try:
            return op(a, b)
        except tf.errors.OpError as error:
            raise translate(function, error) from error

    call.__name__ = call.__qualname__ = f"{function}_op"
    return call


#: Python scalars the fast paths have met, as eager constants: (value, dtype id, type).
_SCALARS: dict[tuple[Any, ...], Any] = {}
#: Reduction axes the fast paths have met, as int32 constants: ndim or (axis, ndim).
_AXES: dict[Any, Any] = {}
_CACHE_LIMIT = 512
_FLOAT_TYPES = {id(tf.float32): np.float32, id(tf.float64): np.float64,
                id(tf.complex64): np.complex64, id(tf.complex128): np.complex128}  # fmt: skip
_INT_RANGES = {id(tf.int32): (-(2**31), 2**31), id(tf.int64): (-(2**63), 2**63)}
_EXACT_INT = 2**53  # ints converted to a float dtype: only those a float64 holds exactly


def scalar(value: Any, dtype: Any) -> Any:
    """A Python int or float meeting an eager tensor of ``dtype``, as a constant of that
    dtype (the standard's rule); None where the full implementation must decide (a float
    with an integer array, an int out of range, an unusual dtype)."""
    # 0.0 == -0.0: zeros are keyed by their text so the sign survives
    key = (value, id(dtype), type(value)) if value else (str(value), id(dtype))
    hit = _SCALARS.get(key)
    if hit is not None:
        return hit
    float_type = _FLOAT_TYPES.get(id(dtype))
    if float_type is not None:
        if type(value) is int and not -_EXACT_INT <= value <= _EXACT_INT:
            return None
        # through NumPy: tf.constant(python float) flushes float32 subnormals, and its
        # eager cache may hand back -0.0 for 0.0; made eagerly also while a graph is
        # being built (a graph's constant, cached, is out of scope in the next graph)
        with tf.init_scope():
            made = tf.constant(np.asarray(value, dtype=float_type))
    else:
        bounds = _INT_RANGES.get(id(dtype))
        if bounds is None or type(value) is not int or not bounds[0] <= value < bounds[1]:
            return None
        with tf.init_scope():
            made = tf.constant(value, dtype)
    if len(_SCALARS) >= _CACHE_LIMIT:
        _SCALARS.clear()
    _SCALARS[key] = made
    return made


def axes_operand(axis: Any, ndim: int) -> Any:
    """The int32 constant of reduction axes for ``axis`` (None, an int or a tuple of
    distinct in-range ints) on ``ndim`` dimensions; None for anything else."""
    if axis is None:
        key: Any = ndim
    elif type(axis) is int or (type(axis) is tuple and all(type(a) is int for a in axis)):
        key = (axis, ndim)  # exact ints only: False == 0 must not hit
    else:
        return None
    hit = _AXES.get(key)
    if hit is not None:
        return hit
    items = range(ndim) if axis is None else axis if type(axis) is tuple else (axis,)
    if not all(-ndim <= a < ndim for a in items):
        return None
    axes = [a % ndim for a in items]
    if len(set(axes)) != len(axes):
        return None
    if len(_AXES) >= _CACHE_LIMIT:
        _AXES.clear()
    made = _AXES[key] = tf.constant(axes, tf.int32)
    return made



def reduction_axes(x: Any, axis: Any, keepdims: Any, dtypes: tuple[Any, ...]) -> Any:
    """The axes constant for a fast reduction of ``x`` (an eager tensor of one of
    ``dtypes``, a plain bool ``keepdims``, an axis `axes_operand` takes); None otherwise."""
    if type(x) is EAGER and x.dtype in dtypes and type(keepdims) is bool:
        return axes_operand(axis, len(x.shape))
    return None
