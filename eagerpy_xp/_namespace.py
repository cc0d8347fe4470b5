"""`get_namespace`: the namespace (flavour and backend) of some arrays."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ._array import Array
from ._detect import IGNORED, SUPPORTED_TEXT, UNSUPPORTED, backend_of_type, namespace_module
from ._spec import SUPPORTED_API_VERSIONS


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
    if len(arrays) == 1:  # the common case: one array
        x = arrays[0]
        t = type(x)
        if t is Array:
            return namespace_module(x._b.name, True)
        name = backend_of_type(t)
        if name is not IGNORED and name is not UNSUPPORTED:
            return namespace_module(name, False)
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
                    f"supported: {SUPPORTED_TEXT} (Python scalars and None are ignored)"
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
                        f"supported: {SUPPORTED_TEXT}")  # fmt: skip
    return namespace_module(found, wrapped)


namespace = get_namespace
