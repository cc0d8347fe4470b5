"""Hooks and shared helpers of the TensorFlow backend.

`TFBase` holds what every chapter needs: dtype and device maps, conversion of inputs to
tensors, the standard's type promotion (TensorFlow promotes nothing), axis handling and
the unsigned/narrow-integer tricks used where TensorFlow lacks kernels.  The chapter
mixins derive from it; `TensorFlowBackend` combines them.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import tensorflow as tf

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import ALL, BITS, CATEGORIES, CATEGORY_OF, COMPLEX_OF_REAL, kind_of
from .._base import Backend
from .._base.arguments import recheck
from .._base.core import KIND_RANK
from ._eager import EAGER, scalar
from ._eager import translate as translate_op_error
from ._ranks import select

#: The dtype a Python scalar gets when it is of a higher kind than the array it meets.
_SCALAR_DEFAULT = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}
#: The signed integer dtype of the same width (for bit-casting unsigned values).
SIGNED_OF = {"uint8": "int8", "uint16": "int16", "uint32": "int32", "uint64": "int64",
             "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64"}  # fmt: skip
#: The integer dtype holding a float's bits.
BITS_OF_FLOAT = {"float32": "int32", "float64": "int64"}

INTEGRAL_KINDS = ("signed integer", "unsigned integer")
REAL_KINDS = ("bool", "signed integer", "unsigned integer", "real floating")
FLOAT_KINDS = ("real floating", "complex floating")


def _dlpack_aligned(capsule: Any) -> bool:
    """Whether a legacy DLPack capsule's data (``data + byte_offset``) is 64-byte aligned."""
    import ctypes

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    try:
        managed = get(capsule, b"dltensor")
    except ValueError:
        return False
    data = ctypes.c_void_p.from_address(managed).value or 0
    # DLTensor: data, device (2 x int32), ndim (int32), dtype (4 bytes), shape, strides,
    # byte_offset (uint64) at byte 40
    offset = ctypes.c_uint64.from_address(managed + 40).value
    return (data + offset) % 64 == 0


@functools.cache
def _host_memory() -> int:
    """The host's physical memory in bytes."""
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def dtype_hint(text: str) -> str:
    """The message for a dtype given as a string."""
    return (f"unsupported dtype {text!r}: dtypes are the namespace's dtype objects "
            "(xp.float32, ...), not strings")


class _NotRegistered:
    """Stands in for the wrapper class until `register_wrapper` names it."""


def _under_xla() -> bool:
    """Whether the graph being built is compiled by XLA (TensorFlow's own test, from
    ``tf.vectorized_map``'s implementation; False where a TensorFlow lacks it)."""
    try:
        from tensorflow.python.ops.parallel_for.control_flow_ops import _is_under_xla_context
    except ImportError:  # pragma: no cover - another TensorFlow layout
        return False
    return bool(_is_under_xla_context())


class TFBase(Backend):
    """The TensorFlow hooks and helpers shared by every chapter."""

    name = "tensorflow"
    _f = None  # every function is written on TensorFlow's ops (checked when built)
    mutable: ClassVar[bool] = False
    writes_in_place: ClassVar[bool] = False
    native_types = (tf.Tensor, tf.Variable)
    #: `eagerpy_xp.Array`, once the assembly registers it: native functions take it too.
    wrapper_type: Any = _NotRegistered

    def __init__(self) -> None:
        super().__init__()
        self.array_type = EAGER  # EagerTensor: wrapped as it is
        # dtypes are interned: looking them up by identity skips DType's Python __hash__
        self._name_by_id = {id(d): n for d, n in self._names_by_dtype.items()}
        #: Category (or None: any dtype) -> the ids of its dtypes.
        self.category_ids: dict[str | None, frozenset[int]] = {
            None: frozenset(self._name_by_id),
            **{c: frozenset(id(self.dtypes_by_name[n]) for n in names)
               for c, names in CATEGORIES.items()},
        }  # fmt: skip

    # -- the error contract ----------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is a tensor, a variable or an `Array` of this backend
        (what `tensor` takes)."""
        if isinstance(x, (tf.Tensor, tf.Variable)):
            return
        if type(x) is self.wrapper_type and x._b is self:
            return
        self.tensor(x, function)  # raises, naming what ``x`` is

    def check_operands(self, function: str, *operands: Any) -> None:
        """Each operand a Python scalar or an array of this backend of ``function``'s
        category (by its bare name)."""
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        allowed = self.category_ids[category]
        for x in operands:
            if isinstance(x, SCALAR_TYPES):
                continue
            self.check_array(x, function)
            if id(x.dtype) not in allowed:
                raise self.category_error(function, category, x.dtype)  # type: ignore[arg-type]

    def check_arrays(self, function: str, *arrays: Any) -> None:
        """`check_operands` where every operand must be an array (no Python scalars)."""
        for x in arrays:
            self.check_array(x, function)
        self.check_operands(function, *arrays)

    def check_extent(self, dims: Sequence[int | None], function: str, itemsize: int) -> None:
        """`ValueError` for a result of 2**63 elements or more, `MemoryError` for one
        beyond the host's memory, before TensorFlow is asked for it (unknown sizes pass)."""
        if any(d is None for d in dims):
            return
        count = math.prod(dims)  # type: ignore[arg-type]
        if count >= 2**63:
            raise self.error(function, f"a result of shape {tuple(dims)} has {count} "
                             "elements, more than a tensor can hold")  # fmt: skip
        limit = _host_memory()
        if count * itemsize > limit:
            raise self.error(function, f"a result of shape {tuple(dims)} needs "
                             f"{count * itemsize} bytes, more than the host's {limit}",
                             MemoryError)  # fmt: skip

    def translate(self, exc: Exception, function: str) -> Exception:
        """TensorFlow's op errors without their kernel and op decorations (`_eager`), other
        exceptions as `BackendCore.translate` (which also names the function called where
        a helper raised)."""
        if isinstance(exc, tf.errors.OpError):
            return translate_op_error(f"Array.{function}" if function.startswith("__")
                                      else function, exc)  # fmt: skip
        return super().translate(exc, function)

    def error_kind(self, exc: Exception) -> type[Exception]:
        """A value TensorFlow cannot convert to a tensor (``None``) is a `TypeError`."""
        if type(exc) is ValueError and str(exc).startswith("Attempt to convert a value"):
            return TypeError
        return super().error_kind(exc)

    def explain(self, function: str, arguments: dict[str, Any]) -> Exception | None:
        """After a TensorFlow error, the argument at fault where its message does not name
        it (`arguments.recheck`)."""
        return recheck(self, function, arguments)

    # -- dtypes ------------------------------------------------------------------------
    def native_dtype(self, name: str) -> Any:
        return tf.as_dtype(name)

    def dtype_name(self, dtype: Any) -> str:
        """Only TensorFlow dtype objects (``tf.float32 == 3`` holds: DType compares equal
        to its enum number)."""
        name = self._name_by_id.get(id(dtype))
        if name is not None:
            return name
        if not isinstance(dtype, tf.dtypes.DType):
            raise TypeError(f"{self.name}: {dtype!r} is not a dtype of the standard "
                            f"(expected one of {', '.join(ALL)})")  # fmt: skip
        return super().dtype_name(dtype)

    def check_dtype(self, dtype: Any, function: str) -> Any:
        """`BackendCore.check_dtype`; a dtype name as a string gets a hint."""
        if isinstance(dtype, str):
            raise self.error(function, dtype_hint(dtype), TypeError)
        return super().check_dtype(dtype, function)

    def dn(self, x: Any) -> str:
        """The standard dtype name of a tensor."""
        dtype = x.dtype
        name = self._name_by_id.get(id(dtype))
        return name if name is not None else self.dtype_name(dtype)

    def kind(self, x: Any) -> str:
        return kind_of(self.dn(x))

    def tfd(self, name: str) -> Any:
        return self.dtypes_by_name[name]

    # -- devices -------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        found = [Device("cpu")]
        for d in tf.config.list_logical_devices("GPU"):
            found.append(Device("cuda", int(d.name.rsplit(":", 1)[-1])))
        return found

    def native_device(self, device: Any, function: str = "device") -> Any:
        if isinstance(device, str) and device.startswith("/"):
            device = self._parse_tf_device(device, function)
        try:
            dev = self.as_device(device, function)
        except ValueError as exc:  # `Device` rejects the string
            raise self.error(function, f"unknown device {device!r}: {exc}") from None
        if dev not in self.devices():
            available = ", ".join(str(d) for d in self.devices())
            raise self.error(function, f"device {device!r} is not available (available: "
                                       f"{available})")  # fmt: skip
        return "/CPU:0" if dev.kind == "cpu" else f"/GPU:{dev.index}"

    def _parse_tf_device(self, text: str, function: str) -> Device:
        tail = text.rsplit("device:", 1)[-1].lstrip("/")
        kind, _, index = tail.partition(":")
        kind = kind.upper()
        if kind == "CPU":
            return Device("cpu")
        if kind == "GPU":
            return Device("cuda", int(index or 0))
        raise self.error(function, f"unsupported TensorFlow device {text!r}")

    def device_of(self, raw: Any) -> Device:
        text = getattr(raw, "device", "") or ""
        return self._parse_tf_device(text, "device") if text else self.default_device()

    def default_device(self) -> Device:
        return Device("cpu")

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        """`Array.to_device` (functions with ``device=`` call it too, and name themselves)."""
        with tf.device(self.native_device(device, "Array.to_device")):
            return tf.identity(raw)

    def placed(self, device: Any, function: str) -> Any:
        """A context manager creating tensors on ``device`` (the default one for None)."""
        if device is None:
            return tf.device(None)
        return tf.device(self.native_device(device, function))

    # -- scalars, host copies, DLPack ------------------------------------------------------
    def shape_of(self, raw: Any) -> tuple[int | None, ...]:
        return tuple(raw.shape)

    def item(self, raw: Any) -> bool | int | float | complex:
        return raw.numpy().item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        if copy is False:
            raise self.error("__array__", "a TensorFlow tensor always copies to NumPy")
        return np.asarray(raw.numpy(), dtype=dtype)

    def format_values(self, raw: Any) -> str:
        if not hasattr(raw, "numpy") or not tf.executing_eagerly():
            return f"<symbolic shape={raw.shape}>"
        return super().format_values(raw)

    def dlpack(self, raw: Any, *, stream: Any = None, max_version: tuple[int, int] | None = None,
               dl_device: tuple[Any, int] | None = None, copy: bool | None = None) -> Any:  # fmt: skip
        raw = self.tensor(raw, "__dlpack__")
        if dl_device is not None and tuple(dl_device) != self.dlpack_device(raw):
            raise self.error("__dlpack__", f"cannot export to DLPack device {dl_device}",
                             BufferError)  # fmt: skip
        if copy:
            raw = self.fresh(raw)
        return tf.experimental.dlpack.to_dlpack(raw)

    def fresh(self, x: Any) -> Any:
        """A copy of ``x`` in a newly allocated buffer (``tf.identity`` may alias)."""
        flat = tf.reshape(x, [-1])
        return tf.reshape(tf.concat([flat, flat[:0]], 0), tf.shape(x))

    def import_dlpack(self, x: Any, copy: bool | None, function: str) -> Any:
        """A tensor from a DLPack producer, sharing memory unless ``copy``.

        TensorFlow kernels abort the process on buffers that are not 64-byte aligned
        (small NumPy arrays often are not), so such buffers are copied through NumPy, or
        refused with ``copy=False``.
        """
        capsule = x.__dlpack__()
        if _dlpack_aligned(capsule):
            result = tf.experimental.dlpack.from_dlpack(capsule)
            return self.fresh(result) if copy else result
        if copy is False:
            raise self.error(function, "copy=False but the buffer is not 64-byte aligned, "
                             "which TensorFlow requires")  # fmt: skip
        return tf.constant(np.array(np.from_dlpack(x), copy=True))

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        dev = self.device_of(raw)
        return (1, 0) if dev.kind == "cpu" else (2, dev.index)

    # -- inputs ----------------------------------------------------------------------------
    def tensor(self, x: Any, function: str) -> Any:
        """``x`` (a tensor, variable or `Array`) as a tensor; `TypeError` otherwise."""
        if isinstance(x, tf.Tensor):
            return x
        if type(x) is self.wrapper_type:
            if x.backend != self.name:
                raise self.error(function, f"got a {x.backend} Array; convert it first", TypeError)
            return self.tensor(x.raw, function)
        if isinstance(x, tf.Variable):
            return tf.convert_to_tensor(x)
        raise self.error(function, f"expected a tf.Tensor, tf.Variable or eagerpy_xp.Array, "
                                   f"got {type(x).__name__}", TypeError)  # fmt: skip

    def check_kind(self, x: Any, function: str, kinds: Sequence[str], what: str) -> str:
        """The dtype name of ``x``; `TypeError` if its kind is not among ``kinds``."""
        name = self.dn(x)
        if kind_of(name) not in kinds:
            raise self.error(function, f"expected {what} input, got {name}", TypeError)
        return name

    def floating(self, x: Any, function: str, complex_ok: bool = True) -> Any:
        """``x`` as a tensor of a floating-point dtype (real only unless ``complex_ok``);
        `TypeError` for any other dtype, as the standard's floating-point functions."""
        x = self.tensor(x, function)
        k = self.kind(x)
        if k not in FLOAT_KINDS or (k == "complex floating" and not complex_ok):
            category = "floating-point" if complex_ok else "real floating-point"
            raise self.category_error(function, category, x.dtype)
        return x

    def scalar_dtype(self, scalar: Any, name: str) -> str:
        """The result dtype of a Python scalar meeting an array of dtype ``name``."""
        kind = kind_of(name)
        skind = {"bool": "bool", "int64": "signed integer", "float64": "real floating",
                 "complex128": "complex floating"}[_SCALAR_DEFAULT[type(scalar)]]  # fmt: skip
        if skind == "signed integer" and kind == "unsigned integer":
            return name
        if KIND_RANK[skind] <= KIND_RANK[kind]:
            return name
        if skind == "complex floating" and kind == "real floating":
            return COMPLEX_OF_REAL[name]
        return _SCALAR_DEFAULT[type(scalar)]

    def constant(self, value: Any, name: str, function: str) -> Any:
        """A Python scalar as a 0-d tensor of dtype ``name``, range-checked for integers."""
        if kind_of(name) in INTEGRAL_KINDS:
            if isinstance(value, float) and not float(value).is_integer():
                raise self.error(function, f"{value!r} is not an integer", TypeError)
            info = np.iinfo(name)
            if not info.min <= int(value) <= info.max:
                raise self.error(function, f"the Python int {value} does not fit {name}",
                                 OverflowError)  # fmt: skip
            value = int(value)
            if name != "uint64":  # uint64 beyond int64 goes through NumPy
                return tf.constant(value, dtype=self.dtypes_by_name[name])
        # floats through NumPy: TensorFlow's eager scalar cache keys on the Python value,
        # so tf.constant(0.0) can return a cached -0.0 (0.0 == -0.0)
        return tf.constant(np.asarray(value, dtype=name))

    def operands(self, function: str, *args: Any) -> tuple[list[Any], str]:
        """Tensors of one promoted dtype for arrays and Python scalars, and its name."""
        arrays = [self.tensor(a, function) for a in args if not isinstance(a, SCALAR_TYPES)]
        if not arrays:
            raise self.error(function, "at least one argument must be an array", TypeError)
        name = self.dn(arrays[0])
        for a in arrays[1:]:
            name = self.promote_names(name, self.dn(a), function)
        for a in args:
            if isinstance(a, SCALAR_TYPES):
                name = self.scalar_dtype(a, name)
        out = []
        for a in args:
            if isinstance(a, SCALAR_TYPES):
                out.append(self.constant(a, name, function))
            else:
                t = self.tensor(a, function)
                out.append(self.cast(t, self.tfd(name)))
        return out, name

    def cast(self, x: Any, target: Any) -> Any:
        """``tf.cast`` that keeps float32 subnormals when widening (TensorFlow flushes them)."""
        if x.dtype == target:
            return x
        if x.dtype == tf.float32 and target in (tf.float64, tf.complex128):
            return tf.cast(self._widen_float32(x), target)
        if x.dtype == tf.complex64 and target == tf.complex128:
            re, im = self._widen_float32(tf.math.real(x)), self._widen_float32(tf.math.imag(x))
            return tf.complex(re, im)
        return tf.cast(x, target)

    def _widen_float32(self, x: Any) -> Any:
        bits = tf.bitcast(x, tf.int32)
        wide = tf.cast(x, tf.float64)
        subnormal = tf.equal(tf.bitwise.bitwise_and(bits, 0x7F800000), 0)
        mantissa = tf.cast(tf.bitwise.bitwise_and(bits, 0x007FFFFF), tf.float64) * 2.0**-149
        exact = select(bits < 0, -mantissa, mantissa)
        return select(subnormal, exact, wide)

    def refuse_under_xla(self, function: str, why: str) -> None:
        """`NotImplementedError` while tracing for XLA (``tf.function(jit_compile=True)``)
        for what XLA cannot do: ``why`` says what (its CPU compiler has no kernel; or a
        data-dependent shape, where TensorFlow's XLA bridge may even abort the process
        reading the dynamic size back).  Without ``jit_compile`` the graph runs it."""
        if not tf.executing_eagerly() and _under_xla():
            raise self.error(function, f"{why}, which tf.function(jit_compile=True) cannot "
                             "compile; use tf.function without jit_compile (eagerpy_xp.jit: "
                             "tensorflow={'jit_compile': False})", NotImplementedError)  # fmt: skip

    def nonzero_mask(self, x: Any) -> Any:
        """``x != 0`` that also holds for subnormals (TensorFlow's CPU kernels treat them
        as zero); bool input is returned as it is."""
        if x.dtype == tf.bool:
            return x
        if x.dtype.is_complex:
            return self.nonzero_mask(tf.math.real(x)) | self.nonzero_mask(tf.math.imag(x))
        name = self.dn(x)
        if name not in BITS_OF_FLOAT:
            return tf.not_equal(x, tf.zeros((), x.dtype))
        ibits = self.tfd(BITS_OF_FLOAT[name])
        magnitude = tf.bitwise.bitwise_and(tf.bitcast(x, ibits),
                                           tf.constant(2 ** (BITS[name] - 1) - 1, ibits))
        return tf.not_equal(magnitude, 0)

    # -- shapes and axes -------------------------------------------------------------------
    def check_broadcast(self, function: str, *tensors: Any) -> None:
        """`ValueError` naming the shapes where the static shapes of ``tensors`` cannot
        broadcast (unknown dimensions pass: TensorFlow checks them when it runs)."""
        shapes = [tuple(t.shape) for t in tensors]
        for dims in zip(*(reversed(s) for s in shapes)):
            if len({d for d in dims if d is not None and d != 1}) > 1:
                raise self.error(function, f"shapes {', '.join(str(s) for s in shapes)} "
                                           "cannot be broadcast together")  # fmt: skip

    def ndim(self, x: Any) -> int:
        return len(x.shape)

    def axes(self, axis: Any, ndim: int, function: str) -> list[int]:
        """`normalize_axes` as a list (what TensorFlow's reductions take)."""
        return list(self.normalize_axes(axis, ndim, function))

    def size(self, x: Any, axes: Sequence[int] | None = None) -> Any:
        """The number of elements (over ``axes``) as an int64 tensor, graph-safe."""
        shape = tf.shape(x, out_type=tf.int64)
        if axes is None:
            return tf.reduce_prod(shape)
        return tf.reduce_prod(tf.gather(shape, tf.constant(list(axes), tf.int32)))

    # -- bit tricks for unsigned and narrow types ------------------------------------------
    def as_signed(self, x: Any) -> Any:
        """An unsigned tensor bit-cast to the signed type of the same width."""
        name = self.dn(x)
        target = SIGNED_OF.get(name, name)
        return x if target == name else tf.bitcast(x, self.tfd(target))

    def via_signed16(self, x: Any, fn: Any) -> Any:
        """``fn(x)`` for a data-movement op lacking a uint16 kernel (tile, repeat, ...)."""
        if x.dtype != tf.uint16:
            return fn(x)
        return tf.bitcast(fn(tf.bitcast(x, tf.int16)), tf.uint16)

    def order_key(self, x: Any, function: str) -> Any:
        """Signed integers whose order is the standard's order of ``x`` (NaNs last, -0 == +0).

        Used by sorting, searching and set functions so that unsigned 64-bit values,
        NaNs and signed zeros order correctly whatever TensorFlow's kernels do.
        """
        name = self.dn(x)
        kind = kind_of(name)
        if kind == "complex floating":
            raise self.error(function, "complex inputs have no order", TypeError)
        if kind == "bool" or name in ("int8", "int16", "uint8", "uint16"):
            return tf.cast(x, tf.int32)
        if name in ("int32", "int64"):
            return x
        if name == "uint32":
            return tf.cast(x, tf.int64)
        if name == "uint64":
            return tf.bitwise.bitwise_xor(tf.bitcast(x, tf.int64), tf.constant(-(2**63), tf.int64))
        # floats: canonical NaN and +0, then the IEEE bits made monotonic
        x = select(tf.math.is_nan(x), tf.constant(np.nan, x.dtype), x + tf.zeros((), x.dtype))
        ibits = self.tfd(BITS_OF_FLOAT[name])
        bits = tf.bitcast(x, ibits)
        flip = tf.constant(2 ** (BITS[name] - 1) - 1, ibits)
        return select(bits < 0, tf.bitwise.bitwise_xor(bits, flip), bits)

    def move_to_last(self, x: Any, axis: int) -> tuple[Any, list[int] | None]:
        """``x`` with ``axis`` moved last, and the permutation undoing it (None if none)."""
        n = self.ndim(x)
        if axis == n - 1:
            return x, None
        perm = [i for i in range(n) if i != axis] + [axis]
        inverse = [perm.index(i) for i in range(n)]
        return tf.transpose(x, perm), inverse

    def undo_move(self, x: Any, inverse: list[int] | None) -> Any:
        return x if inverse is None else tf.transpose(x, inverse)

    def keep(self, result: Any, axes: Sequence[int], keepdims: bool) -> Any:
        """Re-insert reduced ``axes`` as size-1 dimensions when ``keepdims``."""
        if not keepdims:
            return result
        for a in sorted(axes):
            result = tf.expand_dims(result, a)
        return result

    # -- helpers -------------------------------------------------------------------------
    def _pair(self, function: str, x1: Any, x2: Any) -> tuple[Any, Any, str]:
        """The operands as tensors of their promoted dtype, and its name: arrays of this
        backend and of ``function``'s category, or Python scalars (`TypeError`
        otherwise); shapes that do not broadcast raise `ValueError`."""
        allowed = self.category_ids[CATEGORY_OF.get(function)]
        t1, t2 = type(x1), type(x2)
        if t1 is EAGER or t2 is EAGER:  # fast paths: no promotion needed
            tensor = x1 if t1 is EAGER else x2
            name = self._name_by_id.get(id(tensor.dtype))
            if name is not None and id(tensor.dtype) in allowed:
                if t1 is t2:
                    if x1.dtype is x2.dtype:
                        if x1._shape_tuple() != x2._shape_tuple():
                            self.check_broadcast(function, x1, x2)
                        return x1, x2, name
                elif t2 is float or t2 is int:
                    operand = scalar(x2, x1.dtype)
                    if operand is not None:
                        return x1, operand, name
                elif t1 is float or t1 is int:
                    operand = scalar(x1, x2.dtype)
                    if operand is not None:
                        return operand, x2, name
        self.check_operands(function, x1, x2)
        (a, b), name = self.operands(function, x1, x2)
        self.check_broadcast(function, a, b)
        return a, b, name

    def _safe_divisor(self, a: Any, b: Any) -> tuple[Any, Any, Any]:
        """Integer operands made safe for TF's division kernels.

        Division by zero (an error in TensorFlow) and ``MIN // -1`` (a hardware trap) are
        replaced by harmless operands; the caller patches those positions: x // 0 == 0,
        x % 0 == 0, MIN // -1 == MIN (wraparound), MIN % -1 == 0.
        """
        zero = tf.equal(b, 0)
        special = zero
        if self.kind(b) == "signed integer":
            special = zero | tf.equal(b, -1)
        return special, a, select(special, tf.ones_like(b), b)
