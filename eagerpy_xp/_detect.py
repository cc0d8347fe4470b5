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
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final

from ._descriptor import Descriptor

#: The backends' packages, in the order backends are listed to users: registering a
#: backend is one line here.  Each package's ``__init__`` holds only its `Descriptor`
#: (no framework import), so importing them is cheap.
_PACKAGES: Final = (
    "eagerpy_xp.native._numpy",
    "eagerpy_xp.native._torch",
    "eagerpy_xp.native._jax",
    "eagerpy_xp.native._tensorflow",
    "eagerpy_xp.native._dask",
    "eagerpy_xp.native._mlx",
    "eagerpy_xp.native._ndonnx",
)

#: name -> descriptor, in the order backends are listed to users.
REGISTRY: Final[dict[str, Descriptor]] = {
    d.name: d for d in (importlib.import_module(p).DESCRIPTOR for p in _PACKAGES)
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

#: The types `get_namespace` and friends skip.
_IGNORED_TYPES: Final = frozenset({*SCALAR_TYPES, type(None)})
#: Common types that are no arrays, answered before their module name is read (which a
#: tracing compiler cannot do for built-in types).
_NOT_ARRAY_TYPES: Final = frozenset({tuple, list, dict, str, bytes, slice, type(Ellipsis),
                                     range, type})  # fmt: skip


def plain_scalar(value: Any) -> Any:
    """``value`` as the Python scalar of its kind when it is an instance of a subclass of
    one (NumPy's ``float64`` and ``complex128`` scalars are Python floats and complexes,
    an ``IntEnum`` member is an int): the standard's Python scalar, weak in promotion on
    every backend; anything else as it is."""
    kind = type(value)
    if kind in _IGNORED_TYPES:
        return value
    if isinstance(value, float):
        return float(value)
    if isinstance(value, complex):
        return complex(value)
    if isinstance(value, int):
        return int(value)
    return value


#: Types classified the long way (`_classify`): NumPy's, and types of no backend.
_cache: dict[type, str] = {}


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
    """The backend name owning native arrays of type ``cls``, or IGNORED / UNSUPPORTED.

    A type of a registered package other than NumPy belongs to that backend; this is
    read from immutable tables (the type's module name, `_PACKAGE_TO_BACKEND`), never
    from a cache keyed by types: a compiler that traces Python (Dynamo) guards on what
    it reads, and a cache that grows would make it compile again.  NumPy's types (some
    are not arrays) and foreign ones take `_classify`, cached.
    """
    if cls in _IGNORED_TYPES:
        return IGNORED
    if cls in _NOT_ARRAY_TYPES:
        return UNSUPPORTED
    module = cls.__module__
    name = _PACKAGE_TO_BACKEND.get(module)
    if name is None:
        name = _PACKAGE_TO_BACKEND.get(module.partition(".")[0])
    if name is not None and name != "numpy":
        return name
    try:
        return _cache[cls]
    except KeyError:
        result = _cache[cls] = _classify(cls)
        return result


# -- reaching a backend by name (imports its framework on first use) ----------------------
_namespaces: dict[tuple[str, bool], ModuleType] = {}

#: A key of the globals of every function eagerpy_xp generates with ``exec``: what tells
#: them from the user's globals where a tracer names them by no module (Dynamo's guards,
#: `native._torch._compile.own_guards_dropped`).
GENERATED_SCOPE: Final = "__eagerpy_xp_generated__"


def _importer(path: str) -> Callable[[], ModuleType]:
    """A function whose body is the statement ``from <package> import <module>``.

    A compiler that traces Python (torch.compile's Dynamo) runs an import *statement* at
    trace time, where it cannot trace the builtin ``__import__`` or `importlib`: a first
    ``namespace(x)`` inside a compiled function then imports the backend instead of
    breaking the graph.  The statement needs the path in the source, hence the compile.
    """
    scope: dict[str, Any] = {GENERATED_SCOPE: True}
    package, _, module = path.rpartition(".")
    code = f"def load():\n    from {package} import {module} as m\n    return m\n"
    exec(compile(code, f"<eagerpy_xp import {path}>", "exec"), scope)
    load: Callable[[], ModuleType] = scope["load"]
    return load


#: (backend, wrapped) -> a function importing that namespace module (`_importer`).
_IMPORTERS: Final = {
    (name, wrapped): _importer(f"eagerpy_xp.{name}" if wrapped else f"eagerpy_xp.native.{name}")
    for name in REGISTRY for wrapped in (False, True)
}  # fmt: skip


def namespace_module(name: str, wrapped: bool) -> ModuleType:
    """``eagerpy_xp.<name>`` (wrapped) or ``eagerpy_xp.native.<name>``, imported once."""
    try:
        return _namespaces[name, wrapped]
    except KeyError:
        if name not in REGISTRY:
            raise ValueError(
                f"eagerpy_xp: unknown backend {name!r}; known: {', '.join(BACKENDS)}"
            ) from None
        # the import registers the module (`register_namespace`): no write here, which
        # a tracing compiler would record
        return _IMPORTERS[name, wrapped]()


def register_namespace(name: str, wrapped: bool, module: ModuleType) -> None:
    """Record a namespace module as built (the assembly calls it while it imports)."""
    _namespaces[name, wrapped] = module


def backend_named(name: str) -> Any:
    """The backend object of a backend name (imports that framework, and builds both of
    its namespaces: the caller may make `Array`s of it)."""
    return namespace_module(name, wrapped=True).__backend__


def backend_for(x: Any, where: str) -> Any:
    """The backend owning native array ``x``; `TypeError` naming ``where`` otherwise.

    Its wrapped namespace is built by then (``namespace(x)`` of the native array alone
    builds only the native one): this is how a native array becomes an `Array`
    (``astensor``, ``Array(x)``, ``convert``), and an `Array` finds its namespace built."""
    t = type(x)
    name = backend_of_type(t)
    if name == IGNORED or name == UNSUPPORTED:
        raise TypeError(
            f"{where}: expected a native array ({SUPPORTED_TEXT}), got "
            f"{t.__module__}.{t.__qualname__}"
        )
    return namespace_module(name, True).__backend__
