"""Creation functions (spec chapter "Creation Functions"), NumPy-like defaults."""

from __future__ import annotations

import math
from typing import Any

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from .core import int_range, translated

#: The most elements an array may have: extents are int64 in every framework.
_MAX_ELEMENTS = 2**63 - 1


def python_int_beyond(obj: Any, name: str | None) -> int | None:
    """The first Python int in ``obj`` (an int, or nested lists and tuples of Python
    scalars) outside the range of the integer dtype ``name``; for ``name=None`` (no dtype
    asked for), outside int64 when ``obj`` holds only ints and bools (a float among them
    makes the array floating).  None when there is none, or ``name`` is not an integer
    dtype.  `asarray` raises `OverflowError` for it (docs/errors.md)."""
    bounds = (-(2**63), 2**63 - 1) if name is None else int_range(name)
    if bounds is None:
        return None
    found: list[int] = []

    def scan(item: Any) -> bool:  # False: stop (a float decides the dtype, or found one)
        if type(item) is int:
            if not bounds[0] <= item <= bounds[1] and not found:
                found.append(item)
            return True
        if isinstance(item, (list, tuple)):
            return all(scan(i) for i in item)
        return isinstance(item, bool) or name is not None

    complete = scan(obj)
    return found[0] if found and (complete or name is not None) else None


class CreationFunctions:
    """Defaults delegate to the framework's NumPy-like namespace ``self._f``."""

    _f: Any

    # helpers the backend provides (see core.BackendCore)
    check_dtype: Any
    dtype_name: Any
    native_device: Any
    error: Any
    is_native: Any
    check_array: Any
    device_of: Any
    default_device: Any

    def check_python_ints(self, obj: Any, dtype: Any, function: str) -> None:
        """`OverflowError` for a Python int in ``obj`` beyond ``dtype`` (int64 for None):
        `python_int_beyond`."""
        name = None if dtype is None else self.dtype_name(dtype)
        value = python_int_beyond(obj, name)
        if value is not None:
            raise self.error(function, f"the Python int {value} does not fit "
                             f"{name or 'int64, the default integer dtype'}", OverflowError)  # fmt: skip

    def _device_kwargs(self, device: Any, function: str) -> dict[str, Any]:
        """Keyword arguments placing a new array on ``device`` (none for the default)."""
        if device is None:
            return {}
        return {"device": self.native_device(device, function)}

    def _dtype_kwargs(self, dtype: Any, function: str) -> dict[str, Any]:
        return {} if dtype is None else {"dtype": self.check_dtype(dtype, function)}

    def _check_fill(self, fill_value: Any, function: str, dtype: Any = None) -> None:
        """The standard's ``fill_value``: a Python scalar (or a 0-d array of the backend);
        a Python int must fit ``dtype`` (int64 for None), else `OverflowError`."""
        if type(fill_value) is int:
            self.check_python_ints(fill_value, dtype, function)
        elif not isinstance(fill_value, SCALAR_TYPES) and not self.is_native(fill_value):
            raise self.error(function, f"fill_value must be a Python scalar, got "
                             f"{type(fill_value).__name__} {fill_value!r:.60}", TypeError)  # fmt: skip

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
        if math.prod(dims) > _MAX_ELEMENTS:  # beyond every framework's (int64) extents
            raise self.error(function, f"shape {shape!r} has {math.prod(dims)} elements, more "
                             f"than an array can index (2**63 - 1)")  # fmt: skip
        return dims

    def _check_arange(self, start: Any, stop: Any, step: Any) -> None:
        """``arange``'s bounds and step: real numbers (`TypeError`; NumPy takes a complex
        one), a step other than zero (`ValueError`)."""
        for value in (start, step) if stop is None else (start, stop, step):
            if isinstance(value, complex) or not hasattr(type(value), "__float__"):
                raise self.error("arange", f"start, stop and step must be real numbers, got "
                                 f"{value!r}", TypeError)  # fmt: skip
        if step == 0:
            raise self.error("arange", f"step must not be zero, got {step!r}")

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        self._check_arange(start, stop, step)
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
        self._check_eye(n_rows, n_cols, k)
        return self._f.eye(n_rows, n_cols, k=k, **self._dtype_kwargs(dtype, "eye"),
                           **self._device_kwargs(device, "eye"))  # fmt: skip

    def _check_eye(self, n_rows: Any, n_cols: Any, k: Any) -> None:
        """``eye``'s sizes (non-negative ints) and diagonal offset (an int)."""
        check_int = self.check_int  # type: ignore[attr-defined]
        check_int(n_rows, "n_rows", "eye", 0)
        if n_cols is not None:
            check_int(n_cols, "n_cols", "eye", 0)
        check_int(k, "k", "eye")

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        check_dlpack(self, x)
        kwargs: dict[str, Any] = {"copy": copy}
        if device is not None:
            kwargs["device"] = self.native_device(device, "from_dlpack")
        return self._f.from_dlpack(x, **kwargs)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        self._check_fill(fill_value, "full", self.check_dtype(dtype, "full"))
        return self._f.full(self._check_shape(shape, "full"), fill_value,
                            **self._dtype_kwargs(dtype, "full"),
                            **self._device_kwargs(device, "full"))  # fmt: skip

    @translated
    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None
    ) -> Any:
        self._check_fill(fill_value, "full_like",
                         x.dtype if dtype is None else self.check_dtype(dtype, "full_like"))
        return self._f.full_like(x, fill_value, **self._dtype_kwargs(dtype, "full_like"),
                                 **self._device_kwargs(device, "full_like"))  # fmt: skip

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        self.check_int(num, "num", "linspace", 0)  # type: ignore[attr-defined]
        return self._f.linspace(start, stop, num, endpoint=endpoint,
                                **self._dtype_kwargs(dtype, "linspace"),
                                **self._device_kwargs(device, "linspace"))  # fmt: skip

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        for x in arrays:
            self.check_array(x, "meshgrid")
            if len(x.shape) != 1:
                raise self.error("meshgrid", f"expected 1-d arrays, got shape {tuple(x.shape)}")
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
        return self._f.tril(self._matrices(x, "tril"), k=self.check_int(k, "k", "tril"))  # type: ignore[attr-defined]

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix)."""
        return self._f.triu(self._matrices(x, "triu"), k=self.check_int(k, "k", "triu"))  # type: ignore[attr-defined]

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


def check_dlpack(backend: Any, x: Any) -> None:
    """``from_dlpack``'s ``x``: an object with ``__dlpack__`` (`TypeError` otherwise)."""
    if not hasattr(x, "__dlpack__"):
        raise backend.error("from_dlpack", f"expected an object with __dlpack__ (an array), "
                            f"got {type(x).__name__}", TypeError)  # fmt: skip


def operator_index(value: Any) -> int:
    """``operator.index`` that also names the offending value."""
    import operator

    return operator.index(value)


__all__ = ["CreationFunctions", "Device"]
