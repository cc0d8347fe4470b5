"""The JAX backend's core: array types, x64, devices, scalars, the jitted fast-case helpers, the error contract and the hooks (`JaxCore`)."""

from __future__ import annotations

import functools
import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import ALL, CATEGORIES, CATEGORY_OF
from .._base import Backend, fastpath
from .._base.arguments import recheck
from .._base.core import int_range
from .._base.functions import accumulation_dtype
from .._base.hooks import NeverCanonical, NumPyDtypes


def _concrete_array_type() -> type:
    """The concrete type of `jax.Array`, which fast paths test exactly (tracers and
    anything else take the full path); `jax.Array` itself, which no array has as its
    exact type, where JAX's layout differs."""
    try:
        from jax._src.array import ArrayImpl
    except ImportError:  # pragma: no cover - another JAX layout: no fast paths
        return jax.Array
    return ArrayImpl  # type: ignore[no-any-return]


_ARRAY: Any = _concrete_array_type()

#: How to turn on 64-bit types, quoted by every error about them.
X64_HINT = (
    "64-bit dtypes need JAX's x64 mode: set JAX_ENABLE_X64=1 before starting Python, or "
    'call jax.config.update("jax_enable_x64", True) at startup'
)
_BITS64 = frozenset({"int64", "uint64", "float64", "complex128"})
_ALL32 = tuple(n for n in ALL if n not in _BITS64)

#: jax platform name -> `Device` kind.
_PLATFORM_KINDS = {"cpu": "cpu", "gpu": "cuda", "cuda": "cuda", "rocm": "cuda", "tpu": "tpu",
                   "metal": "mps"}  # fmt: skip
#: `Device` kind -> jax backend names to ask for its devices.
_KIND_PLATFORMS = {"cpu": ("cpu",), "cuda": ("cuda", "rocm", "gpu"), "tpu": ("tpu",),
                   "mps": ("metal",)}  # fmt: skip


_DEVICES: dict[Any, Device] = {}


def x64_enabled() -> bool:
    """Whether JAX's 64-bit mode is on now (thread-local contexts included)."""
    return bool(jax.config.jax_enable_x64)  # type: ignore[attr-defined]


def _strong(x: Any) -> Any:
    """``x`` without JAX's weak type (a weakly typed array promotes like a Python scalar)."""
    if getattr(x, "weak_type", False):
        return jax.lax.convert_element_type(x, x.dtype)
    return x


#: Category of the standard (`_dtypes.CATEGORIES`) -> its dtypes, as `jax.Array.dtype`
#: gives them (NumPy dtype objects); a function without a category takes any dtype.
_IN: dict[str | None, frozenset[np.dtype]] = {
    None: frozenset(np.dtype(n) for n in ALL),
    **{c: frozenset(np.dtype(n) for n in names) for c, names in CATEGORIES.items()},
}
_REAL_FLOATING = _IN["real floating-point"]
_FLOATING = _IN["floating-point"]


#: The Python ints ``jax.numpy`` reads as a weakly typed scalar: they must fit its
#: default integer (int32 unless x64 is on, so int32 in any mode).  A larger one raises
#: `OverflowError` even beside an array whose dtype holds it (``uint64`` with ``2**63``,
#: ``float32`` with ``2**70``); `_exact_scalars` makes it a 0-d array of that dtype.
_WEAK_INT_MIN, _WEAK_INT_MAX = -(2**31), 2**31 - 1


#: Integer dtype -> the Python ints a fast path passes beside it: within its range (JAX
#: would wrap ``1000`` into int8) and within the weak range
_FAST_INT_RANGE = {np.dtype(n): (max(low, _WEAK_INT_MIN), min(high, _WEAK_INT_MAX))
                   for n in ALL if (bounds := int_range(n)) is not None
                   for low, high in (bounds,)}  # fmt: skip


def _fast_scalar(value: Any, dtype: Any) -> Any:
    """A Python int or float meeting a JAX array of ``dtype`` in a fast path, where
    ``jax.numpy`` keeps the array's dtype (an int with a numeric array, a float with a
    floating one); None otherwise (the full path decides: an int beyond the weak range or
    beyond an integer dtype's range too)."""
    if type(value) is int:
        bounds = _FAST_INT_RANGE.get(dtype)
        if bounds is not None:
            return value if bounds[0] <= value <= bounds[1] else None
        return value if dtype.kind in "fc" and _WEAK_INT_MIN <= value <= _WEAK_INT_MAX else None
    return value if dtype.kind in "fc" else None


def _exact_scalars(x1: Any, x2: Any) -> tuple[Any, Any]:
    """``x1, x2`` with a Python int beyond the weak range (`_WEAK_INT_MIN`) beside a
    numeric array made a 0-d array of the array's dtype, which is what the standard
    converts the scalar to, where that dtype holds it; anything else unchanged (an int
    out of the dtype's range stays, and JAX raises for it)."""
    if type(x2) is int and not _WEAK_INT_MIN <= x2 <= _WEAK_INT_MAX:
        return x1, _exact_int(x2, x1)
    if type(x1) is int and not _WEAK_INT_MIN <= x1 <= _WEAK_INT_MAX:
        return _exact_int(x1, x2), x2
    return x1, x2


def _exact_int(value: int, other: Any) -> Any:
    dtype = getattr(other, "dtype", None)
    if dtype is None or dtype.kind not in "iufc":
        return value
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            return value
    elif abs(value) >= 2**1024:  # beyond every float (float(value) would raise)
        return value
    return jnp.asarray(value, dtype=dtype)


#: Integer dtype -> the Python ints a fast path hands to ``jax.numpy`` beside it: those
#: its range holds, within the weak range (`_WEAK_INT_MIN`); other dtypes: the weak range.
_WEAK_INT_RANGE = (_WEAK_INT_MIN, _WEAK_INT_MAX)
_INT_IN_RANGE: dict[Any, tuple[int, int]] = {
    d: (max(int(np.iinfo(d).min), _WEAK_INT_MIN), min(int(np.iinfo(d).max), _WEAK_INT_MAX))
    for d in _IN["integer"]
}  # fmt: skip


def _weak_scalar(value: Any, dtype: Any) -> Any:
    """A Python scalar beside a JAX array of ``dtype`` as a function made by `_binary`
    hands it to ``jax.numpy`` (which reads it as weakly typed), where the result keeps the
    array's kind, and so is not weakly typed itself: a bool, an int (one the dtype holds,
    `_INT_IN_RANGE`) beside a numeric array, a float beside a floating one, a complex
    number beside a complex one; None for anything else (the full path decides)."""
    kind, of = type(value), dtype.kind
    if kind is float:
        return value if of in "fc" else None
    if kind is int:
        low, high = _INT_IN_RANGE.get(dtype, _WEAK_INT_RANGE)
        return value if of != "b" and low <= value <= high else None
    if kind is complex:
        return value if of == "c" else None
    return value


fastpath.as_is(_weak_scalar, _FLOATING,
               _FLOATING | {np.dtype("int32"), np.dtype("int64")})  # fmt: skip


def _jitted(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a ``jax.numpy`` function) compiled by `jax.jit` as a whole: the same
    XLA computation as ``function`` itself, which is jitted inside, without its Python
    checks in front (the fast paths made them), through `jax.jit`'s C++ dispatch.  Python
    scalars arrive weakly typed, as they do in ``function``'s own jit; the x64 mode is
    part of `jax.jit`'s cache key.  Decided once per function, when the backend is built;
    an int exponent of ``power`` must stay static (`_power_by_scalar`)."""
    return jax.jit(function)  # type: ignore[no-any-return]


def _checked(function: Callable[..., Any], dtypes: frozenset[Any]) -> Callable[..., Any]:
    """``function`` of one array jitted with the fast case's dtype test inside: the traced
    function returns None for an array whose dtype is not among ``dtypes`` (a
    `fastpath.unary` case with ``checked``, whose method then takes the full path), so
    the test runs once per dtype and shape, when `jax.jit` traces, not on every call
    (reading a JAX array's ``dtype`` is a Python property of some 100 ns, the whole Python
    cost of the call being some 250 ns).  `jax.jit` caches the None as it caches a
    result, but each new shape of a refused dtype still costs a trace and a compile (a
    second or so on a busy 2-core machine): only for functions whose fast case is their
    whole category (`_elementwise._LANE`), where the full path refuses every other dtype."""

    def fast(x: Any) -> Any:
        return function(x) if x.dtype in dtypes else None

    fast.__name__ = fast.__qualname__ = getattr(function, "__name__", "fast")
    return jax.jit(fast)  # type: ignore[no-any-return]


def _reduction(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function(x)`` over every axis, ``function(x, axis, keepdims)`` over one (a
    `fastpath.reduction` op), compiled by `jax.jit` with the axis and keepdims static."""
    def reduce(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        return function(x, axis=axis, keepdims=keepdims)

    return jax.jit(reduce, static_argnums=(1, 2))  # type: ignore[no-any-return]


def _propagating(function: Callable[..., Any]) -> Callable[..., Any]:
    """``jax.numpy.max``/``min`` whose NaNs propagate, as the standard requires: XLA's CPU
    reduction drops them from 4096 elements on (jax 0.10: ``min`` of 4096 values with one
    NaN is the least number).  The NaN test is a second pass: float32 ``min`` of 10**6
    elements 106 -> 271 us, of 100 elements 4.5 -> 5.5 us."""
    def reduce(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        result = function(x, axis=axis, keepdims=keepdims)
        if not jnp.issubdtype(x.dtype, jnp.floating):
            return result
        return jnp.where(jnp.any(jnp.isnan(x), axis=axis, keepdims=keepdims), jnp.nan, result)

    return reduce


_max = _propagating(jnp.max)
_min = _propagating(jnp.min)
_power = _jitted(jnp.power)
#: ``power`` with a static exponent: ``jax.numpy.power`` of a Python int is
#: ``lax.integer_pow`` specialised on it (a traced exponent would take ``lax.pow``).
_power_by_int = jax.jit(jnp.power, static_argnums=1)


def _power_by_scalar(x: Any, exponent: Any) -> Any:
    """``jax.numpy.power(x, exponent)`` for a Python int or float ``exponent``, jitted:
    an int static (`_power_by_int`), a float as a weakly typed argument."""
    if type(exponent) is int:
        return _power_by_int(x, exponent)
    return _power(x, exponent)


def _pow_exponent(value: Any, dtype: Any) -> Any:
    """A Python exponent `JaxBackend.pow` gives ``jax.numpy.power`` as it is, beside a
    real floating array: an int in the weak range, or a float that is no subnormal of
    ``dtype`` (``pow`` makes a float a 0-d array of ``dtype``, which keeps a subnormal;
    a Python float handed to a jitted function is flushed to zero); None for anything
    else (the full path decides)."""
    kind = type(value)
    if kind is int:
        return value if _WEAK_INT_MIN <= value <= _WEAK_INT_MAX else None
    if kind is float and (value == 0.0 or not abs(value) < _TINY[dtype]):
        return value
    return None


#: Real floating dtype -> its smallest normal number.
_TINY = {d: float(np.finfo(d).tiny) for d in _REAL_FLOATING}


#: Arrays of this many elements or more could reach 2**63 bytes, where XLA aborts.
_MAX_ELEMENTS = 2**59


@functools.cache
def _memory_limit() -> int:
    """The default device's memory in bytes (the host's physical memory for CPUs)."""
    device = jax.local_devices()[0]
    stats = device.memory_stats() if device.platform != "cpu" else None
    if stats and "bytes_limit" in stats:
        return int(stats["bytes_limit"])
    import os

    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))



#: Words of a JAX `TypeError` about shapes (it has no other word for them) ...
#: JAX's errors for a value needed concretely while tracing (`JaxBackend.translate`).
_TRACING_ERRORS = (jax.errors.ConcretizationTypeError, jax.errors.NonConcreteBooleanIndexError,
                   jax.errors.TracerBoolConversionError,
                   jax.errors.TracerIntegerConversionError)  # fmt: skip

_SHAPE_WORDS = re.compile(r"\b(shapes?|rank|dimensions?|dimensional|axis size|permutation)\b",
                          re.IGNORECASE)  # fmt: skip
#: ... unless it is about types after all.
_TYPE_WORDS = re.compile(r"\b(dtypes?|integer|concrete|types?)\b", re.IGNORECASE)


def _described(x: Any) -> str:
    """What ``x`` is, for a message: ``list``, ``NoneType``, ``numpy.ndarray``."""
    t = type(x)
    if t.__module__ == "builtins":
        return t.__qualname__
    return f"{t.__module__.partition('.')[0]}.{t.__qualname__}"


def _truth(x: Any) -> Any:
    """``x`` as booleans, complex numbers by both parts."""
    return jnp.not_equal(x, 0) if _is_complex(x) else x


def _is_complex(x: Any) -> bool:
    dtype = getattr(x, "dtype", None)
    return isinstance(dtype, np.dtype) and dtype.kind == "c"


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _negative_int_pow(base: Any, exponent: Any) -> Any:
    """Integer ``base ** exponent`` for a negative ``exponent``: 1 for base 1, ``(-1) **
    exponent`` for base -1, 0 for every other base (``1 / base`` truncated)."""
    result = jnp.where(base == 1, jnp.ones_like(base), jnp.zeros_like(base))
    if base.dtype.kind == "i":
        minus = jnp.where(exponent % 2 == 0, jnp.ones_like(base), -jnp.ones_like(base))
        result = jnp.where(base == -1, minus, result)
    return result


def _without_leading_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` without its leading size-1 dimensions (they never change a broadcast)."""
    start = 0
    while start < len(shape) and shape[start] == 1:
        start += 1
    return shape[start:]


def _selection_shape(shape: tuple[int, ...], key: Any) -> tuple[int, ...] | None:
    """The shape ``x[key]`` has for an ``x`` of ``shape``, found on a zero-stride NumPy
    stand-in (no memory for slices); None where it cannot be known here (a traced index
    array, or a key NumPy refuses: the write itself reports that)."""
    items = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, jax.core.Tracer) for k in items):
        return None
    concrete = tuple(np.asarray(k) if isinstance(k, jax.Array) else k for k in items)
    try:
        stand_in = np.broadcast_to(np.zeros((), dtype=np.bool_), shape)
        return tuple(stand_in[concrete if isinstance(key, tuple) else concrete[0]].shape)
    except (IndexError, TypeError, ValueError):
        return None


def _is_int_array(k: Any) -> bool:
    return isinstance(k, (jax.Array, np.ndarray)) and k.dtype.kind in "iu"


def _out_of_range(k: Any, size: int) -> int | None:
    """The first index of ``k`` (a Python int or a concrete integer array) outside
    ``[-size, size)``, or None (also for anything else, traced arrays included)."""
    if _is_int(k):
        return None if -size <= k < size else int(k)
    if not _is_int_array(k) or isinstance(k, jax.core.Tracer) or k.size == 0:
        return None
    values = np.asarray(k)
    outside = (values < -size) | (values >= size)
    return int(values[outside][0]) if outside.any() else None


def _dims_used(k: Any) -> int:
    """How many axes of the indexed array one component of an index consumes."""
    if k is None or k is Ellipsis or isinstance(k, (bool, np.bool_)):
        return 0
    if isinstance(k, (jax.Array, np.ndarray)) and k.dtype == np.bool_:
        return k.ndim
    return 1


_DLPACK_CPU = 1
#: DLPack device type -> `Device` kind.
_DLPACK_KINDS = {1: "cpu", 2: "cuda"}


class JaxCore(NumPyDtypes, Backend):
    """What every chapter of the JAX backend builds on: types, dtypes, devices, errors, interchange."""

    name = "jax"
    _f = jnp
    #: the concrete array type first (`array_type`: what the fast paths and `translated`
    #: test exactly); `jax.Array` takes tracers too
    native_types = (_ARRAY, jax.Array)
    #: a JAX array of any type may be weakly typed: every result not made by a fast path
    #: from stored arrays goes through `normalize`
    canonical_type = NeverCanonical
    mutable = False
    writes_in_place = False

    # -- the error contract ------------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is a JAX array (tracers included) or an `Array` of this
        backend: ``jax.numpy`` would also take NumPy arrays (a mix of libraries), lists and
        scalars."""
        if type(x) is _ARRAY or isinstance(x, jax.Array):
            return
        if type(x) is self.wrapper_type and x._b is self:
            return
        raise self.error(function, f"expected a JAX array, got {_described(x)}", TypeError)

    def check_operands(self, function: str, *operands: Any) -> None:
        """Operands that may be arrays or Python scalars: each array one of this backend's
        (`check_array`) with a dtype of ``function``'s category (by its bare name), and
        at least one array among them."""
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        allowed = self.category_dtypes[category] if category is not None else None
        arrays = 0
        for x in operands:
            if isinstance(x, SCALAR_TYPES):
                continue
            self.check_array(x, function)
            arrays += 1
            if allowed is not None and x.dtype not in allowed:
                raise self.category_error(function, category, x.dtype)  # type: ignore[arg-type]
        if not arrays:
            got = " and ".join(_described(x) for x in operands)
            raise self.error(function, f"expected at least one array, got {got}", TypeError)

    def translate(self, exc: Exception, function: str) -> Exception:
        """A value JAX needs concretely while tracing (a data-dependent shape under
        ``jax.jit``, a boolean mask as an index, ``bool()`` of a traced array) is
        `NotImplementedError`: the transform cannot do it, whatever the arguments."""
        if isinstance(exc, _TRACING_ERRORS):
            return self.error(function, "the result depends on the array's values (a "
                              "data-dependent shape), which jax.jit, jax.vmap and the other "
                              "JAX transforms do not know while tracing; call it outside the "
                              f"transform ({type(exc).__name__}: {str(exc).splitlines()[0]})",
                              NotImplementedError)  # fmt: skip
        return super().translate(exc, function)

    def error_kind(self, exc: Exception) -> type[Exception]:
        """JAX reports shapes that do not fit as `TypeError` (``dot_general requires
        contracting dimensions to have the same shape``): `ValueError` here; a runtime
        ``RESOURCE_EXHAUSTED`` is `MemoryError`; a string where an axis belongs (JAX
        looks up a named axis: `NameError`) is a `TypeError`."""
        if isinstance(exc, jax.errors.JaxRuntimeError):
            return MemoryError if "RESOURCE_EXHAUSTED" in str(exc) else ValueError
        if type(exc) is TypeError:
            text = str(exc)
            if _SHAPE_WORDS.search(text) and not _TYPE_WORDS.search(text):
                return ValueError
        if isinstance(exc, NameError):
            return TypeError
        return super().error_kind(exc)

    def explain(self, function: str, arguments: dict[str, Any]) -> Exception | None:
        """After a JAX error, the argument at fault where JAX's message does not name it
        ("tuple index out of range" for an axis, "Shape should be positive." for ``n``):
        `arguments.recheck`."""
        return recheck(self, function, arguments)

    #: `eagerpy_xp.Array`, once the assembly registers it: native functions take it too.
    wrapper_type: Any = None

    def normalize(self, raw: Any) -> Any:
        if type(raw) is _ARRAY and not raw.weak_type:
            return raw
        return _strong(raw if isinstance(raw, jax.Array) else jnp.asarray(raw))

    def check_dtype(self, dtype: Any, function: str) -> Any:
        """The dtype object; `ValueError` for a 64-bit dtype while x64 is off."""
        if dtype is None:
            return None
        try:
            name = self.dtype_name(dtype)
        except TypeError:
            message = f"unsupported dtype {dtype!r}"
            if isinstance(dtype, str):
                message += (": dtypes are the namespace's dtype objects (xp.float32, ...), "
                            "not strings")  # fmt: skip
            raise self.error(function, message, TypeError) from None
        if name in _BITS64 and not x64_enabled():
            raise self.error(function, f"{name} is not available: {X64_HINT}")
        return self.dtypes_by_name[name]

    def supported_dtype_names(self) -> tuple[str, ...]:
        return ALL if x64_enabled() else _ALL32

    def default_dtype_names(self) -> dict[str, str]:
        if x64_enabled():
            return super().default_dtype_names()
        return {"real floating": "float32", "complex floating": "complex64",
                "integral": "int32", "indexing": "int32"}  # fmt: skip

    def capabilities(self) -> dict[str, Any]:
        """Boolean indexing and data-dependent shapes work on concrete arrays, not under
        ``jax.jit``."""
        return super().capabilities()

    # -- devices -------------------------------------------------------------------------
    def _device_from_jax(self, device: Any) -> Device:
        """The `Device` of a jax device: its kind and its index among the local devices of
        its platform (cached: ``Array.device`` calls this)."""
        try:
            return _DEVICES[device]
        except KeyError:
            pass
        kind = _PLATFORM_KINDS.get(device.platform.lower(), device.platform.lower())
        try:
            index = jax.local_devices(backend=device.platform).index(device)
        except (RuntimeError, ValueError):
            index = device.id
        result = _DEVICES[device] = Device(kind, index)
        return result

    def _jax_devices(self, kind: str) -> list[Any]:
        for platform in _KIND_PLATFORMS.get(kind, ()):
            try:
                return list(jax.local_devices(backend=platform))
            except RuntimeError:
                continue
        return []

    def devices(self) -> list[Device]:
        found = [self._device_from_jax(d) for d in jax.local_devices()]
        if jax.default_backend() != "cpu":
            found += [self._device_from_jax(d) for d in self._jax_devices("cpu")]
        return found

    def default_device(self) -> Device:
        default = jax.config.jax_default_device  # type: ignore[attr-defined]
        if isinstance(default, str):
            return self._device_from_jax(jax.local_devices(backend=default)[0])
        if default is not None:
            return self._device_from_jax(default)
        return self._device_from_jax(jax.local_devices()[0])

    def device_of(self, raw: Any) -> Device:
        """A traced array has no device: it reports the default device."""
        if isinstance(raw, jax.core.Tracer):
            return self.default_device()
        return self._device_from_jax(min(raw.devices(), key=operator.attrgetter("id")))

    def native_device(self, device: Any, function: str = "device") -> Any:
        """A jax ``Device`` for a `Device`, a device string or a jax ``Device``."""
        if isinstance(device, jax.Device):
            return device
        try:
            wanted = self.as_device(device, function)
        except ValueError as exc:  # `Device` rejects the string
            raise self.error(function, f"unknown device {device!r}: {exc}") from None
        candidates = self._jax_devices(wanted.kind)
        if wanted.index < len(candidates):
            return candidates[wanted.index]
        available = ", ".join(str(d) for d in self.devices())
        raise self.error(function, f"device {device!r} is not available (available: "
                                   f"{available})")  # fmt: skip

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        """`Array.to_device` (functions with ``device=`` call it too, and name themselves)."""
        if stream is not None:
            raise self.error("Array.to_device", f"streams are not supported, got "
                             f"stream={stream!r}")  # fmt: skip
        return jax.device_put(raw, self.native_device(device, "Array.to_device"))

    # -- scalars, interchange ----------------------------------------------------------------
    def dlpack(
        self,
        raw: Any,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """Exports to ``dl_device`` by moving the data (``BufferError`` if ``copy=False``).

        A ``max_version`` below ``(1, 0)`` gets the legacy unversioned capsule (DLPack 0.x,
        what NumPy and torch return too): the standard lets a producer return a version
        other than ``max_version`` (the consumer checks the capsule), and a consumer of 0.x
        reads legacy capsules.  JAX itself would raise ``BufferError``.
        """
        here = raw.__dlpack_device__()
        if dl_device is not None and (int(dl_device[0]), dl_device[1]) != (int(here[0]), here[1]):
            target = _DLPACK_KINDS.get(int(dl_device[0]))
            if copy is False or target is None:
                raise BufferError(f"eagerpy_xp.jax.Array.__dlpack__: cannot export a {self.device_of(raw)} "
                                  f"array to DLPack device {dl_device} without a copy")
            raw = jax.device_put(raw, self.native_device(Device(target, dl_device[1]),
                                                         "__dlpack__"))  # fmt: skip
            copy = True
        if stream is not None and int(raw.__dlpack_device__()[0]) == _DLPACK_CPU:
            raise BufferError(f"eagerpy_xp.jax.Array.__dlpack__: stream must be None for CPU arrays, got {stream!r}")
        if max_version is not None and tuple(max_version) < (1, 0):
            max_version = None  # the legacy capsule, which JAX makes for None
        return raw.__dlpack__(stream=stream, max_version=max_version, copy=copy)

    # Sizes: XLA aborts the process for an array of 2**63 bytes or more, so shapes are
    # checked first (`ValueError`, as NumPy's "array is too big"); JAX's out-of-memory error
    # becomes `MemoryError` (`error_kind`).
    def _check_shape(self, shape: Any, function: str) -> tuple[int, ...]:
        dims = super()._check_shape(shape, function)
        self._check_extent(dims, function)
        return dims

    def _check_extent(self, dims: Sequence[int], function: str, itemsize: int = 1) -> None:
        """`ValueError` for 2**59 elements or more, `MemoryError` where ``itemsize`` bytes
        per element exceed the default device's memory (JAX may fail only when the data
        is first read, which aborts the process)."""
        count = math.prod(dims)
        if count >= _MAX_ELEMENTS:
            raise self.error(function, f"shape {tuple(dims)} has {count} elements, more than "
                             "an array can hold")  # fmt: skip
        limit = _memory_limit()
        if count * itemsize > limit:
            raise self.error(function, f"shape {tuple(dims)} needs {count * itemsize} bytes, "
                             f"more than the device's {limit}", MemoryError)  # fmt: skip

    def _itemsize(self, dtype: Any, kind: str, function: str) -> int:
        """Bytes per element of ``dtype``, or of the default dtype of ``kind``."""
        target = self.check_dtype(dtype, function) if dtype is not None else self._default(kind)
        return int(target.itemsize)

    def _arrays(self, function: str, *arrays: Any) -> None:
        """Arrays of this backend, each of ``function``'s category (no Python scalars)."""
        for x in arrays:
            self.check_array(x, function)
        self.check_operands(function, *arrays)

    def _default(self, kind: str) -> Any:
        return self.dtypes_by_name[self.default_dtype_names()[kind]]

    def _accumulator(self, x: Any, dtype: Any, function: str) -> Any:
        """The dtype of a sum or product: ``dtype`` (`accumulation_dtype`); without one,
        small integers widen to the default integer."""
        if dtype is not None:
            return accumulation_dtype(self, x, dtype, function)
        default = self._default("integral")
        if x.dtype.kind == "i" and x.dtype.itemsize < default.itemsize:
            return default
        if x.dtype.kind == "u" and x.dtype.itemsize < default.itemsize:
            return np.dtype(f"uint{8 * default.itemsize}")
        return None
