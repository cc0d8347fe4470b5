"""torch's compiler and vectorizer for portable code: `Array` under ``torch.compile`` and
``torch.func``.

* ``torch.compile`` (Dynamo) traces the Python of `Array`'s operators like any other
  code.  Dynamo up to torch 2.13 knows no ``@`` and no ``~`` on Python objects (its
  ``nb_matrix_multiply`` slot is missing; pytorch/pytorch#189585 adds it), so
  `teach_dynamo_operators` gives it those operators for `Array` only: ``a @ b``,
  ``a @= b`` and ``~a`` call `Array`'s methods as Python does.  A torch that has the
  handlers keeps its own.  Nothing of Dynamo is imported for that: the handlers are
  added when Dynamo itself is first imported (by ``torch.compile``, `eagerpy_xp.jit` or
  anything else), or at once where it is loaded already, so eager use never pays
  Dynamo's import (2 s) nor inductor's setting of ``TORCHINDUCTOR_CACHE_DIR``.
* ``torch.func`` (``vmap``, ``grad``) maps pytrees: `Array` is registered as one, with one
  leaf, its ``.raw``.
* `compile` and `vectorize` are the backend's hooks behind `eagerpy_xp.jit` and
  `eagerpy_xp.vmap`.
"""

from __future__ import annotations

import functools
import importlib.abc
import re
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import torch
import torch.utils._pytree as torch_pytree

from ..._detect import GENERATED_SCOPE
from .._base.hooks import BackendCore


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


#: Dynamo's package: what `teach_dynamo_operators` waits for.
DYNAMO = "torch._dynamo"


class _WhenImported(importlib.abc.MetaPathFinder):
    """A finder that runs ``then(module)`` once the module ``name`` has been imported
    (after its own code ran), and then leaves ``sys.meta_path``.  It finds nothing
    itself: it asks the finders after it for ``name`` and extends that spec's loader
    (the one loader object made for this import) to call ``then`` when it is done.  Any
    other import passes it by with one string comparison."""

    def __init__(self, name: str, then: Callable[[ModuleType], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        self.leave()
        spec = None
        for finder in sys.meta_path:  # (the finders Python would ask: this one has left)
            find = getattr(finder, "find_spec", None)
            spec = None if find is None else find(fullname, path, target)
            if spec is not None:
                break
        loader = None if spec is None else spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module
        then = self.then

        def exec_module(module: ModuleType) -> None:
            run(module)
            then(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec

    def leave(self) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:  # left already
            pass


_waiting: dict[type, _WhenImported] = {}
_waiting_lock = threading.Lock()


def teach_dynamo_operators(cls: type) -> None:
    """Give Dynamo ``@``, ``@=`` and ``~`` for instances of ``cls`` where it has none:
    now where Dynamo is loaded, else when it is first imported (`_WhenImported`), so
    that building the backend imports nothing of Dynamo (`_teach` does the work)."""
    if DYNAMO in sys.modules:
        _teach(cls)
        return
    with _waiting_lock:
        if cls in _waiting:
            return
        finder = _waiting[cls] = _WhenImported(DYNAMO, lambda _: _teach(cls))
        sys.meta_path.insert(0, finder)


def _teach(cls: type) -> None:
    """The handlers of `teach_dynamo_operators`, added to Dynamo (loaded by now).

    Dynamo resolves an operator through a ``call_<operator>`` handler of its
    builtin-operator tracker; torch 2.13 has none for ``matmul``, ``imatmul`` and
    ``invert``.  The handlers added here call the operand's own method (``__matmul__``,
    else the right operand's ``__rmatmul__``; ``__imatmul__``; ``__invert__``) when an
    operand is a ``cls`` instance, and decline (Dynamo's own error) otherwise; a handler
    that torch has is left as it is.
    """
    with _waiting_lock:
        finder = _waiting.pop(cls, None)
    if finder is not None:
        finder.leave()
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


#: A guard on state read from a module of this package: Dynamo binds each such module in
#: the traced frame's globals as ``__import_<dotted name>`` (dots as ``_dot_``).
_OWN_MODULE = re.compile(r"\['__import_eagerpy_xp(_dot_[A-Za-z0-9_]*)?'\]")
#: The name Dynamo gives globals that belong to no module (``G['___unnamed_scope_..']``).
_UNNAMED_SCOPE = re.compile(r"G\['___unnamed_scope_[0-9]+_c[0-9]+'\]")

GuardFilter = Callable[[list[Any]], list[bool]]


def own_guards_dropped(theirs: GuardFilter | None = None) -> GuardFilter:
    """A Dynamo ``guard_filter_fn`` that drops the guards on eagerpy_xp's own state and
    keeps every other guard ``theirs`` keeps (all, without one).

    Portable code reads eagerpy_xp's tables, functions and closures while Dynamo traces
    it, and Dynamo guards on each: 15 to 20 times the guards of the same code written
    with torch alone, all checked before every call.  None of them can fail:
    that state is fixed once a backend is built (its caches only ever gain entries, with
    the answers they would give anyway).  Dropped: guards rooted in a module of this
    package, in the globals of a function it generated (`GENERATED_SCOPE`), and below a
    backend object an `Array` argument carries (``x._b.operator_plans[...]``; the
    backend's own type and identity stay).  Kept: guards on the arguments themselves,
    on the caller's globals (``ep`` itself), on torch and on global state.  Checking a
    guard is cheap while Dynamo's guard tree is in the CPU's caches, but a step that
    streams megabytes through its kernels leaves the tree cold, and then every guard is
    a cache miss: 80 µs more than the hand-written step's before a 1.9 ms cross-entropy
    step on 2048 x 1000 logits, none with these dropped (docs/compile.md, "What a trace
    costs").
    """

    def keep(entries: list[Any]) -> list[bool]:
        roots = [e.name for e in entries
                 if (e.has_value and type(e.value) is dict and GENERATED_SCOPE in e.value
                     and _UNNAMED_SCOPE.fullmatch(e.name))]  # fmt: skip
        backends = {e.name for e in entries if e.has_value and isinstance(e.value, BackendCore)}

        def ours(entry: Any) -> bool:
            name = entry.name
            if _OWN_MODULE.search(name) or any(root in name for root in roots):
                return True
            if name in backends:  # its type and identity pick the backend: kept
                return entry.guard_type == "NOT_PRESENT_IN_GENERIC_DICT"
            return any(name.startswith(b + ".") or f"({b})" in name or f"({b}." in name
                       for b in backends)  # fmt: skip

        kept = [not ours(entry) for entry in entries]
        if theirs is None:
            return kept
        return [mine and given for mine, given in zip(kept, theirs(entries))]

    return keep


#: What `compile` passes to ``torch.compile`` unless told otherwise: one graph, or an
#: error that says where it broke.
COMPILE_DEFAULTS: dict[str, Any] = {"fullgraph": True}


def _settings(options: dict[str, Any]) -> dict[str, Any]:
    """``torch.compile``'s arguments: `COMPILE_DEFAULTS`, then ``options``, with
    `own_guards_dropped` as the ``guard_filter_fn`` of its ``options`` (around the
    caller's own).  torch takes no ``options`` beside a ``mode``: inductor's ``mode``
    becomes the options it stands for (``torch._inductor.list_mode_options``, what
    inductor does with it); another backend's ``mode`` goes to it as it is, and then
    the guards stay (as they do where both are given: torch's own error)."""
    settings = {**COMPILE_DEFAULTS, **options}
    mode = settings.get("mode")
    if mode is not None and (settings.get("options") is not None
                             or settings.get("backend", "inductor") != "inductor"):  # fmt: skip
        return settings
    given = dict(settings.pop("options", None) or {})  # (torch.compile pops from it)
    if settings.pop("mode", None) not in (None, "default"):
        from torch._inductor import list_mode_options

        given = list_mode_options(mode, settings.get("dynamic"))
    given["guard_filter_fn"] = own_guards_dropped(given.get("guard_filter_fn"))
    settings["options"] = given
    return settings


def compile_function(fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    """``torch.compile(fn, fullgraph=True, **options)``, whose errors keep the contract.

    An exception the traced code raises (a wrong dtype, a bad axis) reaches a
    ``fullgraph`` caller as Dynamo's "Observed exception" graph break; then ``fn`` runs
    eagerly once, which raises the error itself, as docs/errors.md says (nothing ran
    for real while Dynamo traced, so nothing runs twice).  Should ``fn`` succeed eagerly,
    Dynamo's own error stands.
    """
    from torch._dynamo.exc import ObservedException as _Observed
    from torch._dynamo.exc import Unsupported as _Unsupported

    compiled = torch.compile(fn, **_settings(options))

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
