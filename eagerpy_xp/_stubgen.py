"""Writes the type stubs of every namespace from the standard's names and signatures.

The namespaces are filled when they are imported, so a type checker learns their names
from stubs: ``eagerpy_xp/<backend>.pyi`` (wrapped flavour: `Array` out) and
``eagerpy_xp/native/<backend>.pyi`` (native flavour: the framework's array out).  Every
function of `eagerpy_xp._spec` (namespace, ``linalg``, ``fft``) is written with the spec's
parameter list and defaults, annotated from `PARAMETERS` (by parameter name, refined per
function in `OVERRIDES`) and `RETURNS`; the extensions every namespace carries
(`eagerpy_xp.extensions.NAMESPACE_NAMES`) take their parameter lists from the functions
themselves.  A backend gets stubs when its modules exist; its types come from its
descriptor (`eagerpy_xp._descriptor.StubNames`).

    python -m eagerpy_xp._stubgen          # rewrite the stubs
    python -m eagerpy_xp._stubgen --check  # exit 1 if a committed stub is out of date
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from . import _spec
from ._detect import REGISTRY

# Annotations use the stub's aliases: _In (an array argument), _Operand (an array or a
# Python scalar), _Out (the flavour's result array), _DType (the backend's dtype type).
#: Annotation by parameter name.
PARAMETERS: dict[str, str] = {
    "x": "_In", "x1": "_Operand", "x2": "_Operand", "condition": "_In", "obj": "object",
    "arrays": "_In", "arrays_and_dtypes": "_In | _DType | Scalar", "shapes": "tuple[int, ...]",
    "shape": "Shape", "axis": "Axis", "axes": "tuple[int, ...]", "keepdims": "bool",
    "copy": "bool | None", "descending": "bool", "stable": "bool", "include_initial": "bool",
    "endpoint": "bool", "invert": "bool", "upper": "bool", "full_matrices": "bool",
    "dtype": "_DType | None", "device": "object", "stream": "object", "k": "int",
    "offset": "int", "n": "int | None", "correction": "int | float",
    "rtol": "float | _In | None", "norm": "Literal['backward', 'ortho', 'forward']",
    "mode": "Literal['reduced', 'complete']", "side": "Literal['left', 'right']",
    "indexing": "Literal['xy', 'ij']", "s": "Sequence[int] | None", "d": "float",
    "start": "int | float", "stop": "int | float | None", "step": "int | float",
    "num": "int", "n_rows": "int", "n_cols": "int | None", "fill_value": "Scalar",
    "from_": "_DType | _In", "to": "_DType", "type": "_DType | _In",
    "kind": "_DType | str | tuple[_DType | str, ...]", "min": "_Operand | None",
    "max": "_Operand | None", "indices": "_In", "repeats": "int | _In",
    "repetitions": "tuple[int, ...]", "shift": "int | tuple[int, ...]",
    "source": "int | tuple[int, ...]", "destination": "int | tuple[int, ...]",
    "prepend": "_Operand | None", "append": "_Operand | None", "sorter": "_In | None",
    "ord": "int | float",
    # the extensions
    "f": "Callable[..., Any]", "args": "Any", "kwargs": "Any", "has_aux": "bool",
    "argnums": "int | tuple[int, ...]", "sorted": "bool", "value": "Any",
    "values": "_Operand", "paddings": "int | Sequence[int] | Sequence[Sequence[int]]",
    "low": "float", "high": "float", "mean": "float", "stddev": "float", "rng": "Any", "backend": "str",
    "logits": "_In", "labels": "_In", "logits_p": "_In", "logits_q": "_In",
    "subscripts": "str", "operands": "_In", "constant_values": "Any",
    "options": "Any",
}  # fmt: skip

#: Annotation of one function's parameter where it differs from `PARAMETERS`.
OVERRIDES: dict[tuple[str, str], str] = {
    ("astype", "dtype"): "_DType",
    ("isdtype", "dtype"): "_DType",
    ("where", "x1"): "_Operand", ("where", "x2"): "_Operand",
    ("arange", "start"): "int | float", ("arange", "stop"): "int | float | None",
    ("linspace", "start"): "int | float | complex", ("linspace", "stop"): "int | float | complex",
    ("reshape", "shape"): "tuple[int, ...]", ("broadcast_to", "shape"): "tuple[int, ...]",
    ("concat", "arrays"): "Sequence[_In]", ("stack", "arrays"): "Sequence[_In]",
    ("concat", "axis"): "int | None", ("stack", "axis"): "int", ("unstack", "axis"): "int",
    ("take", "axis"): "int | None", ("take_along_axis", "axis"): "int",
    ("repeat", "axis"): "int | None", ("vecdot", "axis"): "int", ("cross", "axis"): "int",
    ("argmax", "axis"): "int | None", ("argmin", "axis"): "int | None",
    ("sort", "axis"): "int", ("argsort", "axis"): "int", ("diff", "axis"): "int",
    ("diff", "n"): "int", ("cumulative_sum", "axis"): "int | None",
    ("cumulative_prod", "axis"): "int | None", ("matrix_power", "n"): "int",
    ("fftfreq", "n"): "int", ("rfftfreq", "n"): "int",
    ("tensordot", "axes"): "int | tuple[Sequence[int], Sequence[int]]",
    ("matrix_norm", "ord"): "int | float | Literal['fro', 'nuc'] | None",
    ("pad", "mode"): "str", ("onehot_like", "value"): "Scalar",
    ("softmax", "axis"): "int", ("log_softmax", "axis"): "int",
    ("kl_div_with_logits", "axis"): "int", ("to_device", "device"): "object",
    ("jit", "fn"): "Callable[..., Any] | None", ("jit", "options"): "Any",
    ("vmap", "fn"): "Callable[..., Any]", ("vmap", "in_axes"): "int | tuple[int | None, ...] | None",
    ("vmap", "out_axes"): "int | tuple[int, ...]",
}  # fmt: skip
for _name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    OVERRIDES[(_name, "axis")] = "int"
for _name in ("fftn", "ifftn", "rfftn", "irfftn"):
    OVERRIDES[(_name, "axes")] = "Sequence[int] | None"
for _name in ("fftshift", "ifftshift"):
    OVERRIDES[(_name, "axes")] = "int | Sequence[int] | None"

#: Return annotation by function name (default ``_Out``).
RETURNS: dict[str, str] = {
    "can_cast": "bool", "isdtype": "bool", "finfo": "FInfo", "iinfo": "IInfo",
    "result_type": "_DType", "broadcast_shapes": "tuple[int, ...]",
    "broadcast_arrays": "tuple[_Out, ...]", "meshgrid": "tuple[_Out, ...]",
    "nonzero": "tuple[_Out, ...]", "unstack": "tuple[_Out, ...]",
    "unique_all": "tuple[_Out, _Out, _Out, _Out]", "unique_counts": "tuple[_Out, _Out]",
    "unique_inverse": "tuple[_Out, _Out]", "eigh": "tuple[_Out, _Out]",
    "eig": "tuple[_Out, _Out]", "qr": "tuple[_Out, _Out]", "slogdet": "tuple[_Out, _Out]",
    "svd": "tuple[_Out, _Out, _Out]",
    # the extensions
    "value_and_grad": "tuple[Any, ...]", "value_aux_and_grad": "tuple[Any, Any, Any]",
    "grad": "Any", "value_and_grad_fn": "Callable[..., tuple[Any, ...]]",
    "topk": "tuple[_Out, _Out]", "device": "Device", "convert": "Any",
    "jit": "Callable[..., Any]", "vmap": "Callable[..., Any]",
}  # fmt: skip

HEADER = '''\
# Generated by `python -m eagerpy_xp._stubgen` from the standard's names and signatures
# (eagerpy_xp/_spec.py); do not edit.  The {flavour} flavour of {backend}.
import builtins
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeAlias

{imports}

from eagerpy_xp._array import Array
from eagerpy_xp._devices import Device
from eagerpy_xp._typing import Axis, FInfo, IInfo, Info, Lib, Norms, Scalar, Shape

_In: TypeAlias = Array | {array}
_Operand: TypeAlias = _In | Scalar
_Out: TypeAlias = {out}
_DType: TypeAlias = {dtype}
_Bool: TypeAlias = builtins.bool
'''

PACKAGE = Path(__file__).resolve().parent


def _parameters(sig: inspect.Signature) -> list[inspect.Parameter]:
    return list(sig.parameters.values())


def _render(name: str, params: Iterable[inspect.Parameter], returns: str, indent: str = "",
            self: bool = False) -> str:  # fmt: skip
    """One ``def`` line of a stub, parameters annotated from the tables."""
    parts = ["self"] if self else []
    params = list(params)
    for i, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and not any(q.kind in (q.KEYWORD_ONLY, q.VAR_POSITIONAL)
                                                for q in params[:i]):  # fmt: skip
            parts.append("*")
        annotation = OVERRIDES.get((name, p.name)) or PARAMETERS.get(p.name)
        if annotation is None:
            raise KeyError(f"_stubgen: no annotation for parameter {p.name!r} of {name}; "
                           f"add it to PARAMETERS or OVERRIDES")  # fmt: skip
        annotation = _builtin_bool(annotation)
        star = "*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else ""
        text = f"{star}{p.name}: {annotation}"
        if p.default is not p.empty:
            text += f" = {p.default!r}"
        parts.append(text)
        last_positional = p.kind is p.POSITIONAL_ONLY and (
            i + 1 == len(params) or params[i + 1].kind is not p.POSITIONAL_ONLY)
        if last_positional:
            parts.append("/")
    return f"{indent}def {name}({', '.join(parts)}) -> {_builtin_bool(returns)}: ..."


def _builtin_bool(annotation: str) -> str:
    """The stub's ``bool`` is the dtype; Python's is ``_Bool``."""
    return re.sub(r"\bbool\b", "_Bool", annotation)


def _spec_function(name: str, text: str, indent: str = "", self: bool = False) -> str:
    from ._wrap import _spec_signature

    return _render(name, _parameters(_spec_signature(text)), RETURNS.get(name, "_Out"),
                   indent, self)  # fmt: skip


def _extensions() -> dict[str, Callable[..., Any]]:
    from .extensions import NAMESPACE_FUNCTIONS

    return NAMESPACE_FUNCTIONS


def render(backend: str, wrapped: bool) -> str:
    """The stub text of ``eagerpy_xp.<backend>`` (wrapped) or ``eagerpy_xp.native.<backend>``."""
    descriptor = REGISTRY[backend]
    types = descriptor.stub
    lines = [HEADER.format(
        flavour="wrapped" if wrapped else "native", backend=backend, imports=types.imports,
        array=types.array, dtype=types.dtype, out="Array" if wrapped else types.array,
    )]  # fmt: skip
    lines.append("__array_api_version__: str\n")
    lines += [f"{name}: _DType" for name in _spec.DTYPES if name not in descriptor.absent]
    lines += [f"{name}: {'None' if name == 'newaxis' else 'float'}" for name in _spec.CONSTANTS]
    lines.append("\ndef __array_namespace_info__() -> Info: ...")
    lines += [_spec_function(name, text) for name, text in _spec.FUNCTIONS.items()]
    for module, table in (("linalg", _spec.LINALG), ("fft", _spec.FFT)):
        lines.append(f"\nclass _{module.capitalize()}:")
        lines += [_spec_function(name, text, "    ", self=True) for name, text in table.items()]
        lines.append(f"\n{module}: _{module.capitalize()}")
    lines.append("\n# the EagerPy extensions every namespace carries")
    lines += [_render(name, _parameters(inspect.signature(fn)), RETURNS.get(name, "_Out"))
              for name, fn in _extensions().items()]  # fmt: skip
    lines.append("norms: Norms[_Out]")
    lines.append("lib: Lib[_Out]")
    return "\n".join(lines) + "\n"


def targets() -> dict[Path, tuple[str, bool]]:
    """Stub path -> (backend, wrapped) for every backend whose module exists."""
    found: dict[Path, tuple[str, bool]] = {}
    for backend in REGISTRY:
        if (PACKAGE / f"{backend}.py").exists():
            found[PACKAGE / f"{backend}.pyi"] = (backend, True)
        if (PACKAGE / "native" / f"{backend}.py").exists():
            found[PACKAGE / "native" / f"{backend}.pyi"] = (backend, False)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for path, (backend, wrapped) in targets().items():
        text = render(backend, wrapped)
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text)
    for path in stale:
        print(f"{'out of date' if args.check else 'wrote'}: {path.relative_to(PACKAGE.parent)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
