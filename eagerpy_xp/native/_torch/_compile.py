"""torch's compiler and vectorizer for portable code: `Array` under ``torch.compile`` and
``torch.func``.

* ``torch.compile`` (Dynamo) traces the Python of `Array`'s operators like any other
  code.  Dynamo up to torch 2.13 knows no ``@`` and no ``~`` on Python objects (its
  ``nb_matrix_multiply`` slot is missing; pytorch/pytorch#189585 adds it), so
  `teach_dynamo_operators` gives it those operators for `Array` only: ``a @ b``,
  ``a @= b`` and ``~a`` call `Array`'s methods as Python does.  A torch that has the
  handlers keeps its own.
* ``torch.func`` (``vmap``, ``grad``) maps pytrees: `Array` is registered as one, with one
  leaf, its ``.raw``.
* `compile` and `vectorize` are the backend's hooks behind `eagerpy_xp.jit` and
  `eagerpy_xp.vmap`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch
import torch.utils._pytree as torch_pytree
from torch._dynamo.exc import ObservedException as _Observed
from torch._dynamo.exc import Unsupported as _Unsupported


def register_pytree(cls: type, wrap: Callable[[Any], Any]) -> None:
    """`Array` as a torch pytree node whose one child is its native array: the node's
    context is its backend, so torch Arrays come back through ``wrap`` (no conversion:
    ``torch.func`` unflattens batched and functional tensors)."""

    def flatten(array: Any) -> tuple[list[Any], Any]:
        return [array.raw], array.backend

    def unflatten(children: Any, backend: Any) -> Any:
        (raw,) = children
        return wrap(raw) if backend == "torch" else cls(raw)

    try:
        torch_pytree.register_pytree_node(cls, flatten, unflatten,
                                          serialized_type_name="eagerpy_xp.Array")  # fmt: skip
    except ValueError:  # registered already (the module was reloaded)
        pass


def teach_dynamo_operators(cls: type) -> None:
    """Give Dynamo ``@``, ``@=`` and ``~`` for instances of ``cls`` where it has none.

    Dynamo resolves an operator through a ``call_<operator>`` handler of its
    builtin-operator tracker; torch 2.13 has none for ``matmul``, ``imatmul`` and
    ``invert``.  The handlers added here call the operand's own method (``__matmul__``,
    else the right operand's ``__rmatmul__``; ``__imatmul__``; ``__invert__``) when an
    operand is a ``cls`` instance, and decline (Dynamo's own error) otherwise; a handler
    that torch has is left as it is.
    """
    try:
        from torch._dynamo.variables.builtin import BuiltinVariable
        from torch._dynamo.variables.user_defined import UserDefinedObjectVariable
    except ImportError:  # a torch without Dynamo
        return
    def ours(v: Any) -> bool:
        return isinstance(v, UserDefinedObjectVariable) and v.python_type() is cls

    def call_matmul(self: Any, tx: Any, a: Any, b: Any) -> Any:
        if ours(a):
            result = a.call_method(tx, "__matmul__", [b], {})
            if not (ours(b) and result.is_constant_match(NotImplemented)):
                return result
        if ours(b):
            return b.call_method(tx, "__rmatmul__", [a], {})
        return None

    def call_imatmul(self: Any, tx: Any, a: Any, b: Any) -> Any:
        if ours(a):
            return a.call_method(tx, "__imatmul__", [b], {})
        return call_matmul(self, tx, a, b)

    def call_invert(self: Any, tx: Any, a: Any) -> Any:
        return a.call_method(tx, "__invert__", [], {}) if ours(a) else None

    # the one change to torch: handlers its tracker looks up by operator name, where absent
    if not hasattr(BuiltinVariable, "call_matmul"):
        BuiltinVariable.call_matmul = call_matmul  # type: ignore[attr-defined]
    if not hasattr(BuiltinVariable, "call_imatmul"):
        BuiltinVariable.call_imatmul = call_imatmul  # type: ignore[attr-defined]
    if not hasattr(BuiltinVariable, "call_invert"):
        BuiltinVariable.call_invert = call_invert  # type: ignore[attr-defined]


#: What `compile` passes to ``torch.compile`` unless told otherwise: one graph, or an
#: error that says where it broke.
COMPILE_DEFAULTS: dict[str, Any] = {"fullgraph": True}


def compile_function(fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    """``torch.compile(fn, fullgraph=True, **options)``, whose errors keep the contract.

    An exception the traced code raises (a wrong dtype, a bad axis) reaches a
    ``fullgraph`` caller as Dynamo's "Observed exception" graph break; then ``fn`` runs
    eagerly once, which raises the error itself, as docs/errors.md says (nothing ran
    for real while Dynamo traced, so nothing runs twice).  Should ``fn`` succeed eagerly,
    Dynamo's own error stands.
    """
    compiled = torch.compile(fn, **{**COMPILE_DEFAULTS, **options})

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return compiled(*args, **kwargs)
        except _Unsupported as exc:
            if not isinstance(exc.__cause__, _Observed):
                raise
            fn(*args, **kwargs)
            raise

    return run



def vectorize_function(fn: Callable[..., Any], in_axes: Any, out_axes: Any
                       ) -> Callable[..., Any]:  # fmt: skip
    """``torch.func.vmap`` (``Array`` is a pytree: it maps its raw tensor)."""
    return torch.func.vmap(fn, in_dims=in_axes, out_dims=out_axes)  # type: ignore[no-any-return]
