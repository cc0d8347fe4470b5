"""The NumPy backend's core: its types and hooks (`NumPyCore`), and the tables of its ufuncs."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._devices import Device
from ..._dtypes import ALL, CATEGORIES, CATEGORY_OF
from .._base import Backend
from .._base.hooks import NumPyDtypes

#: ufunc reductions, typed loosely (NumPy's stubs reject `keepdims: bool`).
_REDUCE: dict[str, Any] = {u: getattr(np, u).reduce for u in ("add", "multiply", "maximum", "minimum")}


_SCALARS = (bool, int, float, complex)
_NDARRAY = np.ndarray


def _accepted(name: str) -> tuple[str | None, frozenset[Any]]:
    """The category of ``name`` (`_dtypes.CATEGORY_OF`) and the NumPy dtypes in it (every
    dtype of the standard where it has none): the one set the ufunc factories test."""
    category = CATEGORY_OF.get(name)
    return category, frozenset(np.dtype(n) for n in (CATEGORIES[category] if category else ALL))


#: The categories of the ufunc reductions (``sum``/``prod``, ``max``/``min``).
_NUMERIC = _accepted("sum")
_REAL_NUMERIC = _accepted("max")


#: Python scalar types a binary function takes beside an array.
_SCALAR_TYPES = frozenset(_SCALARS)


class NumPyCore(NumPyDtypes, Backend):
    """What every chapter of the NumPy backend builds on: its array types and hooks."""

    name = "numpy"

    _f = np
    native_types = (np.ndarray, np.generic)

    # -- hooks ---------------------------------------------------------------------------
    def check_array(self, x: Any, function: str) -> None:
        """NumPy computes on anything (``None``, strings, lists) as object or string
        arrays: only arrays of the standard's dtypes are arrays here."""
        if type(x) is not np.ndarray and not isinstance(x, np.generic):
            raise self.error(function, f"expected a NumPy array, got {type(x).__name__}",
                             TypeError)  # fmt: skip
        if x.dtype.kind not in "biufc":
            raise self.error(function, f"{x.dtype} is not a dtype of the standard", TypeError)

    def check_operand(self, x: Any, function: str, category: str | None,
                      scalars: bool = False) -> None:  # fmt: skip
        """An array in the other byte order (read from a file, say) is of the dtype it
        stores: NumPy computes on it, and results come in native order."""
        dtype = getattr(x, "dtype", None)
        if isinstance(dtype, np.dtype) and not dtype.isnative and isinstance(x, _NDARRAY):
            x = np.empty(0, dtype.newbyteorder("="))
        super().check_operand(x, function, category, scalars)

    def any_dtype_members(self) -> list[Any] | None:
        """Only the standard's dtypes: NumPy's ``object`` and string arrays are refused."""
        return list(self.dtypes_by_name.values())

    def check_operands(self, function: str, *operands: Any) -> None:
        """Arrays, or Python scalars beside at least one array; the arrays of a dtype of
        ``function``'s category (by its bare name)."""
        arrays = [isinstance(x, (np.ndarray, np.generic)) for x in operands]
        if not any(arrays):
            raise self.error(function, f"at least one argument must be an array, got "
                             f"{' and '.join(type(x).__name__ for x in operands)}", TypeError)  # fmt: skip
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        for x, is_array in zip(operands, arrays):
            if not is_array and not isinstance(x, _SCALARS):
                raise self.error(function, f"expected an array or a Python scalar, got "
                                 f"{type(x).__name__}", TypeError)  # fmt: skip
            if is_array:
                self.check_operand(x, function, category)

    def normalize(self, raw: Any) -> Any:
        return raw if type(raw) is np.ndarray else np.asarray(raw)

    def index_case(self) -> tuple[Any, ...] | None:
        """NumPy's own indexing, an int key as ``(i, ...)``: ``x[0]`` of a 1-D array is a
        NumPy scalar, which `normalize` would have to make a 0-d array again (four times
        the cost of ``x[0, ...]``, which is that 0-d array, a view)."""
        return (np.ndarray, True, None, None, True)

    def native_device(self, device: Any, function: str = "device") -> Any:
        if device == "cpu" or device == Device("cpu"):
            return "cpu"
        raise self.error(function, f"unsupported device {device!r}; NumPy arrays live on 'cpu'")

    def item(self, raw: Any) -> bool | int | float | complex:
        return raw.item()  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        return np.asarray(raw, dtype=dtype, copy=copy)
