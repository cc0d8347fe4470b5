"""``arange`` and ``linspace`` given 0-d arrays and NumPy scalars as bounds (issue 37).

The standard's bounds are Python numbers; libraries pass 0-d arrays: SciPy's
``interpolate`` tests call ``xp.linspace(t[k], t[n], 50)`` with elements of an array,
``stats.cramervonmises`` ``xp.arange(n + 1)`` of a 0-d array, ``spatial.transform`` a
NumPy int.  The frameworks differed: NumPy and torch read the values, TensorFlow's
``arange(0, asarray(8.0))`` gave int64 and its ``arange(asarray(0.5), 3)`` failed, Dask
failed on 0-d arrays, JAX's ``linspace`` refused NumPy scalars, and MLX refused them all.
Every backend now reads a 0-d bound as the Python number of its value (an int for an
integer dtype, a float for a real floating one, a complex for a complex one).

The family: each backend and flavour, bounds given as 0-d arrays of the namespace in each
integer and floating dtype it holds, as NumPy scalars and as NumPy 0-d arrays, in each
position (start, stop, step), against the same call with Python numbers and against
NumPy's values.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx", "ndonnx")


@pytest.fixture(autouse=True)
def _readable(xp: ModuleType) -> None:
    if xp.__name__ == "eagerpy_xp.native.ndonnx":
        pytest.skip("native ndonnx arrays have no NumPy conversion to compare values with")

#: (stop,), (start, stop) and (start, stop, step) calls, integral and real.
ARANGE_CALLS: list[tuple[int | float, ...]] = [
    (5,), (2, 9), (9, 2, -2), (1, 10, 3), (0.5,), (2.5,), (0, 2.5, 0.5), (-1.5, 2, 0.75),
    (7.0,), (3, 4.5),
]
#: (start, stop, num, endpoint)
LINSPACE_CALLS: list[tuple[Any, Any, int, bool]] = [
    (0, 1, 5, True), (0.5, 2.0, 4, True), (-3, 3, 7, False), (1.25, -2.5, 6, True),
    (0.5j, 2 + 1j, 5, True),
]


def _held(xp: ModuleType, kind: str) -> list[str]:
    return list(xp.__array_namespace_info__().dtypes(kind=kind))


def _forms(xp: ModuleType, value: int | float | complex) -> list[tuple[str, Any]]:
    """``value`` as each kind of 0-d bound: the namespace's 0-d arrays of every dtype of
    its kind that holds it exactly, NumPy scalars and NumPy 0-d arrays."""
    if isinstance(value, complex):
        kind, numpy_names = "complex floating", ["complex64", "complex128"]
    elif isinstance(value, float):
        kind, numpy_names = "real floating", ["float32", "float64"]
    else:
        kind = "integral"
        numpy_names = ["int32", "int64"] + (["uint8"] if value >= 0 else [])
    forms = [(f"{xp.__name__}.asarray({value!r}, {name})", xp.asarray(value, dtype=getattr(xp, name)))
             for name in _held(xp, kind) if kind != "integral" or _fits(name, value)]  # fmt: skip
    forms += [(f"np.{name}({value!r})", getattr(np, name)(value)) for name in numpy_names]
    forms += [(f"np.asarray({value!r}, {name})", np.asarray(value, dtype=name))
              for name in numpy_names]  # fmt: skip
    return forms


def _fits(name: str, value: int) -> bool:
    info = np.iinfo(name)
    return bool(info.min <= value <= info.max)


def _check(xp: ModuleType, call: Callable[..., Any], plain: tuple[Any, ...], want: np.ndarray,
           context: str) -> int:  # fmt: skip
    """Every bound in turn replaced by each of its 0-d forms: the result is the Python
    numbers' result (values and dtype)."""
    reference = call(*plain)
    assert np.asarray(reference).shape == want.shape, context
    np.testing.assert_allclose(np.asarray(reference), want, rtol=1e-6, err_msg=context)
    checked = 0
    for position in range(len(plain)):
        for name, form in _forms(xp, plain[position]):
            bounds = list(plain)
            bounds[position] = form
            got = call(*bounds)
            where = f"{context} with bound {position} as {name}"
            assert got.dtype == reference.dtype, where
            np.testing.assert_array_equal(np.asarray(got), np.asarray(reference), err_msg=where)
            checked += 1
    return checked


def test_arange_reads_zero_d_bounds(xp: ModuleType) -> None:
    checked = 0
    for bounds in ARANGE_CALLS:
        want = np.arange(*bounds)
        checked += _check(xp, xp.arange, bounds, want, f"arange{bounds}")
    assert checked > 3 * len(ARANGE_CALLS)


def test_linspace_reads_zero_d_bounds(xp: ModuleType) -> None:
    checked = 0
    for start, stop, num, endpoint in LINSPACE_CALLS:
        if isinstance(start, complex) and not _held(xp, "complex floating"):
            continue  # ndonnx holds no complex dtype
        want = np.linspace(start, stop, num, endpoint=endpoint)

        def call(a: Any, b: Any, num: int = num, endpoint: bool = endpoint) -> Any:
            return xp.linspace(a, b, num, endpoint=endpoint)

        checked += _check(xp, call, (start, stop), want, f"linspace({start}, {stop}, {num})")
    assert checked > 2 * len(LINSPACE_CALLS)
