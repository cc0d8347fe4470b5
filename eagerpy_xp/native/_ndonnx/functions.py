"""The chapters of the standard where ndonnx differs from it or lacks a function.

The generic defaults (`native._base`) call ndonnx's namespace for the rest; what is
written here composes ONNX operators that ndonnx has (``isin``) or fixes ndonnx's
deviations, the same on eager and symbolic arrays.
"""

from __future__ import annotations

from typing import Any

import ndonnx as ndx

from .._base.core import translated
from .core import Array, NdonnxCore


class NdonnxFunctions(NdonnxCore):
    """Functions of the standard ndonnx lacks, or gets wrong."""

    def _as_array(self, x: Any, like: Any, function: str) -> Any:
        """``x`` as an ndonnx array: a Python scalar of ``like``'s dtype, an `Array`'s raw."""
        if type(x) is Array:
            return x
        if isinstance(x, (bool, int, float)):
            return ndx.asarray(x, dtype=like.dtype)
        self.check_array(x, function)
        return x.raw

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        """Each element of ``x1`` compared with every element of ``x2`` (one ``Equal``
        broadcast over a new axis and an ``any``): ONNX has no set lookup for numbers,
        and ndonnx's own ``isin`` takes Python scalars only.  NaN is in nothing."""
        if type(x1) is not Array and type(x2) is not Array:
            if isinstance(x1, (bool, int, float)) and isinstance(x2, (bool, int, float)):
                return ndx.asarray((x1 == x2) != invert)
        if type(x1) is not Array:
            x1 = self._as_array(x1, x2, "isin")
        if type(x2) is not Array:
            x2 = self._as_array(x2, x1, "isin")
        flat = ndx.reshape(x2, (-1,))
        hits = ndx.any(ndx.expand_dims(x1, axis=-1) == flat, axis=-1)
        return ndx.logical_not(hits) if invert else hits
