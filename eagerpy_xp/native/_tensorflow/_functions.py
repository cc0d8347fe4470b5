"""Manipulation, searching, statistics, utility, sorting, sets and top-level linear algebra
on TensorFlow.

Sorting, set functions and ``isin`` (`SortingSetsMixin`) sort integer *order keys*
(`TFBase.order_key`) with ``top_k``, which is stable: NaNs order last, -0 equals +0, and
unsigned 64-bit values order correctly.  Unique values come out sorted, and every NaN is
its own unique value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from .._base import fastpath
from .._base.arguments import integer
from .._base.core import AxisError, raise_translated, translated
from .._base.functions import (
    accumulates_in_bool,
    accumulation_dtype,
    bool_accumulation,
    check_reduced_elements,
    check_roll,
    check_sorter,
)
from ._core import INTEGRAL_KINDS, REAL_KINDS, TFBase
from ._eager import FLOATING, raw_op, reduction_axes
from ._ranks import basic_slice, positions, reverse, select

_SUM, _PROD, _MEAN = raw_op("Sum"), raw_op("Prod"), raw_op("Mean")


#: Dtypes a sum or product accumulates in as they are (smaller integers widen).
ACCUMULATES_AS_IS = (tf.float32, tf.float64, tf.int64, tf.complex64, tf.complex128)


#: Dtypes TensorFlow's matmul lacks, and the dtype to compute them in (wrapping alike).
_MATMUL_VIA = {"int8": "int64", "int16": "int64", "uint8": "int64", "uint16": "int64",
               "uint32": "int64", "uint64": "int64"}  # fmt: skip


def _fast_sum(op: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A fast path in front of the decorated ``sum``/``prod``: the raw reduction ``op`` for
    an eager tensor of a dtype that accumulates as it is, without ``dtype``, over axes
    `reduction_axes` takes (TensorFlow's errors translated as `translated` does)."""

    def decorate(slow: Callable[..., Any]) -> Callable[..., Any]:
        name = slow.__name__

        def method(self: Any, x: Any, /, *, axis: Any = None, dtype: Any = None,
                   keepdims: bool = False) -> Any:  # fmt: skip
            if dtype is None:
                axes = reduction_axes(x, axis, keepdims, ACCUMULATES_AS_IS)
                if axes is not None:
                    try:
                        return op(x, axes, keepdims)
                    except Exception as exc:
                        raise_translated(self, exc, name)
            return slow(self, x, axis=axis, dtype=dtype, keepdims=keepdims)

        return fastpath.describe(method, slow)

    return decorate


def _fast_mean(op: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`_fast_sum` for ``mean`` (floating-point dtypes, no ``dtype`` argument)."""

    def decorate(slow: Callable[..., Any]) -> Callable[..., Any]:
        name = slow.__name__

        def method(self: Any, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
            axes = reduction_axes(x, axis, keepdims, FLOATING)
            if axes is not None:
                try:
                    return op(x, axes, keepdims)
                except Exception as exc:
                    raise_translated(self, exc, name)
            return slow(self, x, axis=axis, keepdims=keepdims)

        return fastpath.describe(method, slow)

    return decorate


class FunctionsMixin(TFBase):
    """The manipulation, searching, statistical, utility and linear algebra chapters."""

    # -- manipulation ----------------------------------------------------------------------
    @translated
    def broadcast_arrays(self, *arrays: Any) -> tuple[Any, ...]:
        tensors = [self.tensor(a, "broadcast_arrays") for a in arrays]
        if not tensors:
            return ()
        static = [t.shape for t in tensors]
        if all(s.is_fully_defined() for s in static):
            shape: Any = self.broadcast_shapes(*(tuple(s) for s in static))
        else:
            shape = tf.shape(tensors[0])
            for t in tensors[1:]:
                shape = tf.broadcast_dynamic_shape(shape, tf.shape(t))
        return tuple(tf.broadcast_to(t, shape) for t in tensors)

    @translated
    def broadcast_to(self, x: Any, /, shape: tuple[int, ...]) -> Any:
        x = self.tensor(x, "broadcast_to")
        shape = self.check_sizes(shape, "shape", "broadcast_to")
        if x.shape.is_fully_defined():
            target = tuple(shape)
            if self.broadcast_shapes(tuple(x.shape), target) != target:
                raise self.error("broadcast_to", f"cannot broadcast {tuple(x.shape)} to {target}")
        return tf.broadcast_to(x, shape)

    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        tensors, _ = self.operands("concat", *arrays)
        if axis is None:
            return tf.concat([tf.reshape(t, [-1]) for t in tensors], 0)
        n = self.ndim(tensors[0])
        if any(self.ndim(t) != n for t in tensors):
            raise self.error("concat", "arrays must have the same number of dimensions")
        a = self.normalize_axis(axis, n, "concat")
        shapes = [tuple(t.shape) for t in tensors]
        for i in range(n):  # static sizes, checked before a kernel fails (and logs)
            sizes = {s[i] for s in shapes if s[i] is not None}
            if i != a and len(sizes) > 1:
                raise self.error("concat", f"shapes {', '.join(str(s) for s in shapes)} "
                                 f"differ outside axis {a}")  # fmt: skip
        return tf.concat(tensors, a)

    @translated
    def stack(self, arrays: Any, /, *, axis: int = 0) -> Any:
        tensors, _ = self.operands("stack", *arrays)
        shapes = [tuple(t.shape) for t in tensors]
        if len({len(d) for d in shapes}) > 1 or any(
                len({d for d in dims if d is not None}) > 1 for dims in zip(*shapes)):
            raise self.error("stack", "the arrays must have one shape, got "
                             f"{', '.join(str(d) for d in shapes)}")  # fmt: skip
        return tf.stack(tensors, axis=self.normalize_axis(axis, self.ndim(tensors[0]) + 1, "stack"))

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        x = self.tensor(x, "unstack")
        return tuple(tf.unstack(x, axis=self.normalize_axis(axis, self.ndim(x), "unstack")))

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        x = self.tensor(x, "expand_dims")
        items = axis if isinstance(axis, tuple) else (axis,)
        out = self.ndim(x) + len(items)
        for a in sorted(self.axes(items, out, "expand_dims")):
            x = tf.expand_dims(x, a)
        return x

    @translated
    def squeeze(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        x = self.tensor(x, "squeeze")
        axes = self.axes(axis, self.ndim(x), "squeeze")
        for a in axes:
            if x.shape[a] is not None and x.shape[a] != 1:
                raise self.error("squeeze", f"axis {a} has size {x.shape[a]}, not 1")
        return tf.squeeze(x, axes) if axes else x

    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        x = self.tensor(x, "flip")
        return reverse(x, self.axes(axis, self.ndim(x), "flip"))

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        x = self.tensor(x, "permute_dims")
        perm = self.axes(axes, self.ndim(x), "permute_dims")
        if len(perm) != self.ndim(x):
            raise self.error("permute_dims", f"axes {axes} is not a permutation of "
                             f"{self.ndim(x)} dimensions")  # fmt: skip
        return tf.transpose(x, perm)

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        x = self.tensor(x, "moveaxis")
        n = self.ndim(x)
        src = self.axes(source, n, "moveaxis")
        dst = self.axes(destination, n, "moveaxis")
        if len(src) != len(dst):
            raise self.error("moveaxis", "source and destination need the same length")
        order = [i for i in range(n) if i not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return tf.transpose(x, order)

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        x = self.tensor(x, "reshape")
        dims = tuple(shape)
        if sum(d == -1 for d in dims) > 1 or any(d < -1 for d in dims):
            raise self.error("reshape", f"invalid shape {shape}")
        return tf.reshape(x, dims)  # `translated` explains or translates its errors

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        x = self.tensor(x, "roll")
        check_roll(self, shift, axis)
        if axis is None:
            return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
        axes = axis if isinstance(axis, tuple) else (axis,)
        shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,) * len(axes)
        return tf.roll(x, list(shifts), [self.normalize_axis(a, self.ndim(x), "roll") for a in axes])

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        x = self.tensor(x, "repeat")
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        a = self.normalize_axis(axis, self.ndim(x), "repeat")
        if isinstance(repeats, (bool, int, float, complex, str)) or repeats is None:
            count = integer(self, repeats, "repeats", "repeat", minimum=0)
            self.check_extent((x.shape[a], count), "repeat", x.dtype.size)
        else:
            self.refuse_under_xla("repeat", "repeats given as an array: a result whose shape depends on the array's values")
            repeats = self.tensor(repeats, "repeat")
            self.check_kind(repeats, "repeat", INTEGRAL_KINDS, "an integer repeats")
            repeats = tf.cast(repeats, tf.int64)
        # gather repeated positions: tf.repeat fails on empty arrays and lacks uint16
        length = tf.shape(x, out_type=tf.int64)[a]
        return tf.gather(x, tf.repeat(tf.range(length), repeats), axis=a)

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        x = self.tensor(x, "tile")
        reps = list(repetitions)
        n = max(len(reps), self.ndim(x))
        if n > self.ndim(x):  # leading ones, graph-safe
            x = tf.reshape(x, tf.concat([tf.ones([n - self.ndim(x)], tf.int32), tf.shape(x)], 0))
        reps = [1] * (n - len(reps)) + reps
        return self.via_signed16(x, lambda v: tf.tile(v, reps))

    # -- searching -------------------------------------------------------------------------
    def _arg_extreme(self, function: str, x: Any, axis: int | None, keepdims: bool,
                     reduce: Callable[..., Any]) -> Any:  # fmt: skip
        x = self.tensor(x, function)
        self.check_kind(x, function, REAL_KINDS, "a real-valued")
        check_reduced_elements(self, self.shape_of(x), axis, function)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int8)
        n0 = self.ndim(x)
        if axis is None:
            flat = tf.reshape(x, [-1])
            result = self._arg_extreme(function, flat, 0, False, reduce)
            return tf.reshape(result, [1] * n0) if keepdims else result
        a = self.normalize_axis(axis, n0, function)
        hit = tf.equal(x, reduce(x, axis=a, keepdims=True))
        if self.kind(x) == "real floating":
            nan = tf.math.is_nan(x)
            hit = select(tf.reduce_any(nan, axis=a, keepdims=True), nan, hit)
        length = tf.shape(x, out_type=tf.int64)[a]
        iota = tf.reshape(tf.range(length), [-1] + [1] * (n0 - a - 1))
        result = tf.reduce_min(select(hit, iota, length), axis=a)
        return self.keep(result, [a], keepdims)

    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        """The first maximum; the first NaN if there is one."""
        return self._arg_extreme("argmax", x, axis, keepdims, tf.reduce_max)

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        """The first minimum; the first NaN if there is one."""
        return self._arg_extreme("argmin", x, axis, keepdims, tf.reduce_min)

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self.tensor(x, "count_nonzero")
        axes = self.axes(axis, self.ndim(x), "count_nonzero")
        nonzero = tf.cast(self.nonzero_mask(x), tf.int64)
        return tf.reduce_sum(nonzero, axis=axes, keepdims=keepdims)

    @translated
    def nonzero(self, x: Any, /) -> tuple[Any, ...]:
        x = self.tensor(x, "nonzero")
        if self.ndim(x) == 0:
            raise self.error("nonzero", "0-d arrays are not supported")
        self.refuse_under_xla("nonzero", "a result whose shape depends on the array's values")
        found = positions(self.nonzero_mask(x))
        return tuple(tf.unstack(found, num=self.ndim(x), axis=1))

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        cond = self.tensor(condition, "where")
        if cond.dtype != tf.bool:
            raise self.error("where", f"condition must be boolean, got {self.dn(cond)}", TypeError)
        self.check_operands("where", x1, x2)
        (a, b), _ = self.operands("where", x1, x2)
        self.check_broadcast("where", cond, a, b)
        return select(cond, a, b)

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """NaNs sort last and -0 equals +0; unsigned 64-bit values order correctly."""
        if side not in ("left", "right"):
            raise self.error("searchsorted", f"side must be 'left' or 'right', got {side!r}")
        self.check_arrays("searchsorted", x1)
        self.check_operands("searchsorted", x1, x2)
        (a, v), _ = self.operands("searchsorted", x1, x2)
        if self.ndim(a) != 1:
            raise self.error("searchsorted", f"x1 must be 1-d, got {self.ndim(a)} dimensions")
        if sorter is not None:
            sorter = self.tensor(sorter, "searchsorted")
            check_sorter(self, sorter, a.shape[0])
            a = tf.gather(a, tf.cast(sorter, tf.int64))
        ka, kv = self.order_key(a, "searchsorted"), self.order_key(v, "searchsorted")
        found = tf.searchsorted(ka[None], tf.reshape(kv, [1, -1]), side=side, out_type=tf.int64)
        return tf.reshape(found, tf.shape(v))

    # -- statistics ------------------------------------------------------------------------
    def _accumulator(self, x: Any, dtype: Any, function: str) -> Any:
        """``x`` in the dtype a sum/product accumulates in: ``dtype``
        (`accumulation_dtype`), else int64/uint64 for small ints."""
        if dtype is not None:
            target = accumulation_dtype(self, x, dtype, function)
        else:
            kind = self.kind(x)
            name = {"bool": "int64", "signed integer": "int64",
                    "unsigned integer": "uint64"}.get(kind, self.dn(x))  # fmt: skip
            target = self.tfd(name)
        if x.dtype == target:
            return x
        return tf.cast(x, target)

    def _reduce(self, function: str, op: Callable[..., Any], x: Any, axis: Any, keepdims: bool,
                dtype: Any = None) -> Any:  # fmt: skip
        """``op`` (a raw reduction op) over ``axis``, accumulating as the standard says."""
        x = self.tensor(x, function)
        axes = tf.constant(self.axes(axis, self.ndim(x), function), tf.int32)
        if accumulates_in_bool(self, accumulation_dtype(self, x, dtype, function)):
            return bool_accumulation(self, function, x, axis, keepdims)
        return op(self._accumulator(x, dtype, function), axes, bool(keepdims))

    @_fast_sum(_SUM)
    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return self._reduce("sum", _SUM, x, axis, keepdims, dtype)

    @_fast_sum(_PROD)
    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None,
             keepdims: bool = False) -> Any:  # fmt: skip
        return self._reduce("prod", _PROD, x, axis, keepdims, dtype)

    def _extreme(self, function: str, fn: Callable[..., Any], x: Any, axis: Any,
                 keepdims: bool) -> Any:  # fmt: skip
        x = self.tensor(x, function)
        self.check_kind(x, function, REAL_KINDS, "a real-valued")
        check_reduced_elements(self, self.shape_of(x), axis, function)
        axes = self.axes(axis, self.ndim(x), function)
        if x.dtype == tf.bool:
            return tf.cast(fn(tf.cast(x, tf.int8), axis=axes, keepdims=keepdims), tf.bool)
        result = fn(x, axis=axes, keepdims=keepdims)
        if self.kind(x) == "real floating":
            nan = tf.reduce_any(tf.math.is_nan(x), axis=axes, keepdims=keepdims)
            result = select(nan, tf.constant(float("nan"), x.dtype), result)
        return result

    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme("max", tf.reduce_max, x, axis, keepdims)

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._extreme("min", tf.reduce_min, x, axis, keepdims)

    @_fast_mean(_MEAN)
    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        x = self.tensor(x, "mean")
        axes = self.axes(axis, self.ndim(x), "mean")
        return tf.reduce_mean(x, axis=axes, keepdims=keepdims)

    @translated
    def var(self, x: Any, /, *, axis: Any = None, correction: float = 0.0,
            keepdims: bool = False) -> Any:  # fmt: skip
        """Divides by ``N - correction`` when positive, else by 0 (as NumPy and torch): inf,
        or NaN where the squared deviations sum to 0 (an empty or constant slice)."""
        if isinstance(correction, bool) or not isinstance(correction, (int, float)):
            raise self.error("var", f"correction must be a real number, got {correction!r}",
                             TypeError)  # fmt: skip
        if correction < 0:
            raise self.error("var", f"correction must not be negative, got {correction!r}")
        x = self.tensor(x, "var")
        axes = self.axes(axis, self.ndim(x), "var")
        centred = x - tf.reduce_mean(x, axis=axes, keepdims=True)
        if x.dtype.is_complex:
            squares = tf.math.real(centred * tf.math.conj(centred))
        else:
            squares = centred * centred
        # not below 0: with no elements 0 / 0 is NaN, where 0 / -1 gave -0.0
        count = tf.maximum(tf.cast(self.size(x, axes), squares.dtype) - correction, 0)
        return tf.reduce_sum(squares, axis=axes, keepdims=keepdims) / count

    @translated
    def std(self, x: Any, /, *, axis: Any = None, correction: float = 0.0,
            keepdims: bool = False) -> Any:  # fmt: skip
        return tf.sqrt(self.var(x, axis=axis, correction=correction, keepdims=keepdims))

    def _cumulative(self, function: str, fn: Callable[..., Any], identity: int, x: Any,
                    axis: int | None, dtype: Any, include_initial: bool) -> Any:  # fmt: skip
        x = self.tensor(x, function)
        if axis is None:
            if self.ndim(x) > 1:
                raise self.error(function, "axis is required for arrays of more than one "
                                 "dimension")  # fmt: skip
            axis = 0
        if self.ndim(x) == 0:
            raise self.error(function, "0-d arrays are not supported")
        a = self.normalize_axis(axis, self.ndim(x), function)
        if accumulates_in_bool(self, accumulation_dtype(self, x, dtype, function)):
            return bool_accumulation(self, function, x, a, include_initial=include_initial)
        acc = self._accumulator(x, dtype, function)
        result = fn(acc, axis=a)
        if include_initial:
            shape = tf.tensor_scatter_nd_update(tf.shape(acc), [[a]], [1])
            result = tf.concat([tf.fill(shape, tf.constant(identity, acc.dtype)), result], a)
        return result

    @translated
    def cumulative_sum(self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
                       include_initial: bool = False) -> Any:  # fmt: skip
        return self._cumulative("cumulative_sum", tf.cumsum, 0, x, axis, dtype, include_initial)

    @translated
    def cumulative_prod(self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
                        include_initial: bool = False) -> Any:  # fmt: skip
        return self._cumulative("cumulative_prod", tf.math.cumprod, 1, x, axis, dtype,
                                include_initial)  # fmt: skip

    # -- utility ---------------------------------------------------------------------------
    def _truth(self, function: str, fn: Callable[..., Any], x: Any, axis: Any,
               keepdims: bool) -> Any:  # fmt: skip
        x = self.tensor(x, function)
        axes = self.axes(axis, self.ndim(x), function)
        truth = self.nonzero_mask(x)
        return fn(truth, axis=axes, keepdims=keepdims)

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._truth("all", tf.reduce_all, x, axis, keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._truth("any", tf.reduce_any, x, axis, keepdims)

    @translated
    def diff(self, x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None,
             append: Any = None) -> Any:  # fmt: skip
        """Boolean inputs give ``x[i+1] != x[i]``."""
        x = self.tensor(x, "diff")
        a = self.normalize_axis(axis, self.ndim(x), "diff")
        if n < 0:
            raise self.error("diff", f"n must be non-negative, got {n}")
        if n == 0:
            return x
        parts = [p for p in (prepend, x, append) if p is not None]
        if len(parts) > 1:
            parts, _ = self.operands("diff", *parts)
            x = tf.concat(parts, a)
        head = tuple([slice(None)] * a + [slice(1, None)])
        tail = tuple([slice(None)] * a + [slice(None, -1)])
        for _ in range(n):
            x = tf.not_equal(basic_slice(x, head), basic_slice(x, tail)) if x.dtype == tf.bool \
                else tf.subtract(basic_slice(x, head), basic_slice(x, tail))  # fmt: skip
        return x

    # -- linear algebra --------------------------------------------------------------------
    def _matmul2(self, a: Any, b: Any, name: str) -> Any:
        """TensorFlow's batched matmul, for every numeric dtype (integers wrap around)."""
        via = _MATMUL_VIA.get(name)
        if via is None:
            return tf.linalg.matmul(a, b)
        if name == "uint64":
            return tf.bitcast(tf.linalg.matmul(tf.bitcast(a, tf.int64), tf.bitcast(b, tf.int64)),
                              tf.uint64)  # fmt: skip
        wide = tf.linalg.matmul(tf.cast(a, tf.int64), tf.cast(b, tf.int64))
        return tf.cast(wide, a.dtype)

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        self.check_arrays("matmul", x1, x2)
        (a, b), name = self.operands("matmul", x1, x2)
        if self.ndim(a) == 0 or self.ndim(b) == 0:
            raise self.error("matmul", "0-d operands are not allowed")
        ka, kb = a.shape[-1], b.shape[-2] if self.ndim(b) > 1 else b.shape[0]
        if ka is not None and kb is not None and ka != kb:
            raise self.error("matmul", f"inner dimensions differ: {tuple(a.shape)} @ "
                             f"{tuple(b.shape)}")  # fmt: skip
        va, vb = self.ndim(a) == 1, self.ndim(b) == 1
        a = a[None, :] if va else a
        b = b[:, None] if vb else b
        if self.ndim(a) > 2 or self.ndim(b) > 2:  # broadcast batch dimensions
            batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(b)[:-2])
            a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
            b = tf.broadcast_to(b, tf.concat([batch, tf.shape(b)[-2:]], 0))
        result = self._matmul2(a, b, name)
        if va:
            result = tf.squeeze(result, -2)
        if vb:
            result = tf.squeeze(result, -1)
        return result

    @translated
    def matrix_transpose(self, x: Any, /) -> Any:
        x = self.tensor(x, "matrix_transpose")
        if self.ndim(x) < 2:
            raise self.error("matrix_transpose", "expected at least 2 dimensions")
        n = self.ndim(x)
        return tf.transpose(x, [*range(n - 2), n - 1, n - 2])

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        self.check_arrays("tensordot", x1, x2)
        (a, b), name = self.operands("tensordot", x1, x2)
        na, nb = self.ndim(a), self.ndim(b)
        if isinstance(axes, bool) or not isinstance(axes, (int, tuple, list)):
            raise self.error("tensordot", f"axes must be an int or a pair of sequences of "
                             f"ints, got {axes!r}", TypeError)  # fmt: skip
        if isinstance(axes, int):
            if axes < 0 or axes > min(na, nb):
                raise self.error("tensordot", f"axes={axes} is out of range")
            ax_a, ax_b = list(range(na - axes, na)), list(range(axes))
        else:
            ax_a = self.axes(tuple(axes[0]), na, "tensordot")
            ax_b = self.axes(tuple(axes[1]), nb, "tensordot")
            if len(ax_a) != len(ax_b):
                raise self.error("tensordot", "axes sequences differ in length")
        free_a = [i for i in range(na) if i not in ax_a]
        free_b = [i for i in range(nb) if i not in ax_b]
        sa, sb = tf.shape(a, out_type=tf.int64), tf.shape(b, out_type=tf.int64)
        # explicit sizes, not -1: a zero-size operand leaves -1 undetermined
        inner = self._count(sa, ax_a)
        left = tf.reshape(tf.transpose(a, free_a + ax_a), [self._count(sa, free_a), inner])
        right = tf.reshape(tf.transpose(b, ax_b + free_b), [inner, self._count(sb, free_b)])
        out_shape = tf.concat([self._pick(sa, free_a), self._pick(sb, free_b)], 0)
        return tf.reshape(self._matmul2(left, right, name), out_shape)

    def _pick(self, shape: Any, axes: Sequence[int]) -> Any:
        return tf.gather(shape, tf.constant(list(axes), tf.int32))

    def _count(self, shape: Any, axes: Sequence[int]) -> Any:
        return tf.reduce_prod(self._pick(shape, axes))

    def _check_contracted(self, a: Any, b: Any, back: int, axis: Any) -> None:
        """`ValueError` unless both operands have the contracted axis (``back``: counted
        from the end) with the same size: the standard broadcasts the other axes only
        (TensorFlow's broadcasting would stretch a size 1 there).  Sizes not known while
        tracing are left to the kernel."""
        sizes = []
        for name, operand in (("x1", a), ("x2", b)):
            shape = self.shape_of(operand)
            if len(shape) < -back:
                raise self.error("vecdot", f"axis {axis} is out of range for {name} of "
                                 f"shape {shape}", AxisError)  # fmt: skip
            sizes.append(shape[back])
        if None not in sizes and sizes[0] != sizes[1]:
            raise self.error("vecdot", f"the contracted axis {axis} has size {sizes[0]} in x1 "
                             f"and {sizes[1]} in x2; the standard wants the same size "
                             f"(shapes {self.shape_of(a)} and {self.shape_of(b)})")  # fmt: skip

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        self.check_arrays("vecdot", x1, x2)
        (a, b), _ = self.operands("vecdot", x1, x2)
        ndim = max(self.ndim(a), self.ndim(b))
        ax = self.normalize_axis(axis, ndim, "vecdot")
        self._check_contracted(a, b, ax - ndim, axis)
        a, b = self.broadcast_arrays(a, b)
        if a.dtype.is_complex:
            a = tf.math.conj(a)
        return tf.reduce_sum(tf.math.multiply(a, b), axis=ax)


class SortingSetsMixin(TFBase):
    """The sorting and set chapters."""

    def _keys(self, x: Any, function: str) -> list[Any]:
        """Order keys, most significant first (complex: real part, then imaginary part)."""
        if x.dtype.is_complex:
            return [self.order_key(tf.math.real(x), function),
                    self.order_key(tf.math.imag(x), function)]  # fmt: skip
        return [self.order_key(x, function)]

    def _argsort_key(self, key: Any, descending: bool) -> Any:
        """Stable argsort of integer keys along the last axis."""
        ranked = key if descending else tf.bitwise.invert(key)
        return tf.cast(tf.math.top_k(ranked, k=tf.shape(key)[-1]).indices, tf.int64)

    def _argsort_last(self, x: Any, descending: bool, function: str) -> Any:
        keys = self._keys(x, function)
        perm = self._argsort_key(keys[-1], descending)
        batch = self.ndim(x) - 1
        for key in reversed(keys[:-1]):
            step = self._argsort_key(tf.gather(key, perm, batch_dims=batch), descending)
            perm = tf.gather(perm, step, batch_dims=batch)
        return perm

    @translated
    def argsort(self, x: Any, /, *, axis: int = -1, descending: bool = False,
                stable: bool = True) -> Any:  # fmt: skip
        """Always stable; NaNs last (first when descending, as reversing a stable sort)."""
        x = self.tensor(x, "argsort")
        if x.dtype.is_complex:
            raise self.error("argsort", "complex inputs have no order", TypeError)
        if self.ndim(x) == 0:
            return tf.zeros([], tf.int64)
        moved, inverse = self.move_to_last(x, self.normalize_axis(axis, self.ndim(x), "argsort"))
        return self.undo_move(self._argsort_last(moved, descending, "argsort"), inverse)

    @translated
    def sort(self, x: Any, /, *, axis: int = -1, descending: bool = False,
             stable: bool = True) -> Any:  # fmt: skip
        x = self.tensor(x, "sort")
        if x.dtype.is_complex:
            raise self.error("sort", "complex inputs have no order", TypeError)
        if self.ndim(x) == 0:
            return x
        moved, inverse = self.move_to_last(x, self.normalize_axis(axis, self.ndim(x), "sort"))
        perm = self._argsort_last(moved, descending, "sort")
        return self.undo_move(tf.gather(moved, perm, batch_dims=self.ndim(x) - 1), inverse)

    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """values, first indices, inverse indices (shaped like x) and counts."""
        x = self.tensor(x, function)
        self.refuse_under_xla(function, "a result whose shape depends on the array's values")
        flat = tf.reshape(x, [-1])
        n = tf.shape(flat, out_type=tf.int64)[0]
        perm = self._argsort_last(flat, False, function)
        ordered = tf.gather(flat, perm)
        is_new = tf.concat([tf.ones([tf.minimum(n, 1)], tf.bool),
                            tf.not_equal(ordered[1:], ordered[:-1])], 0)  # fmt: skip
        values = tf.boolean_mask(ordered, is_new)
        starts = tf.where(is_new)[:, 0]
        counts = tf.concat([starts[1:], n[None]], 0) - starts
        group = tf.cumsum(tf.cast(is_new, tf.int64)) - 1
        inverse = tf.scatter_nd(perm[:, None], group, n[None])
        return values, tf.gather(perm, starts), tf.reshape(inverse, tf.shape(x)), counts

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """NaN is never found; -0 and +0 match."""
        (a, b), _ = self.operands("isin", x1, x2)
        flat_b = tf.reshape(b, [-1])
        if a.dtype.is_complex:
            found = tf.reduce_any(tf.equal(a[..., None], flat_b), axis=-1)
        else:
            kb = tf.sort(self.order_key(flat_b, "isin"))
            ka = tf.reshape(self.order_key(a, "isin"), [-1])
            pos = tf.searchsorted(kb, ka, side="left", out_type=tf.int64)
            padded = tf.concat([kb, tf.zeros([1], kb.dtype)], 0)
            hit = (pos < tf.shape(kb, out_type=tf.int64)[0]) & tf.equal(tf.gather(padded, pos), ka)
            found = tf.reshape(hit, tf.shape(a))
            if a.dtype.is_floating:
                found = found & ~tf.math.is_nan(a)
        return ~found if invert else found
