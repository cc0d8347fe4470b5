"""The NumPy backend's creation and data-type fixes."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base.core import translated
from .._base.creation import check_inferred, native_order
from ._core import NumPyCore


class NumPyCreation(NumPyCore):
    """Creation and data types."""

    # -- fixes of NumPy's deviations --------------------------------------------------------
    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """Objects NumPy can only hold as ``object`` or string arrays (``"a"``) raise
        `TypeError`: they have no dtype in the standard; Python ints beyond the dtype (the
        default integer dtype without ``dtype``, where NumPy makes ``uint64`` or ``object``)
        raise `OverflowError`."""
        if dtype is None and copy is None and device is None and type(obj) is np.ndarray:
            if obj.dtype.kind in "biufc" and obj.dtype.isnative:
                return obj
        if device is not None:
            self.native_device(device, "asarray")
        target = self.check_dtype(dtype, "asarray")
        if isinstance(obj, np.ndarray) and target is None and not obj.dtype.isnative:
            obj, copy = native_order(self, obj, copy, "asarray"), None  # (a copy already)
        try:
            result = np.asarray(obj, dtype=target, copy=copy)
        except OverflowError:  # NumPy names no int beyond a C long
            self._check_python_ints(obj, None if target is None else target.name, "asarray")
            raise
        if result.dtype.kind not in "bic" and (dtype is None or result.dtype.kind not in "uf"):
            check_inferred(self, obj, result, "asarray")
        return result

    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to real or integer casts raise `TypeError` (the spec: "should not be
        permitted"; NumPy drops the imaginary part)."""
        if device is not None:
            self.native_device(device, "astype")
        target = self.required_dtype(dtype, "astype")
        if x.dtype.kind == "c" and target.kind not in "cb":
            raise self.error("astype", f"casting {x.dtype} to {target} would drop the imaginary "
                                       f"part; cast real(x) or imag(x)", TypeError)  # fmt: skip
        return np.asarray(x).astype(target, copy=copy)
