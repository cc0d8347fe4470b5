"""Signatures: every function (namespace, linalg, fft), Array method and info method.

Judged by what the standard's text makes of a signature, each on its own authority
(`conformance.tiers`):

- must (the signature is normative): each parameter can be passed the way the standard's
  signature lets a caller pass it: a positional-only one by position (its name is not part
  of the API, so a library may name it as it likes), a keyword one by its name, a ``*args``
  one by any number of positions; a parameter the standard gives a default may be left
  out; a parameter the library adds may be left out (it has a default); and passing a
  default explicitly behaves as leaving it out (`test_explicit_defaults`,
  `test_device_none_keeps_the_input_device`: behaviour, not the default's ``repr``).
- should (the standard's "Function and method signatures": positional parameters
  *should* be positional-only, optional parameters *should* be keyword-only): the kinds.
- house (eagerpy_xp's wrapped flavour, `Array` included): the spec's signature exactly
  (names, kinds, default values, no extra parameters).
"""

from __future__ import annotations

import inspect
import random
from typing import Any

import numpy as np
import pytest

from eagerpy_xp import _spec

from .harness import Missing, Target, Unsupported
from .invalid_calls import SIGNATURES, _convert, base_call

AREA = "signatures"

SPEC: dict[str, dict[str, str]] = {
    "namespace": _spec.FUNCTIONS, "linalg": _spec.LINALG, "fft": _spec.FFT,
    "array": {k: v for k, v in _spec.ARRAY_METHODS.items() if "(" in str(v)},
    "info": _spec.INFO_METHODS}  # fmt: skip

_SHOULD = pytest.mark.tier("should", "the standard's signatures page: positional parameters "
                           "should be positional-only, optional ones keyword-only")  # fmt: skip
_HOUSE = pytest.mark.tier("house", "eagerpy_xp's wrapped flavour matches the spec's "
                          "signatures exactly")  # fmt: skip


def parse(text: str) -> inspect.Signature:
    """An `inspect.Signature` from the spec's ``name(params)`` text."""
    name, _, params = text.partition("(")
    scope: dict[str, Any] = {}
    exec(f"def {name}({params}: pass", scope)  # the spec's own parameter list
    return inspect.signature(scope[name])


P = inspect.Parameter
_POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
_KEYWORD = (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)


def _match(actual: inspect.Signature, spec: inspect.Signature) -> dict[str, P | None]:
    """The implementation's parameter that takes each spec parameter (None: none does):
    a positional-only one by position (its name is free), a ``*args`` one by the
    implementation's ``*args``, any other by name."""
    got = list(actual.parameters.values())
    positional = [p for p in got if p.kind in _POSITIONAL]
    var_positional = next((p for p in got if p.kind is P.VAR_POSITIONAL), None)
    found: dict[str, P | None] = {}
    for index, p in enumerate(spec.parameters.values()):
        if p.kind is P.VAR_POSITIONAL:
            found[p.name] = var_positional
        elif p.kind is P.POSITIONAL_ONLY:
            found[p.name] = positional[index] if index < len(positional) else var_positional
        else:
            found[p.name] = actual.parameters.get(p.name)
    return found


def must_problems(actual: inspect.Signature, spec: inspect.Signature) -> list[str]:
    """Where a call the standard's signature allows would fail (see the module doc)."""
    problems = []
    got = list(actual.parameters.values())
    positional = [p for p in got if p.kind in _POSITIONAL]
    var_positional = any(p.kind is P.VAR_POSITIONAL for p in got)
    var_keyword = any(p.kind is P.VAR_KEYWORD for p in got)
    matched = _match(actual, spec)
    for index, p in enumerate(spec.parameters.values()):
        q = matched[p.name]
        if p.kind is P.VAR_POSITIONAL:
            if q is None:
                problems.append(f"*{p.name}: takes no variable number of positions")
            continue
        if p.kind in _KEYWORD and (q is None or q.kind not in _KEYWORD) and not var_keyword:
            problems.append(f"{p.name}: cannot be passed by keyword")
        if p.kind in _POSITIONAL:
            slot = positional[index] if index < len(positional) else None
            if slot is None and not var_positional:
                problems.append(f"{p.name}: cannot be passed by position {index}")
            elif p.kind is P.POSITIONAL_OR_KEYWORD and slot is not None and slot is not q:
                problems.append(f"{p.name}: position {index} is {slot.name!r}")
        if p.default is not p.empty and q is not None and q.kind not in (
                P.VAR_POSITIONAL, P.VAR_KEYWORD) and q.default is q.empty:  # fmt: skip
            problems.append(f"{p.name}: optional in the standard, required here")
    taken = {id(q) for q in matched.values() if q is not None}
    for q in got:
        if id(q) not in taken and q.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD) \
                and q.default is q.empty:  # fmt: skip
            problems.append(f"extra parameter {q.name!r} is required")
    return problems


def should_problems(actual: inspect.Signature, spec: inspect.Signature) -> list[str]:
    """Parameters of another kind than the standard's (positional-only, keyword-only)."""
    problems = []
    for p in spec.parameters.values():
        q = _match(actual, spec)[p.name]
        if q is not None and p.kind in (P.POSITIONAL_ONLY, P.KEYWORD_ONLY) and q.kind is not p.kind:
            problems.append(f"{p.name}: {q.kind.description}, the standard: {p.kind.description}")
    return problems


def exact_problems(actual: inspect.Signature, spec: inspect.Signature,
                   extras_ok: bool = False) -> list[str]:  # fmt: skip
    """Every difference from the spec's signature: names, order, kinds, defaults, and
    extra parameters (unless ``extras_ok``: optional ones after the spec's)."""
    got = [(p.name, p.kind, p.default) for p in actual.parameters.values()]
    want = [(p.name, p.kind, p.default) for p in spec.parameters.values()]
    if extras_ok:
        names = {w[0] for w in want}
        extra = [g for g in got if g[0] not in names]
        got = [g for g in got if g[0] in names]
        if any(e[2] is P.empty and e[1] not in (P.VAR_POSITIONAL, P.VAR_KEYWORD) for e in extra):
            return [f"required extra parameters {[e[0] for e in extra]}"]
    if got != want:
        return [f"parameters {got} differ from the spec's {want}"]
    return []


def _signature(target: Target, obj: Any) -> inspect.Signature:
    """The signature of ``obj``; a builtin without one (torch's C functions) is skipped on
    another namespace (the standard does not ask for an inspectable signature; the other
    rows call the function) and fails on eagerpy_xp's (its own promise)."""
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError) as exc:
        if not target.ours:
            pytest.skip(f"no inspectable signature ({exc}): nothing to judge")
        pytest.fail(f"no inspectable signature: {exc}")


def _judge(target: Target, obj: Any, text: str, tier: str, extras_ok: bool = False) -> None:
    actual = _signature(target, obj)
    if tier == "house":
        problems = exact_problems(actual, parse(text), extras_ok)
    else:
        check = must_problems if tier == "must" else should_problems
        problems = check(actual, parse(text))
    assert not problems, f"{text} vs {actual}: " + "; ".join(problems)


def _params(table: str, area: str) -> list[Any]:
    return [pytest.param(name, table, area, id=f"{table}.{name}") for name in SPEC[table]]


_FUNCTIONS = _params("namespace", "signatures") + _params("linalg", "linalg") + _params("fft", "fft")


def _function(target: Target, name: str, table: str) -> Any:
    return target.function(name if table == "namespace" else f"{table}.{name}")


def _method(target: Target, name: str) -> Any:
    array_type = type(target.asarray(np.zeros(2)))
    if not hasattr(array_type, name):
        raise Missing(f"missing: {array_type.__qualname__}.{name}", name=f"array.{name}")
    return getattr(array_type, name)


def _info_method(target: Target, name: str) -> Any:
    info = target.function("__array_namespace_info__")()
    if not hasattr(info, name):
        raise Missing(f"missing: __array_namespace_info__().{name}", name=f"info.{name}")
    return getattr(info, name)


@pytest.mark.parametrize(("name", "table", "area"), _FUNCTIONS)
def test_function_signature(target: Target, name: str, table: str, area: str) -> None:
    _judge(target, _function(target, name, table), SPEC[table][name], "must")


@_SHOULD
@pytest.mark.parametrize(("name", "table", "area"), _FUNCTIONS)
def test_function_parameter_kinds(target: Target, name: str, table: str, area: str) -> None:
    _judge(target, _function(target, name, table), SPEC[table][name], "should")


@_HOUSE
@pytest.mark.ours_only
@pytest.mark.parametrize(("name", "table", "area"), _FUNCTIONS)
def test_function_signature_exact(target: Target, name: str, table: str, area: str) -> None:
    """The native flavour's functions may take optional extras (NumPy ufuncs' ``out=``)."""
    _judge(target, _function(target, name, table), SPEC[table][name], "house",
           extras_ok=not target.wrapped)


@pytest.mark.array_object
@pytest.mark.parametrize(("name", "table", "area"), _params("array", "array object"))
def test_array_method_signature(target: Target, name: str, table: str, area: str) -> None:
    _judge(target, _method(target, name), SPEC[table][name], "must")


@_SHOULD
@pytest.mark.array_object
@pytest.mark.parametrize(("name", "table", "area"), _params("array", "array object"))
def test_array_method_parameter_kinds(target: Target, name: str, table: str,
                                      area: str) -> None:  # fmt: skip
    _judge(target, _method(target, name), SPEC[table][name], "should")


@_HOUSE
@pytest.mark.ours_only
@pytest.mark.array_object
@pytest.mark.parametrize(("name", "table", "area"), _params("array", "array object"))
def test_array_method_signature_exact(target: Target, name: str, table: str,
                                      area: str) -> None:  # fmt: skip
    _judge(target, _method(target, name), SPEC[table][name], "house")


@pytest.mark.parametrize(("name", "table", "area"), _params("info", "info"))
def test_info_signature(target: Target, name: str, table: str, area: str) -> None:
    _judge(target, _info_method(target, name), SPEC[table][name], "must")


@_SHOULD
@pytest.mark.parametrize(("name", "table", "area"), _params("info", "info"))
def test_info_parameter_kinds(target: Target, name: str, table: str, area: str) -> None:
    _judge(target, _info_method(target, name), SPEC[table][name], "should")


# -- defaults, by behaviour -----------------------------------------------------------------
def _outputs(target: Target, value: Any) -> Any:
    """A result as nested lists of (dtype name, NumPy array) for comparison."""
    if isinstance(value, (tuple, list)):
        return [_outputs(target, v) for v in value]
    if target.is_array(value):
        return (target.dtype_name(value.dtype), target.to_numpy(value))
    return ("python", value)


def _same(a: Any, b: Any, values: bool) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(_same(x, y, values) for x, y in zip(a, b)))  # fmt: skip
    if a[0] == "python" or b[0] == "python":
        return bool(a == b)
    return bool(a[0] == b[0] and a[1].shape == b[1].shape
                and (not values or np.array_equal(a[1], b[1], equal_nan=a[1].dtype.kind in "fc")))


#: Functions whose inputs should be integers (array_api_strict refuses others).
_INTEGER_INPUTS = ("isin",)
#: The 32-bit dtypes that stand in for the 64-bit ones where a target lacks complex128.
_HELD = {"float64": "float32", "complex128": "complex64"}
#: Functions whose results are not determined by their inputs (only shape and dtype are).
_ARBITRARY = ("empty", "empty_like")
_DEFAULTED = [n for n in SIGNATURES if any(p.default is not p.empty
                                           for p in parse(SIGNATURES[n]).parameters.values())]


@pytest.mark.parametrize("name", _DEFAULTED)
def test_explicit_defaults(target: Target, name: str) -> None:
    """Each optional parameter passed its documented default behaves as left out (compat's
    ``diff(x, prepend=None)`` raised)."""
    spec = parse(SIGNATURES[name])
    args, kwargs = base_call(name, random.Random(0))
    if name in _INTEGER_INPUTS:
        args = [a.astype("int64") if isinstance(a, np.ndarray) else a for a in args]
    if "complex128" not in target.dtypes:  # (MLX: float64's fft would give complex128)
        args = [a.astype(_HELD[a.dtype.name]) if isinstance(a, np.ndarray)
                and a.dtype.name in _HELD else a for a in args]  # fmt: skip
    inputs: list[Any] = []
    args = [_convert(target, a, inputs) for a in args]
    kwargs = {k: _convert(target, v, inputs) for k, v in kwargs.items()}
    fn = target.function(name)
    plain = _outputs(target, fn(*args, **kwargs))
    wrong = []
    for p in spec.parameters.values():
        if p.default is p.empty or p.name in kwargs or p.kind is P.POSITIONAL_ONLY:
            continue
        try:
            given = _outputs(target, fn(*args, **kwargs, **{p.name: p.default}))
        except Exception as exc:  # any failure is the finding
            wrong.append(f"{p.name}={p.default!r} raised {type(exc).__name__}: {exc}"[:300])
            continue
        if not _same(plain, given, name not in _ARBITRARY):
            wrong.append(f"{p.name}={p.default!r} gave another result than leaving it out")
    assert not wrong, f"{name}: " + "; ".join(wrong)


#: Functions whose ``device=None`` means "the device of x" (the standard: "If device is
#: None, the output array device must be inferred from x").
_FROM_X: dict[str, Any] = {
    "astype": lambda xp, x, d: xp.astype(x, d, device=None),
    "empty_like": lambda xp, x, d: xp.empty_like(x, device=None),
    "zeros_like": lambda xp, x, d: xp.zeros_like(x, device=None),
    "ones_like": lambda xp, x, d: xp.ones_like(x, device=None),
    "full_like": lambda xp, x, d: xp.full_like(x, 1.0, device=None),
}


def _device(target: Target, x: Any) -> Any:
    """``x.device``; eagerpy_xp's native Dask arrays have none and answer through
    ``xp.device`` (eagerpy_xp's own helper, no name of the standard)."""
    if hasattr(x, "device"):
        return x.device
    if target.ours:
        return target.function("device")(x)
    raise Missing(f"missing: {type(x).__qualname__}.device", name="array.device")


@pytest.mark.parametrize("name", list(_FROM_X))
def test_device_none_keeps_the_input_device(target: Target, name: str) -> None:
    """``device=None`` keeps ``x``'s device, on every device of ``info.devices()`` (in a
    floating dtype that ``info.dtypes(device=d)`` lists there)."""
    xp = target.xp
    info = target.function("__array_namespace_info__")()
    fn = target.function(name)  # `Missing` where absent
    assert fn is not None
    tried = 0
    for d in info.devices():
        listed = info.dtypes(device=d, kind="real floating")
        dtype = next((n for n in ("float32", "float64") if n in listed and n in target.dtypes),
                     None)  # fmt: skip
        if dtype is None:
            continue
        x = xp.asarray([1.0, 2.0], dtype=target.dtype(dtype), device=d)
        y = _FROM_X[name](xp, x, target.dtype(dtype))
        assert _device(target, y) == _device(target, x), (
            f"{name}(x on {d!r}, device=None) is on {_device(target, y)!r}")
        tried += 1
    if not tried:
        raise Unsupported(f"{target.id}: no device lists a floating dtype")


@pytest.mark.parametrize("name", ["constants and dtypes"])
def test_constants_and_dtypes(target: Target, name: str) -> None:
    import math

    xp = target.xp
    assert (xp.e, xp.pi) == (math.e, math.pi)
    assert math.isinf(xp.inf) and xp.inf > 0 and math.isnan(xp.nan) and xp.newaxis is None
    missing = [d for d in _spec.DTYPES if not hasattr(xp, d)]
    if missing:
        raise Missing(f"missing: dtypes {missing}", name=", ".join(missing))
    version = target.function("__array_api_version__")
    assert version == _spec.API_VERSION, (
        f"__array_api_version__ is {version!r}; the suite tests {_spec.API_VERSION}")
