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

from ..._dtypes import INT_RANGE
from .._base.core import int_beyond_dtype, translated
from .._base.creation import check_dlpack, check_python_int, int_beyond, native_order
from ._checked import NdonnxChecked
from ._core import Array


class NdonnxFunctions(NdonnxChecked):
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
        if not s1 or not s2:
            raise b.error("matmul", f"expected arrays of at least one dimension, got shapes "
                          f"{s1} and {s2}")  # fmt: skip
        if None in s1 or None in s2 or 0 in s1 or 0 in s2:
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
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
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
        if target is None and isinstance(obj, (int, list, tuple)) and _plain_ints(obj):
            beyond = int_beyond(obj, "int64")  # (the default integer dtype)
            if beyond is not None:
                check_python_int(self, beyond, "int64", "asarray")
        if target is not None and isinstance(obj, (int, list, tuple)):
            name = self.dtype_name(target)
            if name in INT_RANGE:
                beyond = int_beyond(obj, name)
                if beyond is not None:
                    check_python_int(self, beyond, name, "asarray")
                if name == "uint64" and _plain_ints(obj):  # (ndonnx reads them as int64)
                    obj = np.asarray(obj, dtype=np.uint64)
        result = ndx.asarray(obj, dtype=target, copy=copy)
        if result.dtype not in self.dtypes_by_name.values():  # ndonnx's strings, datetimes
            raise self.error("asarray", f"{obj!r:.80} makes an array of {result.dtype}, which "
                             "is no dtype of the standard", TypeError)  # fmt: skip
        return result

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """Integers near the 64-bit bounds made exactly (ndonnx's ``Range`` of such
        Python ints gives wrong values): from NumPy, counting up from the smaller end,
        where any end is beyond float64's exact integers (``2**53``)."""
        self._check_arange(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        if not self._check_arange_ints(low, high, step, dtype) or \
                max(abs(low), abs(high)) <= 2**53:  # fmt: skip
            return super().arange(start, stop, step, dtype=dtype, device=device)
        if device is not None:
            self.native_device(device, "arange")
        target = self.check_dtype(dtype, "arange") if dtype is not None else ndx.int64
        kind = target.unwrap_numpy()
        count = max(0, -((low - high) // step))
        last = low + (count - 1) * step
        smaller = min(low, last) if count else 0
        values = np.asarray(smaller, dtype=kind) + np.arange(count, dtype=kind) * \
            np.asarray(abs(step), dtype=kind)  # fmt: skip
        return ndx.asarray(values if step > 0 else values[::-1].copy())

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """Through NumPy's ``from_dlpack`` (ndonnx imports no DLPack itself): the values
        become a constant of the graph, so ``copy=False`` cannot be kept."""
        check_dlpack(self, x)
        if device is not None:
            self.native_device(device, "from_dlpack")
        if type(x) is Array:  # (ndonnx's own export raises BufferError)
            return x if copy is False else ndx.asarray(x, copy=True)
        if copy is False:
            raise self.error("from_dlpack", "copy=False: an ndonnx array holds its values as "
                             "a constant of its graph, a copy", ValueError)  # fmt: skip
        host = np.from_dlpack(x)
        if host.dtype.kind == "c":
            self.check_holds(host.dtype.name, "from_dlpack")
        return ndx.asarray(np.array(host, copy=True))

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        """A Python int beside an integer array takes its dtype through NumPy (ndonnx
        turns ``2**64 - 1`` beside a uint64 array into 0; one beyond the dtype:
        `OverflowError`); uint64 selects exactly (`NdonnxCore.select`)."""
        x1, x2 = self._int_operands("where", x1, x2)
        return self.select(condition, x1, x2)

    def _int_operands(self, function: str, x1: Any, x2: Any) -> tuple[Any, Any]:
        """A Python int operand beside an integer array as a 0-d array of its dtype
        (`OverflowError` beyond it); other operands as they are."""
        if (type(x1) is int and type(x2) is Array) or (type(x2) is int and type(x1) is Array):
            int_beyond_dtype(self, function, x1, x2)  # (raises: no comparison here)
            array: Any = x2 if type(x2) is Array else x1
            if self.dtype_name(array.dtype) in _INTEGERS:
                return self.scalar_like(x1, x2), self.scalar_like(x2, x1)
        return x1, x2

    @translated
    def conj(self, x: Any, /) -> Any:
        """Real arrays only (ndonnx has no complex dtype): the values themselves."""
        return ndx.asarray(x, copy=True)

    @translated
    def copysign(self, x1: Any, x2: Any, /) -> Any:
        """``|x1|``, negated where ``x2``'s sign bit is set (ndonnx has no copysign):
        ``Neg`` flips a NaN's sign too, and the negated value is ``Where``'s second
        operand, whose signed zeros and NaNs onnxruntime keeps (it makes a -0.0 picked
        from its first operand +0.0).  The sign of a NaN ``x2`` is not seen (`signbit`)."""
        x1, x2 = self.float_pair(x1, x2, "copysign")
        magnitude = ndx.abs(x1)
        return ndx.where(~self.signbit(x2), magnitude, -magnitude)

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
        x1, x2 = self.float_pair(x1, x2, "hypot")
        a, b = ndx.abs(x1), ndx.abs(x2)
        big, small = ndx.maximum(a, b), ndx.minimum(a, b)
        safe = ndx.where(big == 0, ndx.ones_like(big), big)
        ratio = small / safe
        result = big * ndx.sqrt(1 + ratio * ratio)
        return ndx.where(ndx.isinf(a) | ndx.isinf(b), ndx.full_like(big, math.inf), result)

    @translated
    def atan2(self, x1: Any, x2: Any, /) -> Any:
        """The angle of ``(x2, x1)``: ``atan(|x1| / |x2|)`` moved to its quadrant, then
        given ``x1``'s sign by a product (onnxruntime's ``Where`` drops a zero's); the
        standard's special values (multiples of pi/4, signed zeros) as exact constants,
        not through ``atan``."""
        y, x = self.float_pair(x1, x2, "atan2")
        dtype = y.dtype
        pi = ndx.asarray(math.pi, dtype=dtype)
        half = ndx.asarray(math.pi / 2, dtype=dtype)
        sign_y = 1 - 2 * ndx.astype(self.signbit(y), dtype)
        ay, ax = ndx.abs(y), ndx.abs(x)
        inf_y, inf_x = ndx.isinf(ay), ndx.isinf(ax)
        angle = self.atan(ay / ax)  # in [0, pi/2]
        angle = ndx.where(inf_y | (ax == 0), half, angle)
        angle = ndx.where(inf_y & inf_x, ndx.asarray(math.pi / 4, dtype=dtype), angle)
        angle = ndx.where(ay == 0, ndx.zeros_like(y), angle)  # (x == 0 too: the zeros)
        angle = ndx.where(self.signbit(x), pi - angle, angle)
        result = ndx.where(ndx.isnan(x) | ndx.isnan(y), ndx.full_like(y, math.nan), angle)
        return result * sign_y

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
        x1, x2 = self._int_operands(function, x1, x2)
        divisor = x2 if type(x2) is Array else None
        if divisor is None or self.dtype_name(divisor.dtype) not in _INTEGERS:
            return op(x1, x2)
        zero = divisor == 0
        result = op(x1, self.select(zero, ndx.asarray(1, dtype=divisor.dtype), divisor))
        return self.select(zero, ndx.zeros_like(result), result)


def _plain_ints(obj: Any) -> bool:
    """Whether ``obj`` is a Python int or nested lists and tuples of them only."""
    if isinstance(obj, (list, tuple)):
        return all(_plain_ints(o) for o in obj)
    return type(obj) is int


def _has_complex(obj: Any) -> bool:
    if isinstance(obj, (list, tuple)):
        return any(_has_complex(o) for o in obj)
    return isinstance(obj, complex)


#: The integer dtype names.
_INTEGERS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})

#: The integer dtypes ONNX's ``MatMul`` does not take.
_NARROW_INTEGERS = frozenset({"int8", "int16", "uint8", "uint16"})
