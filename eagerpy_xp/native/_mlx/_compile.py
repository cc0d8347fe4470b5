"""MLX's compiler (``mx.compile``) and vectorizer (``mx.vmap``) behind the backend's
compile and vectorize hooks.

MLX's transformations take nests (tuples, lists, dicts) of MLX arrays and Python values;
`eagerpy_xp.Array` is none of those, so the hooks take Arrays apart at the boundary:
every `Array` in the arguments becomes its ``.raw`` for MLX, the function sees an
`Array` again where the caller passed one, and the arrays it returns as Arrays come back
as Arrays (Arrays in, Arrays out; natives in, natives out).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import mlx.core as mx

from .._base import nests
from ._core import MAPPING

#: ``mx.compile`` options the `compile` hook passes on.
COMPILE_OPTIONS = frozenset({"inputs", "outputs", "shapeless"})



class Boundary:
    """Takes `Array`s (the class given to ``register_wrapper``) apart at a transformation's
    boundary and puts them back (`nests`): MLX maps and compiles nests of its own arrays
    only."""

    def __init__(self, cls: type | None, wrap: Callable[[Any], Any] | None) -> None:
        self.cls, self.wrap = cls, wrap

    def split(self, obj: Any) -> tuple[Any, Any]:
        """``obj`` with every Array replaced by its raw array, and where they were."""
        return (obj, False) if self.cls is None else nests.strip(obj, self.cls)

    def join(self, obj: Any, marks: Any) -> Any:
        """`split` undone: the MLX arrays of ``obj`` where Arrays were wrapped again."""
        return nests.dress(obj, marks, self._wrap)

    def _wrap(self, raw: Any) -> Any:
        return self.wrap(raw) if self.wrap is not None and type(raw) is mx.array else raw


def compile_function(boundary: Boundary, fn: Callable[..., Any], options: dict[str, Any],
                     error: Callable[..., Exception]) -> Callable[..., Any]:  # fmt: skip
    """``fn`` compiled by ``mx.compile`` (with ``options``), Arrays taken apart at the
    boundary.  One compiled function per pattern of Arrays among the arguments: MLX
    compiles again only when shapes, dtypes or the Python values among the arguments
    change, so the pattern of Arrays in the results is recorded when it traces."""
    unknown = set(options) - COMPILE_OPTIONS
    if unknown:
        raise error("compile", f"unknown option {sorted(unknown)[0]!r} for mx.compile; "
                    f"known: {', '.join(sorted(COMPILE_OPTIONS))}")  # fmt: skip
    compiled: dict[Any, tuple[Callable[..., Any], list[Any]]] = {}

    def make(marks: Any) -> tuple[Callable[..., Any], list[Any]]:
        out_marks: list[Any] = [False]

        def traced(*raw_args: Any, **raw_kwargs: Any) -> Any:
            args, kwargs = boundary.join((raw_args, raw_kwargs), marks)
            raw_result, out_marks[0] = boundary.split(fn(*args, **kwargs))
            return raw_result

        return mx.compile(traced, **options), out_marks

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        (raw_args, raw_kwargs), marks = boundary.split((args, kwargs))
        key = repr(marks)
        entry = compiled.get(key)
        if entry is None:
            entry = compiled[key] = make(marks)
        function, out_marks = entry
        return boundary.join(function(*raw_args, **raw_kwargs), out_marks[0])

    return run


def vectorize_function(boundary: Boundary, fn: Callable[..., Any], in_axes: Any,
                       out_axes: Any, error: Callable[..., Exception]) -> Callable[..., Any]:  # fmt: skip
    """``fn`` vectorized by ``mx.vmap`` over ``in_axes`` (an int, None, or one per
    positional argument) and ``out_axes``, Arrays taken apart at the boundary."""
    for axis in in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,):
        if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
            raise error("vmap", f"in_axes must be an int, None, or a tuple of those (one per "
                        f"positional argument), got {in_axes!r}", TypeError)  # fmt: skip

    @functools.wraps(fn)
    def run(*args: Any) -> Any:
        axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        if len(axes) != len(args):
            raise error("vmap", f"in_axes {in_axes!r} has {len(axes)} entries for "
                        f"{len(args)} positional arguments")  # fmt: skip
        raw_args, marks = boundary.split(args)
        # MLX maps nests of arrays only: an unmapped argument without arrays (a Python
        # value) is bound here instead of passed
        passed = [k for k, (a, axis) in enumerate(zip(raw_args, axes))
                  if axis is not None or _holds_arrays(a)]  # fmt: skip
        out_marks: list[Any] = [False]

        def traced(*raw: Any) -> Any:
            full = list(raw_args)
            for k, value in zip(passed, raw):
                full[k] = value
            result, out_marks[0] = boundary.split(fn(*boundary.join(tuple(full), marks)))
            return result

        MAPPING[0] += 1
        try:
            result = mx.vmap(traced, in_axes=tuple(axes[k] for k in passed),
                             out_axes=out_axes)(*(raw_args[k] for k in passed))  # fmt: skip
        except ValueError as exc:
            if str(exc).startswith("eagerpy_xp."):
                raise  # fn's own error, already the contract's
            raise error("vmap", f"{exc}") from exc
        finally:
            MAPPING[0] -= 1
        return boundary.join(result, out_marks[0])

    return run


def _holds_arrays(obj: Any) -> bool:
    """Whether the nest ``obj`` holds an MLX array."""
    if type(obj) is mx.array:
        return True
    if isinstance(obj, (tuple, list)):
        return any(_holds_arrays(o) for o in obj)
    if isinstance(obj, dict):
        return any(_holds_arrays(o) for o in obj.values())
    return False


__all__ = ["Boundary", "compile_function", "vectorize_function"]
