"""eagerpy_xp: the Python Array API standard (2025.12) on NumPy, PyTorch, JAX and TensorFlow.

``eagerpy_xp.<backend>`` is the wrapped flavour (conformant `Array` objects),
``eagerpy_xp.native.<backend>`` the native flavour (the frameworks' own arrays).
Importing this package imports no framework.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ._array import Array, as_array
from ._detect import BACKENDS, backend_for
from ._devices import Device
from ._export import export, onnx_function
from ._namespace import get_namespace, namespace
from ._spec import API_VERSION as __array_api_version__
from .extensions import (
    astensor_,
    astensors_,
    convert,
    crossentropy,
    device,
    einsum,
    grad,
    index_update,
    jit,
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
    vmap,
)
from .interop import tensordot, watch_clients

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
    "kl_div_with_logits", "uniform", "normal", "einsum", "jit", "vmap",
    # ONNX (eagerpy_xp._export: ndonnx, onnx and onnxruntime are imported on use)
    "export", "onnx_function",
    # found by name by libraries that dispatch on a module (opt_einsum; autoray: interop)
    "tensordot", "interop",
]


def astensor(x: Any) -> Array:
    """Wrap a native array as an `Array` (an `Array` is returned as it is)."""
    if type(x) is Array:
        return x
    return as_array(backend_for(x, "eagerpy_xp.astensor"), x)


def astensors(*xs: Any) -> tuple[Array, ...]:
    """`astensor` applied to each argument."""
    return tuple(astensor(x) for x in xs)


watch_clients()

#: Subpackages served as attributes after ``import eagerpy_xp``, imported on first access
#: (each imports its framework then, not before).
_LAZY_SUBMODULES = (*BACKENDS, "native", "eagerpy")

#: EagerPy's functions whose standard name differs: EagerPy name -> the namespace's
_EAGERPY_RENAMED = {
    "arctanh": "atanh",
    "concatenate": "concat",
    "cumsum": "cumulative_sum",
    "transpose": "permute_dims",
    "slogdet": "linalg.slogdet",
    "from_numpy": "asarray",
    "flatten": "reshape",
    # added to EagerPy after 0.30
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "inv": "linalg.inv",
}

#: EagerPy's functions that every namespace has under the same name
_EAGERPY_STANDARD = frozenset({
    "abs", "all", "any", "arange", "argmax", "argmin", "argsort", "clip", "exp", "expand_dims",
    "flip", "full", "full_like", "isinf", "isnan", "log", "log10", "log1p", "log2",
    "logical_and", "logical_not", "logical_or", "matmul", "max", "maximum", "mean", "meshgrid",
    "min", "minimum", "ones", "ones_like", "pow", "prod", "reshape", "sign", "sort", "sqrt",
    "square", "squeeze", "stack", "sum", "take_along_axis", "tanh", "tile", "where", "zeros",
    "zeros_like",
    # added to EagerPy after 0.30
    "sin", "cos", "tan", "sinh", "cosh", "round", "ceil", "floor",
})  # fmt: skip

#: EagerPy's other module-level names: name -> where it went
_EAGERPY_OTHER = {
    "inf": "use xp.inf with xp = eagerpy_xp.namespace(x), or math.inf",
    "nan": "use xp.nan with xp = eagerpy_xp.namespace(x), or math.nan",
    "newaxis": "use None (or xp.newaxis)",
    "index": "use the key itself (x[1:, None]), or eagerpy_xp.eagerpy.index",
    "istensor": "use isinstance(x, eagerpy_xp.Array), or eagerpy_xp.eagerpy.istensor",
    "Tensor": "use eagerpy_xp.Array (one class for every framework), or eagerpy_xp.eagerpy.Tensor",
    "TensorType": "use eagerpy_xp.Array, or eagerpy_xp.eagerpy.TensorType",
    "TensorOrScalar": "use eagerpy_xp.Array | int | float, or eagerpy_xp.eagerpy.TensorOrScalar",
    "PyTorchTensor": "use eagerpy_xp.Array, or eagerpy_xp.eagerpy.PyTorchTensor",
    "TensorFlowTensor": "use eagerpy_xp.Array, or eagerpy_xp.eagerpy.TensorFlowTensor",
    "JAXTensor": "use eagerpy_xp.Array, or eagerpy_xp.eagerpy.JAXTensor",
    "NumPyTensor": "use eagerpy_xp.Array, or eagerpy_xp.eagerpy.NumPyTensor",
    "Axes": "use tuple[int, ...], or eagerpy_xp.eagerpy.types.Axes",
    "AxisAxes": "use int | tuple[int, ...], or eagerpy_xp.eagerpy.types.AxisAxes",
    "Shape": "use tuple[int, ...], or eagerpy_xp.eagerpy.types.Shape",
    "ShapeOrScalar": "use int | tuple[int, ...], or eagerpy_xp.eagerpy.types.ShapeOrScalar",
    "framework": "use eagerpy_xp.eagerpy.framework",
    "lib": "use eagerpy_xp.eagerpy.lib",
    "modules": "use the framework itself, or eagerpy_xp.eagerpy.modules",
    "tensor": "use eagerpy_xp.eagerpy.tensor",
    "types": "use eagerpy_xp.eagerpy.types",
    "utils": "use eagerpy_xp.eagerpy.utils",
}


def _eagerpy_hint(name: str) -> str | None:
    """Where EagerPy's module-level ``name`` went, or None if EagerPy had no such name."""
    if name in _EAGERPY_OTHER:
        return _EAGERPY_OTHER[name]
    standard = _EAGERPY_RENAMED.get(name, name if name in _EAGERPY_STANDARD else None)
    if standard is None:
        return None
    method = f"x.{name}(...), " if hasattr(Array, name) else ""
    return (
        f"use {method}xp.{standard}(...) with xp = eagerpy_xp.namespace(x), "
        f"or eagerpy_xp.eagerpy.{name}"
    )


def __getattr__(name: str) -> Any:
    """``eagerpy_xp.torch`` (and the other backends, ``native``, ``eagerpy``) import on first
    access; an EagerPy name says where it went."""
    if name in _LAZY_SUBMODULES:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ImportError as e:
            why = (
                "this version of eagerpy_xp has no such backend"
                if e.name == f"{__name__}.{name}"
                else f"{e} (install the framework, e.g. pip install 'eagerpy-xp[all]')"
            )
            raise AttributeError(f"eagerpy_xp.{name} is not available: {why}") from e
    hint = _eagerpy_hint(name)
    if hint is not None:
        raise AttributeError(f"eagerpy_xp.{name} does not exist (it is EagerPy's): {hint}")
    raise AttributeError(f"module 'eagerpy_xp' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names and the subpackages that exist (imported or not)."""
    lazy = [n for n in _LAZY_SUBMODULES if importlib.util.find_spec(f"{__name__}.{n}") is not None]
    return sorted({*__all__, *lazy, "__version__"})
