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

import functools
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


def compile_function(fn: Callable[..., Any], options: dict[str, Any], cls: type | None,
                     wrap: Callable[[Any], Any] | None) -> Callable[..., Any]:  # fmt: skip
    """``tf.function(fn, jit_compile=True, **options)`` with `Array`s (``cls``) taken
    apart before TensorFlow sees them (`nests`): ``fn`` gets an `Array` wherever the
    caller passed one and the results it returns as `Array`s come back as `Array`s,
    while ``tf.function`` takes and returns tensors only.

    ``tf.function`` takes `Array`s itself (`register_nest`), but then it works out each
    one's tracing type, flattens it and builds it again, all in Python, on every call:
    10 µs a call on the development machine, 25 to 45 µs after a step whose data
    leaves that Python cold, 2 to 3 % of a millisecond step.  Taking them apart here
    costs what the native flavour's call costs.  One ``tf.function`` per pattern of
    `Array`s among the arguments (its own tracing cache keys on the tensors' shapes
    and dtypes and on the Python values, as for native arguments), whose traces
    ``run.experimental_get_tracing_count()`` counts, as ``tf.function``'s does."""
    settings = {**COMPILE_DEFAULTS, **options}
    if cls is None or wrap is None:
        return tf.function(fn, **settings)  # type: ignore[no-any-return]
    plain = tf.function(fn, **settings)  # no Array among the arguments
    compiled: dict[Any, tuple[Any, list[Any]]] = {}  # places -> (tf.function, out places)

    def make(places: Any) -> tuple[Any, list[Any]]:
        out_places: list[Any] = [False]

        def traced(*raw_args: Any, **raw_kwargs: Any) -> Any:
            args, kwargs = _dress((raw_args, raw_kwargs), places, wrap)
            result, out_places[0] = _strip(fn(*args, **kwargs), cls)
            return result

        traced.__name__ = getattr(fn, "__name__", "traced")
        traced.__qualname__ = getattr(fn, "__qualname__", traced.__name__)
        return tf.function(traced, **settings), out_places

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        # the common call, positional arrays and values, without walking nests
        flat = not kwargs
        if flat:
            places = []
            for a in args:
                kind = type(a)
                if kind is cls:
                    places.append(True)
                elif kind in _NESTS:
                    flat = False
                    break
                else:
                    places.append(False)
        if flat:
            if True not in places:
                return plain(*args)
            key: Any = tuple(places)
            raw_args = tuple([a.raw if p else a for a, p in zip(args, places)])
            raw_kwargs: dict[str, Any] = {}
            marks: Any = (key, {})
        else:
            (raw_args, raw_kwargs), marks = nests.strip((args, kwargs), cls)
            key = repr(marks)
        entry = compiled.get(key)
        if entry is None:
            entry = compiled[key] = make(marks)
        function, out_places = entry
        return nests.dress(function(*raw_args, **raw_kwargs), out_places[0], wrap)

    def tracing_count() -> int:
        """``tf.function``'s count of traces, over every pattern of `Array`s."""
        counts = [int(function.experimental_get_tracing_count()) for function, _ in compiled.values()]
        return int(plain.experimental_get_tracing_count()) + sum(counts)

    run.experimental_get_tracing_count = tracing_count  # type: ignore[attr-defined]
    return run


#: The containers `nests` walks.
_NESTS = frozenset({tuple, list, dict})
#: `nests` as AutoGraph leaves it: glue that never branches on tensors.
_strip = tf.autograph.experimental.do_not_convert(nests.strip)
_dress = tf.autograph.experimental.do_not_convert(nests.dress)


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
