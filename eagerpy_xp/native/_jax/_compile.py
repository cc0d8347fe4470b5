"""The JAX backend's compile and vectorize hooks (``jax.jit``, ``jax.vmap``) and its registration of `Array` as a pytree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax

from ._core import JaxCore


def _raw_of(array: Any) -> Any:
    return array.raw


class JaxCompile(JaxCore):
    """``jax.jit``, ``jax.vmap``; `Array` a pytree."""

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """`Array` becomes a pytree (one leaf: its raw array), so ``jax.jit``, ``jax.grad``
        and ``jax.vmap`` take and return it; ``__jax_array__`` lets ``jax.numpy``
        functions take it."""
        self.wrapper_type = cls

        def flatten(array: Any) -> tuple[tuple[Any], None]:
            return (array.raw,), None

        def unflatten(_: None, children: Any) -> Any:
            # no conversion: JAX also unflattens with non-array leaves (``in_axes``)
            return wrap(children[0])

        try:
            jax.tree_util.register_pytree_node(cls, flatten, unflatten)
        except ValueError:  # registered already (module reloaded)
            pass
        cls.__jax_array__ = _raw_of  # type: ignore[attr-defined]

    compiles = True

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``jax.jit(fn, **options)`` (`Array` is a pytree: it comes back an `Array`)."""
        return jax.jit(fn, **options)  # type: ignore[no-any-return]

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any]:  # fmt: skip
        """``jax.vmap(fn, in_axes, out_axes)``."""
        return jax.vmap(fn, in_axes=in_axes, out_axes=out_axes)  # type: ignore[no-any-return]
