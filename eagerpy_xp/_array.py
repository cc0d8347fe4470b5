"""`Array`: the standard's array object, one class for every backend.

An `Array` wraps one native array (`.raw`) and the backend that owns it.  Every operator
calls that backend's function of the same name, so ``x + y`` and ``xp.add(x, y)`` can
never disagree.  Mutation (``__setitem__``, in-place operators) goes through the
backend's ``setitem``/``assign`` hooks: mutable frameworks write into the buffer,
immutable ones (JAX, TensorFlow) hand back a new array that the wrapper rebinds to.
Where writes rebind (`BackendCore.writes_in_place` False), a write is a
read-modify-write of ``_raw``: it runs under a lock (`_writes.write`), and a basic-indexing
result writes through to the array it was taken from (`_VIEW`; docs/guide.md,
"Writes, threads and views").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from ._conversions import ArrayConversions
from ._detect import (
    REGISTRY,
    SCALAR_TYPES,
    backend_for,
    backend_of_type,
    namespace_module,
    plain_scalar,
)
from ._devices import Device
from ._dtypes import LANE_MAX, LANE_MIN
from ._spec import (
    ARITHMETIC_OPERATORS,
    BINARY_DUNDERS,
    COMPARISON_OPERATORS,
    SUPPORTED_API_VERSIONS,
    UNARY_DUNDERS,
    operator_function,
)
from ._writes import Permuted, Store, Update, raise_as, rebind, write
from .native._base.fastpath import NO_TABLE, OperatorTable, table_of

if TYPE_CHECKING:
    from .native._base import Backend

_new_object = object.__new__


# -- operators ---------------------------------------------------------------------------------
class _NativeArray(Protocol):
    """What a type checker accepts as a native array operand (any framework's array)."""

    @property
    def shape(self) -> Any: ...
    @property
    def dtype(self) -> Any: ...


#: The other operand of an `Array` operator: an `Array` of the same backend, a Python
#: scalar or a native array of the same framework.
Operand: TypeAlias = "Array | bool | int | float | complex | _NativeArray"
BinaryOperator: TypeAlias = "Callable[[Array, Operand], Array]"
UnaryOperator: TypeAlias = "Callable[[Array], Array]"


def _operand(self: Array, other: Any, dunder: str) -> Any:
    """The native form of an operator's other operand, or NotImplemented (`_foreign`)."""
    if type(other) is Array:
        if other._b is not self._b:
            _check_same_backend(self._b, other, dunder)
        return other._raw
    if isinstance(other, SCALAR_TYPES) or self._b.is_native(other):
        return other
    return _foreign(self._b, other, dunder)


def _foreign(backend: Backend, other: Any, dunder: str) -> Any:
    """An operand that is neither an array of ``backend`` nor a Python scalar: the
    contract's `TypeError` for another framework's array or NumPy scalar (NumPy, torch,
    JAX and Dask would refuse too, with messages that name no backend, or ``==`` would
    fall back to identity and say False; TensorFlow and MLX would convert it and hand
    back their own array); NotImplemented for any other object, as Python's data model
    asks (its reflected operator gets its turn: xarray's ``DataArray``, for one)."""
    owner = backend_of_type(type(other))
    if owner not in REGISTRY:
        return NotImplemented
    what = f"{type(other).__module__}.{type(other).__qualname__}"
    scalar = owner == "numpy" and type(other).__name__ != "ndarray"
    hint = " (a NumPy scalar: pass float(value), int(value) or complex(value))" if scalar else ""
    raise TypeError(
        f"eagerpy_xp.{backend.name}.Array.{dunder}: cannot mix a {backend.name} Array with "
        f"a {owner} array, got {what}{hint}; convert it first (xp.asarray(value), "
        f"eagerpy_xp.convert)"
    )


def _named(method: Any, dunder: str, function: str) -> Any:
    """``method`` named ``Array.<dunder>``, with the backend ``function`` it calls (its
    plan's key) as ``method.function``."""
    method.__name__ = dunder
    method.__qualname__ = f"Array.{dunder}"
    method.function = function
    return method


def _binary_operator(dunder: str) -> BinaryOperator:
    """``self <op> other`` (``other <op> self`` for a reflected ``dunder``, ``__radd__``):
    the backend function of `_spec.operator_function`, wrapped.

    The fast case (the operator's case in ``self``'s `fastpath.OperatorTable`: another
    array of the same table, a Python float, or a Python int in the lane) calls the op
    here, without the function's frame; the result is the function's own, and an
    exception reruns the call through the function, which raises the contract's error.
    A Python scalar the plan turns into an operand (`fastpath.BinaryPlan.scalar`) takes
    the plan; anything else, the function.
    """
    function = operator_function(dunder)
    reflected = dunder not in ARITHMETIC_OPERATORS and dunder not in COMPARISON_OPERATORS
    position = BINARY_DUNDERS.index(dunder)

    def operate(self: Array, other: Any, /) -> Array:  # other: an `Operand`
        kind = type(other)
        table = self._ops
        # (the one test of each fast case: a table holds for one backend, one dtype, the
        # exact type; its cases are None where the operator has none for that dtype)
        if kind is Array:
            case = table.arrays[position] if other._ops is table else None
            operand = other._raw
        elif kind is float:
            case = table.floats[position]
            operand = other
        elif kind is int:
            case = table.ints[position] if LANE_MIN <= other <= LANE_MAX else None
            operand = other
        else:
            case = None
        if case is not None:
            op, result, dtype = case
            try:
                raw = op(operand, self._raw) if reflected else op(self._raw, operand)
            except Exception:  # the function raises the contract's error
                pass
            else:
                array = _new_object(Array)  # (`new_array`, written out: see there)
                array._raw = raw if type(raw) is table.array_type else table.backend.normalize(raw)
                array._b = table.backend
                array._dt = dtype
                array._ops = result
                return array
        b = self._b
        plan = b.operator_plans[function]
        x = self._raw
        if kind is Array:
            if other._b is not b:
                _check_same_backend(b, other, dunder)
            other = other._raw
        elif kind in plan.scalar_types and type(x) is plan.array_type:
            dtype = self._dt
            if dtype in (plan.first if reflected else plan.dtypes):
                try:  # the operand as `fastpath.BinaryCase` says
                    operand = other if plan.scalar is None else plan.scalar(other, dtype)
                    if operand is not None:
                        raw = plan.scalar_op(operand, x) if reflected else \
                            plan.scalar_op(x, operand)  # fmt: skip
                        if raw is not None:
                            if type(raw) is not plan.array_type:
                                raw = b.normalize(raw)
                            array = _new_object(Array)  # (`new_array`, written out)
                            array._raw = raw
                            array._b = b
                            array._dt = result = raw.dtype  # (NumPy's scalar may change it)
                            table = self._ops if result is dtype else \
                                b.operator_tables.get(result, NO_TABLE)  # (`table_of`) # fmt: skip
                            array._ops = table if type(raw) is table.array_type else NO_TABLE
                            return array
                except Exception:  # the function raises the contract's error
                    pass
        elif not isinstance(other, SCALAR_TYPES) and not b.is_native(other):
            return _foreign(b, other, dunder)  # type: ignore[no-any-return]
        return _through(b, plan.function, dunder, other, x) if reflected else \
            _through(b, plan.function, dunder, x, other)  # fmt: skip

    return _named(operate, dunder, function)  # type: ignore[no-any-return]


def _through(b: Backend, function: Callable[..., Any], dunder: str, *args: Any) -> Array:
    """An operator whose fast case does not hold: the backend's ``function`` (the plan's)
    on the native operands, its error the contract's naming ``dunder``."""
    try:
        raw = function(*args)
    except Exception as exc:
        raise_as(b, exc, dunder)
    return as_array(b, raw)


def _inplace_operator(dunder: str) -> BinaryOperator:
    """``self <op>= other``: the backend's ``assign`` writes (or rebinds) the result;
    where writes rebind, under the array's write lock (`_writes.write`), so that the operand
    read and the result stored are one step for other threads."""
    function = operator_function(dunder)

    def inplace(self: Array, other: Operand, /) -> Array:
        o = _operand(self, other, dunder)
        if o is NotImplemented:
            return NotImplemented
        b = self._b
        if not b.writes_in_place:
            write(self, Update(b, dunder, getattr(b, function), o), o)
            return self
        try:
            raw = b.assign(self._raw, getattr(b, function)(self._raw, o), dunder)
        except Exception as exc:
            raise_as(b, exc, dunder)
        rebind(self, b, raw)  # (the dtype is the same: rebound together)
        return self

    return _named(inplace, dunder, function)  # type: ignore[no-any-return]


def _unary_operator(dunder: str) -> UnaryOperator:
    """``<op> self``: the backend function of `_spec.operator_function`, wrapped; its
    fast case (in ``self``'s `fastpath.OperatorTable`) calls the op here, as
    `_binary_operator` does."""
    function = operator_function(dunder)
    position = UNARY_DUNDERS.index(dunder)

    def unary(self: Array, /) -> Array:
        table = self._ops
        case = table.unary[position]
        if case is not None:
            op, result, dtype = case
            try:
                raw = op(self._raw)
            except Exception:
                raw = None
            if raw is not None:  # (None: a checked op's dtype is not the case's)
                array = _new_object(Array)  # (`new_array`, written out: see there)
                array._raw = raw if type(raw) is table.array_type else table.backend.normalize(raw)
                array._b = table.backend
                array._dt = dtype
                array._ops = result
                return array
        b = self._b
        return _through(b, b.operator_plans[function].function, dunder, self._raw)

    return _named(unary, dunder, function)  # type: ignore[no-any-return]


def _basic(key: tuple[Any, ...], negative_steps: bool) -> bool:
    """Whether a tuple ``key`` is a basic index `index_case` takes: ints, slices (with a
    positive or no step unless ``negative_steps``), None and at most one ellipsis."""
    ellipsis = False
    for k in key:
        kind = type(k)
        if kind is int or k is None:
            continue
        if kind is slice:
            if not negative_steps:
                step = k.step
                if not (step is None or (type(step) is int and step > 0)):
                    return False
        elif k is Ellipsis and not ellipsis:
            ellipsis = True
        else:
            return False
    return True


def permuting_view(lifted: Callable[..., Any], name: str) -> Callable[..., Any]:
    """The wrapped ``permute_dims`` or ``moveaxis`` of a backend whose writes rebind:
    its result writes through to its argument (`_VIEW`), as NumPy's transposes do."""

    def viewing(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        out = lifted(x, *args, **kwargs)
        if type(x) is Array and type(out) is Array and out is not x:
            ndim = len(x._b.shape_of(x._raw))
            # which axis of ``x`` each axis of ``out`` is: permute positions 0..ndim-1
            if name == "permute_dims":
                axes = args[0] if args else kwargs["axes"]
                order = tuple(int(a) % ndim for a in axes)
            else:  # moveaxis(x, source, destination, /), the spec's positional-only
                source, destination = ([a] if isinstance(a, int) else list(a) for a in args[:2])
                moved = [int(a) % ndim for a in source]
                listed = [a for a in range(ndim) if a not in moved]
                for d, a in sorted(zip((int(d) % ndim for d in destination), moved)):
                    listed.insert(d, a)
                order = tuple(listed)
            out._view = (x, Permuted(order))
        return out

    viewing.__signature__ = lifted.__signature__  # type: ignore[attr-defined]
    viewing.__name__ = viewing.__qualname__ = name
    viewing.__doc__ = lifted.__doc__
    viewing.__wrapped_native__ = lifted.__wrapped_native__  # type: ignore[attr-defined]
    return viewing


class Array(ArrayConversions):
    """A standard-conformant array wrapping a native NumPy/PyTorch/JAX/TensorFlow array."""

    #: ``_raw``: the native array; ``_b``: its backend; ``_dt``: ``_raw.dtype``, read once
    #: when the `Array` is made (or known from the fast case that made it), so that
    #: operators and ``.dtype`` read a slot, not the framework's dtype getter (torch's
    #: `Tensor.dtype` and JAX's are some 50 to 100 ns each); ``_ops``: the operators' fast
    #: cases for that dtype (`fastpath.OperatorTable`, `fastpath.table_of`).  Every
    #: assignment of ``_raw`` assigns ``_dt`` and ``_ops`` with it.  ``_view`` (`_VIEW`), set only on a basic-indexing result
    #: of a backend whose writes rebind: ``(parent, key)``, where its writes go too.
    __slots__ = ("_raw", "_b", "_dt", "_ops", "_view", "__weakref__")
    __hash__ = None  # type: ignore[assignment]
    # NumPy: `ndarray <op> Array` defers to our reflected operators (a priority above
    # ndarray's, and no `__array_ufunc__`), and NumPy's functions (`np.sin(x)`) convert
    # the Array through `__array__`, as they convert array_api_strict's arrays.
    __array_priority__ = 1000.0

    _raw: Any
    _b: Backend
    _dt: Any
    _ops: OperatorTable
    _view: tuple[Array, Any]

    def __init__(self, raw: Any) -> None:
        if type(raw) is Array:
            raw, backend = raw._raw, raw._b
        else:
            backend = backend_for(raw, "Array")
        self._raw = raw = backend.normalize(raw)
        self._b = backend
        self._dt = raw.dtype
        self._ops = table_of(backend, raw, self._dt)

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
        """The data type: the framework's own dtype object (``xp.float32`` compares equal),
        or the wrapped flavour's own where the framework's do not behave (MLX's)."""
        objects = self._b.wrapped_dtypes
        return self._dt if objects is None else objects[self._dt]

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
        try:
            return as_array(self._b, self._b.matrix_transpose(self._raw))
        except Exception as exc:
            raise_as(self._b, exc, "Array.mT")

    @property
    def T(self) -> Array:
        """The transpose of a 2-D array (the standard defines ``T`` for 2-D arrays only:
        other ranks raise `ValueError`; ``mT`` or ``permute_dims`` serve them)."""
        if self.ndim != 2:
            raise ValueError(
                f"eagerpy_xp.{self._b.name}.Array.T: defined for 2-D arrays only, got shape "
                f"{self.shape}; use x.mT or permute_dims for other ranks"
            )
        return as_array(self._b, self._b.permute_dims(self._raw, (1, 0)))

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
            raise ValueError(
                f"eagerpy_xp.{self._b.name}.Array.__array_namespace__: unsupported api_version {api_version!r}; "
                f"supported: {', '.join(SUPPORTED_API_VERSIONS)}"
            )
        return namespace_module(self._b.name, True)

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """A copy on ``device`` (a `Device`, its string or the framework's device object)."""
        try:
            return as_array(self._b, self._b.to_device(self._raw, device, stream=stream))
        except Exception as exc:
            raise_as(self._b, exc, "Array.to_device")

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key: Any, /) -> Array:
        b = self._b
        x = self._raw
        plan = b.index_plan
        t = plan.array_type
        if type(x) is t:  # a basic key: the backend's case (`fastpath.IndexPlan`)
            # Each kind of key is classified here, inline (a call costs a third of a
            # floor): ``reverse`` is taken for a key whose only other trouble is a slice
            # with a step other than None or a positive int, where the case has no
            # negative steps; any other key goes to `getitem`.
            kind = type(key)
            raw = None
            try:
                if kind is slice:
                    step = None if plan.negative_steps else key.step  # (any step: not read)
                    if step is None or (type(step) is int and step > 0):
                        take = plan.take
                        raw = x[key] if take is None else take(x, key)
                    elif plan.flip is not None and type(step) is int and step == -1 \
                            and key.start is None and key.stop is None:  # fmt: skip
                        raw = plan.flip(x)  # x[::-1]
                    elif plan.reverse is not None:
                        raw = plan.reverse(x, key)
                elif kind is int:
                    # (NumPy's `x[0]` of a 1-D array is a scalar, `x[0, ...]` not)
                    index = (key, ...) if plan.int_ellipsis else key
                    take = plan.take
                    raw = x[index] if take is None else take(x, index)
                elif kind is tuple:
                    # `_basic` written out (its call alone costs about a floor), with the
                    # flip's case told apart: a negative step where the case has none
                    negative_steps = plan.negative_steps  # (then no step is read)
                    ellipsis = stepped = False
                    for k in key:
                        item = type(k)
                        if item is int or k is None:
                            continue
                        if item is slice:
                            if not negative_steps:
                                step = k.step
                                if not (step is None or (type(step) is int and step > 0)):
                                    stepped = True
                        elif k is Ellipsis and not ellipsis:
                            ellipsis = True
                        else:
                            break
                    else:  # a basic key
                        if not stepped:
                            take = plan.take
                            raw = x[key] if take is None else take(x, key)
                        elif plan.reverse is not None:
                            raw = plan.reverse(x, key)
                elif key is None or key is Ellipsis:
                    take = plan.take
                    raw = x[key] if take is None else take(x, key)
            except Exception:  # the full path raises the contract's error
                raw = None
            if raw is not None:
                array = _new_object(Array)  # (`new_array`, written out: see there)
                array._b = b
                array._dt = dtype = self._dt  # (a basic index keeps the dtype)
                if type(raw) is t:  # (of the array's own type: its table too)
                    array._raw = raw
                    array._ops = self._ops
                else:
                    array._raw = raw = b.normalize(raw)
                    array._ops = table_of(b, raw, dtype)
                if plan.views:  # writes rebind: the result writes through to ``self`` (`_VIEW`)
                    array._view = (self, key)
                return array
        raw_key = _unwrap_key(key)
        array = as_array(b, b.getitem(x, raw_key))
        if plan.views and _is_basic(raw_key):
            array._view = (self, raw_key)
        return array

    def __setitem__(self, key: Any, value: Any, /) -> None:
        b = self._b
        if type(value) is Array:
            _check_same_backend(b, value, "__setitem__")
            value = value._raw
        elif isinstance(value, SCALAR_TYPES):
            value = plain_scalar(value)  # (NumPy's float64 scalar: a Python float)
        elif not b.is_native(value):
            raise TypeError(
                f"eagerpy_xp.{b.name}.Array.__setitem__: value must be an array or a Python scalar, "
                f"got {type(value).__name__}"
            )
        if not b.writes_in_place:  # a read-modify-write: under a lock, and through views
            write(self, Store(b, _unwrap_key(key), value), value)
            return
        rebind(self, b, b.setitem(self._raw, _unwrap_key(key), value))

    def __iter__(self) -> Iterator[Array]:
        """Iterate over the first axis (defined by the standard for 1-D arrays)."""
        if self.ndim == 0:
            raise TypeError(f"eagerpy_xp.{self._b.name}.Array.__iter__: iteration over a 0-d array")
        size = self._b.shape_of(self._raw)[0]
        if size is not None:
            for i in range(size):
                yield self[i]
            return
        # an unknown size (a lazy mask's result): positions until one is out of range (each
        # `self[i]` finds the size, as indexing a position there does)
        i = 0
        while True:
            try:
                item = self[i]
            except IndexError:
                return
            yield item
            i += 1

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError(f"eagerpy_xp.{self._b.name}.Array.__len__: len() of a 0-d array")
        return self._b.shape_of(self._raw)[0]  # type: ignore[return-value]

    # -- pickling ---------------------------------------------------------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        return (Array, (self._raw,))

    # -- operators: each calls the backend function of the same meaning ----------------------
    __add__ = _binary_operator("__add__")
    __sub__ = _binary_operator("__sub__")
    __mul__ = _binary_operator("__mul__")
    __truediv__ = _binary_operator("__truediv__")
    __floordiv__ = _binary_operator("__floordiv__")
    __mod__ = _binary_operator("__mod__")
    __pow__ = _binary_operator("__pow__")
    __matmul__ = _binary_operator("__matmul__")
    __and__ = _binary_operator("__and__")
    __or__ = _binary_operator("__or__")
    __xor__ = _binary_operator("__xor__")
    __lshift__ = _binary_operator("__lshift__")
    __rshift__ = _binary_operator("__rshift__")

    __radd__ = _binary_operator("__radd__")
    __rsub__ = _binary_operator("__rsub__")
    __rmul__ = _binary_operator("__rmul__")
    __rtruediv__ = _binary_operator("__rtruediv__")
    __rfloordiv__ = _binary_operator("__rfloordiv__")
    __rmod__ = _binary_operator("__rmod__")
    __rpow__ = _binary_operator("__rpow__")
    __rmatmul__ = _binary_operator("__rmatmul__")
    __rand__ = _binary_operator("__rand__")
    __ror__ = _binary_operator("__ror__")
    __rxor__ = _binary_operator("__rxor__")
    __rlshift__ = _binary_operator("__rlshift__")
    __rrshift__ = _binary_operator("__rrshift__")

    __iadd__ = _inplace_operator("__iadd__")
    __isub__ = _inplace_operator("__isub__")
    __imul__ = _inplace_operator("__imul__")
    __itruediv__ = _inplace_operator("__itruediv__")
    __ifloordiv__ = _inplace_operator("__ifloordiv__")
    __imod__ = _inplace_operator("__imod__")
    __ipow__ = _inplace_operator("__ipow__")
    __imatmul__ = _inplace_operator("__imatmul__")
    __iand__ = _inplace_operator("__iand__")
    __ior__ = _inplace_operator("__ior__")
    __ixor__ = _inplace_operator("__ixor__")
    __ilshift__ = _inplace_operator("__ilshift__")
    __irshift__ = _inplace_operator("__irshift__")

    # comparisons give arrays; ``__eq__``/``__ne__`` take any object (as `object`'s do)
    __eq__ = _binary_operator("__eq__")  # type: ignore[assignment]
    __ne__ = _binary_operator("__ne__")  # type: ignore[assignment]
    __lt__ = _binary_operator("__lt__")
    __le__ = _binary_operator("__le__")
    __gt__ = _binary_operator("__gt__")
    __ge__ = _binary_operator("__ge__")

    __abs__ = _unary_operator("__abs__")
    __neg__ = _unary_operator("__neg__")
    __pos__ = _unary_operator("__pos__")
    __invert__ = _unary_operator("__invert__")


def new_array(backend: Backend, raw: Any, dtype: Any) -> Array:
    """The one constructor of an `Array` from a native array: ``raw`` (of ``backend``,
    normalized) and its ``dtype``, without `Array.__init__`'s detection.  The hot paths
    (`Array`'s operators and basic indexing, the wrapped flavour's lifts) write these four
    lines out once each instead of calling it (a call costs some 50 ns there, a quarter
    of what a bare Python wrapper adds); ``tests/test_fastpaths.py`` checks every `Array`
    they make against it."""
    array = _new_object(Array)
    array._raw = raw
    array._b = backend
    array._dt = dtype
    array._ops = table_of(backend, raw, dtype)
    return array


def as_array(backend: Backend, raw: Any) -> Array:
    """An `Array` of a result of ``backend``'s: `normalize`d unless it is of the
    backend's canonical type, its dtype read."""
    if type(raw) is not (backend.canonical_type or backend.array_type):
        raw = backend.normalize(raw)
    return new_array(backend, raw, raw.dtype)


def _check_same_backend(backend: Backend, other: Array, where: str) -> None:
    if other._b is not backend:
        raise TypeError(
            f"eagerpy_xp.{backend.name}.Array.{where}: cannot mix a {backend.name} array with a {other._b.name} array; "
            f"convert one first (eagerpy_xp.convert / to_device)"
        )


def _is_basic(key: Any) -> bool:
    """Whether ``key`` is a basic index (ints, slices, None, an ellipsis), whose result
    a view records (`_VIEW`)."""
    kind = type(key)
    if kind is tuple:
        return _basic(key, True)
    return kind is int or kind is slice or key is None or key is Ellipsis


#: Views where writes rebind.  On NumPy and torch a basic-indexing result is a view: a
#: write into it changes the array it was taken from.  Where writes rebind (JAX,
#: TensorFlow, Dask, MLX) the wrapped flavour does the same for the write: the result
#: records ``(parent, key)`` in ``_view`` and `_writes.write` writes it through, chain-wise, so
#: ``c = covariances[k]; c[i, i] = v`` changes ``covariances`` (scikit-learn's pattern).
#: ``permute_dims`` and ``moveaxis`` results are views too (`_writes.Permuted` as the key).
#: What stays a copy there: a parent's write is not seen by an older view until the
#: view's own next write; results of anything else (``reshape``, ``mT``, an
#: integer-array or boolean key) do not write through, as NumPy's copies do not.
_VIEW = "_view"


def _unwrap_key(key: Any) -> Any:
    if type(key) is Array:
        return key._raw
    if type(key) is tuple:
        return tuple(k._raw if type(k) is Array else k for k in key)
    return key

