"""Creation functions ndonnx gets wrong: ``asarray`` (other byte orders, complex values
refused, Python ints at the 64-bit bounds, strings and datetimes refused), ``arange``
near the 64-bit bounds, ``from_dlpack`` (ndonnx exports no DLPack)."""

from __future__ import annotations

from typing import Any

import ndonnx as ndx
import numpy as np

from ..._dtypes import INT_RANGE
from .._base.core import translated
from .._base.creation import check_dlpack, check_python_int, int_beyond, native_order
from ._core import Array, constant, holdable
from ._elementwise import NdonnxElementwise


class NdonnxCreation(NdonnxElementwise):
    """``asarray``, ``arange`` and ``from_dlpack`` on ndonnx."""

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
        plain = obj if isinstance(obj, np.ndarray) else _plain_numbers(obj)
        if plain is not None and copy is not False and holdable(plain) and \
                (target is None or target.unwrap_numpy() == plain.dtype):  # fmt: skip
            return constant(plain)  # (no Constant node and onnxruntime session: `constant`)
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
        start, stop, step = self._python_bounds(start, stop, step)
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
        return constant(values if step > 0 else values[::-1])

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
        return constant(host) if holdable(host) else ndx.asarray(np.array(host, copy=True))


def _plain_ints(obj: Any) -> bool:
    """Whether ``obj`` is a Python int or nested lists and tuples of them only."""
    if isinstance(obj, (list, tuple)):
        return all(_plain_ints(o) for o in obj)
    return type(obj) is int


def _plain_numbers(obj: Any) -> np.ndarray | None:
    """``obj`` as NumPy makes it where it is a Python bool, int (within int64) or float,
    or nested lists and tuples of them of one kind each level holds alike (NumPy's dtype
    is then the standard's default); else None (ndonnx decides)."""
    kinds: set[type] = set()

    def walk(item: Any) -> bool:
        if isinstance(item, (list, tuple)):
            return all(walk(i) for i in item)
        if type(item) in (bool, int, float):
            kinds.add(type(item))
            return type(item) is not int or -(2**63) <= item < 2**63
        return False

    if not walk(obj) or len(kinds) > 1 or (isinstance(obj, (list, tuple)) and not kinds):
        return None
    try:
        return np.asarray(obj)
    except ValueError:  # (ragged nesting: ndonnx's message)
        return None


def _has_complex(obj: Any) -> bool:
    if isinstance(obj, (list, tuple)):
        return any(_has_complex(o) for o in obj)
    return isinstance(obj, complex)


__all__ = ["NdonnxCreation"]
