"""EagerPy 0.30's `Tensor`, implemented on eagerpy_xp's namespaces (the per-framework
classes derive from it in `eagerpy_xp.eagerpy.tensor`, which is where EagerPy's names are
imported from).

`Tensor` holds every method once, written against the namespace of its ``raw`` array: the
native flavour ``eagerpy_xp.native.<backend>`` for framework arrays, the wrapped one for
`eagerpy_xp.Array`s (`ArrayTensor`).  Where EagerPy's frameworks disagreed, the methods do
what EagerPy did on PyTorch (see ``docs/eagerpy.md``).
"""

from __future__ import annotations

import builtins
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar, Union, cast, overload

import eagerpy_xp

from .norms import NormsMethods
from .types import Axes, AxisAxes, Shape, ShapeOrScalar

if TYPE_CHECKING:
    pass

TensorType = TypeVar("TensorType", bound="Tensor")

# ``Tensor`` rather than ``TensorType``, as in EagerPy (mypy issue 3644)
TensorOrScalar = Union["Tensor", int, float]

__all__ = ["EagerPyTypeError", "Tensor", "TensorOrScalar", "TensorType", "istensor"]


class EagerPyTypeError(TypeError, ValueError):
    """A wrong dtype or argument type.  EagerPy raised `ValueError` (on PyTorch) where
    eagerpy_xp raises `TypeError`; this is both, so either ``except`` clause catches it."""


def _unwrap(x: Any) -> Any:
    """A tensor's array; a NumPy scalar as a Python scalar (PyTorch's reading of it)."""
    if isinstance(x, Tensor):
        return x.raw
    if type(x).__module__ == "numpy" and getattr(x, "shape", None) == ():
        return x.item()
    return x


def _unwrap_key(key: Any, xp: ModuleType) -> Any:
    """An EagerPy index with `Tensor`s replaced by their arrays, and lists and ranges by
    index arrays of namespace ``xp`` (PyTorch read them as integer index arrays)."""
    if isinstance(key, tuple):
        return tuple(_unwrap_key(k, xp) for k in key)
    if isinstance(key, (list, range)):
        return xp.asarray(list(key))
    return _unwrap(key)


def _axes(axis: AxisAxes | None) -> tuple[int, ...] | None:
    if axis is None or isinstance(axis, tuple):
        return axis
    if isinstance(axis, Iterable):
        return tuple(axis)
    return (axis,)


def _shape(shape: ShapeOrScalar) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


class Tensor(metaclass=ABCMeta):
    """The common interface of all EagerPy tensors: one array (``raw``) of one framework."""

    __slots__ = ("_raw",)

    __array_ufunc__ = None

    #: the name `eagerpy_xp` gives the backend (``"torch"``, ...); set by each subclass
    _backend: ClassVar[str]

    def __init__(self, raw: Any) -> None:
        if isinstance(raw, Tensor):
            raise EagerPyTypeError(f"{type(self).__name__}: got a Tensor, expected a raw array")
        self._raw = raw

    # ------------------------------------------------------------------ the framework

    @property
    @abstractmethod
    def _xp(self) -> ModuleType:
        """The namespace ``raw`` belongs to."""

    @abstractmethod
    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        """A raw array of ``shape`` in ``self.dtype`` drawn with the framework's generator:
        ``kind`` ``"uniform"`` (``a`` low, ``b`` high) or ``"normal"`` (mean, stddev)."""

    def _framework(self) -> str:
        """The framework of ``raw`` (an `Array`'s own for `ArrayTensor`)."""
        return self._backend

    def _new(self: TensorType, raw: Any) -> TensorType:
        return type(self)(raw)

    def _array(self) -> eagerpy_xp.Array:
        return eagerpy_xp.astensor(self._raw)

    def _from_array(self: TensorType, a: eagerpy_xp.Array) -> TensorType:
        return self._new(a.raw)

    def _device(self) -> eagerpy_xp.Device:
        return eagerpy_xp.device(self._raw)

    # EagerPy computed where the standard's functions refuse a dtype (``docs/eagerpy.md``):
    # the casts below give what EagerPy gave on PyTorch, and leave the standard layer strict.
    def _floating(self, raw: Any) -> Any:
        """``raw`` in a floating dtype: an integer or bool array in `_float_for` its dtype
        (``sqrt`` of an int tensor, as EagerPy computed it)."""
        xp = self._xp
        if xp.isdtype(raw.dtype, ("real floating", "complex floating")):
            return raw
        return xp.astype(raw, self._float_for(raw.dtype))

    def _float_for(self, dtype: Any) -> Any:
        """The floating dtype EagerPy computed an integer or bool tensor's ``/`` and
        ``sqrt`` in: the framework's default one, except on JAX, whose functions take
        float32 for integers of up to 32 bits (so EagerPy's results were float32 there
        even with 64-bit types on)."""
        xp = self._xp
        if (self._framework() == "jax" and dtype != xp.bool
                and xp.iinfo(dtype).bits <= 32):  # fmt: skip
            return xp.float32
        return xp.__array_namespace_info__().default_dtypes()["real floating"]

    def _division(self, x1: Any, x2: Any) -> tuple[Any, Any]:
        """Operands of ``/``: an integer or bool array takes the other operand's floating
        dtype, or the default floating one (``int_tensor / 2``, as PyTorch divides)."""
        xp = self._xp
        floating = ("real floating", "complex floating")
        # None for a Python scalar, else whether the array is floating
        kinds = [None if isinstance(v, (builtins.bool, int, float, complex))
                 else xp.isdtype(v.dtype, floating) for v in (x1, x2)]  # fmt: skip
        if False not in kinds:
            return x1, x2
        target = x1.dtype if kinds[0] else x2.dtype if kinds[1] else self._float_for(
            (x1 if kinds[0] is False else x2).dtype)  # fmt: skip
        return ((xp.astype(x1, target) if kinds[0] is False else x1),
                (xp.astype(x2, target) if kinds[1] is False else x2))

    def _counting(self, raw: Any) -> Any:
        """``raw`` for a sum: a bool array in the default integer dtype (PyTorch sums bools
        to int64; the standard's ``sum`` takes numeric arrays only)."""
        xp = self._xp
        if raw.dtype != xp.bool:
            return raw
        return xp.astype(raw, xp.__array_namespace_info__().default_dtypes()["integral"])

    def _require_bool(self, function: str, *xs: Any) -> None:
        for x in (self, *xs):
            if isinstance(x, Tensor) and x.dtype != self._xp.bool:
                raise EagerPyTypeError(
                    f"{function} ({self._backend}): requires dtype bool, got {x.dtype}, "
                    f"consider t.bool().all()"
                )

    # ------------------------------------------------------------------ basics

    @property
    def raw(self) -> Any:
        return self._raw

    @property
    def dtype(self) -> Any:
        return self._raw.dtype

    @property
    def ndim(self) -> int:
        return len(self._raw.shape)

    @property
    def shape(self) -> Shape:
        return tuple(self._raw.shape)

    def __repr__(self) -> str:
        prefix = type(self).__name__ + "("
        lines = repr(self._raw).split("\n")
        return "\n".join([prefix + lines[0], *(" " * len(prefix) + ln for ln in lines[1:])]) + ")"

    def __format__(self, format_spec: str) -> str:
        return format(self._raw, format_spec)

    def __bool__(self) -> bool:
        return bool(self._raw)

    def __len__(self) -> int:
        return cast(int, self._raw.shape[0])

    def __iter__(self: TensorType) -> Iterator[TensorType]:
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self: TensorType, index: Any) -> TensorType:
        return self._from_array(self._array()[_unwrap_key(index, self._xp)])

    def numpy(self) -> Any:
        """A read-only NumPy array (copied to the host when needed), as on PyTorch."""
        a = self._array().numpy().view()
        a.flags.writeable = False
        return a

    def item(self) -> builtins.bool | int | float:
        return cast("builtins.bool | int | float", self._array().item())

    # ------------------------------------------------------------------ operators

    def __abs__(self: TensorType) -> TensorType:
        return self._new(self._xp.abs(self._raw))

    def __neg__(self: TensorType) -> TensorType:
        return self._new(self._xp.negative(self._raw))

    def __add__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.add(self._raw, _unwrap(other)))

    def __radd__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.add(_unwrap(other), self._raw))

    def __sub__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.subtract(self._raw, _unwrap(other)))

    def __rsub__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.subtract(_unwrap(other), self._raw))

    def __mul__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.multiply(self._raw, _unwrap(other)))

    def __rmul__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.multiply(_unwrap(other), self._raw))

    def __truediv__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.divide(*self._division(self._raw, _unwrap(other))))

    def __rtruediv__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.divide(*self._division(_unwrap(other), self._raw)))

    def __floordiv__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.floor_divide(self._raw, _unwrap(other)))

    def __rfloordiv__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.floor_divide(_unwrap(other), self._raw))

    def __mod__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.remainder(self._raw, _unwrap(other)))

    def __pow__(self: TensorType, exponent: TensorOrScalar) -> TensorType:
        return self._new(self._xp.pow(self._raw, _unwrap(exponent)))

    def __lt__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.less(self._raw, _unwrap(other)))

    def __le__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.less_equal(self._raw, _unwrap(other)))

    def __eq__(self: TensorType, other: TensorOrScalar) -> TensorType:  # type: ignore[override]
        return self._new(self._xp.equal(self._raw, _unwrap(other)))

    def __ne__(self: TensorType, other: TensorOrScalar) -> TensorType:  # type: ignore[override]
        return self._new(self._xp.not_equal(self._raw, _unwrap(other)))

    def __gt__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.greater(self._raw, _unwrap(other)))

    def __ge__(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.greater_equal(self._raw, _unwrap(other)))

    __hash__ = None  # type: ignore[assignment]

    def __matmul__(self: TensorType, other: TensorType) -> TensorType:
        if self.ndim != 2 or other.ndim != 2:
            raise ValueError(
                f"matmul ({self._backend}): requires both tensors to be 2D, "
                f"got {self.ndim}D and {other.ndim}D"
            )
        return self._new(self._xp.matmul(self._raw, other.raw))

    def matmul(self: TensorType, other: TensorType) -> TensorType:
        return self.__matmul__(other)

    def abs(self: TensorType) -> TensorType:
        return self.__abs__()

    def pow(self: TensorType, exponent: TensorOrScalar) -> TensorType:
        return self.__pow__(exponent)

    # ------------------------------------------------------------------ element-wise

    def sign(self: TensorType) -> TensorType:
        return self._new(self._xp.sign(self._raw))

    def sqrt(self: TensorType) -> TensorType:
        return self._new(self._xp.sqrt(self._floating(self._raw)))

    def tanh(self: TensorType) -> TensorType:
        return self._new(self._xp.tanh(self._floating(self._raw)))

    def square(self: TensorType) -> TensorType:
        return self._new(self._xp.square(self._raw))

    def arctanh(self: TensorType) -> TensorType:
        return self._new(self._xp.atanh(self._floating(self._raw)))

    # EagerPy after 0.30 (its repository): the trigonometric and hyperbolic functions
    # (integer tensors computed in floating point, as sqrt and tanh), the matrix inverse
    # and rounding (half to even; integers unchanged)
    def sin(self: TensorType) -> TensorType:
        return self._new(self._xp.sin(self._floating(self._raw)))

    def cos(self: TensorType) -> TensorType:
        return self._new(self._xp.cos(self._floating(self._raw)))

    def tan(self: TensorType) -> TensorType:
        return self._new(self._xp.tan(self._floating(self._raw)))

    def sinh(self: TensorType) -> TensorType:
        return self._new(self._xp.sinh(self._floating(self._raw)))

    def cosh(self: TensorType) -> TensorType:
        return self._new(self._xp.cosh(self._floating(self._raw)))

    def arcsin(self: TensorType) -> TensorType:
        return self._new(self._xp.asin(self._floating(self._raw)))

    def arccos(self: TensorType) -> TensorType:
        return self._new(self._xp.acos(self._floating(self._raw)))

    def arctan(self: TensorType) -> TensorType:
        return self._new(self._xp.atan(self._floating(self._raw)))

    def arcsinh(self: TensorType) -> TensorType:
        return self._new(self._xp.asinh(self._floating(self._raw)))

    def arccosh(self: TensorType) -> TensorType:
        return self._new(self._xp.acosh(self._floating(self._raw)))

    def inv(self: TensorType) -> TensorType:
        """The matrix inverse (of the last two axes), not the reciprocal."""
        return self._new(self._xp.linalg.inv(self._raw))

    def round(self: TensorType) -> TensorType:
        return self._new(self._xp.round(self._raw))

    def ceil(self: TensorType) -> TensorType:
        return self._new(self._xp.ceil(self._raw))

    def floor(self: TensorType) -> TensorType:
        return self._new(self._xp.floor(self._raw))

    def exp(self: TensorType) -> TensorType:
        return self._new(self._xp.exp(self._floating(self._raw)))

    def log(self: TensorType) -> TensorType:
        return self._new(self._xp.log(self._floating(self._raw)))

    def log2(self: TensorType) -> TensorType:
        return self._new(self._xp.log2(self._floating(self._raw)))

    def log10(self: TensorType) -> TensorType:
        return self._new(self._xp.log10(self._floating(self._raw)))

    def log1p(self: TensorType) -> TensorType:
        return self._new(self._xp.log1p(self._floating(self._raw)))

    def isnan(self: TensorType) -> TensorType:
        return self._new(self._xp.isnan(self._raw))

    def isinf(self: TensorType) -> TensorType:
        return self._new(self._xp.isinf(self._raw))

    def clip(self: TensorType, min_: float, max_: float) -> TensorType:
        return self._new(self._xp.clip(self._raw, min_, max_))

    def minimum(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.minimum(self._raw, _unwrap(other)))

    def maximum(self: TensorType, other: TensorOrScalar) -> TensorType:
        return self._new(self._xp.maximum(self._raw, _unwrap(other)))

    def logical_and(self: TensorType, other: TensorOrScalar) -> TensorType:
        self._require_bool("logical_and", other)
        return self._new(self._xp.logical_and(self._raw, _unwrap(other)))

    def logical_or(self: TensorType, other: TensorOrScalar) -> TensorType:
        self._require_bool("logical_or", other)
        return self._new(self._xp.logical_or(self._raw, _unwrap(other)))

    def logical_not(self: TensorType) -> TensorType:
        self._require_bool("logical_not")
        return self._new(self._xp.logical_not(self._raw))

    def where(self: TensorType, x: TensorOrScalar, y: TensorOrScalar) -> TensorType:
        """``x`` where ``self`` is true, else ``y``; two scalars give float32 (PyTorch)."""
        x_, y_ = _unwrap(x), _unwrap(y)
        if not isinstance(x, Tensor) and not isinstance(y, Tensor):
            x_ = self._xp.asarray(x, dtype=self._xp.float32, device=self._device())
        return self._new(self._xp.where(self._raw, x_, y_))

    # ------------------------------------------------------------------ dtypes

    def astype(self: TensorType, dtype: Any) -> TensorType:
        return self._new(self._xp.astype(self._raw, dtype))

    def float32(self: TensorType) -> TensorType:
        return self.astype(self._xp.float32)

    def float64(self: TensorType) -> TensorType:
        return self.astype(self._xp.float64)

    def bool(self: TensorType) -> TensorType:
        return self.astype(self._xp.bool)

    # ------------------------------------------------------------------ reductions

    def sum(self: TensorType, axis: AxisAxes | None = None,
            keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        return self._new(self._xp.sum(self._counting(self._raw), axis=_axes(axis),
                                      keepdims=keepdims))  # fmt: skip

    def prod(self: TensorType, axis: AxisAxes | None = None,
             keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        return self._new(self._xp.prod(self._counting(self._raw), axis=_axes(axis),
                                       keepdims=keepdims))  # fmt: skip

    def mean(self: TensorType, axis: AxisAxes | None = None,
             keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        if not self._xp.isdtype(self.dtype, "real floating"):
            raise EagerPyTypeError(
                f"mean ({self._backend}): can only calculate the mean of floating types, "
                f"got {self.dtype}"
            )
        return self._new(self._xp.mean(self._raw, axis=_axes(axis), keepdims=keepdims))

    def min(self: TensorType, axis: AxisAxes | None = None,
            keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        return self._new(self._xp.min(self._raw, axis=_axes(axis), keepdims=keepdims))

    def max(self: TensorType, axis: AxisAxes | None = None,
            keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        return self._new(self._xp.max(self._raw, axis=_axes(axis), keepdims=keepdims))

    def all(self: TensorType, axis: AxisAxes | None = None,
            keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        self._require_bool("all")
        return self._new(self._xp.all(self._raw, axis=_axes(axis), keepdims=keepdims))

    def any(self: TensorType, axis: AxisAxes | None = None,
            keepdims: builtins.bool = False) -> TensorType:  # fmt: skip
        self._require_bool("any")
        return self._new(self._xp.any(self._raw, axis=_axes(axis), keepdims=keepdims))

    def argmin(self: TensorType, axis: int | None = None) -> TensorType:
        return self._new(self._xp.argmin(self._raw, axis=axis))

    def argmax(self: TensorType, axis: int | None = None) -> TensorType:
        return self._new(self._xp.argmax(self._raw, axis=axis))

    def argsort(self: TensorType, axis: int = -1) -> TensorType:
        return self._new(self._xp.argsort(self._raw, axis=axis))

    def sort(self: TensorType, axis: int = -1) -> TensorType:
        return self._new(self._xp.sort(self._raw, axis=axis))

    def topk(self: TensorType, k: int, sorted: builtins.bool = True) -> tuple[TensorType, TensorType]:
        values, indices = eagerpy_xp.topk(self._raw, k, sorted=sorted)
        return self._new(values), self._new(indices)

    def cumsum(self: TensorType, axis: int | None = None) -> TensorType:
        raw = self._counting(self._raw)
        if axis is None:
            raw, axis = self._xp.reshape(raw, (-1,)), 0
        return self._new(self._xp.cumulative_sum(raw, axis=axis))

    def slogdet(self: TensorType) -> tuple[TensorType, TensorType]:
        sign, logabsdet = self._xp.linalg.slogdet(self._raw)
        return self._new(sign), self._new(logabsdet)

    # ------------------------------------------------------------------ creation

    def uniform(self: TensorType, shape: ShapeOrScalar, low: float = 0.0,
                high: float = 1.0) -> TensorType:  # fmt: skip
        return self._new(self._random("uniform", _shape(shape), low, high))

    def normal(self: TensorType, shape: ShapeOrScalar, mean: float = 0.0,
               stddev: float = 1.0) -> TensorType:  # fmt: skip
        return self._new(self._random("normal", _shape(shape), mean, stddev))

    def ones(self: TensorType, shape: ShapeOrScalar) -> TensorType:
        return self._new(self._xp.ones(shape, dtype=self.dtype, device=self._device()))

    def zeros(self: TensorType, shape: ShapeOrScalar) -> TensorType:
        return self._new(self._xp.zeros(shape, dtype=self.dtype, device=self._device()))

    def full(self: TensorType, shape: ShapeOrScalar, value: float) -> TensorType:
        return self._new(self._xp.full(shape, value, dtype=self.dtype, device=self._device()))

    def ones_like(self: TensorType) -> TensorType:
        return self._new(self._xp.ones_like(self._raw))

    def zeros_like(self: TensorType) -> TensorType:
        return self._new(self._xp.zeros_like(self._raw))

    def full_like(self: TensorType, fill_value: float) -> TensorType:
        return self._new(self._xp.full_like(self._raw, fill_value))

    def arange(self: TensorType, start: int, stop: int | None = None,
               step: int | None = None) -> TensorType:  # fmt: skip
        if stop is None:
            start, stop = 0, start
        step = 1 if step is None else step
        return self._new(self._xp.arange(start, stop, step, device=self._device()))

    def from_numpy(self: TensorType, a: Any) -> TensorType:
        return self._new(self._xp.asarray(a, device=self._device()))

    def onehot_like(self: TensorType, indices: TensorType, *, value: float = 1) -> TensorType:
        return self._new(eagerpy_xp.onehot_like(self._raw, _unwrap(indices), value=value))

    # ------------------------------------------------------------------ shapes

    def reshape(self: TensorType, shape: Shape | int) -> TensorType:
        return self._new(self._xp.reshape(self._raw, _shape(shape)))

    def flatten(self: TensorType, start: int = 0, end: int = -1) -> TensorType:
        start, end = start % self.ndim, end % self.ndim
        return self.reshape((*self.shape[:start], -1, *self.shape[end + 1 :]))

    def transpose(self: TensorType, axes: Axes | None = None) -> TensorType:
        if axes is None:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return self._new(self._xp.permute_dims(self._raw, tuple(axes)))

    @property
    def T(self: TensorType) -> TensorType:
        return self.transpose()

    def squeeze(self: TensorType, axis: AxisAxes | None = None) -> TensorType:
        axes = _axes(axis)
        if axes is None:
            axes = tuple(i for i, n in enumerate(self.shape) if n == 1)
        return self._new(self._xp.squeeze(self._raw, axis=axes))

    def expand_dims(self: TensorType, axis: int) -> TensorType:
        return self._new(self._xp.expand_dims(self._raw, axis=axis))

    def flip(self: TensorType, axis: AxisAxes | None = None) -> TensorType:
        return self._new(self._xp.flip(self._raw, axis=_axes(axis)))

    def tile(self: TensorType, multiples: Axes) -> TensorType:
        if len(multiples) != self.ndim:
            raise ValueError(
                f"tile ({self._backend}): multiples requires one entry for each dimension, "
                f"got {tuple(multiples)} for {self.ndim} dimensions"
            )
        return self._new(self._xp.tile(self._raw, tuple(multiples)))

    def pad(self: TensorType, paddings: tuple[tuple[int, int], ...], mode: str = "constant",
            value: float = 0) -> TensorType:  # fmt: skip
        return self._new(eagerpy_xp.pad(self._raw, paddings, mode=mode, value=value))

    def meshgrid(self: TensorType, *tensors: TensorType,
                 indexing: str = "xy") -> tuple[TensorType, ...]:  # fmt: skip
        raws = self._xp.meshgrid(self._raw, *(t.raw for t in tensors), indexing=indexing)
        return tuple(self._new(r) for r in raws)

    def _concatenate(self: TensorType, tensors: Iterable[TensorType], axis: int = 0) -> TensorType:
        # concatenates only ``tensors``, not ``self`` (as EagerPy)
        return self._new(self._xp.concat([t.raw for t in tensors], axis=axis))

    def _stack(self: TensorType, tensors: Iterable[TensorType], axis: int = 0) -> TensorType:
        return self._new(self._xp.stack([t.raw for t in tensors], axis=axis))

    def take_along_axis(self: TensorType, index: TensorType, axis: int) -> TensorType:
        return self._new(self._xp.take_along_axis(self._raw, index.raw, axis=axis))

    def index_update(self: TensorType, indices: Any, values: TensorOrScalar) -> TensorType:
        return self._new(eagerpy_xp.index_update(self._raw, _unwrap_key(indices, self._xp), _unwrap(values)))

    # ------------------------------------------------------------------ helpers

    def softmax(self: TensorType, axis: int = -1) -> TensorType:
        return self._new(eagerpy_xp.softmax(self._raw, axis=axis))

    def log_softmax(self: TensorType, axis: int = -1) -> TensorType:
        return self._new(eagerpy_xp.log_softmax(self._raw, axis=axis))

    def crossentropy(self: TensorType, labels: TensorType) -> TensorType:
        return self._new(eagerpy_xp.crossentropy(self._raw, labels.raw))

    @property
    def norms(self: TensorType) -> NormsMethods[TensorType]:
        return NormsMethods(self)

    # ------------------------------------------------------------------ autodiff

    @overload
    def _value_and_grad_fn(
        self: TensorType, f: Callable[..., TensorType]
    ) -> Callable[..., tuple[TensorType, TensorType]]: ...

    @overload
    def _value_and_grad_fn(
        self: TensorType, f: Callable[..., TensorType], has_aux: Literal[False]
    ) -> Callable[..., tuple[TensorType, TensorType]]: ...

    @overload
    def _value_and_grad_fn(
        self: TensorType, f: Callable[..., tuple[TensorType, Any]], has_aux: Literal[True]
    ) -> Callable[..., tuple[TensorType, Any, TensorType]]: ...

    def _value_and_grad_fn(self, f: Callable[..., Any],
                           has_aux: builtins.bool = False) -> Callable[..., tuple[Any, ...]]:  # fmt: skip
        if self._framework() == "numpy":
            raise NotImplementedError(
                "value_and_grad_fn (numpy): NumPy has no automatic differentiation; "
                "use PyTorch, JAX or TensorFlow tensors"
            )

        def value_and_grad(x: Tensor, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
            return x._value_and_grad(f, has_aux, args, kwargs)

        return value_and_grad

    def _value_and_grad(self, f: Callable[..., Any], has_aux: builtins.bool,
                        args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:  # fmt: skip
        auxes: list[Any] = []

        def on_raw(raw: Any) -> Any:
            out = f(self._new(raw), *args, **kwargs)
            if not has_aux:
                return _unwrap(out)
            loss, aux = out
            auxes.append(aux)
            return _unwrap(loss), _unwrap_aux(aux)

        if has_aux:
            loss, aux_raw, grad = eagerpy_xp.value_and_grad(on_raw, self._raw, has_aux=True)
            return self._new(loss), _rewrap_aux(auxes[-1], aux_raw), self._new(grad)
        loss, grad = eagerpy_xp.value_and_grad(on_raw, self._raw)
        return self._new(loss), self._new(grad)

    def value_and_grad(self: TensorType, f: Callable[..., TensorType], *args: Any,
                       **kwargs: Any) -> tuple[TensorType, TensorType]:  # fmt: skip
        return self._value_and_grad_fn(f, has_aux=False)(self, *args, **kwargs)

    def value_aux_and_grad(self: TensorType, f: Callable[..., tuple[TensorType, Any]],
                           *args: Any, **kwargs: Any) -> tuple[TensorType, Any, TensorType]:  # fmt: skip
        return self._value_and_grad_fn(f, has_aux=True)(self, *args, **kwargs)


def _unwrap_aux(aux: Any) -> Any:
    if isinstance(aux, (tuple, list)):
        return type(aux)(_unwrap_aux(a) for a in aux)
    return _unwrap(aux)


def _rewrap_aux(original: Any, raw: Any) -> Any:
    """``raw`` (aux after autodiff, detached) with `Tensor`s where ``original`` had them."""
    if isinstance(original, Tensor):
        return original._new(raw)
    if isinstance(original, (tuple, list)):
        return type(original)(_rewrap_aux(o, r) for o, r in zip(original, raw))
    return raw


def istensor(x: Any) -> bool:
    return isinstance(x, Tensor)
