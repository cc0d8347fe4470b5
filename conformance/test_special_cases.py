"""The spec's special cases (see `special_cases.py`), through every function and operator.

The wrapped flavour is checked through the function, the operator, the reflected operator
(Python scalar on the left) and the in-place operator; the native flavour through the
function (operators on native arrays are the framework's own).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .harness import Target
from .special_cases import (
    BINARY,
    COMPLEX_ABS,
    COMPLEX_UNARY,
    UNARY,
    VALUES,
    binary_rows,
    complex_cases,
    expected_value,
    unary_rows,
)

AREA = "special cases"
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

#: function -> operator name (``operator.<name>``; ``i<name>`` is the in-place form)
BINARY_OPERATORS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "floor_divide": "floordiv", "remainder": "mod", "pow": "pow", "equal": "eq",
    "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge",
}  # fmt: skip
UNARY_OPERATORS = {"abs": abs, "negative": operator.neg, "positive": operator.pos}
FLOATS = ("float32", "float64")


def _matches(actual: Any, expected: Any, how: str, dtype: str) -> bool:
    if how == "bool":
        return bool(actual) is expected
    actual = float(actual)
    if how == "nan":
        return math.isnan(actual)
    if how == "zero":
        return actual == 0
    if how == "inf":
        return math.isinf(actual)
    if how == "approx":
        return math.isclose(actual, expected, rel_tol=8 * float(np.finfo(dtype).eps))
    if math.isnan(expected):
        return math.isnan(actual)
    return actual == expected and math.copysign(1, actual) == math.copysign(1, expected)


def _report(failures: list[str], total: int, what: str) -> None:
    assert not failures, (f"{what}: {len(failures)} of {total} special cases wrong:\n  "
                          + "\n  ".join(failures[:12]))  # fmt: skip


def _operator_form(name: str, form: str) -> Callable[[Any, Any], Any]:
    op = BINARY_OPERATORS[name]
    if form == "operator":
        return getattr(operator, op)  # type: ignore[no-any-return]
    if form == "reflected":
        return _reflected(getattr(operator, op))
    return _inplace(getattr(operator, f"i{op}"))


def _reflected(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Python float on the left, element by element: ``float(x1[i]) <op> x2[i]``."""

    def run(x1: Any, x2: Any) -> list[Any]:
        return [op(float(x1[i]), x2[i]) for i in range(x1.shape[0])]

    return run


def _inplace(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(x1: Any, x2: Any) -> Any:
        result = op(x1, x2)
        assert result is x1, "an in-place operator must return the array itself"
        return x1

    return run


def _to_list(target: Target, result: Any) -> list[Any]:
    if isinstance(result, list):
        return [target.to_numpy(r).item() for r in result]
    return list(target.to_numpy(result).tolist())


_OPERATOR_FORMS = [(name, form) for name, op in BINARY_OPERATORS.items()
                   for form in ("operator", "reflected", "in-place")
                   if form != "in-place" or op not in ("eq", "ne", "lt", "le", "gt", "ge")]


def _check_binary(target: Target, name: str, form: str, run: Callable[[Any, Any], Any]) -> None:
    rows = binary_rows(name)
    failures: list[str] = []
    for dtype in FLOATS:
        x1 = target.asarray(np.array([r[0] for r in rows], dtype=dtype))
        x2 = target.asarray(np.array([r[1] for r in rows], dtype=dtype))
        got = _to_list(target, run(x1, x2))
        for (a, b, expected, text), actual in zip(rows, got):
            value, how = expected_value(expected, a, b)
            if not _matches(actual, value, how, dtype):
                failures.append(f"{text}: x1={a!r}, x2={b!r} ({dtype}) gave {actual!r}")
    _report(failures, 2 * len(rows), f"{name} ({form})")


def _check_unary(target: Target, name: str, form: str, run: Callable[[Any], Any]) -> None:
    rows = unary_rows(name)
    failures: list[str] = []
    for dtype in FLOATS:
        x = target.asarray(np.array([r[0] for r in rows], dtype=dtype))
        got = _to_list(target, run(x))
        for (v, expected, text), actual in zip(rows, got):
            value, how = expected_value(expected, v)
            if not _matches(actual, value, how, dtype):
                failures.append(f"{text}: x={v!r} ({dtype}) gave {actual!r}")
    _report(failures, 2 * len(rows), f"{name} ({form})")


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_function(target: Target, name: str) -> None:
    _check_binary(target, name, "function", getattr(target.xp, name))


@pytest.mark.flavours("wrapped")
@pytest.mark.parametrize(("name", "form"), _OPERATOR_FORMS)
def test_binary_operator(target: Target, name: str, form: str) -> None:
    _check_binary(target, name, form, _operator_form(name, form))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_function(target: Target, name: str) -> None:
    _check_unary(target, name, "function", getattr(target.xp, name))


@pytest.mark.flavours("wrapped")
@pytest.mark.parametrize("name", sorted(UNARY_OPERATORS))
def test_unary_operator(target: Target, name: str) -> None:
    _check_unary(target, name, "operator", UNARY_OPERATORS[name])


def _complex_inputs(cases: list[Any]) -> list[tuple[complex, Any, str]]:
    rows = []
    for (c_re, c_im), expected in cases:
        for re in VALUES[c_re]:
            for im in VALUES[c_im]:
                rows.append((complex(re, im), expected, f"(re {c_re}, im {c_im}) -> {expected}"))
    return rows


@pytest.mark.parametrize("name", [*sorted(COMPLEX_UNARY), "abs"])
def test_complex(target: Target, name: str) -> None:
    cases: list[Any] = COMPLEX_ABS if name == "abs" else complex_cases(name)
    rows = _complex_inputs(cases)
    failures: list[str] = []
    for dtype in ("complex64", "complex128"):
        x = np.empty(len(rows), dtype=dtype)
        x.real = [r[0].real for r in rows]
        x.imag = [r[0].imag for r in rows]
        real_dtype = "float32" if dtype == "complex64" else "float64"
        got = target.to_numpy(getattr(target.xp, name)(target.asarray(x)))
        for (z, expected, text), actual in zip(rows, got.tolist()):
            if name == "abs":
                value, how = expected_value(expected, z.real, z.imag)
                ok = _matches(actual, value, how, real_dtype)
            else:
                ok = all(_matches(part, *expected_value(e), real_dtype)
                         for part, e in ((actual.real, expected[0]), (actual.imag, expected[1])))
            if not ok:
                failures.append(f"{name}{text}: x={z!r} ({dtype}) gave {actual!r}")
    _report(failures, 2 * len(rows), f"{name} (complex)")
