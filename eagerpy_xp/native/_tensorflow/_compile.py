"""TensorFlow's compiler and vectorizer for portable code: `Array` through
``tf.function`` and ``tf.vectorized_map``.

TensorFlow learns `Array` as a nest of one tensor (its custom-nest protocol,
``__tf_flatten__``/``__tf_unflatten__``): ``tf.function`` then traces with an `Array`
wrapping the symbolic tensor (so ``y[..., 0] = 0.0`` rebinds it inside, as outside) and
hands an `Array` back, and ``tf.nest``, ``tf.vectorized_map`` and ``tf.data`` keep it.
The tracing type (``__tf_tracing_type__``) is needed besides: TensorFlow takes any
object with ``__array__`` for a NumPy array before it asks for the nest protocol.
An `Array` of another backend is a plain value to TensorFlow, converted as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf
from tensorflow.core.function import trace_type

from .._base import nests

try:  # where TensorFlow keeps the nest protocol's tracing type (2.14 and later)
    from tensorflow.core.function.trace_type.custom_nest_trace_type import CustomNestTraceType
except ImportError:  # pragma: no cover - an older TensorFlow: plain conversion only
    CustomNestTraceType = None


def register_nest(cls: type, wrap: Callable[[Any], Any]) -> None:
    """`Array` (of this backend) as a TensorFlow nest of its one tensor."""

    def tf_flatten(self: Any) -> tuple[str, tuple[Any]]:
        return self.backend, (self.raw,)

    def tf_unflatten(klass: type, backend: str, components: tuple[Any, ...]) -> Any:
        (raw,) = components
        return wrap(raw) if backend == "tensorflow" else klass(raw)

    def tf_tracing_type(self: Any, context: Any) -> Any:
        if self.backend != "tensorflow" or CustomNestTraceType is None:
            return trace_type.from_value(self.raw, context)
        return CustomNestTraceType(type(self), self.backend,
                                   (trace_type.from_value(self.raw, context),))  # fmt: skip

    cls.__tf_flatten__ = tf_flatten  # type: ignore[attr-defined]
    cls.__tf_unflatten__ = classmethod(tf_unflatten)  # type: ignore[attr-defined]
    cls.__tf_tracing_type__ = tf_tracing_type  # type: ignore[attr-defined]


#: What `compile_function` passes to ``tf.function`` unless told otherwise: XLA.
COMPILE_DEFAULTS: dict[str, Any] = {"jit_compile": True}


def compile_function(fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    """``tf.function(fn, jit_compile=True, **options)``."""
    return tf.function(fn, **{**COMPILE_DEFAULTS, **options})  # type: ignore[no-any-return]


def vectorize_function(fn: Callable[..., Any], in_axes: Any, out_axes: Any, cls: type,
                       wrap: Callable[[Any], Any]) -> Callable[..., Any]:  # fmt: skip
    """``tf.vectorized_map`` over axis 0 of each mapped argument; other axes are moved to
    the front first and the results' axis 0 moved to ``out_axes`` after.

    `Array`s (``cls``) cross the map as their tensors and are wrapped again on each side
    (`nests`): TensorFlow's structure check of the stacked results compares an `Array`'s
    ``len`` (its first axis) where it means the number of its components.
    """

    def vectorized(*args: Any) -> Any:
        axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        mapped = [i for i, axis in enumerate(axes) if axis is not None]
        raw_args, places = nests.strip(tuple(args), cls)
        elems = tuple(_front(raw_args[i], axes[i]) for i in mapped)
        out_places: list[Any] = []

        def one(slices: tuple[Any, ...]) -> Any:
            call = list(raw_args)
            for i, piece in zip(mapped, slices):
                call[i] = piece
            out, where = nests.strip(fn(*nests.dress(tuple(call), places, wrap)), cls)
            out_places[:] = [where]
            return out

        out = tf.vectorized_map(one, elems)
        return nests.dress(_to_axes(out, out_axes), out_places[0], wrap)

    return vectorized


def _front(x: Any, axis: int) -> Any:
    """``x`` (a nest of tensors and `Array`s) with ``axis`` moved to the front."""
    if axis == 0:
        return x
    return tf.nest.map_structure(lambda t: _moveaxis(t, axis, 0), x)


def _to_axes(out: Any, out_axes: Any) -> Any:
    flat = tf.nest.flatten(out)
    axes = out_axes if isinstance(out_axes, (tuple, list)) else (out_axes,) * len(flat)
    if isinstance(out_axes, (tuple, list)) and isinstance(out, (tuple, list)) \
            and len(out_axes) == len(out):  # fmt: skip
        return type(out)(_to_axes(o, a) for o, a in zip(out, out_axes))
    if all(a == 0 for a in axes):
        return out
    return tf.nest.pack_sequence_as(out, [_moveaxis(t, 0, a) for t, a in zip(flat, axes)])


def _moveaxis(t: Any, source: int, destination: int) -> Any:
    t = tf.convert_to_tensor(t)
    n = t.shape.rank
    source, destination = source % n, destination % n
    order = [i for i in range(n) if i != source]
    order.insert(destination, source)
    return tf.transpose(t, order)
