"""Devices and conversion between frameworks, for native arrays and `Array`s alike.

`device` and `to_device` use the backend hooks (`device_of`, `to_device`), so the answer
is always an `eagerpy_xp.Device`.  `convert` moves an array to another framework through
DLPack (sharing memory where both frameworks allow it, as DLPack does: do not write
through one to change an array the other treats as immutable), else by a host copy.
"""

from __future__ import annotations

from typing import Any

from .._array import Array, as_array
from .._detect import BACKENDS, backend_for, backend_named
from .._devices import CPU, Device

__all__ = ["convert", "device", "to_device"]


def device(x: Any) -> Device:
    """The `Device` of an `Array` or a native array (EagerPy: ``x.raw.device``, native)."""
    if type(x) is Array:
        return x.device
    return backend_for(x, "device").device_of(x)


def to_device(x: Any, device: Any, /, *, stream: Any = None) -> Any:
    """``x`` on ``device`` (a `Device`, a string like ``"cuda:0"`` or a native device);
    native in, native out."""
    if type(x) is Array:
        return x.to_device(device, stream=stream)
    return backend_for(x, "to_device").to_device(x, device, stream=stream)


class _Exporter:
    """Presents a native array's DLPack through its backend's hooks (TF has no
    ``__dlpack__`` of its own)."""

    __slots__ = ("_b", "_raw")

    def __init__(self, backend: Any, raw: Any) -> None:
        self._b, self._raw = backend, raw

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._b.dlpack(self._raw, **kwargs)

    def __dlpack_device__(self) -> tuple[Any, int]:
        return self._b.dlpack_device(self._raw)


#: What frameworks raise when DLPack cannot carry an array (dtype, device, layout).
_DLPACK_ERRORS = (BufferError, TypeError, ValueError, RuntimeError, NotImplementedError)


def convert(x: Any, backend: str) -> Any:
    """``x`` as an array of ``backend`` ("numpy", "torch", "jax", "tensorflow").

    Zero-copy through DLPack where both frameworks allow it, a copy through the host
    otherwise (then moved back to ``x``'s device where the target has it).  The dtype is
    kept: a dtype the target cannot hold (64-bit on JAX without x64) raises.  `Array` in,
    `Array` out; native in, native out.
    """
    if backend not in BACKENDS:
        raise ValueError(f"convert: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    wrapped = type(x) is Array
    raw = x._raw if wrapped else x
    src = x._b if wrapped else backend_for(x, "convert")
    dst = backend_named(backend)
    if dst is src:
        return x
    dtype = src.dtype_name(raw.dtype)
    try:
        result = dst.from_dlpack(_Exporter(src, raw))
    except _DLPACK_ERRORS:
        result = _host_copy(src, dst, raw, dtype)
    if dst.dtype_name(result.dtype) != dtype:
        raise TypeError(
            f"convert ({src.name} -> {dst.name}): {dst.name} cannot hold {dtype} here "
            f"(got {dst.dtype_name(result.dtype)}); convert to a supported dtype first"
        )
    return as_array(dst, result) if wrapped else result


def _host_copy(src: Any, dst: Any, raw: Any, dtype: str) -> Any:
    where = src.device_of(raw)
    host = src.to_numpy(src.to_device(raw, CPU) if where != CPU else raw)
    result = dst.asarray(host, dtype=dst.dtypes_by_name[dtype])
    if where != CPU and where in dst.devices():
        result = dst.to_device(result, where)
    return result
