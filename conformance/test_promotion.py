"""Type promotion: every array-array pair of the spec's table, and the array-scalar rules.

Checked through ``result_type``, ``can_cast``, a binary function, its operator and, where
the promoted dtype is the left operand's, the in-place operator (which must keep it).
"""

from __future__ import annotations

import operator

import numpy as np
import pytest

from eagerpy_xp._dtypes import ALL, PROMOTION_TABLE, kind_of

from .compare import strict_dtype_name
from .harness import Target

AREA = "promotion"

_PAIRS = sorted(PROMOTION_TABLE)
_SCALARS: dict[str, tuple[object, ...]] = {
    "bool": (True,),
    "signed integer": (1, -2),
    "unsigned integer": (1, 3),
    "real floating": (1, 2.5),
    "complex floating": (1, 2.5, 1j),
}


def _function_for(a: str) -> str:
    """A binary function defined for the dtype's kind, and its operator."""
    return "logical_and" if a == "bool" else "add"


@pytest.mark.parametrize(("name", "pair"), [("result_type", p) for p in _PAIRS])
def test_result_type(target: Target, name: str, pair: tuple[str, str]) -> None:
    result_type = target.function("result_type")
    a, b = pair
    expected = PROMOTION_TABLE[pair]
    target.check_holds(expected)  # a result it cannot hold (MLX: complex128) is refused
    got = result_type(target.dtype(a), target.dtype(b))
    assert target.dtype_name(got) == expected, f"result_type({a}, {b})"
    if a in target.unheld:  # no array of it (MLX: complex128)
        return
    x = target.asarray(np.zeros(2, a))
    got = result_type(x, target.dtype(b))
    assert target.dtype_name(got) == expected, f"result_type(array {a}, {b})"


@pytest.mark.parametrize("name", ["can_cast"])
def test_can_cast(target: Target, name: str) -> None:
    can_cast = target.function("can_cast")
    wrong = []
    listed = [d for d in ALL if d in target.dtypes]
    for a in listed:
        for b in listed:
            expected = PROMOTION_TABLE.get((a, b)) == b
            if can_cast(target.dtype(a), target.dtype(b)) is not expected:
                wrong.append(f"{a}->{b}")
    assert not wrong, f"can_cast wrong for {wrong}"


@pytest.mark.parametrize(("name", "pair"), [("arrays", p) for p in _PAIRS])
def test_array_array(target: Target, name: str, pair: tuple[str, str]) -> None:
    a, b = pair
    expected = PROMOTION_TABLE[pair]
    target.check_holds(a, b, expected)
    fn = _function_for(a)
    x1 = target.asarray(np.ones((2, 1), a))
    x2 = target.asarray(np.ones((1, 3), b))
    results = {"function": target.function(fn)(x1, x2)}
    if target.operators:
        op = operator.and_ if fn == "logical_and" else operator.add
        results["operator"] = op(x1, x2)
        if expected == a:
            y = target.asarray(np.ones((2, 3), a))
            y_before = y
            y = (operator.iand if fn == "logical_and" else operator.iadd)(y, x2)
            if target.ours:  # eagerpy_xp's promise: the standard leaves mutation open
                assert y is y_before, "in-place operator returned a new object"
            results["in-place"] = y
    for form, result in results.items():
        got = target.dtype_name(result.dtype)
        assert got == expected, f"{fn} {form} of {a} and {b}: {got}, expected {expected}"
        assert tuple(result.shape) == (2, 3), f"{fn} {form}: shape {tuple(result.shape)}"


@pytest.mark.parametrize("name", ALL)
def test_array_scalar(target: Target, name: str) -> None:
    """An array with a Python scalar of a matching kind keeps the array's dtype."""
    fn = "logical_and" if name == "bool" else "multiply"
    problems = []
    for scalar in _SCALARS[kind_of(name)]:
        x = target.asarray(np.ones(3, name))
        forms = {"function": target.function(fn)(x, scalar),
                 "function, scalar first": target.function(fn)(scalar, x)}  # fmt: skip
        if target.operators:
            op = operator.and_ if name == "bool" else operator.mul
            forms["operator"] = op(x, scalar)
            forms["reflected"] = op(scalar, x)
            forms["comparison"] = x == scalar
        for form, result in forms.items():
            want = "bool" if form == "comparison" else name
            got = target.dtype_name(result.dtype)
            if got != want:
                problems.append(f"{form} with {scalar!r}: {got}, expected {want}")
            value = target.to_numpy(result)
            ref = np.full(3, True if form == "comparison" else np.ones(1, name)[0] * scalar
                          if name != "bool" else bool(scalar))  # fmt: skip
            if form != "comparison" and not np.array_equal(value, ref.astype(name)):
                problems.append(f"{form} with {scalar!r}: values {value}, expected {ref}")
    assert not problems, f"{name}: " + "; ".join(problems)


#: Linear-algebra functions of two arrays -> (namespace, operand shapes, keyword arguments).
_TWO_ARRAYS: dict[str, tuple[str, tuple[int, ...], tuple[int, ...], dict[str, object]]] = {
    # element-wise functions: every pair through add/logical_and above (test_array_array);
    "matmul": ("main", (2, 2), (2, 2), {}),
    "linalg.outer": ("linalg", (2,), (3,), {}),
    "linalg.cross": ("linalg", (3,), (3,), {}),
}  # fmt: skip


def _small(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    """Values 0..2 (True/False for bool): no overflow, valid shift counts."""
    values = (np.arange(int(np.prod(shape))) + seed) % 3
    return values.reshape(shape).astype(dtype)


@pytest.mark.parametrize("name", sorted(_TWO_ARRAYS))
def test_every_pair(target: Target, name: str) -> None:
    """Each function of two arrays on every pair of standard dtypes that the standard
    promotes and array_api_strict accepts: the promoted dtype and the values."""
    import array_api_strict as xs

    where, s1, s2, kwargs = _TWO_ARRAYS[name]
    short = name.split(".")[-1]
    fn = target.function(name)
    ref = getattr(xs.linalg if where == "linalg" else xs, short)
    problems = []
    for a, b in _PAIRS:
        if a not in target.dtypes or b not in target.dtypes:
            continue  # a dtype the namespace does not list (its info row says so)
        x1, x2 = _small(s1, a, 1), _small(s2, b, 2)
        try:
            want = ref(xs.asarray(x1), xs.asarray(x2), **kwargs)
        except (TypeError, ValueError):
            continue  # outside the function's dtypes
        if {a, b, strict_dtype_name(want.dtype)} & target.unheld:
            continue  # a dtype the target cannot hold (MLX: complex128)
        try:
            got = fn(target.asarray(x1), target.asarray(x2), **kwargs)
        except Exception as e:  # every failure is reported, by pair
            problems.append(f"{a} x {b}: {type(e).__name__}: {str(e)[:120]}")
            continue
        want_dtype = strict_dtype_name(want.dtype)
        if target.dtype_name(got.dtype) != want_dtype:
            problems.append(f"{a} x {b}: dtype {target.dtype_name(got.dtype)}, "
                            f"expected {want_dtype}")  # fmt: skip
        elif not np.allclose(target.to_numpy(got), np.asarray(want), rtol=1e-5, equal_nan=True):
            problems.append(f"{a} x {b}: {target.to_numpy(got)!r}, expected {np.asarray(want)!r}")
    assert not problems, f"{name} on {len(problems)} pairs:\n  " + "\n  ".join(problems[:10])
