"""Torch backend hooks: dtypes, devices, promotion, unsigned helpers, DLPack (indexing is
`_indexing`).

Torch lacks most kernels for uint16/uint32/uint64.  Two views cover them:
`_bits` reinterprets them as the signed type of the same width (exact for data movement
and for wrapping ``+ - * << & | ^ ~``), `_ordered` maps them to a signed type with the
same order (comparisons, sorting, min/max); `_wide` widens them so division and right
shifts see non-negative values.
"""

from __future__ import annotations

from typing import Any

import torch

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import BITS, COMPLEX_OF_REAL, REAL_OF_COMPLEX, kind_of, scalar_kind_ok
from .._base import Backend
from .._base.core import AxisError

Tensor = torch.Tensor

#: Unsigned dtypes without kernels, and the signed dtype of the same width.
SIGNED_VIEW: dict[torch.dtype, torch.dtype] = {
    torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64,
}  # fmt: skip
#: A signed dtype holding every value of uint16 / uint32.
WIDER: dict[torch.dtype, torch.dtype] = {torch.uint16: torch.int32, torch.uint32: torch.int64}
INT64_MIN = -(2**63)
#: Words of torch messages about a dtype its kernel does not take (a `TypeError`).
_DTYPE_COMPLAINTS = ("not implemented for", "xpected scalar type", "floating point or complex",
                     "does not support complex", "bool tensor", "with two bool tensors")  # fmt: skip


class TorchCore(Backend):
    """Hooks and helpers shared by every torch function."""

    name = "torch"
    _f = torch
    native_types = (torch.Tensor,)

    # -- dtypes -----------------------------------------------------------------------------
    def __init__(self) -> None:
        super().__init__()
        #: dtype -> kind name, and integer dtype -> (min, max): hot-path lookups
        self._kinds: dict[torch.dtype, str] = {
            d: kind_of(n) for n, d in self.dtypes_by_name.items()
        }  # fmt: skip
        self._ranges: dict[torch.dtype, tuple[int, int]] = {
            d: (-(2 ** (BITS[n] - 1)), 2 ** (BITS[n] - 1) - 1) if n[0] == "i" else (0, 2 ** BITS[n] - 1)
            for n, d in self.dtypes_by_name.items() if n.startswith(("int", "uint"))
        }  # fmt: skip

    def native_dtype(self, name: str) -> Any:
        return getattr(torch, name)

    def category_members(self, category: str) -> list[Any]:
        """torch's half floats (float16, bfloat16) belong to every category that holds the
        real floating dtypes, so they keep working where the standard's floats do."""
        members = super().category_members(category)
        if torch.float32 in members:
            members += [torch.float16, torch.bfloat16]
        return members

    def check_array(self, x: Any, function: str) -> None:
        self._check_tensor(x, function)

    def default_dtype_names(self) -> dict[str, str]:
        real = self.dtype_name(torch.get_default_dtype())
        complex_name = COMPLEX_OF_REAL[real]
        return {"real floating": real, "complex floating": complex_name,
                "integral": "int64", "indexing": "int64"}  # fmt: skip

    def _default(self, kind: str) -> torch.dtype:
        return self.dtypes_by_name[self.default_dtype_names()[kind]]  # type: ignore[no-any-return]

    def _name(self, x: Tensor) -> str:
        return self.dtype_name(x.dtype)

    def _kind(self, x: Tensor) -> str:
        return self._kinds[x.dtype]

    # -- the error contract -----------------------------------------------------------------
    def error_kind(self, exc: Exception) -> type[Exception]:
        """torch raises `RuntimeError` for most failures and says what in its message."""
        text = str(exc)
        if any(words in text for words in _DTYPE_COMPLAINTS):
            return TypeError  # no kernel for the dtype ("bitwise_and_cpu" ... 'Double')
        if "can't allocate memory" in text or "out of memory" in text:
            return MemoryError
        if isinstance(exc, IndexError) and "Dimension out of range" in text:
            return AxisError
        if isinstance(exc, AssertionError) or "CUDA" in text or "no NVIDIA driver" in text:
            return ValueError  # an unavailable device
        return super().error_kind(exc)

    # -- devices ----------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        found = [Device("cpu")]
        found += [Device("cuda", i) for i in range(torch.cuda.device_count())]
        if torch.backends.mps.is_available():
            found.append(Device("mps"))
        return found

    def default_device(self) -> Device:
        return self._as_our_device(torch.get_default_device(), "default_device")

    def _as_our_device(self, device: torch.device, function: str) -> Device:
        if device.type == "cpu":
            return Device("cpu")
        if device.type in ("cuda", "mps"):
            return Device(device.type, device.index or 0)
        raise self.error(function, f"torch device {device} has no eagerpy_xp Device")

    def device_of(self, raw: Any) -> Device:
        return self._as_our_device(raw.device, "device")

    def as_device(self, device: Any, function: str = "device") -> Device:
        if isinstance(device, torch.device):
            return self._as_our_device(device, function)
        try:
            return super().as_device(device, function)
        except ValueError as e:
            raise self.error(function, str(e)) from None

    def native_device(self, device: Any, function: str = "device") -> Any:
        if isinstance(device, torch.device):
            return device
        ours = self.as_device(device, function)
        if ours.kind not in ("cpu", "cuda", "mps"):
            raise self.error(function, f"torch has no {ours.kind} device ({device!r})")
        if ours.kind == "cpu" and ours.index != 0:  # torch would read "cpu:3" as the cpu
            raise self.error(function, f"device {device!r} is not available; the cpu is 'cpu'")
        if ours.kind != "cpu" and ours not in self.devices():  # torch fails only on use
            raise self.error(function, f"device {device!r} is not available; available: "
                             f"{', '.join(str(d) for d in self.devices())}")  # fmt: skip
        return torch.device("cpu") if ours.kind == "cpu" else torch.device(ours.kind, ours.index)

    def info_device(self, device: Device, native: bool) -> Any:
        """Native tensors report ``torch.device`` objects, which never equal a `Device`."""
        return self.native_device(device) if native else device

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        """``stream`` is accepted and ignored: torch orders copies on the current stream."""
        return raw.to(self.native_device(device, "to_device"))

    # -- scalars, display, host copies -------------------------------------------------------
    def item(self, raw: Any) -> bool | int | float | complex:
        return raw.item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        import numpy as np

        if raw.device.type != "cpu":
            raise self.error("to_numpy", f"the tensor is on {raw.device}; move it to 'cpu' first "
                             "(x.to_device('cpu'))")  # fmt: skip
        host = raw.detach().resolve_conj().resolve_neg().numpy()
        return np.asarray(host, dtype=dtype, copy=copy)

    def format_values(self, raw: Any) -> str:
        import numpy as np

        host = raw.detach().to("cpu").resolve_conj().resolve_neg().numpy()
        return np.array2string(host, separator=", ")

    def dlpack(
        self, raw: Any, *, stream: Any = None, max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None, copy: bool | None = None,
    ) -> Any:  # fmt: skip
        """Tensors that require grad are exported detached (torch refuses otherwise)."""
        kwargs: dict[str, Any] = {"max_version": max_version, "dl_device": dl_device,
                                  "copy": copy}  # fmt: skip
        if stream is not None:
            kwargs["stream"] = stream
        return raw.detach().__dlpack__(**kwargs)

    # -- promotion ---------------------------------------------------------------------------
    def _scalar_dtype(self, array_dtype: torch.dtype, scalar: Any) -> torch.dtype:
        """The dtype of ``array <op> scalar``: the array's, unless the scalar's kind is higher."""
        name = self.dtype_name(array_dtype)
        if scalar_kind_ok(name, scalar):
            return array_dtype
        kind = kind_of(name)
        if isinstance(scalar, bool):  # bool scalar with a numeric array
            return array_dtype
        if isinstance(scalar, int):  # int scalar with a bool array
            return self._default("integral")
        if isinstance(scalar, float):
            return self._default("real floating")
        if kind == "real floating":  # complex scalar
            return self.dtypes_by_name[COMPLEX_OF_REAL[name]]  # type: ignore[no-any-return]
        return self._default("complex floating")

    def _scalar_tensor(self, value: Any, dtype: torch.dtype, like: Tensor, function: str) -> Tensor:
        """A 0-d tensor of ``value`` with ``dtype`` on ``like``'s device."""
        self._check_fits(value, dtype, function)
        return torch.scalar_tensor(value, dtype=dtype, device=like.device)

    def _check_fits(self, value: Any, dtype: torch.dtype, function: str) -> None:
        limits = self._ranges.get(dtype)
        if limits is not None and not limits[0] <= value <= limits[1]:
            raise self.error(function, f"the Python scalar {value!r} does not fit "
                             f"{self.dtype_name(dtype)}", OverflowError)  # fmt: skip

    def promoted_operands(self, function: str, x1: Any, x2: Any) -> tuple[Tensor, Tensor]:
        """Both operands as tensors of the promoted dtype (Python scalars allowed)."""
        s1, s2 = isinstance(x1, SCALAR_TYPES), isinstance(x2, SCALAR_TYPES)
        if s1 or s2:
            if s1 and s2:
                raise self.error(function, "at least one argument must be an array", TypeError)
            array, scalar = (x2, x1) if s1 else (x1, x2)
            self._check_tensor(array, function)
            dtype = self._scalar_dtype(array.dtype, scalar)
            array = array if array.dtype == dtype else array.to(dtype)
            other = self._scalar_tensor(scalar, dtype, array, function)
            return (other, array) if s1 else (array, other)
        self._check_tensor(x1, function)
        self._check_tensor(x2, function)
        if x1.dtype == x2.dtype:
            return x1, x2
        dtype = self.dtypes_by_name[self.promote_names(self._name(x1), self._name(x2), function)]
        return x1.to(dtype), x2.to(dtype)

    def _as_tensors(self, arrays: Any, function: str) -> list[Tensor]:
        """A sequence of tensors cast to their promoted dtype."""
        tensors = list(arrays)
        if not tensors:
            raise self.error(function, "at least one array is required")
        for t in tensors:
            self._check_tensor(t, function)
        name = self._name(tensors[0])
        for t in tensors[1:]:
            name = self.promote_names(name, self._name(t), function)
        dtype = self.dtypes_by_name[name]
        return [t if t.dtype == dtype else t.to(dtype) for t in tensors]

    def _check_matrix(self, x: Any, function: str) -> None:
        self._check_tensor(x, function)
        if x.ndim < 2:
            raise self.error(function, f"expected at least 2 dimensions, got shape "
                             f"{tuple(x.shape)}")  # fmt: skip

    def _check_tensor(self, x: Any, function: str) -> None:
        if not isinstance(x, torch.Tensor):
            raise self.error(function, f"expected a torch.Tensor, got {type(x).__name__}",
                             TypeError)  # fmt: skip

    # -- unsigned helpers --------------------------------------------------------------------
    @staticmethod
    def _bits(x: Tensor) -> Tensor:
        """uint16/32/64 reinterpreted as the signed type of the same width (no copy)."""
        view = SIGNED_VIEW.get(x.dtype)
        return x if view is None else x.view(view)

    @staticmethod
    def _unbits(r: Tensor, dtype: torch.dtype) -> Tensor:
        """Undo `_bits` (also narrows a wider integer result with wraparound)."""
        if dtype not in SIGNED_VIEW:
            return r
        view = SIGNED_VIEW[dtype]
        return (r if r.dtype == view else r.to(view)).view(dtype)

    @staticmethod
    def _ordered(x: Tensor) -> Tensor:
        """A tensor with the same order as ``x`` that torch can compare and sort."""
        if x.dtype in WIDER:
            return x.to(WIDER[x.dtype])
        if x.dtype == torch.uint64:
            return x.view(torch.int64) ^ INT64_MIN
        return x

    @staticmethod
    def _unordered(r: Tensor, dtype: torch.dtype) -> Tensor:
        """Undo `_ordered`."""
        if dtype in WIDER:
            return r.to(dtype)
        if dtype == torch.uint64:
            return (r ^ INT64_MIN).view(torch.uint64)
        return r

    def _on_bits(self, fn: Any, x: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """``fn`` applied to `_bits` of ``x``, the result viewed back (data movement)."""
        return self._unbits(fn(self._bits(x), *args, **kwargs), x.dtype)

    # -- axes --------------------------------------------------------------------------------
    def _reduce(self, fn: Any, x: Tensor, axis: Any, keepdims: bool, function: str,
                **kwargs: Any) -> Tensor:  # fmt: skip
        """``fn(x, dim=..., keepdim=...)`` over the standard's ``axis``.

        ``axis=()`` reduces nothing: torch would reduce everything, so it is run over a
        new axis of length one instead.
        """
        if axis is None and not (keepdims and x.ndim):
            return fn(x, **kwargs)  # type: ignore[no-any-return]
        if type(axis) is int and -x.ndim <= axis < x.ndim:  # the common case, no tuple
            return fn(x, dim=axis, keepdim=keepdims, **kwargs)  # type: ignore[no-any-return]
        axes = self.normalize_axes(axis, x.ndim, function)
        if not axes:
            return fn(x.unsqueeze(-1), dim=-1, keepdim=False, **kwargs)  # type: ignore[no-any-return]
        return fn(x, dim=axes, keepdim=keepdims, **kwargs)  # type: ignore[no-any-return]

    def refuse_data_dependent(self, function: str, *arrays: Any) -> None:
        """`NotImplementedError` for a result whose shape depends on the values of an
        array ``torch.func.vmap`` maps: each example would have its own shape."""
        if any(isinstance(a, Tensor) and batched(a) for a in arrays):
            raise self.error(function, "the result's shape depends on the array's values, "
                             "which differ between the examples torch.func.vmap maps; call it "
                             "outside vmap", NotImplementedError)  # fmt: skip


_functorch = torch._C._functorch


def transformed(x: Tensor) -> bool:
    """Whether ``x`` is being traced or transformed (``torch.compile``, ``torch.func``):
    no check may then read its values (a graph cannot raise on them; ``vmap`` refuses)."""
    return bool(torch.compiler.is_compiling() or _functorch.is_functorch_wrapped_tensor(x))


def batched(x: Tensor) -> bool:
    """Whether ``x`` is mapped by ``torch.func.vmap`` (at any level of the transforms)."""
    if torch.compiler.is_compiling():
        return False
    while _functorch.is_functorch_wrapped_tensor(x):
        if _functorch.is_batchedtensor(x):
            return True
        x = _functorch.get_unwrapped(x)
    return False


def real_dtype_name(name: str) -> str:
    """The real dtype name of a (possibly complex) floating dtype name."""
    return REAL_OF_COMPLEX.get(name, name)


__all__ = ["INT64_MIN", "SIGNED_VIEW", "WIDER", "Tensor", "TorchCore", "batched",
           "real_dtype_name", "transformed"]
