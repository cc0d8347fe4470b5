"""`get_namespace`: the namespace (flavour and backend) of some arrays."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._detect import BACKENDS, IGNORED, UNSUPPORTED, backend_of_type
from ._spec import SUPPORTED_API_VERSIONS

if TYPE_CHECKING:
    from .native._base import Backend

_SUPPORTED_TEXT = (
    "eagerpy_xp.Array, numpy.ndarray, torch.Tensor, jax.Array, tf.Tensor/tf.Variable "
    "(and Python scalars or None, which are ignored)"
)


def native_module(name: str) -> ModuleType:
    """``eagerpy_xp.native.<name>``, imported on first use."""
    return importlib.import_module(f"eagerpy_xp.native.{name}")


def wrapped_module(name: str) -> ModuleType:
    """``eagerpy_xp.<name>``, imported on first use."""
    return importlib.import_module(f"eagerpy_xp.{name}")


def backend_named(name: str) -> Backend:
    """The backend object of a backend name (imports that framework)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
    backend: Backend = native_module(name).__backend__
    return backend


def backend_for(x: Any, where: str) -> Backend:
    """The backend owning native array ``x``; `TypeError` naming ``where`` otherwise."""
    name = backend_of_type(type(x))
    if name in (IGNORED, UNSUPPORTED):
        raise TypeError(f"{where}: expected a native array ({_SUPPORTED_TEXT}), got {type(x)!r}")
    return backend_named(name)


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
    from ._array import Array

    if api_version is not None:
        _check_api_version(api_version)
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
