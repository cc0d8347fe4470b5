"""The array object's conversions, a base of `Array`: to Python scalars (``bool(x)``,
``int(x)``, ``float(x)``, ``complex(x)``, ``operator.index(x)``: 0-d arrays only), to other
libraries (``__dlpack__``, ``__dlpack_device__``, NumPy's ``__array__``) and to text
(``repr``, ``str``, ``format``)."""

from __future__ import annotations

import math
from typing import Any

from ._methods import ArrayMethods


class ArrayConversions(ArrayMethods):
    """Base of `Array` holding its conversions (on `ArrayMethods`, which declares what
    `Array` provides them)."""

    __slots__ = ()

    # -- conversion to Python scalars --------------------------------------------------
    def _scalar(self, method: str) -> bool | int | float | complex:
        if self.ndim != 0:
            raise TypeError(
                f"eagerpy_xp.{self._b.name}.Array.{method}: only 0-d arrays convert to Python scalars, "
                f"got shape {self.shape}"
            )
        return self._b.item(self._raw)

    def __bool__(self, /) -> bool:
        return bool(self._scalar("__bool__"))

    def __int__(self, /) -> int:
        value = self._scalar("__int__")
        if isinstance(value, complex):
            raise TypeError(f"eagerpy_xp.{self._b.name}.Array.__int__: cannot convert a complex array to int")
        if isinstance(value, float) and not math.isfinite(value):
            kind = OverflowError if math.isinf(value) else ValueError
            raise kind(f"eagerpy_xp.{self._b.name}.Array.__int__: cannot convert {value} to int")
        return int(value)

    def __float__(self, /) -> float:
        value = self._scalar("__float__")
        if isinstance(value, complex):
            raise TypeError(f"eagerpy_xp.{self._b.name}.Array.__float__: cannot convert a complex array to float")
        return float(value)

    def __complex__(self, /) -> complex:
        return complex(self._scalar("__complex__"))

    def __index__(self, /) -> int:
        value = self._scalar("__index__")
        if type(value) is not int:
            raise TypeError(
                f"eagerpy_xp.{self._b.name}.Array.__index__: only integer arrays can be used as an index, "
                f"got dtype {self.dtype}"
            )
        return value

    # -- interchange ----------------------------------------------------------------------
    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        return self._b.dlpack(
            self._raw, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def __dlpack_device__(self, /) -> tuple[Any, int]:
        return self._b.dlpack_device(self._raw)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """NumPy conversion, for arrays on the CPU (``numpy.asarray(x)``).

        With ``copy`` None or True the result is writable on every backend (a copy where
        the framework exports read-only memory, as JAX does: Cython kernels and SciPy's
        filters write into their inputs' buffers); where it shares memory with the array
        (NumPy, torch, ``copy=None``) writes into it change the array.  ``copy=False``
        follows NumPy's protocol: the framework's memory as it is, or `ValueError` where
        that needs a copy.
        """
        host = self._b.to_numpy(self._raw, dtype=dtype, copy=copy)
        if copy is not False and not host.flags.writeable:
            host = host.copy()
        return host

    # -- display ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        b = self._b
        return (
            f"Array({b.format_values(self._raw)}, dtype={b.dtype_name(self.dtype)}, "
            f"device={self.device}, backend={b.name})"
        )

    def __str__(self) -> str:
        return self._b.format_values(self._raw)

    def __format__(self, format_spec: str, /) -> str:
        """``f"{loss:.4f}"``: a 0-d array formats as its Python scalar (evaluating a lazy
        one, as ``float(x)`` does); an empty spec is ``str(x)``; a spec for an array of
        another shape is a `TypeError`, as NumPy's and torch's."""
        if not format_spec:
            return str(self)
        if self.ndim != 0:
            raise TypeError(
                f"eagerpy_xp.{self._b.name}.Array.__format__: the format {format_spec!r} needs "
                f"a 0-d array, got shape {self.shape}"
            )
        try:
            return format(self.item(), format_spec)
        except ValueError as exc:  # a spec the scalar's type does not take ('d' of a float)
            raise ValueError(f"eagerpy_xp.{self._b.name}.Array.__format__: {exc}") from exc
