"""Automatic differentiation on torch: `torch.autograd.grad` on fresh leaves, eagerly;
`torch.func.grad_and_value` under ``torch.compile`` and inside ``torch.func`` transforms
(``vmap``, ``grad``), where ``torch.autograd.grad`` is refused."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import torch
import torch.utils._pytree as torch_pytree

from .._base import Autodiff
from .._base.core import GradCall


class TorchAutodiff(Autodiff):
    """`torch.autograd.grad` on fresh leaves: the caller's tensors are never modified.

    Inside another eagerpy_xp gradient (or when an input already requires grad) the
    graph is kept (``create_graph``) so the outer gradient can differentiate through.
    At top level results are detached, also from tensors ``f`` closes over.
    """

    _state = threading.local()

    def is_real_floating(self, raw: Any) -> bool:
        return bool(raw.dtype.is_floating_point)

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        if torch.compiler.is_compiling() or any(_is_functorch_wrapped(r) for r in raws):
            return _run_functional(call, raws)
        depth = getattr(self._state, "depth", 0)
        nested = depth > 0 or any(r.requires_grad for r in raws)
        leaves = [r.view_as(r) if r.requires_grad else r.detach().requires_grad_(True)
                  for r in raws]  # fmt: skip
        with torch.enable_grad():
            self._state.depth = depth + 1
            try:
                value, aux = call(*leaves)
            finally:
                self._state.depth = depth
            found: Sequence[Any]
            if value.requires_grad:
                found = torch.autograd.grad(value, leaves, create_graph=nested,
                                            allow_unused=True)  # fmt: skip
            else:  # the value does not depend on any input
                found = (None,) * len(leaves)
        grads = [torch.zeros_like(r) if g is None else g for g, r in zip(found, raws)]
        if not nested:
            value = value.detach()
            aux = _detach_nested(aux)
        return value, aux, grads


_is_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor


def _run_functional(call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
    """One value-and-gradient run by ``torch.func``, which composes with its transforms
    and traces under ``torch.compile`` (an unused input's gradient is zeros)."""
    # torch.func passes only tensors out as aux: the other leaves of ``aux`` stay here
    kept: list[Any] = []

    def split(*leaves: Any) -> tuple[Any, tuple[Any, ...]]:
        value, aux = call(*leaves)
        flat, spec = torch_pytree.tree_flatten(aux)
        is_tensor = [isinstance(v, torch.Tensor) for v in flat]
        kept[:] = [spec, flat, is_tensor]
        return value, tuple(v for v, t in zip(flat, is_tensor) if t)

    run = torch.func.grad_and_value(split, argnums=tuple(range(len(raws))), has_aux=True)
    grads, (value, tensors) = run(*raws)
    spec, flat, is_tensor = kept
    given = iter(tensors)
    aux = torch_pytree.tree_unflatten([next(given) if t else v for v, t in zip(flat, is_tensor)],
                                      spec)  # fmt: skip
    return value, aux, list(grads)


def _detach_nested(obj: Any) -> Any:
    """``obj`` with every tensor in it (through lists, tuples, dicts) detached."""
    if isinstance(obj, torch.Tensor):
        return obj.detach()
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # named tuple
        return type(obj)(*(_detach_nested(o) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_detach_nested(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _detach_nested(v) for k, v in obj.items()}
    return obj
