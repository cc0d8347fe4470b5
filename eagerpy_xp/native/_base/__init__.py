"""The generic backend: every function of the standard, written once.

`Backend` combines the hooks (`core.BackendCore`) with one mixin per chapter of the
standard.  The defaults delegate to a NumPy-like framework namespace; a concrete backend
(`eagerpy_xp.native._numpy`, ...) subclasses it and overrides what its framework does
differently.  `export` turns a backend object into the native-flavour module.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

from ... import _spec
from ..._dtypes import ALL
from .core import BackendCore
from .creation import CreationFunctions
from .data_types import DataTypeFunctions
from .elementwise import ElementwiseFunctions
from .extensions import FFT, Info, Linalg
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

__all__ = ["Backend", "export", "FFT", "Info", "Linalg"]


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

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def __array_namespace_info__(self) -> Info:
        return self.info_class(self)


def _submodule(parent: str, name: str, obj: Any, names: dict[str, str]) -> ModuleType:
    module = ModuleType(f"{parent}.{name}", f"The standard's ``{name}`` extension.")
    for function in names:
        setattr(module, function, getattr(obj, function))
    module.__all__ = list(names)  # type: ignore[attr-defined]
    return module


def export(backend: Backend, namespace: dict[str, Any]) -> None:
    """Fill a native-flavour module's globals from a backend object."""
    module_name = namespace["__name__"]
    for name in _spec.FUNCTIONS:
        namespace[name] = getattr(backend, name)
    for name in ALL:
        namespace[name] = backend.dtypes_by_name[name]
    namespace.update(e=math.e, inf=math.inf, nan=math.nan, pi=math.pi, newaxis=None)
    namespace["linalg"] = _submodule(module_name, "linalg", backend.linalg, _spec.LINALG)
    namespace["fft"] = _submodule(module_name, "fft", backend.fft, _spec.FFT)
    namespace["__array_namespace_info__"] = backend.__array_namespace_info__
    namespace["__array_api_version__"] = _spec.API_VERSION
    namespace["__backend__"] = backend
    from ...extensions import bind  # the EagerPy extensions (xp.value_and_grad, xp.norms, ...)

    namespace.update(bind(module_name, backend.name, wrapped=False))
    namespace["__all__"] = sorted(
        [*_spec.FUNCTIONS, *ALL, *_spec.CONSTANTS, "linalg", "fft",
         "__array_namespace_info__", "__array_api_version__"]
    )  # fmt: skip
