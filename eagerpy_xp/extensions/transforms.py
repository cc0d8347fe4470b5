"""`jit` and `vmap`: the compiler and the vectorizer of the arguments' framework.

One front end over two backend hooks (`BackendCore.compile`, `BackendCore.vectorize`):
``jax.jit``/``jax.vmap`` on JAX, ``torch.compile``/``torch.func.vmap`` on torch,
``tf.function(jit_compile=True)``/``tf.vectorized_map`` on TensorFlow.  NumPy and Dask
have no compiler: `jit` runs the function as it is (Dask stays lazy); `vmap` loops over
the mapped axis and stacks the results.  The flavour is kept: `Array`s in give `Array`s
out, native arrays in give native arrays out.  Both compose with each other and with
`eagerpy_xp.grad`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, overload

from .._array import Array
from .._detect import (
    BACKENDS,
    IGNORED,
    SUPPORTED_TEXT,
    UNSUPPORTED,
    backend_of_type,
    namespace_module,
)

__all__ = ["jit", "vmap"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _leaves(obj: Any) -> Any:
    """The leaves of a nest of tuples, lists and dicts (arguments of a compiled call)."""
    t = type(obj)
    if t is list or t is tuple or isinstance(obj, tuple):
        for o in obj:
            yield from _leaves(o)
    elif t is dict:
        for o in obj.values():
            yield from _leaves(o)
    else:
        yield obj


#: native array type -> its backend, as `_backend` found it (a type's backend never changes).
_NATIVE_BACKENDS: dict[type, Any] = {}


def _backend(function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, bool]:
    """The backend of the array arguments and whether any is an `Array`; `TypeError` for
    none, several frameworks, or an unsupported array type.  (On every call of a
    compiled function: a plain loop, containers walked only where there are some.)"""
    found: Any = None
    wrapped = False
    pending: list[Any] = [*args, *kwargs.values()] if kwargs else list(args)
    while pending:
        leaf = pending.pop()
        t = type(leaf)
        if t is Array:
            backend = leaf._b
            wrapped = True
        elif t is tuple or t is list or isinstance(leaf, tuple):
            pending.extend(leaf)
            continue
        elif t is dict:
            pending.extend(leaf.values())
            continue
        else:
            backend = _NATIVE_BACKENDS.get(t)
            if backend is None:
                name = backend_of_type(t)
                if name == IGNORED or name == UNSUPPORTED:
                    continue  # Python values and other objects pass through as they are
                backend = _NATIVE_BACKENDS[t] = namespace_module(name, False).__backend__
        if found is None:
            found = backend
        elif backend is not found:
            raise TypeError(
                f"eagerpy_xp.{function}: arrays of several libraries given ({found.name} and "
                f"{backend.name}); convert them to one backend first"
            )
    if found is None:
        raise TypeError(
            f"eagerpy_xp.{function}: no array among the arguments, so no framework to "
            f"{'compile' if function == 'jit' else 'vectorize'} for; supported: {SUPPORTED_TEXT}"
        )
    return found, wrapped


def _options_for(backend: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options for one framework: those given for every framework, and those given
    under its name (``torch={"backend": "aot_eager"}``), which win."""
    common = {k: v for k, v in options.items() if k not in _BACKEND_NAMES}
    own = options.get(backend) or {}
    if not isinstance(own, dict):
        raise TypeError(f"eagerpy_xp.jit: options for {backend} must be a dict, got {own!r}")
    return {**common, **own}


_BACKEND_NAMES = frozenset(BACKENDS)


@overload
def jit(fn: _F, /, **options: Any) -> _F: ...
@overload
def jit(fn: None = None, /, **options: Any) -> Callable[[_F], _F]: ...
def jit(fn: Any = None, /, **options: Any) -> Any:
    """``fn`` compiled by the compiler of its arguments' framework, chosen per call and
    cached per framework: ``jax.jit``, ``torch.compile(fullgraph=True)``,
    ``tf.function(jit_compile=True)``; NumPy and Dask run ``fn`` as it is.

    ``options`` go to that compiler (``jit(f, backend="aot_eager")`` for torch); options
    under a framework's name go to that framework only
    (``jit(f, torch={"mode": "reduce-overhead"}, jax={"static_argnums": 1})``), so one
    portable function can carry options for several.  Frameworks without a compiler
    ignore them.  Usable as ``@jit`` and ``@jit(**options)``.
    """
    if fn is None:
        return functools.partial(jit, **options)
    if not callable(fn):
        raise TypeError(f"eagerpy_xp.jit: fn must be callable, got {type(fn)!r}")
    compiled: dict[str, Callable[..., Any]] = {}

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        backend, _ = _backend("jit", args, kwargs)
        try:
            target = compiled[backend.name]
        except KeyError:
            own = _options_for(backend.name, options) if backend.compiles else {}
            target = compiled[backend.name] = backend.compile(fn, own)
        return target(*args, **kwargs)

    run.__wrapped__ = fn  # type: ignore[attr-defined]
    return run


def _check_axes(in_axes: Any, out_axes: Any) -> None:
    def fine(axis: Any, none_ok: bool) -> bool:
        return (type(axis) is int) or (none_ok and axis is None)

    ins = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,)
    if not all(fine(a, True) for a in ins):
        raise TypeError(
            f"eagerpy_xp.vmap: in_axes must be an int, None, or a tuple of ints and Nones "
            f"(one per positional argument), got {in_axes!r}"
        )
    outs = out_axes if isinstance(out_axes, (tuple, list)) else (out_axes,)
    if not all(fine(a, False) for a in outs):
        raise TypeError(
            f"eagerpy_xp.vmap: out_axes must be an int or a tuple of ints (one per result), "
            f"got {out_axes!r}"
        )


def vmap(fn: _F, in_axes: int | tuple[int | None, ...] | None = 0,
         out_axes: int | tuple[int, ...] = 0) -> _F:  # fmt: skip
    """``fn`` mapped over an axis of its positional arguments by the framework's own
    vectorizer (``jax.vmap``, ``torch.func.vmap``, ``tf.vectorized_map``); on NumPy and
    Dask a loop over the axis whose results are stacked (`eagerpy_xp.stack`).

    ``in_axes``: the mapped axis of every positional argument (an int), or one int or
    None (not mapped) per positional argument; an argument that is a tuple, list or dict
    maps each of its arrays.  Keyword arguments are not mapped.  ``out_axes``: where the
    mapped axis goes in each result (an int, or one per result of a tuple).
    """
    if not callable(fn):
        raise TypeError(f"eagerpy_xp.vmap: fn must be callable, got {type(fn)!r}")
    _check_axes(in_axes, out_axes)

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise ValueError(
                f"eagerpy_xp.vmap: in_axes has {len(in_axes)} entries for {len(args)} "
                "positional arguments"
            )
        axes = tuple(in_axes) if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        if all(a is None for a in axes):
            raise ValueError(f"eagerpy_xp.vmap: in_axes {in_axes!r} maps no argument")
        backend, wrapped = _backend("vmap", args, kwargs)
        inner = functools.partial(fn, **kwargs) if kwargs else fn
        vectorized = backend.vectorize(inner, axes, out_axes)
        if vectorized is None:
            return _loop(inner, axes, out_axes, args, namespace_module(backend.name, wrapped))
        return vectorized(*args)

    run.__wrapped__ = fn  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]


def _map_leaves(f: Callable[[Any], Any], obj: Any) -> Any:
    t = type(obj)
    if t is list or t is tuple:
        return t(_map_leaves(f, o) for o in obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return t(*(_map_leaves(f, o) for o in obj))
    if t is dict:
        return {k: _map_leaves(f, v) for k, v in obj.items()}
    return f(obj)


def _loop(fn: Callable[..., Any], axes: tuple[int | None, ...], out_axes: Any,
          args: tuple[Any, ...], xp: Any) -> Any:  # fmt: skip
    """``vmap`` without a vectorizer: ``fn`` on each slice, the results stacked."""
    sizes = set()
    for arg, axis in zip(args, axes):
        if axis is None:
            continue
        for leaf in _leaves(arg):
            if backend_of_type(type(leaf)) in (IGNORED, UNSUPPORTED) and type(leaf) is not Array:
                raise TypeError(
                    f"eagerpy_xp.vmap: a mapped argument must hold arrays, got "
                    f"{type(leaf).__name__} (use in_axes=None for it)"
                )
            ndim = len(leaf.shape)
            if not -ndim <= axis < ndim:
                raise ValueError(
                    f"eagerpy_xp.vmap: in_axes {axis} is out of range for an argument of "
                    f"shape {tuple(leaf.shape)}"
                )
            sizes.add(leaf.shape[axis])
    if len(sizes) != 1 or None in sizes or any(s != s for s in sizes):  # NaN: unknown
        raise ValueError(
            f"eagerpy_xp.vmap: the mapped axes must have one known size, got {sorted(map(str, sizes))}"
        )
    (n,) = sizes
    n = int(n)

    def piece(i: int | None) -> tuple[Any, ...]:
        def _take(leaf: Any, axis: int) -> Any:
            axis %= len(leaf.shape)
            if i is None:  # a zero-size axis: a slice of zeros tells the result's shape
                shape = tuple(leaf.shape[:axis]) + tuple(leaf.shape[axis + 1:])
                return xp.zeros(shape, dtype=leaf.dtype, device=xp.device(leaf))
            return leaf[(slice(None),) * axis + (i, Ellipsis)]  # (ndonnx needs the ...)

        return tuple(a if axis is None else _map_leaves(functools.partial(_take, axis=axis), a)
                     for a, axis in zip(args, axes))  # fmt: skip

    results = [fn(*piece(i)) for i in range(n)] if n else [fn(*piece(None))]
    return _stack(results, out_axes, xp, empty=n == 0)


def _stack(results: list[Any], out_axes: Any, xp: Any, empty: bool) -> Any:
    first = results[0]
    if isinstance(out_axes, (tuple, list)):
        if not (isinstance(first, (tuple, list)) and len(first) == len(out_axes)):
            raise ValueError(
                f"eagerpy_xp.vmap: out_axes {out_axes!r} needs a tuple of {len(out_axes)} "
                f"results, got {type(first).__name__}"
            )
        return type(first)(_stack([r[k] for r in results], axis, xp, empty)
                           for k, axis in enumerate(out_axes))  # fmt: skip
    t = type(first)
    if t is list or t is tuple:
        return t(_stack([r[k] for r in results], out_axes, xp, empty) for k in range(len(first)))
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return t(*(_stack([r[k] for r in results], out_axes, xp, empty)
                   for k in range(len(first))))  # fmt: skip
    if t is dict:
        return {k: _stack([r[k] for r in results], out_axes, xp, empty) for k in first}
    arrays = [xp.asarray(r) for r in results]
    if any(d is None or d != d for a in arrays for d in a.shape):  # None, or Dask's NaN
        raise NotImplementedError(
            f"eagerpy_xp.{xp.__backend__.name}.vmap: a result of a shape not known yet (it depends on the "
            "values: nonzero, unique_*, a boolean mask) cannot be stacked lazily; compute "
            "the arrays first or map outside the data-dependent step"
        )
    ndim = len(arrays[0].shape) + 1
    if not -ndim <= out_axes < ndim:
        raise ValueError(
            f"eagerpy_xp.vmap: out_axes {out_axes} is out of range for a result of "
            f"{ndim - 1} dimensions"
        )
    if empty:
        zero = xp.zeros((0, *arrays[0].shape), dtype=arrays[0].dtype,
                        device=xp.device(arrays[0]))  # fmt: skip
        return xp.moveaxis(zero, 0, out_axes)
    return xp.stack(arrays, axis=out_axes)
