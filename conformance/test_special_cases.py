"""The spec's special cases (see `special_cases.py`): one test item per statement.

Each statement is checked through the function (both flavours) and, on the wrapped
flavour, through the operator, the reflected operator (Python scalar on the left) and the
in-place operator where the spec has one (operators on native arrays are the framework's
own).  Each function runs once per target, form and dtype on all rows of all its
statements together (cached); each item then checks its own rows.  Signed zeros are
compared exactly, NaN as NaN (and by sign bit where the spec names it).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .harness import Target
from .special_cases import Expected, Statement, statements

AREA = "special cases"
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

#: function -> operator name (``operator.<name>``; ``i<name>`` is the in-place form)
BINARY_OPERATORS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "floor_divide": "floordiv", "remainder": "mod", "pow": "pow", "equal": "eq",
    "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge",
}  # fmt: skip
UNARY_OPERATORS: dict[str, Callable[[Any], Any]] = {
    "abs": abs, "negative": operator.neg, "positive": operator.pos,
}  # fmt: skip
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
_DTYPES = {"real": ("float32", "float64"), "complex": ("complex64", "complex128")}
_PART_DTYPE = {"float32": "float32", "float64": "float64", "complex64": "float32",
               "complex128": "float64"}  # fmt: skip

STATEMENTS = statements()


def _forms(s: Statement) -> list[str]:
    if len(s.rows[0].inputs) == 1:
        return ["function"] + (["operator"] if s.function in UNARY_OPERATORS else [])
    op = BINARY_OPERATORS.get(s.function)
    if op is None:
        return ["function"]
    return ["function", "operator", "reflected"] + (["in-place"] if op not in _COMPARISONS else [])


_ITEMS = [(s, form) for s in STATEMENTS for form in _forms(s)]


def _runner(target: Target, name: str, form: str, arity: int,
            count: int) -> Callable[..., Any]:  # fmt: skip
    if form == "function":
        return target.function(name)  # type: ignore[no-any-return]
    if arity == 1:
        return UNARY_OPERATORS[name]
    op = BINARY_OPERATORS[name]
    if form == "operator":
        return getattr(operator, op)  # type: ignore[no-any-return]
    if form == "reflected":
        plain = getattr(operator, op)

        def reflected(x1: Any, x2: Any) -> list[Any]:
            """A Python scalar on the left, element by element (the first ``count``)."""
            left = target.to_numpy(x1)
            return [plain(left[i].item(), x2[i]) for i in range(count)]

        return reflected
    inplace = getattr(operator, f"i{op}")

    def in_place(x1: Any, x2: Any) -> Any:
        result = inplace(x1, x2)
        if target.ours:  # eagerpy_xp's promise; the standard leaves mutation to the library
            assert result is x1, "an in-place operator must return the array itself"
        return result

    return in_place


_RESULTS: dict[tuple[str, str, str, str, str], tuple[list[Any], dict[str, int]]] = {}


def padded_length(rows: int) -> int:
    """The length the rows of a function are run at: the next power of two, at least 16.
    A few lengths for every function, so that a compiling framework (JAX) compiles the
    kernels shared between functions once per dtype rather than once per function."""
    return max(16, 1 << (rows - 1).bit_length())


def _results(target: Target, s: Statement, form: str, dtype: str) -> tuple[list[Any], int]:
    """The results of all rows of every statement of this function and kind (run once,
    padded with copies of the first row to `padded_length`), and where the rows of ``s``
    start."""
    key = (target.id, s.function, s.kind, form, dtype)
    if key not in _RESULTS:
        group = [t for t in STATEMENTS if (t.function, t.kind) == (s.function, s.kind)
                 and len(t.rows[0].inputs) == len(s.rows[0].inputs)]  # fmt: skip
        starts, rows, offset = {}, [], 0
        for t in group:
            starts[t.id] = offset
            rows += t.rows
            offset += len(t.rows)
        arity = len(rows[0].inputs)
        count = len(rows)
        rows += [rows[0]] * (padded_length(count) - count)
        operands = []
        for k in range(arity):
            a = np.empty(len(rows), dtype=dtype)
            if s.kind == "complex":  # part by part: 1j * inf is NaN + inf j
                a.real = [r.inputs[k].real for r in rows]
                a.imag = [r.inputs[k].imag for r in rows]
            else:
                a[:] = [float(r.inputs[k].real) for r in rows]
            operands.append(target.asarray(a))
        result = _runner(target, s.function, form, arity, count)(*operands)
        if isinstance(result, list):
            values = [v.item() for v in target.to_numpy_all(result)]
        else:
            values = list(target.to_numpy(result).tolist())[:count]
        _RESULTS[key] = (values, starts)
    values, starts = _RESULTS[key]
    return values, starts[s.id]


def _matches(actual: Any, expected: Expected, part_dtype: str) -> bool:
    value, how = expected
    if how == "any of":
        return any(_matches(actual, e, part_dtype) for e in value)
    if how == "bool":
        return isinstance(actual, (bool, np.bool_)) and bool(actual) is value
    actual = float(actual)
    if how.startswith("nan"):
        sign = {"nan+": 1.0, "nan-": -1.0}.get(how)
        return math.isnan(actual) and (sign is None or math.copysign(1, actual) == sign)
    if how == "zero":
        return actual == 0
    if how == "inf":
        return math.isinf(actual)
    if how in ("positive", "negative"):
        sign = math.copysign(1.0, actual)  # the sign bit: +0 has a positive sign
        return not math.isnan(actual) and sign == (1.0 if how == "positive" else -1.0)
    if how in ("approx", "approx_abs"):
        got = abs(actual) if how == "approx_abs" else actual
        eps = float(np.finfo(part_dtype).eps)
        return math.isclose(got, value, rel_tol=64 * eps, abs_tol=64 * eps)
    if math.isnan(value):
        return math.isnan(actual)
    return actual == value and math.copysign(1, actual) == math.copysign(1, value)


def _parts(actual: Any, n: int) -> tuple[Any, ...]:
    if n == 2:
        c = complex(actual)
        return c.real, c.imag
    return (actual,)


def _check(target: Target, statement: Statement, form: str) -> None:
    failures, total = [], 0
    listed = [d for d in _DTYPES[statement.kind] if d in target.dtypes]
    if not listed:
        target.refuse(_DTYPES[statement.kind][0])
    for dtype in listed:
        values, start = _results(target, statement, form, dtype)
        for i, row in enumerate(statement.rows):
            actual = values[start + i]
            total += 1
            got = _parts(actual, len(row.expected))
            if not all(_matches(g, e, _PART_DTYPE[dtype]) for g, e in zip(got, row.expected)):
                want = " + ".join(f"{v!r} ({h})" for v, h in row.expected)
                failures.append(f"{statement.function}{row.inputs!r} ({dtype}) gave {actual!r}, "
                                f"expected {want}")  # fmt: skip
    assert not failures, (f"{statement.function} ({statement.kind}, {form}) "
                          f"[{statement.text}]: {len(failures)} of {total} rows wrong:\n  "
                          + "\n  ".join(failures[:8]))  # fmt: skip


def _params(operators: bool) -> list[Any]:
    return [pytest.param(s.function, s, form, id=f"{s.id}-{form}",
                         marks=[pytest.mark.tier(s.tier, "the library's choice where the "
                                                 "standard permits several")]
                         if s.tier != "must" else [])
            for s, form in _ITEMS if (form != "function") == operators]  # fmt: skip


@pytest.mark.parametrize(("name", "statement", "form"), _params(operators=False))
def test_special_case(target: Target, name: str, statement: Statement, form: str) -> None:
    _check(target, statement, form)


@pytest.mark.array_object
@pytest.mark.parametrize(("name", "statement", "form"), _params(operators=True))
def test_special_case_operator(target: Target, name: str, statement: Statement,
                               form: str) -> None:  # fmt: skip
    _check(target, statement, form)
