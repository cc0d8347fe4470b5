"""`Array`: the standard's array object, one class for every backend.

An `Array` wraps one native array (`.raw`) and the backend that owns it.  Every operator
calls that backend's function of the same name, so ``x + y`` and ``xp.add(x, y)`` can
never disagree.  Mutation (``__setitem__``, in-place operators) goes through the
backend's ``setitem``/``assign`` hooks: mutable frameworks write into the buffer,
immutable ones (JAX, TensorFlow) hand back a new array that the wrapper rebinds to.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._detect import BACKEND_BY_TYPE, SCALAR_TYPES
from ._devices import Device
from ._methods import ArrayMethods
from ._spec import SUPPORTED_API_VERSIONS

if TYPE_CHECKING:
    from .native._base import Backend

_new_object = object.__new__


def backend_for(x: Any, where: str) -> Backend:
    """The backend of native array ``x`` (resolved through `_namespace`, cached per type)."""
    from ._namespace import backend_for as resolve

    return resolve(x, where)


class Array(ArrayMethods):
    """A standard-conformant array wrapping a native NumPy/PyTorch/JAX/TensorFlow array."""

    __slots__ = ("_raw", "_b", "__weakref__")
    __hash__ = None  # type: ignore[assignment]
    # NumPy: defer `ndarray <op> Array` to our reflected operators.
    __array_ufunc__ = None

    _raw: Any
    _b: Backend

    def __init__(self, raw: Any) -> None:
        if type(raw) is Array:
            raw, backend = raw._raw, raw._b
        else:
            backend = BACKEND_BY_TYPE.get(type(raw)) or backend_for(raw, "Array")
        self._raw = backend.normalize(raw)
        self._b = backend

    # -- the wrapped value -------------------------------------------------------------
    @property
    def raw(self) -> Any:
        """The native array this `Array` wraps (no copy)."""
        return self._raw

    @property
    def backend(self) -> str:
        """The name of the backend owning `.raw` (``"numpy"``, ``"torch"``, ...)."""
        return self._b.name

    # -- attributes ----------------------------------------------------------------------
    @property
    def dtype(self) -> Any:
        """The data type: the framework's own dtype object (``xp.float32`` compares equal)."""
        return self._raw.dtype

    @property
    def device(self) -> Device:
        """The `Device` holding the data (equal to its string, ``"cpu"``, ``"cuda:0"``)."""
        return self._b.device_of(self._raw)

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The dimensions as a tuple of ints (``None`` for a size not known yet)."""
        return self._b.shape_of(self._raw)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self._b.shape_of(self._raw))

    @property
    def size(self) -> int | None:
        """The number of elements (``None`` when a dimension is not known yet)."""
        shape = self._b.shape_of(self._raw)
        return None if None in shape else math.prod(shape)  # type: ignore[arg-type]

    @property
    def mT(self) -> Array:
        """The matrix transpose of the last two axes (of a stack of matrices)."""
        return _wrap(self._b, self._b.matrix_transpose(self._raw))

    @property
    def T(self) -> Array:
        """The transpose; the standard defines it for 2-D arrays only, we reverse all axes."""
        axes = tuple(range(self.ndim - 1, -1, -1))
        return _wrap(self._b, self._b.permute_dims(self._raw, axes))

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
            raise ValueError(
                f"Array.__array_namespace__: unsupported api_version {api_version!r}; "
                f"supported: {', '.join(SUPPORTED_API_VERSIONS)}"
            )
        return self._b.wrapped_namespace()

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """A copy on ``device`` (a `Device`, its string or the framework's device object)."""
        return _wrap(self._b, self._b.to_device(self._raw, device, stream=stream))

    # -- conversion to Python scalars --------------------------------------------------
    def _scalar(self, method: str) -> bool | int | float | complex:
        if self.ndim != 0:
            raise TypeError(
                f"Array.{method}: only 0-d arrays convert to Python scalars, "
                f"got shape {self.shape}"
            )
        return self._b.item(self._raw)

    def __bool__(self, /) -> bool:
        return bool(self._scalar("__bool__"))

    def __int__(self, /) -> int:
        value = self._scalar("__int__")
        if isinstance(value, complex):
            raise TypeError("Array.__int__: cannot convert a complex array to int")
        if isinstance(value, float) and not math.isfinite(value):
            kind = OverflowError if math.isinf(value) else ValueError
            raise kind(f"Array.__int__: cannot convert {value} to int")
        return int(value)

    def __float__(self, /) -> float:
        value = self._scalar("__float__")
        if isinstance(value, complex):
            raise TypeError("Array.__float__: cannot convert a complex array to float")
        return float(value)

    def __complex__(self, /) -> complex:
        return complex(self._scalar("__complex__"))

    def __index__(self, /) -> int:
        value = self._scalar("__index__")
        if type(value) is not int:
            raise TypeError(
                f"Array.__index__: only integer arrays can be used as an index, "
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
        """NumPy conversion, for arrays on the CPU (``numpy.asarray(x)``)."""
        return self._b.to_numpy(self._raw, dtype=dtype, copy=copy)

    def __jax_array__(self) -> Any:
        return self._raw

    @classmethod
    def __torch_function__(
        cls, func: Callable[..., Any], types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        """Let torch functions take an `Array` (they return native tensors)."""
        return func(*_unwrap_nested(args), **_unwrap_nested(kwargs or {}))

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key: Any, /) -> Array:
        return _wrap(self._b, self._b.getitem(self._raw, _unwrap_key(key)))

    def __setitem__(self, key: Any, value: Any, /) -> None:
        b = self._b
        if type(value) is Array:
            _check_same_backend(b, value, "__setitem__")
            value = value._raw
        elif not isinstance(value, SCALAR_TYPES) and not b.is_native(value):
            raise TypeError(
                f"Array.__setitem__ ({b.name}): value must be an array or a Python scalar, "
                f"got {type(value).__name__}"
            )
        self._raw = b.setitem(self._raw, _unwrap_key(key), value)

    def __iter__(self) -> Iterator[Array]:
        """Iterate over the first axis (defined by the standard for 1-D arrays)."""
        if self.ndim == 0:
            raise TypeError("Array.__iter__: iteration over a 0-d array")
        for i in range(self._b.shape_of(self._raw)[0] or 0):
            yield self[i]

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("Array.__len__: len() of a 0-d array")
        return self._b.shape_of(self._raw)[0]  # type: ignore[return-value]

    # -- display ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        b = self._b
        return (
            f"Array({b.format_values(self._raw)}, dtype={b.dtype_name(self.dtype)}, "
            f"device={self.device}, backend={b.name})"
        )

    def __str__(self) -> str:
        return self._b.format_values(self._raw)

    # -- pickling ---------------------------------------------------------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        return (Array, (self._raw,))

    # Operators are attached below, generated from one table.
    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...


def _wrap(backend: Backend, raw: Any) -> Array:
    array = _new_object(Array)
    array._raw = raw if type(raw) is backend.array_type else backend.normalize(raw)
    array._b = backend
    return array


def _check_same_backend(backend: Backend, other: Array, where: str) -> None:
    if other._b is not backend:
        raise TypeError(
            f"Array.{where}: cannot mix a {backend.name} array with a {other._b.name} array; "
            f"convert one first (eagerpy_xp.convert / to_device)"
        )


def _unwrap_key(key: Any) -> Any:
    if type(key) is Array:
        return key._raw
    if type(key) is tuple:
        return tuple(k._raw if type(k) is Array else k for k in key)
    return key


def _unwrap_nested(obj: Any) -> Any:
    if type(obj) is Array:
        return obj._raw
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unwrap_nested(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _unwrap_nested(v) for k, v in obj.items()}
    return obj


# -- operators --------------------------------------------------------------------------------
# (dunder, backend function, kind): "binary" has a reflected and an in-place form too.
_BINARY_OPERATORS = (
    ("add", "add"),
    ("sub", "subtract"),
    ("mul", "multiply"),
    ("truediv", "divide"),
    ("floordiv", "floor_divide"),
    ("mod", "remainder"),
    ("pow", "pow"),
    ("matmul", "matmul"),
    ("and", "bitwise_and"),
    ("or", "bitwise_or"),
    ("xor", "bitwise_xor"),
    ("lshift", "bitwise_left_shift"),
    ("rshift", "bitwise_right_shift"),
)
_COMPARISONS = (
    ("eq", "equal"),
    ("ne", "not_equal"),
    ("lt", "less"),
    ("le", "less_equal"),
    ("gt", "greater"),
    ("ge", "greater_equal"),
)
_UNARY_OPERATORS = (
    ("abs", "abs"),
    ("neg", "negative"),
    ("pos", "positive"),
    ("invert", "bitwise_invert"),
)


def _operand(self: Array, other: Any) -> Any:
    """The native form of an operator's other operand, or NotImplemented."""
    if type(other) is Array:
        if other._b is not self._b:
            _check_same_backend(self._b, other, "operator")
        return other._raw
    if isinstance(other, SCALAR_TYPES) or self._b.is_native(other):
        return other
    return NotImplemented


def _make_binary(function: str) -> tuple[Callable[..., Any], ...]:
    get = operator.attrgetter(function)

    def forward(self: Array, other: Any, /) -> Any:
        b = self._b
        if type(other) is Array:
            if other._b is not b:
                _check_same_backend(b, other, "operator")
            other = other._raw
        elif not isinstance(other, SCALAR_TYPES) and not b.is_native(other):
            return NotImplemented
        raw = get(b)(self._raw, other)
        array = _new_object(Array)
        array._raw = raw if type(raw) is b.array_type else b.normalize(raw)
        array._b = b
        return array

    def reflected(self: Array, other: Any, /) -> Any:
        o = _operand(self, other)
        if o is NotImplemented:
            return NotImplemented
        b = self._b
        return _wrap(b, get(b)(o, self._raw))

    def inplace(self: Array, other: Any, /) -> Array:
        o = _operand(self, other)
        if o is NotImplemented:
            return NotImplemented  # type: ignore[no-any-return]
        b = self._b
        self._raw = b.assign(self._raw, get(b)(self._raw, o), function)
        return self

    return forward, reflected, inplace


def _make_unary(function: str) -> Callable[..., Any]:
    get = operator.attrgetter(function)

    def unary(self: Array, /) -> Array:
        b = self._b
        raw = get(b)(self._raw)
        array = _new_object(Array)
        array._raw = raw if type(raw) is b.array_type else b.normalize(raw)
        array._b = b
        return array

    return unary


def _attach_operators() -> None:
    for dunder, function in _BINARY_OPERATORS:
        forward, reflected, inplace = _make_binary(function)
        for name, method in ((f"__{dunder}__", forward), (f"__r{dunder}__", reflected),
                             (f"__i{dunder}__", inplace)):  # fmt: skip
            method.__name__ = method.__qualname__ = name
            setattr(Array, name, method)
    for dunder, function in _COMPARISONS:
        method = _make_binary(function)[0]
        method.__name__ = method.__qualname__ = f"__{dunder}__"
        setattr(Array, f"__{dunder}__", method)
    for dunder, function in _UNARY_OPERATORS:
        method = _make_unary(function)
        method.__name__ = method.__qualname__ = f"__{dunder}__"
        setattr(Array, f"__{dunder}__", method)


_attach_operators()
