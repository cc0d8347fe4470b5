"""In-place operators whose promoted result has another dtype of the same kind (issue 37).

scikit-learn's ``CalibratedClassifierCV.predict_proba`` accumulates float64
probabilities into ``xp.zeros(...)``, which is float32 where the namespace's default
floating dtype is (torch, MLX): ``mean_proba += proba``.  The standard keeps an in-place
result's dtype and leaves a promotion to another one unspecified; NumPy and torch agree
that a result of the same kind is cast back (``float32_array += float64_array`` stays
float32), so eagerpy_xp does the same on every wrapped backend (DESIGN.md, "Spec first"),
and refuses a result of another kind as both do (``int_array += 1.5``).

The family: every ordered pair of distinct dtypes of one kind that the backend holds,
each arithmetic in-place operator of that kind, 0-d, 1-d and broadcast 2-d operands, and
values that overflow the narrower dtype (integers wrap, floats become infinities, as in
NumPy), judged against NumPy's own in-place result; the `Array` keeps its identity and a
view written this way writes through to its parent.
"""

from __future__ import annotations

import importlib
import itertools
import operator
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import x64

#: Each wrapped backend, by the framework module it needs.
BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core", "ndonnx": "ndonnx"}  # fmt: skip

KINDS = ("signed integer", "unsigned integer", "real floating", "complex floating")

#: In-place operator -> the binary operator NumPy's reference applies, by kind.
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
}  # fmt: skip
_BY_KIND: dict[str, dict[str, Callable[[Any, Any], Any]]] = {
    "signed integer": {**_ARITHMETIC, "//=": operator.ifloordiv, "%=": operator.imod},
    "unsigned integer": {**_ARITHMETIC, "//=": operator.ifloordiv},
    "real floating": {**_ARITHMETIC, "/=": operator.itruediv},
    "complex floating": {**_ARITHMETIC, "/=": operator.itruediv},
}

#: Values by kind: the second row overflows the narrower integer dtypes (they wrap) and
#: float32 (an infinity), the first fits everywhere.  No subnormals: JAX flushes them to
#: zero on CPU, whatever the cast.
_VALUES = {
    "signed integer": ([[3, -7, 5], [2, 4, -1]], [[100, -100, 120], [90, -128, 127]]),
    "unsigned integer": ([[3, 7, 5], [2, 4, 1]], [[200, 250, 130], [100, 255, 129]]),
    "real floating": ([[1.5, -2.25, 3.0], [0.5, 8.0, -1.0]],
                      [[1e38, -3e38, 2.5e3], [3e-30, 1e-10, 7.0]]),
    "complex floating": ([[1 + 2j, -0.5j, 3.0], [2.0, 1 - 1j, 0.25j]],
                         [[3e38 + 1j, -1e38j, 1.0], [1e-30j, 2.0, -3e38]]),
}  # fmt: skip


@pytest.fixture(params=list(BACKENDS))
def xp(request: pytest.FixtureRequest) -> Any:
    pytest.importorskip(BACKENDS[request.param], reason=f"{request.param} is not installed")
    with x64(request.param):
        yield importlib.import_module(f"eagerpy_xp.{request.param}")


def _held(xp: ModuleType, kind: str) -> list[str]:
    return list(xp.__array_namespace_info__().dtypes(kind=kind))


def _pairs(xp: ModuleType) -> list[tuple[str, str, str]]:
    """(kind, array dtype, operand dtype): every ordered pair of distinct dtypes of a kind."""
    return [(kind, a, b) for kind in KINDS
            for a, b in itertools.permutations(_held(xp, kind), 2)]  # fmt: skip


def _expected(op: Callable[[Any, Any], Any], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        out = a.copy()
        op(out, b)  # NumPy's in-place operator: the result cast back to a's dtype
    return out


def _nonzero(values: np.ndarray) -> np.ndarray:
    return np.where(values == 0, np.ones_like(values), values)


def test_same_kind_results_are_cast_back(xp: ModuleType) -> None:
    checked = 0
    for (kind, a_name, b_name), row in itertools.product(_pairs(xp), (0, 1)):
        base = np.asarray(_VALUES[kind][row])
        for symbol, op in _BY_KIND[kind].items():
            a_np = base.astype(a_name)
            b_np = _nonzero(base[::-1].astype(b_name)) if symbol in ("//=", "/=", "%=") \
                else base[::-1].astype(b_name)  # fmt: skip
            for a_part, b_part in ((a_np[0, 0], b_np[0, 0]), (a_np[0], b_np[1]), (a_np, b_np[1])):
                want = _expected(op, np.array(a_part), np.array(b_part))
                x = xp.asarray(np.array(a_part))
                before = x
                op(x, xp.asarray(np.array(b_part)))
                context = f"{a_name} {symbol} {b_name} on {np.shape(a_part)}"
                assert x is before, context
                assert x.dtype == getattr(xp, a_name), context
                got = np.asarray(x)
                assert got.shape == want.shape, context
                if kind.endswith("integer"):
                    np.testing.assert_array_equal(got, want, err_msg=context)
                else:
                    np.testing.assert_allclose(got, want, rtol=1e-6, atol=0, err_msg=context)
                checked += 1
    assert checked > 0


def test_other_kinds_are_refused_and_leave_the_array(xp: ModuleType) -> None:
    """A result of another kind is a `TypeError` naming the dtypes, as in NumPy and torch."""
    cases = [("int32", 1.5), ("int64", xp.asarray([0.5, 0.5, 0.5])),
             ("uint8", xp.asarray([1, 1, 1], dtype=xp.int8))]  # fmt: skip
    if "complex64" in _held(xp, "complex floating"):
        cases.append(("float32", xp.asarray([1j, 1j, 1j], dtype=xp.complex64)))
    for dtype, operand in cases:
        x = xp.asarray([1, 2, 3], dtype=getattr(xp, dtype))
        with pytest.raises(TypeError, match=rf"__iadd__: cannot cast the result dtype \w+ to "
                                            rf"the array's dtype {dtype} in place"):  # fmt: skip
            x += operand
        assert x.dtype == getattr(xp, dtype)
        np.testing.assert_array_equal(np.asarray(x), [1, 2, 3])


def test_cast_back_writes_through_a_view(xp: ModuleType) -> None:
    """A row of a float32 matrix accumulating float64 values (GaussianMixture-style
    writes through a basic-indexing result): the parent sees the float32 sums."""
    if "float64" not in _held(xp, "real floating"):
        pytest.skip(f"{xp.__name__} has no float64")
    parent = xp.zeros((2, 3), dtype=xp.float32)
    row = parent[1]
    row += xp.asarray([0.1, 0.2, 0.3], dtype=xp.float64)
    want = np.zeros((2, 3), dtype=np.float32)
    want[1] += np.array([0.1, 0.2, 0.3])
    assert row.dtype == xp.float32 and parent.dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(parent), want)
    np.testing.assert_array_equal(np.asarray(row), want[1])
