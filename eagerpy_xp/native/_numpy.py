"""The NumPy backend: NumPy 2 is close to the standard; this holds only what differs."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._devices import Device
from ._base import Backend
from ._base.elementwise import BINARY, UNARY

#: Element-wise functions NumPy gets right: the native namespace exports the ufunc itself.
_EXACT_UFUNCS = frozenset(UNARY + BINARY) - {"floor_divide", "expm1", "sign"}


class NumPyBackend(Backend):
    name = "numpy"
    _f = np
    native_types = (np.ndarray, np.generic)

    def __init__(self) -> None:
        super().__init__()
        for name in _EXACT_UFUNCS:
            setattr(self, name, getattr(np, name))

    # -- hooks ---------------------------------------------------------------------------
    def normalize(self, raw: Any) -> Any:
        return raw if type(raw) is np.ndarray else np.asarray(raw)

    def native_dtype(self, name: str) -> Any:
        return np.dtype(name)

    def dtype_name(self, dtype: Any) -> str:
        try:
            return self._names_by_dtype[dtype]
        except (KeyError, TypeError):
            pass
        if isinstance(dtype, type) and issubclass(dtype, np.generic):
            return super().dtype_name(np.dtype(dtype))
        return super().dtype_name(dtype)

    def native_device(self, device: Any, function: str = "device") -> Any:
        if device == "cpu" or device == Device("cpu"):
            return "cpu"
        raise self.error(function, f"unsupported device {device!r}; NumPy arrays live on 'cpu'")

    def item(self, raw: Any) -> bool | int | float | complex:
        return raw.item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        return np.asarray(raw, dtype=dtype, copy=copy)

    # -- fixes of NumPy's deviations --------------------------------------------------------
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        if device is not None:
            self.native_device(device, "astype")
        return np.asarray(x).astype(self.check_dtype(dtype, "astype"), copy=copy)

    def floor_divide(self, x1: Any, x2: Any, /) -> Any:
        """NumPy's floor division rounds like Python's ``//`` for infinite operands
        (``1 // -inf == -1``); the standard asks for ``floor(x1 / x2)`` there."""
        result = np.floor_divide(x1, x2)
        if np.asarray(result).dtype.kind != "f":
            return result
        with np.errstate(invalid="ignore", divide="ignore"):
            special = np.isinf(x1) | np.isinf(x2)
            if np.any(special):
                result = np.where(special, np.floor(np.divide(x1, x2)), result)
        return result
