"""The hooks every backend provides: dtypes, devices, scalars, indexing, mutation, DLPack.

`BackendCore` holds the parts of a backend that are not functions of the standard.  The
defaults suit a NumPy-like framework (mutable arrays, ``x[key]`` indexing); a backend
overrides what its framework does differently.
"""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NoReturn, TypeVar

from ..._devices import Device
from ..._dtypes import ALL, CATEGORIES, CATEGORY_OF, COMPLEX_OF_REAL, KINDS, kind_of, promote

#: Kind order for mixed-kind promotion, which the standard leaves unspecified.
KIND_RANK = {"bool": 0, "signed integer": 1, "unsigned integer": 1, "real floating": 2,
              "complex floating": 3}  # fmt: skip


#: ``call(*raws) -> (value, aux)``: the function an autodiff engine differentiates.
GradCall = Callable[..., tuple[Any, Any]]


class Autodiff:
    """A backend's automatic differentiation (the hook behind `eagerpy_xp.value_and_grad`).

    The generic front end (`eagerpy_xp.extensions.autodiff`) checks arguments and handles
    flavours; an engine only knows its framework: dtype and shape facts, and one
    value-and-gradient run on native arrays.
    """

    def is_real_floating(self, raw: Any) -> bool:
        raise NotImplementedError

    def shape(self, raw: Any) -> tuple[int | None, ...] | None:
        """The static shape, or None where even the rank is unknown (traced code)."""
        return tuple(raw.shape)

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        """``call(*raws)`` returns ``(value, aux)``; return value, aux and the gradients."""
        raise NotImplementedError


class AxisError(ValueError, IndexError):
    """An axis out of range for an array (both a `ValueError` and an `IndexError`, as
    NumPy's: the standard names no exception type)."""


_Method = TypeVar("_Method", bound=Callable[..., Any])

#: Positional-only parameters of the standard that must be arrays (``x1``/``x2`` of
#: element-wise functions may be Python scalars; their factories check them).
_ARRAY_PARAMETERS = frozenset({"x", "condition"})


def translated(function: _Method) -> _Method:
    """The decorated function of the standard (a method of a backend, its ``linalg`` or
    ``fft``) raises only the error contract's exceptions: a framework exception becomes
    the one `BackendCore.translate` picks, naming the function and the backend, with
    the original as ``__cause__``.  Its array parameter (``x``, ``condition``) goes
    through the backend's `check_array` first.  Free on the success path but for one
    call: the ``try`` costs nothing in CPython 3.11.  On failure the backend's `explain`
    may name the offending argument instead, where the framework's message does not."""
    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())[1:]
    position = next((i for i, p in enumerate(parameters)
                     if p.kind is p.POSITIONAL_ONLY and p.name in _ARRAY_PARAMETERS), None)  # fmt: skip
    category = CATEGORY_OF.get(function.__name__) if position is not None else None
    if position is not None and parameters[position].name == "condition":
        category = "boolean"

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            if position is not None and len(args) > position:
                x = args[position]
                b = self._b
                b.check_array(x, self._prefix + function.__name__)
                if category is not None and x.dtype not in b.category_dtypes[category]:
                    raise b.category_error(self._prefix + function.__name__, category, x.dtype)
            return function(self, *args, **kwargs)
        except Exception as exc:
            name = self._prefix + function.__name__
            if not str(exc).startswith("eagerpy_xp."):  # not one of ours: can it say more?
                better = self._b.explain(name, _bound(signature, self, args, kwargs))
                if better is not None:
                    raise better from exc
            raise_translated(self._b, exc, name)

    functools.update_wrapper(method, function)
    return method  # type: ignore[return-value]


def _bound(signature: inspect.Signature, owner: Any, args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The arguments of a failed call by parameter name (``self`` left out; none when
    they do not fit the signature)."""
    try:
        arguments = signature.bind(owner, *args, **kwargs).arguments
    except TypeError:
        return {}
    return dict(list(arguments.items())[1:])


def raise_translated(backend: Any, exc: Exception, function: str) -> NoReturn:
    """Raise `BackendCore.translate` of ``exc`` from it (``exc`` itself when it already
    keeps the contract)."""
    new = backend.translate(exc, function)
    if new is exc:
        raise exc
    raise new from exc


class BackendCore:
    """Backend hooks used by `Array`, the wrapped namespace and the generic functions."""

    #: The backend name: "numpy", "torch", "jax" or "tensorflow".
    name: ClassVar[str]
    #: The framework's NumPy-like namespace that generic defaults delegate to, or None
    #: for a framework without one (then the backend defines every function itself).
    _f: Any = None
    #: The framework's native array types.
    native_types: tuple[type, ...]
    #: Whether the framework's arrays can be written in place.
    mutable: ClassVar[bool] = True
    #: The automatic differentiation engine, or None for a framework without one.
    autodiff: ClassVar[Autodiff | None] = None
    #: Where a function of the backend lives, in error messages ("linalg." for
    #: `Linalg`, "fft." for `FFT`); `translated` reads it with ``_b``, the backend.
    _prefix: ClassVar[str] = ""

    def __init__(self) -> None:
        self._b = self
        self.dtypes_by_name: dict[str, Any] = {n: self.native_dtype(n) for n in ALL}
        self._names_by_dtype: dict[Any, str] = {d: n for n, d in self.dtypes_by_name.items()}
        #: The type `Array` stores: results of this exact type need no `normalize`.
        self.array_type: type = self.native_types[0]
        #: Category name (`_dtypes.CATEGORIES`) -> the native dtypes of that category.
        self.category_dtypes: dict[str, frozenset[Any]] = {
            c: frozenset(self.category_members(c)) for c in CATEGORIES
        }

    # -- identity ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<eagerpy_xp {self.name} backend>"

    def is_native(self, obj: Any) -> bool:
        return isinstance(obj, self.native_types)

    def normalize(self, raw: Any) -> Any:
        """The canonical native array for ``raw`` (stored in `Array.raw`)."""
        return raw

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """Teach the framework the wrapper class ``cls`` (`eagerpy_xp.Array`, whose
        instances hold their native array in ``.raw``; ``wrap(raw)`` makes one of this
        backend without conversion).  Called once by the assembly; by default nothing."""

    def mark_glue(self, function: Callable[..., Any]) -> None:
        """Mark a plain Python function of the wrapped layer for the framework's tracer
        (TensorFlow's AutoGraph must not convert it); by default nothing."""

    #: Every message: `error` writes it, `translate` recognises it.
    def error(self, function: str, message: str, kind: type[Exception] = ValueError) -> Exception:
        """An exception in the contract's one format (``docs/errors.md``):
        ``eagerpy_xp.<backend>.<function>: <message>``; a dunder names the array object
        (``eagerpy_xp.torch.Array.__getitem__``)."""
        return kind(f"{self.message_prefix(function)}{message}")

    def message_prefix(self, function: str) -> str:
        """``eagerpy_xp.<backend>.<function>: `` (a dunder names the array object)."""
        if function.startswith("__"):
            function = f"Array.{function}"
        return f"eagerpy_xp.{self.name}.{function}: "

    # -- the error contract ------------------------------------------------------------------
    def translate(self, exc: Exception, function: str) -> Exception:
        """The contract's exception for ``exc``, raised inside ``function``: ``exc`` itself
        when it is already one of ours (made by `error`), else a new one of the type
        `error_kind` picks, naming the function and the backend and quoting ``exc``."""
        text = str(exc)
        if text.startswith(f"eagerpy_xp.{self.name}."):
            return exc  # ours: error() wrote it
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return self.error(function, f"{first[:300]} ({type(exc).__name__})", self.error_kind(exc))

    def renamed(self, exc: Exception, function: str) -> Exception:
        """``exc``, one of ours naming another function than ``function`` (a helper the
        called function used: ``linalg.matmul`` calls ``matmul``), as the same type and
        text naming ``function``; any other exception as it is.  For backends whose
        `translate` names the function the user called."""
        text = str(exc)
        prefix = self.message_prefix(function)
        if not text.startswith(f"eagerpy_xp.{self.name}.") or text.startswith(prefix):
            return exc
        _, found, rest = text.partition(": ")
        try:
            return type(exc)(prefix + rest) if found else exc
        except Exception:  # an exception type that takes other arguments
            return exc

    def explain(self, function: str, arguments: dict[str, Any]) -> Exception | None:
        """After a framework error in ``function`` called with ``arguments`` (by parameter
        name), the contract's exception naming the offending argument where one can be
        found (an axis out of range, a non-integer size, ...), else None (the framework's
        error is translated).  Called only on failure; by default None."""
        return None

    def error_kind(self, exc: Exception) -> type[Exception]:
        """The contract's type for a framework exception: dtypes -> `TypeError`, keys and
        indices -> `IndexError`, axes -> `AxisError`, what cannot be done ->
        `NotImplementedError`, sizes beyond memory -> `MemoryError`, anything else (shapes,
        sizes, arguments, devices) -> `ValueError`.  Backends refine it from their
        framework's messages."""
        if isinstance(exc, MemoryError):
            return MemoryError
        if isinstance(exc, IndexError):  # "tuple index out of range": shape[axis] was read
            axis = isinstance(exc, ValueError) or "tuple index out of range" in str(exc)
            return AxisError if axis else IndexError
        if isinstance(exc, (TypeError, AttributeError)):
            return TypeError
        if isinstance(exc, NotImplementedError):
            return NotImplementedError
        if isinstance(exc, OverflowError):  # a Python int beyond the dtype, as torch's own
            return OverflowError
        return ValueError

    def category_members(self, category: str) -> list[Any]:
        """The native dtypes a function of ``category`` accepts: the standard's (a backend
        may add its framework's extra dtypes, such as torch's half floats)."""
        return [self.dtypes_by_name[n] for n in CATEGORIES[category]]

    def category_error(self, function: str, category: str, dtype: Any) -> TypeError:
        """The `TypeError` for an array of ``dtype`` given to a function of ``category``."""
        name = self._names_by_dtype.get(dtype, repr(dtype))
        return self.error(function, f"expected an array of a {category} dtype, got {name}",
                          TypeError)  # type: ignore[return-value]  # fmt: skip

    def check_category(self, function: str, *operands: Any) -> None:
        """`TypeError` unless every array among ``operands`` (Python scalars and None are
        skipped) has a dtype of ``function``'s category (`_dtypes.CATEGORY_OF`, by bare
        name: ``linalg.cross`` is ``cross``)."""
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        if category is None:
            return
        allowed = self.category_dtypes[category]
        for operand in operands:
            dtype = getattr(operand, "dtype", None)
            if dtype is not None and dtype not in allowed:
                raise self.category_error(function, category, dtype)

    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is an array of this backend, where the standard requires
        one (`translated` calls it); by default nothing (frameworks that refuse
        non-arrays themselves, or whose functions check)."""

    # -- dtypes ------------------------------------------------------------------------------
    def native_dtype(self, name: str) -> Any:
        """The framework dtype object for a standard dtype name."""
        raise NotImplementedError

    def dtype_name(self, dtype: Any) -> str:
        """The standard name of a framework dtype; `TypeError` for anything else."""
        try:
            return self._names_by_dtype[dtype]
        except (KeyError, TypeError):
            raise TypeError(
                f"{self.name}: {dtype!r} is not a dtype of the standard "
                f"(expected one of {', '.join(ALL)})"
            ) from None

    def check_dtype(self, dtype: Any, function: str) -> Any:
        """``dtype`` as this framework's dtype object; `ValueError` when unsupported."""
        if dtype is None:
            return None
        try:
            return self.dtypes_by_name[self.dtype_name(dtype)]
        except TypeError:
            if isinstance(dtype, str):
                hint = f" such as xp.{dtype}" if dtype in ALL else ""
                raise self.error(function, f"dtype must be a dtype object{hint}, got the "
                                 f"string {dtype!r}", TypeError) from None  # fmt: skip
            raise self.error(function, f"unsupported dtype {dtype!r}", TypeError) from None

    def dtype_names_in(self, kind: Any) -> tuple[str, ...]:
        """Dtype names of a kind (a kind name, a dtype, or a tuple of those)."""
        if isinstance(kind, tuple):
            names: list[str] = []
            for k in kind:
                names.extend(n for n in self.dtype_names_in(k) if n not in names)
            return tuple(names)
        if isinstance(kind, str):
            try:
                return KINDS[kind]
            except KeyError:
                raise ValueError(
                    f"{self.name}: unknown dtype kind {kind!r}; expected one of "
                    f"{', '.join(KINDS)}, a dtype, or a tuple of those"
                ) from None
        return (self.dtype_name(kind),)

    def promote_names(self, a: str, b: str, function: str) -> str:
        """The standard's promotion of two dtype names, extended to mixed kinds (the higher
        kind wins, as every framework does); `TypeError` for uint64 with a signed integer."""
        result = promote(a, b)
        if result is not None:
            return result
        ka, kb = KIND_RANK[kind_of(a)], KIND_RANK[kind_of(b)]
        if ka == kb:
            raise self.error(function, f"{a} and {b} have no common integer dtype", TypeError)
        high, low = (a, b) if ka > kb else (b, a)
        if kind_of(high) == "complex floating" and kind_of(low) == "real floating":
            return promote(high, COMPLEX_OF_REAL[low]) or high
        return high

    def supported_dtype_names(self) -> tuple[str, ...]:
        """The dtype names this backend supports now (JAX without x64 drops 64-bit ones)."""
        return ALL

    def default_dtype_names(self) -> dict[str, str]:
        return {
            "real floating": "float64",
            "complex floating": "complex128",
            "integral": "int64",
            "indexing": "int64",
        }

    # -- axes ------------------------------------------------------------------------------
    def normalize_axis(self, axis: Any, ndim: int, function: str) -> int:
        """``axis`` in ``[0, ndim)``: `TypeError` for a non-integer (bool included),
        `AxisError` outside ``[-ndim, ndim)``."""
        if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
            raise self.error(function, f"axis must be an int, got {axis!r}", TypeError)
        index = operator.index(axis)
        if not -ndim <= index < ndim:
            raise self.error(function, f"axis {index} is out of range for {ndim} dimensions",
                             AxisError)  # fmt: skip
        return index % ndim

    def normalize_axes(self, axis: Any, ndim: int, function: str) -> tuple[int, ...]:
        """None (every axis), an int or a sequence of ints as distinct normalised axes, in
        the order given; `ValueError` for a repeated axis."""
        if axis is None:
            return tuple(range(ndim))
        items = axis if isinstance(axis, (tuple, list)) else (axis,)
        result = tuple(self.normalize_axis(a, ndim, function) for a in items)
        if len(set(result)) != len(result):
            raise self.error(function, f"repeated axis in {axis!r}")
        return result

    # -- devices -------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        return [Device("cpu")]

    def default_device(self) -> Device:
        return Device("cpu")

    def device_of(self, raw: Any) -> Device:
        return Device("cpu")

    def native_device(self, device: Any, function: str = "device") -> Any:
        """Translate a `Device`, string or native device object to the framework's own."""
        device = self.as_device(device, function)
        if device not in self.devices():
            raise self.error(function, f"device {device} is not available")
        return device

    def as_device(self, device: Any, function: str = "device") -> Device:
        """A `Device` for a `Device`, a device string, or a native device object."""
        if isinstance(device, Device):
            return device
        if isinstance(device, str):
            return Device(device)
        raise self.error(function, f"unsupported device {device!r}", TypeError)

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        self.native_device(device, "to_device")
        return raw

    def info_device(self, device: Device, native: bool) -> Any:
        """``device`` as ``__array_namespace_info__`` lists it: a `Device` for the wrapped
        flavour; for the native one, what native arrays report as ``.device`` (by
        default the `Device` itself, which compares equal to its string)."""
        return device

    # -- scalars, display, host copies -----------------------------------------------------
    def shape_of(self, raw: Any) -> tuple[int | None, ...]:
        return tuple(raw.shape)

    def item(self, raw: Any) -> bool | int | float | complex:
        value = raw.item()
        return value  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        import numpy as np

        return np.asarray(raw, dtype=dtype, copy=copy)

    def format_values(self, raw: Any) -> str:
        import numpy as np

        return np.array2string(self.to_numpy(raw), separator=", ")

    def dlpack(
        self,
        raw: Any,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        return raw.__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return raw.__dlpack_device__()  # type: ignore[no-any-return]

    # -- indexing and mutation --------------------------------------------------------------
    def getitem(self, raw: Any, key: Any) -> Any:
        try:
            return raw[key]
        except Exception as exc:
            raise_translated(self, exc, "__getitem__")

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """Write ``value`` at ``key``; return the array now holding the result."""
        try:
            raw[key] = value
        except Exception as exc:
            raise_translated(self, exc, "__setitem__")
        return raw

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        """Store an in-place operator's ``result`` into ``raw``; return the new raw.

        The standard requires the result to keep ``raw``'s dtype and shape.
        """
        if result.dtype != raw.dtype or self.shape_of(result) != self.shape_of(raw):
            raise self.error(
                function,
                f"the result ({self.dtype_name(result.dtype)}, shape "
                f"{self.shape_of(result)}) does not fit the array "
                f"({self.dtype_name(raw.dtype)}, shape {self.shape_of(raw)})",
            )
        if not self.mutable:
            return result
        raw[...] = result
        return raw


class NumPyDtypes:
    """Dtype hooks of frameworks whose dtypes are NumPy dtype objects (NumPy, JAX).

    Scalar types stand for their dtype too: ``numpy.float32``, and ``jax.numpy.float32``
    (which carries it as ``.dtype``).
    """

    _names_by_dtype: dict[Any, str]

    def native_dtype(self, name: str) -> Any:
        import numpy as np

        return np.dtype(name)

    def dtype_name(self, dtype: Any) -> str:
        try:
            return self._names_by_dtype[dtype]
        except (KeyError, TypeError):
            pass
        if isinstance(dtype, type):
            import numpy as np

            inner = getattr(dtype, "dtype", None)
            if isinstance(inner, np.dtype):
                dtype = inner
            elif issubclass(dtype, np.generic):
                dtype = np.dtype(dtype)
        return BackendCore.dtype_name(self, dtype)  # type: ignore[arg-type]
