"""The chapters of the standard where ndonnx differs from it or lacks a function.

The generic defaults (`native._base`) call ndonnx's namespace for the rest; what is
written here composes ONNX operators that ndonnx has (``isin``) or fixes ndonnx's
deviations, the same on eager and symbolic arrays.
"""

from __future__ import annotations

import math
from typing import Any

import ndonnx as ndx
import numpy as np
import spox.opset.ai.onnx.v21 as _onnx

from .._base.core import translated
from .._base.creation import check_dlpack, native_order
from ._core import Array
from ._elementwise import NdonnxElementwise


class NdonnxFunctions(NdonnxElementwise):
    """Functions of the standard ndonnx lacks, or gets wrong."""

    def _as_array(self, x: Any, like: Any, function: str) -> Any:
        """``x`` as an ndonnx array: a Python scalar of ``like``'s dtype, an `Array`'s raw."""
        if type(x) is Array:
            return x
        if isinstance(x, (bool, int, float)):
            return ndx.asarray(x, dtype=like.dtype)
        self.check_array(x, function)
        return x.raw

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """Each element of ``x1`` compared with every element of ``x2`` (one ``Equal``
        broadcast over a new axis and an ``any``): ONNX has no set lookup for numbers,
        and ndonnx's own ``isin`` takes Python scalars only.  NaN is in nothing."""
        if type(x1) is not Array and type(x2) is not Array:
            if isinstance(x1, (bool, int, float)) and isinstance(x2, (bool, int, float)):
                return ndx.asarray((x1 == x2) != invert)
        if type(x1) is not Array:
            x1 = self._as_array(x1, x2, "isin")
        if type(x2) is not Array:
            x2 = self._as_array(x2, x1, "isin")
        flat = ndx.reshape(x2, (-1,))
        hits = ndx.any(ndx.expand_dims(x1, axis=-1) == flat, axis=-1)
        return ndx.logical_not(hits) if invert else hits

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        """ONNX's ``MatMul`` itself where both shapes are known and hold no zero (ndonnx
        builds some 200 operators around it for zero-size operands, a second per eager
        call); ``MatMul`` has no 8- and 16-bit integers: those multiply in int64 and are
        cast back (the same values modulo 2**bits, as the narrow product would wrap)."""
        b = self._b
        s1, s2 = b.shape_of(x1), b.shape_of(x2)
        name = b.promote_names(b.dtype_name(x1.dtype), b.dtype_name(x2.dtype), "matmul")
        if name == "bool":
            raise b.error("matmul", "expected numeric arrays, got bool", TypeError)
        if not s1 or not s2 or None in s1 or None in s2 or 0 in s1 or 0 in s2:
            return ndx.matmul(x1, x2)
        inner1, inner2 = s1[-1], s2[-2] if len(s2) > 1 else s2[0]
        if inner1 != inner2:
            raise b.error("matmul", f"shapes {s1} and {s2} do not match: the last axis of x1 "
                          f"({inner1}) is not the {'first' if len(s2) == 1 else 'second-to-last'}"
                          f" of x2 ({inner2})")  # fmt: skip
        dtype = b.dtypes_by_name[name]
        wide = ndx.int64 if name in _NARROW_INTEGERS else dtype
        a1, a2 = ndx.astype(x1, wide, copy=False), ndx.astype(x2, wide, copy=False)
        result = ndx.asarray(_onnx.matmul(a1.unwrap_spox(), a2.unwrap_spox()))
        return result if wide is dtype else ndx.astype(result, dtype)

    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """Indices of any integer dtype (ndonnx takes int64 only); negative ones count
        from the end, as the standard's."""
        shape = self.shape_of(x)
        if axis is None:
            if len(shape) != 1:
                raise self.error("take", f"axis is required for a {len(shape)}-d array")
            axis = 0
        axis = self.normalize_axis(axis, len(shape), "take")
        if indices.dtype != ndx.int64:
            indices = ndx.astype(indices, ndx.int64)
        size = shape[axis]
        extent = ndx.asarray(size, dtype=ndx.int64) if size is not None else \
            ndx.astype(x.dynamic_shape[axis], ndx.int64)  # fmt: skip
        indices = ndx.where(indices < 0, indices + extent, indices)
        return ndx.take(x, indices, axis=axis)

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...] = 0) -> Any:
        """One new axis per entry of ``axis`` (ndonnx takes one int, by keyword)."""
        axes = axis if isinstance(axis, tuple) else (axis,)
        ndim = len(self.shape_of(x)) + len(axes)
        positions = sorted(self.normalize_axes(axes, ndim, "expand_dims"))
        for position in positions:
            x = ndx.expand_dims(x, axis=position)
        return x

    @translated
    def asarray(self, obj: Any, /, *, dtype: Any = None, device: Any = None,
                copy: bool | None = None) -> Any:  # fmt: skip
        """NumPy arrays of another byte order are read in the machine's (ndonnx refuses
        them); a complex value is refused (`check_holds`)."""
        if device is not None:
            self.native_device(device, "asarray")
        target = self.check_dtype(dtype, "asarray")
        if isinstance(obj, np.ndarray):
            obj = native_order(self, obj, copy, "asarray")
            self.check_holds(obj.dtype.name, "asarray") if obj.dtype.kind == "c" else None
        elif isinstance(obj, complex) or (isinstance(obj, (list, tuple)) and _has_complex(obj)):
            self.check_holds("complex128", "asarray")
        if self.wrapper_type is not None and type(obj) is self.wrapper_type:
            obj = obj.raw
        return ndx.asarray(obj, dtype=target, copy=copy)

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """Through NumPy's ``from_dlpack`` (ndonnx imports no DLPack itself): the values
        become a constant of the graph, so ``copy=False`` cannot be kept."""
        check_dlpack(self, x)
        if device is not None:
            self.native_device(device, "from_dlpack")
        if copy is False:
            raise self.error("from_dlpack", "copy=False: an ndonnx array holds its values as "
                             "a constant of its graph, a copy", ValueError)  # fmt: skip
        host = np.from_dlpack(x)
        if host.dtype.kind == "c":
            self.check_holds(host.dtype.name, "from_dlpack")
        return ndx.asarray(np.array(host, copy=True))

    @translated
    def conj(self, x: Any, /) -> Any:
        """Real arrays only (ndonnx has no complex dtype): the values themselves."""
        return ndx.asarray(x, copy=True)

    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """``|x1|`` with the sign bit of ``x2`` (ndonnx has none): a product, not a
        ``Where``, which drops the sign of a zero in onnxruntime."""
        x1, x2 = self._float_pair(x1, x2, "copysign")
        sign = 1 - 2 * ndx.astype(self.signbit(x2), x1.dtype)
        return ndx.abs(x1) * sign

    def _float_pair(self, x1: Any, x2: Any, function: str) -> tuple[Any, Any]:
        """Both operands as arrays of their promoted real floating dtype."""
        if type(x1) is not Array:
            x1 = self._as_array(x1, x2, function)
        if type(x2) is not Array:
            x2 = self._as_array(x2, x1, function)
        name = self.promote_names(self.dtype_name(x1.dtype), self.dtype_name(x2.dtype), function)
        dtype = self.dtypes_by_name[name]
        return ndx.astype(x1, dtype, copy=False), ndx.astype(x2, dtype, copy=False)

    @translated
    def signbit(self, x: Any, /) -> Any:
        """Negative values and negative zero (``1 / -0.0`` is ``-inf``); ONNX reads no
        bits, so a NaN's sign is not seen (False)."""
        if self.dtype_name(x.dtype) not in ("float32", "float64"):
            return x < 0
        return (x < 0) | (ndx.reciprocal(x) < 0)

    @translated
    def hypot(self, x1: Any, x2: Any, /) -> Any:
        """``sqrt(x1**2 + x2**2)`` scaled by the larger magnitude (no overflow); an
        infinity wins over NaN, as the standard says."""
        x1, x2 = self._float_pair(x1, x2, "hypot")
        a, b = ndx.abs(x1), ndx.abs(x2)
        big, small = ndx.maximum(a, b), ndx.minimum(a, b)
        safe = ndx.where(big == 0, ndx.ones_like(big), big)
        ratio = small / safe
        result = big * ndx.sqrt(1 + ratio * ratio)
        return ndx.where(ndx.isinf(a) | ndx.isinf(b), ndx.full_like(big, math.inf), result)

    @translated
    def atan2(self, x1: Any, x2: Any, /) -> Any:
        """The angle of ``(x2, x1)``: ``atan(x1 / x2)`` moved to its quadrant, with the
        standard's signed zeros and infinities."""
        y, x = self._float_pair(x1, x2, "atan2")
        pi = ndx.asarray(math.pi, dtype=y.dtype)
        sign_y = 1 - 2 * ndx.astype(self.signbit(y), y.dtype)
        both_inf = ndx.isinf(x) & ndx.isinf(y)
        ratio = ndx.where(both_inf, ndx.where(x > 0, ndx.ones_like(y), -ndx.ones_like(y)) * sign_y,
                          y / x)  # fmt: skip
        base = ndx.atan(ratio)
        base = ndx.where(both_inf & (x < 0), sign_y * 3 * pi / 4, base)
        negative_x = self.signbit(x)
        shifted = ndx.where(negative_x & ~both_inf, base + sign_y * pi, base)
        zero_x = x == 0
        shifted = ndx.where(zero_x & (y != 0), sign_y * pi / 2, shifted)
        both_zero = zero_x & (y == 0)
        shifted = ndx.where(both_zero, ndx.where(negative_x, pi, ndx.zeros_like(y)), shifted)
        result = ndx.where(ndx.isnan(x) | ndx.isnan(y), ndx.full_like(y, math.nan), shifted)
        return ndx.abs(result) * sign_y  # (the angle has y's sign; Where drops a zero's)

    @translated
    def nextafter(self, x1: Any, x2: Any, /) -> Any:
        """Refused: the next representable number needs a float's bits, which ONNX
        operators do not reach (no bit cast before opset 26)."""
        raise self.error("nextafter", "ONNX (opset 21) has no operator that reads or writes a "
                         "float's bits, which the next representable number needs",
                         NotImplementedError)  # fmt: skip

    @translated
    def real(self, x: Any, /) -> Any:
        """Real arrays only (ndonnx has no complex dtype): the values themselves."""
        return ndx.asarray(x, copy=True)

    @translated
    def imag(self, x: Any, /) -> Any:
        """Real arrays only: zeros."""
        return ndx.zeros_like(x)

    @translated
    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """Integer division by zero gives 0, as NumPy's (onnxruntime's ``Div`` fails the
        whole model on it)."""
        return self._integer_safe("floor_divide", ndx.floor_divide, x1, x2)

    @translated
    def remainder(self, x1: Any, x2: Any, /) -> Any:
        """An integer remainder by zero is 0, as NumPy's (onnxruntime's ``Mod`` fails)."""
        return self._integer_safe("remainder", ndx.remainder, x1, x2)

    def _integer_safe(self, function: str, op: Any, x1: Any, x2: Any) -> Any:
        divisor = x2 if type(x2) is Array else None
        if divisor is None or self.dtype_name(divisor.dtype) not in _INTEGERS:
            return op(x1, x2)
        zero = divisor == 0
        result = op(x1, ndx.where(zero, ndx.asarray(1, dtype=divisor.dtype), divisor))
        return ndx.where(zero, ndx.zeros_like(result), result)


def _has_complex(obj: Any) -> bool:
    if isinstance(obj, (list, tuple)):
        return any(_has_complex(o) for o in obj)
    return isinstance(obj, complex)


#: The integer dtype names.
_INTEGERS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})

#: The integer dtypes ONNX's ``MatMul`` does not take.
_NARROW_INTEGERS = frozenset({"int8", "int16", "uint8", "uint16"})
