"""The JAX backend's creation and data-type functions."""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._base.arguments import integer
from .._base.core import (
    raise_translated,
    translated,
)
from .._base.creation import compact_numpy, native_order
from ._core import _BITS64, X64_HINT, JaxCore, _strong, x64_enabled


class JaxCreation(JaxCore):
    """Creation (x64 rules, sizes XLA cannot allocate) and data types."""

    #: jnp.linspace interpolates in the dtype and rounds the points (`_stepped_linspace`)
    linspace_in_steps = True

    # -- creation --------------------------------------------------------------------------
    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """Without ``dtype``, a 64-bit NumPy array or scalar raises `ValueError` while x64 is
        off (JAX would silently make it 32-bit): enable x64 or pass ``dtype``.
        ``copy=False`` accepts only a JAX array that needs no dtype or device change
        (anything else must be copied into JAX: `ValueError`)."""
        target = self.check_dtype(dtype, "asarray")
        if (target is None and isinstance(obj, (np.ndarray, np.generic))
                and obj.dtype.name in _BITS64 and not x64_enabled()):  # fmt: skip
            raise self.error("asarray", f"a NumPy {obj.dtype.name} array would silently become "
                             f"32-bit: {X64_HINT}, or pass dtype= explicitly")  # fmt: skip
        place = None if device is None else self.native_device(device, "asarray")
        if isinstance(obj, jax.Array):
            same = (target is None or obj.dtype == target) and (
                place is None or isinstance(obj, jax.core.Tracer) or obj.devices() == {place})
            if same and copy is not True:
                return _strong(obj)
        if isinstance(obj, np.ndarray):
            obj = native_order(self, obj, copy, "asarray")  # JAX refuses swapped arrays
        if copy is False:
            raise self.error("asarray", f"copy=False, but making a JAX array of "
                             f"{type(obj).__name__} with dtype={dtype!r}, device={device!r} "
                             "needs a copy")  # fmt: skip
        try:
            return _strong(jnp.array(obj, dtype=target, copy=True, device=place))
        except OverflowError:  # JAX names no int beyond a C long
            self._check_python_ints(obj, None if target is None else self.dtype_name(target),
                                    "asarray")  # fmt: skip
            raise

    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """``x`` is any DLPack producer (not only a JAX array, unlike the other ``x``); a
        JAX array is taken as it is (no exchange needed: under ``jax.jit`` it is a tracer,
        which has no DLPack form)."""
        if isinstance(x, jax.Array) and device is None:
            return jnp.array(x, copy=True) if copy else x
        try:
            x, copy = compact_numpy(self, x, copy, "from_dlpack")
            kwargs: dict[str, Any] = {"copy": copy}
            if device is not None:
                kwargs["device"] = self.native_device(device, "from_dlpack")
            result = jnp.from_dlpack(x, **kwargs)
        except Exception as exc:
            raise_translated(self, exc, "from_dlpack")
        dtype = getattr(x, "dtype", None)
        size = getattr(dtype, "itemsize", None)
        if isinstance(size, int) and result.dtype.itemsize < size:  # x64 off: JAX truncates
            raise self.error("from_dlpack", f"a {dtype} array would silently become "
                             f"{result.dtype}: {X64_HINT}")  # fmt: skip
        return result


    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """``step=0`` raises `ValueError`; so does a length JAX cannot allocate."""
        start, stop, step = self._python_bounds(start, stop, step)
        self._check_arange(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        if all(isinstance(v, (int, float)) for v in (low, high, step)):
            kind = "real floating" if any(isinstance(v, float) for v in (low, high, step)) \
                else "integral"  # fmt: skip
            self._check_extent((max(0, math.ceil((high - low) / step)),), "arange",
                               self._itemsize(dtype, kind, "arange"))  # fmt: skip
        return _strong(super().arange(start, stop, step, dtype=dtype, device=device))

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        dims = self._check_shape((n_rows, n_rows if n_cols is None else n_cols), "eye")
        integer(self, k, "k", "eye")
        self._check_extent(dims, "eye", self._itemsize(dtype, "real floating", "eye"))
        return super().eye(n_rows, n_cols, k=k, dtype=dtype, device=device)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return _strong(super().full(shape, fill_value, dtype=dtype, device=device))

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        count = integer(self, num, "num", "linspace", minimum=0)
        self._check_extent((count,), "linspace",
                           self._itemsize(dtype, "real floating", "linspace"))  # fmt: skip
        return _strong(super().linspace(start, stop, num, dtype=dtype, device=device,
                                        endpoint=endpoint))  # fmt: skip

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:  # type: ignore[override]
        """A tuple (2024.12 on); the arrays must be 1-D and share one dtype."""
        for a in arrays:
            self.check_array(a, "meshgrid")
        self._same_dtype(arrays, "meshgrid")
        for a in arrays:
            if a.ndim != 1:
                raise self.error("meshgrid", f"inputs must be 1-D, got shape {a.shape}")
        return tuple(super().meshgrid(*arrays, indexing=indexing))

    def _same_dtype(self, arrays: Any, function: str) -> None:
        dtypes = {a.dtype for a in arrays}
        if len(dtypes) > 1:
            names = ", ".join(sorted(self.dtype_name(d) for d in dtypes))
            raise self.error(function, f"the arrays must share one dtype, got {names}")

    # -- data types ------------------------------------------------------------------------
    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to real raises `TypeError` (the standard: should not be permitted);
        complex to bool is ``x != 0``."""
        target = self.required_dtype(dtype, "astype")
        if x.dtype.kind == "c" and target.kind == "b":
            result = jnp.not_equal(x, 0)
            return result if device is None else self.to_device(result, device)
        if x.dtype.kind == "c" and target.kind != "c":
            raise self.error("astype", f"casting {x.dtype} to {target} would drop the "
                             "imaginary part; take real() or abs() first", TypeError)  # fmt: skip
        result = x if x.dtype == target and not copy else x.astype(target)
        return result if device is None else self.to_device(result, device)

    @translated
    def result_type(self, *arrays_and_dtypes: Any) -> Any:
        """Without x64, ``int32`` with ``uint32`` gives ``int32``, the dtype JAX computes in."""
        result = super().result_type(*arrays_and_dtypes)
        if result == np.int64 and not x64_enabled():
            return self.dtypes_by_name["int32"]
        return result
