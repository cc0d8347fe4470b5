"""Signatures: every function (namespace, linalg, fft), Array method and info method.

Compared with the spec JSON: parameter names, order, kinds (positional-only, keyword-only,
``*args``) and defaults.  The native flavour may carry extra optional parameters after the
spec's (NumPy ufuncs take ``out=``); the wrapped flavour must match exactly.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from eagerpy_xp import _spec

from .harness import Missing, Target

AREA = "signatures"

_SPEC_JSON = Path(__file__).resolve().parents[2] / "shared" / "spec" / "array-api-2025.12.json"


def _spec_tables() -> dict[str, dict[str, str]]:
    """The spec's signatures: the shared JSON where present, else eagerpy_xp._spec."""
    tables = {"namespace": _spec.FUNCTIONS, "linalg": _spec.LINALG, "fft": _spec.FFT,
              "array": _spec.ARRAY_METHODS, "info": _spec.INFO_METHODS}  # fmt: skip
    if _SPEC_JSON.exists():
        data = json.loads(_SPEC_JSON.read_text())
        if isinstance(data.get("info"), dict) and isinstance(data["info"].get("methods"), dict):
            data["info"] = data["info"]["methods"]
        for key in tables:
            if isinstance(data.get(key), dict):
                tables[key] = {k: v for k, v in data[key].items() if "(" in str(v)}
    return tables


SPEC = _spec_tables()


def parse(text: str) -> inspect.Signature:
    """An `inspect.Signature` from the spec's ``name(params)`` text."""
    name, _, params = text.partition("(")
    scope: dict[str, Any] = {}
    exec(f"def {name}({params}: pass", scope)  # the spec's own parameter list
    return inspect.signature(scope[name])


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def signature_problems(actual: inspect.Signature, spec: inspect.Signature,
                       extras_ok: bool) -> list[str]:  # fmt: skip
    """What differs between an implementation's signature and the spec's."""
    problems = []
    got = list(actual.parameters.values())
    want = list(spec.parameters.values())
    names = [p.name for p in want]
    core = [p for p in got if p.name in names]
    extra = [p for p in got if p.name not in names]
    if [p.name for p in core] != [n for n in names if n in {p.name for p in core}]:
        problems.append("parameter order differs")
    for p in want:
        q = actual.parameters.get(p.name)
        if q is None:
            # positional-only parameters may be named differently; match by position
            index = names.index(p.name)
            if p.kind is p.POSITIONAL_ONLY and index < len(got) and got[index].kind is p.kind:
                continue
            problems.append(f"missing parameter {p.name!r}")
            continue
        if q.kind is not p.kind:
            problems.append(f"{p.name}: kind {q.kind.description}, spec {p.kind.description}")
        if q.default != p.default and not (q.default is p.empty and p.default is p.empty):
            problems.append(f"{p.name}: default {q.default!r}, spec {p.default!r}")
    if extra and not extras_ok:
        problems.append(f"extra parameters {[p.name for p in extra]}")
    last_spec_positional = max((got.index(p) for p in core if p.kind in _POSITIONAL), default=-1)
    for p in extra:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is p.empty:
            problems.append(f"extra parameter {p.name!r} is required")
        if p.kind in _POSITIONAL and got.index(p) < last_spec_positional:
            problems.append(f"extra positional parameter {p.name!r} before the spec's")
    return problems


def _check(target: Target, obj: Any, text: str) -> None:
    try:
        actual = inspect.signature(obj)
    except (TypeError, ValueError) as exc:
        pytest.fail(f"no inspectable signature: {exc}")
    problems = signature_problems(actual, parse(text), extras_ok=not target.wrapped)
    assert not problems, f"{text} vs {actual}: " + "; ".join(problems)


def _params(table: str, area: str) -> list[Any]:
    return [pytest.param(name, table, area, id=f"{table}.{name}") for name in SPEC[table]]


@pytest.mark.parametrize(("name", "table", "area"),
                         _params("namespace", "signatures") + _params("linalg", "linalg")
                         + _params("fft", "fft"))  # fmt: skip
def test_function_signature(target: Target, name: str, table: str, area: str) -> None:
    _check(target, target.function(name if table == "namespace" else f"{table}.{name}"),
           SPEC[table][name])


@pytest.mark.array_object
@pytest.mark.parametrize(("name", "table", "area"), _params("array", "array object"))
def test_array_method_signature(target: Target, name: str, table: str, area: str) -> None:
    array_type = type(target.asarray(np.zeros(2)))
    if not hasattr(array_type, name):
        raise Missing(f"missing: {array_type.__qualname__}.{name}", name=f"array.{name}")
    _check(target, getattr(array_type, name), SPEC[table][name])


@pytest.mark.parametrize(("name", "table", "area"), _params("info", "info"))
def test_info_signature(target: Target, name: str, table: str, area: str) -> None:
    info = target.function("__array_namespace_info__")()
    if not hasattr(info, name):
        raise Missing(f"missing: __array_namespace_info__().{name}", name=f"info.{name}")
    _check(target, getattr(info, name), SPEC[table][name])


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
