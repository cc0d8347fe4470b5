"""The TensorFlow backend: the whole standard on ``tf.Tensor`` and ``tf.Variable``.

TensorFlow promotes nothing, lacks kernels for several dtypes and has its own ideas
about special values, so this backend implements every function on TensorFlow ops
(no ``tf.experimental.numpy``, no global switches).  One mixin per chapter; the
deviations it corrects are listed in ``docs/tensorflow.md``.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ..._array import Array
from ._common import TFBase
from ._creation import CreationMixin
from ._elementwise import ElementwiseMixin
from ._fft import TFFFT
from ._functions import FunctionsMixin
from ._indexing import IndexingMixin
from ._linalg import TFLinalg
from ._sorting_sets import SortingSetsMixin

__all__ = ["TensorFlowBackend"]


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

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}


def _convert_array(value: Array, dtype: Any = None, name: Any = None, as_ref: bool = False
                   ) -> Any:  # fmt: skip
    """Let TensorFlow functions take an `eagerpy_xp.Array` (its native value)."""
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


_skip_autograph(TensorFlowBackend, TFLinalg, TFFFT)
tf.register_tensor_conversion_function(Array, _convert_array)
