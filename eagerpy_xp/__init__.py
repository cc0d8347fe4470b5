"""eagerpy_xp: the Python Array API standard (2025.12) on NumPy, PyTorch, JAX and TensorFlow.

``eagerpy_xp.<backend>`` is the wrapped flavour (conformant `Array` objects),
``eagerpy_xp.native.<backend>`` the native flavour (the frameworks' own arrays).
Importing this package imports no framework.
"""

from __future__ import annotations

from typing import Any

from ._array import Array
from ._array import _wrap as _wrap_raw
from ._detect import BACKEND_BY_TYPE, backend_for
from ._devices import Device
from ._namespace import get_namespace, namespace
from ._spec import API_VERSION as __array_api_version__
from .extensions import (
    astensor_,
    astensors_,
    convert,
    crossentropy,
    device,
    grad,
    index_update,
    kl_div_with_logits,
    log_softmax,
    logsumexp,
    normal,
    norms,
    onehot_like,
    pad,
    portable,
    softmax,
    to_device,
    topk,
    uniform,
    value_and_grad,
    value_and_grad_fn,
    value_aux_and_grad,
)

__version__ = "0.1.0"

__all__ = [
    "Array",
    "Device",
    "astensor",
    "astensors",
    "get_namespace",
    "namespace",
    "__array_api_version__",
    # the EagerPy extensions (eagerpy_xp.extensions)
    "astensor_", "astensors_", "portable", "value_and_grad", "value_aux_and_grad", "grad",
    "value_and_grad_fn", "device", "to_device", "convert", "norms", "softmax", "log_softmax",
    "logsumexp", "onehot_like", "crossentropy", "topk", "index_update", "pad",
    "kl_div_with_logits", "uniform", "normal",
]


def astensor(x: Any) -> Array:
    """Wrap a native array as an `Array` (an `Array` is returned as it is)."""
    if type(x) is Array:
        return x
    backend = BACKEND_BY_TYPE.get(type(x)) or backend_for(x, "eagerpy_xp.astensor")
    return _wrap_raw(backend, x)


def astensors(*xs: Any) -> tuple[Array, ...]:
    """`astensor` applied to each argument."""
    return tuple(astensor(x) for x in xs)
