"""What every backend's functions share: the error contract (`translated`, `AxisError`,
`raise_translated`), the autodiff engine's interface (`Autodiff`), promotion's kind order
and the integer-range checks.  The hooks themselves are `hooks.BackendCore`.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeAlias, TypeVar

from ..._detect import SCALAR_TYPES, plain_scalar
from ..._dtypes import (
    CATEGORY_OF,
    INT_RANGE,
    kind_of,
    promote,
)

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


def stores(source: str, target: str) -> bool:
    """Whether ``x[k] = values`` stores ``source`` values into an array of dtype
    ``target`` (cast to it) rather than raising `TypeError`: where the standard's
    promotion gives ``target``, and where it does not but NumPy, torch, JAX, Dask and
    MLX all store the values cast, which the standard leaves unspecified: a value of
    the array's own kind (``float32_array[k] = float64_values`` rounds to float32, as
    ``float32_array += float64_array`` casts back; ``int8_array[k] = int64_values``
    wraps, as ``astype`` does) and a real floating value into an integer array
    (`truncates`).  A complex value into a real array, and integer or boolean values
    into another kind, stay refused."""
    if promote(source, target) == target or truncates(source, target):
        return True
    try:
        return kind_of(source) == kind_of(target)
    except ValueError:  # a name outside the standard's (torch's half floats)
        return False


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
