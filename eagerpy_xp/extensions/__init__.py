"""The EagerPy extensions: autodiff, devices, helpers and the native boundary.

Written once over the standard namespace plus one autodiff engine per framework.  At
top level (``eagerpy_xp.softmax``) each function keeps its caller's type; `bind` makes
the copies every namespace carries (``xp.softmax``), which take that namespace's backend
and return its flavour (natives for ``eagerpy_xp.native.<b>``, `Array`s for
``eagerpy_xp.<b>``).  Importing this package imports no framework.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .._array import Array
from .._detect import backend_of_type
from .autodiff import grad, value_and_grad, value_and_grad_fn, value_aux_and_grad
from .boundary import RestoreType, astensor_, astensors_, map_arrays, portable
from .devices import convert, device, to_device
from .einsum import einsum
from .helpers import (
    Lib,
    Norms,
    crossentropy,
    index_update,
    kl_div_with_logits,
    log_softmax,
    logsumexp,
    normal,
    norms,
    onehot_like,
    pad,
    sliding_window_view,
    softmax,
    topk,
    uniform,
)
from .transforms import jit, vmap

__all__ = [
    "Lib", "Norms", "RestoreType", "astensor_", "astensors_", "bind", "convert", "crossentropy",
    "device", "einsum", "grad", "index_update", "jit", "kl_div_with_logits", "log_softmax",
    "logsumexp", "normal", "norms", "onehot_like", "pad", "portable", "sliding_window_view",
    "softmax", "to_device", "topk", "uniform", "value_and_grad", "value_and_grad_fn",
    "value_aux_and_grad", "vmap",
]  # fmt: skip

#: The extension functions every namespace carries (besides ``norms``).
NAMESPACE_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "value_and_grad": value_and_grad,
    "value_aux_and_grad": value_aux_and_grad,
    "grad": grad,
    "value_and_grad_fn": value_and_grad_fn,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "logsumexp": logsumexp,
    "onehot_like": onehot_like,
    "crossentropy": crossentropy,
    "topk": topk,
    "index_update": index_update,
    "kl_div_with_logits": kl_div_with_logits,
    "pad": pad,
    "einsum": einsum,
    "uniform": uniform,
    "normal": normal,
    "device": device,
    "to_device": to_device,
    "convert": convert,
    "jit": jit,
    "vmap": vmap,
}

#: Every name `bind` adds to a namespace.
NAMESPACE_NAMES = (*NAMESPACE_FUNCTIONS, "norms", "lib")


def _adapter(module: str, backend: str, wrapped: bool) -> Callable[[Callable[..., Any]],
                                                                      Callable[..., Any]]:  # fmt: skip
    """Turns a generic extension into one of namespace ``module``: its arrays are
    converted to the namespace's flavour and must belong to its backend."""

    def convert_one(function: str, x: Any) -> Any:
        name = x._b.name if type(x) is Array else backend_of_type(type(x))
        if name != backend and name == "numpy" and type(x).__name__ != "ndarray":
            return x  # a NumPy scalar (numpy.float64(nan)): a scalar to every namespace
        if name != backend:
            raise TypeError(
                f"{module}.{function}: got a {name} array; this namespace takes "
                f"{backend} arrays (eagerpy_xp.convert moves arrays between frameworks)"
            )
        if wrapped:
            return x if type(x) is Array else Array(x)
        return x._raw if type(x) is Array else x

    def adapt(fn: Callable[..., Any]) -> Callable[..., Any]:
        function = fn.__name__

        def one(x: Any) -> Any:
            return convert_one(function, x)

        @functools.wraps(fn)
        def bound(*args: Any, **kwargs: Any) -> Any:
            return fn(*map_arrays(one, args), **map_arrays(one, kwargs))

        return bound

    return adapt


def bind(module: str, backend: str, wrapped: bool) -> dict[str, Any]:
    """The extensions for namespace ``module`` of ``backend`` in one flavour."""
    adapt = _adapter(module, backend, wrapped)
    names: dict[str, Any] = {name: adapt(fn) for name, fn in NAMESPACE_FUNCTIONS.items()}
    make_fn = names["value_and_grad_fn"]

    @functools.wraps(value_and_grad_fn)
    def value_and_grad_fn_bound(x: Any, f: Callable[..., Any], has_aux: bool = False,
                                argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:  # fmt: skip
        return adapt(make_fn(x, f, has_aux=has_aux, argnums=argnums))

    names["value_and_grad_fn"] = value_and_grad_fn_bound
    names["norms"] = Norms(adapt)
    names["lib"] = Lib(adapt)
    return names
