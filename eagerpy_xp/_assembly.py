"""The assembly: one backend composed into its two namespaces and the extensions.

A backend (``eagerpy_xp.native._<name>``, layer 1) knows only its framework and the
shared facts.  This module is the one place that puts the layers together:

* ``eagerpy_xp.native.<name>`` (`assemble_native`): the backend's functions themselves,
  its dtypes, constants, ``linalg``/``fft`` submodules and info, plus the extensions
  bound to native arrays;
* ``eagerpy_xp.<name>`` (`assemble_wrapped`): every function lifted to take and return
  `Array` (`eagerpy_xp._wrap`), plus the extensions bound to `Array`s;
* the framework learns about `Array` through the backend's `register_wrapper` hook
  (a JAX pytree, a TensorFlow tensor conversion, torch's ``__torch_function__``).

Backends are found by module path, so this module names no framework.
"""

from __future__ import annotations

import gc
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from . import _spec
from ._array import Array, new_array
from ._detect import REGISTRY, namespace_module, register_namespace
from ._dtypes import ALL
from ._wrap import build
from .extensions import bind
from .native._base import Backend


def _backend(name: str) -> Backend:
    """The backend object its descriptor names (``eagerpy_xp.native._<name>._backend``)."""
    if name not in REGISTRY:
        raise ValueError(f"eagerpy_xp: {name!r} is not a registered backend")
    backend: Backend = REGISTRY[name].backend()
    return backend


def _wrapper_of(backend: Backend) -> Any:
    def wrap(raw: Any) -> Array:
        # (JAX also unflattens pytrees with leaves that are no arrays: ``in_axes``)
        return new_array(backend, raw, getattr(raw, "dtype", None))

    return wrap


def _submodule(parent: str, name: str, obj: Any, names: dict[str, str]) -> ModuleType:
    module = ModuleType(f"{parent}.{name}", f"The standard's ``{name}`` extension.")
    for function in names:
        setattr(module, function, getattr(obj, function))
    module.__all__ = list(names)  # type: ignore[attr-defined]
    return module


@contextmanager
def _uncollected() -> Iterator[None]:
    """The cyclic garbage collector paused while a namespace is built, and restored as it
    was (off stays off).

    A build allocates some thousands of objects (the backend's classes, their methods,
    the lifted functions, the tables), every one of them kept for the life of the
    process and none of them garbage.  Allocating them pushes the collector's counts past
    its thresholds, and when a framework has just been imported (torch, TensorFlow: a
    few million objects) that triggers a full collection, which walks every object the
    process holds to free nothing: several times the build itself, paid by the first call
    (``benchmarks/startup.py``).  Paused, the objects are counted as usual and the young
    generations are collected at the next allocations after the build, as they would be
    anyway; only the walk of the whole heap in the middle of the build is skipped."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def assemble_native(namespace: dict[str, Any]) -> None:
    """Fill ``eagerpy_xp.native.<name>``'s globals (``namespace``) from its backend."""
    with _uncollected():
        _assemble_native(namespace)


def _assemble_native(namespace: dict[str, Any]) -> None:
    module_name = namespace["__name__"]
    backend = _backend(module_name.rpartition(".")[2])
    register_namespace(backend.name, False, sys.modules[module_name])
    backend.register_wrapper(Array, _wrapper_of(backend))
    for name in _spec.FUNCTIONS:
        namespace[name] = getattr(backend, name)
    present = [name for name in ALL if name not in backend.absent_dtypes]
    for name in present:
        namespace[name] = backend.dtypes_by_name[name]
    namespace.update(e=math.e, inf=math.inf, nan=math.nan, pi=math.pi, newaxis=None)
    namespace["linalg"] = _submodule(module_name, "linalg", backend.linalg, _spec.LINALG)
    namespace["fft"] = _submodule(module_name, "fft", backend.fft, _spec.FFT)
    namespace["__array_namespace_info__"] = backend.native_namespace_info
    namespace["__array_api_version__"] = _spec.API_VERSION
    namespace["__backend__"] = backend
    namespace.update(bind(module_name, backend.name, wrapped=False))
    namespace["__all__"] = sorted(
        [*_spec.FUNCTIONS, *present, *_spec.CONSTANTS, "linalg", "fft",
         "__array_namespace_info__", "__array_api_version__"]
    )  # fmt: skip
    # The wrapped namespace is built when first asked for: by ``eagerpy_xp.<name>``, and
    # before the first `Array` of this backend is made (`_detect.backend_for`, the way
    # from a native array to an `Array`), so an `Array` never finds its namespace missing
    # and a compiler tracing ``namespace(x)`` (Dynamo) never sees an import between two
    # calls (which would make it compile again).


def assemble_wrapped(namespace: dict[str, Any]) -> None:
    """Fill ``eagerpy_xp.<name>``'s globals (``namespace``) from the native namespace."""
    module_name = namespace["__name__"]
    with _uncollected():
        native = namespace_module(module_name.rpartition(".")[2], wrapped=False)
        register_namespace(native.__backend__.name, True, sys.modules[module_name])
        build(native, namespace)
        namespace.update(bind(module_name, native.__backend__.name, wrapped=True))
