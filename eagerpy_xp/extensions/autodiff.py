"""Automatic differentiation on PyTorch, JAX and TensorFlow, for native arrays and `Array`s.

One generic front end (argument checks, flavour handling, results in the caller's type)
over one small engine per framework: `torch.autograd.grad`, `jax.value_and_grad` and
`tf.GradientTape`.  Differences from EagerPy: ``argnums`` selects several arguments,
gradients nest (grad of grad) on every framework, the differentiated function receives
arrays of the caller's type (natives stay natives), and the gradient of an argument the
value does not depend on is zeros on every framework.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, overload

from .._array import Array, _wrap
from .._detect import IGNORED, UNSUPPORTED, backend_of_type
from .boundary import map_arrays, to_native, unwrap_all, wrap_all

__all__ = ["grad", "value_and_grad", "value_and_grad_fn", "value_aux_and_grad"]

#: The backends with automatic differentiation.
DIFFERENTIABLE = ("torch", "jax", "tensorflow")

Call = Callable[..., tuple[Any, Any]]
#: The type of the differentiated array: value and gradient come back in it.
_X = TypeVar("_X")


class _Engine:
    """The per-framework part: dtype and shape facts, and one value-and-gradient run."""

    name: str

    def is_real_floating(self, raw: Any) -> bool:
        raise NotImplementedError

    def shape(self, raw: Any) -> tuple[int | None, ...] | None:
        """The static shape, or None where even the rank is unknown (traced code)."""
        return tuple(raw.shape)

    def run(self, call: Call, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        """``call(*raws)`` returns ``(value, aux)``; return value, aux and the gradients."""
        raise NotImplementedError


class _Torch(_Engine):
    """`torch.autograd.grad` on fresh leaves: the caller's tensors are never modified.

    Inside another eagerpy_xp gradient (or when an input already requires grad) the
    graph is kept (``create_graph``) so the outer gradient can differentiate through.
    At top level results are detached, also from tensors ``f`` closes over.
    """

    name = "torch"
    _state = threading.local()

    def is_real_floating(self, raw: Any) -> bool:
        return bool(raw.dtype.is_floating_point)

    def run(self, call: Call, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        import torch

        depth = getattr(self._state, "depth", 0)
        nested = depth > 0 or any(r.requires_grad for r in raws)
        leaves = [r.view_as(r) if r.requires_grad else r.detach().requires_grad_(True)
                  for r in raws]  # fmt: skip
        with torch.enable_grad():
            self._state.depth = depth + 1
            try:
                value, aux = call(*leaves)
            finally:
                self._state.depth = depth
            found: Sequence[Any]
            if value.requires_grad:
                found = torch.autograd.grad(value, leaves, create_graph=nested,
                                            allow_unused=True)  # fmt: skip
            else:  # the value does not depend on any input
                found = (None,) * len(leaves)
        grads = [torch.zeros_like(r) if g is None else g for g, r in zip(found, raws)]
        if not nested:
            value = value.detach()
            aux = map_arrays(lambda a: a.detach() if isinstance(a, torch.Tensor) else a, aux)
        return value, aux, grads


class _Jax(_Engine):
    """`jax.value_and_grad`: functional, so it composes with `jax.jit` and nests."""

    name = "jax"

    def is_real_floating(self, raw: Any) -> bool:
        import jax.numpy as jnp

        return bool(jnp.issubdtype(raw.dtype, jnp.floating))

    def run(self, call: Call, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        import jax

        argnums = tuple(range(len(raws)))
        (value, aux), grads = jax.value_and_grad(call, argnums=argnums, has_aux=True)(*raws)
        return value, aux, list(grads)


class _TensorFlow(_Engine):
    """`tf.GradientTape`: works eagerly and inside `tf.function`; tapes nest."""

    name = "tensorflow"

    def is_real_floating(self, raw: Any) -> bool:
        return bool(raw.dtype.is_floating)

    def shape(self, raw: Any) -> tuple[int | None, ...] | None:
        shape = raw.shape
        return None if shape.rank is None else tuple(shape.as_list())

    def run(self, call: Call, raws: Sequence[Any]) -> tuple[Any, Any, list[Any]]:
        import tensorflow as tf

        with tf.GradientTape() as tape:
            for r in raws:
                tape.watch(r)
            value, aux = call(*raws)
        found = tape.gradient(value, list(raws),
                              unconnected_gradients=tf.UnconnectedGradients.ZERO)  # fmt: skip
        # gathers give IndexedSlices; the caller gets a dense tensor like the input
        return value, aux, [tf.convert_to_tensor(g) for g in found]


_ENGINES: dict[str, _Engine] = {e.name: e for e in (_Torch(), _Jax(), _TensorFlow())}


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


def _engine_for(function: str, args: Sequence[Any], nums: tuple[int, ...]) -> _Engine:
    names = []
    for n in nums:
        name = _backend_name(args[n])
        if name in (IGNORED, UNSUPPORTED):
            raise TypeError(
                f"{function}: argument {n} must be an Array or a torch/jax/tensorflow "
                f"array to differentiate, got {type(args[n])!r}"
            )
        names.append(name)
    if len(set(names)) > 1:
        raise TypeError(f"{function}: differentiated arguments mix backends {names}")
    name = names[0]
    if name not in _ENGINES:
        raise NotImplementedError(
            f"{function} ({name}): {name} has no automatic differentiation; use a "
            f"{', '.join(DIFFERENTIABLE[:-1])} or {DIFFERENTIABLE[-1]} array "
            f"(eagerpy_xp.convert(x, 'jax') converts)"
        )
    return _ENGINES[name]


def _compute(function: str, f: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any], argnums: Any, has_aux: bool) -> tuple[Any, Any, Any]:  # fmt: skip
    """value, aux and gradient(s) of ``f(*args, **kwargs)``, in the caller's type."""
    if not callable(f):
        raise TypeError(f"{function}: f must be callable, got {type(f)!r}")
    nums = _argnums(function, argnums, len(args))
    engine = _engine_for(function, args, nums)
    name = engine.name
    wrapped = [type(args[n]) is Array for n in nums]
    raws = [to_native(args[n]) for n in nums]
    for n, raw in zip(nums, raws):
        if not engine.is_real_floating(raw):
            raise TypeError(
                f"{function} ({name}): argument {n} must have a real floating-point dtype, "
                f"got {raw.dtype}"
            )

    def call(*diff: Any) -> tuple[Any, Any]:
        full = list(args)
        for n, raw, w in zip(nums, diff, wrapped):
            full[n] = _wrap(args[n]._b, raw) if w else raw
        result = f(*full, **kwargs)
        if has_aux:
            if not (isinstance(result, (tuple, list)) and len(result) == 2):
                raise ValueError(
                    f"{function} ({name}): with has_aux=True, f must return a pair "
                    f"(value, aux), got {type(result)!r}"
                )
            value, aux = result
        else:
            value, aux = result, None
        raw_value = value._raw if type(value) is Array else value
        if _backend_name(raw_value) != name:
            raise TypeError(
                f"{function} ({name}): f must return a 0-d {name} array (or Array), "
                f"got {type(value)!r}"
            )
        shape = engine.shape(raw_value)
        if shape is not None and shape != ():
            raise ValueError(
                f"{function} ({name}): f must return a scalar (a 0-d array) to "
                f"differentiate, got shape {shape}"
            )
        if not engine.is_real_floating(raw_value):
            raise TypeError(
                f"{function} ({name}): f must return a real floating-point value, "
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
