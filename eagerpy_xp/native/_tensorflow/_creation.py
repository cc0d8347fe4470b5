"""Creation and data-type functions on TensorFlow.

Python data gets the standard's default dtypes (bool, int64, float64, complex128), not
TensorFlow's float32/int32; every dtype (unsigned ones included) can be created.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf

from ..._detect import SCALAR_TYPES
from .._base.arguments import integer
from .._base.core import raise_translated, translated
from .._base.creation import check_inferred, check_python_int, compact_numpy, int64_bits
from ._core import TFBase
from ._eager import translate
from ._ranks import select

_DEFAULT_OF_SCALAR = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}


class CreationMixin(TFBase):
    """Creation functions and ``astype``."""

    def _dtype_or(self, dtype: Any, default: str, function: str) -> Any:
        return self.tfd(default) if dtype is None else self.check_dtype(dtype, function)

    def _has_tensor(self, obj: Any) -> bool:
        if isinstance(obj, (tf.Tensor, tf.Variable, self.wrapper_type)):
            return True
        if isinstance(obj, (list, tuple)):
            return any(self._has_tensor(o) for o in obj)
        return False

    def _stack_nested(self, obj: Any, function: str) -> Any:
        """A nested sequence holding tensors, stacked with the standard's promotion."""
        if not isinstance(obj, (list, tuple)):
            return obj if isinstance(obj, SCALAR_TYPES) else self.tensor(obj, function)
        parts = [self._stack_nested(o, function) for o in obj]
        if not parts:
            raise self.error(function, "empty sequences cannot be mixed with tensors")
        tensors, _ = self.operands(function, *parts)
        return tf.stack(tensors)

    @translated
    def asarray(self, obj: Any, /, *, dtype: Any = None, device: Any = None,
                copy: bool | None = None) -> Any:  # fmt: skip
        """Tensors keep their dtype; Python data gets the standard's default dtypes;
        ``copy=False`` for anything not already a tensor of that dtype raises ValueError."""
        target = self.check_dtype(dtype, "asarray")
        with self.placed(device, "asarray"):
            if self._has_tensor(obj):
                x = self._stack_nested(obj, "asarray") if isinstance(obj, (list, tuple)) \
                    else self.tensor(obj, "asarray")  # fmt: skip
                needs_copy = isinstance(obj, (list, tuple)) or (
                    target is not None and target != x.dtype) or (
                    device is not None and self.device_of(x) != self.as_device(device))  # fmt: skip
                if copy is False and needs_copy:
                    raise self.error("asarray", "copy=False but a copy is needed")
                if target is not None and target != x.dtype:
                    x = tf.cast(x, target)
                if device is not None:
                    x = tf.identity(x)
                return x
            if copy is False:
                if hasattr(obj, "__dlpack__") and target is None:
                    try:
                        return self.import_dlpack(obj, False, "asarray")
                    except (BufferError, TypeError, RuntimeError) as e:
                        raise self.error("asarray", f"copy=False cannot share memory: {e}") from e
                raise self.error("asarray", "copy=False but Python data must be copied")
            return tf.constant(self._host_array(obj, target, "asarray"))

    def _host_array(self, obj: Any, target: Any, function: str) -> Any:
        """``obj`` as a NumPy array of ``target`` (or of the dtype the standard infers),
        converted in one step: NumPy raises `OverflowError` for a Python int beyond
        ``target`` (converting first and casting after would wrap it, or round it through
        float64)."""
        if type(obj) in _DEFAULT_OF_SCALAR:  # NumPy scalars (np.float64 is a float) keep their dtype
            name = self.dtype_name(target) if target is not None else _DEFAULT_OF_SCALAR[type(obj)]
            if type(obj) is int:
                check_python_int(self, obj, name, function)
            return np.asarray(obj, dtype=name)
        wanted = None if target is None else self.dtype_name(target)
        try:
            host = np.asarray(obj, dtype=wanted)
        except OverflowError:  # NumPy names no int beyond a C long
            self._check_python_ints(obj, wanted, function)
            raise
        except (ValueError, TypeError) as e:  # ValueError: nested sequences of unequal lengths
            raise self.error(function, f"cannot convert {type(obj).__name__}: {e}",
                             type(e)) from e  # fmt: skip
        if wanted is None:
            check_inferred(self, obj, host, function)
            self.dtype_name(tf.as_dtype(host.dtype))  # only the standard's dtypes
        return host

    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to a real dtype raises `TypeError` (the standard: should not be
        permitted; TensorFlow would drop the imaginary part); complex to bool is ``x != 0``."""
        x = self.tensor(x, "astype")
        target = self.required_dtype(dtype, "astype")
        if x.dtype != target:
            if x.dtype.is_complex and not target.is_complex and target != tf.bool:
                raise self.error("astype", f"casting {self.dn(x)} to {self.dtype_name(target)} "
                                 "would drop the imaginary part; take real() or abs() first",
                                 TypeError)  # fmt: skip
            if target == tf.bool:
                x = self.nonzero_mask(x)
            else:
                x = self.cast(x, target)
        if device is not None:
            x = self.to_device(x, device)
        return x

    @translated
    def arange(self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
               device: Any = None) -> Any:  # fmt: skip
        """Computed like NumPy (``ceil((stop - start) / step)`` elements)."""
        start, stop, step = self._python_bounds(start, stop, step)
        if stop is None:
            start, stop = 0, start
        for value in (start, stop, step):
            if isinstance(value, complex) or not hasattr(type(value), "__float__"):
                raise self.error("arange", f"start, stop and step must be real numbers, got "
                                 f"{value!r}", TypeError)  # fmt: skip
        if step == 0:
            raise self.error("arange", f"step must not be zero, got {step!r}")
        values = (start, stop, step)
        default = "float64" if any(isinstance(v, float) for v in values) else "int64"
        target = self._dtype_or(dtype, default, "arange")
        self._check_arange_ints(start, stop, step, target)
        length = max(0, math.ceil((stop - start) / step))
        with self.placed(device, "arange"):
            try:
                if target.is_integer:  # in int64, which wraps like uint64 (values beyond 2**63)
                    wide = tf.range(length, dtype=tf.int64) * int64_bits(step) + \
                        int64_bits(start)  # fmt: skip
                    if target == tf.uint64:
                        return tf.bitcast(wide, tf.uint64)
                    return tf.cast(wide, target)
                wide = tf.range(length, dtype=tf.float64) * float(step) + float(start)
                return tf.cast(wide, target)
            except tf.errors.OpError as error:  # sizes beyond memory
                raise translate("arange", error) from error

    @translated
    def linspace(self, start: Any, stop: Any, /, num: int, *, dtype: Any = None,
                 device: Any = None, endpoint: bool = True) -> Any:  # fmt: skip
        start, stop = self._python_bounds(start, stop)
        default = "complex128" if isinstance(start, complex) or isinstance(stop, complex) \
            else "float64"  # fmt: skip
        target = self._dtype_or(dtype, default, "linspace")
        num = integer(self, num, "num", "linspace", minimum=0)
        start, stop = self._linspace_ends(start, stop, dtype)
        try:
            values = np.linspace(start, stop, num, endpoint=endpoint,
                                 dtype=self.dtype_name(target))  # fmt: skip
        except MemoryError as error:
            raise self.error("linspace", f"{num} elements do not fit in memory",
                             MemoryError) from error  # fmt: skip
        with self.placed(device, "linspace"):
            return tf.constant(values)

    def _fill(self, function: str, shape: Any, value: Any, dtype: Any, device: Any) -> Any:
        dims = self._check_shape(shape, function)
        with self.placed(device, function):
            try:
                return tf.fill(dims, tf.constant(np.asarray(value, dtype=self.dtype_name(dtype))))
            except tf.errors.OpError as error:  # sizes beyond memory
                raise translate(function, error) from error

    @translated
    def empty(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self.zeros(shape, dtype=dtype, device=device)

    @translated
    def zeros(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._fill("zeros", shape, 0, self._dtype_or(dtype, "float64", "zeros"), device)

    @translated
    def ones(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._fill("ones", shape, 1, self._dtype_or(dtype, "float64", "ones"), device)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        self._check_fill_value(fill_value, "full")
        if not isinstance(fill_value, SCALAR_TYPES):
            fill = self.tensor(fill_value, "full")
            target = fill.dtype if dtype is None else self.check_dtype(dtype, "full")
            dims = self._check_shape(shape, "full")
            with self.placed(device, "full"):
                return tf.fill(dims, tf.cast(tf.reshape(fill, []), target))
        target = self._dtype_or(dtype, _DEFAULT_OF_SCALAR[type(fill_value)], "full")
        value = self._host_array(fill_value, target, "full")
        return self._fill("full", shape, value, target, device)

    def _check_fill_value(self, value: Any, function: str) -> None:
        """A Python scalar or a 0-d array of this backend (`TypeError` otherwise)."""
        if isinstance(value, SCALAR_TYPES):
            return
        if isinstance(value, (tf.Tensor, tf.Variable, self.wrapper_type)) and \
                len(value.shape) == 0:  # fmt: skip
            return
        raise self.error(function, f"fill_value must be a Python scalar, got {value!r:.80}",
                         TypeError)  # fmt: skip

    def _like(self, function: str, x: Any, value: Any, dtype: Any, device: Any) -> Any:
        x = self.tensor(x, function)
        self._check_fill_value(value, function)
        target = x.dtype if dtype is None else self.check_dtype(dtype, function)
        if isinstance(value, SCALAR_TYPES):
            value = self._host_array(value, target, function)
        with self.placed(device, function):
            return tf.fill(tf.shape(x), tf.constant(value, target))

    @translated
    def empty_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like("empty_like", x, 0, dtype, device)

    @translated
    def zeros_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like("zeros_like", x, 0, dtype, device)

    @translated
    def ones_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like("ones_like", x, 1, dtype, device)

    @translated
    def full_like(self, x: Any, /, fill_value: Any, *, dtype: Any = None,
                  device: Any = None) -> Any:  # fmt: skip
        return self._like("full_like", x, fill_value, dtype, device)

    @translated
    def eye(self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
            device: Any = None) -> Any:  # fmt: skip
        k = self._check_eye(n_rows, n_cols, k)
        n_cols = n_rows if n_cols is None else n_cols
        self._check_shape((n_rows, n_cols), "eye")
        target = self._dtype_or(dtype, "float64", "eye")
        with self.placed(device, "eye"):
            rows = tf.range(n_rows, dtype=tf.int64)[:, None]
            cols = tf.range(n_cols, dtype=tf.int64)[None, :]
            try:
                return tf.cast(tf.equal(cols - rows, k), target)
            except tf.errors.OpError as error:  # sizes beyond memory
                raise translate("eye", error) from error

    def _band(self, function: str, x: Any, k: int, lower: bool) -> Any:
        x = self.tensor(x, function)
        if self.ndim(x) < 2:
            raise self.error(function, f"expected at least 2 dimensions, got {self.ndim(x)}")
        k = self._diagonal(x, k, function)
        shape = tf.shape(x, out_type=tf.int64)
        rows = tf.range(shape[-2])[:, None]
        cols = tf.range(shape[-1])[None, :]
        keep = (cols - rows <= k) if lower else (cols - rows >= k)
        return select(keep, x, tf.zeros_like(x))

    @translated
    def tril(self, x: Any, /, *, k: int = 0) -> Any:
        return self._band("tril", x, k, True)

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        return self._band("triu", x, k, False)

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        tensors = [self.tensor(a, "meshgrid") for a in arrays]
        if not tensors:
            return ()
        tensors, _ = self.operands("meshgrid", *tensors)
        if any(self.ndim(v) != 1 for v in tensors):
            raise self.error("meshgrid", "expected 1-d arrays")
        # broadcasting (not tf.meshgrid's multiplication by ones) keeps signed zeros
        n = len(tensors)
        axes = list(range(n))
        if indexing == "xy" and n > 1:
            axes[0], axes[1] = 1, 0
        shape = [tf.shape(v)[0] for v in tensors]
        if indexing == "xy" and n > 1:
            shape[0], shape[1] = shape[1], shape[0]
        out = []
        for v, a in zip(tensors, axes):
            view = [1] * n
            view[a] = -1
            out.append(tf.broadcast_to(tf.reshape(v, view), tf.stack(shape)))
        return tuple(out)

    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """Any object with ``__dlpack__`` (or a TensorFlow tensor); ``copy=True`` copies.
        (Not `translated`: ``x`` is any producer, not only an array of this backend.)"""
        try:
            return self._from_dlpack(x, device, copy)
        except Exception as exc:
            raise_translated(self, exc, "from_dlpack")

    def _from_dlpack(self, x: Any, device: Any, copy: bool | None) -> Any:
        if isinstance(x, (tf.Tensor, tf.Variable, self.wrapper_type)):
            result = self.tensor(x, "from_dlpack")
        else:
            if not hasattr(x, "__dlpack__"):
                raise self.error("from_dlpack", f"{type(x).__name__} has no __dlpack__",
                                 TypeError)  # fmt: skip
            x, copy = compact_numpy(self, x, copy, "from_dlpack")  # TF: compact strides only
            result = self.import_dlpack(x, copy, "from_dlpack")
        if device is not None and self.device_of(result) != self.as_device(device):
            if copy is False:
                raise self.error("from_dlpack", "copy=False but the device differs")
            return self.to_device(result, device)
        return result
