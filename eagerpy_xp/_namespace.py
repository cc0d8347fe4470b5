"""`get_namespace`: the namespace (flavour and backend) of some arrays."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._array import Array
from ._detect import BACKEND_BY_TYPE, BACKENDS, IGNORED, UNSUPPORTED, backend_of_type
from ._spec import SUPPORTED_API_VERSIONS

if TYPE_CHECKING:
    from .native._base import Backend

_SUPPORTED_TEXT = (
    "eagerpy_xp.Array, numpy.ndarray, torch.Tensor, jax.Array, tf.Tensor/tf.Variable, "
    "dask.array.Array "
    "(and Python scalars or None, which are ignored)"
)


_native_modules: dict[str, ModuleType] = {}
_wrapped_modules: dict[str, ModuleType] = {}
_backends_by_type: dict[type, Backend] = BACKEND_BY_TYPE


def native_module(name: str) -> ModuleType:
    """``eagerpy_xp.native.<name>``, imported on first use."""
    try:
        return _native_modules[name]
    except KeyError:
        if name not in BACKENDS:
            raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}") from None
        module = _native_modules[name] = importlib.import_module(f"eagerpy_xp.native.{name}")
        return module


def wrapped_module(name: str) -> ModuleType:
    """``eagerpy_xp.<name>``, imported on first use."""
    try:
        return _wrapped_modules[name]
    except KeyError:
        module = _wrapped_modules[name] = importlib.import_module(f"eagerpy_xp.{name}")
        return module


def backend_named(name: str) -> Backend:
    """The backend object of a backend name (imports that framework)."""
    backend: Backend = native_module(name).__backend__
    return backend


def backend_for(x: Any, where: str) -> Backend:
    """The backend owning native array ``x``; `TypeError` naming ``where`` otherwise."""
    t = type(x)
    try:
        return _backends_by_type[t]
    except KeyError:
        name = backend_of_type(t)
        if name in (IGNORED, UNSUPPORTED):
            raise TypeError(
                f"{where}: expected a native array ({_SUPPORTED_TEXT}), got {t!r}"
            ) from None
        backend = _backends_by_type[t] = backend_named(name)
        return backend


def _check_api_version(api_version: str | None) -> None:
    if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
        raise ValueError(
            f"get_namespace: unsupported api_version {api_version!r}; "
            f"supported: {', '.join(SUPPORTED_API_VERSIONS)} or None"
        )


def get_namespace(*arrays: Any, api_version: str | None = None) -> ModuleType:
    """The array namespace for ``arrays``.

    The wrapped flavour (``eagerpy_xp.<backend>``) if any argument is an `Array`, else the
    native flavour (``eagerpy_xp.native.<backend>``).  Python scalars and ``None`` are
    ignored.  No array, arrays of several libraries, or an unsupported type raise
    `TypeError`; an unknown ``api_version`` raises `ValueError`.
    """
    if api_version is not None:
        _check_api_version(api_version)
    if len(arrays) == 1:  # the common case: one array, already seen
        x = arrays[0]
        t = type(x)
        if t is Array:
            return x._b.wrapped_namespace()
        backend = _backends_by_type.get(t)
        if backend is not None:
            return native_module(backend.name)
    found: str | None = None
    wrapped = False
    for x in arrays:
        t = type(x)
        if t is Array:
            name = x._b.name
            wrapped = True
        else:
            name = backend_of_type(t)
            if name == IGNORED:
                continue
            if name == UNSUPPORTED:
                raise TypeError(
                    f"get_namespace: unsupported array type {t.__module__}.{t.__qualname__}; "
                    f"supported: {_SUPPORTED_TEXT}"
                )
        if found is None:
            found = name
        elif name != found:
            raise TypeError(
                f"get_namespace: arrays of several libraries given ({found} and {name}); "
                "convert them to one backend first"
            )
    if found is None:
        got = ", ".join(type(x).__name__ for x in arrays) or "no arguments"
        raise TypeError(f"get_namespace: no array among the arguments (got {got}); "
                        f"supported: {_SUPPORTED_TEXT}")  # fmt: skip
    return wrapped_module(found) if wrapped else native_module(found)


namespace = get_namespace
