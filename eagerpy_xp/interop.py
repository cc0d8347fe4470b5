"""Functions found by name, for libraries that dispatch on an array's module name.

autoray (``autoray.do("sum", x)``) and opt_einsum (``opt_einsum.contract(...)``) find
an array's functions by the top-level module of its class: ``eagerpy_xp`` for an
`Array` of any backend.  They get:

* opt_einsum: ``eagerpy_xp.einsum`` and ``eagerpy_xp.tensordot`` (and the method
  ``Array.transpose``), found with no registration;
* autoray: this module.  Every function of the standard by its name (``sum``,
  ``linalg.svd``, ``fft.fft``, ...), NumPy's names where the standard renamed one
  (``absolute``, ``arccos``, ``concatenate``, ``power``, ``transpose``, ``trace``,
  ``linalg.norm``, ...), and ``einsum``.  Each call finds the namespace of its array
  arguments and calls that namespace's function: `Array`s of a backend in, `Array`s of
  that backend out (native arrays in, native out).

einops finds a tensor's backend by its type among the subclasses of its own
``AbstractBackend``; `register_einops` adds one for `Array`, whose operations are the
standard's functions of the array's namespace (``einops.rearrange(x, ...)`` on an `Array`).

eagerpy_xp registers with autoray (`register_autoray`) and einops (`register_einops`) as
soon as both packages are imported, in either order: at ``import eagerpy_xp`` for a library
already imported, else by one import hook that registers right after the library's own
import and takes itself off ``sys.meta_path`` once every library of `CLIENTS` is imported.

Functions take the standard's signatures (``sum(x, axis=0)``, keyword-only where the
standard says so); a function with no array argument (``zeros(shape)``, autoray's
``do("zeros", shape, like=x)``) cannot tell the backend and raises `TypeError`: create
arrays with the namespace (``x.__array_namespace__().zeros(...)``) or ``zeros_like``.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ._array import Array
from ._namespace import get_namespace
from ._spec import DTYPES, FFT, FUNCTIONS, LINALG
from .extensions.boundary import is_native
from .extensions.einsum import einsum

__all__ = [
    "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "astype", "concatenate", "conjugate", "einsum", "fft", "invert", "left_shift", "linalg",
    "power", "register_autoray", "register_einops", "right_shift", "swapaxes", "tensordot",
    "trace", "transpose",
]  # fmt: skip


def _is_array(x: Any) -> bool:
    return type(x) is Array or (hasattr(x, "shape") and is_native(x))


def _namespace_of(function: str, args: Sequence[Any]) -> ModuleType:
    """The namespace of the arrays among ``args`` (and in list or tuple arguments)."""
    arrays = [a for arg in args
              for a in (arg if type(arg) in (list, tuple) else (arg,)) if _is_array(a)]  # fmt: skip
    if not arrays:
        raise TypeError(
            f"eagerpy_xp.interop.{function}: no array among the arguments, so no backend to "
            "call; create arrays with the namespace (xp = eagerpy_xp.namespace(x); "
            f"xp.{function.rpartition('.')[2]}(...)) or a *_like function"
        )
    return get_namespace(*arrays)


def _dispatcher(name: str) -> Callable[..., Any]:
    """A function calling ``name`` (``"sum"``, ``"linalg.svd"``) of its arrays' namespace."""
    module, _, function = name.rpartition(".")

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        xp = _namespace_of(name, args)
        owner = getattr(xp, module) if module else xp
        return getattr(owner, function)(*args, **kwargs)

    dispatch.__name__ = dispatch.__qualname__ = function
    dispatch.__doc__ = f"``{name}`` of the namespace of the array arguments."
    return dispatch


@functools.cache
def _standard(name: str) -> Callable[..., Any]:
    return _dispatcher(name)


def __getattr__(name: str) -> Any:
    """The standard's functions by name (``eagerpy_xp.interop.sum``)."""
    if name in FUNCTIONS:
        return _standard(name)
    raise AttributeError(f"module 'eagerpy_xp.interop' has no attribute {name!r}")


# -- NumPy's names for functions the standard renamed -------------------------------------
absolute = _dispatcher("abs")
arccos = _dispatcher("acos")
arccosh = _dispatcher("acosh")
arcsin = _dispatcher("asin")
arcsinh = _dispatcher("asinh")
arctan = _dispatcher("atan")
arctan2 = _dispatcher("atan2")
arctanh = _dispatcher("atanh")
conjugate = _dispatcher("conj")
invert = _dispatcher("bitwise_invert")
left_shift = _dispatcher("bitwise_left_shift")
power = _dispatcher("pow")
right_shift = _dispatcher("bitwise_right_shift")


def concatenate(arrays: Sequence[Any], axis: int | None = 0) -> Any:
    """NumPy's ``concatenate``: the standard's ``concat`` (``axis`` may be positional)."""
    return _namespace_of("concatenate", (arrays,)).concat(arrays, axis=axis)


def transpose(x: Any, axes: Sequence[int] | None = None) -> Any:
    """NumPy's ``transpose``: ``permute_dims``; ``axes=None`` reverses the axes."""
    xp = _namespace_of("transpose", (x,))
    order = tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes)
    return xp.permute_dims(x, order)


def swapaxes(x: Any, axis1: int, axis2: int) -> Any:
    """NumPy's ``swapaxes``: ``axis1`` and ``axis2`` exchanged."""
    return _namespace_of("swapaxes", (x,)).moveaxis(x, (axis1, axis2), (axis2, axis1))


def trace(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """NumPy's ``trace``: the sums of the diagonals over ``axis1`` and ``axis2``."""
    xp = _namespace_of("trace", (x,))
    return xp.linalg.trace(xp.moveaxis(x, (axis1, axis2), (-2, -1)), offset=offset)


def tensordot(x1: Any, x2: Any, axes: int | Sequence[Sequence[int]] = 2) -> Any:
    """``tensordot`` of the arrays' namespace; ``axes`` may be positional, as in NumPy."""
    return _namespace_of("tensordot", (x1, x2)).tensordot(x1, x2, axes=axes)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    """``astype``; ``dtype`` may also be a dtype's name (``"float32"``), as in NumPy."""
    xp = _namespace_of("astype", (x,))
    if isinstance(dtype, str) and dtype in DTYPES:
        dtype = getattr(xp, dtype)
    return xp.astype(x, dtype, copy=copy, device=device)


class _Submodule:
    """``linalg`` and ``fft``: their standard functions by name, plus NumPy's extras."""

    def __init__(self, name: str, functions: dict[str, str], **extras: Callable[..., Any]):
        self.__name__ = f"eagerpy_xp.interop.{name}"
        self._name = name
        self._functions = functions
        self._extras = extras

    def __getattr__(self, function: str) -> Callable[..., Any]:
        if function in self._extras:
            return self._extras[function]
        if function in self._functions:
            return _standard(f"{self._name}.{function}")
        raise AttributeError(f"module {self.__name__!r} has no attribute {function!r}")

    def __dir__(self) -> list[str]:
        return sorted({*self._functions, *self._extras})


def _norm(x: Any, ord: Any = None, axis: int | tuple[int, ...] | None = None,
          keepdims: bool = False) -> Any:  # fmt: skip
    """NumPy's ``linalg.norm``: a vector norm over one axis (or all, for ``ord=None``), a
    matrix norm over two (a 2-D array's two with ``axis=None``)."""
    xp = _namespace_of("linalg.norm", (x,))
    if axis is None:
        if ord is None:
            norm = xp.linalg.vector_norm(x)
            return xp.reshape(norm, (1,) * x.ndim) if keepdims else norm
        if x.ndim not in (1, 2):
            raise ValueError(f"eagerpy_xp.{xp.__backend__.name}.linalg.norm: ord={ord!r} needs axis for a "
                             f"{x.ndim}-d array")  # fmt: skip
        axis = tuple(range(x.ndim))
    if isinstance(axis, int) or len(axis) == 1:
        return xp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError(f"eagerpy_xp.{xp.__backend__.name}.linalg.norm: axis must name one or two axes, "
                         f"got {axis!r}")  # fmt: skip
    moved = xp.moveaxis(x, axis, (-2, -1))
    norm = xp.linalg.matrix_norm(moved, keepdims=True, ord="fro" if ord is None else ord)
    norm = xp.moveaxis(norm, (-2, -1), axis)
    return norm if keepdims else xp.squeeze(norm, axis=axis)


linalg = _Submodule("linalg", LINALG, norm=_norm)
fft = _Submodule("fft", FFT)


# -- autoray ------------------------------------------------------------------------------
def _reduced_svd(svd: Callable[..., Any]) -> Callable[..., Any]:
    """autoray's ``linalg.svd`` convention (as it sets up NumPy's): reduced by default."""

    @functools.wraps(svd)
    def reduced(x: Any, full_matrices: bool = False) -> Any:
        return svd(x, full_matrices=full_matrices)

    return reduced


def register_autoray(autoray: ModuleType | None = None) -> None:
    """Tell autoray to find the functions of `Array`s here (their autoray backend is
    ``"eagerpy_xp.interop"``).

    Runs by itself (see the module's doc); calling it again does no harm (after
    ``importlib.reload(autoray)``, for instance).
    """
    ar = sys.modules["autoray"] if autoray is None else autoray
    ar.register_backend(Array, __name__)
    ar.register_function(__name__, "linalg.svd", wrapper=_reduced_svd)
    # autoray's own astype reads a dtype by name from the backend's module: names alone
    # cannot tell torch.float32 from numpy.float32, so it is replaced by this module's
    ar.register_function(__name__, "astype", astype)


# -- einops --------------------------------------------------------------------------------
def _namespace(x: Any) -> ModuleType:
    return x.__array_namespace__()  # type: ignore[no-any-return]


def _einops_backend(base: Any) -> type:
    """The einops backend of `Array`s, a subclass of einops' ``AbstractBackend`` (``base``).

    einops finds the backend of a tensor among the subclasses of ``AbstractBackend``
    whose ``framework_name`` module is imported (``eagerpy_xp`` for `Array`s of every
    backend).  Each operation is the standard's function of the array's namespace, so
    ``einops.rearrange(x, ...)`` gives what ``einops.array_api.rearrange(x, ...)`` gives:
    an `Array` of ``x``'s backend, lazy on Dask and MLX.
    """

    class ArrayBackend(base):  # type: ignore[misc,valid-type]
        framework_name = "eagerpy_xp"

        def is_appropriate_type(self, tensor: Any) -> bool:
            return type(tensor) is Array

        def from_numpy(self, x: Any) -> Any:
            """NumPy's `Array` (einops' tests): a NumPy array names no other backend."""
            return _numpy_namespace().asarray(x)

        def to_numpy(self, x: Any) -> Any:
            return x.numpy()

        def arange(self, start: int, stop: int) -> Any:
            xp = _numpy_namespace()
            return xp.arange(start, stop, dtype=xp.int64)

        def shape(self, x: Any) -> Any:
            return x.shape

        def reshape(self, x: Any, shape: Sequence[int]) -> Any:
            return _namespace(x).reshape(x, tuple(shape))

        def transpose(self, x: Any, axes: Sequence[int]) -> Any:
            return _namespace(x).permute_dims(x, tuple(axes))

        def reduce(self, x: Any, operation: str, axes: Sequence[int]) -> Any:
            """einops' reductions (min, max, sum, mean, prod, any, all) are the standard's."""
            return getattr(_namespace(x), operation)(x, axis=tuple(axes))

        def stack_on_zeroth_dimension(self, tensors: list[Any]) -> Any:
            return get_namespace(*tensors).stack(tensors)

        def add_axis(self, x: Any, new_position: int) -> Any:
            return _namespace(x).expand_dims(x, axis=new_position)

        def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any:
            """New axes of length 1, then broadcast to their lengths (as einops' own
            array-API path does, and its torch backend with ``expand``)."""
            xp = _namespace(x)
            for position in sorted(pos2len):
                x = xp.expand_dims(x, axis=position)
            shape = list(x.shape)
            for position, length in pos2len.items():
                shape[position] = length
            return xp.broadcast_to(x, tuple(shape))

        def tile(self, x: Any, repeats: Sequence[int]) -> Any:
            return _namespace(x).tile(x, tuple(repeats))

        def concat(self, tensors: list[Any], axis: int) -> Any:
            return get_namespace(*tensors).concat(tensors, axis=axis)

        def is_float_type(self, x: Any) -> bool:
            """Whether einops may take a ``mean`` (real and complex floating dtypes)."""
            return bool(_namespace(x).isdtype(x.dtype, ("real floating", "complex floating")))

        def einsum(self, pattern: str, *x: Any) -> Any:
            return einsum(pattern, *x)

    ArrayBackend.__qualname__ = "ArrayBackend"
    ArrayBackend.__module__ = __name__
    return ArrayBackend


def _numpy_namespace() -> ModuleType:
    """eagerpy_xp's wrapped NumPy namespace (imported on first use: NumPy only)."""
    return importlib.import_module("eagerpy_xp.numpy")


#: The einops backend class, once made: einops holds its backends' classes only weakly
#: (``AbstractBackend.__subclasses__()``), so this reference keeps it found.
_EINOPS_BACKEND: list[type] = []


def register_einops(einops: ModuleType | None = None) -> None:
    """Give einops a backend for `Array`s: ``einops.rearrange``, ``reduce``, ``repeat``,
    ``pack``/``unpack`` and ``einsum`` then take them (einops' ``array_api`` functions
    take them anyway, through ``__array_namespace__``).

    Runs by itself, like `register_autoray`; calling it again does no harm.
    """
    backends = importlib.import_module("einops._backends")
    base = backends.AbstractBackend
    if not any(issubclass(cls, base) for cls in _EINOPS_BACKEND):
        _EINOPS_BACKEND[:] = [_einops_backend(base)]  # a reloaded einops gets a new one


# -- registration when a client library is imported ------------------------------------------
#: Client libraries that find an array's functions through a registry of their own, and
#: how eagerpy_xp registers with each (called with the imported module).
CLIENTS: dict[str, Callable[[ModuleType], None]] = {
    "autoray": register_autoray,
    "einops": register_einops,
}


def _register_or_warn(name: str, module: ModuleType) -> None:
    try:
        CLIENTS[name](module)
    except Exception as exc:  # a library whose registration API changed must still import
        warnings.warn(f"eagerpy_xp could not register with {name}: {exc!r}; {name} will not "
                      "take eagerpy_xp Arrays", stacklevel=2)  # fmt: skip


class _RegisterAfterLoading(importlib.abc.Loader):
    """Loads a client library with its own loader, then registers eagerpy_xp with it."""

    def __init__(self, name: str, loader: Any) -> None:
        self._name = name
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the library sees its own loader, as if this hook had never been there
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _register_or_warn(self._name, module)


class _ClientHook(importlib.abc.MetaPathFinder):
    """Waits for the import of each client library in ``waiting`` (once each); takes
    itself off ``sys.meta_path`` when none is left to wait for."""

    def __init__(self, waiting: set[str]) -> None:
        self.waiting = waiting

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:  # fmt: skip
        try:
            self.waiting.remove(fullname)
        except KeyError:  # another module, or another thread took this one already
            return None
        if not self.waiting:
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
        spec = importlib.util.find_spec(fullname)  # (this hook no longer answers for it)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _RegisterAfterLoading(fullname, spec.loader)
        return spec


def watch_clients() -> None:
    """Registers with each library of `CLIENTS` now if it is imported, else when it is
    (called once by ``import eagerpy_xp``)."""
    waiting = set()
    for name in CLIENTS:
        module = sys.modules.get(name)
        if module is not None:
            _register_or_warn(name, module)
        else:
            waiting.add(name)
    if waiting and not any(isinstance(f, _ClientHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _ClientHook(waiting))
