"""True division of integer arrays (DESIGN.md, "Spec first"; issue 37).

The standard says ``divide``'s operands should have a floating-point dtype and leaves
integer ones to the implementation; NumPy, torch, JAX, TensorFlow, Dask and MLX all
divide integers into a floating dtype, and scikit-learn's ``balanced_accuracy_score``
divides an int64 confusion matrix on every namespace but array_api_strict.  So every
backend, in both flavours, gives the namespace's default real floating dtype.

The family: every integer dtype the backend holds, two arrays of it (0-d, 1-d and
broadcast 2-d, a zero divisor among them), an array and a Python int either way round,
the function and the operators; values against NumPy's float64 quotients cast to the
default dtype.  Booleans stay refused (`TypeError`), and so does ``int_array /= 2``,
whose result is of another kind.
"""

from __future__ import annotations

import importlib
import operator
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import x64

BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core", "ndonnx": "ndonnx"}  # fmt: skip

_X = [[7, -3, 0], [5, 2, -9]]
_Y = [[2, 4, 3], [0, -2, 3]]


@pytest.fixture(params=[(b, f) for b in BACKENDS for f in ("native", "wrapped")],
                ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
def xp(request: pytest.FixtureRequest) -> Any:
    backend, flavour = request.param
    pytest.importorskip(BACKENDS[backend], reason=f"{backend} is not installed")
    with x64(backend):
        yield importlib.import_module(
            f"eagerpy_xp.native.{backend}" if flavour == "native" else f"eagerpy_xp.{backend}")


def _numpy(x: Any) -> np.ndarray:
    """A result as NumPy: ndonnx's own arrays through ``unwrap_numpy``, others as they are."""
    return np.asarray(x.unwrap_numpy() if hasattr(x, "unwrap_numpy") else x)


def _expected(a: np.ndarray, b: Any, default: str) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return (np.asarray(a, dtype=np.float64) / np.asarray(b, dtype=np.float64)).astype(default)


def _check(result: Any, expected: np.ndarray, xp: ModuleType, default: Any, what: str) -> None:
    assert result.dtype == default, f"{what}: {result.dtype} is not the default {default}"
    got = _numpy(result)
    assert got.shape == expected.shape, what
    np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=what)


def test_integer_arrays_divide_into_the_default_floating_dtype(xp: ModuleType) -> None:
    info = xp.__array_namespace_info__()
    default = info.default_dtypes()["real floating"]
    default_name = str(np.dtype(_numpy(xp.zeros(1, dtype=default)).dtype))
    wrapped = not xp.__name__.startswith("eagerpy_xp.native.")
    checked = 0
    for name in info.dtypes(kind="integral"):
        dtype = getattr(xp, name)
        values = np.asarray(_X if name.startswith("int") else np.abs(_X))
        divisors = np.asarray(_Y if name.startswith("int") else np.abs(_Y))
        a_np, b_np = values.astype(name), divisors.astype(name)
        for a_part, b_part in ((a_np[0, 0], b_np[0, 0]), (a_np[0], b_np[0]), (a_np, b_np[1])):
            a, b = xp.asarray(a_part, dtype=dtype), xp.asarray(b_part, dtype=dtype)
            what = f"{name} {a_part.shape} / {b_part.shape}"
            expected = _expected(a_part, b_part, default_name)
            _check(xp.divide(a, b), expected, xp, default, what)
            if wrapped:
                _check(a / b, expected, xp, default, what + " (operator)")
            checked += 1
        a = xp.asarray(a_np, dtype=dtype)
        _check(xp.divide(a, 2), _expected(a_np, 2, default_name), xp, default, f"{name} / 2")
        _check(xp.divide(12, xp.asarray(b_np[0], dtype=dtype)),
               _expected(12, b_np[0], default_name), xp, default, f"12 / {name}")
        if wrapped:
            _check(a / 2, _expected(a_np, 2, default_name), xp, default, f"{name} / 2 (operator)")
            _check(operator.truediv(12, xp.asarray(b_np[0], dtype=dtype)),
                   _expected(12, b_np[0], default_name), xp, default, f"12 / {name} (operator)")
    assert checked >= 3 * 4  # every backend holds at least int8, int16, int32 and uint8


def test_booleans_and_in_place_integer_division_are_refused(xp: ModuleType) -> None:
    t = xp.asarray([True, False])
    with pytest.raises(TypeError, match="divide"):
        xp.divide(t, t)
    if xp.__name__.startswith("eagerpy_xp.native."):
        return
    a = xp.asarray([4, 6], dtype=xp.int32)
    with pytest.raises(TypeError, match="dtype"):
        a /= 2
    np.testing.assert_array_equal(_numpy(a), [4, 6])  # nothing changed by the failed call


@pytest.mark.parametrize("value", [2**70, -(2**70), 300, -129])
def test_a_python_int_beyond_the_dtype_is_an_overflow_error(xp: ModuleType, value: int) -> None:
    # Every framework divides an int8 array by a Python int in floating point, so none
    # refuses an int int8 cannot hold; the contract does for every binary function but the
    # comparisons (docs/errors.md), either way round.
    a = xp.asarray([4, -6], dtype=xp.int8)
    with pytest.raises(OverflowError, match=rf"divide.*{value}.*int8"):
        xp.divide(a, value)
    with pytest.raises(OverflowError, match=rf"divide.*{value}.*int8"):
        xp.divide(value, a)
    if not xp.__name__.startswith("eagerpy_xp.native."):
        with pytest.raises(OverflowError, match="int8"):
            a / value
        with pytest.raises(OverflowError, match="int8"):
            value / a
    # within the range it divides
    _check(xp.divide(a, 127), _expected(np.asarray([4, -6]), 127, str(np.dtype(_numpy(
        xp.zeros(1, dtype=xp.__array_namespace_info__().default_dtypes()["real floating"])).dtype))),
        xp, xp.__array_namespace_info__().default_dtypes()["real floating"], "int8 / 127")


def test_an_integer_array_beside_a_floating_one_divides_at_their_promoted_dtype(
        xp: ModuleType) -> None:  # fmt: skip
    # Mixed kinds are the implementation's to promote; whatever ``add`` makes of the pair,
    # ``divide`` gives in either order (ndonnx divided ``uint8 / float32`` in float64 but
    # ``float32 / uint8`` in float32).
    info = xp.__array_namespace_info__()
    for int_name in info.dtypes(kind="integral"):
        for float_name in info.dtypes(kind="real floating"):
            a = xp.asarray([3, 4, 0], dtype=getattr(xp, int_name))
            f = xp.asarray([2.0, -0.5, 4.0], dtype=getattr(xp, float_name))
            what = f"{int_name} / {float_name}"
            try:
                promoted = xp.add(a, f).dtype
            except TypeError:
                with pytest.raises(TypeError):
                    xp.divide(a, f)
                continue
            forward, backward = xp.divide(a, f), xp.divide(f, a)
            assert forward.dtype == promoted, f"{what}: {forward.dtype}, add gives {promoted}"
            assert backward.dtype == promoted, f"{what} reversed: {backward.dtype}"
            np.testing.assert_allclose(_numpy(forward), [1.5, -8.0, 0.0], err_msg=what)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                np.testing.assert_allclose(_numpy(backward), [2 / 3, -0.125, np.inf], rtol=1e-6,
                                           err_msg=what)
