"""Creation and data type functions on MLX: the standard's default dtypes (int64 for
integers, float32, complex64), devices as MLX streams, and no silent downcast (MLX
itself reads a NumPy float64 array as float32 and complex128 as complex64)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import mlx.core as mx

from ..._detect import SCALAR_TYPES
from ..._dtypes import ALL, COMPLEX_FLOATING, kind_of
from .._base.core import translated
from .._base.creation import check_dlpack, check_python_int
from ._core import AbsentDtype, MLXCore, described

if TYPE_CHECKING:
    import numpy as np

_INT64_MAX = 2**63 - 1
#: The kind of a Python scalar, as a key of `default_dtype_names`.
_SCALAR_KINDS = {bool: None, int: "integral", float: "real floating",
                 complex: "complex floating"}  # fmt: skip


def complex_from_parts(real: Any, imag: Any) -> Any:
    """The complex64 array ``real + imag * 1j``, part for part exact (``1j * inf`` would
    make a NaN real part): both parts float32 arrays of one shape."""
    pair = mx.stack([real.astype(mx.float32), imag.astype(mx.float32)], axis=-1)
    return mx.view(pair, mx.complex64).reshape(real.shape)


class MLXCreation(MLXCore):
    """The creation and data type chapters."""

    # -- helpers ----------------------------------------------------------------------------
    def _target(self, dtype: Any, kind: str | None, function: str, device: Any = None) -> Any:
        """The dtype asked for, or the default one of ``kind`` (None: bool)."""
        if dtype is not None:
            return self.check_dtype(dtype, function, device)
        if kind is None:
            return mx.bool_
        return self._default(kind)

    def _check_shape(self, shape: Any, function: str) -> tuple[int, ...]:
        dims = super()._check_shape(shape, function)
        self.check_extent(dims, function)
        return dims

    def _scalar_kind(self, value: Any, function: str) -> str | None:
        """The default-dtype kind of a Python scalar fill value (None for a bool)."""
        for t, kind in _SCALAR_KINDS.items():
            if type(value) is t:
                return kind
        raise self.error(function, f"fill_value must be a Python scalar, got "
                         f"{described(value)} {value!r:.60}", TypeError)  # fmt: skip

    def _filled(self, shape: tuple[int, ...], value: Any, dtype: Any, function: str,
                device: Any) -> Any:  # fmt: skip
        """An array of ``shape`` and ``dtype`` holding ``value`` everywhere."""
        name = self.dtype_name(dtype)
        if type(value) is complex and name not in COMPLEX_FLOATING:
            raise self.error(function, f"cannot fill a {name} array with the complex "
                             f"{value!r}", TypeError)  # fmt: skip
        if type(value) is float and kind_of(name) in ("signed integer", "unsigned integer"):
            value = self._truncated_floats(value, name, function)  # as asarray makes it
            check_python_int(self, value, name, function)
        elif type(value) is float and kind_of(name) == "bool" and not math.isfinite(value):
            raise self.error(function, f"cannot fill a {name} array with {value!r}")
        if type(value) is int and kind_of(name) != "bool":
            fill = self.scalar_array(value, dtype, function)
        elif type(value) is complex:
            fill = complex_from_parts(mx.array(value.real), mx.array(value.imag))
            fill = fill.astype(dtype)
        else:  # made in the dtype at once: mx.array(value) alone is float32, whose rounding
            fill = mx.array(value, dtype=dtype)  # would reach float64 and int64 fills
        return mx.full(shape, fill, dtype=dtype, **self._stream(device, function))

    # -- creation ---------------------------------------------------------------------------
    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """Python ints give the default integer dtype (int64), any float float32."""
        start, stop, step = self._python_bounds(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        for value in (low, high, step):
            if isinstance(value, (bool, complex)) or type(value) not in (int, float):
                raise self.error("arange", f"start, stop and step must be real numbers, got "
                                 f"{value!r}", TypeError)  # fmt: skip
        if step == 0:
            raise self.error("arange", f"step must not be zero, got {step!r}")
        self._check_arange_ints(low, high, step, dtype)  # MLX would wrap them
        kind = "real floating" if float in (type(low), type(high), type(step)) else "integral"
        target = self._target(dtype, kind, "arange", device)
        if all(math.isfinite(v) for v in (low, high, step)):
            length = max(0, math.ceil((high - low) / step))
        else:
            raise self.error("arange", f"start, stop and step must be finite, got "
                             f"{(low, high, step)!r}")  # fmt: skip
        self.check_extent((length,), "arange")
        if kind == "integral" and max(abs(low), abs(high)) > _INT64_MAX:  # uint64 beyond int64
            import numpy as np

            return mx.array(np.arange(low, high, step, dtype=np.dtype(self.dtype_name(target))),
                            dtype=target)  # fmt: skip
        if kind == "integral" and self._kinds[target] in ("signed integer", "unsigned integer",
                                                          "real floating"):  # fmt: skip
            positions = mx.arange(length, dtype=mx.int64, **self._stream(device, "arange"))
            return (positions * step + low).astype(target)
        positions = mx.arange(length, dtype=mx.float64 if target == mx.float64 else mx.float32,
                              **self._stream(device, "arange"))  # fmt: skip
        return (positions * step + low).astype(target)

    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """MLX arrays (and `Array`s) keep their dtype; NumPy arrays keep theirs (MLX would
        read float64 as float32: not here), complex128 raises `NotImplementedError`; Python
        values take the default dtypes.  ``copy=False`` accepts only an MLX array that
        needs no conversion; ``copy=True`` gives a new array (writing to it leaves ``obj``
        as it was)."""
        target = self.check_dtype(dtype, "asarray", device)
        if device is not None:
            self.native_device(device, "asarray")
        if self.wrapper_type is not None and type(obj) is self.wrapper_type:
            obj = obj.raw
        if type(obj) is mx.array:
            if target is None or obj.dtype == target:
                if copy:
                    return mx.array(obj)
                return obj
            if copy is False:
                raise self._needs_copy(obj, dtype)
            return self.astype(obj, target)
        if copy is False:
            raise self._needs_copy(obj, dtype)
        if isinstance(obj, (str, bytes)) or obj is None:
            raise self.error("asarray", f"cannot make an array of {described(obj)} "
                             f"{obj!r:.60}", TypeError)  # fmt: skip
        return self._from_host(obj, target, device)

    def _needs_copy(self, obj: Any, dtype: Any) -> Exception:
        return self.error("asarray", f"copy=False, but making an MLX array of "
                          f"{described(obj)} with dtype={dtype!r} needs a copy")  # fmt: skip

    def _from_host(self, obj: Any, target: Any, device: Any) -> Any:
        """An MLX array of Python values, NumPy arrays or anything NumPy reads."""
        import numpy as np

        if isinstance(obj, (np.ndarray, np.generic)):
            host = np.asarray(obj)
            if not host.dtype.isnative:  # byte-swapped: the same values in the native order
                host = host.astype(host.dtype.newbyteorder("="))
        else:
            kind = _python_kind(obj)
            if target is not None and kind in ("real floating", None) and \
                    isinstance(obj, (float, list, tuple)):  # fmt: skip
                truncated = self._truncated_floats(obj, self.dtype_name(target), "asarray")
                if truncated is not obj:  # (MLX would wrap -1.5 into uint8 as 255)
                    obj, kind = truncated, _python_kind(truncated)
            stacked = _stacked(obj) if kind == "array" else None
            if stacked is not None and stacked.dtype in self._kinds and (
                    target is None or stacked.dtype == target):  # fmt: skip
                return stacked  # lazily (also under mx.compile and mx.vmap)
            if kind == "array":  # nested sequences holding MLX arrays of several kinds
                host = np.asarray([np.asarray(o) for o in obj])
            else:
                if target is None or self._kinds[target] != "real floating":  # MLX wraps them
                    self._check_python_ints(obj, None if target is None else
                                            self.dtype_name(target), "asarray")  # fmt: skip
                exact = kind == "integral" and target is not None and self._kinds[target] in (
                    "signed integer", "unsigned integer")  # NumPy reads [1, 2**64 - 1] as floats
                try:
                    host = np.asarray(obj, dtype=np.dtype(self.dtype_name(target)) if exact else None)
                except (ValueError, TypeError, OverflowError) as exc:
                    raise self.error("asarray", f"cannot make an array of {described(obj)}: "
                                     f"{exc}", ValueError if isinstance(exc, ValueError)
                                     else TypeError) from exc  # fmt: skip
                if target is None and kind is not None:
                    target = self._target(None, kind if kind != "bool" else None, "asarray")
            if host.dtype == object or host.dtype.kind in "USV":
                raise self.error("asarray", f"cannot make an array of {described(obj)} "
                                 f"{obj!r:.60}", TypeError)  # fmt: skip
        if target is None:
            name = self._host_dtype_name(host)
            self.check_holds(name, "asarray", device)
            target = self.dtypes_by_name[name]
        name = self.dtype_name(target)
        if host.dtype.kind == "c" and name not in COMPLEX_FLOATING:
            raise self.error("asarray", f"cannot make a {name} array of complex values",
                             TypeError)  # fmt: skip
        host = np.asarray(host, dtype=np.dtype(name), order="C")
        if host.size == 0:  # (a zero-size array may keep negative strides, which MLX refuses)
            host = np.zeros(host.shape, host.dtype)
        return mx.array(host, dtype=target)

    def _host_dtype_name(self, host: np.ndarray) -> str:
        try:
            return self.dtype_name(host.dtype)
        except TypeError:
            pass
        if host.dtype.isnative and host.dtype.name in ALL:  # NumPy's name is the standard's
            return host.dtype.name
        raise self.error("asarray", f"NumPy dtype {host.dtype} is not a dtype of the standard",
                         TypeError)  # fmt: skip

    @translated
    def empty(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        """Zeros (MLX has no uninitialised arrays)."""
        return mx.zeros(self._check_shape(shape, "empty"),
                        dtype=self._target(dtype, "real floating", "empty", device),
                        **self._stream(device, "empty"))  # fmt: skip

    @translated
    def empty_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return mx.zeros(x.shape, dtype=self._like(x, dtype, "empty_like", device),
                        **self._stream(device, "empty_like"))  # fmt: skip

    def _like(self, x: Any, dtype: Any, function: str, device: Any) -> Any:
        if dtype is None:
            if device is not None:
                self.check_holds(self._name(x), function, device)
            return x.dtype
        return self.check_dtype(dtype, function, device)

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        self._check_eye(n_rows, n_cols, k)
        cols = n_rows if n_cols is None else n_cols
        self.check_extent((n_rows, cols), "eye")
        target = self._target(dtype, "real floating", "eye", device)
        if n_rows == 0 or cols == 0 or not -n_rows < k < cols:
            return mx.zeros((n_rows, cols), dtype=target, **self._stream(device, "eye"))
        return mx.eye(n_rows, cols, k=k, dtype=target, **self._stream(device, "eye"))

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """Any DLPack producer on the CPU, read through NumPy (MLX's own ``from_dlpack``
        reads float64 as float32); an MLX array is returned as it is (or copied)."""
        import numpy as np

        check_dlpack(self, x)
        if device is not None:
            self.native_device(device, "from_dlpack")
        if type(x) is mx.array:
            return mx.array(x) if copy else x
        if copy is False:
            raise BufferError("eagerpy_xp.mlx.from_dlpack: MLX copies what it imports; "
                              "copy=False cannot be honoured")  # fmt: skip
        try:
            host = np.from_dlpack(x)
        except (BufferError, TypeError, RuntimeError) as exc:
            raise BufferError(f"eagerpy_xp.mlx.from_dlpack: cannot import "
                              f"{described(x)}: {exc}") from exc  # fmt: skip
        name = self._host_dtype_name(host)
        self.check_holds(name, "from_dlpack", device)
        return mx.array(np.asarray(host, order="C"), dtype=self.dtypes_by_name[name])

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        if self.is_native(fill_value):
            fill_value = self._scalar_of(fill_value, "full")
        kind = self._scalar_kind(fill_value, "full")
        return self._filled(self._check_shape(shape, "full"), fill_value,
                            self._target(dtype, kind, "full", device), "full", device)

    def _scalar_of(self, x: Any, function: str) -> Any:
        """A 0-d MLX array used as a fill value, as a Python scalar (evaluates it)."""
        if x.ndim != 0:
            raise self.error(function, f"fill_value must be a scalar, got an array of shape "
                             f"{tuple(x.shape)}", TypeError)  # fmt: skip
        return x.item()

    @translated
    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None
    ) -> Any:
        if self.is_native(fill_value):
            fill_value = self._scalar_of(fill_value, "full_like")
        self._scalar_kind(fill_value, "full_like")
        return self._filled(tuple(x.shape), fill_value, self._like(x, dtype, "full_like", device),
                            "full_like", device)  # fmt: skip

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        count = self.check_int(num, "num", "linspace", 0)
        self.check_extent((count,), "linspace")
        start, stop = self._python_bounds(start, stop)
        for value in (start, stop):
            if type(value) not in (int, float, complex):
                raise self.error("linspace", f"start and stop must be Python numbers, got "
                                 f"{value!r:.60}", TypeError)  # fmt: skip
        is_complex = complex in (type(start), type(stop))
        target = self._target(dtype, "complex floating" if is_complex else "real floating",
                              "linspace", device)  # fmt: skip
        if is_complex and self.dtype_name(target) not in COMPLEX_FLOATING:
            raise self.error("linspace", f"complex start or stop needs a complex dtype, got "
                             f"{self.dtype_name(target)}", TypeError)  # fmt: skip
        if self.dtype_name(target) in COMPLEX_FLOATING:
            a, b = complex(start), complex(stop)
            real = self._line(a.real, b.real, count, endpoint, mx.float32, device)
            imag = self._line(a.imag, b.imag, count, endpoint, mx.float32, device)
            return complex_from_parts(real, imag).astype(target)
        work = mx.float64 if target == mx.float64 else mx.float32
        return self._line(start, stop, count, endpoint, work, device).astype(target)

    def _line(self, start: float, stop: float, count: int, endpoint: bool, dtype: Any,
              device: Any) -> Any:  # fmt: skip
        """``count`` evenly spaced reals from ``start`` (``stop`` the last where
        ``endpoint``), as ``start + i * step``."""
        stream = self._stream(device, "linspace")
        divisions = count - 1 if endpoint else count
        if count == 0:
            return mx.zeros((0,), dtype=dtype, **stream)
        step = (stop - start) / divisions if divisions > 0 else 0.0
        positions = mx.arange(count, dtype=dtype, **stream)
        result = positions * step + start if math.isfinite(step) else \
            start + positions / divisions * (stop - start)  # fmt: skip
        if endpoint and count > 1:
            result = mx.where(positions == count - 1, mx.array(stop, dtype=dtype), result)
        return result

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        """A tuple; the arrays must be 1-D and share one dtype."""
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        raws = [self._raw(a, "meshgrid") for a in arrays]
        for a in raws:
            if a.ndim != 1:
                raise self.error("meshgrid", f"expected 1-d arrays, got shape {tuple(a.shape)}")
        if len({self._name(a) for a in raws}) > 1:
            names = ", ".join(sorted({self._name(a) for a in raws}))
            raise self.error("meshgrid", f"the arrays must share one dtype, got {names}")
        if not raws:
            return ()
        return tuple(mx.meshgrid(*raws, indexing=indexing))

    @translated
    def ones(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return mx.ones(self._check_shape(shape, "ones"),
                       dtype=self._target(dtype, "real floating", "ones", device),
                       **self._stream(device, "ones"))  # fmt: skip

    @translated
    def ones_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return mx.ones(x.shape, dtype=self._like(x, dtype, "ones_like", device),
                       **self._stream(device, "ones_like"))  # fmt: skip

    @translated
    def tril(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix)."""
        k = self.check_int(k, "k", "tril")
        x = self._matrices(x, "tril")
        return mx.where(self._band(x, k, lower=True), x, mx.zeros((), dtype=x.dtype))

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix)."""
        k = self.check_int(k, "k", "triu")
        x = self._matrices(x, "triu")
        return mx.where(self._band(x, k, lower=False), x, mx.zeros((), dtype=x.dtype))

    def _band(self, x: Any, k: int, lower: bool) -> Any:
        """Where ``col - row <= k`` (``lower``) or ``>= k`` in the last two dimensions."""
        rows, cols = x.shape[-2], x.shape[-1]
        offset = mx.arange(cols, dtype=mx.int64)[None, :] - mx.arange(rows, dtype=mx.int64)[:, None]
        return offset <= k if lower else offset >= k

    @translated
    def zeros(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return mx.zeros(self._check_shape(shape, "zeros"),
                        dtype=self._target(dtype, "real floating", "zeros", device),
                        **self._stream(device, "zeros"))  # fmt: skip

    @translated
    def zeros_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return mx.zeros(x.shape, dtype=self._like(x, dtype, "zeros_like", device),
                        **self._stream(device, "zeros_like"))  # fmt: skip

    # -- data types -------------------------------------------------------------------------
    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to real or integer raises `TypeError` (the standard: should not be
        permitted); complex to bool is ``x != 0``; a dtype MLX lacks (complex128) raises
        `NotImplementedError`."""
        if dtype is None:
            raise self.error("astype", "dtype must be a data type of the namespace, got None",
                             TypeError)  # fmt: skip
        target = self.check_dtype(dtype, "astype", device)
        if device is not None:
            self.native_device(device, "astype")
        source = self._kind(x)
        if source == "complex floating" and target == mx.bool_:
            return mx.not_equal(x, 0)
        if source == "complex floating" and target != mx.complex64:
            raise self.error("astype", f"casting {self._name(x)} to {self.dtype_name(target)} "
                             "would drop the imaginary part; take real() or abs() first",
                             TypeError)  # fmt: skip
        if x.dtype == target:
            return mx.array(x) if copy else x
        return x.astype(target)

    @translated
    def result_type(self, *arrays_and_dtypes: Any) -> Any:
        """The standard's promotion; a result MLX cannot hold (complex128: float64 with
        complex64, which the namespace has no attribute for) raises
        `NotImplementedError`."""
        result = super().result_type(*arrays_and_dtypes)
        if type(result) is AbsentDtype:
            self.check_holds(result.name, "result_type")
        return result


def _stacked(obj: Any) -> Any:
    """Nested lists and tuples of MLX arrays of one dtype and shape, stacked (lazily);
    None for anything else."""
    if type(obj) is mx.array:
        return obj
    if type(obj) not in (list, tuple) or not obj:
        return None
    parts = [_stacked(o) for o in obj]
    first = parts[0]
    if first is None or any(p is None or p.dtype != first.dtype or p.shape != first.shape
                            for p in parts[1:]):  # fmt: skip
        return None
    return mx.stack(parts)


def _python_kind(obj: Any) -> str | None:
    """The default-dtype kind of nested Python values (``"integral"``, ``"real floating"``,
    ``"complex floating"``, ``"bool"``), ``"array"`` where they hold MLX arrays, None for
    anything else (NumPy values keep their dtype)."""
    seen: set[str] = set()

    def visit(v: Any) -> None:
        t = type(v)
        if t is bool:
            seen.add("bool")
        elif t is int:
            seen.add("integral")
        elif t is float:
            seen.add("real floating")
        elif t is complex:
            seen.add("complex floating")
        elif t is mx.array:
            seen.add("array")
        elif t in (list, tuple):
            for item in v:
                visit(item)
        else:
            seen.add("other")

    visit(obj)
    if not seen and type(obj) in (list, tuple):  # no values: the default floating dtype
        return "real floating"
    if "array" in seen:
        return "array"
    if "other" in seen or not seen:
        return None
    for kind in ("complex floating", "real floating", "integral", "bool"):
        if kind in seen:
            return kind
    return None


__all__ = ["MLXCreation", "SCALAR_TYPES", "complex_from_parts"]
