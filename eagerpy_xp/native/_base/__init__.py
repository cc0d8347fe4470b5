"""The generic backend: every function of the standard, written once.

`Backend` combines the hooks (`hooks.BackendCore`) with one mixin per chapter of the
standard.  The defaults delegate to a NumPy-like framework namespace; a concrete backend
(`eagerpy_xp.native._numpy`, ...) subclasses it and overrides what its framework does
differently.  `eagerpy_xp._assembly` turns a backend object into its namespaces.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..._spec import OPERATOR_FUNCTIONS
from . import fastpath
from .core import Autodiff
from .creation import CreationFunctions
from .data_types import DataTypeFunctions
from .elementwise import ElementwiseFunctions
from .functions import (
    IndexingFunctions,
    LinearAlgebraFunctions,
    ManipulationFunctions,
    SearchingFunctions,
    SetFunctions,
    SortingFunctions,
    StatisticalFunctions,
    UtilityFunctions,
)
from .hooks import BackendCore
from .subnamespaces import FFT, Info, Linalg

__all__ = ["FFT", "Autodiff", "Backend", "Info", "Linalg"]


class Backend(
    BackendCore,
    CreationFunctions,
    DataTypeFunctions,
    ElementwiseFunctions,
    IndexingFunctions,
    LinearAlgebraFunctions,
    ManipulationFunctions,
    SearchingFunctions,
    SetFunctions,
    SortingFunctions,
    StatisticalFunctions,
    UtilityFunctions,
):
    """A backend: the standard's functions on one framework's native arrays."""

    linalg_class: type[Linalg] = Linalg
    fft_class: type[FFT] = FFT
    info_class: type[Info] = Info

    def __init__(self) -> None:
        super().__init__()
        self.linalg = self.linalg_class(self)
        self.fft = self.fft_class(self)
        if self._f is None:
            _check_needs_no_framework_namespace(self)
        #: How `Array`'s operators run each function behind them (`OPERATOR_FUNCTIONS`),
        #: fixed here once, so that an operator reads it without a lookup that could
        #: change later (compilers such as torch.compile guard on what they read):
        #: ``(function, canonical type, *fast case)``, the fast case `fast_case` states
        #: (`fastpath.FastCase`, in its full form: `fastpath.unary_case`/`binary_case`),
        #: padded with Nones, empty containers and False when there is none, and last the
        #: dtypes of its results where they are not the array's (`fastpath.result_dtypes`).
        #: The canonical type (`BackendCore.canonical_type`) is that of the function's
        #: results that need no `normalize`.
        self.operator_plans: dict[str, tuple[Any, ...]] = {
            name: self._operator_plan(name, arity) for name, arity in OPERATOR_FUNCTIONS.items()
        }
        #: How `Array.__getitem__` runs a basic key (`BackendCore.index_case`), fixed here:
        #: ``(array type, negative steps, take, reverse, int_ellipsis)``; Nones and
        #: False for none; and last whether a basic-indexing result remembers its parent
        #: to write through to it (where writes rebind: not `writes_in_place`).
        self.index_plan: tuple[Any, ...] = (
            *(self.index_case() or (None, False, None, None, False)), not self.writes_in_place)

    def _operator_plan(self, function: str, arity: int) -> tuple[Any, ...]:
        canonical = self.canonical_type or self.array_type
        case: tuple[Any, ...] | None
        if arity == 1:
            case = fastpath.unary_case(self.fast_case(function))
        else:
            case = fastpath.binary_case(self.fast_case(function))
        if case is None:
            case = (None, (), None, False) if arity == 1 else (
                None, (), None, None, None, (), (), frozenset(), frozenset())  # fmt: skip
            return (getattr(self, function), canonical, *case, None)
        result = fastpath.result_dtypes(function, case, self.dtypes_by_name)
        return (getattr(self, function), canonical, *case, result)

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def __array_namespace_info__(self) -> Info:
        return self.info_class(self)

    def native_namespace_info(self) -> Info:
        """The native flavour's ``__array_namespace_info__()``: its devices are native
        device objects where the backend's arrays report those (`info_device`)."""
        return self.info_class(self, native=True)


#: The attributes through which generic defaults reach a NumPy-like namespace.
_NAMESPACE_ATTRIBUTES = frozenset({"_f", "_l", "_t"})


def _check_needs_no_framework_namespace(backend: Backend) -> None:
    """A backend without a NumPy-like namespace (``_f = None``) must define every function
    whose generic default would use one: say which when the backend is built, not when a
    user first calls one."""
    missing = []
    for part, obj in (("", backend), ("linalg.", backend.linalg), ("fft.", backend.fft)):
        for name in dir(type(obj)):
            owner = next(k for k in type(obj).__mro__ if name in vars(k))
            if not owner.__module__.startswith(__name__):
                continue  # defined by the backend itself
            code = getattr(inspect.unwrap(vars(owner)[name]), "__code__", None)
            if code is not None and _NAMESPACE_ATTRIBUTES & set(code.co_names):
                missing.append(part + name)
    if missing:
        raise NotImplementedError(
            f"eagerpy_xp {backend.name} backend: it has no NumPy-like namespace (_f is None), "
            f"so it must define {', '.join(missing)} itself; the generic defaults would "
            "call that namespace"
        )

