"""The JAX backend's other chapters: linear algebra, manipulation, searching, sets, statistics."""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp

from .._base import fastpath
from .._base.arguments import integer
from .._base.core import (
    int_beyond_dtype,
    translated,
)
from .._base.functions import accumulates_in_bool, bool_accumulation, check_roll, check_sorter
from ._core import (
    _ARRAY,
    _FLOATING,
    _IN,
    JaxCore,
    _described,
    _exact_scalars,
    _max,
    _min,
    _reduction,
)


class JaxFunctions(JaxCore):
    """Linear algebra, manipulation, searching, sets and statistics."""

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

    # -- searching, sets ---------------------------------------------------------------------


    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """Returns the default indexing dtype (JAX: ``int32``)."""
        self.check_array(x1, "searchsorted")
        self.check_operands("searchsorted", x1, x2)
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
        self.check_operands("where", x1, x2)
        int_beyond_dtype(self, "where", x1, x2)  # JAX would wrap the int
        return jnp.where(condition, *_exact_scalars(x1, x2))

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        self.check_operands("isin", x1, x2)
        return jnp.isin(*_exact_scalars(x1, x2), invert=invert)

    # -- statistics ------------------------------------------------------------------------


    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        """Small integers accumulate in the default integer dtype (JAX keeps theirs)."""
        target = self._accumulator(x, dtype, "cumulative_prod")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "cumulative_prod", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        return jnp.cumulative_prod(x, axis=axis, include_initial=include_initial, dtype=target)

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        target = self._accumulator(x, dtype, "cumulative_sum")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "cumulative_sum", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        return jnp.cumulative_sum(x, axis=axis, include_initial=include_initial, dtype=target)

    # a floating array (which accumulates in its own dtype) over every axis or one:
    # `jax.numpy`'s reduction, jitted (`_reduction`)
    @fastpath.reduction(_ARRAY, _FLOATING, _reduction(jnp.prod), accumulates=True)
    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        target = self._accumulator(x, dtype, "prod")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "prod", x, axis, keepdims)
        return jnp.prod(x, axis=axis, keepdims=keepdims, dtype=target)

    @fastpath.reduction(_ARRAY, _FLOATING, _reduction(jnp.sum), accumulates=True)
    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        target = self._accumulator(x, dtype, "sum")
        if accumulates_in_bool(self, target):
            return bool_accumulation(self, "sum", x, axis, keepdims)
        return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=target)

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
