"""The JAX backend's autodiff hook: `jax.value_and_grad`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._base import Autodiff
from .._base.core import (
    GradCall,
)


class _JaxAutodiff(Autodiff):
    """`jax.value_and_grad`: functional, so it composes with `jax.jit` and nests."""

    def is_real_floating(self, raw: Any) -> bool:
        return bool(jnp.issubdtype(raw.dtype, jnp.floating))

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        argnums = tuple(range(len(raws)))
        (value, aux), grads = jax.value_and_grad(call, argnums=argnums, has_aux=True)(*raws)
        return value, aux, list(grads)
