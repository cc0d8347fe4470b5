"""Automatic differentiation on torch: `torch.autograd.grad` on fresh leaves."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import torch

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
