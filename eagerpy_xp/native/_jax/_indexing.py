"""The JAX backend's indexing: one compiled slice for basic keys, ``getitem``/``setitem`` and ``take``."""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..._detect import plain_scalar
from .._base.core import (
    raise_translated,
    translated,
)
from .._base.keys import as_it_is, broadcasts_to, selects_nothing, standard_key
from ._core import (
    _ARRAY,
    JaxCore,
    _dims_used,
    _is_int,
    _is_int_array,
    _out_of_range,
    _selection_shape,
    _without_leading_ones,
)


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


class JaxIndexing(JaxCore):
    """Indexing and mutation (functional: a new array)."""

    def index_case(self) -> tuple[Any, ...] | None:
        """A basic key of a concrete array: one compiled slice (`_take_basic`)."""
        return (_ARRAY, True, _take_basic, None, False)

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
        self.check_stored_dtype(self.dtype_name(value.dtype), target)
        return value.astype(raw.dtype)

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
