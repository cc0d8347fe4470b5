"""MLX's automatic differentiation (``mx.value_and_grad``) behind the autodiff hook."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mlx.core as mx

from .._base import Autodiff
from .._base.core import GradCall


class MLXAutodiff(Autodiff):
    """``mx.value_and_grad``: functional, so it nests (grad of grad) and composes with
    ``mx.compile`` and ``mx.vmap``.  ``aux`` may hold anything (MLX passes outputs after
    the first through)."""

    def is_real_floating(self, raw: Any) -> bool:
        return bool(raw.dtype in (mx.float32, mx.float64, mx.float16, mx.bfloat16))

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        argnums = tuple(range(len(raws)))
        (value, aux), grads = mx.value_and_grad(call, argnums=argnums)(*raws)
        if len(raws) == 1:  # MLX gives one argument's gradient as the array itself
            grads = (grads,)
        return value, aux, list(grads)

