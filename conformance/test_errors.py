"""Errors the spec (or the project's design) requires, with clear messages.

The spec requires `ValueError` for ``asarray(..., copy=False)`` when a copy is needed and
for ``__int__`` of NaN (`OverflowError` for infinities); the design requires that bad
input raises `TypeError`/`ValueError` naming the function and the backend, and that a
failing in-place operation leaves the array unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .harness import Target

AREA = "errors"

#: name -> (call on the namespace, accepted exceptions, whether the message must name
#: the function and backend)
_CASES: dict[str, tuple[Callable[[Any, Target], Any], tuple[type[Exception], ...], str]] = {
    "asarray copy=False from a list": (
        lambda xp, t: xp.asarray([1, 2], copy=False, device=t.device), (ValueError,), ""),
    "zeros negative dimension": (
        lambda xp, t: xp.zeros((2, -1), device=t.device), (ValueError,), "zeros"),
    "astype to a non-dtype": (
        lambda xp, t: xp.astype(t.asarray(np.ones(2)), "float77"), (TypeError, ValueError),
        "astype"),
    "isdtype unknown kind": (
        lambda xp, t: xp.isdtype(xp.float32, "floaty"), (ValueError, TypeError), "floaty"),
    "dtypes unknown kind": (
        lambda xp, t: xp.__array_namespace_info__().dtypes(kind="floaty"),
        (ValueError, TypeError), "floaty"),
    "unknown device": (
        lambda xp, t: xp.zeros(2, device="tpu:7"), (ValueError, TypeError, RuntimeError), "zeros"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(_CASES))
def test_error(target: Target, name: str) -> None:
    call, kinds, needle = _CASES[name]
    with pytest.raises(kinds) as info:
        call(target.xp, target)
    message = str(info.value)
    if needle:
        assert needle in message, f"message {message!r} does not name {needle!r}"


@pytest.mark.flavours("wrapped")
@pytest.mark.parametrize(("name", "value", "kind"), [
    ("__int__", float("nan"), ValueError), ("__int__", float("inf"), OverflowError),
    ("__int__", float("-inf"), OverflowError),
])  # fmt: skip
def test_scalar_conversion_error(target: Target, name: str, value: float,
                                 kind: type[Exception]) -> None:  # fmt: skip
    x = target.asarray(np.array(value))
    with pytest.raises(kind):
        getattr(x, name)()


@pytest.mark.flavours("wrapped")
@pytest.mark.parametrize("name", ["in-place operator changing the dtype"])
def test_inplace_dtype_change_leaves_array(target: Target, name: str) -> None:
    x = target.asarray(np.array([1, 2, 3], dtype="int8"))
    y = target.asarray(np.array([0.5, 0.5, 0.5], dtype="float32"))
    with pytest.raises((TypeError, ValueError)):
        x += y
    np.testing.assert_array_equal(target.to_numpy(x), [1, 2, 3])
    assert target.dtype_name(x.dtype) == "int8"
