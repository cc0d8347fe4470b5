"""Creation functions (spec chapter "Creation Functions"), NumPy-like defaults."""

from __future__ import annotations

from typing import Any

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from .core import translated


class CreationFunctions:
    """Defaults delegate to the framework's NumPy-like namespace ``self._f``."""

    _f: Any

    # helpers the backend provides (see core.BackendCore)
    check_dtype: Any
    native_device: Any
    error: Any
    is_native: Any
    check_array: Any
    device_of: Any
    default_device: Any

    def _device_kwargs(self, device: Any, function: str) -> dict[str, Any]:
        """Keyword arguments placing a new array on ``device`` (none for the default)."""
        if device is None:
            return {}
        return {"device": self.native_device(device, function)}

    def _dtype_kwargs(self, dtype: Any, function: str) -> dict[str, Any]:
        return {} if dtype is None else {"dtype": self.check_dtype(dtype, function)}

    def _check_fill(self, fill_value: Any, function: str) -> None:
        """The standard's ``fill_value``: a Python scalar (or a 0-d array of the backend)."""
        if not isinstance(fill_value, SCALAR_TYPES) and not self.is_native(fill_value):
            raise self.error(function, f"fill_value must be a Python scalar, got "
                             f"{fill_value!r:.80}", TypeError)  # fmt: skip

    def _check_shape(self, shape: Any, function: str) -> tuple[int, ...]:
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        try:
            dims = tuple(operator_index(s) for s in shape)
        except TypeError:
            raise self.error(function, f"shape must be an int or a tuple of ints, got {shape!r}",
                             TypeError) from None  # fmt: skip
        if any(d < 0 for d in dims):
            raise self.error(function, f"negative dimension in shape {shape!r}")
        return dims

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        if step == 0:
            raise self.error("arange", "step must not be zero")
        return self._f.arange(start, stop, step, **self._dtype_kwargs(dtype, "arange"),
                              **self._device_kwargs(device, "arange"))  # fmt: skip

    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        return self._f.asarray(obj, **self._dtype_kwargs(dtype, "asarray"),
                               **self._device_kwargs(device, "asarray"), copy=copy)  # fmt: skip

    @translated
    def empty(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.empty(self._check_shape(shape, "empty"),
                             **self._dtype_kwargs(dtype, "empty"),
                             **self._device_kwargs(device, "empty"))  # fmt: skip

    @translated
    def empty_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.empty_like(x, **self._dtype_kwargs(dtype, "empty_like"),
                                  **self._device_kwargs(device, "empty_like"))  # fmt: skip

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        return self._f.eye(n_rows, n_cols, k=k, **self._dtype_kwargs(dtype, "eye"),
                           **self._device_kwargs(device, "eye"))  # fmt: skip

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        kwargs: dict[str, Any] = {"copy": copy}
        if device is not None:
            kwargs["device"] = self.native_device(device, "from_dlpack")
        return self._f.from_dlpack(x, **kwargs)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        self._check_fill(fill_value, "full")
        return self._f.full(self._check_shape(shape, "full"), fill_value,
                            **self._dtype_kwargs(dtype, "full"),
                            **self._device_kwargs(device, "full"))  # fmt: skip

    @translated
    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None
    ) -> Any:
        self._check_fill(fill_value, "full_like")
        return self._f.full_like(x, fill_value, **self._dtype_kwargs(dtype, "full_like"),
                                 **self._device_kwargs(device, "full_like"))  # fmt: skip

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        return self._f.linspace(start, stop, num, endpoint=endpoint,
                                **self._dtype_kwargs(dtype, "linspace"),
                                **self._device_kwargs(device, "linspace"))  # fmt: skip

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        for x in arrays:
            self.check_array(x, "meshgrid")
        return tuple(self._f.meshgrid(*arrays, indexing=indexing))

    @translated
    def ones(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.ones(self._check_shape(shape, "ones"),
                            **self._dtype_kwargs(dtype, "ones"),
                            **self._device_kwargs(device, "ones"))  # fmt: skip

    @translated
    def ones_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.ones_like(x, **self._dtype_kwargs(dtype, "ones_like"),
                                 **self._device_kwargs(device, "ones_like"))  # fmt: skip

    @translated
    def tril(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix)."""
        return self._f.tril(self._matrices(x, "tril"), k=operator_index(k))

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix)."""
        return self._f.triu(self._matrices(x, "triu"), k=operator_index(k))

    def _matrices(self, x: Any, function: str) -> Any:
        """``x`` checked to be a (stack of) matrices."""
        if len(x.shape) < 2:
            raise self.error(function, f"expected an array of at least 2 dimensions, got "
                                       f"shape {tuple(x.shape)}")  # fmt: skip
        return x

    @translated
    def zeros(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.zeros(self._check_shape(shape, "zeros"),
                             **self._dtype_kwargs(dtype, "zeros"),
                             **self._device_kwargs(device, "zeros"))  # fmt: skip

    @translated
    def zeros_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.zeros_like(x, **self._dtype_kwargs(dtype, "zeros_like"),
                                  **self._device_kwargs(device, "zeros_like"))  # fmt: skip


def operator_index(value: Any) -> int:
    """``operator.index`` that also names the offending value."""
    import operator

    return operator.index(value)


__all__ = ["CreationFunctions", "Device"]
