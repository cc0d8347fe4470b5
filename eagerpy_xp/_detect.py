"""The backend registry, and which backend an object belongs to (no framework import).

`REGISTRY` is the one list of backends: registering a backend is one line there.  The
backend itself lives in ``eagerpy_xp.native._<name>`` (layer 1); its two namespaces,
``eagerpy_xp.native.<name>`` and ``eagerpy_xp.<name>``, are composed by
``eagerpy_xp._assembly``.  Detection reads ``type(x).__module__`` and is cached per type,
so it costs one dict lookup after the first call.  The functions at the end reach a
backend's namespaces by module path, importing its framework on first use only.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Final, NamedTuple


class Registration(NamedTuple):
    """How eagerpy_xp recognises a backend's arrays."""

    #: Top-level packages whose types belong to the backend (``type(x).__module__``).
    packages: tuple[str, ...]
    #: The array types users pass, as named in error messages.
    array_types: str
    #: Whether the backend differentiates (its ``autodiff`` hook), for error messages.
    differentiable: bool = False


#: name -> registration, in the order backends are listed to users.
REGISTRY: Final = {
    "numpy": Registration(("numpy",), "numpy.ndarray"),
    "torch": Registration(("torch",), "torch.Tensor", differentiable=True),
    "jax": Registration(("jax", "jaxlib"), "jax.Array", differentiable=True),
    "tensorflow": Registration(("tensorflow",), "tf.Tensor/tf.Variable", differentiable=True),
    "dask": Registration(("dask",), "dask.array.Array"),
    "mlx": Registration(("mlx",), "mlx.core.array", differentiable=True),
}

#: Backend names, in the order they are listed to users.
BACKENDS: Final = tuple(REGISTRY)

#: The top-level package of a type's module -> the backend that owns it.
_PACKAGE_TO_BACKEND: Final = {p: name for name, r in REGISTRY.items() for p in r.packages}

#: The backends with automatic differentiation.
DIFFERENTIABLE: Final = tuple(name for name, r in REGISTRY.items() if r.differentiable)

#: The array types eagerpy_xp accepts, for error messages.
SUPPORTED_TEXT: Final = "eagerpy_xp.Array, " + ", ".join(r.array_types for r in REGISTRY.values())

#: Top-level modules of numpy subclasses that do not follow ndarray semantics.
_REJECTED_MODULES: Final = ("numpy.ma", "numpy.matrixlib", "numpy.rec")

SCALAR_TYPES: Final = (bool, int, float, complex)
IGNORED = "ignored"  # Python scalars and None
UNSUPPORTED = "unsupported"

#: native type -> backend object; `eagerpy_xp._assembly` fills it when it builds a backend.
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


# -- reaching a backend by name (imports its framework on first use) ----------------------
_namespaces: dict[tuple[str, bool], ModuleType] = {}


def namespace_module(name: str, wrapped: bool) -> ModuleType:
    """``eagerpy_xp.<name>`` (wrapped) or ``eagerpy_xp.native.<name>``, imported once."""
    try:
        return _namespaces[name, wrapped]
    except KeyError:
        if name not in REGISTRY:
            raise ValueError(
                f"eagerpy_xp: unknown backend {name!r}; known: {', '.join(BACKENDS)}"
            ) from None
        path = f"eagerpy_xp.{name}" if wrapped else f"eagerpy_xp.native.{name}"
        module = _namespaces[name, wrapped] = importlib.import_module(path)
        return module


def backend_named(name: str) -> Any:
    """The backend object of a backend name (imports that framework)."""
    return namespace_module(name, wrapped=False).__backend__


def backend_for(x: Any, where: str) -> Any:
    """The backend owning native array ``x``; `TypeError` naming ``where`` otherwise."""
    t = type(x)
    try:
        return BACKEND_BY_TYPE[t]
    except KeyError:
        name = backend_of_type(t)
        if name in (IGNORED, UNSUPPORTED):
            raise TypeError(
                f"{where}: expected a native array ({SUPPORTED_TEXT}), got "
                f"{t.__module__}.{t.__qualname__}"
            ) from None
        backend = BACKEND_BY_TYPE[t] = backend_named(name)
        return backend
