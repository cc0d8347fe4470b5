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

from collections.abc import Callable
from typing import Any

import ndonnx as ndx
import numpy as np
from spox._future import initializer as _initializer

from ..._devices import Device, register_unnamed_device
from ..._dtypes import ALL, COMPLEX_FLOATING
from .._base import Backend
from .._base.arguments import recheck
from .._base.core import truncates

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


#: The NumPy dtypes of the standard's real dtypes (what a constant may hold).
_NUMPY_HELD = frozenset(np.dtype(n) for n in ALL if n not in COMPLEX_FLOATING)


def constant(value: Any, dtype: Any = None) -> Any:
    """``value`` (a NumPy array or a Python scalar, in ``dtype`` where given: a NumPy
    dtype) as an eager ndonnx array, held as an initializer of the graph (a copy).

    ``ndx.asarray`` of a NumPy array makes an ONNX ``Constant`` node, whose value ndonnx
    then propagates by building and running a one-node onnxruntime session (some 2 to 4
    ms); an initializer carries its value itself (some 0.2 ms), and a model holds it the
    same way."""
    return ndx.asarray(_initializer(np.array(value, dtype=dtype, copy=True)))


def constant_var(value: Any, dtype: Any = None) -> Any:
    """`constant` as a spox variable, for code that builds ONNX operators directly."""
    return _initializer(np.array(value, dtype=dtype, copy=True))


def holdable(a: np.ndarray) -> bool:
    """Whether the NumPy array ``a`` has a dtype of the standard ndonnx holds."""
    return a.dtype in _NUMPY_HELD


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


#: How many fused models (`NdonnxCore.fuse`) a backend keeps.
_SESSIONS = 256


def _fused_session(build: Callable[..., Any], arrays: tuple[Any, ...]) -> tuple[Any, bool]:
    """The onnxruntime session of ``build`` traced on symbolic arrays like ``arrays``
    (optimisations off, as ndonnx's value propagation runs them), and whether it has one
    output."""
    import onnxruntime as ort

    arguments = {f"a{i}": ndx.argument(shape=tuple(a.shape), dtype=a.dtype)
                 for i, a in enumerate(arrays)}  # fmt: skip
    results = build(*arguments.values())
    single = not isinstance(results, tuple)
    outputs = {f"o{i}": r for i, r in enumerate((results,) if single else results)}
    model = ndx.build(arguments, outputs)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), options), single


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
        #: `fuse`'s onnxruntime sessions, the most recently used last.
        self._sessions: dict[Any, Any] = {}
        self._device = ndx.__array_namespace_info__().default_device()
        # (ndonnx's device object has no name and no equality: x.device == Device("cpu"))
        register_unnamed_device(type(self._device), Device("cpu"))

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

    def explain(self, function: str, arguments: dict[str, Any]) -> Exception | None:
        """After an ndonnx or ONNX error (an ONNX shape inference message names no
        argument: "axis must be in [-rank, rank-1]"), the argument at fault
        (`arguments.recheck`)."""
        return recheck(self, function, arguments)

    def error_kind(self, exc: Exception) -> type[Exception]:
        text = str(exc)
        if "unable to infer dtype" in text:  # (asarray of an object that is no number)
            return TypeError
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

    def computed(self, result: Any, function: str, *inputs: Any) -> Any:
        """``result`` of ``function``, whose ``inputs`` (arrays, Python scalars) all have
        values: ndonnx computes an eager result with onnxruntime and, when onnxruntime
        fails (an index out of bounds, an output too large to allocate), leaves it without
        a value instead of raising.  Such a result raises `MemoryError` here; a result of a
        symbolic input is returned as it is (its model fails when it runs)."""
        if type(result) is not Array or not is_symbolic(result):
            return result
        if any(type(x) is Array and is_symbolic(x) for x in inputs):
            return result
        raise self.error(function, f"onnxruntime could not compute the result (shape "
                         f"{tuple(result.shape)}, {self.dtype_name(result.dtype)}): an output "
                         "too large to allocate", MemoryError)  # fmt: skip

    def fuse(self, function: str, build: Callable[..., Any], *arrays: Any) -> Any:
        """``build(*arrays)`` (ndonnx arrays in, an array or a tuple of them out), run as
        one onnxruntime model where every array is eager.

        ndonnx computes an eager array node by node, building and running a one-node
        session for each (about 1 ms apiece): a composition of dozens of operators (the
        Gauss-Jordan elimination of ``det``, ``inv``, ``solve``) costs dozens of
        milliseconds.  Here ``build`` is traced once on symbolic arrays of the inputs'
        shapes and dtypes, the model's session is kept (by ``function``, shapes and
        dtypes; the last `_SESSIONS` of them) and run on the inputs' values, which gives
        the same operators' results; the outputs are constants.  Symbolic inputs: the
        graph of ``build`` itself."""
        if any(is_symbolic(a) for a in arrays):
            return build(*arrays)
        key = (function, *((tuple(a.shape), a.dtype) for a in arrays))
        entry = self._sessions.pop(key, None)
        if entry is None:
            entry = _fused_session(build, arrays)
        self._sessions[key] = entry  # (the most recent last)
        while len(self._sessions) > _SESSIONS:
            self._sessions.pop(next(iter(self._sessions)))
        session, single = entry
        values = session.run(None, {f"a{i}": a.unwrap_numpy() for i, a in enumerate(arrays)})
        results = tuple(constant(v) for v in values)
        return results[0] if single else results

    def check_indices(self, index: Any, size: int | None, axis: int, function: str) -> None:
        """Integer ``index`` (an ndonnx array) within ``[-size, size)`` where both are
        known (a symbolic index is checked by onnxruntime when the model runs):
        `IndexError` naming the first one outside."""
        if size is None or is_symbolic(index):
            return
        values = np.asarray(index.unwrap_numpy())
        outside = values[(values < -size) | (values >= size)]
        if outside.size:
            raise self.error(function, f"index {int(outside.flat[0])} is out of bounds for axis "
                             f"{axis} of size {size}", IndexError)  # fmt: skip

    def scalar_like(self, value: Any, like: Any) -> Any:
        """A Python scalar ``value`` as a 0-d array of ``like``'s dtype, made by NumPy
        (ndonnx turns a Python int beyond int64, such as ``2**64 - 1`` beside a uint64
        array, into a wrong constant); an out-of-range int is the contract's
        `OverflowError` (the caller's `int_beyond_dtype`)."""
        if type(value) is Array or not isinstance(value, (bool, int, float)):
            return value
        return constant(value, like.dtype.unwrap_numpy())

    def select(self, condition: Any, x1: Any, x2: Any) -> Any:
        """``ndx.where(condition, x1, x2)``, exact for uint64 too: ndonnx runs a uint64
        ``Where`` in float64 (onnxruntime has no uint64 kernel), which rounds values
        beyond 2**53; here both operands (arrays or Python ints) go through int64, whose
        casts keep the bits."""
        dtypes = {a.dtype for a in (x1, x2) if type(a) is Array}
        if dtypes != {ndx.uint64}:
            return ndx.where(condition, x1, x2)
        a, b = (ndx.astype(self.scalar_like(v, ref), ndx.int64)
                for v, ref in ((x1, x2), (x2, x1)))  # fmt: skip
        return ndx.astype(ndx.where(condition, a, b), ndx.uint64)

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

    # -- indexing and mutation (the key handling: `_indexing`) ------------------------------
    def index_case(self) -> tuple[Any, ...] | None:
        return None

    def check_setitem_value(self, raw: Any, value: Any) -> Any:
        if self.wrapper_type is not None and type(value) is self.wrapper_type:
            value = value.raw
        if isinstance(value, complex):
            raise self.error("__setitem__", f"cannot store a Python complex in an array of "
                             f"dtype {self.dtype_name(raw.dtype)}", TypeError)  # fmt: skip
        return super().check_setitem_value(raw, value)

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        return super().assign(raw, result, function)


__all__ = ["ABSENT", "NDONNX_DTYPES", "AbsentDtype", "NdonnxCore", "constant", "constant_var",
           "described", "holdable", "is_symbolic", "truncates"]  # fmt: skip
