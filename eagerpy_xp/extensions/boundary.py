"""The native boundary: `astensor_`, `astensors_` and the `@portable` decorator.

Code written against `Array` can be called with native arrays: arguments are wrapped on
the way in and results are given back in the caller's type (native in, native out;
`Array` in, `Array` out), through nested tuples, lists and dicts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from .._array import Array
from .._detect import IGNORED, SUPPORTED_TEXT, UNSUPPORTED, backend_of_type

__all__ = ["RestoreType", "astensor_", "astensors_", "map_arrays", "portable"]

F = TypeVar("F", bound=Callable[..., Any])


def is_native(x: Any) -> bool:
    """Whether ``x`` is a native array of a known backend (no framework is imported)."""
    return backend_of_type(type(x)) not in (IGNORED, UNSUPPORTED)


def map_arrays(fn: Callable[[Any], Any], obj: Any) -> Any:
    """Apply ``fn`` to every `Array` and native array in nested tuples, lists and dicts."""
    t = type(obj)
    if t is Array or is_native(obj):
        return fn(obj)
    if t is list:
        return [map_arrays(fn, o) for o in obj]
    if t is tuple:
        return tuple(map_arrays(fn, o) for o in obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # named tuple
        return t(*(map_arrays(fn, o) for o in obj))
    if isinstance(obj, dict):
        return t((k, map_arrays(fn, v)) for k, v in obj.items())
    return obj


def to_array(x: Any) -> Any:
    """``x`` as an `Array` when it is a native array; anything else is returned as is."""
    return x if type(x) is Array else Array(x)


def to_native(x: Any) -> Any:
    """``x.raw`` when ``x`` is an `Array`; anything else is returned as is."""
    return x._raw if type(x) is Array else x


def wrap_all(obj: Any) -> Any:
    """Every native array in ``obj`` (nested) wrapped as an `Array`."""
    return map_arrays(to_array, obj)


def unwrap_all(obj: Any) -> Any:
    """Every `Array` in ``obj`` (nested) replaced by its native array."""
    return map_arrays(to_native, obj)


def _scan(obj: Any) -> tuple[bool, bool]:
    """Whether nested ``obj`` holds any array, and whether it holds any `Array`."""
    kinds: set[bool] = set()

    def visit(x: Any) -> Any:
        kinds.add(type(x) is Array)
        return x

    map_arrays(visit, obj)
    return bool(kinds), True in kinds


class RestoreType:
    """Gives results back in the caller's type: natives for native callers, else `Array`s.

    ``restore_type(r)`` returns ``r`` converted; ``restore_type(r1, r2)`` a tuple.  Nested
    tuples, lists and dicts are converted throughout; other objects pass unchanged.
    """

    __slots__ = ("wrapped",)

    def __init__(self, wrapped: bool) -> None:
        self.wrapped = wrapped

    def __call__(self, *results: Any) -> Any:
        convert = wrap_all if self.wrapped else unwrap_all
        if len(results) == 1:
            return convert(results[0])
        return tuple(convert(r) for r in results)

    def __repr__(self) -> str:
        return f"RestoreType({'Array' if self.wrapped else 'native'})"


def astensor_(x: Any) -> tuple[Any, RestoreType]:
    """``(astensor(x), restore_type)``; ``x`` may also be a nested tuple/list/dict of arrays.

    ``restore_type`` gives `Array`s back if ``x`` holds any `Array`, else natives.

    Unlike EagerPy, an unsupported object raises `TypeError` (EagerPy: `ValueError`).
    """
    found, wrapped = _scan(x)
    if not found:
        raise TypeError(
            f"astensor_: expected an array ({SUPPORTED_TEXT}) "
            f"(or a tuple/list/dict of them), got {type(x)!r}"
        )
    return wrap_all(x), RestoreType(wrapped)


def astensors_(*xs: Any) -> tuple[tuple[Any, ...], RestoreType]:
    """``(astensors(*xs), restore_type)``; results come back as `Array`s if any ``x`` is one."""
    if not xs:
        raise TypeError("astensors_: expected at least one array")
    wrapped, restore = astensor_(xs)
    return wrapped, restore


def portable(fn: F) -> F:
    """Decorator: array arguments arrive as `Array`s, results leave in the caller's type.

    The caller's type is `Array` if any argument (searched through nested tuples, lists
    and dicts, keywords included) is an `Array`, else native, as in `get_namespace`.  A
    call without any array argument passes its results through unchanged.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        found, wrapped = _scan((args, kwargs))
        if not found:
            return fn(*args, **kwargs)
        restore = RestoreType(wrapped)
        result = fn(*wrap_all(args), **wrap_all(kwargs))
        return restore(result)

    return wrapper  # type: ignore[return-value]
