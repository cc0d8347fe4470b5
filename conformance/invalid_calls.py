"""Invalid calls of every spec function and of the array object, and how to judge them.

`generate(name, rng)` builds one `Invalid` call of ``name`` (a spec name: ``"add"``,
``"linalg.vector_norm"``, ``"fft.fft"``, or an array-object entry such as
``"Array.__getitem__"``) from a `random.Random`; the hypothesis tests draw the `Random`,
the census (`conformance.error_census`) seeds it.  `run_call` executes one call on a
target and classifies the outcome against the contract of ``docs/errors.md``:

- ``clear``: the contract's exception type, naming the function and the backend;
- ``other exception``: a framework exception, a wrong type, or a message naming neither;
- ``wrong answer``: no exception at all;
- ``changed input``: the call raised but modified one of its input arrays;
- ``changed global``: a framework global switch differs after the call;
- ``crash``: the process died, ``timeout``: it did not answer within a minute (only
  seen from `run_in_subprocess`).

Risky calls (sizes beyond memory, where JAX aborts the process) carry ``risky=True`` and
are run through `run_in_subprocess`, which restarts its worker after a crash.
"""

from __future__ import annotations

import math
import operator
import os
import pickle
import re
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from eagerpy_xp import _spec
from eagerpy_xp._detect import REGISTRY
from eagerpy_xp._dtypes import ALL

from .harness import Target, installed
from .strategies import DOMAINS

# -- what a call is ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DType:
    """A dtype argument by standard name (becomes the namespace's dtype object)."""

    name: str


@dataclass(frozen=True)
class ForeignDType:
    """A dtype object that is not one of the namespace's: NumPy's ``name`` on torch and
    TensorFlow (another library's), NumPy's float16 (no dtype of the standard) on the
    backends whose dtypes are NumPy's (importing another framework would cost a worker
    seconds)."""

    name: str


@dataclass(frozen=True)
class Foreign:
    """An array of another library than the target's (mixed libraries)."""

    value: np.ndarray


@dataclass(frozen=True)
class NumPyKey:
    """A NumPy index array kept as it is (client code indexes with them on any backend)."""

    value: np.ndarray


@dataclass
class Invalid:
    """One invalid call: ``function(*args, **kwargs)`` must raise one of ``expected``."""

    function: str  # spec name, "linalg.<f>", "fft.<f>" or "Array.<member>"
    kind: str  # what is wrong: "dtype", "broadcast", "axis", "non-array", ...
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    expected: tuple[type[BaseException], ...] = (ValueError,)
    needle: str = ""  # the offending value as the message must show it ("" = not checked)
    risky: bool = False  # may abort the process: run in a subprocess

    def describe(self) -> str:
        parts = [_short_repr(a) for a in self.args]
        parts += [f"{k}={_short_repr(v)}" for k, v in self.kwargs.items()]
        return f"{self.function}({', '.join(parts)}) [{self.kind}]"


def _short_repr(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return f"{v.dtype}{list(v.shape)}"
    if isinstance(v, Foreign):
        return f"foreign {v.value.dtype}{list(v.value.shape)}"
    if isinstance(v, NumPyKey):
        return f"numpy {v.value.dtype}{list(v.value.shape)}"
    if isinstance(v, DType):
        return v.name
    if isinstance(v, ForeignDType):
        return f"foreign dtype {v.name}"
    if isinstance(v, (list, tuple)) and len(v) <= 4:
        inner = ", ".join(_short_repr(e) for e in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    text = repr(v)
    return text if len(text) < 40 else text[:37] + "..."


#: Invalid calls per fuzz item of the suite at the default ``--max-examples`` (a larger one
#: raises it; `conformance.test_errors.fuzz_plan`).
FUZZ_CALLS = 100


#: The error message format of docs/errors.md: ``eagerpy_xp.<backend>.<function>: <what>``.
def message_prefix(backend: str, function: str) -> str:
    return f"eagerpy_xp.{backend}.{function}: "


# -- dtype domains of the functions (the spec's "should have a ... data type") ----------------
def _domain_table() -> dict[str, str]:
    groups = {
        "numeric": "abs add conj divide isfinite isinf isnan multiply negative positive pow real "
                   "round sign square subtract cumulative_prod cumulative_sum prod sum "
                   "linalg.cross linalg.outer linalg.tensordot linalg.trace linalg.vecdot "
                   "linalg.matmul matmul tensordot vecdot",
        "floating": "acos acosh asin asinh atan atanh cos cosh exp expm1 log log1p "
                    "log2 log10 reciprocal sin sinh sqrt tan tanh mean linalg.cholesky "
                    "linalg.det linalg.eig linalg.eigh linalg.eigvals linalg.eigvalsh linalg.inv linalg.matrix_norm "
                    "linalg.matrix_power linalg.matrix_rank linalg.pinv linalg.qr "
                    "linalg.slogdet linalg.solve linalg.svd linalg.svdvals "
                    "linalg.vector_norm",
        "real floating": "atan2 copysign hypot logaddexp nextafter signbit std var "
                         "fft.rfft fft.rfftn fft.ihfft",
        "complex floating": "imag fft.fft fft.ifft fft.fftn fft.ifftn fft.irfft fft.irfftn "
                            "fft.hfft",
        "integral|bool": "bitwise_and bitwise_or bitwise_xor bitwise_invert",
        "integral": "bitwise_left_shift bitwise_right_shift",
        "real": "ceil floor trunc floor_divide greater greater_equal less less_equal "
                "maximum minimum remainder clip max min argmax argmin sort argsort "
                "searchsorted",
        "bool": "logical_and logical_not logical_or logical_xor",
    }  # fmt: skip
    return {name: domain for domain, names in groups.items() for name in names.split()}


#: function -> dtype domain of its array arguments (absent: every dtype is accepted)
DOMAIN_OF: dict[str, str] = _domain_table()


# -- the functions ------------------------------------------------------------------------------
def _signatures() -> dict[str, str]:
    out = dict(_spec.FUNCTIONS)
    out.update({f"linalg.{k}": v for k, v in _spec.LINALG.items()})
    out.update({f"fft.{k}": v for k, v in _spec.FFT.items()})
    return out


SIGNATURES: dict[str, str] = _signatures()

#: Array-object entries (wrapped flavour only: operators on native arrays are the framework's)
ARRAY_ENTRIES: tuple[str, ...] = (
    "Array.__getitem__", "Array.__setitem__", "Array.__add__", "Array.__and__",
    "Array.__lshift__", "Array.__matmul__", "Array.__iadd__", "Array.__bool__",
    "Array.__int__", "Array.__float__", "Array.__index__", "Array.T", "Array.mT",
    "Array.to_device", "Array.__array_namespace__", "Array.__lt__", "Array.__pow__",
)  # fmt: skip


def _params(name: str) -> list[str]:
    inside = SIGNATURES[name].split("(", 1)[1].rsplit(")", 1)[0]
    out = []
    for part in inside.split(","):
        p = part.strip().split("=")[0].lstrip("*")
        if p and p != "/":
            out.append(p)
    return out


#: the names of every function the fuzzer covers (functions, then array-object entries)
ALL_NAMES: tuple[str, ...] = (*SIGNATURES, *ARRAY_ENTRIES)

_SQUARE = {f"linalg.{n}" for n in ("cholesky", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv",
                                    "matrix_power", "slogdet", "solve")}  # fmt: skip
_MATRIX = _SQUARE | {f"linalg.{n}" for n in ("matrix_norm", "matrix_rank", "pinv", "qr",
                                             "svd", "svdvals", "diagonal", "trace")}  # fmt: skip
_BINARY_ELEMENTWISE = {
    n for n, s in _spec.FUNCTIONS.items() if s.endswith("(x1, x2, /)")
} - {"matmul", "isin", "searchsorted", "vecdot", "tensordot"}
#: functions whose axes must be unique (a repeated axis is a ValueError); ``roll`` and the
#: ``fft`` functions are not here: the spec does not forbid repeats there
_UNIQUE_AXES = {"sum", "prod", "mean", "std", "var", "max", "min", "all", "any", "flip",
                "count_nonzero", "linalg.vector_norm"}  # fmt: skip
_CREATION_SHAPE = ("zeros", "ones", "empty", "full")
_COMPLEX_ONLY = {"imag", "fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn", "fft.irfft",
                 "fft.irfftn", "fft.hfft"}  # fmt: skip
_BAD_OBJECTS: tuple[Any, ...] = ("abc", None, object(), [1.0, 2.0])
_BAD_DEVICES = ("tpu:7", "cuda:99", "bogus", "cpu:3")
_BAD_DTYPES: tuple[Any, ...] = ("float32", "float77", 42, object(), "bool", float, int,
                                ForeignDType("float32"), ForeignDType("int64"))  # fmt: skip


def _default_dtype(name: str) -> str:
    domain = DOMAIN_OF.get(name)
    if domain is None:
        return "float64"
    if name in _COMPLEX_ONLY or domain == "complex floating":
        return "complex128"
    return {"bool": "bool", "integral": "int64", "integral|bool": "int64"}.get(domain, "float64")


def _array(rng: Any, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    if dtype == "bool":
        return np.asarray([rng.random() < 0.5 for _ in range(math.prod(shape))]).reshape(shape)
    values = np.asarray([rng.randint(1, 5) for _ in range(math.prod(shape))], dtype="float64")
    out = values.reshape(shape).astype(dtype)
    if dtype.startswith("complex"):
        out = out + 1j
    return out


def _base_shape(name: str) -> tuple[int, ...]:
    if name in _MATRIX:
        return (3, 3)
    if name in ("linalg.cross",):
        return (2, 3)
    if name in ("fft.fftshift", "fft.ifftshift") or name.startswith("fft."):
        return (4,)
    if name in ("linalg.outer", "searchsorted", "unique_all", "unique_counts",
                "unique_inverse", "unique_values", "take"):  # fmt: skip
        return (4,)
    if name == "squeeze":
        return (1, 3)
    return (2, 3)


def base_call(name: str, rng: Any) -> tuple[list[Any], dict[str, Any]]:
    """A valid call of ``name`` (positional arguments, and required keywords)."""
    shape, dtype = _base_shape(name), _default_dtype(name)
    x = _array(rng, shape, dtype)
    if name in _SQUARE:
        x = x @ x.T + 3 * np.eye(3, dtype=dtype)  # symmetric positive definite
    required: dict[str, Any] = {
        "x": x, "x1": x, "x2": _array(rng, shape, dtype),
        "condition": _array(rng, shape, "bool"), "indices": np.asarray([0, 1]),
        "arrays": [x, _array(rng, shape, dtype)], "shape": (2, 3), "fill_value": 1.0,
        "dtype": DType("float64"), "start": 0, "stop": 10, "num": 5, "n_rows": 3, "n": 3,
        "from_": DType("float64"), "to": DType("float32"), "type": DType("float64"),
        "kind": "real floating", "source": 0, "destination": 1, "axes": (1, 0), "repeats": 2,
        "shift": 1, "repetitions": (2, 1), "axis": 0, "obj": [1.0, 2.0], "shapes": (2, 3),
        "arrays_and_dtypes": x,
    }  # fmt: skip
    if name == "take_along_axis":
        required["indices"] = np.zeros(shape, dtype="int64")
    if name == "linalg.matrix_power":
        required["n"] = 2
    if name == "iinfo":
        required["type"] = DType("int32")
    if name == "meshgrid":
        required["arrays"] = [np.arange(3.0), np.arange(2.0)]
    if name in ("linalg.solve",):
        required["x2"] = _array(rng, (3, 3), "float64")
    if name in ("matmul", "linalg.matmul"):
        required["x2"] = _array(rng, (3, 2), dtype)
    if name == "searchsorted":
        required["x1"] = np.sort(x)
    signature = SIGNATURES[name]
    before_star = signature.split("*,")[0]
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in _params(name):
        default_given = re.search(rf"\b{p}=", signature) is not None
        variadic = f"*{p}" in signature
        if default_given:
            continue
        value = required.get(p, x)
        if variadic:
            args.extend(value if p == "arrays" else [value])
        elif re.search(rf"\b{p}\b", before_star):
            args.append(value)
        else:
            kwargs[p] = value
    if name in ("take", "cumulative_sum", "cumulative_prod"):
        kwargs["axis"] = 0
    return args, kwargs


# -- the mutations ------------------------------------------------------------------------------
Maker = Callable[[str, Any], "Invalid | None"]


def _replace_arg(args: list[Any], index: int, value: Any) -> tuple[Any, ...]:
    out = list(args)
    out[index] = value
    return tuple(out)


def _array_positions(name: str, args: list[Any]) -> list[int]:
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]


def _non_array(name: str, rng: Any) -> Invalid | None:
    if name in ("asarray",):
        return None
    args, kwargs = base_call(name, rng)
    if name in ("concat", "stack", "meshgrid", "broadcast_arrays"):
        bad = rng.choice(_BAD_OBJECTS[:3])
        args = [args[0], bad] if name in ("meshgrid", "broadcast_arrays") else [[args[0], bad]]
        return Invalid(name, "non-array", tuple(args), kwargs, (TypeError,))
    positions = _array_positions(name, args)
    if not positions:
        return None
    bad = rng.choice(_BAD_OBJECTS)
    if name == "result_type":
        bad = rng.choice(_BAD_OBJECTS[:3])
    return Invalid(name, "non-array", _replace_arg(args, rng.choice(positions), bad), kwargs,
                   (TypeError,))  # fmt: skip


def _wrong_dtype(name: str, rng: Any) -> Invalid | None:
    domain = DOMAIN_OF.get(name)
    if domain is None:
        return None
    allowed = DOMAINS[domain]
    bad = rng.choice([d for d in ALL if d not in allowed])
    args, kwargs = base_call(name, rng)
    positions = _array_positions(name, args)
    if not positions:
        return None
    new = [(_array(rng, a.shape, bad) if i in positions else a) for i, a in enumerate(args)]
    return Invalid(name, "dtype", tuple(new), kwargs, (TypeError,))


def _broadcast(name: str, rng: Any) -> Invalid | None:
    dtype = _default_dtype(name)
    a, b = _array(rng, (2, 3), dtype), _array(rng, (rng.choice([4, 5]),), dtype)
    if name in _BINARY_ELEMENTWISE:
        args = (a, b) if rng.random() < 0.5 else (b, a)
        return Invalid(name, "broadcast", args, {}, (ValueError,))
    special: dict[str, Callable[[], Invalid]] = {
        "where": lambda: Invalid(name, "broadcast", (_array(rng, (2, 3), "bool"), a, b)),
        "clip": lambda: Invalid(name, "broadcast", (a,), {"min": b}),
        "matmul": lambda: Invalid(name, "broadcast", (a, _array(rng, (4, 2), dtype))),
        "linalg.matmul": lambda: Invalid(name, "broadcast", (a, _array(rng, (4, 2), dtype))),
        "vecdot": lambda: Invalid(name, "broadcast", (a, _array(rng, (2, 4), dtype))),
        "linalg.vecdot": lambda: Invalid(name, "broadcast", (a, _array(rng, (2, 4), dtype))),
        "tensordot": lambda: Invalid(name, "broadcast", (a, _array(rng, (4, 2), dtype)),
                                     {"axes": 1}),
        "linalg.tensordot": lambda: Invalid(name, "broadcast", (a, _array(rng, (4, 2), dtype)),
                                            {"axes": 1}),
        "linalg.solve": lambda: Invalid(name, "broadcast", (_array(rng, (3, 3), dtype),
                                                            _array(rng, (4,), dtype))),
        "linalg.cross": lambda: Invalid(name, "broadcast", (_array(rng, (2, 2), dtype),
                                                            _array(rng, (2, 2), dtype))),
        "broadcast_to": lambda: Invalid(name, "broadcast", (a,), {"shape": (4, 5)}),
        "broadcast_arrays": lambda: Invalid(name, "broadcast", (a, b)),
        "broadcast_shapes": lambda: Invalid(name, "broadcast", ((2, 3), (4,))),
        "concat": lambda: Invalid(name, "broadcast", ([a, _array(rng, (2, 4), dtype)],),
                                  {"axis": 0}),
        "stack": lambda: Invalid(name, "broadcast", ([a, b],)),
        "reshape": lambda: Invalid(name, "broadcast", (a, (rng.choice([4, 5, 7]),))),
        "take_along_axis": lambda: Invalid(name, "broadcast", (a, np.zeros((2,), "int64")),
                                           {"axis": 0}),
        "meshgrid": lambda: Invalid(name, "broadcast", (a, b)),
        "linalg.outer": lambda: Invalid(name, "broadcast", (a, b)),
        "searchsorted": lambda: Invalid(name, "broadcast", (a, b)),
    }
    make = special.get(name)
    return make() if make else None


def _not_square(name: str, rng: Any) -> Invalid | None:
    if name not in _MATRIX:
        return None
    dtype = _default_dtype(name)
    shape = rng.choice([(3,), (2, 3)] if name in _SQUARE else [(3,)])
    args, kwargs = base_call(name, rng)
    args[0] = _array(rng, shape, dtype)
    return Invalid(name, "shape", tuple(args), kwargs, (ValueError,))


def _bad_axis(name: str, rng: Any) -> Invalid | None:
    params = _params(name)
    key = "axis" if "axis" in params else "axes" if "axes" in params else None
    if key is None or name in ("tensordot", "linalg.tensordot", "permute_dims"):
        return None
    args, kwargs = base_call(name, rng)
    ndim = np.ndim(args[0][0] if name in ("concat", "stack") else args[0])
    choice = rng.random()
    if choice < 0.45:
        axis: Any = ndim + rng.randint(0, 3) + (1 if name in ("expand_dims", "stack") else 0)
        if rng.random() < 0.5:
            axis = -axis - 1
        needle = str(axis)
    elif choice < 0.75 and name in _UNIQUE_AXES:
        axis, needle = (0, -ndim) if ndim else (0, 0), ""
    else:
        axis, needle = rng.choice([1.5, "0"]), ""
        return Invalid(name, "axis type", *_with_argument(name, args, kwargs, key, axis),
                       (TypeError,))  # fmt: skip
    if key == "axes" and not isinstance(axis, tuple):
        axis = (axis,)
    return Invalid(name, "axis", *_with_argument(name, args, kwargs, key, axis), (ValueError,),
                   needle)  # fmt: skip


def _with_argument(name: str, args: list[Any], kwargs: dict[str, Any], key: str,
                   value: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:  # fmt: skip
    """The call with argument ``key`` set to ``value``: in its place among the positional
    arguments where `base_call` passed it there (``expand_dims(x, 0)``, ``squeeze(x, 0)``),
    else as a keyword.  Passing it both ways would make the call invalid for another
    reason (Python's "got multiple values for argument"), not the one being tested."""
    params = _params(name)
    index = params.index(key)
    if index < len(args):
        return _replace_arg(args, index, value), kwargs
    head = SIGNATURES[name].split("/")[0] if "/" in SIGNATURES[name] else ""
    if index == len(args) and re.search(rf"\b{key}\b", head):  # positional-only: in place
        return (*args, value), kwargs
    return tuple(args), {**kwargs, key: value}


#: The integer parameters of the spec's signatures (shapes, axes, shifts, counts) -> the
#: negative values that are invalid there (None: a negative one is valid, only a
#: non-integer is wrong).  ``reshape`` takes one -1; ``matrix_power`` a negative power.
_INTEGER_PARAMETERS: dict[str, int | None] = {
    "shape": -1, "shapes": -1, "repetitions": -1, "repeats": -1, "num": -1, "n_rows": -1,
    "n_cols": -1, "s": -2, "n": -2, "axis": None, "axes": None, "shift": None, "k": None,
    "offset": None, "source": None, "destination": None,
}  # fmt: skip
#: sequences the parameter holds (a bad entry goes inside), by parameter
_SEQUENCE_PARAMETERS = {"shape", "shapes", "repetitions", "s", "axes"}


def _bad_integer_argument(name: str, rng: Any) -> Invalid | None:
    """A negative (where invalid: `ValueError`) or non-integer (`TypeError`) entry in a
    shape, axis, shift, count or ``sorter`` of any function that takes one, read from the
    spec's signatures."""
    params = [p for p in _params(name) if p in _INTEGER_PARAMETERS or p == "sorter"]
    if not params or name in ("tensordot", "linalg.tensordot"):  # axes: two sequences
        return None
    key = rng.choice(params)
    args, kwargs = base_call(name, rng)
    if key == "sorter":
        x1 = args[0]
        if rng.random() < 0.5:
            sorter, kind, needle = np.arange(x1.shape[0], dtype="float64"), TypeError, "sorter"
        else:
            sorter, kind, needle = np.arange(x1.shape[0] + 1), ValueError, "sorter"
        return Invalid(name, "sorter", tuple(args), {**kwargs, "sorter": sorter}, (kind,), needle)
    negative = _INTEGER_PARAMETERS[key]
    if name == "reshape" and key == "shape":
        negative = -2
    if name == "linalg.matrix_power":
        negative = None
    current = _current(name, args, kwargs, key)
    if negative is not None and rng.random() < 0.5:
        bad: Any = negative
        kind, needle = ValueError, str(negative)
    else:
        bad, kind, needle = rng.choice([1.5, 2.0]), TypeError, ""
    if key in _SEQUENCE_PARAMETERS or isinstance(current, tuple):
        entries = list(current) if isinstance(current, tuple) and current else [1]
        entries[rng.randrange(len(entries))] = bad
        bad = tuple(entries)
    elif key == "shift" and kind is TypeError and rng.random() < 0.5:
        kwargs = {**kwargs, "axis": (0, 1)}
        bad = (1, bad)
    return Invalid(name, f"integer argument {key}",
                   *_with_argument(name, args, kwargs, key, bad), (kind,), needle)  # fmt: skip


def _current(name: str, args: list[Any], kwargs: dict[str, Any], key: str) -> Any:
    """The value `base_call` gave parameter ``key`` (None where it took the default)."""
    index = _params(name).index(key)
    if index < len(args):
        return args[index]
    return kwargs.get(key)


#: The binary functions that take integer arrays and compute (not compare) with them
_INTEGER_ARITHMETIC = sorted(
    n for n in _BINARY_ELEMENTWISE
    if DOMAIN_OF.get(n) in ("numeric", "real", "integral", "integral|bool")
    and n not in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"))
_INTEGER_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _beyond(rng: Any, dtype: str) -> int:
    info = np.iinfo(dtype)
    return int(info.max) + rng.choice([1, 2**70]) if rng.random() < 0.5 else int(info.min) - 1


def _overflow(name: str, rng: Any) -> Invalid | None:
    """A Python int beyond the range of the integer array it meets: `OverflowError`
    naming it (comparisons are exact instead: tests/test_invalid_values.py)."""
    if name not in _INTEGER_ARITHMETIC:
        return None
    dtype = rng.choice(_INTEGER_DTYPES)
    a, value = _array(rng, (2, 3), dtype), _beyond(rng, dtype)
    args = (value, a) if rng.random() < 0.5 else (a, value)
    return Invalid(name, "int beyond the dtype", args, {}, (OverflowError,), str(value))


def _bad_device(name: str, rng: Any) -> Invalid | None:
    if "device" not in _params(name):
        return None
    args, kwargs = base_call(name, rng)
    device = rng.choice(_BAD_DEVICES)
    kwargs["device"] = device
    return Invalid(name, "device", tuple(args), kwargs, (ValueError,), device)


def _bad_dtype_argument(name: str, rng: Any) -> Invalid | None:
    """A dtype argument that is not one of the namespace's dtype objects: a string, a
    number, a Python type (``float``), another library's dtype object, and, where the
    standard requires a dtype (``astype``, ``can_cast``, ``finfo``, ...), None."""
    args, kwargs = base_call(name, rng)
    bad = rng.choice(_BAD_DTYPES)
    needle = bad if isinstance(bad, str) else ""
    for i, a in enumerate(args):
        if isinstance(a, DType):
            if rng.random() < 0.25:
                bad, needle = None, "None"
            return Invalid(name, "dtype argument", _replace_arg(args, i, bad), kwargs,
                           (TypeError,), needle)  # fmt: skip
    if "dtype" in _params(name):
        kwargs["dtype"] = bad
        return Invalid(name, "dtype argument", tuple(args), kwargs, (TypeError,), needle)
    return None


def _mixed(name: str, rng: Any) -> Invalid | None:
    if name not in _BINARY_ELEMENTWISE and name not in ("matmul", "where", "concat"):
        return None
    args, kwargs = base_call(name, rng)
    if name == "concat":
        return Invalid(name, "mixed libraries", ([args[0][0], Foreign(args[0][1])],), kwargs,
                       (TypeError,))  # fmt: skip
    i = rng.choice(_array_positions(name, args))
    return Invalid(name, "mixed libraries", _replace_arg(args, i, Foreign(args[i])), kwargs,
                   (TypeError,))  # fmt: skip


def _huge(name: str, rng: Any) -> Invalid | None:
    huge = 2**31
    calls: dict[str, Callable[[], Invalid]] = {
        **{n: (lambda n=n: Invalid(n, "huge", ((huge,) * 3,) + ((1.0,) if n == "full" else ()),
                                    {}, (MemoryError, ValueError), risky=True))
           for n in _CREATION_SHAPE},
        "arange": lambda: Invalid(name, "huge", (0, 2**62), {}, (MemoryError, ValueError),
                                  risky=True),
        "eye": lambda: Invalid(name, "huge", (2**40,), {}, (MemoryError, ValueError),
                               risky=True),
        "linspace": lambda: Invalid(name, "huge", (0, 1, 2**40), {}, (MemoryError, ValueError),
                                    risky=True),
        "tile": lambda: Invalid(name, "huge", (np.ones(3), (2**40,)), {},
                                (MemoryError, ValueError), risky=True),
        "repeat": lambda: Invalid(name, "huge", (np.ones(3), 2**40), {},
                                  (MemoryError, ValueError), risky=True),
    }  # fmt: skip
    make = calls.get(name)
    return make() if make else None


def _argument(name: str, rng: Any) -> Invalid | None:
    """A bad value of a non-array argument (sizes, orders, ``n``, ``correction``, ...)."""
    f = _array(rng, (2, 3), "float64")
    c = _array(rng, (4,), "complex128")
    r = _array(rng, (4,), "float64")
    sq = _array(rng, (3, 3), "float64")
    V, T, Ov = (ValueError,), (TypeError,), (OverflowError,)
    i8 = _array(rng, (2, 3), "int8")
    table: dict[str, list[tuple[tuple[Any, ...], dict[str, Any], tuple[type[BaseException],
                                                                       ...], str]]] = {
        # Python ints beyond the dtype: OverflowError naming the int, never a wrapped value
        "arange": [((0, 10, 0), {}, V, "0"), (("a",), {}, T, ""),
                   ((250, 260), {"dtype": DType("uint8")}, Ov, "259"),
                   ((2**63, 2**63 + 2), {}, Ov, str(2**63))],
        "asarray": [(("abc",), {}, T, ""), ((object(),), {}, T, ""),
                    (([[1.0, 2.0], [3.0]],), {}, V, ""), (([1.0, 2.0],), {"copy": False}, V, ""),
                    ((256,), {"dtype": DType("uint8")}, Ov, "256"),
                    (([5, -1],), {"dtype": DType("uint64")}, Ov, "-1"),
                    (([[1], [2**64]],), {"dtype": DType("uint64")}, Ov, str(2**64)),
                    (([2**63, 1],), {}, Ov, str(2**63))],
        "linspace": [((0, 1, -1), {}, V, "-1"), ((0, 1, 2.5), {}, T, "2.5")],
        "eye": [((-1,), {}, V, "-1"), ((2.5,), {}, T, "2.5"), ((3,), {"k": 1.5}, T, "1.5")],
        **{n: [(((2, -1),), {}, V, "-1"), ((2.5,), {}, T, "2.5"), ((("a",),), {}, T, "")]
           for n in ("zeros", "ones", "empty")},
        "full": [(((2,), "abc"), {}, T, "abc"), (((2,), object()), {}, T, ""),
                 (((2, -1), 1.0), {}, V, "-1"),
                 (((2,), -129), {"dtype": DType("int8")}, Ov, "-129"),
                 (((2,), 2**64), {"dtype": DType("uint64")}, Ov, str(2**64))],
        "full_like": [((f, "abc"), {}, T, "abc"), ((f, None), {}, T, ""),
                      ((i8, 128), {}, Ov, "128"), ((f, -1), {"dtype": DType("uint32")}, Ov, "-1")],
        "tril": [((r,), {}, V, ""), ((f,), {"k": 1.5}, T, "1.5")],
        "triu": [((r,), {}, V, ""), ((f,), {"k": 1.5}, T, "1.5")],
        "astype": [((c, DType("float64")), {}, T, ""), ((c, DType("int32")), {}, T, "")],
        "isdtype": [((DType("float64"), "floaty"), {}, V, "floaty"),
                    ((DType("float64"), 3), {}, T, "3")],
        "finfo": [((DType("int32"),), {}, T, ""), (("abc",), {}, T, "abc")],
        "iinfo": [((DType("float64"),), {}, T, ""), (("abc",), {}, T, "abc")],
        "can_cast": [(("abc", DType("float64")), {}, T, "abc")],
        "result_type": [((), {}, V, "")],
        "std": [((f,), {"correction": -1}, V, "-1"), ((f,), {"correction": "a"}, T, "")],
        "var": [((f,), {"correction": -1}, V, "-1"), ((f,), {"correction": "a"}, T, "")],
        "linalg.vector_norm": [((f,), {"ord": "fro"}, V, "fro"), ((f,), {"ord": "abc"}, V, "abc")],
        "linalg.matrix_norm": [((sq,), {"ord": "abc"}, V, "abc"), ((sq,), {"ord": 3}, V, "3")],
        "linalg.matrix_power": [((sq, 1.5), {}, T, "1.5")],
        "linalg.qr": [((sq,), {"mode": "bogus"}, V, "bogus")],
        "linalg.diagonal": [((r,), {}, V, ""), ((sq,), {"offset": 1.5}, T, "1.5")],
        "linalg.outer": [((f, r), {}, V, "")],
        "take": [((r, np.asarray([0, 9])), {"axis": 0}, (IndexError,), "9"),
                 ((r, np.asarray([0.0, 1.0])), {"axis": 0}, T, "")],
        "take_along_axis": [((r, np.asarray([0, 9])), {"axis": 0}, (IndexError,), "9")],
        "repeat": [((r, -1), {}, V, "-1"), ((r, 1.5), {}, T, "1.5"),
                   ((r, np.asarray([1.0, 2.0, 1.0, 1.0])), {}, T, "")],
        "reshape": [((f, (-1, -1)), {}, V, ""), ((f, (2.5, 2)), {}, T, "2.5")],
        "tile": [((f, (-1,)), {}, V, "-1"), ((f, (1.5,)), {}, T, "1.5")],
        "squeeze": [((f,), {"axis": 0}, V, "0")],
        "moveaxis": [((f, (0, 1), (1, 1)), {}, V, ""), ((f, (0,), (0, 1)), {}, V, "")],
        "permute_dims": [((f, (0,)), {}, V, ""), ((f, (0, 0)), {}, V, ""),
                         ((f, (0, 2)), {}, V, "2")],
        "roll": [((f, (1, 2)), {"axis": 0}, V, "")],
        "expand_dims": [((f,), {"axis": 1.5}, T, "1.5")],
        "unstack": [((np.asarray(1.0),), {}, V, "")],
        "nonzero": [((np.asarray(1.0),), {}, V, "")],
        "searchsorted": [((r, r), {"side": "middle"}, V, "middle")],
        "diff": [((f,), {"n": -1}, V, "-1"), ((f,), {"axis": 0, "prepend": r}, V, "")],
        "where": [((f, f, f), {}, T, "")],
        "meshgrid": [((r, r), {"indexing": "zz"}, V, "zz")],
        "matmul": [((np.asarray(1.0), f), {}, V, "")],
        "linalg.matmul": [((np.asarray(1.0), f), {}, V, "")],
        "matrix_transpose": [((r,), {}, V, "")],
        "linalg.matrix_transpose": [((r,), {}, V, "")],
        "linalg.trace": [((r,), {}, V, "")],
        "tensordot": [((f, f), {"axes": -1}, V, "-1"), ((f, f), {"axes": 1.5}, T, "1.5")],
        "linalg.tensordot": [((f, f), {"axes": -1}, V, "-1")],
        "fft.fftfreq": [((0,), {}, V, "0"), ((-1,), {}, V, "-1"), ((2.5,), {}, T, "2.5")],
        "fft.rfftfreq": [((0,), {}, V, "0"), ((-1,), {}, V, "-1"), ((2.5,), {}, T, "2.5")],
        "clip": [(("abc",), {}, T, "")],
    }  # fmt: skip
    for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        x = r if n in ("rfft", "ihfft") else c
        table[f"fft.{n}"] = [((x,), {"n": 0}, V, "0"), ((x,), {"n": -2}, V, "-2"),
                             ((x,), {"norm": "bogus"}, V, "bogus"), ((x,), {"n": 2.5}, T, "2.5")]
    for n in ("fftn", "ifftn", "rfftn", "irfftn"):
        x = r if n == "rfftn" else c
        table[f"fft.{n}"] = [((x,), {"s": (0,)}, V, "0"), ((x,), {"norm": "bogus"}, V, "bogus"),
                             ((x,), {"s": (4, 4)}, V, "")]
    options = table.get(name)
    if not options:
        return None
    args, kwargs, expected, needle = rng.choice(options)
    return Invalid(name, "argument", args, dict(kwargs), expected, needle)


def _array_object(name: str, rng: Any) -> Invalid | None:
    if not name.startswith("Array."):
        return None
    f = _array(rng, (2, 3), "float64")
    g = _array(rng, (rng.choice([4, 5]),), "float64")
    i = _array(rng, (2, 3), "int64")
    V, T, Ix = (ValueError,), (TypeError,), (IndexError,)
    member = name.split(".", 1)[1]
    keys: list[tuple[Any, str]] = [
        ((rng.randint(2, 9),), "index"), ((-rng.randint(3, 9),), "index"),
        ((0, rng.randint(3, 9)), "index"), ((0, 0, 0), ""), ((Ellipsis, Ellipsis), ""),
        ((1.5,), ""), (("a",), ""), ((np.asarray([0, rng.randint(2, 9)]),), ""),
        ((np.asarray([True, False, True]),), ""), ((object(),), ""),
        # NumPy keys (every backend reads them as NumPy does): out of range, not integer,
        # arrays that do not broadcast, ragged lists
        ((0, np.int64(rng.randint(3, 9))), "index"),
        ((0, NumPyKey(np.asarray([[0], [rng.randint(3, 9)]]))), ""),
        ((NumPyKey(np.asarray([0.5])),), ""),
        ((NumPyKey(np.asarray([0, 1])), NumPyKey(np.asarray([0, 1, 2]))), ""),
        ((NumPyKey(np.asarray([True, False, True])),), ""), (([[0, 1], [1]],), ""),
        (([0, rng.randint(2, 9)],), ""),
    ]  # fmt: skip
    if member == "__getitem__":
        key, tag = rng.choice(keys)
        needle = str(key[-1]) if tag else ""
        return Invalid(name, "key", (f, key if len(key) > 1 else key[0]), {}, Ix, needle)
    if member == "__setitem__":
        choice = rng.randint(0, 4)
        if choice == 0:
            key, tag = rng.choice(keys)
            return Invalid(name, "key", (f, key if len(key) > 1 else key[0], 1.0), {}, Ix)
        if choice == 1:
            return Invalid(name, "broadcast", (f, (0, slice(None)), g), {}, V)
        if choice == 2:
            return Invalid(name, "key", (f, np.asarray([0, rng.randint(2, 9)]), 1.0), {}, Ix)
        # a valid key (one expression per axis: the indexing page asks for an IndexError
        # when a key gives fewer than the array's dimensions), so that only the value is bad
        row = (0, slice(None))
        if choice == 3:
            return Invalid(name, "dtype", (f, row, _array(rng, (3,), "complex128")), {}, T)
        return Invalid(name, "non-array", (f, row, rng.choice(["abc", object()])), {}, T)
    binary = {"__add__": (f, g, V), "__and__": (f, f, T), "__lshift__": (f, i, T),
              "__matmul__": (f, f, V), "__lt__": (f, _array(rng, (2, 3), "complex128"), T),
              "__pow__": (f, g, V), "__iadd__": (i, f, T)}  # fmt: skip
    if member in binary:
        a, b, kind = binary[member]
        if member not in ("__lt__", "__matmul__") and rng.random() < 0.25:  # an int beyond
            dtype = rng.choice(_INTEGER_DTYPES)
            value = _beyond(rng, dtype)
            return Invalid(name, "int beyond the dtype", (_array(rng, (2, 3), dtype), value),
                           {}, (OverflowError,), str(value))  # fmt: skip
        if rng.random() < 0.35:
            b, kind = rng.choice(["abc", object(), [1.0]]), T
        elif member == "__iadd__" and rng.random() < 0.5:
            a, b, kind = f, g, V
        return Invalid(name, "operand", (a, b), {}, kind)
    if member in ("__bool__", "__int__", "__float__"):  # like int([1, 2]): a TypeError
        return Invalid(name, "size", (_array(rng, (rng.randint(2, 4),), "float64"),), {}, T)
    if member == "__index__":
        return Invalid(name, "dtype", (_array(rng, (), rng.choice(["float64", "bool"])),), {}, T)
    if member == "T":
        return Invalid(name, "shape", (_array(rng, rng.choice([(3,), (2, 2, 2)]), "float64"),),
                       {}, V)  # fmt: skip
    if member == "mT":
        return Invalid(name, "shape", (_array(rng, (3,), "float64"),), {}, V)
    if member == "to_device":
        device = rng.choice(_BAD_DEVICES)
        return Invalid(name, "device", (f, device), {}, V, device)
    if member == "__array_namespace__":
        return Invalid(name, "argument", (f,), {"api_version": "2099.01"}, V, "2099.01")
    return None


_MAKERS: tuple[Maker, ...] = (
    _non_array, _wrong_dtype, _broadcast, _not_square, _bad_axis, _bad_device,
    _bad_dtype_argument, _mixed, _argument, _array_object, _huge, _bad_integer_argument,
    _overflow,
)  # fmt: skip


def generate(name: str, rng: Any, risky: bool | None = None) -> Invalid | None:
    """One invalid call of ``name``; ``risky`` True/False keeps only (non-)risky calls."""
    makers = [_array_object] if name.startswith("Array.") else list(_MAKERS)
    rng.shuffle(makers)
    for make in makers:
        call = make(name, rng)
        if call is not None and (risky is None or call.risky == risky):
            return call
    return None


def risky_calls(name: str) -> list[Invalid]:
    """Every risky call of ``name`` (deterministic)."""
    import random

    call = _huge(name, random.Random(0))
    return [call] if call is not None else []


# -- running and judging ------------------------------------------------------------------------
def _other_library(target: Target, value: np.ndarray) -> Any:
    """An array of another library than the target's: beside NumPy arrays, one of the
    first other registered backend whose framework is installed; else a NumPy array
    where the target's arrays belong."""
    if isinstance(target.native(np.zeros(1)), np.ndarray):
        for descriptor in REGISTRY.values():
            convert = descriptor.from_numpy
            if convert is not None and descriptor.name != "numpy" and installed(descriptor.framework):
                return convert(value.copy(), "cpu")
    return value.copy()


def _other_dtype(backend: str, name: str) -> Any:
    """`ForeignDType`'s object on ``backend``."""
    return np.dtype("float16") if REGISTRY[backend].numpy_dtypes else np.dtype(name)


def _convert(target: Target, value: Any, inputs: list[tuple[Any, np.ndarray]]) -> Any:
    if isinstance(value, np.ndarray):
        value = target.holdable(value)  # the kind is what matters (complex128 on MLX)
        converted = target.asarray(value.copy())
        inputs.append((converted, value.copy()))
        return converted
    if isinstance(value, DType):
        return target.dtype(value.name)
    if isinstance(value, Foreign):
        return _other_library(target, value.value)
    if isinstance(value, ForeignDType):
        return _other_dtype(target.backend, value.name)
    if isinstance(value, NumPyKey):
        return value.value.copy()
    if isinstance(value, list):
        return [_convert(target, v, inputs) for v in value]
    if isinstance(value, tuple):
        return tuple(_convert(target, v, inputs) for v in value)
    return value


def _invoke(target: Target, call: Invalid, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    xp = target.xp
    if call.function.startswith("Array."):
        member = call.function.split(".", 1)[1]
        if member == "__getitem__":
            return args[0][args[1]]
        if member == "__setitem__":
            args[0][args[1]] = args[2]
            return None
        if member == "__iadd__":
            a = args[0]
            a += args[1]
            return a
        if member in ("T", "mT"):
            return getattr(args[0], member)
        if member in ("__bool__", "__int__", "__float__", "__index__"):
            builtin = {"__bool__": bool, "__int__": int, "__float__": float,
                       "__index__": operator.index}[member]  # fmt: skip
            return builtin(args[0])
        if member in ("to_device", "__array_namespace__"):
            return getattr(args[0], member)(*args[1:], **kwargs)
        op = getattr(operator, member)
        return op(*args)
    fn: Any = xp
    for part in call.function.split("."):
        fn = getattr(fn, part)
    return fn(*args, **kwargs)


def framework_globals() -> dict[str, Any]:
    """The framework switches the library must never flip (frameworks already imported;
    each backend's descriptor names its own)."""
    state: dict[str, Any] = {}
    for descriptor in REGISTRY.values():
        if descriptor.global_state is not None and descriptor.packages[0] in sys.modules:
            state.update(descriptor.global_state())
    return state


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(
        np.all((a == b) | ((a != a) & (b != b))))


@dataclass
class Outcome:
    category: str  # clear, other exception, wrong answer, changed input/global, crash, timeout
    exception: str  # type name ("" when none)
    message: str
    formatted: bool = False  # message starts with the documented prefix
    names_value: bool = True  # the message shows the offending value (where checked)
    right_type: bool = False  # the contract's exception type, whatever the message

    def signature(self, call: Invalid) -> str:
        text = re.sub(r"0x[0-9a-f]+", "0x..", self.message.splitlines()[0] if self.message else "")
        text = re.sub(r"\d+", "N", text)[:90]
        return f"{self.category}: {call.kind} -> {self.exception or 'no exception'}: {text}"


def _names(call: Invalid) -> tuple[str, ...]:
    last = call.function.rsplit(".", 1)[-1]
    if last.startswith("__") and last.endswith("__"):
        return (last, last.strip("_"))
    return (last,)


#: Python's own message when both operands of an operator returned ``NotImplemented``.
_OPERATOR_REFUSAL = re.compile(r"^(unsupported operand type\(s\) for [^:]+: '|'\S+' not supported "
                               r"between instances of ')")  # fmt: skip


def _python_operator_refusal(call: Invalid, exc: Exception) -> bool:
    """Whether ``exc`` is Python's own `TypeError` for an operator of the array object
    whose other operand is not an array or a scalar (a string, a list, an object).

    The array object's operators return ``NotImplemented`` for such an operand, as the
    data model asks (the other operand's reflected operator gets its turn), and Python
    then raises ``TypeError: unsupported operand type(s) for +: 'Array' and 'str'``.
    That is the correct outcome and its message cannot name the backend: Python writes
    it, after the library has returned.  Only this exact case is accepted: a `TypeError`
    with Python's wording, for an ``operand`` call of an ``Array.__<op>__`` entry whose
    second operand is not a NumPy array (which would stand for an array)."""
    return (call.function.startswith("Array.__") and call.kind == "operand"
            and len(call.args) == 2 and not isinstance(call.args[1], np.ndarray)
            and type(exc) is TypeError and _OPERATOR_REFUSAL.match(str(exc)) is not None)  # fmt: skip


#: Backends whose functions build a graph and compute nothing.  Two judgements follow.
#: A size beyond memory but within int64 extents makes a lazy array there, which is
#: right (`_lazy_and_indexable`).  An error that depends on
#: the values in an array argument (an entry of an index array out of range, a negative
#: count in ``repeat``'s array of repeats) can only be
#: found when the graph runs, so for the functions that read entries of an index array
#: (`_VALUE_DEPENDENT`) the call's result is computed too, and an exception then is
#: judged like one raised by the call.  Every other call (shapes, dtypes, axes, other
#: arguments) must raise at the call itself, and so must ``__setitem__`` (a failed write
#: leaves the array as it was, so its key is checked before the write).
LAZY_BACKENDS = frozenset(name for name, d in REGISTRY.items() if d.lazy)
_VALUE_DEPENDENT = frozenset({"take", "take_along_axis", "Array.__getitem__", "repeat"})


def _lazy_and_indexable(target: Target, result: Any) -> bool:
    """Whether ``result`` of a huge-size call on a lazy backend is a lazy array that an
    int64 extent can index.  Such an array is a graph, not memory: Dask computes it one
    chunk at a time (what it is for), so making it is right; a size beyond int64 must
    still raise (`ValueError`: the size itself is invalid)."""
    if not target.is_array(result):
        return False
    shape = result.shape
    return None not in shape and math.prod(shape) <= 2**63 - 1


def _compute(target: Target, result: Any) -> None:
    """Compute every array in ``result`` (an array, or a tuple or list of them)."""
    if isinstance(result, (tuple, list)):
        for r in result:
            _compute(target, r)
    elif target.is_array(result):
        target.to_numpy(result)


def _graph_key(target: Target, array: Any) -> tuple[int, str] | None:
    """What identifies a lazy array's values without computing them: the native array
    object (a wrapped array may rebind to another) and its graph's name (Dask replaces
    an array's graph in place on ``x[k] = v``).  The graph reads a private copy of the
    input that no call can reach, so the same graph means the same values.  None for
    an eager backend."""
    if target.backend not in LAZY_BACKENDS:
        return None
    raw = getattr(array, "raw", array)
    name = getattr(raw, "name", None)
    return (id(raw), name) if isinstance(name, str) else None


def _changed(target: Target, inputs: list[tuple[Any, np.ndarray]],
             keys: list[tuple[int, str] | None]) -> bool:  # fmt: skip
    """Whether a call changed one of its input arrays (computing a lazy one only where
    its graph is not the one it had: a Dask compute costs milliseconds)."""
    for (converted, original), key in zip(inputs, keys):
        if key is not None and _graph_key(target, converted) == key:
            continue
        if not _equal(target.to_numpy(converted), original):
            return True
    return False


def run_call(target: Target, call: Invalid) -> Outcome:
    """Run ``call`` on ``target`` in this process and judge it against the contract."""
    inputs: list[tuple[Any, np.ndarray]] = []
    args = tuple(_convert(target, a, inputs) for a in call.args)
    kwargs = {k: _convert(target, v, inputs) for k, v in call.kwargs.items()}
    keys = [_graph_key(target, converted) for converted, _ in inputs]
    before = framework_globals()
    try:
        result = _invoke(target, call, args, kwargs)
        if target.backend in LAZY_BACKENDS and call.function in _VALUE_DEPENDENT:
            _compute(target, result)
    except Exception as exc:  # judged below
        after = framework_globals()
        message = str(exc)
        changed = [k for k in before if k in after and before[k] != after[k]]
        if changed:
            return Outcome("changed global", type(exc).__name__, f"{changed}: {message}")
        if _changed(target, inputs, keys):
            return Outcome("changed input", type(exc).__name__, message)
        if _python_operator_refusal(call, exc):
            return Outcome("clear", type(exc).__name__, message, formatted=True,
                           right_type=True)  # fmt: skip
        named = target.backend in message and any(n in message for n in _names(call))
        clear = isinstance(exc, call.expected) and named
        return Outcome("clear" if clear else "other exception", type(exc).__name__, message,
                       formatted=message.startswith(message_prefix(target.backend,
                                                                   call.function)),
                       names_value=not call.needle or call.needle in message,
                       right_type=isinstance(exc, call.expected))  # fmt: skip
    after = framework_globals()
    if any(k in after and before[k] != after[k] for k in before):
        return Outcome("changed global", "", "")
    if call.kind == "huge" and target.backend in LAZY_BACKENDS and _lazy_and_indexable(target,
                                                                                      result):  # fmt: skip
        return Outcome("clear", "", "", formatted=True, right_type=True)
    return Outcome("wrong answer", "", "")


# -- subprocess worker ------------------------------------------------------------------------
def run_in_subprocess(jobs: list[tuple[Target, Invalid]], per_call_s: float = 60.0,
                      startup_s: float = 180.0) -> list[Outcome]:  # fmt: skip
    """Run each (target, call) in a worker process, in order; a dead worker is a ``crash``
    of the call it was running, a call without an answer in ``per_call_s`` (the first:
    also ``startup_s``, for the imports) a ``timeout`` (its worker is killed), and a new
    worker goes on with the next one."""
    results: list[Outcome] = []
    while len(results) < len(jobs):
        remaining = [(t.key(), c) for t, c in jobs[len(results):]]
        results += _one_worker(remaining, per_call_s, startup_s)
    return results


def _one_worker(jobs: list[tuple[tuple[str, ...], Invalid]], per_call_s: float,
                startup_s: float) -> list[Outcome]:  # fmt: skip
    """The outcomes one worker gives before it ends, dies or stops answering (the last
    then a ``crash`` or ``timeout`` outcome)."""
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen([sys.executable, "-m", "conformance.invalid_calls"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(pickle.dumps(jobs))
        proc.stdin.close()
        outcomes: list[Outcome] = []
        pending = b""
        waiting = selectors.DefaultSelector()
        waiting.register(proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + startup_s + per_call_s
        while len(outcomes) < len(jobs):
            if not waiting.select(timeout=max(0.0, deadline - time.monotonic())):
                proc.kill()
                proc.wait()
                outcomes.append(Outcome("timeout", "", f"no answer in {per_call_s:.0f} s: "
                                        "the worker was killed"))  # fmt: skip
                break
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:  # the worker ended: done, or dead in the middle of a call
                proc.wait()
                if len(outcomes) < len(jobs):
                    errors.seek(0)
                    lines = errors.read().decode(errors="replace").strip().splitlines()
                    last = next((ln for ln in reversed(lines) if ln.strip()), "")
                    outcomes.append(Outcome("crash", "", f"exit {proc.returncode}: {last[:200]}"))
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            outcomes += [pickle.loads(bytes.fromhex(line.decode())) for line in complete if line]
            if complete:
                deadline = time.monotonic() + per_call_s
        proc.stdout.close()
        if proc.poll() is None:
            proc.wait()
    return outcomes


def _worker() -> None:
    """Read pickled jobs from stdin, write one hex-pickled `Outcome` per line as it goes."""
    jobs = pickle.loads(sys.stdin.buffer.read())
    targets: dict[tuple[str, ...], Target] = {}
    for key, call in jobs:
        target = targets.setdefault(key, Target.from_key(key))
        sys.stdout.write(pickle.dumps(run_call(target, call)).hex() + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    from conformance import invalid_calls  # the worker's classes, not __main__'s copies

    invalid_calls._worker()
