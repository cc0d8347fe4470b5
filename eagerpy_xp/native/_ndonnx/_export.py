"""Tracing a portable function into an ONNX model, and running a model (docs/onnx.md).

`trace` gives the function symbolic ndonnx arrays (``ndx.argument``) of the examples'
shapes and dtypes, native or wrapped as the examples were, and builds the graph of what
it returns (``ndx.build``).  `ModelFunction` runs a model with onnxruntime.  The generic
front end, `eagerpy_xp.export` and `eagerpy_xp.onnx_function`, reads the examples of
any backend and converts the results back (`eagerpy_xp._export`).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ndonnx as ndx
import numpy as np

from ._core import _NO_VALUE, NDONNX_DTYPES, WHY_NO_COMPLEX

#: One input: its name, its shape (ints, or names of dynamic axes) and dtype name, and
#: whether the function receives it wrapped (an `Array`) or native.
InputSpec = tuple[str, tuple[int | str, ...], str, bool]

_CONTROL_FLOW = ("Python control flow on the value of a symbolic array (bool(), float(), "
                 "int(), an if or a while on an array) cannot be exported: the value exists "
                 "only when the model runs; use xp.where to choose between values")  # fmt: skip


def _where_in(fn: Callable[..., Any], exc: BaseException) -> str:
    """``file:line`` of the innermost frame of ``exc``'s traceback outside eagerpy_xp and
    ndonnx (where the user's code asked for the value)."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        path = frame.filename.replace("\\", "/")
        if "/eagerpy_xp/" not in path and "/ndonnx/" not in path and "/spox/" not in path:
            code = f": {frame.line}" if frame.line else ""
            return f" (at {frame.filename}:{frame.lineno}{code})"
    return ""


def trace(fn: Callable[..., Any], inputs: Sequence[InputSpec], wrap: Callable[[Any], Any],
          unwrap: Callable[[Any], Any], function_name: str) -> Any:  # fmt: skip
    """The `onnx.ModelProto` of ``fn`` called on symbolic arrays of ``inputs``.

    ``wrap`` makes an `Array` of a native ndonnx array; ``unwrap`` gives a result's native
    array (or raises `TypeError` for what is none).  Results: one array, a tuple or list
    of them (outputs ``output_0``, ...), or a dict of them (outputs by key)."""
    arguments = {}
    passed = []
    for name, shape, dtype_name, wrapped in inputs:
        if dtype_name not in NDONNX_DTYPES:
            raise NotImplementedError(f"eagerpy_xp.export: input {name!r} has dtype "
                                      f"{dtype_name}: {WHY_NO_COMPLEX}")  # fmt: skip
        argument = ndx.argument(shape=shape, dtype=NDONNX_DTYPES[dtype_name])
        arguments[name] = argument
        passed.append(wrap(argument) if wrapped else argument)
    try:
        results = fn(*passed)
    except ValueError as exc:
        if _NO_VALUE in str(exc):  # ndonnx's own __bool__/__float__ of a symbolic array
            raise ValueError(f"eagerpy_xp.export: {function_name}: {_CONTROL_FLOW}"
                              f"{_where_in(fn, exc)}") from exc  # fmt: skip
        raise
    except NotImplementedError as exc:
        text = str(exc)
        if "is symbolic" in text:  # an `Array`'s bool()/float()/item(): the backend's
            raise ValueError(f"eagerpy_xp.export: {function_name}: {_CONTROL_FLOW}"
                              f"{_where_in(fn, exc)}") from exc  # fmt: skip
        raise NotImplementedError(f"eagerpy_xp.export: {function_name} cannot be exported: "
                                  f"{text}") from exc  # fmt: skip
    outputs = _outputs(results, unwrap, function_name)
    return ndx.build(arguments, outputs)


def _outputs(results: Any, unwrap: Callable[[Any], Any], function_name: str) -> dict[str, Any]:
    if isinstance(results, Mapping):
        items = [(str(k), v) for k, v in results.items()]
    elif isinstance(results, (tuple, list)):
        items = [(f"output_{i}", v) for i, v in enumerate(results)]
    else:
        items = [("output_0", results)]
    if not items:
        raise ValueError(f"eagerpy_xp.export: {function_name} returned no array")
    outputs = {}
    for name, value in items:
        raw = unwrap(value)
        if type(raw) is not ndx.Array:
            raise TypeError(f"eagerpy_xp.export: {function_name} must return arrays (one, "
                            f"a tuple, a list or a dict of them); output {name!r} is "
                            f"{type(value).__name__}")  # fmt: skip
        outputs[name] = raw
    return outputs


class ModelFunction:
    """An ONNX model run by onnxruntime as a function of NumPy arrays: positional
    arguments in the model's input order (or keywords by input name); one output comes
    back as one array, several as a tuple."""

    def __init__(self, model: Any) -> None:
        import onnxruntime as ort

        if hasattr(model, "SerializeToString"):
            data = model.SerializeToString()
        elif isinstance(model, (bytes, str)):
            data = model
        else:
            raise TypeError(f"eagerpy_xp.onnx_function: expected an onnx.ModelProto, its bytes "
                            f"or a path, got {type(model).__name__}")  # fmt: skip
        options = ort.SessionOptions()
        options.log_severity_level = 3
        self.session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
        self.input_names = [i.name for i in self.session.get_inputs()]
        self.output_names = [o.name for o in self.session.get_outputs()]

    def __call__(self, *args: np.ndarray, **kwargs: np.ndarray) -> Any:
        if len(args) > len(self.input_names):
            raise TypeError(f"eagerpy_xp.onnx_function: the model takes {len(self.input_names)} "
                            f"inputs ({', '.join(self.input_names)}), got {len(args)}")  # fmt: skip
        feed = dict(zip(self.input_names, args))
        for name, value in kwargs.items():
            if name not in self.input_names or name in feed:
                raise TypeError(f"eagerpy_xp.onnx_function: unexpected or repeated input "
                                f"{name!r}; the model's inputs: {', '.join(self.input_names)}")  # fmt: skip
            feed[name] = value
        missing = [n for n in self.input_names if n not in feed]
        if missing:
            raise TypeError(f"eagerpy_xp.onnx_function: missing inputs {', '.join(missing)}")
        try:
            results = self.session.run(self.output_names, feed)
        except Exception as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(f"eagerpy_xp.onnx_function: onnxruntime refused the inputs: "
                             f"{first[:300]}") from exc  # fmt: skip
        return results[0] if len(results) == 1 else tuple(results)
