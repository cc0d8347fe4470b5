"""The conformance suite's judgement where it was wrong (issue 38), checked directly.

Each test holds one fix: the signature rules (a positional-only parameter's name is free,
kinds are the standard's recommendation), floor_divide's permitted results, the complex
sign's unsigned zeros, and a ``__setitem__`` misuse whose key is itself valid.
"""

from __future__ import annotations

import inspect
import math
import random

import pytest

from conformance import special_cases as sc
from conformance.harness import Target
from conformance.invalid_calls import generate, run_call
from conformance.test_signatures import exact_problems, must_problems, parse, should_problems
from conformance.test_special_cases import _matches


def _sig(text: str) -> inspect.Signature:
    return parse(text)


def test_a_renamed_positional_only_parameter_conforms() -> None:
    """compat's ``finfo(type_, /)`` is ``finfo(type, /)`` to every caller; a required
    parameter the standard does not have is the must failure."""
    spec = parse("finfo(type, /)")
    assert must_problems(_sig("f(type_, /)"), spec) == []
    assert should_problems(_sig("f(type_, /)"), spec) == []
    assert must_problems(_sig("f(type_, other, /)"), spec) == [
        "extra parameter 'other' is required"]


def test_kinds_are_should_and_exactness_is_house() -> None:
    spec = parse("tril(x, /, *, k=0)")
    numpy_like = _sig("tril(m, k=0)")  # NumPy's: positional-or-keyword, another name
    assert must_problems(numpy_like, spec) == []
    assert should_problems(numpy_like, spec) == [
        "x: positional or keyword, the standard: positional-only",
        "k: positional or keyword, the standard: keyword-only"]  # fmt: skip
    assert exact_problems(numpy_like, spec) != []
    assert exact_problems(_sig("tril(x, /, *, k=0)"), spec) == []
    # a keyword the standard names must be there by that name, optional where it is
    assert must_problems(_sig("tril(x, /, *, diagonal=0)"), spec) == [
        "k: cannot be passed by keyword"]
    assert must_problems(_sig("tril(x, /, *, k)"), spec) == [
        "k: optional in the standard, required here"]
    # *arrays: any name, but a variable number of positions
    assert must_problems(_sig("meshgrid(*xi, copy=True, indexing='xy')"),
                         parse("meshgrid(*arrays, indexing='xy')")) == []  # fmt: skip
    assert must_problems(_sig("meshgrid(arrays, indexing='xy')"),
                         parse("meshgrid(*arrays, indexing='xy')")) != []  # fmt: skip
    # a default is judged by behaviour (test_explicit_defaults), not by its repr
    assert must_problems(_sig("from_dlpack(x, /, *, device=object(), copy=None)"),
                         parse("from_dlpack(x, /, *, device=None, copy=None)")) == []  # fmt: skip


def test_floor_divide_takes_each_permitted_result() -> None:
    """An infinite x1 over a finite x2 "may return NaN"; a finite x1 over an infinity of
    the other sign "may return -1.0"; the house rows keep eagerpy_xp's floor(x1 / x2)."""
    rows = {s.text: s for s in sc.statements() if s.function == "floor_divide"}
    nan_or_inf = rows["x1 +inf, x2 >0 finite -> +inf or NaN"].rows[0].expected[0]
    assert _matches(math.nan, nan_or_inf, "float64") and _matches(math.inf, nan_or_inf, "float64")
    assert not _matches(-math.inf, nan_or_inf, "float64")
    minus = rows["x1 >0 finite, x2 -inf -> -0 or -1"].rows[0].expected[0]
    assert _matches(-1.0, minus, "float32") and _matches(-0.0, minus, "float32")
    assert not _matches(0.0, minus, "float32")
    house = [s for s in sc.statements() if s.function == "floor_divide" and s.tier == "house"]
    assert {s.text for s in house} >= {"x1 +inf, x2 >0 finite -> +inf",
                                       "x1 >0 finite, x2 -inf -> -0"}  # fmt: skip
    assert "-house" in house[0].id


def test_complex_sign_of_a_zero_leaves_the_zero_signs_open() -> None:
    (zero,) = [s for s in sc.statements() if s.function == "sign" and s.kind == "complex"
               and s.text.startswith("a ±0, b ±0")]  # fmt: skip
    assert len(zero.rows) == 4
    for row in zero.rows:
        assert all(_matches(v, e, "float32") for v, e in zip((-0.0, -0.0), row.expected))


def test_setitem_misuse_has_a_valid_key() -> None:
    """The dtype and non-array misuses of ``__setitem__`` write a row of a 2-D array with
    one expression per axis, so that only the value is wrong: array_api_strict raises its
    TypeError for the complex value, not the IndexError of a short key."""
    pytest.importorskip("array_api_strict")
    strict = Target("numpy", "array_api_strict", "cpu", namespace="array_api_strict")
    kinds = set()
    for seed in range(40):
        call = generate("Array.__setitem__", random.Random(seed))
        assert call is not None
        if call.kind not in ("dtype", "non-array"):
            continue
        array, key = call.args[0], call.args[1]
        assert isinstance(key, tuple) and len(key) == array.ndim, call.describe()
        kinds.add(call.kind)
        if call.kind == "dtype":
            assert run_call(strict, call).exception == "TypeError", call.describe()
    assert kinds == {"dtype", "non-array"}


def test_defaults_are_judged_by_behaviour() -> None:
    """The two defects the old comparison of default reprs caught by accident are caught by
    behaviour: compat's ``diff(x, prepend=None)`` raises, strict's ``astype(x, dtype,
    device=None)`` leaves ``x``'s device; NumPy's namespace does neither."""
    from conformance.test_signatures import (
        test_device_none_keeps_the_input_device,
        test_explicit_defaults,
    )

    pytest.importorskip("array_api_compat")
    pytest.importorskip("array_api_strict")
    compat = Target("numpy", "array_api_compat.numpy", "cpu", namespace="array_api_compat.numpy")
    with pytest.raises(AssertionError, match="prepend=None raised"):
        test_explicit_defaults(compat, "diff")
    strict = Target("numpy", "array_api_strict", "cpu", namespace="array_api_strict")
    with pytest.raises(AssertionError, match=r"astype.*device=None"):
        test_device_none_keeps_the_input_device(strict, "astype")
    ours = Target("numpy", "native", "cpu")
    test_explicit_defaults(ours, "diff")
    test_device_none_keeps_the_input_device(ours, "astype")
