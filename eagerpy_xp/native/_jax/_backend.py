"""The JAX backend: ``jax.numpy`` is close to the standard; this holds only what differs.

* **64-bit dtypes** follow ``jax_enable_x64``, read at every call (never set here).  With it
  off, the 64-bit dtypes are absent from ``__array_namespace_info__().dtypes()``, the
  default dtypes are 32-bit, and asking for a 64-bit dtype, or converting a 64-bit NumPy
  array without ``dtype=``, raises `ValueError` saying how to enable x64 (JAX would
  silently truncate).
* **Dtypes** are NumPy dtype objects (what ``jax.Array.dtype`` returns), so
  ``x.dtype == xp.float32`` holds; ``jax.numpy.float32``, ``numpy.float32`` and friends
  are accepted too.
* **Immutability**: `setitem` and in-place operators return a new array (``.at[...]``);
  the wrapped `Array` rebinds to it.  Views never alias: ``y = x[0]; x[0] = 1`` leaves
  ``y`` unchanged.
* **Weak types**: arrays made from Python scalars are "strongly" typed, as the standard's
  promotion rules require.
* **Transformations**: every function is traceable; only functions whose output shape
  depends on the data (boolean masks, `nonzero`, the ``unique_*`` functions) need concrete
  arrays.  `eagerpy_xp.Array` is a registered pytree, so ``jax.jit``, ``jax.grad`` and
  ``jax.vmap`` accept functions of Arrays (``jax.grad`` wants a JAX scalar back: return
  ``.raw``, or use ``eagerpy_xp.value_and_grad``).  Under tracing, ``device`` reports the
  default device.
* **Complex special cases** (signed zeros, infinities, NaNs) are patched to the standard's
  (C99's) values for the transcendental functions and ``abs``.
* **Errors** follow the contract (``docs/errors.md``).  Every function takes JAX arrays
  (and `Array`s of this backend) of its dtype category only: ``jax.numpy`` would also take
  NumPy arrays, lists and dtypes outside the category (``exp`` of integers, ``sum`` of
  bools); the check lives behind the fast paths, which take only in-category dtypes.
  JAX's errors are translated where raised (its `TypeError`s about shapes become
  `ValueError`), and after one the non-array arguments are checked again so that the
  message names the axis or size at fault (`_base.arguments`).  Where JAX would crash or
  answer wrongly, arguments are checked first: creation sizes
  are checked before XLA sees them (`ValueError` from 2**59 elements, where XLA aborts the
  process; `MemoryError` beyond the default device's memory), ``RESOURCE_EXHAUSTED``
  becomes `MemoryError`; indices out of range raise `IndexError` when they are concrete
  (Python ints and integer arrays in ``x[...]`` of the wrapped flavour, ``take``,
  ``take_along_axis``).  Under ``jax.jit`` traced indices cannot be checked: JAX then
  clamps them (``x[i]``) or fills with NaN (``take``).  Indexing a native ``jax.Array``
  is JAX's own operator.
* **eig / eigvals** have CPU kernels only in JAX: a concrete array on another device is
  computed on the CPU and the results are put back on its device; under ``jax.jit`` on an
  accelerator JAX reports the missing kernel.
"""

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

from ..._detect import SCALAR_TYPES, plain_scalar
from ..._devices import Device
from ..._dtypes import ALL, CATEGORIES, CATEGORY_OF, promote
from .._base import FFT, Autodiff, Backend, Linalg, fastpath
from .._base.arguments import integer, positive, recheck
from .._base.core import (
    GradCall,
    NeverCanonical,
    NumPyDtypes,
    int_beyond_dtype,
    int_range,
    raise_translated,
    translated,
    truncates,
)
from .._base.creation import compact_numpy, native_order
from .._base.elementwise import _clamp_int_bound
from .._base.functions import check_roll, check_sorter
from .._base.keys import as_it_is, broadcasts_to, selects_nothing, standard_key
from .._base.subnamespaces import EigResult


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
    whole category (`_unary`, `_whole`), where the full path refuses every other dtype."""

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


@functools.partial(jax.jit, static_argnums=2)
def _basic_slice(x: Any, starts: tuple[int, ...], plan: tuple[tuple[int, ...], ...]) -> Any:
    """``x`` sliced as `_take_basic` planned it: a dynamic slice from ``starts`` (the
    starts are arguments: one program serves every position of the same shape), the
    strides, the reversed axes, and the result's shape (ints dropped, Nones added)."""
    sizes, strides, flips, shape = plan
    if sizes != x.shape:
        x = jax.lax.dynamic_slice(x, starts, sizes)
    if any(s != 1 for s in strides):
        x = jax.lax.slice(x, (0,) * x.ndim, x.shape, strides)
    if flips:
        x = jax.lax.rev(x, flips)
    return jax.lax.reshape(x, shape)


def _take_basic(x: Any, key: Any) -> Any:
    """``x[key]`` for a basic key (`Array.__getitem__`'s fast case: ints, slices, None and
    at most one ellipsis) as one compiled slice (`_basic_slice`): the values JAX's own
    indexing gives, which runs several primitives one by one.  None where the full path
    must decide: an int out of range (JAX would clamp it), more indices than axes, slice
    bounds that are not ints."""
    items = key if type(key) is tuple else (key,)
    shape = x.shape
    ndim = len(shape)
    used = 0
    for k in items:
        if k is not None and k is not Ellipsis:
            used += 1
    if used > ndim:
        return None
    starts: list[int] = []
    sizes: list[int] = []
    strides: list[int] = []
    flips: list[int] = []
    out: list[int] = []
    dim = 0
    for k in items:
        if k is None:
            out.append(1)
            continue
        if k is Ellipsis:
            for _ in range(ndim - used):
                starts.append(0)
                sizes.append(shape[dim])
                strides.append(1)
                out.append(shape[dim])
                dim += 1
            continue
        n = shape[dim]
        if type(k) is int:
            if not -n <= k < n:
                return None
            starts.append(k + n if k < 0 else k)
            sizes.append(1)
            strides.append(1)
        else:
            for bound in (k.start, k.stop, k.step):
                if bound is not None and type(bound) is not int:
                    return None
            positions = range(*k.indices(n))
            count, step = len(positions), positions.step
            if count == 0:
                starts.append(0)
                sizes.append(0)
                strides.append(1)
            elif step > 0:
                starts.append(positions[0])
                sizes.append((count - 1) * step + 1)
                strides.append(step)
            else:
                starts.append(positions[-1])
                sizes.append((count - 1) * -step + 1)
                strides.append(-step)
                flips.append(dim)
            out.append(count)
        dim += 1
    for rest in range(dim, ndim):
        starts.append(0)
        sizes.append(shape[rest])
        strides.append(1)
        out.append(shape[rest])
    return _basic_slice(x, tuple(starts), (tuple(sizes), tuple(strides), tuple(flips),
                                           tuple(out)))  # fmt: skip


def _unary(name: str) -> Callable[..., Any]:
    """The standard's ``name`` where ``jax.numpy``'s function of that name is right for
    every dtype of its category (`_whole`: jitted, the category's dtypes checked inside;
    non-arrays and dtypes outside the category go through `translated`'s checks, which
    raise `TypeError`)."""
    return _whole(name, getattr(jnp, name), f"The standard's ``{name}``: ``jax.numpy.{name}``.")


def _binary(name: str) -> Callable[..., Any]:
    """The binary ``name`` where ``jax.numpy``'s function is right: straight to it (jitted,
    `_jitted`) for two concrete arrays of one dtype of the category, or one and a Python
    scalar in either order (`_weak_scalar`); anything else is checked first (`JaxBackend._operands`: arrays of this backend and the
    category, or Python scalars)."""
    jax_function = getattr(jnp, name)

    def method(self: JaxBackend, x1: Any, x2: Any, /) -> Any:
        self._operands(name, x1, x2)
        beyond = int_beyond_dtype(self, name, x1, x2)  # JAX would wrap the int
        if beyond is not None:
            return jnp.full(beyond[0].shape, beyond[1], dtype=bool)
        return jax_function(*_exact_scalars(x1, x2))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"The standard's ``{name}``: ``jax.numpy.{name}``."
    return fastpath.binary(_ARRAY, _IN[CATEGORY_OF.get(name)], _jitted(jax_function),
                           _weak_scalar, scalar_types=fastpath.SCALARS)(translated(method))  # fmt: skip


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


def _complex_fixed(name: str, symmetry: str) -> Callable[..., Any]:
    """The standard's ``name`` for complex input, from ``jax.numpy``'s value in the first
    quadrant: JAX loses the signs of zeros (``f(conj(z)) == conj(f(z))`` fails on the
    real axis) and several infinite and NaN special cases, which are patched here
    (`_patched_complex`); real input goes to ``jax.numpy``'s function (`_floating`)."""
    doc = _complex_fixed.__doc__.replace("``name``", f"``{name}``")  # type: ignore[union-attr]
    return _floating(name, _patched_complex(name, symmetry), doc)


def _patched_complex(name: str, symmetry: str) -> Callable[[Any], Any]:
    """``jax.numpy``'s ``name`` of a complex array, computed in the first quadrant and
    carried to the others by ``symmetry`` ("odd": f(-z) = -f(z), "even": f(-z) = f(z),
    "none"; every function here has f(conj(z)) = conj(f(z))), with the special cases JAX
    gets wrong there patched (`_FIRST_QUADRANT_FIXES`, `_FIRST_QUADRANT_FORMULAS`)."""
    first_quadrant = _FIRST_QUADRANT_FORMULAS.get(name, getattr(jnp, name))
    fixes = _FIRST_QUADRANT_FIXES.get(name, ())

    def complex_value(x: Any) -> Any:
        re, im = jnp.real(x), jnp.imag(x)
        # XLA on the CPU reads a subnormal as zero in arithmetic but not in every op
        # (`atan2` sees it: log(1e-41j) was -inf + pi/2 j, half of each answer); a part
        # the platform reads as zero is made that zero, so that the result is the
        # flushed input's throughout (where subnormals are computed, `== 0` is False);
        # `copysign`, not ``re * 0``, which `jax.jit`'s simplifier folds to ``re``
        re = jnp.where(re == 0, jnp.copysign(jnp.zeros_like(re), re), re)
        im = jnp.where(im == 0, jnp.copysign(jnp.zeros_like(im), im), im)
        negative_re, negative_im = jnp.signbit(re), jnp.signbit(im)
        a = jnp.abs(re) if symmetry != "none" else re
        b = jnp.abs(im)
        result = first_quadrant(jax.lax.complex(a, b))
        for condition, value in fixes:
            result = jnp.where(condition(a, b, result), value(a, b, result).astype(result.dtype),
                               result)  # fmt: skip
        if symmetry == "odd":  # f(-a + bj) = -conj(f(a + bj))
            result = jnp.where(negative_re, -jnp.conj(result), result)
        elif symmetry == "even":  # f(-a + bj) = conj(f(a + bj))
            result = jnp.where(negative_re, jnp.conj(result), result)
        return jnp.where(negative_im, jnp.conj(result), result)

    complex_value.__name__ = complex_value.__qualname__ = name
    return complex_value


def _floating(name: str, complex_value: Callable[[Any], Any], doc: str) -> Callable[..., Any]:
    """The standard's unary ``name`` of the floating-point category: ``jax.numpy``'s
    function for real input, ``complex_value`` for complex input (`_whole`)."""
    jax_function = getattr(jnp, name)

    def value(x: Any) -> Any:
        return complex_value(x) if _is_complex(x) else jax_function(x)

    value.__name__ = value.__qualname__ = name
    return _whole(name, value, doc)


def _whole(name: str, value: Callable[[Any], Any], doc: str) -> Callable[..., Any]:
    """The standard's unary ``name``, ``value(x)`` for every dtype of its category
    (``value`` may read the dtype, which `jax.jit` makes static), jitted on
    either path: the fast case is the whole category, checked (`_checked`: no call reads
    ``x.dtype``, and a concrete array of any dtype of the category is taken), and the
    full path, which refuses the other dtypes and takes traced arrays, calls the same
    jitted ``value``, so that both give the same bits (XLA fuses the patches: a NaN's
    sign, a part of the result the standard leaves open, may differ from the one the
    operations give one by one)."""
    jitted = jax.jit(value)
    dtypes = _IN[CATEGORY_OF.get(name)]

    def method(self: JaxBackend, x: Any, /) -> Any:
        return jitted(x)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    return fastpath.unary(_ARRAY, dtypes, _checked(value, dtypes),
                          checked=True)(translated(method))  # fmt: skip


def _cx(re: Any, im: Any) -> Callable[[Any, Any, Any], Any]:
    """A constant complex special value, broadcast like the input's parts."""
    return lambda a, b, result: jax.lax.complex(jnp.full_like(a, re), jnp.full_like(b, im))


def _signed_zero(part: str, negative: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """The result with its zero ``part`` ("real"/"imag") negative where ``negative(a, b)``:
    the sign a zero factor of the function's real-variable formula gives it."""

    def value(a: Any, b: Any, result: Any) -> Any:
        zero = jnp.where(negative(a, b), -jnp.zeros_like(a), jnp.zeros_like(a))
        if part == "real":
            return jax.lax.complex(zero, jnp.imag(result))
        return jax.lax.complex(jnp.real(result), zero)

    return value


def _zero_where(part: str) -> Callable[[Any, Any, Any], Any]:
    """Where the result has a zero ``part`` ("real"/"imag") for finite input."""
    get = jnp.real if part == "real" else jnp.imag
    return lambda a, b, result: jnp.isfinite(a) & jnp.isfinite(b) & (get(result) == 0)


def _nonfinite(t: Any) -> Any:
    return ~jnp.isfinite(t)


def _nonzero_finite(t: Any) -> Any:
    return jnp.isfinite(t) & (t != 0)


_isnan, _isinf = jnp.isnan, jnp.isinf
_NAN, _INF, _PI = np.nan, np.inf, np.pi
#: ((condition(a, b, result), value(a, b, result)), ...): later entries win.
_Fixes = tuple[tuple[Callable[..., Any], Callable[..., Any]], ...]
_LOG_FIXES: _Fixes = (
    (lambda a, b, r: (_isinf(a) & _isnan(b)) | (_isnan(a) & _isinf(b)), _cx(_INF, _NAN)),
)
#: function -> fixes on ``a + bj`` with ``b >= +0`` (or NaN) and,
#: for odd and even functions, ``a >= +0`` (or NaN): the C99 / standard special cases
#: where ``jax.numpy`` differs.
_FIRST_QUADRANT_FIXES: dict[str, _Fixes] = {
    "acos": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(_PI / 2, _NAN)),
             (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "acosh": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(_NAN, _PI / 2)),
              (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "asin": ((lambda a, b, r: _isnan(b) & (a == 0), _cx(0.0, _NAN)),
             (lambda a, b, r: _isnan(b) & _nonzero_finite(a), _cx(_NAN, _NAN))),
    "asinh": ((lambda a, b, r: _isnan(a) & (b == 0), _cx(_NAN, 0.0)),
              (lambda a, b, r: _isnan(a) & _nonzero_finite(b), _cx(_NAN, _NAN))),
    "atan": ((lambda a, b, r: (_isnan(a) & ~_isinf(b)) | (_isnan(b) & jnp.isfinite(a)),
              _cx(_NAN, _NAN)),
             (lambda a, b, r: _isnan(a) & (_isinf(b) | (b == 0)), _cx(_NAN, 0.0)),
             (lambda a, b, r: ~_isnan(a) & (b == 0), _signed_zero("imag", lambda a, b: False))),
    "atanh": ((lambda a, b, r: _isnan(b) & ((a == 0) | _isinf(a)), _cx(0.0, _NAN)),
              (lambda a, b, r: (_isnan(b) & _nonzero_finite(a)) | (_isnan(a) & ~_isinf(b)),
               _cx(_NAN, _NAN))),
    "cos": ((_zero_where("imag"), _signed_zero("imag", lambda a, b: ~jnp.signbit(jnp.sin(a)))),
            (lambda a, b, r: _nonfinite(a) & (b == 0), _cx(_NAN, 0.0)),
            (lambda a, b, r: _nonfinite(a) & _isinf(b), _cx(_INF, _NAN)),
            (lambda a, b, r: (a == 0) & _isinf(b), _cx(_INF, -0.0))),
    "cosh": ((_zero_where("imag"), _signed_zero("imag", lambda a, b: jnp.signbit(jnp.sin(b)))),
             (lambda a, b, r: (a == 0) & _nonfinite(b), _cx(_NAN, 0.0)),
             (lambda a, b, r: _isinf(a) & _nonfinite(b), _cx(_INF, _NAN))),
    "exp": ((lambda a, b, r: _isinf(a) & (a > 0) & _nonfinite(b), _cx(_INF, _NAN)),
            (lambda a, b, r: _isinf(a) & (a < 0) & _nonfinite(b), _cx(0.0, 0.0))),
    "expm1": ((lambda a, b, r: (a == 0) & (b == 0), _cx(0.0, 0.0)),
              (lambda a, b, r: _isinf(a) & (a > 0) & _nonfinite(b), _cx(_INF, _NAN)),
              (lambda a, b, r: _isinf(a) & (a < 0) & _nonfinite(b), _cx(-1.0, 0.0))),
    "log": _LOG_FIXES, "log1p": _LOG_FIXES, "log2": _LOG_FIXES, "log10": _LOG_FIXES,
    "sin": ((lambda a, b, r: _nonfinite(a) & (b == 0), _cx(_NAN, 0.0)),
            (lambda a, b, r: _nonfinite(a) & _isinf(b), _cx(_NAN, _INF))),
    "sinh": ((_zero_where("real"), _signed_zero("real", lambda a, b: jnp.signbit(jnp.cos(b)))),
             (lambda a, b, r: (a == 0) & _nonfinite(b), _cx(0.0, _NAN)),
             (lambda a, b, r: _isinf(a) & _nonfinite(b), _cx(_INF, _NAN))),
    "sqrt": ((lambda a, b, r: _isinf(b), _cx(_INF, _INF)),
             (lambda a, b, r: _isinf(a) & (a > 0) & _isnan(b), _cx(_INF, _NAN)),
             (lambda a, b, r: _isinf(a) & (a < 0) & _isnan(b), _cx(_NAN, _INF))),
    "tanh": ((lambda a, b, r: (a == 0) & _nonfinite(b), _cx(0.0, _NAN)),
             (lambda a, b, r: _isinf(a) & jnp.isfinite(b), _cx(1.0, 0.0))),
}  # fmt: skip

def _sinh_parts(z: Any) -> Any:
    """``sinh`` from real functions: XLA's ``(exp(z) - exp(-z)) / 2`` cancels for tiny z."""
    a, b = jnp.real(z), jnp.imag(z)
    imag = jnp.where(b == 0, b, jnp.cosh(a) * jnp.sin(b))  # inf * 0 would be NaN
    return jax.lax.complex(jnp.sinh(a) * jnp.cos(b), imag)


def _log_in_base(base: float) -> Callable[[Any], Any]:
    """``log(z) / log(base)`` part by part: ``jax.numpy``'s complex division gives the
    imaginary part of ``log2(0j)`` as 2.27 instead of 0."""
    scale = 1 / math.log(base)

    def formula(z: Any) -> Any:
        w = jnp.log(z)
        return jax.lax.complex(jnp.real(w) * scale, jnp.imag(w) * scale)

    return formula


#: function -> how to evaluate it in the first quadrant where ``jax.numpy``'s is inexact.
_FIRST_QUADRANT_FORMULAS: dict[str, Callable[[Any], Any]] = {
    "sinh": _sinh_parts, "log2": _log_in_base(2.0), "log10": _log_in_base(10.0)}

_complex_tanh = _patched_complex("tanh", "odd")


def _complex_tan(x: Any) -> Any:
    """The standard's ``tan``; complex: as the standard defines it, ``-1j * tanh(1j * x)``,
    with the factors of ``1j`` as exact swaps of the parts (so `tanh`'s special cases
    carry over)."""
    w = _complex_tanh(jax.lax.complex(-jnp.imag(x), jnp.real(x)))
    return jax.lax.complex(jnp.imag(w), -jnp.real(w))


def _sign_value(x: Any) -> Any:
    """The standard's ``sign``: ``sign(-0.0)`` is ``+0`` and a complex zero gives ``0 + 0j``
    (JAX keeps the signs of the zeros); a complex ``x`` whose ``|x|`` overflows gets
    ``sign(x / 2)`` (JAX: 0)."""
    if _is_complex(x):
        half = np.finfo(x.dtype).max / 2
        huge = (jnp.abs(jnp.real(x)) > half) | (jnp.abs(jnp.imag(x)) > half)
        huge &= jnp.isfinite(x)
        x = jnp.where(huge, x * 0.5, x)
    result = jnp.sign(x)
    if result.dtype.kind in "fc":
        result = jnp.where(result == 0, jnp.zeros_like(result), result)
    return result


def _abs_value(x: Any) -> Any:
    """The standard's ``abs``: a complex number with an infinite part has ``abs`` ``+inf``,
    NaN part or not."""
    result = jnp.abs(x)
    if _is_complex(x):
        infinite = jnp.isinf(jnp.real(x)) | jnp.isinf(jnp.imag(x))
        result = jnp.where(infinite, jnp.full_like(result, np.inf), result)
    return result


class JaxLinalg(Linalg):
    """``trace`` checks its ``dtype`` like every other dtype argument (x64 rules); ``eig``
    and ``eigvals``, which JAX computes on CPU only, run on the CPU and return to the
    input's device; the functions of two arrays check both (`JaxBackend._arrays`)."""

    _b: JaxBackend

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        self._b._arrays("linalg.cross", x1, x2)
        return jnp.linalg.cross(x1, x2, axis=axis)

    @translated
    def eig(self, x: Any, /) -> EigResult:
        target = self._eig_dtype(x, "linalg.eig")
        values, vectors = _on_cpu(jnp.linalg.eig, x)
        return EigResult(values.astype(target), vectors.astype(target))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        target = self._eig_dtype(x, "linalg.eigvals")
        return _on_cpu(jnp.linalg.eigvals, x).astype(target)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        self._b._arrays("linalg.outer", x1, x2)
        return jnp.linalg.outer(x1, x2)

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        self._b._arrays("linalg.solve", x1, x2)
        return jnp.linalg.solve(x1, x2)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        return self._l.trace(x, offset=offset,
                             dtype=self._b._accumulator(x, dtype, "linalg.trace"))  # fmt: skip


class JaxFFT(FFT):
    """``fftfreq``/``rfftfreq`` take the namespace's dtypes and devices."""

    _b: JaxBackend

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(self._t.fftfreq, n, d, dtype, device, "fft.fftfreq")

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(self._t.rfftfreq, n, d, dtype, device, "fft.rfftfreq")

    def _freq(self, fn: Any, n: int, d: float, dtype: Any, device: Any, function: str) -> Any:
        """``n`` a positive int (JAX takes 0 and negative lengths), ``dtype`` a real floating
        dtype of the namespace."""
        b = self._b
        positive(b, n, "n", function)
        dtype = b._default("real floating") if dtype is None else b.check_dtype(dtype, function)
        if dtype not in _REAL_FLOATING:
            raise b.error(function, f"dtype must be a real floating dtype, got "
                          f"{b.dtype_name(dtype)}", TypeError)  # fmt: skip
        place = None if device is None else b.native_device(device, function)
        return fn(n, d=d, dtype=dtype, device=place)


class _JaxAutodiff(Autodiff):
    """`jax.value_and_grad`: functional, so it composes with `jax.jit` and nests."""

    def is_real_floating(self, raw: Any) -> bool:
        return bool(jnp.issubdtype(raw.dtype, jnp.floating))

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        argnums = tuple(range(len(raws)))
        (value, aux), grads = jax.value_and_grad(call, argnums=argnums, has_aux=True)(*raws)
        return value, aux, list(grads)


class JaxBackend(NumPyDtypes, Backend):
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
    autodiff = _JaxAutodiff()
    linalg_class = JaxLinalg
    fft_class = JaxFFT

    # -- complex special cases: jax.numpy's value, fixed by symmetry (odd: f(-z) = -f(z),
    # even: f(-z) = f(z), none) and f(conj(z)) = conj(f(z)); see `_complex_fixed`
    acos = _complex_fixed("acos", "none")
    acosh = _complex_fixed("acosh", "none")
    asin = _complex_fixed("asin", "odd")
    asinh = _complex_fixed("asinh", "odd")
    atan = _complex_fixed("atan", "odd")
    atanh = _complex_fixed("atanh", "odd")
    cos = _complex_fixed("cos", "even")
    cosh = _complex_fixed("cosh", "even")
    exp = _complex_fixed("exp", "none")
    expm1 = _complex_fixed("expm1", "none")
    log = _complex_fixed("log", "none")
    log1p = _complex_fixed("log1p", "none")
    log2 = _complex_fixed("log2", "none")
    log10 = _complex_fixed("log10", "none")
    sin = _complex_fixed("sin", "odd")
    sinh = _complex_fixed("sinh", "odd")
    sqrt = _complex_fixed("sqrt", "none")
    tanh = _complex_fixed("tanh", "odd")

    tan = _floating("tan", _complex_tan, _complex_tan.__doc__ or "")

    # -- ``jax.numpy``'s functions, right for their categories (see `_unary`, `_binary`)
    bitwise_invert = _unary("bitwise_invert")
    ceil = _unary("ceil")
    conj = _unary("conj")
    floor = _unary("floor")
    imag = _unary("imag")
    isfinite = _unary("isfinite")
    isinf = _unary("isinf")
    isnan = _unary("isnan")
    logical_not = _unary("logical_not")
    negative = _unary("negative")
    positive = _unary("positive")
    real = _unary("real")
    reciprocal = _unary("reciprocal")
    round = _unary("round")
    signbit = _unary("signbit")
    square = _unary("square")
    trunc = _unary("trunc")
    add = _binary("add")
    atan2 = _binary("atan2")
    bitwise_and = _binary("bitwise_and")
    bitwise_left_shift = _binary("bitwise_left_shift")
    bitwise_or = _binary("bitwise_or")
    bitwise_right_shift = _binary("bitwise_right_shift")
    bitwise_xor = _binary("bitwise_xor")
    copysign = _binary("copysign")
    divide = _binary("divide")
    equal = _binary("equal")
    greater = _binary("greater")
    greater_equal = _binary("greater_equal")
    hypot = _binary("hypot")
    less = _binary("less")
    less_equal = _binary("less_equal")
    logaddexp = _binary("logaddexp")
    logical_and = _binary("logical_and")
    logical_or = _binary("logical_or")
    logical_xor = _binary("logical_xor")
    maximum = _binary("maximum")
    minimum = _binary("minimum")
    multiply = _binary("multiply")
    nextafter = _binary("nextafter")
    not_equal = _binary("not_equal")
    subtract = _binary("subtract")

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

    def _operands(self, function: str, *operands: Any) -> None:
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

    # -- hooks -----------------------------------------------------------------------------
    #: `eagerpy_xp.Array`, once the assembly registers it: native functions take it too.
    wrapper_type: Any = None

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """`Array` becomes a pytree (one leaf: its raw array), so ``jax.jit``, ``jax.grad``
        and ``jax.vmap`` take and return it; ``__jax_array__`` lets ``jax.numpy``
        functions take it."""
        self.wrapper_type = cls

        def flatten(array: Any) -> tuple[tuple[Any], None]:
            return (array.raw,), None

        def unflatten(_: None, children: Any) -> Any:
            # no conversion: JAX also unflattens with non-array leaves (``in_axes``)
            return wrap(children[0])

        try:
            jax.tree_util.register_pytree_node(cls, flatten, unflatten)
        except ValueError:  # registered already (module reloaded)
            pass
        cls.__jax_array__ = _raw_of  # type: ignore[attr-defined]

    compiles = True

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``jax.jit(fn, **options)`` (`Array` is a pytree: it comes back an `Array`)."""
        return jax.jit(fn, **options)  # type: ignore[no-any-return]

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any]:  # fmt: skip
        """``jax.vmap(fn, in_axes, out_axes)``."""
        return jax.vmap(fn, in_axes=in_axes, out_axes=out_axes)  # type: ignore[no-any-return]

    def normalize(self, raw: Any) -> Any:
        if type(raw) is _ARRAY and not raw.weak_type:
            return raw
        return _strong(raw if isinstance(raw, jax.Array) else jnp.asarray(raw))

    def index_case(self) -> tuple[Any, ...] | None:
        """A basic key of a concrete array: one compiled slice (`_take_basic`)."""
        return (_ARRAY, True, _take_basic, None, False)

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

    # -- indexing and mutation --------------------------------------------------------------
    def _check_bounds(self, raw: Any, key: Any, function: str) -> None:
        """`IndexError` for Python integers and concrete integer arrays out of range (JAX
        would clamp or drop them); traced integer arrays cannot be checked (JAX clamps)."""
        items = key if isinstance(key, tuple) else (key,)
        if not any(_is_int(k) or _is_int_array(k) for k in items):
            return
        shape = raw.shape
        used = [_dims_used(k) for k in items]
        if sum(used) > len(shape):
            raise self.error(function, f"{sum(used)} indices for an array of {len(shape)} "
                                       "dimensions", IndexError)  # fmt: skip
        dim = 0
        for i, k in enumerate(items):
            if k is Ellipsis:
                dim = len(shape) - sum(used[i + 1:])
            elif dim < len(shape):
                bad = _out_of_range(k, shape[dim])
                if bad is not None:
                    raise self.error(function, f"index {bad} is out of bounds for axis {dim} "
                                               f"with size {shape[dim]}", IndexError)  # fmt: skip
            dim += used[i]

    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]``; a key JAX refuses (``1.5``, ``"a"``, two ellipses, a mask of the
        wrong shape) raises `IndexError` naming it."""
        self._check_bounds(raw, key, "__getitem__")
        try:
            return raw[key]
        except Exception as exc:
            plain = standard_key(key, as_it_is, self, "__getitem__")  # lists, NumPy bools
            if plain is not key:
                return self.getitem(raw, plain)
            raise self._key_error(exc, key, "__getitem__") from exc

    def _key_error(self, exc: Exception, key: Any, function: str) -> Exception:
        """The contract's error for a key JAX refused: `IndexError` (`MemoryError` and
        `NotImplementedError` as they are)."""
        error = self.translate(exc, function)
        if isinstance(error, (MemoryError, NotImplementedError, IndexError)):
            return error
        return self.error(function, f"invalid index {key!r}: "
                          f"{str(error).partition(': ')[2]}", IndexError)  # fmt: skip

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """``raw`` with ``value`` written at ``key``, as a new array (``.at[key].set``).

        A single boolean mask writes through ``where``, which also works under ``jax.jit``
        when ``value`` broadcasts to the selected rows' shape.  ``value`` must fit ``raw``'s
        dtype without a downcast (`TypeError` otherwise).  Leading size-1 dimensions of
        ``value`` are dropped first, as NumPy, torch and TensorFlow do (``x[0, ...] = y`` with
        ``y`` of shape ``(1,)``); JAX's ``.at[].set`` would refuse them.
        """
        key = standard_key(key, as_it_is, self, "__setitem__")  # lists, NumPy bools
        self._check_bounds(raw, key, "__setitem__")
        value = self._setitem_value(raw, value)
        if value.ndim and value.shape[0] == 1:  # NumPy's rule: leading size-1 dimensions of
            value = value.reshape(_without_leading_ones(value.shape))  # the value drop
        if isinstance(key, bool) or (isinstance(key, (jax.Array, np.ndarray))
                                     and key.dtype == np.bool_):  # fmt: skip
            mask = jnp.asarray(key)
            if 0 in mask.shape or selects_nothing(mask.shape, raw.shape):
                selection = (0, *raw.shape[mask.ndim:])  # nothing to write; the value
                if not broadcasts_to(value.shape, selection):  # must still fit
                    raise self.error("__setitem__", f"a value of shape {value.shape} does not "
                                     f"fit an empty selection {selection}")  # fmt: skip
                return raw
            if mask.shape != raw.shape[: mask.ndim]:
                raise self.error("__setitem__", f"boolean index of shape {mask.shape} does not "
                                 f"match the array's shape {raw.shape}", IndexError)  # fmt: skip
            rest = raw.ndim - mask.ndim
            if value.ndim <= rest or (value.ndim == rest + 1 and value.shape[0] == 1):
                if value.ndim > rest:
                    value = value[0]
                return jnp.where(mask.reshape(mask.shape + (1,) * rest), value, raw)
        selected = _selection_shape(raw.shape, key)
        # NumPy's rule, which .at[].set skips when either side is empty
        if selected is not None and value.ndim and not broadcasts_to(value.shape, selected):
            raise self.error("__setitem__", f"value of shape {value.shape} does not fit "
                             f"the selection of shape {selected}")  # fmt: skip
        try:
            return raw.at[key].set(value)
        except Exception as exc:
            try:  # the key alone, to tell a bad key from a value that does not fit
                raw[key]
            except Exception as key_exc:
                raise self._key_error(key_exc, key, "__setitem__") from exc
            raise_translated(self, exc, "__setitem__")

    def _setitem_value(self, raw: Any, value: Any) -> Any:
        target = self.dtype_name(raw.dtype)
        if isinstance(value, (bool, int, float, complex)):
            return jnp.asarray(self.setitem_scalar(target, plain_scalar(value)), dtype=raw.dtype)
        source = self.dtype_name(value.dtype)
        if promote(source, target) != target and not truncates(source, target):
            raise self.error("__setitem__", f"cannot store {source} values in an array of "
                             f"dtype {target} without a downcast", TypeError)  # fmt: skip
        return value.astype(raw.dtype)

    # -- creation --------------------------------------------------------------------------
    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """Without ``dtype``, a 64-bit NumPy array or scalar raises `ValueError` while x64 is
        off (JAX would silently make it 32-bit): enable x64 or pass ``dtype``.
        ``copy=False`` accepts only a JAX array that needs no dtype or device change
        (anything else must be copied into JAX: `ValueError`)."""
        target = self.check_dtype(dtype, "asarray")
        if (target is None and isinstance(obj, (np.ndarray, np.generic))
                and obj.dtype.name in _BITS64 and not x64_enabled()):  # fmt: skip
            raise self.error("asarray", f"a NumPy {obj.dtype.name} array would silently become "
                             f"32-bit: {X64_HINT}, or pass dtype= explicitly")  # fmt: skip
        place = None if device is None else self.native_device(device, "asarray")
        if isinstance(obj, jax.Array):
            same = (target is None or obj.dtype == target) and (
                place is None or isinstance(obj, jax.core.Tracer) or obj.devices() == {place})
            if same and copy is not True:
                return _strong(obj)
        if isinstance(obj, np.ndarray):
            obj = native_order(self, obj, copy, "asarray")  # JAX refuses swapped arrays
        if copy is False:
            raise self.error("asarray", f"copy=False, but making a JAX array of "
                             f"{type(obj).__name__} with dtype={dtype!r}, device={device!r} "
                             "needs a copy")  # fmt: skip
        try:
            return _strong(jnp.array(obj, dtype=target, copy=True, device=place))
        except OverflowError:  # JAX names no int beyond a C long
            self._check_python_ints(obj, None if target is None else self.dtype_name(target),
                                    "asarray")  # fmt: skip
            raise

    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """``x`` is any DLPack producer (not only a JAX array, unlike the other ``x``); a
        JAX array is taken as it is (no exchange needed: under ``jax.jit`` it is a tracer,
        which has no DLPack form)."""
        if isinstance(x, jax.Array) and device is None:
            return jnp.array(x, copy=True) if copy else x
        try:
            x, copy = compact_numpy(self, x, copy, "from_dlpack")
            kwargs: dict[str, Any] = {"copy": copy}
            if device is not None:
                kwargs["device"] = self.native_device(device, "from_dlpack")
            result = jnp.from_dlpack(x, **kwargs)
        except Exception as exc:
            raise_translated(self, exc, "from_dlpack")
        dtype = getattr(x, "dtype", None)
        size = getattr(dtype, "itemsize", None)
        if isinstance(size, int) and result.dtype.itemsize < size:  # x64 off: JAX truncates
            raise self.error("from_dlpack", f"a {dtype} array would silently become "
                             f"{result.dtype}: {X64_HINT}")  # fmt: skip
        return result

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

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """``step=0`` raises `ValueError`; so does a length JAX cannot allocate."""
        self._check_arange(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        if all(isinstance(v, (int, float)) for v in (low, high, step)):
            kind = "real floating" if any(isinstance(v, float) for v in (low, high, step)) \
                else "integral"  # fmt: skip
            self._check_extent((max(0, math.ceil((high - low) / step)),), "arange",
                               self._itemsize(dtype, kind, "arange"))  # fmt: skip
        return _strong(super().arange(start, stop, step, dtype=dtype, device=device))

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        dims = self._check_shape((n_rows, n_rows if n_cols is None else n_cols), "eye")
        integer(self, k, "k", "eye")
        self._check_extent(dims, "eye", self._itemsize(dtype, "real floating", "eye"))
        return super().eye(n_rows, n_cols, k=k, dtype=dtype, device=device)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return _strong(super().full(shape, fill_value, dtype=dtype, device=device))

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        count = integer(self, num, "num", "linspace", minimum=0)
        self._check_extent((count,), "linspace",
                           self._itemsize(dtype, "real floating", "linspace"))  # fmt: skip
        return _strong(super().linspace(start, stop, num, dtype=dtype, device=device,
                                        endpoint=endpoint))  # fmt: skip

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:  # type: ignore[override]
        """A tuple (2024.12 on); the arrays must be 1-D and share one dtype."""
        for a in arrays:
            self.check_array(a, "meshgrid")
        self._same_dtype(arrays, "meshgrid")
        for a in arrays:
            if a.ndim != 1:
                raise self.error("meshgrid", f"inputs must be 1-D, got shape {a.shape}")
        return tuple(super().meshgrid(*arrays, indexing=indexing))

    def _same_dtype(self, arrays: Any, function: str) -> None:
        dtypes = {a.dtype for a in arrays}
        if len(dtypes) > 1:
            names = ", ".join(sorted(self.dtype_name(d) for d in dtypes))
            raise self.error(function, f"the arrays must share one dtype, got {names}")

    # -- data types ------------------------------------------------------------------------
    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to real raises `TypeError` (the standard: should not be permitted);
        complex to bool is ``x != 0``."""
        target = self.required_dtype(dtype, "astype")
        if x.dtype.kind == "c" and target.kind == "b":
            result = jnp.not_equal(x, 0)
            return result if device is None else self.to_device(result, device)
        if x.dtype.kind == "c" and target.kind != "c":
            raise self.error("astype", f"casting {x.dtype} to {target} would drop the "
                             "imaginary part; take real() or abs() first", TypeError)  # fmt: skip
        result = x if x.dtype == target and not copy else x.astype(target)
        return result if device is None else self.to_device(result, device)

    @translated
    def result_type(self, *arrays_and_dtypes: Any) -> Any:
        """Without x64, ``int32`` with ``uint32`` gives ``int32``, the dtype JAX computes in."""
        result = super().result_type(*arrays_and_dtypes)
        if result == np.int64 and not x64_enabled():
            return self.dtypes_by_name["int32"]
        return result

    # -- element-wise fixes ---------------------------------------------------------------
    sign = _whole("sign", _sign_value, _sign_value.__doc__ or "")
    abs = _whole("abs", _abs_value, _abs_value.__doc__ or "")

    @fastpath.binary(_ARRAY, _REAL_FLOATING, _power, _pow_exponent, _power_by_scalar, False)
    @translated
    def pow(self, x1: Any, x2: Any, /) -> Any:
        """Both operands take the promoted dtype first: JAX keeps ``x1``'s dtype for a 0-d
        integer ``x2`` and widens a Python integer base.  Complex results that overflow are
        ``exp(x2 log x1)`` (XLA's pow gives NaN there), and ``0 ** w`` with ``real(w) > 0``
        is ``0`` (XLA: NaN for a non-real or huge ``w``).  An integer to a negative integer
        power (unspecified) gives what torch and TensorFlow give: 1 for base 1, ±1 for base
        -1, else 0 (JAX raises `TypeError` for a concrete negative exponent, even on an empty
        array)."""
        self._operands("pow", x1, x2)
        int_beyond_dtype(self, "pow", x1, x2)  # OverflowError for an int beyond x1's dtype
        if _is_int(x2) and hasattr(x1, "dtype"):  # x1's dtype, and JAX's integer_pow path
            if x2 < 0 and x1.dtype.kind in "iu":
                return _negative_int_pow(x1, x2)
            return jnp.power(x1, x2)
        dtype = jnp.result_type(x1, x2)
        base, exponent = jnp.asarray(x1, dtype=dtype), jnp.asarray(x2, dtype=dtype)
        if dtype.kind == "i":  # JAX raises for a concrete negative exponent, even on no values
            negative = exponent < 0
            result = jnp.power(base, jnp.where(negative, jnp.zeros_like(exponent), exponent))
            return jnp.where(negative, _negative_int_pow(base, exponent), result)
        result = jnp.power(base, exponent)
        if result.dtype.kind != "c":
            return result
        # XLA's complex pow gives NaN + NaN j where the result overflows; exp(w log z) does not
        finite = jnp.isfinite(base) & jnp.isfinite(exponent) & (base != 0)
        result = jnp.where(finite & jnp.isnan(result), jnp.exp(exponent * jnp.log(base)), result)
        # 0 ** w with real(w) > 0 is exp(w * (-inf + theta j)) = exp(-inf + ...) = 0 (XLA: NaN
        # once w has an imaginary part or is huge)
        zero = (base == 0) & (jnp.real(exponent) > 0)
        return jnp.where(zero, jnp.zeros_like(result), result)

    @translated
    def clip(self, x: Any, /, min: Any = None, max: Any = None) -> Any:
        """Python int bounds beyond the weak range (`_WEAK_INT_MIN`) are 0-d arrays of
        ``x``'s dtype, clamped to its range first (the shared ``clip``)."""
        if type(min) is int or type(max) is int:
            min, max = (_exact_scalars(x, _clamp_int_bound(self, x.dtype, b))[1]
                        for b in (min, max))  # fmt: skip
        return super().clip(x, min, max)

    @fastpath.binary(_ARRAY, _IN["integer"], _jitted(jnp.floor_divide), _fast_scalar)
    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """Floating results follow ``floor(x1 / x2)`` where JAX differs: infinite operands
        (``1 // -inf`` is ``-0``, not ``-1``) and the sign of zero results."""
        self._operands("floor_divide", x1, x2)
        int_beyond_dtype(self, "floor_divide", x1, x2)  # OverflowError for an int beyond x1's dtype
        x1, x2 = _exact_scalars(x1, x2)
        result = jnp.floor_divide(x1, x2)
        if result.dtype.kind != "f":
            return result
        quotient = jnp.floor(jnp.divide(x1, x2))
        special = jnp.isinf(x1) | jnp.isinf(x2) | (result == 0)
        return jnp.where(special, quotient, result)

    @fastpath.binary(_ARRAY, _IN["integer"], _jitted(jnp.remainder), _fast_scalar)
    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """A zero result takes the sign of ``x2`` (JAX: of ``x1``)."""
        self._operands("remainder", x1, x2)
        int_beyond_dtype(self, "remainder", x1, x2)  # OverflowError for an int beyond x1's dtype
        x1, x2 = _exact_scalars(x1, x2)
        result = jnp.remainder(x1, x2)
        if result.dtype.kind != "f":
            return result
        return jnp.where(result == 0, jnp.copysign(result, x2), result)

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """A complex element is true when either part is nonzero (JAX tests the real part)."""
        return jnp.all(_truth(x), axis=axis, keepdims=keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """A complex element is true when either part is nonzero (JAX tests the real part)."""
        return jnp.any(_truth(x), axis=axis, keepdims=keepdims)

    # -- linear algebra --------------------------------------------------------------------
    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        self._arrays("matmul", x1, x2)
        return jnp.matmul(x1, x2)

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        """``axes`` is a non-negative int or two sequences of axes (JAX takes a negative
        int as a count from the end)."""
        self._arrays("tensordot", x1, x2)
        if isinstance(axes, bool) or not isinstance(axes, (int, tuple, list)):
            raise self.error("tensordot", f"axes must be an int or a pair of sequences of "
                             f"ints, got {axes!r}", TypeError)  # fmt: skip
        if isinstance(axes, int) and axes < 0:
            raise self.error("tensordot", f"axes must not be negative, got {axes}")
        return jnp.tensordot(x1, x2, axes=axes)

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        self._arrays("vecdot", x1, x2)
        return jnp.vecdot(x1, x2, axis=axis)

    def _arrays(self, function: str, *arrays: Any) -> None:
        """Arrays of this backend, each of ``function``'s category (no Python scalars)."""
        for x in arrays:
            self.check_array(x, function)
        self._operands(function, *arrays)

    # -- manipulation ------------------------------------------------------------------------
    @translated
    def broadcast_arrays(self, *arrays: Any) -> tuple[Any, ...]:  # type: ignore[override]
        """A tuple (2024.12 on)."""
        for x in arrays:
            self.check_array(x, "broadcast_arrays")
        return tuple(jnp.broadcast_arrays(*arrays))

    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        return jnp.concat(self._array_sequence(arrays, "concat"), axis=axis)

    @translated
    def stack(self, arrays: Any, /, *, axis: int = 0) -> Any:
        return jnp.stack(self._array_sequence(arrays, "stack"), axis=axis)

    def _array_sequence(self, arrays: Any, function: str) -> Any:
        """``arrays``, a tuple or list of arrays of this backend (`TypeError` otherwise)."""
        if not isinstance(arrays, (tuple, list)):
            raise self.error(function, f"expected a tuple or list of arrays, got "
                             f"{_described(arrays)}", TypeError)  # fmt: skip
        for x in arrays:
            self.check_array(x, function)
        return arrays

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        """``axis`` may be a tuple (2025.12); axes count in the output's dimensions."""
        count = len(axis) if isinstance(axis, tuple) else 1
        return jax.lax.expand_dims(x, self.normalize_axes(axis, x.ndim + count, "expand_dims"))

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        """Negative axes count from the end (2025.12)."""
        if not isinstance(axes, (tuple, list)) or len(axes) != x.ndim:
            raise self.error("permute_dims", f"axes {axes!r} must name each of the "
                             f"{x.ndim} dimensions once")  # fmt: skip
        return jnp.transpose(x, self.normalize_axes(tuple(axes), x.ndim, "permute_dims"))

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        """A repeated source or destination axis raises (JAX accepts a repeated
        destination)."""
        n = x.ndim
        src = self.normalize_axes(source, n, "moveaxis")
        dst = self.normalize_axes(destination, n, "moveaxis")
        if len(src) != len(dst):
            raise self.error("moveaxis", f"source {source!r} and destination {destination!r} "
                                         "differ in length")  # fmt: skip
        return jnp.moveaxis(x, src, dst)

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """A count, or an integer array of counts; a result too big for memory raises
        (`MemoryError`) before XLA is asked for it."""
        if isinstance(repeats, (bool, int, float, complex, str)) or repeats is None:
            count = integer(self, repeats, "repeats", "repeat", minimum=0)
            length = math.prod(x.shape) if axis is None else \
                x.shape[self.normalize_axis(axis, x.ndim, "repeat")]  # fmt: skip
            self._check_extent((length, count), "repeat", x.dtype.itemsize)
        else:
            self.check_array(repeats, "repeat")
            if repeats.dtype.kind not in "iu":
                raise self.error("repeat", f"repeats must be an int or an integer array, got "
                                 f"{self.dtype_name(repeats.dtype)}", TypeError)  # fmt: skip
        return jnp.repeat(x, repeats, axis=axis)

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        """``shift`` must be ints (JAX truncated ``1.5``); a tuple ``shift`` needs an
        ``axis`` tuple of its length (JAX broadcasts them)."""
        check_roll(self, shift, axis)
        return jnp.roll(x, shift, axis=axis)

    # -- indexing ------------------------------------------------------------------------
    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """Concrete indices out of range raise `IndexError` (JAX fills with NaN); traced
        ones cannot be checked."""
        self._index_array(indices, "take")
        if axis is not None:
            size = x.shape[self.normalize_axis(axis, x.ndim, "take")]
            self._check_indices(indices, size, axis, "take")
        elif x.ndim == 1:
            self._check_indices(indices, x.shape[0], 0, "take")
        return super().take(x, indices, axis=axis)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        """Concrete indices out of range raise `IndexError` (JAX fills with NaN)."""
        self._index_array(indices, "take_along_axis")
        size = x.shape[self.normalize_axis(axis, x.ndim, "take_along_axis")]
        self._check_indices(indices, size, axis, "take_along_axis")
        return jnp.take_along_axis(x, indices, axis=axis)

    def _index_array(self, indices: Any, function: str) -> None:
        """``indices``: an integer array of this backend (`TypeError` otherwise)."""
        self.check_array(indices, function)
        if indices.dtype.kind not in "iu":
            raise self.error(function, f"indices must have an integer dtype, got "
                             f"{self.dtype_name(indices.dtype)}", TypeError)  # fmt: skip

    def _check_indices(self, indices: Any, size: int, axis: int, function: str) -> None:
        bad = _out_of_range(indices, size)
        if bad is not None:
            raise self.error(function, f"index {bad} is out of bounds for axis {axis} with "
                                       f"size {size}", IndexError)  # fmt: skip

    # -- searching, sets ---------------------------------------------------------------------
    def _default(self, kind: str) -> Any:
        return self.dtypes_by_name[self.default_dtype_names()[kind]]

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """Returns the default indexing dtype (JAX: ``int32``)."""
        self.check_array(x1, "searchsorted")
        self._operands("searchsorted", x1, x2)
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        if x1.ndim != 1:
            raise self.error("searchsorted", f"x1 must be 1-D, got shape {x1.shape}")
        if sorter is not None:
            check_sorter(self, sorter, x1.shape[0])
            x1 = jnp.take(x1, sorter)
        result = jnp.searchsorted(*_exact_scalars(x1, x2), side=side)
        return result.astype(self._default("indexing"))

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        self._operands("where", x1, x2)
        int_beyond_dtype(self, "where", x1, x2)  # JAX would wrap the int
        return jnp.where(condition, *_exact_scalars(x1, x2))

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        self._operands("isin", x1, x2)
        return jnp.isin(*_exact_scalars(x1, x2), invert=invert)

    # -- statistics ------------------------------------------------------------------------
    def _accumulator(self, x: Any, dtype: Any, function: str) -> Any:
        """The dtype of a sum or product: small integers widen to the default integer."""
        if dtype is not None:
            return self.check_dtype(dtype, function)
        default = self._default("integral")
        if x.dtype.kind == "i" and x.dtype.itemsize < default.itemsize:
            return default
        if x.dtype.kind == "u" and x.dtype.itemsize < default.itemsize:
            return np.dtype(f"uint{8 * default.itemsize}")
        return None

    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        """Small integers accumulate in the default integer dtype (JAX keeps theirs)."""
        return jnp.cumulative_prod(x, axis=axis, include_initial=include_initial,
                                   dtype=self._accumulator(x, dtype, "cumulative_prod"))  # fmt: skip

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        return jnp.cumulative_sum(x, axis=axis, include_initial=include_initial,
                                  dtype=self._accumulator(x, dtype, "cumulative_sum"))  # fmt: skip

    # a floating array (which accumulates in its own dtype) over every axis or one:
    # `jax.numpy`'s reduction, jitted (`_reduction`)
    @fastpath.reduction(_ARRAY, _FLOATING, _reduction(jnp.prod), accumulates=True)
    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return jnp.prod(x, axis=axis, keepdims=keepdims,
                        dtype=self._accumulator(x, dtype, "prod"))  # fmt: skip

    @fastpath.reduction(_ARRAY, _FLOATING, _reduction(jnp.sum), accumulates=True)
    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=self._accumulator(x, dtype, "sum"))

    @fastpath.reduction(_ARRAY, _FLOATING, _reduction(jnp.mean))
    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return jnp.mean(x, axis=axis, keepdims=keepdims)

    @fastpath.reduction(_ARRAY, _IN["real numeric"], _reduction(_max))
    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """``jax.numpy.max`` with NaNs propagated (`_propagating`), with a fast path
        (jitted) over every axis or one."""
        return _max(x, axis=axis, keepdims=keepdims)

    @fastpath.reduction(_ARRAY, _IN["real numeric"], _reduction(_min))
    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        """``jax.numpy.min`` with NaNs propagated (`_propagating`), with a fast path
        (jitted) over every axis or one."""
        return _min(x, axis=axis, keepdims=keepdims)

    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        return jnp.std(x, axis=axis, correction=self._correction(correction, "std"),
                       keepdims=keepdims)  # fmt: skip

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        return jnp.var(x, axis=axis, correction=self._correction(correction, "var"),
                       keepdims=keepdims)  # fmt: skip

    def _correction(self, correction: Any, function: str) -> Any:
        """A non-negative real number (JAX takes a negative one)."""
        if isinstance(correction, bool) or not isinstance(correction, (int, float)):
            raise self.error(function, f"correction must be a real number, got "
                             f"{correction!r}", TypeError)  # fmt: skip
        if correction < 0:
            raise self.error(function, f"correction must not be negative, got {correction!r}")
        return correction


#: The one JAX backend object (the native module exports it).
BACKEND = _JAX = JaxBackend()


def _on_cpu(function: Callable[[Any], Any], x: Any) -> Any:
    """``function(x)`` computed on the CPU for a concrete ``x`` on another device (JAX has
    CPU kernels only for it), the results put back on ``x``'s devices.  Traced ``x`` is
    passed as it is: under ``jax.jit`` on an accelerator JAX then reports the kernel as
    missing (the compiled function cannot move data to the host)."""
    if isinstance(x, jax.core.Tracer) or all(d.platform == "cpu" for d in x.devices()):
        return function(x)
    cpu = jax.local_devices(backend="cpu")[0]
    return jax.device_put(function(jax.device_put(x, cpu)), x.sharding)


def _raw_of(array: Any) -> Any:
    return array.raw


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
