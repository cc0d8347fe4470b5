"""The hooks every backend provides: dtypes, devices, scalars, indexing, mutation, DLPack.

`BackendCore` holds the parts of a backend that are not functions of the standard.  The
defaults suit a NumPy-like framework (mutable arrays, ``x[key]`` indexing); a backend
overrides what its framework does differently.  `NumPyDtypes` is the dtype hooks of
frameworks whose dtypes are NumPy's.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any, ClassVar

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import (
    ALL,
    CATEGORIES,
    CATEGORY_OF,
    COMPLEX_OF_REAL,
    KINDS,
    kind_of,
    promote,
    scalar_kind_ok,
)
from .core import (
    _CONTRACT_TYPES,
    _OURS,
    KIND_RANK,
    NOT_RECOVERED,
    Autodiff,
    AxisError,
    int_range,
    raise_translated,
    stores,
)
from .keys import as_it_is, standard_key


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
    #: Whether ``x[k] = v`` and the in-place operators write into the buffer that every
    #: reference to the array (and every view of it) sees, as NumPy's and torch's do.
    #: False where a write makes a new array (or graph node) that the wrapped `Array`
    #: rebinds to (JAX, TensorFlow, Dask, MLX): there `Array` holds a lock around the
    #: read-modify-write and writes a basic-indexing result through to its parent
    #: (docs/guide.md, "Writes, threads and views").
    writes_in_place: ClassVar[bool] = True
    #: The automatic differentiation engine, or None for a framework without one.
    autodiff: ClassVar[Autodiff | None] = None
    #: Where a function of the backend lives, in error messages ("linalg." for
    #: `Linalg`, "fft." for `FFT`); `translated` reads it with ``_b``, the backend.
    _prefix: ClassVar[str] = ""
    #: The exact type of results stored without `normalize`, where it is not
    #: `array_type` (None): a type whose arrays may still need it (JAX's, which may be
    #: weakly typed) names `NeverCanonical` here.
    canonical_type: ClassVar[type | None] = None
    #: The standard's dtypes the framework holds nowhere: neither namespace has them as
    #: attributes, so clients that find dtypes by name (``hasattr``) never draw them.
    absent_dtypes: ClassVar[frozenset[str]] = frozenset()

    def __init__(self) -> None:
        self._b = self
        self.dtypes_by_name: dict[str, Any] = {n: self.native_dtype(n) for n in ALL}
        self._names_by_dtype: dict[Any, str] = {d: n for n, d in self.dtypes_by_name.items()}
        #: The wrapped flavour's dtype objects by native dtype, where the framework's do
        #: not behave as the standard's dtypes (MLX's: ``== None`` raises); None where the
        #: wrapped flavour has the framework's own (`wrapped_dtypes_by_name` by name).
        self.wrapped_dtypes: dict[Any, Any] | None = None
        self.wrapped_dtypes_by_name: dict[str, Any] = self.dtypes_by_name
        #: The type `Array` stores: results of this exact type need no `normalize`.
        self.array_type: type = self.native_types[0]
        #: Category name (`_dtypes.CATEGORIES`) -> the native dtypes of that category.
        self.category_dtypes: dict[str, frozenset[Any]] = {
            c: frozenset(self.category_members(c)) for c in CATEGORIES
        }
        #: Category (None: no category) -> the dtypes an array argument may have there,
        #: None for any (`translated` reads it on every call).
        any_dtype = self.any_dtype_members()
        self.accepted_dtypes: dict[str | None, frozenset[Any] | None] = {
            None: None if any_dtype is None else frozenset(any_dtype)}
        self.accepted_dtypes.update(self.category_dtypes)

    # -- identity ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<eagerpy_xp {self.name} backend>"

    def is_native(self, obj: Any) -> bool:
        return isinstance(obj, self.native_types)

    def normalize(self, raw: Any) -> Any:
        """The canonical native array for ``raw`` (stored in `Array.raw`)."""
        return raw

    def wrapped_result(self, result: Any) -> Any:
        """A result of the wrapped flavour that is no array, with its native dtypes as the
        wrapped flavour's (`wrapped_dtypes`): a dtype (``result_type``), the ``dtype`` of
        ``finfo``/``iinfo``; anything else as it is."""
        objects = self.wrapped_dtypes
        if objects is None:
            return result
        if hasattr(result, "__dataclass_fields__") and "dtype" in result.__dataclass_fields__:
            import dataclasses

            return dataclasses.replace(result, dtype=objects.get(result.dtype, result.dtype))
        try:
            return objects.get(result, result)
        except TypeError:  # unhashable
            return result

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """Teach the framework the wrapper class ``cls`` (`eagerpy_xp.Array`, whose
        instances hold their native array in ``.raw``; ``wrap(raw)`` makes one of this
        backend without conversion).  Called once by the assembly; by default nothing."""

    def mark_glue(self, function: Callable[..., Any]) -> None:
        """Mark a plain Python function of the wrapped layer for the framework's tracer
        (TensorFlow's AutoGraph must not convert it); by default nothing."""

    # -- compilers and vectorizers (`eagerpy_xp.jit`, `eagerpy_xp.vmap`) ----------------------
    #: Whether `compile` hands back a compiled function (False: it runs ``fn`` as it is).
    compiles: ClassVar[bool] = False

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``fn`` under the framework's compiler (``options`` are the compiler's own).

        ``fn``'s arguments and results are nests (tuples, lists, dicts) of native arrays,
        `Array`s of this backend and Python values; the compiled function keeps the
        flavour (an `Array` in gives an `Array` out).  By default ``fn`` itself: a
        framework without a compiler runs the code as it is."""
        if options:
            raise self.error("jit", f"{self.name} has no compiler, so it takes no options; "
                             f"got {sorted(options)}")  # fmt: skip
        return fn

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any] | None:  # fmt: skip
        """``fn`` mapped over an axis by the framework's own vectorizer (``in_axes``: an
        int, None, or one int or None per positional argument, as `jax.vmap`;
        ``out_axes``: an int or one per result), or None where the framework has none:
        `eagerpy_xp.vmap` then loops over the axis and stacks the results."""
        return None

    def index_case(self) -> tuple[Any, ...] | None:
        """How `Array.__getitem__` runs a basic key (ints, slices, None, the ellipsis and
        tuples of them) without `getitem`, or None to always call it: a
        `fastpath.IndexCase` ``(array_type, negative_steps, take, reverse, int_ellipsis,
        flip)``.  For an array of exactly ``array_type`` and such a key (slices with a
        negative step only where ``negative_steps``), ``raw[key]``, or ``take(raw, key)``
        where ``take`` is given (an int key ``i`` as ``(i, ...)`` where ``int_ellipsis``:
        a framework whose ``raw[i]`` of a 1-D array is a scalar, not a 0-d array); a key
        with a negative step where they are not: ``reverse(raw, key)`` where it is given
        (``[::-1]``: ``flip(raw)``, one framework call, where that is).  A None from
        ``take`` or ``reverse``, any other key and any exception go to `getitem`, which
        raises the contract's error.  By default the framework's own indexing, where
        `getitem` is the default one (``raw[key]`` itself); a backend that overrides
        `getitem` states its case, if any."""
        if type(self).getitem is BackendCore.getitem:
            return (self.array_type,)
        return None

    def fast_case(self, function: str) -> Any:
        """The case in which the standard's element-wise ``function`` is one framework
        call, or None: a `fastpath.UnaryCase` or `fastpath.BinaryCase`
        (`fastpath.binary_case` fills one's defaults), by default the one its method records
        (``fast_case``, set by `fastpath.unary`/`binary`).  `Array`'s operators test it
        themselves and call the op directly, so the result is the function's own."""
        return getattr(getattr(type(self), function, None), "fast_case", None)

    def call_unary(self, function: str, fn: Callable[[Any], Any], x: Any) -> Any:
        """The full path of a unary function made by `elementwise.unary`: ``fn``, the
        framework's function of the standard's ``function``, on ``x``, which
        `core.translated` admitted (an array of this backend of the function's category).
        By default ``fn(x)``; a backend whose arrays include objects its framework's
        functions do not take as they are (MLX's and TensorFlow's wrapped `Array`, a
        TensorFlow variable) reads them first."""
        return fn(x)

    def call_binary(self, function: str, fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
        """The full path of a binary function made by `elementwise.binary`: ``fn``, the
        framework's function of the standard's ``function``, right for two arrays of one
        dtype, on the operands `core.translated` admitted (arrays of this backend of the
        function's category, or Python scalars).  By default ``fn(x1, x2)``, for a
        framework that promotes as the standard does (NumPy, Dask); a backend whose does
        not promotes here, and turns Python scalars into operands of the array's dtype."""
        return fn(x1, x2)

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
        ours = _OURS.match(text) if type(exc) in _CONTRACT_TYPES else None
        if ours is not None:  # error() wrote it, here or in a function this one called
            if text.startswith(self.error(function, "").args[0]):
                return exc
            return self.error(function, text[ours.end():], type(exc))
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return self.error(function, f"{first[:300]} ({type(exc).__name__})", self.error_kind(exc))

    def recover(self, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """After the framework failed in ``function`` (called with ``args`` and
        ``kwargs``): its result computed another way, or `NOT_RECOVERED` (then the
        failure is translated).  Called only on failure; by default `NOT_RECOVERED` (Dask:
        arrays of unknown size that its own functions refuse)."""
        return NOT_RECOVERED

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

    def any_dtype_members(self) -> list[Any] | None:
        """The native dtypes an array argument may have where the function has no
        category, or None for every dtype the framework's arrays have (the default;
        NumPy and Dask refuse ``object`` and string arrays)."""
        return None

    def check_operands(self, function: str, *operands: Any) -> None:
        """The operand check of every backend (one name, one signature): each operand a
        Python scalar or an array of this backend with a dtype of ``function``'s category
        (by its bare name), at least one of them an array.  A backend states its own where
        its messages or its array types differ (NumPy, JAX, TensorFlow)."""
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        arrays = 0
        for x in operands:
            if type(x) in SCALAR_TYPES:
                continue
            self.check_operand(x, function, category)
            arrays += 1
        if not arrays:
            got = " and ".join(type(x).__name__ for x in operands)
            raise self.error(function, f"expected at least one array, got {got}", TypeError)

    def check_operand(self, x: Any, function: str, category: str | None,
                      scalars: bool = False) -> None:  # fmt: skip
        """The slow path of `translated`'s argument check: `TypeError` unless ``x`` is an
        array of this backend (`check_array`; a Python scalar too where ``scalars``)
        whose dtype is of ``category`` (None: any the backend accepts)."""
        if scalars and type(x) in (bool, int, float, complex):
            return
        self.check_array(x, function)
        dtype = getattr(x, "dtype", None)
        allowed = self.accepted_dtypes[category]
        if dtype is not None and allowed is not None and dtype not in allowed:
            if category is None:
                raise self.error(function, f"{dtype} is not a dtype of the standard", TypeError)
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

    def required_dtype(self, dtype: Any, function: str) -> Any:
        """`check_dtype` for a dtype the standard requires (``astype``): None is a
        `TypeError` too, not "the default"."""
        if dtype is None:
            raise self.error(function, "dtype is required, got None; use a dtype object "
                                       "such as xp.float32", TypeError)  # fmt: skip
        return self.check_dtype(dtype, function)

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

    # -- integer arguments -------------------------------------------------------------
    def check_int(self, value: Any, what: str, function: str, low: int | None = None) -> int:
        """``value`` as an int: `TypeError` unless it is one (bool excluded, anything with
        ``__index__`` accepted), `ValueError` below ``low``; both name ``what`` and the
        value."""
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise self.error(function, f"{what} must be an int, got {value!r}", TypeError)
        index = operator.index(value)
        if low is not None and index < low:
            bound = {0: "a non-negative int", 1: "a positive int"}.get(low, f"at least {low}")
            raise self.error(function, f"{what} must be {bound}, got {index}")
        return index

    def check_sizes(self, sizes: Any, what: str, function: str, unknown: bool = False
                    ) -> tuple[int, ...]:  # fmt: skip
        """A shape-like argument (an int or a sequence of ints) as a tuple of ints:
        `TypeError` for a non-integer entry, `ValueError` for a negative one (one -1 is
        allowed where ``unknown``: ``reshape``)."""
        if type(sizes) is tuple:  # the common case, plain ints: no further checks
            unknowns = 0
            for s in sizes:
                if type(s) is not int or s < -1:
                    break
                unknowns += s == -1
            else:
                if unknowns == 0 or (unknown and unknowns == 1):
                    return sizes
        if (not isinstance(sizes, (tuple, list, str, bytes)) and hasattr(sizes, "__len__")
                and hasattr(sizes, "__iter__") and not hasattr(sizes, "dtype")):  # fmt: skip
            sizes = tuple(sizes)  # a framework's own shape object (TensorShape): its entries
        items = (sizes,) if not isinstance(sizes, (tuple, list)) else sizes
        result = tuple(self.check_int(s, f"each entry of {what}", function) for s in items)
        negative = [s for s in result if s < 0]
        if negative and not (unknown and negative == [-1]):
            raise self.error(function, f"{what} {tuple(sizes) if items is sizes else sizes!r} "
                             f"has a negative entry {negative[0]}")  # fmt: skip
        return result

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

    def dlpack(self, raw: Any, *, stream: Any = None, max_version: tuple[int, int] | None = None,
               dl_device: tuple[Any, int] | None = None, copy: bool | None = None) -> Any:  # fmt: skip
        """`Array.__dlpack__`: the framework's own export of ``raw`` (Dask computes first,
        JAX moves the data to ``dl_device``)."""
        return raw.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                              copy=copy)  # fmt: skip

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return raw.__dlpack_device__()  # type: ignore[no-any-return]

    # -- indexing and mutation --------------------------------------------------------------
    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]``; a key the framework refuses is read again with NumPy objects and
        lists as the standard's items (`keys.standard_key`: free when the key works)."""
        try:
            return raw[key]
        except Exception as exc:
            plain = standard_key(key, as_it_is, self, "__getitem__")
            if plain is not key:
                return self.getitem(raw, plain)
            raise_translated(self, _keyed(exc, key), "__getitem__")

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """Write ``value`` at ``key``; return the array now holding the result.  A value
        that would need a downcast (a complex value into a real array, a float into an
        integer one) is a `TypeError`, as the standard's promotion says."""
        value = self.check_setitem_value(raw, value)
        try:
            raw[key] = value
        except Exception as exc:
            plain = standard_key(key, as_it_is, self, "__setitem__")
            if plain is not key:
                return self.setitem(raw, plain, value)
            raise_translated(self, _keyed(exc, key), "__setitem__")
        return raw

    def setitem_scalar(self, target: str, value: Any) -> Any:
        """The Python scalar ``value`` as ``x[k] = value`` stores it into an array of
        dtype ``target``, or the contract's error, the same on every backend.

        A float into an integer array is truncated toward zero, as NumPy and torch store
        it (``int_array[0] = -1.9`` stores -1; the standard leaves it unspecified): NaN
        is a `ValueError` and an infinity an `OverflowError`, as Python's ``int()`` and
        NumPy raise.  An int (or a truncated float) outside the dtype's values is an
        `OverflowError`.  A complex into a real array, or anything but a bool into a bool
        array, is a `TypeError`, as NumPy's and torch's are.
        """
        shown = value
        if type(value) is float and kind_of(target) in ("signed integer", "unsigned integer"):
            if value != value:
                raise self.error("__setitem__", f"cannot store the Python float nan in an array "
                                 f"of dtype {target} (NaN has no integer value)", ValueError)  # fmt: skip
            if value in (math.inf, -math.inf):
                raise self.error("__setitem__", f"cannot store the Python float {value} in an "
                                 f"array of dtype {target} (an infinity has no integer value)",
                                 OverflowError)  # fmt: skip
            value = int(value)  # toward zero, as NumPy and torch store it
        elif not scalar_kind_ok(target, value):
            raise self.error("__setitem__", f"cannot store a Python {type(value).__name__} "
                             f"in an array of dtype {target}", TypeError)  # fmt: skip
        bounds = int_range(target) if type(value) is int else None
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise self.error("__setitem__", f"the Python {type(shown).__name__} {shown!r} does "
                             f"not fit {target} (the values of {target} are {bounds[0]} to "
                             f"{bounds[1]})", OverflowError)  # fmt: skip
        return value

    def check_setitem_value(self, raw: Any, value: Any) -> Any:
        """``value`` (a Python scalar or an array of this backend) as it is stored into
        ``raw`` (a Python scalar through `setitem_scalar`), or `TypeError` where it does
        not fit ``raw``'s dtype without a downcast."""
        target = self.dtype_name(raw.dtype)
        if type(value) in (bool, int, float, complex):
            return self.setitem_scalar(target, value)
        dtype = getattr(value, "dtype", None)
        if dtype is None or not self.is_native(value):
            raise self.error("__setitem__", f"value must be an array or a Python scalar, got "
                             f"{type(value).__name__}", TypeError)  # fmt: skip
        self.check_stored_dtype(self.dtype_name(dtype), target)
        return value

    def check_stored_dtype(self, source: str, target: str) -> None:
        """`TypeError` where values of dtype ``source`` cannot be stored (``x[k] = v``)
        in an array of dtype ``target``: a downcast the standard's promotion does not
        give, other than a value of the array's own kind or a floating value into an
        integer array (stored cast, and truncated, as NumPy and torch do: `stores`)."""
        if not stores(source, target):
            raise self.error("__setitem__", f"cannot store {source} values in an array of dtype "
                             f"{target} without a downcast", TypeError)  # fmt: skip

    def run_write(self, write: Callable[[], list[tuple[Any, Any]]], operand: Any) -> Any:
        """``write()``, a wrapped `Array`'s write (``x[k] = v``, an in-place operator)
        on a backend whose writes rebind (`writes_in_place` False), run under the
        array's write lock, before anything is stored; ``operand`` is the value written
        or the operator's other operand.  ``write()`` returns, and so does this, the
        pairs (wrapper, new native array) to store.  A backend whose arrays belong to a
        thread overrides it (MLX)."""
        return write()

    def in_place_result(self, raw: Any, result: Any, function: str) -> Any:
        """An in-place operator's ``result`` in ``raw``'s dtype and shape, or the error.
        The standard keeps the array's dtype and leaves a promotion to another one
        unspecified; as NumPy and torch do, a result of the array's kind is cast back
        (``float32_array += float64_array``, ``int8_array += int64_array``), one of
        another kind (``int_array += 1.5``) is a `TypeError`, of another shape a
        `ValueError` (an in-place operation cannot broadcast the array itself)."""
        if result.dtype != raw.dtype:
            source, target = self.dtype_name(result.dtype), self.dtype_name(raw.dtype)
            if (kind := _kind(source)) is None or kind != _kind(target):
                raise self.error(function, f"cannot cast the result dtype {source} to the array's "
                                 f"dtype {target} in place (type promotion of the operands gives "
                                 f"{source}, of another kind than {target}; an in-place result keeps the "
                                 "array's dtype: only one of the same kind is cast back)", TypeError)
            result = self.astype(result, raw.dtype)  # type: ignore[attr-defined]
        have, want = self.shape_of(result), self.shape_of(raw)  # (None, unknown: fits any)
        if len(have) != len(want) or any(a != b and None not in (a, b) for a, b in zip(have, want)):
            raise self.error(function, f"the result of shape {have} does not have the array's "
                             f"shape {want} (an in-place operation cannot broadcast the array "
                             "itself)")  # fmt: skip
        return result

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        """Store an in-place operator's ``result`` into ``raw`` (`in_place_result`: cast
        back to ``raw``'s dtype where it is of the same kind); return the new raw."""
        result = self.in_place_result(raw, result, function)
        if not self.mutable:
            return result
        raw[...] = result
        return raw


def _kind(name: str) -> str | None:
    """`kind_of` a standard dtype name, None for another (torch's half floats)."""
    try:
        return kind_of(name)
    except ValueError:
        return None


class NeverCanonical:
    """`BackendCore.canonical_type` of a backend whose every result goes through
    `BackendCore.normalize`: no array has this type."""


def _keyed(exc: Exception, key: Any) -> Exception:
    """``exc`` of a failed indexing, with the key in its message (the framework's may not
    show it); the original as ``__cause__`` of the copy."""
    if _OURS.match(str(exc)):
        return exc
    new = type(exc)(f"index {key!r:.80}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}")
    new.__cause__ = exc
    return new


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
