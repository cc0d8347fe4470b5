"""`export`: a portable function as an ONNX model; `onnx_function`: a model as a function.

The function is traced through the ndonnx backend (``eagerpy_xp.native.ndonnx``, and
``eagerpy_xp.ndonnx`` for `Array` examples): it receives symbolic arrays of the
examples' shapes and dtypes, and ``ep.namespace(x)`` inside it is ndonnx's.  The examples
may be arrays of any backend or `Array`s: only their shapes and dtypes are read, so the
same function exported from NumPy, torch, JAX, TensorFlow or MLX examples gives the same
model.  This module names no framework; it reaches the ndonnx backend by name through
the registry (imported on first use: ``import eagerpy_xp`` imports no ONNX package).
See docs/onnx.md.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._array import Array, as_array
from ._detect import backend_for, backend_named

#: The registered backend that traces and runs ONNX models.
_ONNX_BACKEND = "ndonnx"


def _example(x: Any, position: int) -> tuple[Any, Any]:
    """The backend and the native array of example ``position``."""
    if type(x) is Array:
        return x._b, x._raw
    try:
        return backend_for(x, "eagerpy_xp.export"), x
    except TypeError:
        raise TypeError(f"eagerpy_xp.export: example {position} must be an array (of any "
                        f"backend) or an eagerpy_xp.Array, got {type(x).__name__}") from None  # fmt: skip


def _input_names(fn: Callable[..., Any], count: int) -> list[str]:
    """The names of ``fn``'s first ``count`` positional parameters (``x0``, ``x1`` ...
    where it has none by name)."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    names = []
    for i in range(count):
        p = parameters[i] if i < len(parameters) else None
        if p is not None and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        else:
            names.append(f"x{i}")
    return names


def _dynamic(dynamic_axes: Any, names: list[str], shapes: list[tuple[Any, ...]]
             ) -> list[dict[int, str]]:  # fmt: skip
    """``dynamic_axes`` as one ``{axis: dimension name}`` per input.

    Accepted: None; a mapping from an input's position or name to its dynamic axes; or a
    sequence with one entry per input.  An input's axes are a mapping ``{axis: name}``
    (inputs sharing a name share the size), or a sequence of axes (each named
    ``<input>_<axis>``), or None."""
    result: list[dict[int, str]] = [{} for _ in names]
    if dynamic_axes is None:
        entries: list[tuple[int, Any]] = []
    elif isinstance(dynamic_axes, Mapping):
        entries = []
        for key, axes in dynamic_axes.items():
            if isinstance(key, str) and key in names:
                entries.append((names.index(key), axes))
            elif isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(names):
                entries.append((key, axes))
            else:
                raise ValueError(f"eagerpy_xp.export: dynamic_axes names the input {key!r}; "
                                 f"the inputs are {', '.join(names)} (or their positions)")  # fmt: skip
    elif isinstance(dynamic_axes, Sequence) and not isinstance(dynamic_axes, str):
        if len(dynamic_axes) != len(names):
            raise ValueError(f"eagerpy_xp.export: dynamic_axes has {len(dynamic_axes)} entries "
                             f"for {len(names)} inputs")  # fmt: skip
        entries = list(enumerate(dynamic_axes))
    else:
        raise TypeError(f"eagerpy_xp.export: dynamic_axes must be None, a dict or a sequence, "
                        f"got {type(dynamic_axes).__name__}")  # fmt: skip
    for position, axes in entries:
        ndim = len(shapes[position])
        if axes is None:
            continue
        pairs = axes.items() if isinstance(axes, Mapping) else (
            (a, f"{names[position]}_{a}") for a in axes)  # fmt: skip
        for axis, label in pairs:
            if isinstance(axis, bool) or not isinstance(axis, int) or not -ndim <= axis < ndim:
                raise ValueError(f"eagerpy_xp.export: dynamic axis {axis!r} of input "
                                 f"{names[position]!r} is out of range for its {ndim} "
                                 "dimensions")  # fmt: skip
            if not isinstance(label, str) or not label:
                raise TypeError(f"eagerpy_xp.export: a dynamic axis is named by a non-empty "
                                f"str, got {label!r}")  # fmt: skip
            result[position][axis % ndim] = label
    return result


def export(fn: Callable[..., Any], *examples: Any, dynamic_axes: Any = None) -> Any:
    """The ``onnx.ModelProto`` of the portable function ``fn`` traced on ``examples``.

    ``fn`` takes the examples positionally and returns an array, a tuple or list of
    arrays (outputs ``output_0`` ...), or a dict of arrays (outputs by key); it finds its
    namespace with ``xp = ep.namespace(x)``.  The model's inputs are named after ``fn``'s
    parameters and have the examples' shapes and dtypes; ``dynamic_axes`` makes axes of
    unknown size (`_dynamic`: ``{0: {0: "batch"}}``, ``{"x": [0]}``, ``[[0], None]``).
    Examples given as `Array`s reach ``fn`` as `Array`s (the wrapped flavour, with
    ``x[k] = v`` and the operators), native ones as ndonnx arrays.

    Raises `ValueError` for Python control flow on an array's value
    (``bool()``, ``float()``, ``int()``, an ``if``: the value exists only when the model
    runs) and `NotImplementedError` naming the function for what ONNX cannot hold.
    """
    if not callable(fn):
        raise TypeError(f"eagerpy_xp.export: fn must be callable, got {type(fn).__name__}")
    found = [_example(x, i) for i, x in enumerate(examples)]
    names = _input_names(fn, len(examples))
    shapes = [tuple(b.shape_of(raw)) for b, raw in found]
    dynamic = _dynamic(dynamic_axes, names, shapes)
    inputs = []
    for i, ((b, raw), name, shape) in enumerate(zip(found, names, shapes)):
        dims = tuple(dynamic[i].get(a, f"{name}_{a}" if s is None else s)
                     for a, s in enumerate(shape))  # fmt: skip
        inputs.append((name, dims, b.dtype_name(raw.dtype), type(examples[i]) is Array))
    onnx_backend = backend_named(_ONNX_BACKEND)

    def wrap(raw: Any) -> Array:
        return as_array(onnx_backend, raw)

    function_name = getattr(fn, "__qualname__", None) or repr(fn)
    return onnx_backend.export_model(fn, inputs, wrap, _unwrap, function_name)


def _unwrap(value: Any) -> Any:
    return value._raw if type(value) is Array else value


def onnx_function(model: Any) -> Callable[..., Any]:
    """A function running the ONNX ``model`` (a ``ModelProto``, its bytes or a path)
    with onnxruntime: it takes arrays of any backend (or `Array`s) for the model's
    inputs, in order or by name, and returns its outputs (one array, or a tuple) in the
    first argument's backend and flavour (NumPy arrays for NumPy or no arrays)."""
    run = backend_named(_ONNX_BACKEND).model_function(model)

    def call(*args: Any, **kwargs: Any) -> Any:
        first = next((a for a in (*args, *kwargs.values()) if a is not None), None)
        hosts = [_host(a) for a in args]
        named = {k: _host(v) for k, v in kwargs.items()}
        results = run(*hosts, **named)
        if first is None:
            return results
        if isinstance(results, tuple):
            return tuple(_like(first, r) for r in results)
        return _like(first, results)

    call.__doc__ = f"The ONNX model with inputs {', '.join(run.input_names)}, run by onnxruntime."
    call.input_names = run.input_names  # type: ignore[attr-defined]
    call.output_names = run.output_names  # type: ignore[attr-defined]
    return call


def _host(x: Any) -> Any:
    """``x`` as a NumPy array (a Python scalar or NumPy value as it is)."""
    if type(x) is Array:
        return x._b.to_numpy(x._raw)
    if isinstance(x, (bool, int, float)) or type(x).__module__.partition(".")[0] == "numpy":
        import numpy as np

        return np.asarray(x)
    b = backend_for(x, "eagerpy_xp.onnx_function")
    return b.to_numpy(x)


def _like(first: Any, result: Any) -> Any:
    """The NumPy ``result`` in ``first``'s backend and flavour."""
    wrapped = type(first) is Array
    if wrapped:
        b = first._b
    elif type(first).__module__.partition(".")[0] == "numpy" or isinstance(first, (bool, int, float)):
        return result
    else:
        b = backend_for(first, "eagerpy_xp.onnx_function")
    native = b.asarray(result, dtype=b.dtypes_by_name[str(result.dtype)])
    return as_array(b, native) if wrapped else native
