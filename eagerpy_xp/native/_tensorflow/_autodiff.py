"""The TensorFlow backend's autodiff hook: `tf.GradientTape`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from .._base import Autodiff
from .._base.core import GradCall


class _TFAutodiff(Autodiff):
    """`tf.GradientTape`: works eagerly and inside `tf.function`; tapes nest."""

    def is_real_floating(self, raw: Any) -> bool:
        return bool(raw.dtype.is_floating)

    def shape(self, raw: Any) -> tuple[int | None, ...] | None:
        shape = raw.shape
        return None if shape.rank is None else tuple(shape.as_list())

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        # a fresh tensor per differentiated argument: the tape follows only its uses, not
        # those of the same tensor passed again (f(t, t)), wrapped and raw, or closed over
        leaves = [tf.identity(r) for r in raws]
        with tf.GradientTape() as tape:
            for leaf in leaves:
                tape.watch(leaf)
            value, aux = call(*leaves)
        found = tape.gradient(value, leaves,
                              unconnected_gradients=tf.UnconnectedGradients.ZERO)  # fmt: skip
        # gathers give IndexedSlices; the caller gets a dense tensor like the input
        return value, aux, [tf.convert_to_tensor(g) for g in found]
