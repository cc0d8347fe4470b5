"""The Dask backend's creation functions."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from .._base.core import translated
from .._base.creation import check_dlpack
from ._chunks import NUMPY
from ._core import DaskCore


class DaskCreation(DaskCore):
    """Creation."""

    # -- creation --------------------------------------------------------------------------
    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """A Dask array passes through (``copy=True``: a new graph node); anything else
        becomes a NumPy array by the NumPy backend's rules (Python scalars, nested lists,
        buffers; ``copy=False`` raises for those), then one Dask chunk per ``"auto"`` size."""
        if device is not None:
            self.native_device(device, "asarray")
        target = self.check_dtype(dtype, "asarray")
        if isinstance(obj, da.Array):
            if target is not None and obj.dtype != target:
                if copy is False:
                    raise self.error("asarray", f"copy=False, but {obj.dtype} to {target} "
                                                "needs a copy")  # fmt: skip
                return obj.astype(target)
            return obj.copy() if copy else obj
        if copy is False:
            raise self.error("asarray", f"copy=False, but making a Dask array of "
                                        f"{type(obj).__name__} needs a copy")  # fmt: skip
        host = NUMPY.asarray(obj, dtype=target, copy=True)
        return da.from_array(np.asarray(host), chunks="auto")

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        """From two ``arange``s (``dask.array.eye`` loses chunks for some ``k``)."""
        if device is not None:
            self.native_device(device, "eye")
        target = self.check_dtype(dtype, "eye") or np.dtype(np.float64)
        k = self._check_eye(n_rows, n_cols, k)
        rows, cols = self._check_shape((n_rows, n_rows if n_cols is None else n_cols), "eye")
        grid = da.arange(rows)[:, None] + k == da.arange(cols)[None, :]
        return grid.astype(target)

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        """The last value is ``stop`` exactly with ``endpoint`` (Dask's steps may miss it)."""
        result = super().linspace(start, stop, num, dtype=dtype, device=device, endpoint=endpoint)
        if not endpoint or num < 2:
            return result
        return da.where(da.arange(num, chunks=result.chunks) == num - 1,
                        np.asarray(stop, dtype=result.dtype), result)  # fmt: skip

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """A Dask array is taken as it is (``copy=True``: a new graph node); anything else
        is copied into one chunk."""
        if device is not None:
            self.native_device(device, "from_dlpack")
        if isinstance(x, da.Array):
            return x.copy() if copy else x
        check_dlpack(self, x)
        if copy is False:
            raise self.error("from_dlpack", "copy=False: a Dask array cannot share a DLPack "
                                            "buffer (it always holds its own chunks)")  # fmt: skip
        return da.from_array(np.from_dlpack(x, copy=True), chunks="auto")
