"""Types the generated stubs share (``eagerpy_xp/<backend>.pyi``, ``native/<backend>.pyi``).

Only what every backend has in common: the info object, ``finfo``/``iinfo`` results and
the extensions' ``norms``.  The array and dtype types differ per backend and are written
into each stub by `eagerpy_xp._stubgen`.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

_Out = TypeVar("_Out", covariant=True)

#: A Python scalar, as the standard's functions accept it beside arrays.
Scalar = bool | int | float | complex
#: An axis argument of a reduction: one axis, several, or all (None).
Axis = int | tuple[int, ...] | None
#: A shape argument of a creation function.
Shape = int | tuple[int, ...]


class FInfo(Protocol):
    """What ``finfo`` returns."""

    @property
    def bits(self) -> int: ...
    @property
    def eps(self) -> float: ...
    @property
    def max(self) -> float: ...
    @property
    def min(self) -> float: ...
    @property
    def smallest_normal(self) -> float: ...
    @property
    def dtype(self) -> Any: ...


class IInfo(Protocol):
    """What ``iinfo`` returns."""

    @property
    def bits(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def min(self) -> int: ...
    @property
    def dtype(self) -> Any: ...


class Info(Protocol):
    """What ``__array_namespace_info__()`` returns."""

    def capabilities(self) -> dict[str, Any]: ...
    def default_device(self) -> Any: ...
    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]: ...
    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]: ...
    def devices(self) -> list[Any]: ...


class Norms(Protocol, Generic[_Out]):
    """A namespace's ``norms``: ``xp.norms.l2(x, axis=1)``, results of the flavour ``_Out``."""

    def l0(self, x: Any, axis: Axis = None, keepdims: bool = False) -> _Out: ...
    def l1(self, x: Any, axis: Axis = None, keepdims: bool = False) -> _Out: ...
    def l2(self, x: Any, axis: Axis = None, keepdims: bool = False) -> _Out: ...
    def linf(self, x: Any, axis: Axis = None, keepdims: bool = False) -> _Out: ...
    def lp(self, x: Any, p: float, axis: Axis = None, keepdims: bool = False) -> _Out: ...


class StrideTricks(Protocol, Generic[_Out]):
    """``xp.lib.stride_tricks``: NumPy's ``sliding_window_view`` (a copy), for xarray."""

    def sliding_window_view(self, x: Any, window_shape: int | tuple[int, ...],
                            axis: int | tuple[int, ...] | None = None) -> _Out: ...


class Lib(Protocol, Generic[_Out]):
    """``xp.lib``: only ``stride_tricks.sliding_window_view``."""

    @property
    def stride_tricks(self) -> StrideTricks[_Out]: ...
