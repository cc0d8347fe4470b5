"""Every standard function against array_api_strict on hypothesis-generated inputs.

The table in `functions.py` says how each function is called; this module runs each entry
on the target and on the reference and compares dtype, shape and values.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import array_api_strict as xs
import numpy as np
import pytest
from hypothesis import given, reject

from eagerpy_xp import _spec

from .compare import (
    DEFAULT_DTYPE_FUNCTIONS,
    assert_matches,
    assert_or_flushed,
    default_dtype_map,
    is_strict_array,
    strict_dtype_name,
    values_mismatch,
)
from .functions import CASES, NOT_DIFFERENTIAL, Case
from .harness import Target
from .strategies import Call

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def test_table_covers_the_spec() -> None:
    """Each spec function has a differential case or a written reason why not."""
    missing = set(_spec.FUNCTIONS) - set(CASES) - set(NOT_DIFFERENTIAL)
    assert not missing, f"no differential case for {sorted(missing)}"


def reference(call: Call, name: str, namespace: Any = xs) -> Any:
    """The array_api_strict result; inputs it refuses are outside the spec's domain."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call.run(getattr(namespace, name), xs.asarray, lambda n: getattr(xs, n))
    except (TypeError, ValueError, IndexError, OverflowError):
        reject()


def mask_for(case: Case, call: Call) -> np.ndarray | None:
    return case.mask(call) if case.mask is not None else None


def assert_plain(got: Any, expected: Any, what: str, tol: str = "exact") -> None:
    """Compare post-processed results (NumPy arrays, numbers, tuples of those)."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray), f"{what}: got {got!r}"
        assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype}, expected {expected.dtype}"
        assert got.shape == expected.shape, f"{what}: shape {got.shape}, expected {expected.shape}"
        problem = values_mismatch(got, expected, tol)
        assert problem is None, f"{what}: {problem}"
    elif isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"{what}: got {got!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_plain(g, e, f"{what}[{i}]", tol)
    else:
        assert got == expected, f"{what}: got {got!r}, expected {expected!r}"


def check_call(target: Target, name: str, case: Case, call: Call, fn: Any,
               namespace: Any = xs) -> None:  # fmt: skip
    """Run one call on the target and the reference (``namespace``) and compare."""

    def expect(c: Call) -> Any:  # first: inputs the reference refuses are rejected
        return reference(c, name, namespace) if case.reference is None else case.reference(c)

    expected = expect(call)
    target.check_holds(*dtype_names(call, expected))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = call.run(fn, target.asarray, target.dtype)
    assert_or_flushed(target, call, lambda c: compare_result(
        target, name, case, c, result, expected if c is call else expect(c)))


def dtype_names(call: Call, expected: Any) -> list[str]:
    """The dtypes a call names (its dtype arguments) and its reference result has: a
    target that cannot hold one of them (`Target.check_holds`) skips the example."""
    from .strategies import DType

    names = [v.name for v in (*call.args, *call.kwargs.values()) if isinstance(v, DType)]
    pending = [expected]
    while pending:
        item = pending.pop()
        if is_strict_array(item):
            names.append(strict_dtype_name(item.dtype))
        elif isinstance(item, (tuple, list)):
            pending.extend(item)
    return names


def input_scale(name: str, call: Call) -> float:
    """The magnitude that rounding errors scale with where the result can be far smaller
    than the inputs (the absolute tolerance is relative to it): ``std``/``var`` cancel
    (for constant data the exact result is 0; rounding leaves about eps times the data's
    magnitude, squared for ``var``); ``linalg.matrix_norm`` with ``ord=-2`` is the smallest
    singular value, which for a singular matrix is rounding noise of the largest's size
    (at most ``max(M, N)`` times the largest element); ``linspace``'s points are
    ``start + i * step``, whose errors scale with ``max(|start|, |stop|)``; a complex
    ``pow``: `_complex_pow_scale`; ``cosh``/``sinh``: XLA computes them through
    ``exp(|x| + log(1/2))``, whose rounding costs eps times ``|x|`` of the result;
    ``cross``: differences of products, `_product_scale`."""
    if not call.args:
        return 0.0
    if name == "pow":
        return _complex_pow_scale(call)
    if name in ("cosh", "sinh"):  # JAX's cosh(513 + 0j) is off by 5.5e-14
        x = np.asarray(call.args[0])
        with np.errstate(all="ignore"):
            size = np.abs(np.cosh(x.astype(np.complex128))) * np.abs(np.real(x))
        return float(np.max(size[np.isfinite(size)], initial=0.0))
    if name == "cross" and len(call.args) >= 2:
        return _product_scale(call)
    if name == "linspace":
        ends = [abs(complex(v)) for v in call.args[:2]]
        return max([e for e in ends if math.isfinite(e)], default=0.0)
    if name not in ("std", "var", "matrix_norm"):
        return 0.0
    x = np.asarray(call.args[0])
    magnitude = _largest_finite(x)
    if name == "matrix_norm":
        return magnitude * max(x.shape[-2:], default=1)
    return magnitude if name == "std" else magnitude * magnitude


def _product_scale(call: Call) -> float:
    """Each element of ``cross`` is a difference of two products, which may cancel:
    rounding leaves about eps times the largest product (complex64 ``cross`` of
    (1+1.3926j, 17-1.7713j) and (1+1.3919j, 17-1.7813j) is 0.01504+0.00165j from products
    of about 17 x 1.39; NumPy's and torch's differ by 1e-6)."""
    return _largest_finite(np.asarray(call.args[0])) * _largest_finite(np.asarray(call.args[1]))


def _largest_finite(x: np.ndarray) -> float:
    """The largest finite magnitude among the elements of ``x`` (0 where there is none)."""
    data = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    return float(np.max(data[np.isfinite(data)], initial=0.0))


def _complex_pow_scale(call: Call) -> float:
    """A complex ``x1 ** x2`` is ``exp(w)`` with ``w = x2 log x1``: rounding ``w`` leaves a
    relative error of about eps times ``|w|`` (``(6.7e161 + 0j) ** (1 + 0j)``, where
    ``|w| = 373``, is off by 1.5e-14 on TensorFlow), so the absolute tolerance is relative
    to ``|exp(w)| |w|``."""
    x1, x2 = (np.asarray(a) for a in call.args[:2])
    if x1.dtype.kind != "c" and x2.dtype.kind != "c":
        return 0.0
    with np.errstate(all="ignore"):
        w = x2.astype(np.complex128) * np.log(x1.astype(np.complex128))
        size = np.abs(np.exp(w)) * np.abs(w)
    return float(np.max(size[np.isfinite(size)], initial=0.0))


def compare_result(target: Target, name: str, case: Case, call: Call, result: Any,
                   expected: Any) -> None:  # fmt: skip
    what = f"{name}{call!r}"
    dtype_map = None
    # the default dtypes apply only where nothing gives one: an array argument (asarray of
    # a float64 array on torch, whose default is float32) keeps its own dtype
    if name in DEFAULT_DTYPE_FUNCTIONS and "dtype" not in call.kwargs and not call.arrays():
        dtype_map = default_dtype_map(target)
    if case.post is not None:
        assert_plain(case.post(result, target.to_numpy), case.post(expected, np.asarray), what,
                     case.tol)  # fmt: skip
    elif case.meta_only:
        want = strict_dtype_name(expected.dtype)
        assert target.dtype_name(result.dtype) == (dtype_map or {}).get(want, want), what
        assert tuple(result.shape) == tuple(expected.shape), what
    elif is_strict_array(expected) or isinstance(expected, (list, tuple)):
        assert_matches(target, result, expected, tol=case.tol, mask=mask_for(case, call),
                       what=what, dtype_map=dtype_map, scale=input_scale(name, call))  # fmt: skip
    elif not isinstance(expected, (bool, int, float, complex)):  # a dtype
        assert target.dtype_name(result) == strict_dtype_name(expected), what
    else:
        assert result == expected and type(result) is type(expected), (
            f"{what}: got {result!r}, expected {expected!r}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_reference(target: Target, name: str) -> None:
    case = CASES[name]
    fn = target.function(name)

    @given(call=case.calls)
    def check(call: Call) -> None:
        check_call(target, name, case, call, fn)

    check()
