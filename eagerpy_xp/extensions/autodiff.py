"""Automatic differentiation for native arrays and `Array`s of any backend that has it.

One generic front end (argument checks, flavour handling, results in the caller's type)
over the engine each backend exports as its ``autodiff`` hook (torch's
`torch.autograd.grad`, JAX's `jax.value_and_grad`, TensorFlow's `tf.GradientTape`).  Differences from EagerPy: ``argnums`` selects several arguments,
gradients nest (grad of grad) on every framework, the differentiated function receives
arrays of the caller's type (natives stay natives), and the gradient of an argument the
value does not depend on is zeros on every framework.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, overload

from .._array import Array, as_array
from .._detect import DIFFERENTIABLE, IGNORED, UNSUPPORTED, backend_for, backend_of_type
from .boundary import to_native, unwrap_all, wrap_all

__all__ = ["grad", "value_and_grad", "value_and_grad_fn", "value_aux_and_grad"]

#: The type of the differentiated array: value and gradient come back in it.
_X = TypeVar("_X")



def _backend_name(x: Any) -> str:
    return x._b.name if type(x) is Array else backend_of_type(type(x))


def _argnums(function: str, argnums: Any, count: int) -> tuple[int, ...]:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for n in nums:
        if type(n) is not int or not 0 <= n < count:
            raise ValueError(
                f"{function}: argnums must be an int or a tuple of ints in [0, {count}) "
                f"(the positions of f's array arguments), got {argnums!r}"
            )
    if len(set(nums)) != len(nums):
        raise ValueError(f"{function}: argnums has repeated positions: {argnums!r}")
    return nums


def _engine_for(function: str, args: Sequence[Any], nums: tuple[int, ...]) -> tuple[str, Any]:
    """The backend name and autodiff engine of the differentiated arguments."""
    names = []
    for n in nums:
        name = _backend_name(args[n])
        if name in (IGNORED, UNSUPPORTED):
            raise TypeError(
                f"{function}: argument {n} must be an Array or a native array to "
                f"differentiate, got {type(args[n])!r}"
            )
        names.append(name)
    if len(set(names)) > 1:
        raise TypeError(f"{function}: differentiated arguments mix backends {names}")
    x = args[nums[0]]
    backend = x._b if type(x) is Array else backend_for(x, function)
    if backend.autodiff is None:
        raise NotImplementedError(
            f"eagerpy_xp.{backend.name}.{function}: {backend.name} has no automatic "
            f"differentiation; use a {', '.join(DIFFERENTIABLE[:-1])} or "
            f"{DIFFERENTIABLE[-1]} array (eagerpy_xp.convert(x, '{DIFFERENTIABLE[-1]}') "
            "converts)"
        )
    return backend.name, backend.autodiff


def _compute(function: str, f: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any], argnums: Any, has_aux: bool) -> tuple[Any, Any, Any]:  # fmt: skip
    """value, aux and gradient(s) of ``f(*args, **kwargs)``, in the caller's type."""
    if not callable(f):
        raise TypeError(f"{function}: f must be callable, got {type(f)!r}")
    nums = _argnums(function, argnums, len(args))
    name, engine = _engine_for(function, args, nums)
    wrapped = [type(args[n]) is Array for n in nums]
    raws = [to_native(args[n]) for n in nums]
    for n, raw in zip(nums, raws):
        if not engine.is_real_floating(raw):
            raise TypeError(
                f"eagerpy_xp.{name}.{function}: argument {n} must have a real floating-point dtype, "
                f"got {raw.dtype}"
            )

    def call(*diff: Any) -> tuple[Any, Any]:
        full = list(args)
        for n, raw, w in zip(nums, diff, wrapped):
            full[n] = as_array(args[n]._b, raw) if w else raw
        result = f(*full, **kwargs)
        if has_aux:
            if not (isinstance(result, (tuple, list)) and len(result) == 2):
                raise ValueError(
                    f"eagerpy_xp.{name}.{function}: with has_aux=True, f must return a pair "
                    f"(value, aux), got {type(result)!r}"
                )
            value, aux = result
        else:
            value, aux = result, None
        raw_value = value._raw if type(value) is Array else value
        if _backend_name(raw_value) != name:
            raise TypeError(
                f"eagerpy_xp.{name}.{function}: f must return a 0-d {name} array (or Array), "
                f"got {type(value)!r}"
            )
        shape = engine.shape(raw_value)
        if shape is not None and shape != ():
            raise ValueError(
                f"eagerpy_xp.{name}.{function}: f must return a scalar (a 0-d array) to "
                f"differentiate, got shape {shape}"
            )
        if not engine.is_real_floating(raw_value):
            raise TypeError(
                f"eagerpy_xp.{name}.{function}: f must return a real floating-point value, "
                f"got dtype {raw_value.dtype}"
            )
        return raw_value, unwrap_all(aux)

    value, aux, grads = engine.run(call, raws)
    if any(wrapped):
        value, aux = wrap_all(value), wrap_all(aux)
    grads = [wrap_all(g) if w else g for g, w in zip(grads, wrapped)]
    return value, aux, (tuple(grads) if isinstance(argnums, tuple) else grads[0])


@overload
def value_and_grad(f: Callable[..., Any], x: _X, *args: Any, has_aux: Literal[False] = False,
                   argnums: Literal[0] = 0, **kwargs: Any) -> tuple[_X, _X]: ...  # fmt: skip
@overload
def value_and_grad(f: Callable[..., Any], x: _X, *args: Any, has_aux: Literal[True],
                   argnums: Literal[0] = 0, **kwargs: Any) -> tuple[_X, Any, _X]: ...  # fmt: skip
@overload
def value_and_grad(f: Callable[..., Any], x: Any, *args: Any, has_aux: bool = False,
                   argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> tuple[Any, ...]: ...  # fmt: skip
def value_and_grad(f: Callable[..., Any], x: Any, *args: Any, has_aux: bool = False,
                   argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> tuple[Any, ...]:  # fmt: skip
    """``(f(x, *args, **kwargs), gradient)``; ``(value, aux, gradient)`` with ``has_aux``.

    ``argnums`` (positions in ``(x, *args)``) selects the differentiated arguments; a
    tuple gives a tuple of gradients.  ``f`` gets arrays of the caller's type and must
    return a 0-d real floating-point array.  NumPy raises `NotImplementedError`.
    """
    value, aux, grads = _compute("value_and_grad", f, (x, *args), kwargs, argnums, has_aux)
    return (value, aux, grads) if has_aux else (value, grads)


@overload
def value_aux_and_grad(f: Callable[..., Any], x: _X, *args: Any, argnums: Literal[0] = 0,
                       **kwargs: Any) -> tuple[_X, Any, _X]: ...  # fmt: skip
@overload
def value_aux_and_grad(f: Callable[..., Any], x: Any, *args: Any,
                       argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> tuple[Any, Any, Any]: ...  # fmt: skip
def value_aux_and_grad(f: Callable[..., Any], x: Any, *args: Any,
                       argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> tuple[Any, Any, Any]:  # fmt: skip
    """``(value, aux, gradient)`` for ``f`` returning ``(value, aux)``."""
    return _compute("value_aux_and_grad", f, (x, *args), kwargs, argnums, True)


@overload
def grad(f: Callable[..., Any], x: _X, *args: Any, has_aux: Literal[False] = False,
         argnums: Literal[0] = 0, **kwargs: Any) -> _X: ...  # fmt: skip
@overload
def grad(f: Callable[..., Any], x: _X, *args: Any, has_aux: Literal[True],
         argnums: Literal[0] = 0, **kwargs: Any) -> tuple[_X, Any]: ...  # fmt: skip
@overload
def grad(f: Callable[..., Any], x: Any, *args: Any, has_aux: bool = False,
         argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> Any: ...  # fmt: skip
def grad(f: Callable[..., Any], x: Any, *args: Any, has_aux: bool = False,
         argnums: int | tuple[int, ...] = 0, **kwargs: Any) -> Any:  # fmt: skip
    """The gradient of ``f`` at ``(x, *args)``; ``(gradient, aux)`` with ``has_aux`` (as
    `jax.grad`)."""
    _, aux, grads = _compute("grad", f, (x, *args), kwargs, argnums, has_aux)
    return (grads, aux) if has_aux else grads


def value_and_grad_fn(x: Any, f: Callable[..., Any], has_aux: bool = False,
                      argnums: int | tuple[int, ...] = 0) -> Callable[..., tuple[Any, ...]]:  # fmt: skip
    """A function ``(x, *args, **kwargs) -> value_and_grad(f, x, *args, ...)``.

    ``x`` only selects the framework, as in EagerPy; it is checked now, so NumPy raises
    `NotImplementedError` here rather than at the first call.
    """
    _engine_for("value_and_grad_fn", (x,), (0,))
    if not callable(f):
        raise TypeError(f"value_and_grad_fn: f must be callable, got {type(f)!r}")

    def fn(x: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        return value_and_grad(f, x, *args, has_aux=has_aux, argnums=argnums, **kwargs)

    fn.__name__ = fn.__qualname__ = f"value_and_grad_{getattr(f, '__name__', 'f')}"
    return fn
