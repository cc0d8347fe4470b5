"""ndonnx backend hooks: dtypes, devices, the error contract, values, indexing.

An ndonnx array is a node of an ONNX graph.  It is *eager* when ndonnx could compute
its value while building it (every input a constant: ndonnx runs each operator through
onnxruntime as it goes), *symbolic* when it depends on an ``ndx.argument``: then its
value exists only when the model runs, and a dimension that depends on values (a mask,
``nonzero``, ``unique_*``) is unknown (``None`` in ``.shape``).  Every hook here works on
both; the ones that need a value (``item``, NumPy exports) refuse a symbolic array with
the contract's `NotImplementedError` (docs/onnx.md).
"""

from __future__ import annotations

from typing import Any

import ndonnx as ndx
import numpy as np

from ..._devices import Device
from ..._dtypes import ALL, COMPLEX_FLOATING
from .._base import Backend
from .._base.core import raise_translated, truncates

Array = ndx.Array

#: Standard dtype name -> ndonnx dtype: the 11 real dtypes (ndonnx has no complex one).
NDONNX_DTYPES: dict[str, Any] = {
    n: getattr(ndx, n) for n in ALL if n not in COMPLEX_FLOATING
}  # fmt: skip
#: The standard's dtypes ONNX arrays cannot hold here.
ABSENT = frozenset(COMPLEX_FLOATING)
WHY_NO_COMPLEX = ("ndonnx has no complex dtype (ONNX's complex tensors have almost no "
                  "operators)")  # fmt: skip

#: What ndonnx says when a value is asked of a symbolic array.
_NO_VALUE = "no propagated value available"

SYMBOLIC_VALUE = ("the array is symbolic (it depends on an input of the model being "
                  "built): its value exists only when the model runs, so Python cannot "
                  "branch on it or convert it; use xp.where or return it")  # fmt: skip


class AbsentDtype:
    """A dtype of the standard that ndonnx cannot hold (``complex64``, ``complex128``):
    the namespace's name is this object, so code naming it imports; every function
    given it raises `NotImplementedError`, while ``isdtype``, ``can_cast`` and
    ``result_type`` answer as the standard says."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"eagerpy_xp.ndonnx.{self.name} (ndonnx cannot hold it)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (AbsentDtype, (self.name,))


def described(x: Any) -> str:
    """What ``x`` is, for a message: ``list``, ``numpy.ndarray``."""
    t = type(x)
    if t.__module__ == "builtins":
        return t.__qualname__
    return f"{t.__module__.partition('.')[0]}.{t.__qualname__}"


def is_symbolic(raw: Any) -> bool:
    """Whether the ndonnx array ``raw`` has no value yet (it depends on an argument)."""
    try:
        raw.unwrap_numpy()
    except ValueError as exc:
        if _NO_VALUE in str(exc):
            return True
        raise
    return False


class NdonnxCore(Backend):
    """Hooks and helpers shared by every ndonnx function."""

    name = "ndonnx"
    absent_dtypes = ABSENT
    _f = ndx
    native_types = (ndx.Array,)
    #: ``x[k] = v`` gives a new graph node; other references keep the old one.
    mutable = False
    writes_in_place = False

    def __init__(self) -> None:
        super().__init__()
        #: `eagerpy_xp.Array` once the assembly registers it (`register_wrapper`).
        self.wrapper_type: Any = None
        self._device = ndx.__array_namespace_info__().default_device()

    def register_wrapper(self, cls: type, wrap: Any) -> None:
        self.wrapper_type = cls

    # -- dtypes -------------------------------------------------------------------------------
    def native_dtype(self, name: str) -> Any:
        return NDONNX_DTYPES.get(name) or AbsentDtype(name)

    def any_dtype_members(self) -> list[Any]:
        """The standard's dtypes ndonnx holds (its float16, strings, datetimes and
        nullable dtypes are no dtypes of the standard: refused)."""
        return list(NDONNX_DTYPES.values())

    def supported_dtype_names(self) -> tuple[str, ...]:
        return tuple(NDONNX_DTYPES)

    def check_dtype(self, dtype: Any, function: str) -> Any:
        """``dtype`` as an ndonnx dtype: `TypeError` for anything but a dtype of the
        namespace, `NotImplementedError` for a complex one."""
        if dtype is None:
            return None
        result = super().check_dtype(dtype, function)
        self.check_holds(self.dtype_name(result), function)
        return result

    def check_holds(self, name: str, function: str) -> None:
        if name in ABSENT:
            raise self.error(function, f"{name}: {WHY_NO_COMPLEX}", NotImplementedError)

    def promote_names(self, a: str, b: str, function: str) -> str:
        result = super().promote_names(a, b, function)
        self.check_holds(result, function)
        return result

    def default_dtype_names(self) -> dict[str, str]:
        return {"real floating": "float64", "complex floating": "complex128",
                "integral": "int64", "indexing": "int64"}  # fmt: skip

    # -- the error contract ------------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is an ndonnx array or an `Array` of this backend
        (ndonnx's functions would also take NumPy arrays and scalars)."""
        if type(x) is Array:
            return
        if self.wrapper_type is not None and type(x) is self.wrapper_type and x._b is self:
            return
        if isinstance(x, complex):
            raise self.error(function, f"{WHY_NO_COMPLEX}: got the complex {x!r}",
                             NotImplementedError)  # fmt: skip
        raise self.error(function, f"expected an ndonnx array, got {described(x)}", TypeError)

    def translate(self, exc: Exception, function: str) -> Exception:
        """A value asked of a symbolic array is the contract's `NotImplementedError`."""
        if isinstance(exc, ValueError) and _NO_VALUE in str(exc):
            return self.error(function, SYMBOLIC_VALUE, NotImplementedError)
        return super().translate(exc, function)

    def error_kind(self, exc: Exception) -> type[Exception]:
        text = str(exc)
        if "not supported" in text.lower() or "unsupported" in text.lower() \
                or "no implementation" in text.lower():  # fmt: skip
            return TypeError if "dtype" in text.lower() or "type" in text.lower() \
                else NotImplementedError  # fmt: skip
        if isinstance(exc, IndexError):
            return IndexError
        return super().error_kind(exc)

    # -- devices ------------------------------------------------------------------------------
    def as_device(self, device: Any, function: str = "device") -> Device:
        if device is self._device or type(device) is type(self._device):
            return Device("cpu")
        try:
            return super().as_device(device, function)
        except ValueError as exc:
            raise self.error(function, f"unknown device {device!r}: {exc}") from None

    def native_device(self, device: Any, function: str = "device") -> Any:
        ours = self.as_device(device, function)
        if ours != Device("cpu"):
            raise self.error(function, f"device {device!r} is not available; ndonnx arrays "
                             "live on the cpu (a model runs where onnxruntime puts it)")  # fmt: skip
        return self._device

    def info_device(self, device: Device, native: bool) -> Any:
        """`Device("cpu")` in both flavours (its repr is short, and the test plugin and
        the suite read devices by their string): ndonnx's own device object has neither a
        name nor an equality, so a native array's ``.device`` is not among them; every
        ``device=`` argument takes ndonnx's object too (`as_device`)."""
        return device

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        if stream is not None:
            raise self.error("Array.to_device", f"streams are not supported, got "
                             f"stream={stream!r}")  # fmt: skip
        self.native_device(device, "Array.to_device")
        return raw

    # -- values, display, host copies ----------------------------------------------------------
    def shape_of(self, raw: Any) -> tuple[int | None, ...]:
        return tuple(raw.shape)

    def values(self, raw: Any, function: str) -> np.ndarray:
        """``raw``'s value as a NumPy array; the contract's `NotImplementedError` for a
        symbolic array (`SYMBOLIC_VALUE`)."""
        try:
            return raw.unwrap_numpy()  # type: ignore[no-any-return]
        except ValueError as exc:
            if _NO_VALUE in str(exc):
                raise self.error(function, SYMBOLIC_VALUE, NotImplementedError) from exc
            raise

    def item(self, raw: Any) -> bool | int | float | complex:
        value = self.values(raw, "Array.item")
        if value.size != 1:
            raise self.error("Array.item", f"only an array of one element has a Python "
                             f"value, got shape {tuple(raw.shape)}")  # fmt: skip
        return value.item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        return np.asarray(self.values(raw, "__array__"), dtype=dtype)

    def format_values(self, raw: Any) -> str:
        try:
            return np.array2string(raw.unwrap_numpy(), separator=", ")
        except ValueError:
            return f"<symbolic, shape {tuple(raw.shape)}>"

    def dlpack(
        self, raw: Any, *, stream: Any = None, max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None, copy: bool | None = None,
    ) -> Any:  # fmt: skip
        host = self.values(raw, "Array.__dlpack__")
        return host.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                               copy=copy)  # fmt: skip

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return (1, 0)

    # -- indexing and mutation -----------------------------------------------------------------
    def index_case(self) -> tuple[Any, ...] | None:
        return None

    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]``: ints, slices, None, the ellipsis, boolean arrays (a mask of a
        symbolic array gives an unknown dimension) and one integer array (a ``Gather``;
        ndonnx takes none).  A key with fewer entries than dimensions indexes the leading
        ones (ndonnx requires an ellipsis)."""
        key = self._full_key(self._key(key), raw, "__getitem__")
        try:
            items = key if isinstance(key, tuple) else (key,)
            arrays = [i for i, k in enumerate(items) if type(k) is Array
                      and k.dtype != ndx.bool]  # fmt: skip
            if arrays:
                return self._take_array(raw, items, arrays)
            return raw[key]
        except Exception as exc:
            raise_translated(self, _indexing_error(exc, key), "__getitem__")

    def _full_key(self, key: Any, raw: Any, function: str) -> Any:
        """``key`` with an ellipsis added (a tuple then) where it indexes fewer dimensions
        than ``raw`` has and names none; else ``key`` itself (ndonnx reads a boolean
        array alone, not in a tuple)."""
        items = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in items):
            return key
        used = sum(1 if type(k) is not Array or k.dtype != ndx.bool else len(k.shape)
                   for k in items if k is not None and not isinstance(k, bool))  # fmt: skip
        if used < len(raw.shape):
            return (*items, Ellipsis)
        return key

    def _take_array(self, raw: Any, key: tuple[Any, ...], arrays: list[int]) -> Any:
        """``raw[key]`` where one component of ``key`` is an integer array: the rest of the
        key first (the array's place a full slice), then a ``Gather`` along the axis it
        indexes, its negative entries counted from the end; the array's dimensions take
        that axis's place, as NumPy's."""
        if len(arrays) > 1:
            raise self.error("__getitem__", f"a key with {len(arrays)} integer arrays: the "
                             "ndonnx backend takes one (a Gather); index one axis at a time",
                             NotImplementedError)  # fmt: skip
        if any(type(k) is Array for i, k in enumerate(key) if i != arrays[0]):
            raise self.error("__getitem__", "an integer array beside a boolean array: index "
                             "one at a time", NotImplementedError)  # fmt: skip
        position = arrays[0]
        index = key[position]
        if Ellipsis in key:
            at = key.index(Ellipsis)
            explicit = sum(1 for k in key if k is not None and k is not Ellipsis)
            key = (*key[:at], *(slice(None),) * (len(raw.shape) - explicit), *key[at + 1:])
            position = next(i for i, k in enumerate(key) if k is index)
        basic = tuple(slice(None) if i == position else k for i, k in enumerate(key))
        taken = raw[basic]
        axis = sum(1 for k in key[:position] if k is None or isinstance(k, slice))
        size = taken.shape[axis]
        if size is None:
            size_array = ndx.astype(taken.dynamic_shape[axis], index.dtype)
        else:
            size_array = ndx.asarray(size, dtype=index.dtype)
        if self.dtype_name(index.dtype).startswith("int"):
            index = ndx.where(index < 0, index + size_array, index)
        flat = ndx.reshape(ndx.astype(index, ndx.int64), (-1,))
        gathered = ndx.take(taken, flat, axis=axis)
        shape = tuple(-1 if d is None else d for d in
                      (*taken.shape[:axis], *index.shape, *taken.shape[axis + 1:]))  # fmt: skip
        if shape.count(-1) > 1:
            return gathered if len(index.shape) == 1 else ndx.reshape(
                gathered, ndx.concat([taken.dynamic_shape[:axis], index.dynamic_shape,
                                      taken.dynamic_shape[axis + 1:]]))  # fmt: skip
        return ndx.reshape(gathered, shape)

    def _key(self, key: Any) -> Any:
        """NumPy arrays and lists in ``key`` as ndonnx arrays; `Array`s as their raw."""
        items = key if isinstance(key, tuple) else (key,)
        out = []
        changed = False
        for k in items:
            if isinstance(k, (np.ndarray, list)):
                k = ndx.asarray(np.asarray(k))
                changed = True
            elif isinstance(k, np.integer):
                k = int(k)
                changed = True
            elif isinstance(k, np.bool_):
                k = bool(k)
                changed = True
            elif self.wrapper_type is not None and type(k) is self.wrapper_type:
                k = k.raw
                changed = True
            out.append(k)
        if not changed:
            return key
        return tuple(out) if isinstance(key, tuple) else out[0]

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """A new array: ``raw`` with ``value`` written at ``key`` (``raw`` itself, which
        other references hold, keeps its node)."""
        value = self.check_setitem_value(raw, value)
        if type(value) is Array and value.dtype != raw.dtype:
            value = value.astype(raw.dtype)
        key = self._full_key(self._key(key), raw, "__setitem__")
        result = raw.copy()
        try:
            result[key] = value
        except Exception as exc:
            raise_translated(self, _indexing_error(exc, key), "__setitem__")
        return result

    def check_setitem_value(self, raw: Any, value: Any) -> Any:
        if self.wrapper_type is not None and type(value) is self.wrapper_type:
            value = value.raw
        if isinstance(value, complex):
            raise self.error("__setitem__", f"cannot store a Python complex in an array of "
                             f"dtype {self.dtype_name(raw.dtype)}", TypeError)  # fmt: skip
        return super().check_setitem_value(raw, value)

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        return super().assign(raw, result, function)


def _indexing_error(exc: Exception, key: Any) -> Exception:
    """An indexing failure of ndonnx as an `IndexError` naming the key (ndonnx raises
    `IndexError`, `ValueError` or `TypeError` for bad keys)."""
    if str(exc).startswith("eagerpy_xp."):
        return exc
    if isinstance(exc, ValueError) and _NO_VALUE in str(exc):
        return exc
    new = IndexError(f"index {key!r:.80}: {str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}")
    new.__cause__ = exc
    return new


__all__ = ["ABSENT", "NDONNX_DTYPES", "AbsentDtype", "NdonnxCore", "described", "is_symbolic",
           "truncates"]  # fmt: skip
