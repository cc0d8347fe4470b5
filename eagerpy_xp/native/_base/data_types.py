"""Data type functions (spec chapter "Data Type Functions"), written once on dtype names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..._detect import SCALAR_TYPES
from ..._dtypes import COMPLEX_FLOATING, COMPLEX_OF_REAL, REAL_OF_COMPLEX, kind_of, promote
from .core import translated


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating dtype; ``dtype`` is the namespace's (real) dtype."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype; ``dtype`` is the namespace's dtype."""

    bits: int
    max: int
    min: int
    dtype: Any


class DataTypeFunctions:
    dtypes_by_name: dict[str, Any]
    dtype_name: Any
    dtype_names_in: Any
    error: Any
    is_native: Any
    _f: Any

    @translated
    def astype(self, x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        """Complex to real or integer casts raise `TypeError` (the spec: "should not be
        permitted")."""
        target = self.required_dtype(dtype, "astype")  # type: ignore[attr-defined]
        if self.dtype_name(x.dtype) in COMPLEX_FLOATING and self.dtype_name(target) not in (
            *COMPLEX_FLOATING, "bool"
        ):
            raise self.error("astype", f"casting {x.dtype} to {target} would drop the "
                                       f"imaginary part; cast real(x) or imag(x)", TypeError)  # fmt: skip
        result = x.astype(target, copy=copy)
        if device is not None:
            result = self.to_device(result, device)  # type: ignore[attr-defined]
        return result

    def _dtype_name_of(self, obj: Any, function: str) -> str:
        """The dtype name of an array or a dtype."""
        if self.is_native(obj):
            return self.dtype_name(obj.dtype)  # type: ignore[no-any-return]
        try:
            return self.dtype_name(obj)  # type: ignore[no-any-return]
        except TypeError:
            raise self.error(function, f"expected an array or a dtype, got {obj!r}",
                             TypeError) from None

    @translated
    def can_cast(self, from_: Any, to: Any, /) -> bool:
        source = self._dtype_name_of(from_, "can_cast")
        target = self._dtype_name_of(to, "can_cast")
        return promote(source, target) == target

    @translated
    def finfo(self, type: Any, /) -> finfo_object:
        import numpy as np

        name = self._dtype_name_of(type, "finfo")
        if kind_of(name) not in ("real floating", "complex floating"):
            raise self.error("finfo", f"{name} is not a floating-point dtype", TypeError)
        real = REAL_OF_COMPLEX.get(name, name)
        info = np.finfo(real)
        return finfo_object(
            bits=int(info.bits), eps=float(info.eps), max=float(info.max), min=float(info.min),
            smallest_normal=float(info.smallest_normal), dtype=self.dtypes_by_name[real],
        )

    @translated
    def iinfo(self, type: Any, /) -> iinfo_object:
        import numpy as np

        name = self._dtype_name_of(type, "iinfo")
        if kind_of(name) not in ("signed integer", "unsigned integer"):
            raise self.error("iinfo", f"{name} is not an integer dtype", TypeError)
        info = np.iinfo(name)
        return iinfo_object(bits=int(info.bits), max=int(info.max), min=int(info.min),
                            dtype=self.dtypes_by_name[name])

    @translated
    def isdtype(self, dtype: Any, kind: Any) -> bool:
        return self.dtype_name(dtype) in self.dtype_names_in(kind)  # type: ignore[no-any-return]

    @translated
    def result_type(self, *arrays_and_dtypes: Any) -> Any:
        """The arrays and dtypes promote as the standard's tables say (mixed kinds have
        no result: `TypeError`); then each Python scalar (2024.12) combines with that dtype
        as the element-wise functions combine it with an array of it (`_with_scalar`)."""
        names = [self._dtype_name_of(a, "result_type")
                 for a in arrays_and_dtypes if not isinstance(a, SCALAR_TYPES)]
        if not names:
            raise self.error("result_type", "at least one array or dtype is required")
        result = names[0]
        for other in names[1:]:
            promoted = promote(result, other)
            if promoted is None:
                raise self.error("result_type",
                                 f"{result} and {other} have no promotion in the standard",
                                 TypeError)
            result = promoted
        for scalar in arrays_and_dtypes:
            if isinstance(scalar, SCALAR_TYPES):
                result = self._with_scalar(result, scalar)
        return self.dtypes_by_name[result]

    def _with_scalar(self, name: str, scalar: Any) -> str:
        """The dtype name of an array of ``name`` combined with the Python ``scalar``, as
        ``add`` computes it on every backend.  The standard's cases: the array's dtype for
        a scalar of its kind, and a complex with a real floating dtype gives the complex
        dtype of the same precision.  Where it leaves the result open: a bool keeps a
        numeric dtype, a float with an integer dtype gives the default real floating
        dtype, a complex with an integer dtype the default complex one.  A number with a
        bool dtype has no result (`TypeError`), as in ``add``."""
        kind = kind_of(name)
        if isinstance(scalar, bool):
            return name
        if kind == "bool":
            raise self.error("result_type", f"a Python {type(scalar).__name__} does not "
                             f"combine with bool", TypeError)  # fmt: skip
        integral = kind in ("signed integer", "unsigned integer")
        if isinstance(scalar, int):
            return name
        defaults = self.default_dtype_names()  # type: ignore[attr-defined]
        if isinstance(scalar, float):
            return defaults["real floating"] if integral else name
        if integral:
            return defaults["complex floating"]  # type: ignore[no-any-return]
        return COMPLEX_OF_REAL.get(name, name)
