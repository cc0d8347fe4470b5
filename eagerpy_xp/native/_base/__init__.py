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
from . import fastpath, keys
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
        #: change later (compilers such as torch.compile guard on what they read): a
        #: `fastpath.UnaryPlan` or `fastpath.BinaryPlan` (`fastpath.operator_plan`).
        self.operator_plans: dict[str, Any] = {
            name: fastpath.operator_plan(self, name, arity)
            for name, arity in OPERATOR_FUNCTIONS.items()
        }
        #: The same cases per dtype, which each `Array` carries (`fastpath.OperatorTable`,
        #: fixed here: no table is made later, under a compiler's trace).
        self.operator_tables: dict[Any, fastpath.OperatorTable] = fastpath.operator_tables(self)
        # the index types converted from NumPy, found now that the framework is loaded
        # (not in a compiler's first trace, where the change would cost a recompile)
        keys.foreign_types()
        #: How `Array.__getitem__` runs a basic key (`index_case`), fixed here:
        #: a `fastpath.IndexPlan`.
        self.index_plan = fastpath.index_plan(self)

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

