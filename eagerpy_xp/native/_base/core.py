"""The hooks every backend provides: dtypes, devices, scalars, indexing, mutation, DLPack.

`BackendCore` holds the parts of a backend that are not functions of the standard.  The
defaults suit a NumPy-like framework (mutable arrays, ``x[key]`` indexing); a backend
overrides what its framework does differently.
"""

from __future__ import annotations

import functools
import inspect
import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NoReturn, TypeAlias, TypeVar

from ..._detect import SCALAR_TYPES, plain_scalar
from ..._devices import Device
from ..._dtypes import (
    ALL,
    CATEGORIES,
    CATEGORY_OF,
    COMPLEX_OF_REAL,
    INT_RANGE,
    KINDS,
    kind_of,
    promote,
    scalar_kind_ok,
)
from .keys import as_it_is, standard_key

#: Kind order for mixed-kind promotion, which the standard leaves unspecified.
KIND_RANK = {"bool": 0, "signed integer": 1, "unsigned integer": 1, "real floating": 2,
              "complex floating": 3}  # fmt: skip


#: ``call(*raws) -> (value, aux)``: the function an autodiff engine differentiates.
GradCall = Callable[..., tuple[Any, Any]]


class Autodiff:
    """A backend's automatic differentiation (the hook behind `eagerpy_xp.value_and_grad`).

    The generic front end (`eagerpy_xp.extensions.autodiff`) checks arguments and handles
    flavours; an engine only knows its framework: dtype and shape facts, and one
    value-and-gradient run on native arrays.
    """

    def is_real_floating(self, raw: Any) -> bool:
        raise NotImplementedError

    def shape(self, raw: Any) -> tuple[int | None, ...] | None:
        """The static shape, or None where even the rank is unknown (traced code)."""
        return tuple(raw.shape)

    def run(self, call: GradCall, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        """``call(*raws)`` returns ``(value, aux)``; return value, aux and the gradients."""
        raise NotImplementedError


class AxisError(ValueError, IndexError):
    """An axis out of range for an array (both a `ValueError` and an `IndexError`, as
    NumPy's: the standard names no exception type)."""

    # Exception's own constructor (ValueError's behaves the same): TensorFlow's AutoGraph
    # re-raises an error from traced code as its own type only for types built that
    # way or listed by it, and as its StagingError otherwise.
    __init__ = Exception.__init__


_Method = TypeVar("_Method", bound=Callable[..., Any])

#: Positional-only parameters of the standard that must be arrays -> the category their
#: dtype must have (None: the function's, `_dtypes.CATEGORY_OF`).
_ARRAY_PARAMETERS: dict[str, str | None] = {"x": None, "condition": "boolean",
                                            "indices": "integer"}  # fmt: skip
#: Functions whose ``x1`` and ``x2`` must be arrays; elsewhere (element-wise functions,
#: ``where``, ``isin``, ``searchsorted``'s ``x2``) either may be a Python scalar.
_ARRAY_OPERANDS = frozenset({"matmul", "tensordot", "vecdot", "cross", "outer", "solve"})

#: Parameters of the standard that take a Python scalar (beside ``x1``/``x2`` of the
#: element-wise functions): a subclass instance there (NumPy's float64 scalar) is passed
#: on as the Python scalar it is (`_detect.plain_scalar`).
_SCALAR_PARAMETERS = frozenset({"fill_value", "min", "max", "start", "stop", "step"})

#: What `translated` checks of one argument: its position, the category its dtype must
#: have (None: any dtype the backend accepts), whether a Python scalar may stand there,
#: and its form: "array", "sequence" (a list or tuple of arrays: ``concat``'s
#: ``arrays``) or "rest" (every remaining argument: ``*arrays``).
_Check = tuple[int, "str | None", bool, str]


_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
_CO_VARARGS = inspect.CO_VARARGS


def _parameters(function: Callable[..., Any]) -> list[tuple[str, Any]]:
    """``(name, kind)`` of each parameter of ``function`` after ``self``: what
    `inspect.signature` would say of them, read from the code object (a class of a backend
    defines hundreds of these methods at import: a `inspect.Signature` each would cost
    more than the rest of the import).  A function that carries another's signature
    (``__wrapped__``, ``__signature__``) or has no plain code object is asked the long way."""
    code = getattr(function, "__code__", None)
    if code is None or hasattr(function, "__wrapped__") or hasattr(function, "__signature__"):
        return [(p.name, p.kind) for p in list(inspect.signature(function).parameters.values())[1:]]
    names = code.co_varnames
    positional = code.co_argcount
    keyword_only = code.co_kwonlyargcount
    kinds: list[tuple[str, Any]] = [
        (names[i], _POSITIONAL_ONLY if i < code.co_posonlyargcount
         else inspect.Parameter.POSITIONAL_OR_KEYWORD) for i in range(positional)
    ]  # fmt: skip
    if code.co_flags & _CO_VARARGS:
        kinds.append((names[positional + keyword_only], _VAR_POSITIONAL))
    kinds.extend((names[i], inspect.Parameter.KEYWORD_ONLY)
                 for i in range(positional, positional + keyword_only))  # fmt: skip
    return kinds[1:]


def _checks(function: Callable[..., Any], parameters: list[tuple[str, Any]]) -> tuple[_Check, ...]:
    """The array arguments of a function of the standard (its ``parameters`` after
    ``self``, `_parameters`) that `translated` checks (``from_dlpack``'s ``x`` is any
    object with ``__dlpack__``, of any library)."""
    name = function.__name__
    category = CATEGORY_OF.get(name)
    checks: list[_Check] = []
    if name == "from_dlpack":
        return ()
    for i, (parameter, kind) in enumerate(parameters):
        if kind is _VAR_POSITIONAL and parameter == "arrays":
            checks.append((i, None, False, "rest"))
        elif kind is not _POSITIONAL_ONLY:
            continue
        elif parameter in _ARRAY_PARAMETERS:
            checks.append((i, _ARRAY_PARAMETERS[parameter] or category, False, "array"))
        elif parameter in ("x1", "x2"):
            scalars = name not in _ARRAY_OPERANDS and (name, parameter) != ("searchsorted", "x1")
            checks.append((i, None if name == "where" else category, scalars, "array"))
        elif parameter == "arrays":
            checks.append((i, None, False, "sequence"))
    return tuple(checks)


def translated(function: _Method) -> _Method:
    """The decorated function of the standard (a method of a backend, its ``linalg`` or
    ``fft``) raises only the error contract's exceptions: a framework exception becomes
    the one `BackendCore.translate` picks, naming the function and the backend, with
    the original as ``__cause__``; where the framework's message does not name the
    offending argument, the backend's `BackendCore.explain` may (called on failure only).

    Its array arguments (``x``, ``x1``, ``x2``, ``condition``, ``indices``, ``arrays``)
    are checked first: an array of the backend's own type (`BackendCore.array_type`)
    whose dtype is of the function's category (`_dtypes.CATEGORY_OF`) passes with one
    type test and one set membership; anything else goes to
    `BackendCore.check_operand`, which raises the `TypeError` (not an array, another
    library's array, a dtype outside the category) or lets it pass (a subclass, a Python
    scalar where the standard allows one).  The ``try`` costs nothing in CPython 3.11."""
    parameters = _parameters(function)  # (its `inspect.Signature`: on failure only)
    checks = _checks(function, parameters)
    scalars_at = tuple((i, parameter) for i, (parameter, _) in enumerate(parameters)
                       if parameter in _SCALAR_PARAMETERS)  # fmt: skip
    operands = tuple(position for position, _, scalars, _ in checks if scalars)  # x1, x2
    name = function.__name__
    method: Callable[..., Any]

    if len(checks) == 1 and checks[0][3] == "array" and not scalars_at:
        (position, category, scalars, _), = checks

        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                if len(args) > position:
                    b = self._b
                    x = args[position]
                    allowed = b.accepted_dtypes[category]
                    if type(x) is not b.array_type or (allowed is not None
                                                       and x.dtype not in allowed):  # fmt: skip
                        b.check_operand(x, self._prefix + name, category, scalars)
                return function(self, *args, **kwargs)
            except Exception as exc:
                return _failed(self, exc, self._prefix + name, function, args, kwargs)

    else:

        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                b = self._b
                if scalars_at:
                    args, kwargs = _plain_scalars(scalars_at, args, kwargs)
                for position, category, scalars, form in checks:
                    if form == "rest":
                        items: Any = args[position:]
                    elif len(args) <= position:
                        continue
                    elif form == "sequence":
                        items = args[position]
                        if not isinstance(items, (list, tuple)):
                            raise b.error(self._prefix + name, f"expected a list or tuple of "
                                          f"arrays, got {type(items).__name__}", TypeError)  # fmt: skip
                    else:
                        items = (args[position],)
                    allowed = b.accepted_dtypes[category]
                    for x in items:
                        if type(x) is not b.array_type or (allowed is not None
                                                           and x.dtype not in allowed):  # fmt: skip
                            if scalars and type(x) not in _PLAIN_SCALARS and _beside_array(
                                    args, position, operands):  # fmt: skip
                                plain = plain_scalar(x)
                                if plain is not x:  # (an element-wise function's x1 or x2)
                                    args = (*args[:position], plain, *args[position + 1:])
                                    continue
                            b.check_operand(x, self._prefix + name, category, scalars)
                return function(self, *args, **kwargs)
            except Exception as exc:
                return _failed(self, exc, self._prefix + name, function, args, kwargs)

    functools.update_wrapper(method, function)
    return method  # type: ignore[return-value]


_PLAIN_SCALARS = frozenset(SCALAR_TYPES)


def _beside_array(args: tuple[Any, ...], position: int, operands: tuple[int, ...]) -> bool:
    """Whether the other operands (``x1``/``x2``) of the one at ``position`` are no
    scalars: a subclass instance of a Python scalar is made the plain scalar beside an
    array only (two NumPy scalars, as Dask's chunks of a reduction hold, stay NumPy's)."""
    return not any(isinstance(args[q], SCALAR_TYPES) for q in operands
                   if q != position and q < len(args))  # fmt: skip


def _plain_scalars(at: tuple[tuple[int, str], ...], args: tuple[Any, ...],
                   kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:  # fmt: skip
    """``args`` and ``kwargs`` with the scalar parameters ``at`` (position, name) made
    plain Python scalars (`_detect.plain_scalar`); the same objects when none changes."""
    for position, parameter in at:
        if position < len(args):
            value = args[position]
            if type(value) not in _PLAIN_SCALARS:
                plain = plain_scalar(value)
                if plain is not value:
                    args = (*args[:position], plain, *args[position + 1:])
        elif parameter in kwargs:
            value = kwargs[parameter]
            if type(value) not in _PLAIN_SCALARS:
                plain = plain_scalar(value)
                if plain is not value:
                    kwargs = {**kwargs, parameter: plain}
    return args, kwargs


#: A failed call's signature: an `inspect.Signature`, or the function whose it is (read then).
_SignatureOf: TypeAlias = "inspect.Signature | Callable[..., Any]"


def _bound(signature: _SignatureOf, owner: Any, args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The arguments of a failed call by parameter name (``self`` left out; none when
    they do not fit the signature: ``signature``'s, or that of the method it is)."""
    if not isinstance(signature, inspect.Signature):
        signature = inspect.signature(signature)  # (read here, on failure only)
    try:
        arguments = signature.bind(owner, *args, **kwargs).arguments
    except TypeError:
        return {}
    return dict(list(arguments.items())[1:])


def _failed(owner: Any, exc: Exception, function: str, signature: _SignatureOf,
            args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:  # fmt: skip
    """`translated`'s failure: the backend's `BackendCore.recover` result where it has
    one (a lazy framework's other way to the same result), else the contract's error."""
    if not str(exc).startswith("eagerpy_xp."):
        result = owner._b.recover(function, args, kwargs)
        if result is not NOT_RECOVERED:
            return result
    _raise_explained(owner, exc, function, signature, args, kwargs)


#: What `BackendCore.recover` returns when it has no result.
NOT_RECOVERED: Any = object()


def _raise_explained(owner: Any, exc: Exception, function: str, signature: _SignatureOf,
                     args: tuple[Any, ...], kwargs: dict[str, Any]) -> NoReturn:  # fmt: skip
    """`translated`'s failure: a framework exception (not one of ours) that the backend's
    `BackendCore.explain` can say more about is raised as that, else translated."""
    if not str(exc).startswith("eagerpy_xp."):
        arguments = _bound(signature, owner, args, kwargs)
        if isinstance(exc, OverflowError) and "x2" in arguments:
            explain_overflow(owner._b, function, arguments["x1"], arguments["x2"], exc)
        better = owner._b.explain(function, arguments)
        if better is not None:
            raise better from exc
    raise_translated(owner._b, exc, function)


def raise_translated(backend: Any, exc: Exception, function: str) -> NoReturn:
    """Raise `BackendCore.translate` of ``exc`` from it (``exc`` itself when it already
    keeps the contract)."""
    new = backend.translate(exc, function)
    if new is exc:
        raise exc
    raise new from exc


#: The start of a message `BackendCore.error` wrote (on any backend: the Dask backend
#: runs NumPy's functions on its chunks) ...
_OURS = re.compile(r"eagerpy_xp\.\w+\.[\w.]+: ")
#: ... and the exception types it writes them in.
_CONTRACT_TYPES = frozenset({TypeError, ValueError, IndexError, AxisError, NotImplementedError,
                             MemoryError, OverflowError})  # fmt: skip


def truncates(source: str, target: str) -> bool:
    """Whether ``x[k] = values`` stores real floating ``values`` into an integer array
    ``x`` truncated toward zero: the standard leaves a value of a dtype that does not
    promote to the array's unspecified, and NumPy and torch both store it so
    (array-api-extra's ``at(x)[i].min(1.1)`` writes ``minimum(x[i], 1.1)``).  NaN and
    infinities become what the framework's cast makes of them, as in ``astype``."""
    return kind_of(source) == "real floating" and \
        kind_of(target) in ("signed integer", "unsigned integer")  # fmt: skip


def int_range(name: str) -> tuple[int, int] | None:
    """The values of the integer dtype ``name``; None for any other dtype."""
    return INT_RANGE.get(name)


#: The comparisons: with a Python int beyond an integer array's dtype they are exact (as
#: NumPy's), every other binary function raises `OverflowError` (docs/errors.md)
COMPARISONS = frozenset({"equal", "not_equal", "less", "less_equal", "greater",
                         "greater_equal"})  # fmt: skip
_MIRRORED = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
             "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}  # fmt: skip


def int_beyond_dtype(backend: Any, function: str, x1: Any, x2: Any) -> tuple[Any, bool] | None:
    """For a Python int operand outside the range of the other operand's integer dtype:
    ``(array, value)``, where ``value`` is what a comparison ``function`` gives for every
    entry (an exact comparison: ``int8_array < 1000`` is all True); any other binary
    ``function`` raises `OverflowError` naming the int.  None when the operands are not
    such a pair."""
    if type(x2) is int:
        array, value, flipped = x1, x2, False
    elif type(x1) is int:
        array, value, flipped = x2, x1, True
    else:
        return None
    dtype = getattr(array, "dtype", None)
    if dtype is None:
        return None
    try:
        bounds = int_range(backend.dtype_name(dtype))
    except TypeError:  # not a dtype of the standard: the function's own checks decide
        return None
    if bounds is None or bounds[0] <= value <= bounds[1]:
        return None
    name = backend.dtype_name(dtype)
    if function not in COMPARISONS:
        raise backend.error(function, f"the Python int {value} does not fit {name} (the "
                            f"values of {name} are {bounds[0]} to {bounds[1]})", OverflowError)  # fmt: skip
    op = _MIRRORED[function] if flipped else function  # now: array <op> value
    above = value > bounds[1]
    result = {"equal": False, "not_equal": True, "less": above, "less_equal": above,
              "greater": not above, "greater_equal": not above}[op]  # fmt: skip
    return array, result


def explain_overflow(backend: Any, function: str, x1: Any, x2: Any, exc: Exception) -> None:
    """After the framework's `OverflowError` in a binary ``function``: the contract's,
    naming the Python int and the dtype it does not fit (`int_beyond_dtype`), from
    ``exc``; nothing when the operands are not such a pair."""
    try:
        int_beyond_dtype(backend, function, x1, x2)
    except OverflowError as ours:
        raise ours from exc


class BackendCore:
    """Backend hooks used by `Array`, the wrapped namespace and the generic functions."""

    #: The backend name: "numpy", "torch", "jax" or "tensorflow".
    name: ClassVar[str]
    #: The framework's NumPy-like namespace that generic defaults delegate to, or None
    #: for a framework without one (then the backend defines every function itself).
    _f: Any = None
    #: The framework's native array types.
    native_types: tuple[type, ...]
    #: Whether the framework's arrays can be written in place.
    mutable: ClassVar[bool] = True
    #: Whether ``x[k] = v`` and the in-place operators write into the buffer that every
    #: reference to the array (and every view of it) sees, as NumPy's and torch's do.
    #: False where a write makes a new array (or graph node) that the wrapped `Array`
    #: rebinds to (JAX, TensorFlow, Dask, MLX): there `Array` holds a lock around the
    #: read-modify-write and writes a basic-indexing result through to its parent
    #: (docs/guide.md, "Writes, threads and views").
    writes_in_place: ClassVar[bool] = True
    #: The automatic differentiation engine, or None for a framework without one.
    autodiff: ClassVar[Autodiff | None] = None
    #: Where a function of the backend lives, in error messages ("linalg." for
    #: `Linalg`, "fft." for `FFT`); `translated` reads it with ``_b``, the backend.
    _prefix: ClassVar[str] = ""
    #: The exact type of results stored without `normalize`, where it is not
    #: `array_type` (None): a type whose arrays may still need it (JAX's, which may be
    #: weakly typed) names `NeverCanonical` here.
    canonical_type: ClassVar[type | None] = None
    #: The standard's dtypes the framework holds nowhere: neither namespace has them as
    #: attributes, so clients that find dtypes by name (``hasattr``) never draw them.
    absent_dtypes: ClassVar[frozenset[str]] = frozenset()

    def __init__(self) -> None:
        self._b = self
        self.dtypes_by_name: dict[str, Any] = {n: self.native_dtype(n) for n in ALL}
        self._names_by_dtype: dict[Any, str] = {d: n for n, d in self.dtypes_by_name.items()}
        #: The wrapped flavour's dtype objects by native dtype, where the framework's do
        #: not behave as the standard's dtypes (MLX's: ``== None`` raises); None where the
        #: wrapped flavour has the framework's own (`wrapped_dtypes_by_name` by name).
        self.wrapped_dtypes: dict[Any, Any] | None = None
        self.wrapped_dtypes_by_name: dict[str, Any] = self.dtypes_by_name
        #: The type `Array` stores: results of this exact type need no `normalize`.
        self.array_type: type = self.native_types[0]
        #: Category name (`_dtypes.CATEGORIES`) -> the native dtypes of that category.
        self.category_dtypes: dict[str, frozenset[Any]] = {
            c: frozenset(self.category_members(c)) for c in CATEGORIES
        }
        #: Category (None: no category) -> the dtypes an array argument may have there,
        #: None for any (`translated` reads it on every call).
        any_dtype = self.any_dtype_members()
        self.accepted_dtypes: dict[str | None, frozenset[Any] | None] = {
            None: None if any_dtype is None else frozenset(any_dtype)}
        self.accepted_dtypes.update(self.category_dtypes)

    # -- identity ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<eagerpy_xp {self.name} backend>"

    def is_native(self, obj: Any) -> bool:
        return isinstance(obj, self.native_types)

    def normalize(self, raw: Any) -> Any:
        """The canonical native array for ``raw`` (stored in `Array.raw`)."""
        return raw

    def wrapped_result(self, result: Any) -> Any:
        """A result of the wrapped flavour that is no array, with its native dtypes as the
        wrapped flavour's (`wrapped_dtypes`): a dtype (``result_type``), the ``dtype`` of
        ``finfo``/``iinfo``; anything else as it is."""
        objects = self.wrapped_dtypes
        if objects is None:
            return result
        if hasattr(result, "__dataclass_fields__") and "dtype" in result.__dataclass_fields__:
            import dataclasses

            return dataclasses.replace(result, dtype=objects.get(result.dtype, result.dtype))
        try:
            return objects.get(result, result)
        except TypeError:  # unhashable
            return result

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """Teach the framework the wrapper class ``cls`` (`eagerpy_xp.Array`, whose
        instances hold their native array in ``.raw``; ``wrap(raw)`` makes one of this
        backend without conversion).  Called once by the assembly; by default nothing."""

    def mark_glue(self, function: Callable[..., Any]) -> None:
        """Mark a plain Python function of the wrapped layer for the framework's tracer
        (TensorFlow's AutoGraph must not convert it); by default nothing."""

    # -- compilers and vectorizers (`eagerpy_xp.jit`, `eagerpy_xp.vmap`) ----------------------
    #: Whether `compile` hands back a compiled function (False: it runs ``fn`` as it is).
    compiles: ClassVar[bool] = False

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``fn`` under the framework's compiler (``options`` are the compiler's own).

        ``fn``'s arguments and results are nests (tuples, lists, dicts) of native arrays,
        `Array`s of this backend and Python values; the compiled function keeps the
        flavour (an `Array` in gives an `Array` out).  By default ``fn`` itself: a
        framework without a compiler runs the code as it is."""
        if options:
            raise self.error("jit", f"{self.name} has no compiler, so it takes no options; "
                             f"got {sorted(options)}")  # fmt: skip
        return fn

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any] | None:  # fmt: skip
        """``fn`` mapped over an axis by the framework's own vectorizer (``in_axes``: an
        int, None, or one int or None per positional argument, as `jax.vmap`;
        ``out_axes``: an int or one per result), or None where the framework has none:
        `eagerpy_xp.vmap` then loops over the axis and stacks the results."""
        return None

    def index_case(self) -> tuple[Any, ...] | None:
        """How `Array.__getitem__` runs a basic key (ints, slices, None, the ellipsis and
        tuples of them) without `getitem`, or None to always call it: a
        `fastpath.IndexCase` ``(array_type, negative_steps, take, reverse, int_ellipsis)``.  For an array of exactly
        ``array_type`` and such a key (slices with a negative step only where
        ``negative_steps``), ``raw[key]``, or ``take(raw, key)`` where ``take`` is given
        (an int key ``i`` as ``(i, ...)`` where ``int_ellipsis``: a framework whose
        ``raw[i]`` of a 1-D array is a scalar, not a 0-d array); a key with a negative
        step where they are not: ``reverse(raw, key)`` where it is given.  A None from
        ``take`` or ``reverse``, any other key and any exception go to `getitem`, which
        raises the contract's error.  By default the framework's own indexing, where
        `getitem` is the default one (``raw[key]`` itself); a backend that overrides
        `getitem` states its case, if any."""
        if type(self).getitem is BackendCore.getitem:
            return (self.array_type,)
        return None

    def fast_case(self, function: str) -> Any:
        """The case in which the standard's element-wise ``function`` is one framework
        call, or None: a `fastpath.UnaryCase` or `fastpath.BinaryCase`
        (`fastpath.binary_case` fills one's defaults), by default the one its method records
        (``fast_case``, set by `fastpath.unary`/`binary`).  `Array`'s operators test it
        themselves and call the op directly, so the result is the function's own."""
        return getattr(getattr(type(self), function, None), "fast_case", None)

    #: Every message: `error` writes it, `translate` recognises it.
    def error(self, function: str, message: str, kind: type[Exception] = ValueError) -> Exception:
        """An exception in the contract's one format (``docs/errors.md``):
        ``eagerpy_xp.<backend>.<function>: <message>``; a dunder names the array object
        (``eagerpy_xp.torch.Array.__getitem__``)."""
        return kind(f"{self.message_prefix(function)}{message}")

    def message_prefix(self, function: str) -> str:
        """``eagerpy_xp.<backend>.<function>: `` (a dunder names the array object)."""
        if function.startswith("__"):
            function = f"Array.{function}"
        return f"eagerpy_xp.{self.name}.{function}: "

    # -- the error contract ------------------------------------------------------------------
    def translate(self, exc: Exception, function: str) -> Exception:
        """The contract's exception for ``exc``, raised inside ``function``: ``exc`` itself
        when it is already one of ours (made by `error`), else a new one of the type
        `error_kind` picks, naming the function and the backend and quoting ``exc``."""
        text = str(exc)
        ours = _OURS.match(text) if type(exc) in _CONTRACT_TYPES else None
        if ours is not None:  # error() wrote it, here or in a function this one called
            if text.startswith(self.error(function, "").args[0]):
                return exc
            return self.error(function, text[ours.end():], type(exc))
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return self.error(function, f"{first[:300]} ({type(exc).__name__})", self.error_kind(exc))

    def recover(self, function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """After the framework failed in ``function`` (called with ``args`` and
        ``kwargs``): its result computed another way, or `NOT_RECOVERED` (then the
        failure is translated).  Called only on failure; by default `NOT_RECOVERED` (Dask:
        arrays of unknown size that its own functions refuse)."""
        return NOT_RECOVERED

    def explain(self, function: str, arguments: dict[str, Any]) -> Exception | None:
        """After a framework error in ``function`` called with ``arguments`` (by parameter
        name), the contract's exception naming the offending argument where one can be
        found (an axis out of range, a non-integer size, ...), else None (the framework's
        error is translated).  Called only on failure; by default None."""
        return None

    def error_kind(self, exc: Exception) -> type[Exception]:
        """The contract's type for a framework exception: dtypes -> `TypeError`, keys and
        indices -> `IndexError`, axes -> `AxisError`, what cannot be done ->
        `NotImplementedError`, sizes beyond memory -> `MemoryError`, anything else (shapes,
        sizes, arguments, devices) -> `ValueError`.  Backends refine it from their
        framework's messages."""
        if isinstance(exc, MemoryError):
            return MemoryError
        if isinstance(exc, IndexError):  # "tuple index out of range": shape[axis] was read
            axis = isinstance(exc, ValueError) or "tuple index out of range" in str(exc)
            return AxisError if axis else IndexError
        if isinstance(exc, (TypeError, AttributeError)):
            return TypeError
        if isinstance(exc, NotImplementedError):
            return NotImplementedError
        if isinstance(exc, OverflowError):  # a Python int beyond the dtype, as torch's own
            return OverflowError
        return ValueError

    def category_members(self, category: str) -> list[Any]:
        """The native dtypes a function of ``category`` accepts: the standard's (a backend
        may add its framework's extra dtypes, such as torch's half floats)."""
        return [self.dtypes_by_name[n] for n in CATEGORIES[category]]

    def category_error(self, function: str, category: str, dtype: Any) -> TypeError:
        """The `TypeError` for an array of ``dtype`` given to a function of ``category``."""
        name = self._names_by_dtype.get(dtype, repr(dtype))
        return self.error(function, f"expected an array of a {category} dtype, got {name}",
                          TypeError)  # type: ignore[return-value]  # fmt: skip

    def check_category(self, function: str, *operands: Any) -> None:
        """`TypeError` unless every array among ``operands`` (Python scalars and None are
        skipped) has a dtype of ``function``'s category (`_dtypes.CATEGORY_OF`, by bare
        name: ``linalg.cross`` is ``cross``)."""
        category = CATEGORY_OF.get(function.rpartition(".")[2])
        if category is None:
            return
        allowed = self.category_dtypes[category]
        for operand in operands:
            dtype = getattr(operand, "dtype", None)
            if dtype is not None and dtype not in allowed:
                raise self.category_error(function, category, dtype)

    def any_dtype_members(self) -> list[Any] | None:
        """The native dtypes an array argument may have where the function has no
        category, or None for every dtype the framework's arrays have (the default;
        NumPy and Dask refuse ``object`` and string arrays)."""
        return None

    def check_operand(self, x: Any, function: str, category: str | None,
                      scalars: bool = False) -> None:  # fmt: skip
        """The slow path of `translated`'s argument check: `TypeError` unless ``x`` is an
        array of this backend (`check_array`; a Python scalar too where ``scalars``)
        whose dtype is of ``category`` (None: any the backend accepts)."""
        if scalars and type(x) in (bool, int, float, complex):
            return
        self.check_array(x, function)
        dtype = getattr(x, "dtype", None)
        allowed = self.accepted_dtypes[category]
        if dtype is not None and allowed is not None and dtype not in allowed:
            if category is None:
                raise self.error(function, f"{dtype} is not a dtype of the standard", TypeError)
            raise self.category_error(function, category, dtype)

    def check_array(self, x: Any, function: str) -> None:
        """`TypeError` unless ``x`` is an array of this backend, where the standard requires
        one (`translated` calls it); by default nothing (frameworks that refuse
        non-arrays themselves, or whose functions check)."""

    # -- dtypes ------------------------------------------------------------------------------
    def native_dtype(self, name: str) -> Any:
        """The framework dtype object for a standard dtype name."""
        raise NotImplementedError

    def dtype_name(self, dtype: Any) -> str:
        """The standard name of a framework dtype; `TypeError` for anything else."""
        try:
            return self._names_by_dtype[dtype]
        except (KeyError, TypeError):
            raise TypeError(
                f"{self.name}: {dtype!r} is not a dtype of the standard "
                f"(expected one of {', '.join(ALL)})"
            ) from None

    def check_dtype(self, dtype: Any, function: str) -> Any:
        """``dtype`` as this framework's dtype object; `ValueError` when unsupported."""
        if dtype is None:
            return None
        try:
            return self.dtypes_by_name[self.dtype_name(dtype)]
        except TypeError:
            if isinstance(dtype, str):
                hint = f" such as xp.{dtype}" if dtype in ALL else ""
                raise self.error(function, f"dtype must be a dtype object{hint}, got the "
                                 f"string {dtype!r}", TypeError) from None  # fmt: skip
            raise self.error(function, f"unsupported dtype {dtype!r}", TypeError) from None

    def required_dtype(self, dtype: Any, function: str) -> Any:
        """`check_dtype` for a dtype the standard requires (``astype``): None is a
        `TypeError` too, not "the default"."""
        if dtype is None:
            raise self.error(function, "dtype is required, got None; use a dtype object "
                                       "such as xp.float32", TypeError)  # fmt: skip
        return self.check_dtype(dtype, function)

    def dtype_names_in(self, kind: Any) -> tuple[str, ...]:
        """Dtype names of a kind (a kind name, a dtype, or a tuple of those)."""
        if isinstance(kind, tuple):
            names: list[str] = []
            for k in kind:
                names.extend(n for n in self.dtype_names_in(k) if n not in names)
            return tuple(names)
        if isinstance(kind, str):
            try:
                return KINDS[kind]
            except KeyError:
                raise ValueError(
                    f"{self.name}: unknown dtype kind {kind!r}; expected one of "
                    f"{', '.join(KINDS)}, a dtype, or a tuple of those"
                ) from None
        return (self.dtype_name(kind),)

    def promote_names(self, a: str, b: str, function: str) -> str:
        """The standard's promotion of two dtype names, extended to mixed kinds (the higher
        kind wins, as every framework does); `TypeError` for uint64 with a signed integer."""
        result = promote(a, b)
        if result is not None:
            return result
        ka, kb = KIND_RANK[kind_of(a)], KIND_RANK[kind_of(b)]
        if ka == kb:
            raise self.error(function, f"{a} and {b} have no common integer dtype", TypeError)
        high, low = (a, b) if ka > kb else (b, a)
        if kind_of(high) == "complex floating" and kind_of(low) == "real floating":
            return promote(high, COMPLEX_OF_REAL[low]) or high
        return high

    def supported_dtype_names(self) -> tuple[str, ...]:
        """The dtype names this backend supports now (JAX without x64 drops 64-bit ones)."""
        return ALL

    def default_dtype_names(self) -> dict[str, str]:
        return {
            "real floating": "float64",
            "complex floating": "complex128",
            "integral": "int64",
            "indexing": "int64",
        }

    # -- integer arguments -------------------------------------------------------------
    def check_int(self, value: Any, what: str, function: str, low: int | None = None) -> int:
        """``value`` as an int: `TypeError` unless it is one (bool excluded, anything with
        ``__index__`` accepted), `ValueError` below ``low``; both name ``what`` and the
        value."""
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise self.error(function, f"{what} must be an int, got {value!r}", TypeError)
        index = operator.index(value)
        if low is not None and index < low:
            bound = {0: "a non-negative int", 1: "a positive int"}.get(low, f"at least {low}")
            raise self.error(function, f"{what} must be {bound}, got {index}")
        return index

    def check_sizes(self, sizes: Any, what: str, function: str, unknown: bool = False
                    ) -> tuple[int, ...]:  # fmt: skip
        """A shape-like argument (an int or a sequence of ints) as a tuple of ints:
        `TypeError` for a non-integer entry, `ValueError` for a negative one (one -1 is
        allowed where ``unknown``: ``reshape``)."""
        if type(sizes) is tuple:  # the common case, plain ints: no further checks
            unknowns = 0
            for s in sizes:
                if type(s) is not int or s < -1:
                    break
                unknowns += s == -1
            else:
                if unknowns == 0 or (unknown and unknowns == 1):
                    return sizes
        if (not isinstance(sizes, (tuple, list, str, bytes)) and hasattr(sizes, "__len__")
                and hasattr(sizes, "__iter__") and not hasattr(sizes, "dtype")):  # fmt: skip
            sizes = tuple(sizes)  # a framework's own shape object (TensorShape): its entries
        items = (sizes,) if not isinstance(sizes, (tuple, list)) else sizes
        result = tuple(self.check_int(s, f"each entry of {what}", function) for s in items)
        negative = [s for s in result if s < 0]
        if negative and not (unknown and negative == [-1]):
            raise self.error(function, f"{what} {tuple(sizes) if items is sizes else sizes!r} "
                             f"has a negative entry {negative[0]}")  # fmt: skip
        return result

    # -- axes ------------------------------------------------------------------------------
    def normalize_axis(self, axis: Any, ndim: int, function: str) -> int:
        """``axis`` in ``[0, ndim)``: `TypeError` for a non-integer (bool included),
        `AxisError` outside ``[-ndim, ndim)``."""
        if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
            raise self.error(function, f"axis must be an int, got {axis!r}", TypeError)
        index = operator.index(axis)
        if not -ndim <= index < ndim:
            raise self.error(function, f"axis {index} is out of range for {ndim} dimensions",
                             AxisError)  # fmt: skip
        return index % ndim

    def normalize_axes(self, axis: Any, ndim: int, function: str) -> tuple[int, ...]:
        """None (every axis), an int or a sequence of ints as distinct normalised axes, in
        the order given; `ValueError` for a repeated axis."""
        if axis is None:
            return tuple(range(ndim))
        items = axis if isinstance(axis, (tuple, list)) else (axis,)
        result = tuple(self.normalize_axis(a, ndim, function) for a in items)
        if len(set(result)) != len(result):
            raise self.error(function, f"repeated axis in {axis!r}")
        return result

    # -- devices -------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        return [Device("cpu")]

    def default_device(self) -> Device:
        return Device("cpu")

    def device_of(self, raw: Any) -> Device:
        return Device("cpu")

    def native_device(self, device: Any, function: str = "device") -> Any:
        """Translate a `Device`, string or native device object to the framework's own."""
        device = self.as_device(device, function)
        if device not in self.devices():
            raise self.error(function, f"device {device} is not available")
        return device

    def as_device(self, device: Any, function: str = "device") -> Device:
        """A `Device` for a `Device`, a device string, or a native device object."""
        if isinstance(device, Device):
            return device
        if isinstance(device, str):
            return Device(device)
        raise self.error(function, f"unsupported device {device!r}", TypeError)

    def to_device(self, raw: Any, device: Any, /, *, stream: Any = None) -> Any:
        self.native_device(device, "to_device")
        return raw

    def info_device(self, device: Device, native: bool) -> Any:
        """``device`` as ``__array_namespace_info__`` lists it: a `Device` for the wrapped
        flavour; for the native one, what native arrays report as ``.device`` (by
        default the `Device` itself, which compares equal to its string)."""
        return device

    # -- scalars, display, host copies -----------------------------------------------------
    def shape_of(self, raw: Any) -> tuple[int | None, ...]:
        return tuple(raw.shape)

    def item(self, raw: Any) -> bool | int | float | complex:
        value = raw.item()
        return value  # type: ignore[no-any-return]

    def to_numpy(self, raw: Any, dtype: Any = None, copy: bool | None = None) -> Any:
        import numpy as np

        return np.asarray(raw, dtype=dtype, copy=copy)

    def format_values(self, raw: Any) -> str:
        import numpy as np

        return np.array2string(self.to_numpy(raw), separator=", ")

    def dlpack(
        self,
        raw: Any,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        return raw.__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def dlpack_device(self, raw: Any) -> tuple[Any, int]:
        return raw.__dlpack_device__()  # type: ignore[no-any-return]

    # -- indexing and mutation --------------------------------------------------------------
    def getitem(self, raw: Any, key: Any) -> Any:
        """``raw[key]``; a key the framework refuses is read again with NumPy objects and
        lists as the standard's items (`keys.standard_key`: free when the key works)."""
        try:
            return raw[key]
        except Exception as exc:
            plain = standard_key(key, as_it_is, self, "__getitem__")
            if plain is not key:
                return self.getitem(raw, plain)
            raise_translated(self, _keyed(exc, key), "__getitem__")

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """Write ``value`` at ``key``; return the array now holding the result.  A value
        that would need a downcast (a complex value into a real array, a float into an
        integer one) is a `TypeError`, as the standard's promotion says."""
        value = self.check_setitem_value(raw, value)
        try:
            raw[key] = value
        except Exception as exc:
            plain = standard_key(key, as_it_is, self, "__setitem__")
            if plain is not key:
                return self.setitem(raw, plain, value)
            raise_translated(self, _keyed(exc, key), "__setitem__")
        return raw

    def setitem_scalar(self, target: str, value: Any) -> Any:
        """The Python scalar ``value`` as ``x[k] = value`` stores it into an array of
        dtype ``target``, or the contract's error, the same on every backend.

        A float into an integer array is truncated toward zero, as NumPy and torch store
        it (``int_array[0] = -1.9`` stores -1; the standard leaves it unspecified): NaN
        is a `ValueError` and an infinity an `OverflowError`, as Python's ``int()`` and
        NumPy raise.  An int (or a truncated float) outside the dtype's values is an
        `OverflowError`.  A complex into a real array, or anything but a bool into a bool
        array, is a `TypeError`, as NumPy's and torch's are.
        """
        shown = value
        if type(value) is float and kind_of(target) in ("signed integer", "unsigned integer"):
            if value != value:
                raise self.error("__setitem__", f"cannot store the Python float nan in an array "
                                 f"of dtype {target} (NaN has no integer value)", ValueError)  # fmt: skip
            if value in (math.inf, -math.inf):
                raise self.error("__setitem__", f"cannot store the Python float {value} in an "
                                 f"array of dtype {target} (an infinity has no integer value)",
                                 OverflowError)  # fmt: skip
            value = int(value)  # toward zero, as NumPy and torch store it
        elif not scalar_kind_ok(target, value):
            raise self.error("__setitem__", f"cannot store a Python {type(value).__name__} "
                             f"in an array of dtype {target}", TypeError)  # fmt: skip
        bounds = int_range(target) if type(value) is int else None
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise self.error("__setitem__", f"the Python {type(shown).__name__} {shown!r} does "
                             f"not fit {target} (the values of {target} are {bounds[0]} to "
                             f"{bounds[1]})", OverflowError)  # fmt: skip
        return value

    def check_setitem_value(self, raw: Any, value: Any) -> Any:
        """``value`` (a Python scalar or an array of this backend) as it is stored into
        ``raw`` (a Python scalar through `setitem_scalar`), or `TypeError` where it does
        not fit ``raw``'s dtype without a downcast."""
        target = self.dtype_name(raw.dtype)
        if type(value) in (bool, int, float, complex):
            return self.setitem_scalar(target, value)
        dtype = getattr(value, "dtype", None)
        if dtype is None or not self.is_native(value):
            raise self.error("__setitem__", f"value must be an array or a Python scalar, got "
                             f"{type(value).__name__}", TypeError)  # fmt: skip
        source = self.dtype_name(dtype)
        if promote(source, target) != target and not truncates(source, target):
            raise self.error("__setitem__", f"cannot store {source} values in an array of dtype "
                             f"{target} without a downcast", TypeError)  # fmt: skip
        return value

    def run_write(self, write: Callable[[], list[tuple[Any, Any]]], operand: Any) -> Any:
        """``write()``, a wrapped `Array`'s write (``x[k] = v``, an in-place operator)
        on a backend whose writes rebind (`writes_in_place` False), run under the
        array's write lock, before anything is stored; ``operand`` is the value written
        or the operator's other operand.  ``write()`` returns, and so does this, the
        pairs (wrapper, new native array) to store.  A backend whose arrays belong to a
        thread overrides it (MLX)."""
        return write()

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        """Store an in-place operator's ``result`` into ``raw``; return the new raw.

        The standard requires the result to keep ``raw``'s dtype and shape: a result of
        another dtype is a `TypeError` (the operation cannot cast it back in place), of
        another shape a `ValueError` (it does not broadcast to the array's shape).
        """
        if result.dtype != raw.dtype:
            source, target = self.dtype_name(result.dtype), self.dtype_name(raw.dtype)
            raise self.error(
                function,
                f"cannot cast the result dtype {source} to the array's dtype {target} in "
                f"place (type promotion of the operands gives {source}; the standard "
                f"requires the in-place result to keep the array's dtype)",
                TypeError,
            )
        if self.shape_of(result) != self.shape_of(raw):
            raise self.error(
                function,
                f"the result of shape {self.shape_of(result)} does not have the array's "
                f"shape {self.shape_of(raw)} (an in-place operation cannot broadcast the "
                f"array itself)",
            )
        if not self.mutable:
            return result
        raw[...] = result
        return raw


class NeverCanonical:
    """`BackendCore.canonical_type` of a backend whose every result goes through
    `BackendCore.normalize`: no array has this type."""


def _keyed(exc: Exception, key: Any) -> Exception:
    """``exc`` of a failed indexing, with the key in its message (the framework's may not
    show it); the original as ``__cause__`` of the copy."""
    if _OURS.match(str(exc)):
        return exc
    new = type(exc)(f"index {key!r:.80}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}")
    new.__cause__ = exc
    return new


class NumPyDtypes:
    """Dtype hooks of frameworks whose dtypes are NumPy dtype objects (NumPy, JAX).

    Scalar types stand for their dtype too: ``numpy.float32``, and ``jax.numpy.float32``
    (which carries it as ``.dtype``).
    """

    _names_by_dtype: dict[Any, str]

    def native_dtype(self, name: str) -> Any:
        import numpy as np

        return np.dtype(name)

    def dtype_name(self, dtype: Any) -> str:
        try:
            return self._names_by_dtype[dtype]
        except (KeyError, TypeError):
            pass
        if isinstance(dtype, type):
            import numpy as np

            inner = getattr(dtype, "dtype", None)
            if isinstance(inner, np.dtype):
                dtype = inner
            elif issubclass(dtype, np.generic):
                dtype = np.dtype(dtype)
        return BackendCore.dtype_name(self, dtype)  # type: ignore[arg-type]
