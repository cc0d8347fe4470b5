"""The TensorFlow backend: the whole standard on ``tf.Tensor`` and ``tf.Variable``.

TensorFlow promotes nothing, lacks kernels for several dtypes and has its own ideas
about special values, so this backend implements every function on TensorFlow ops
(no ``tf.experimental.numpy``, no global switches).  One mixin per chapter; the
deviations it corrects are listed in ``docs/tensorflow.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

from . import _compile
from ._autodiff import _TFAutodiff
from ._core import TFBase
from ._creation import CreationMixin
from ._elementwise import ElementwiseMixin
from ._functions import FunctionsMixin, SortingSetsMixin
from ._indexing import IndexingMixin
from ._subnamespaces import TFFFT, TFLinalg

__all__ = ["BACKEND", "TensorFlowBackend"]


class TensorFlowBackend(
    CreationMixin,
    ElementwiseMixin,
    IndexingMixin,
    FunctionsMixin,
    SortingSetsMixin,
    TFBase,
):
    """The standard on TensorFlow tensors (eager and inside ``tf.function``)."""

    linalg_class = TFLinalg
    fft_class = TFFFT
    autodiff = _TFAutodiff()

    compiles = True

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """TensorFlow functions take an `Array` (converted to its native value), and the
        native flavour's functions recognise it; ``tf.function``, ``tf.nest`` and
        ``tf.vectorized_map`` keep it an `Array` (a nest of one tensor, `_compile`)."""
        self.wrapper_type = cls
        self._wrap = wrap
        tf.register_tensor_conversion_function(cls, _convert_array)
        _compile.register_nest(cls, wrap)

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``tf.function(fn, jit_compile=True, **options)``: `Array`s in, `Array`s out."""
        return _compile.compile_function(fn, options, self.wrapper_type,
                                         getattr(self, "_wrap", None))

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any]:  # fmt: skip
        """``tf.vectorized_map`` (axis 0; other ``in_axes``/``out_axes`` are moved)."""
        return _compile.vectorize_function(fn, in_axes, out_axes, self.wrapper_type, self._wrap)

    def mark_glue(self, function: Callable[..., Any]) -> None:
        """AutoGraph calls the wrapped layer's functions as they are instead of
        re-converting their source (the attribute ``do_not_convert`` sets)."""
        function.autograph_info__ = frozenset()  # type: ignore[attr-defined]


def _convert_array(value: Any, dtype: Any = None, name: Any = None, as_ref: bool = False
                   ) -> Any:  # fmt: skip
    """An `eagerpy_xp.Array` as a tensor (its native value)."""
    return tf.convert_to_tensor(value.raw, dtype=dtype, name=name)


def _skip_autograph(*classes: type) -> None:
    """Mark the backend's functions as AutoGraph artifacts.

    Inside ``tf.function`` AutoGraph would otherwise re-parse and convert every backend
    function on each trace (tens of seconds); the backend never branches on tensor
    values, so plain Python is what it needs.  The marker is the attribute
    ``tf.autograph.experimental.do_not_convert`` sets; nothing global changes.
    """
    for cls in classes:
        for klass in cls.__mro__:
            if not klass.__module__.startswith("eagerpy_xp"):
                continue
            for value in vars(klass).values():
                if callable(value) and not isinstance(value, type):
                    try:
                        value.autograph_info__ = frozenset()
                    except (AttributeError, TypeError):
                        pass


_skip_autograph(TensorFlowBackend, TFLinalg, TFFFT, _TFAutodiff)

#: The one TensorFlow backend object (the native module exports it).
BACKEND = TensorFlowBackend()
