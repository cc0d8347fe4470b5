"""Creation and data type functions on torch (spec chapters "Creation", "Data Types")."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ..._detect import SCALAR_TYPES
from .._base.core import translated
from .._base.creation import check_dlpack, compact_numpy, int64_bits, native_order
from ._core import SIGNED_VIEW, Tensor, TorchCore


class TorchCreation(TorchCore):
    """Creation functions: dtype inference, devices, ``copy`` and unsigned dtypes."""

    def _place(self, dtype: Any, device: Any, function: str) -> dict[str, Any]:
        """``dtype=``/``device=`` keyword arguments for a torch factory."""
        kwargs: dict[str, Any] = {}
        if dtype is not None:
            kwargs["dtype"] = self.check_dtype(dtype, function)
        if device is not None:
            kwargs["device"] = self.native_device(device, function)
        return kwargs

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        start, stop, step = self._python_bounds(start, stop, step)
        self._check_arange(start, stop, step)
        if stop is None:
            start, stop = 0, start
        kwargs = self._place(dtype, device, "arange")
        if "dtype" not in kwargs and any(type(v) is float for v in (start, stop, step)):
            kwargs["dtype"] = self._default("real floating")  # decided before `stop = start`
        self._check_arange_ints(start, stop, step, kwargs.get("dtype"))
        if (stop - start) * step <= 0:  # empty: torch raises for a step of the "wrong" sign
            stop = start
        target = kwargs.get("dtype")
        if (target is None or target in self._ranges) and _beyond_int64(start, stop, step):
            # torch takes no Python int beyond int64: count in int64, which wraps like
            # uint64 (the values themselves fit the dtype: checked above)
            count = max(0, -((start - stop) // step))
            kwargs["dtype"] = torch.int64
            wide = torch.arange(count, **kwargs) * int64_bits(step) + int64_bits(start)
            return wide.view(torch.uint64) if target == torch.uint64 else wide.to(
                target or torch.int64)
        if target in _REAL_OF_COMPLEX:  # no complex kernel: count in the real dtype
            kwargs["dtype"] = _REAL_OF_COMPLEX[target]
            return torch.arange(start, stop, step, **kwargs).to(target)
        if target in SIGNED_VIEW:  # no kernel: count in int64
            kwargs["dtype"] = torch.int64
            return torch.arange(start, stop, step, **kwargs).to(target)
        return torch.arange(start, stop, step, **kwargs)

    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        kwargs = self._place(dtype, device, "asarray")
        if isinstance(obj, np.ndarray) and obj.dtype.kind in "biufc":
            obj, copy = self._shareable(obj, copy)
            if copy is not True:  # torch.asarray copies 0-d arrays even with copy=False
                obj = torch.from_numpy(obj)
        if isinstance(obj, torch.Tensor):
            target_dtype = kwargs.get("dtype", obj.dtype)
            target_device = kwargs.get("device", obj.device)
            moves = target_dtype != obj.dtype or torch.device(target_device) != obj.device
            if copy is False and moves:
                raise self.error("asarray", "copy=False but the dtype or device differs")
            result = obj.to(dtype=target_dtype, device=target_device)
            return obj.clone() if copy and result is obj else result
        target = kwargs.get("dtype")
        name = None if target is None else self.dtype_name(target)
        if isinstance(obj, int) or (target in _UNSIGNED and isinstance(obj, (list, tuple))):
            self._check_python_ints(obj, name, "asarray")  # torch wraps -1 into unsigned dtypes
        try:
            return torch.asarray(obj, copy=copy, **kwargs)
        except (ValueError, RuntimeError, TypeError) as e:
            if _holds_tensor(obj):  # tensors that are not 0-d, or uint64 ones (torch calls int())
                return self._stacked(obj, kwargs, copy)
            truncated = obj if name is None or not isinstance(obj, (float, list, tuple)) else \
                self._truncated_floats(obj, name, "asarray")  # fmt: skip
            if truncated is not obj:  # torch refuses -0.5 for uint8 and any float for uint64
                self._check_python_ints(truncated, name, "asarray")
                return torch.asarray(truncated, copy=copy, **kwargs)
            if isinstance(obj, (list, tuple)):
                self._check_python_ints(obj, name, "asarray")  # torch's message names no value
            if isinstance(e, TypeError):
                raise
            if "Could not infer dtype" in str(e):  # no dtype of the standard holds it
                raise self.error("asarray", f"{obj!r:.80} has no dtype of the standard ({e})",
                                 TypeError) from e  # fmt: skip
            if copy is False:
                raise self.error("asarray", f"copy=False but a copy is needed ({e})") from None
            raise self.error("asarray", str(e)) from None

    def _shareable(self, x: np.ndarray, copy: bool | None) -> tuple[np.ndarray, bool | None]:
        """A NumPy array torch can take, and the ``copy`` left to ask of torch: torch
        refuses negative strides and other byte orders, and shares read-only memory as a
        writable tensor; ``copy=None`` copies those on the NumPy side (``copy=False``:
        `ValueError` where torch cannot share)."""
        if not x.dtype.isnative:
            return native_order(self, x, copy, "asarray"), None
        if any(s < 0 for s in x.strides):
            if copy is False:
                raise self.error("asarray", f"copy=False, but torch cannot share a NumPy "
                                 f"array with negative strides {x.strides}")  # fmt: skip
            return np.array(x, copy=True), None
        if not x.flags.writeable and copy is None:
            return np.array(x, copy=True), None  # a tensor is writable
        return x, copy

    def _stacked(self, obj: Any, kwargs: dict[str, Any], copy: bool | None) -> Tensor:
        """A nested sequence holding tensors (and Python scalars), stacked in the
        standard's promoted dtype, then cast to ``dtype``: always a new tensor."""
        if copy is False:
            raise self.error("asarray", "copy=False but a sequence of tensors must be copied")
        result = self._stack_nested(obj)
        return result.to(**kwargs)

    def _stack_nested(self, obj: Any) -> Any:
        """``obj`` as a tensor, or a Python scalar as it is."""
        if isinstance(obj, torch.Tensor):
            return obj
        if not isinstance(obj, (list, tuple)):
            if not isinstance(obj, SCALAR_TYPES):
                raise self.error("asarray", f"cannot make an array of {type(obj).__name__} "
                                 "beside tensors", TypeError)  # fmt: skip
            return obj
        parts = [self._stack_nested(o) for o in obj]
        if not parts:
            raise self.error("asarray", "empty sequences cannot be mixed with tensors")
        tensors = [p for p in parts if isinstance(p, torch.Tensor)]
        if not tensors:  # a level of Python scalars beside tensors elsewhere
            return self.asarray(parts)
        dtype = self.result_type(*parts)
        like = tensors[0]
        same = [p.to(dtype) if isinstance(p, torch.Tensor) else
                self._scalar_tensor(p, dtype, like, "asarray") for p in parts]  # fmt: skip
        shapes = {tuple(p.shape) for p in same}
        if len(shapes) > 1:
            raise self.error("asarray", f"nested sequences of unequal shapes "
                             f"{sorted(shapes)}")  # fmt: skip
        return torch.stack(same)

    def _filled(self, fn: Any, shape: Any, dtype: Any, device: Any, function: str,
                *args: Any) -> Tensor:  # fmt: skip
        dims = self._check_shape(shape, function)
        return fn(dims, *args, **self._place(dtype, device, function))  # type: ignore[no-any-return]

    @translated
    def empty(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._filled(torch.empty, shape, dtype, device, "empty")

    @translated
    def zeros(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._filled(torch.zeros, shape, dtype, device, "zeros")

    @translated
    def ones(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._filled(torch.ones, shape, dtype, device, "ones")

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        target = self.check_dtype(dtype, "full")
        self._check_fill(fill_value, "full")
        fill_value = self._check_fill_fits(fill_value, "full", dtype)
        return self._filled(torch.full, shape, dtype, device, "full",
                            _inexact_fill(fill_value, target))  # fmt: skip

    def _like(self, fn: Any, x: Any, dtype: Any, device: Any, function: str,
              *args: Any) -> Tensor:  # fmt: skip
        self._check_tensor(x, function)
        return fn(x, *args, **self._place(dtype, device, function))  # type: ignore[no-any-return]

    @translated
    def empty_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like(torch.empty_like, x, dtype, device, "empty_like")

    @translated
    def zeros_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like(torch.zeros_like, x, dtype, device, "zeros_like")

    @translated
    def ones_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._like(torch.ones_like, x, dtype, device, "ones_like")

    @translated
    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None
    ) -> Any:
        self._check_tensor(x, "full_like")
        target = x.dtype if dtype is None else self.check_dtype(dtype, "full_like")
        self._check_fill(fill_value, "full_like")
        fill_value = self._check_fill_fits(fill_value, "full_like", dtype, x)
        return self._like(torch.full_like, x, dtype, device, "full_like",
                          _inexact_fill(fill_value, target))  # fmt: skip

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        k = self._check_eye(n_rows, n_cols, k)
        n_cols = n_rows if n_cols is None else n_cols
        kwargs = self._place(dtype, device, "eye")
        result = torch.zeros(self._check_shape((n_rows, n_cols), "eye"), **kwargs)
        torch.diagonal(self._bits(result), k).fill_(1)
        return result

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        if isinstance(x, torch.Tensor) and device is None:
            # a tensor already: the exchange would hand back the same memory (and Dynamo
            # cannot trace torch's DLPack functions)
            return x.clone() if copy else x.view_as(x)
        check_dlpack(self, x)
        x, copy = compact_numpy(self, x, copy, "from_dlpack", negative_only=True)
        kwargs: dict[str, Any] = {}
        if device is not None:
            kwargs["device"] = self.native_device(device, "from_dlpack")
        if copy is not None:
            kwargs["copy"] = copy
        return torch.from_dlpack(x, **kwargs)

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        self.check_int(num, "num", "linspace", 0)
        start, stop = self._python_bounds(start, stop)
        start, stop = self._linspace_ends(start, stop, dtype)
        kwargs = self._place(dtype, device, "linspace")
        target = kwargs.pop("dtype", None)
        if target is None:
            is_complex = isinstance(start, complex) or isinstance(stop, complex)
            target = self._default("complex floating" if is_complex else "real floating")
        # computed in double precision (as NumPy) unless the device has none (mps)
        precise = torch.complex128 if target.is_complex else torch.float64
        work = (
            target if kwargs.get("device", self._default_torch_device()).type == "mps" else precise
        )
        steps = num if endpoint or num == 0 else num + 1
        result = torch.linspace(start, stop, steps, dtype=work, **kwargs)
        if not endpoint and num:
            result = result[:-1]
        return result if work == target else result.to(target)

    def _default_torch_device(self) -> torch.device:
        if torch.compiler.is_compiling():  # Dynamo traces no call returning a device
            return torch.empty(0).device  # type: ignore[no-any-return]
        return torch.get_default_device()

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        if not arrays:
            return ()
        tensors = self._as_tensors(arrays, "meshgrid")
        for t in tensors:
            if t.ndim != 1:
                raise self.error("meshgrid", f"expected 1-d arrays, got shape {tuple(t.shape)}")
        return tuple(torch.meshgrid(*tensors, indexing=indexing))

    @translated
    def tril(self, x: Any, /, *, k: int = 0) -> Any:
        self._check_matrix(x, "tril")
        return self._on_bits(torch.tril, x, diagonal=self._diagonal(x, k, "tril"))

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        self._check_matrix(x, "triu")
        return self._on_bits(torch.triu, x, diagonal=self._diagonal(x, k, "triu"))

    # -- data type functions ----------------------------------------------------------------
    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to a real-valued dtype raises `TypeError` (the standard: should not be
        permitted; torch would drop the imaginary part); complex to bool is ``x != 0``
        (torch's own cast: a nonzero part, NaN included, is True)."""
        self._check_tensor(x, "astype")
        target = self.required_dtype(dtype, "astype")
        if x.is_complex() and not target.is_complex and target is not torch.bool:
            raise self.error("astype", f"casting {x.dtype} to {target} would drop the imaginary "
                             "part; take real() first", TypeError)  # fmt: skip
        kwargs: dict[str, Any] = {"dtype": target, "copy": copy}
        if device is not None:
            kwargs["device"] = self.native_device(device, "astype")
        return x.to(**kwargs)


def _inexact_fill(fill_value: Any, dtype: Any) -> Any:
    """A Python int fill of a floating or complex tensor as a float (torch refuses ints
    beyond int64 there, ``full((1,), 2**70, dtype=float64)``)."""
    if type(fill_value) is int and dtype is not None and (dtype.is_floating_point
                                                          or dtype.is_complex):  # fmt: skip
        return float(fill_value)
    return fill_value


#: The unsigned dtypes, into which torch wraps negative Python ints.
#: The real dtype in which ``arange`` counts for a complex one (torch has no complex kernel).
_REAL_OF_COMPLEX = {torch.complex64: torch.float32, torch.complex128: torch.float64}
_UNSIGNED = frozenset({torch.uint8, torch.uint16, torch.uint32, torch.uint64})


def _holds_tensor(obj: Any) -> bool:
    """Whether a nested list or tuple holds a tensor."""
    if isinstance(obj, (list, tuple)):
        return any(isinstance(o, torch.Tensor) or _holds_tensor(o) for o in obj)
    return False


def _beyond_int64(*values: Any) -> bool:
    """Whether all ``values`` are Python ints and one lies outside int64."""
    return all(isinstance(v, int) for v in values) and any(
        not -(2**63) <= v < 2**63 for v in values)
