"""Which backend an object belongs to, read from its type's module: no framework import.

Results are cached per type, so detection costs one dict lookup after the first call.
"""

from __future__ import annotations

from typing import Any, Final

#: Backend names, in the order they are listed to users.
BACKENDS: Final = ("numpy", "torch", "jax", "tensorflow", "dask")

#: The top-level package of a type's module -> the backend that owns it.
_PACKAGE_TO_BACKEND: Final = {
    "numpy": "numpy",
    "torch": "torch",
    "jax": "jax",
    "jaxlib": "jax",
    "tensorflow": "tensorflow",
    "dask": "dask",
}

#: Top-level modules of numpy subclasses that do not follow ndarray semantics.
_REJECTED_MODULES: Final = ("numpy.ma", "numpy.matrixlib", "numpy.rec")

SCALAR_TYPES: Final = (bool, int, float, complex)
IGNORED = "ignored"  # Python scalars and None
UNSUPPORTED = "unsupported"

#: type -> backend object, filled by `_namespace.backend_for` (the one place that imports).
BACKEND_BY_TYPE: dict[type, Any] = {}

_cache: dict[type, str] = {t: IGNORED for t in (*SCALAR_TYPES, type(None))}


def _classify(cls: type) -> str:
    for klass in cls.__mro__:
        module = klass.__module__ or ""
        if module.startswith(_REJECTED_MODULES):
            return UNSUPPORTED
        backend = _PACKAGE_TO_BACKEND.get(module.partition(".")[0])
        if backend is not None:
            if backend == "numpy" and klass.__name__ not in ("ndarray", "generic"):
                continue  # numpy scalars derive from numpy.generic: keep walking
            return backend
    return UNSUPPORTED


def backend_of_type(cls: type) -> str:
    """The backend name owning native arrays of type ``cls``, or IGNORED / UNSUPPORTED."""
    try:
        return _cache[cls]
    except KeyError:
        result = _cache[cls] = _classify(cls)
        return result
