"""EagerPy 0.30's API on eagerpy_xp.

``import eagerpy_xp.eagerpy as ep`` replaces ``import eagerpy as ep``: the same names,
signatures and results (EagerPy's PyTorch behaviour where its frameworks disagreed), on
PyTorch, TensorFlow, JAX and NumPy arrays and on `eagerpy_xp.Array`s.  For code you
cannot edit (Foolbox, ...), `install` makes ``import eagerpy`` return this package;
`uninstall` undoes it.  See ``docs/eagerpy.md``.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TypeVar

from . import astensor as _astensor_module
from . import framework, lib, modules, norms, tensor, types, utils
from .astensor import astensor, astensor_, astensors, astensors_
from .framework import (
    abs,
    all,
    any,
    arange,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    argmax,
    argmin,
    argsort,
    ceil,
    clip,
    concatenate,
    cos,
    cosh,
    crossentropy,
    cumsum,
    exp,
    expand_dims,
    flatten,
    flip,
    floor,
    from_numpy,
    full,
    full_like,
    index_update,
    inf,
    inv,
    isinf,
    isnan,
    log,
    log1p,
    log2,
    log10,
    log_softmax,
    logical_and,
    logical_not,
    logical_or,
    matmul,
    max,
    maximum,
    mean,
    meshgrid,
    min,
    minimum,
    nan,
    newaxis,
    normal,
    onehot_like,
    ones,
    ones_like,
    pad,
    pow,
    prod,
    reshape,
    round,
    sign,
    sin,
    sinh,
    slogdet,
    softmax,
    sort,
    sqrt,
    square,
    squeeze,
    stack,
    sum,
    take_along_axis,
    tan,
    tanh,
    tile,
    topk,
    transpose,
    uniform,
    value_and_grad,
    value_and_grad_fn,
    value_aux_and_grad,
    where,
    zeros,
    zeros_like,
)
from .lib import kl_div_with_logits
from .modules import jax, numpy, tensorflow, torch
from .tensor import (
    ArrayTensor,
    DaskTensor,
    JAXTensor,
    NumPyTensor,
    PyTorchTensor,
    Tensor,
    TensorFlowTensor,
    TensorOrScalar,
    TensorType,
    istensor,
)
from .types import Axes, AxisAxes, Shape, ShapeOrScalar

#: the EagerPy release whose API this package implements
__version__ = "0.30.0"

_T = TypeVar("_T")


class _Indexable:
    """``ep.index[...]`` returns the key it is given."""

    __slots__ = ()

    def __getitem__(self, index: _T) -> _T:
        return index


index = _Indexable()

__all__ = [
    "Axes", "AxisAxes", "Shape", "ShapeOrScalar", "ArrayTensor", "DaskTensor", "JAXTensor",
    "NumPyTensor", "PyTorchTensor", "Tensor", "TensorFlowTensor", "TensorOrScalar",
    "TensorType", "abs", "all", "any", "arange", "arccos", "arccosh", "arcsin", "arcsinh",
    "arctan", "arctanh", "argmax", "argmin", "argsort", "astensor", "astensor_",
    "astensors", "astensors_", "ceil", "clip", "concatenate", "cos", "cosh", "crossentropy",
    "cumsum", "exp", "expand_dims", "flatten", "flip", "floor", "framework", "from_numpy",
    "full", "full_like", "index", "index_update", "inf", "install", "installed", "inv",
    "isinf", "isnan", "istensor", "jax", "kl_div_with_logits", "lib", "log", "log10",
    "log1p", "log2", "log_softmax", "logical_and", "logical_not", "logical_or", "matmul",
    "max", "maximum", "mean", "meshgrid", "min", "minimum", "modules", "nan", "newaxis",
    "normal", "norms", "numpy", "onehot_like", "ones", "ones_like", "pad", "pow", "prod",
    "reshape", "round", "sign", "sin", "sinh", "slogdet", "softmax", "sort", "sqrt",
    "square", "squeeze", "stack", "sum", "take_along_axis", "tan", "tanh", "tensor",
    "tensorflow", "tile", "topk", "torch", "transpose", "types", "uniform", "uninstall",
    "utils", "value_and_grad", "value_and_grad_fn", "value_aux_and_grad", "where", "zeros",
    "zeros_like",
]  # fmt: skip


def _aliases() -> dict[str, ModuleType]:
    """What `install` puts in `sys.modules`: EagerPy's module names and this package's
    modules (``eagerpy.tensor.pytorch`` and the other files of EagerPy's ``tensor``
    package all map to the one `tensor` module)."""
    package = sys.modules[__name__]
    aliases = {"eagerpy": package, "eagerpy.astensor": _astensor_module}
    for module in (framework, lib, modules, norms, tensor, types, utils):
        aliases["eagerpy." + module.__name__.rsplit(".", 1)[-1]] = module
    for part in ("tensor", "base", "extensions", "pytorch", "tensorflow", "jax", "numpy"):
        aliases["eagerpy.tensor." + part] = tensor
    return aliases


#: `sys.modules` entries named ``eagerpy*`` before `install`, or None when not installed
_saved: dict[str, ModuleType] | None = None


def installed() -> bool:
    """Whether `install` is in effect."""
    return _saved is not None


def install() -> None:
    """Make ``import eagerpy`` (and ``eagerpy.tensor``, ``eagerpy.types``, ...) return this
    package, for libraries that import EagerPy themselves.  Call it before importing them:
    a module that already did ``import eagerpy`` keeps what it got.  Calling it again does
    nothing."""
    global _saved
    if _saved is not None:
        return
    _saved = {
        name: sys.modules.pop(name)
        for name in list(sys.modules)
        if name == "eagerpy" or name.startswith("eagerpy.")
    }
    sys.modules.update(_aliases())


def uninstall() -> None:
    """Undo `install`: ``import eagerpy`` finds the real EagerPy again (the ``sys.modules``
    entries from before `install` are put back).  Does nothing when not installed."""
    global _saved
    if _saved is None:
        return
    for name in [n for n in sys.modules if n == "eagerpy" or n.startswith("eagerpy.")]:
        del sys.modules[name]
    sys.modules.update(_saved)
    _saved = None
