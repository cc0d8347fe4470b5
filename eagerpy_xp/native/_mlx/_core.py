"""MLX backend hooks: dtypes, devices, the error contract, promotion, DLPack.

MLX arrays are lazy: a function builds a graph node and computes nothing until the
array is evaluated (``mx.eval``, ``.item()``, ``numpy.asarray``).  The hooks here keep it
that way; the few that must look at values (`MLXCore.host_values`) say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import mlx.core as mx

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import ALL, BITS, COMPLEX_OF_REAL, kind_of, scalar_kind_ok
from .._base import Backend
from .._base.core import AxisError

if TYPE_CHECKING:
    import numpy as np

Array = mx.array

#: By device (its repr, "Device(cpu, 0)"), the one stream a wrapped `Array`'s writes are
#: built on (`MLXCore.run_write`).
_WRITE_STREAMS: dict[str, Any] = {}


def _canonical(np: Any, host: Any) -> Any:
    """``host`` viewed in NumPy's own dtype of the same name (`MLXCore.to_numpy`)."""
    own = np.dtype(host.dtype.name)
    return host if host.dtype.num == own.num else host.view(own)


class AbsentDtype:
    """A dtype of the standard that MLX cannot hold (``complex128``): the namespace's
    ``complex128`` is this object, so code that names it still imports; every function
    given it raises `NotImplementedError`, while the pure dtype functions (``isdtype``,
    ``can_cast``, ``result_type``, ``finfo``) answer as the standard says."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"eagerpy_xp.mlx.{self.name} (MLX cannot hold it)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (AbsentDtype, (self.name,))


class WrappedDtype(mx.Dtype):
    """A dtype of the wrapped flavour (``eagerpy_xp.mlx.float32``, an `Array`'s ``dtype``):
    MLX's own dtype objects raise `TypeError` on ``== None`` (so ``dtype in (None, d)``
    raises too), which the standard's dtypes never do.  This one answers every ``==``:
    equal to itself and to MLX's dtype of the same name (either way round: it is a
    subclass, so Python asks it first), unequal to anything else; it hashes as MLX's,
    so mappings keyed by either find it.  It holds no MLX value: the wrapped flavour
    gives the MLX dtype (`native`) to MLX; handed to ``mlx.core`` directly it is
    refused (pass ``.native``)."""

    __slots__ = ("name", "native", "_hash")
    name: str  #: the standard's name
    native: Any  #: MLX's dtype object
    _hash: int

    def __new__(cls, name: str, native: Any) -> WrappedDtype:
        self = mx.Dtype.__new__(cls)  # (no MLX value: every MLX method is replaced here)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "native", native)
        object.__setattr__(self, "_hash", hash(native))
        return self

    def __init__(self, name: str, native: Any) -> None:  # (MLX's __init__ refuses)
        pass

    def __eq__(self, other: object) -> bool:
        return other is self or (type(other) is mx.Dtype and mx.Dtype.__eq__(other, self.native))

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    @property
    def size(self) -> int:
        """The size of one element in bytes (MLX's ``Dtype.size``)."""
        return int(self.native.size)

    def __repr__(self) -> str:
        return f"eagerpy_xp.mlx.{self.name}"

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        return (wrapped_dtype, (self.name,))

    def __copy__(self) -> WrappedDtype:
        return self

    def __deepcopy__(self, memo: Any) -> WrappedDtype:
        return self


def wrapped_dtype(name: str) -> WrappedDtype:
    """The wrapped flavour's dtype ``name`` (unpickling finds the one object)."""
    import importlib

    backend: Any = importlib.import_module("eagerpy_xp.native._mlx._backend").BACKEND
    return backend.wrapped_dtypes_by_name[name]  # type: ignore[no-any-return]


#: Standard dtype name -> MLX dtype (``bool`` is ``mlx.core.bool_``).
_MLX_DTYPES: dict[str, Any] = {
    n: getattr(mx, "bool_" if n == "bool" else n) for n in ALL if n != "complex128"
}
#: The standard dtypes MLX lacks everywhere, and those it lacks on its GPU.
ABSENT = frozenset({"complex128"})
ABSENT_ON_GPU = frozenset({"complex128", "float64"})
#: How each dtype is called when MLX cannot hold it, for messages.
_WHY = {"complex128": "MLX has no complex128 (its one complex dtype is complex64)",
        "float64": "MLX computes float64 on the CPU only (set mx.set_default_device(mx.cpu) "
                   "or pass device='cpu')"}  # fmt: skip

#: MLX device type -> `Device` kind of its GPU: Metal on Apple silicon, CUDA elsewhere.
_INT32_MAX = 2**31 - 1
#: What MLX says when an array cannot be evaluated because ``mx.compile`` or ``mx.vmap``
#: is tracing it ("[eval] Attempting to eval an array during function transformations
#: like compile or vmap is not allowed").
_TRACING_WORDS = "during function transformations"


def gpu_kind() -> str:
    """The `Device` kind of MLX's GPU: ``mps`` (Metal) on Apple silicon, else ``cuda``."""
    metal = getattr(mx, "metal", None)
    if metal is not None and metal.is_available():
        return "mps"
    return "cuda"


def described(x: Any) -> str:
    """What ``x`` is, for a message: ``list``, ``NoneType``, ``numpy.ndarray``."""
    t = type(x)
    if t.__module__ == "builtins":
        return t.__qualname__
    return f"{t.__module__.partition('.')[0]}.{t.__qualname__}"


class MLXCore(Backend):
    """Hooks and helpers shared by every MLX function."""

    name = "mlx"
    absent_dtypes = ABSENT
    _f = mx
    native_types = (mx.array,)
    #: ``raw[k] = v`` replaces the array's graph node: arrays that share its memory do
    #: not see it, and two threads writing one array race (`run_write`).
    writes_in_place = False

    def __init__(self) -> None:
        super().__init__()
        #: dtype -> kind name, and integer dtype -> (min, max): hot-path lookups
        self._kinds: dict[Any, str] = {d: kind_of(n) for n, d in _MLX_DTYPES.items()}
        self._ranges: dict[Any, tuple[int, int]] = {
            d: (-(2 ** (BITS[n] - 1)), 2 ** (BITS[n] - 1) - 1) if n[0] == "i" else (0, 2 ** BITS[n] - 1)
            for n, d in _MLX_DTYPES.items() if n.startswith(("int", "uint"))
        }  # fmt: skip
        #: The wrapped flavour's dtypes (`WrappedDtype`), by MLX dtype and by name.
        self.wrapped_dtypes: dict[Any, Any] | None = {
            d: WrappedDtype(n, d) for n, d in _MLX_DTYPES.items()}  # fmt: skip
        self.wrapped_dtypes_by_name = {w.name: w for w in self.wrapped_dtypes.values()}
        #: `eagerpy_xp.Array` once the assembly registers it (`register_wrapper`).
        self.wrapper_type: Any = None
        self.wrap: Any = None

    # -- dtypes -----------------------------------------------------------------------------
    def native_dtype(self, name: str) -> Any:
        return _MLX_DTYPES.get(name) or AbsentDtype(name)

    def any_dtype_members(self) -> list[Any]:
        """The standard's dtypes that MLX holds: float16, bfloat16 (MLX's own) are not
        dtypes of the standard and are refused like any other foreign dtype."""
        return list(_MLX_DTYPES.values())

    def supported_dtype_names(self, device: Any = None) -> tuple[str, ...]:
        """Every dtype of the standard but complex128; float64 on the CPU only."""
        absent = ABSENT if self._on_cpu(device, "dtypes") else ABSENT_ON_GPU
        return tuple(n for n in ALL if n not in absent)

    def _on_cpu(self, device: Any, function: str) -> bool:
        """Whether MLX computes on the CPU for ``device`` (None: the default device)."""
        place = mx.default_device() if device is None else self.native_device(device, function)
        return bool(place.type == mx.DeviceType.cpu)

    def default_dtype_names(self) -> dict[str, str]:
        """float32 and complex64 (MLX's own, and what its GPU holds); int64 for integers
        and indices, as torch (MLX's own int32 would make ``sum`` of int64 data narrow)."""
        return {"real floating": "float32", "complex floating": "complex64",
                "integral": "int64", "indexing": "int64"}  # fmt: skip

    def _default(self, kind: str) -> Any:
        return self.dtypes_by_name[self.default_dtype_names()[kind]]

    def check_dtype(self, dtype: Any, function: str, device: Any = None) -> Any:
        """``dtype`` as an MLX dtype: `TypeError` for anything but a dtype of the namespace,
        `NotImplementedError` for one MLX cannot hold (on ``device``)."""
        if dtype is None:
            return None
        result = super().check_dtype(dtype, function)
        self.check_holds(self.dtype_name(result), function, device)
        return result

    def check_holds(self, name: str, function: str, device: Any = None) -> None:
        """`NotImplementedError` when MLX cannot hold dtype ``name`` on ``device``."""
        if name in ABSENT or (name in ABSENT_ON_GPU and not self._on_cpu(device, function)):
            raise self.error(function, _WHY[name], NotImplementedError)

    def promote_names(self, a: str, b: str, function: str) -> str:
        """The standard's promotion; a result MLX cannot hold (float64 with complex64 is
        complex128) is a `NotImplementedError`, never a narrower dtype."""
        result = super().promote_names(a, b, function)
        self.check_holds(result, function)
        return result

    def _name(self, x: Any) -> str:
        return self.dtype_name(x.dtype)

    def _kind(self, x: Any) -> str:
        return self._kinds[x.dtype]

    # -- the error contract -----------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is an MLX array or an `Array` of this backend: MLX's
        functions would also take NumPy arrays, lists and scalars."""
        if type(x) is mx.array:
            return
        if self.wrapper_type is not None and type(x) is self.wrapper_type and x._b is self:
            return
        raise self.error(function, f"expected an MLX array, got {described(x)}", TypeError)

    def error_kind(self, exc: Exception) -> type[Exception]:
        """MLX raises `ValueError` for shapes and arguments, `IndexError` for axes,
        `RuntimeError` for kernels that fail (``[bitwise_and] Only allowed on integer``:
        a dtype), `OverflowError` for sizes beyond its int32 extents."""
        text = str(exc)
        if "incompatible function arguments" in text or "Only allowed on" in text \
                or "Not supported for" in text or "not supported for" in text:  # fmt: skip
            return TypeError
        if isinstance(exc, IndexError) and "axis" in text.lower():
            return AxisError
        if isinstance(exc, OverflowError) and "supported range" in text:
            return ValueError  # a size beyond MLX's int32 extents
        if "Out of memory" in text or "allocate" in text:
            return MemoryError
        return super().error_kind(exc)

    def promoted_operands(self, function: str, x1: Any, x2: Any) -> tuple[Any, Any]:
        """Both operands as MLX arrays of the standard's promoted dtype: arrays of this
        backend (an `Array` too) or Python scalars, at least one an array."""
        s1, s2 = type(x1) in SCALAR_TYPES, type(x2) in SCALAR_TYPES
        if s1 or s2:
            if s1 and s2:
                raise self.error(function, f"expected at least one array, got "
                                 f"{described(x1)} and {described(x2)}", TypeError)  # fmt: skip
            array, scalar = (self._raw(x2, function), x1) if s1 else (self._raw(x1, function), x2)
            dtype = self._scalar_dtype(array.dtype, scalar, function)
            if array.dtype != dtype:
                array = array.astype(dtype)
            other = self.scalar_array(scalar, dtype, function)
            return (other, array) if s1 else (array, other)
        x1, x2 = self._raw(x1, function), self._raw(x2, function)
        if x1.dtype == x2.dtype:
            return x1, x2
        dtype = self.dtypes_by_name[self.promote_names(self._name(x1), self._name(x2), function)]
        return (x1 if x1.dtype == dtype else x1.astype(dtype),
                x2 if x2.dtype == dtype else x2.astype(dtype))

    def _raw(self, x: Any, function: str) -> Any:
        """``x`` as an MLX array (`check_array`'s rules; an `Array` gives its ``.raw``)."""
        if type(x) is mx.array:
            return x
        self.check_array(x, function)
        return x.raw

    def _scalar_dtype(self, array_dtype: Any, scalar: Any, function: str) -> Any:
        """The dtype of ``array <op> scalar``: the array's, unless the scalar's kind is
        higher (the default dtype of that kind; complex with a float64 array is complex128,
        which MLX lacks)."""
        name = self.dtype_name(array_dtype)
        if scalar_kind_ok(name, scalar) or type(scalar) is bool:
            return array_dtype
        if type(scalar) is int:  # an int with a bool array
            return self._default("integral")
        if type(scalar) is float:
            return self._default("real floating")
        if kind_of(name) == "real floating":  # a complex scalar with a real array
            complex_name = COMPLEX_OF_REAL[name]
            self.check_holds(complex_name, function)
            return self.dtypes_by_name[complex_name]
        return self._default("complex floating")

    def scalar_array(self, value: Any, dtype: Any, function: str) -> Any:
        """A 0-d array of ``dtype`` holding the Python scalar ``value``; an int outside an
        integer dtype's range is an `OverflowError` (MLX's own message would not say which
        function)."""
        limits = self._ranges.get(dtype)
        if limits is not None:
            if not limits[0] <= value <= limits[1]:
                raise self.error(function, f"the Python scalar {value!r} does not fit "
                                 f"{self.dtype_name(dtype)}", OverflowError)  # fmt: skip
            if value > _INT64_MAX:  # MLX reads Python ints as int64
                import numpy as np

                return mx.array(np.array(value, dtype=np.uint64))
        return mx.array(value, dtype=dtype)

    # -- values: the only places that evaluate ------------------------------------------------
    def host_values(self, x: Any, function: str,
                    why: str = "the result's shape depends on the array's values") -> np.ndarray:
        """``x``'s values as a NumPy array, for ``function``, which needs them (a
        data-dependent shape: ``nonzero``, ``unique_*``, a boolean mask, ``repeat`` with an
        array of counts); this evaluates ``x``, and only ``x``.  While ``mx.compile`` or
        ``mx.vmap`` traces ``x`` (its graph starts at their placeholders) there are no
        values: the contract's `NotImplementedError` saying ``why``.

        MLX tells a traced array from a lazy one nowhere but in ``mx.eval``: an array is
        a tracer when its graph reaches a placeholder of a transformation (no primitive,
        no data), which only the evaluator's walk of the graph looks at; it refuses
        before it computes anything.  So asking is evaluating, which is why only the
        functions that need the values anyway ask (`traced_refusal` reads the answer).
        Arrays made inside a transformation from constants have values and are read."""
        import numpy as np

        try:
            return np.asarray(x)
        except ValueError as exc:
            if not traced_refusal(exc):
                raise
            raise self.error(function, _under_transform(why), NotImplementedError) from exc

    def translate(self, exc: Exception, function: str) -> Exception:
        """MLX's refusal to evaluate a traced array (`traced_refusal`) is the contract's
        `NotImplementedError`: the transformation cannot do it, whatever the arguments."""
        if traced_refusal(exc):
            return self.error(function, _under_transform("it needs the array's values"),
                              NotImplementedError)  # fmt: skip
        return super().translate(exc, function)

    # -- devices ----------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        found = [Device("cpu")]
        if mx.is_available(mx.gpu):
            found.append(Device(gpu_kind()))
        return found

    def default_device(self) -> Device:
        return self._as_our_device(mx.default_device())

    def _as_our_device(self, device: Any) -> Device:
        return Device("cpu") if device.type == mx.DeviceType.cpu else Device(gpu_kind(),
                                                                              device.index)

    def device_of(self, raw: Any) -> Device:
        """MLX arrays live in unified memory and belong to no device: an array reports the
        device MLX computes on by default (docs/mlx.md)."""
        return self._as_our_device(mx.default_device())

    def as_device(self, device: Any, function: str = "device") -> Device:
        if isinstance(device, mx.Device):
            return self._as_our_device(device)
        if isinstance(device, mx.DeviceType):
            return self._as_our_device(mx.Device(device))
        if isinstance(device, str) and device.strip().lower().partition(":")[0] == "gpu":
            device = gpu_kind() + device.strip()[3:]  # MLX's own name for its GPU
        try:
            return super().as_device(device, function)
        except ValueError as exc:
            raise self.error(function, f"unknown device {device!r}: {exc}") from None

    def native_device(self, device: Any, function: str = "device") -> Any:
        """The ``mlx.core.Device`` for a `Device`, a device string (``"gpu"`` is MLX's
        GPU) or an MLX device; `ValueError` for one MLX does not have here."""
        ours = self.as_device(device, function)
        if ours not in self.devices():
            raise self.error(function, f"device {device!r} is not available; available: "
                             f"{', '.join(str(d) for d in self.devices())}")  # fmt: skip
        return mx.Device(mx.cpu) if ours.kind == "cpu" else mx.Device(mx.gpu, ours.index)

    def info_device(self, device: Device, native: bool) -> Any:
        return device

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        """The array itself: MLX's memory is shared by its CPU and GPU, so nothing moves
        (the device is checked, and a dtype it cannot compute refused)."""
        if stream is not None:
            raise self.error("Array.to_device", f"streams are not supported, got "
                             f"stream={stream!r}")  # fmt: skip
        place = self.native_device(device, "Array.to_device")
        if raw.dtype in self._kinds:
            self.check_holds(self._name(raw), "Array.to_device", place)
        return raw

    def _stream(self, device: Any, function: str) -> dict[str, Any]:
        """``stream=`` for an MLX creation function placing its work on ``device``."""
        if device is None:
            return {}
        return {"stream": self.native_device(device, function)}

    # -- scalars, display, host copies ------------------------------------------------------
    def item(self, raw: Any) -> bool | int | float | complex:
        """Evaluates ``raw`` (a Python value must be handed back)."""
        try:
            return raw.item()  # type: ignore[no-any-return]
        except RuntimeError as exc:
            raise self._unreadable(exc, "Array.item") from exc

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        """Evaluates ``raw`` into a NumPy array: a copy (MLX's memory belongs to its
        graph), but with ``copy=False``, NumPy's "never copy", MLX's memory itself (or
        NumPy's `ValueError` where the dtype asked for needs a copy).

        The array's dtype is NumPy's own for its name: MLX's buffer says int64 and uint64
        as C's ``long long`` (``q``, ``Q``), which NumPy reads as dtypes equal to int64
        and uint64 but of other type numbers than its own (``l``, ``L`` on Linux), and
        compiled code that dispatches on the type number refuses them or reads nothing
        (SciPy's ``ndimage.rank_filter``: "Unsupported array type"; ``value_indices``
        found no values).  A view in the canonical dtype costs nothing."""
        import numpy as np

        if copy is False:
            try:
                return _canonical(np, np.asarray(raw, dtype=dtype, copy=False))
            except ValueError as exc:
                raise self.error("__array__", f"converting {self._name(raw)} to {dtype} "
                                 "needs a copy, which copy=False refuses") from exc  # fmt: skip
        try:
            host = np.array(raw)
        except RuntimeError as exc:
            raise self._unreadable(exc, "Array.__array__") from exc
        return _canonical(np, np.asarray(host, dtype=dtype))

    def _unreadable(self, exc: RuntimeError, function: str) -> Exception:
        """MLX's bare ``RuntimeError: There is no Stream(cpu, N) in current thread`` (a lazy
        graph built in another thread, evaluated in this one) as the contract's error,
        saying what to do; any other `RuntimeError` of an evaluation as it is."""
        if "in current thread" not in str(exc):
            return exc
        return self.error(function, "the array is a lazy MLX graph built in another thread, "
                          "and MLX evaluates a graph only in the thread whose stream built it: "
                          "evaluate it there (mx.eval, or any read) before another thread "
                          f"reads it (docs/mlx.md, Threads); MLX: {exc}", RuntimeError)  # fmt: skip

    def format_values(self, raw: Any) -> str:
        import numpy as np

        return np.array2string(self.to_numpy(raw), separator=", ")

    def dlpack(
        self, raw: Any, *, stream: Any = None, max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None, copy: bool | None = None,
    ) -> Any:  # fmt: skip
        """Evaluates ``raw`` and exports its memory (the CPU's: DLPack device 1).  MLX's
        own ``__dlpack__`` takes no arguments, so the standard's are checked here: only
        the CPU as ``dl_device``, no ``stream``, ``copy=True`` through a NumPy copy."""
        import numpy as np

        if stream is not None:
            raise BufferError(f"eagerpy_xp.mlx.Array.__dlpack__: stream must be None for MLX "
                              f"arrays, got {stream!r}")  # fmt: skip
        if dl_device is not None and (int(dl_device[0]), dl_device[1]) != (1, 0):
            raise BufferError(f"eagerpy_xp.mlx.Array.__dlpack__: cannot export to DLPack "
                              f"device {dl_device}; MLX exports CPU memory")  # fmt: skip
        if copy:
            host = np.array(raw)
            return host.__dlpack__(max_version=max_version)
        return raw.__dlpack__()

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return (1, 0)

    # -- sizes -------------------------------------------------------------------------------
    def check_extent(self, dims: Sequence[int], function: str) -> None:
        """`ValueError` for a dimension beyond MLX's int32 extents (MLX would raise
        `OverflowError` or wrap)."""
        for d in dims:
            if d > _INT32_MAX:
                raise self.error(function, f"size {d} in shape {tuple(dims)} is beyond MLX's "
                                 f"extents (2**31 - 1 per dimension)")  # fmt: skip

    def _check_index_array(self, k: Any, size: int, dim: int, function: str) -> None:
        """`IndexError` for an entry of integer array ``k`` outside ``[-size, size)``, when
        ``k``'s values exist already (made from Python or NumPy values, or evaluated
        before): checking evaluates nothing.  An index array that is still a graph (an
        ``argsort`` result, or anything under ``mx.compile``/``mx.vmap``) is not evaluated
        for the check; MLX then reads what it reads (docs/mlx.md)."""
        if k.size == 0 or not evaluated(k):
            return
        import numpy as np

        values = np.asarray(k)
        outside = (values < -size) | (values >= size)
        if outside.any():
            raise self.error(function, f"index {int(values[outside][0])} is out of bounds for "
                             f"axis {dim} with size {size}", IndexError)  # fmt: skip


_INT64_MAX = 2**63 - 1


def reduce(fn: Any, x: Any, axes: list[int], keepdims: bool, identity: Any) -> Any:
    """``fn(x, axis=axes, keepdims=keepdims)`` over non-negative ``axes``; ``x`` itself for
    no axes; for a zero-size ``x``, ``identity`` in the result's shape (MLX's reductions of
    zero-size arrays read memory nobody wrote: ``all`` of a (2, 0) array may be False,
    ``prod`` of a (0, 2) array 0)."""
    if not axes:
        return x
    if x.size == 0:
        return filled(x, axes, keepdims, identity)
    return fn(x, axis=axes, keepdims=keepdims)


def filled(x: Any, axes: list[int], keepdims: bool, value: Any) -> Any:
    """``value`` in the shape of a reduction of ``x`` over non-negative ``axes``."""
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)] if keepdims else \
        [s for i, s in enumerate(x.shape) if i not in axes]  # fmt: skip
    return mx.full(shape, mx.array(value).astype(x.dtype), dtype=x.dtype)


#: How many of the backend's vectorize hooks (`eagerpy_xp.vmap`) are tracing now: while
#: one is, `mapping` is true and the functions whose MLX primitives lack a batching rule,
#: or have a wrong one, take a form that maps right (docs/compile.md).  A plain counter:
#: another thread tracing at the same time only makes this one take those forms too.
MAPPING = [0]


def mapping() -> bool:
    """Whether the backend's vectorize hook is tracing (`MAPPING`)."""
    return MAPPING[0] > 0


def batch_safe(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``op`` (an MLX function of two operands of one dtype, or one and a Python scalar),
    whose MLX batching rule ``mx.vmap`` gets wrong when one operand is mapped and the
    other is not (MLX 0.32: ``not_equal`` reports the unmapped operand's axis, the
    bitwise functions skip broadcasting it: wrong shapes, values read out of bounds).
    While `mapping`, it is an ``mx.custom_function`` whose rule broadcasts both operands
    to the mapped shape first; otherwise ``op`` itself."""

    @mx.custom_function
    def mapped(a: Any, b: Any) -> Any:
        return op(a, b)

    @mapped.vmap
    def rule(inputs: Any, axes: Any) -> tuple[Any, int]:
        a, b = inputs
        n = a.shape[axes[0]] if axes[0] is not None else b.shape[axes[1]]
        ndim = max(a.ndim - (axes[0] is not None), b.ndim - (axes[1] is not None))
        a, b = (_leading(t, axis, n, ndim) for t, axis in zip((a, b), axes))
        return mapped(*mx.broadcast_arrays(a, b)), 0

    def run(a: Any, b: Any) -> Any:
        if not MAPPING[0]:
            return op(a, b)
        if type(a) is not mx.array:
            a = mx.array(a, dtype=b.dtype)
        elif type(b) is not mx.array:
            b = mx.array(b, dtype=a.dtype)
        return mapped(a, b)

    run.__name__ = run.__qualname__ = getattr(op, "__name__", "op")
    return run


def _leading(x: Any, axis: int | None, n: int, ndim: int) -> Any:
    """``x`` with its mapped ``axis`` first (an unmapped ``x``: a new axis of size 1 there)
    and size-1 axes after it up to ``ndim`` axes per example."""
    if axis is None:
        x = x[None]
    elif axis != 0:
        x = mx.moveaxis(x, axis, 0)
    missing = ndim - (x.ndim - 1)
    return x.reshape(x.shape[0], *(1,) * missing, *x.shape[1:]) if missing else x


def traced_refusal(exc: BaseException) -> bool:
    """Whether ``exc`` is MLX's refusal to evaluate an array that ``mx.compile`` or
    ``mx.vmap`` is tracing (`MLXCore.host_values`)."""
    return isinstance(exc, ValueError) and _TRACING_WORDS in str(exc)


def _under_transform(why: str) -> str:
    return (f"{why}, which mx.compile and mx.vmap do not know while they trace (each call "
            "or each mapped example may have its own); call it outside the transformation")


def evaluated(x: Any) -> bool:
    """Whether MLX has computed ``x`` already (its buffer exists); asks without evaluating."""
    try:
        mx.get_array_buffer_size(x)
    except ValueError:  # still a graph
        return False
    return True


def take(x: Any, indices: Any, axis: int) -> Any:
    """``mx.take`` along a non-negative ``axis``, also of a zero-size ``x`` (which MLX
    refuses even for no indices)."""
    if x.size == 0:
        shape = (*x.shape[:axis], *indices.shape, *x.shape[axis + 1:])
        return mx.zeros(shape, dtype=x.dtype)
    return mx.take(x, indices, axis=axis)


def part(x: Any, index: int, axis: int) -> Any:
    """``x``'s slice ``index`` along a non-negative ``axis`` (that axis removed)."""
    return x[(slice(None),) * axis + (index,)]


__all__ = ["ABSENT", "ABSENT_ON_GPU", "MAPPING", "AbsentDtype", "Array", "MLXCore", "batch_safe",
           "described", "evaluated", "filled", "gpu_kind", "mapping", "part", "reduce", "take",
           "traced_refusal"]
