"""Python floats that need every bit of float64, through every creation function and the
writes, on every backend and both flavours.

Found by hypothesis' array-API strategies (tests/integration/test_hypothesis_strategies.py):
MLX's ``full((2,), 16777217.0, dtype=float64)`` gave ``16777216.0`` and ``1e300`` gave
``inf`` (the value went through a float32 MLX scalar first).  Each value must arrive exactly
in float64 (and in complex128's parts), and rounded once, as NumPy rounds it, in float32.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

#: Beyond float32's precision or range, subnormal in float64, signed zero, the extremes
FLOATS = [16777217.0, 1 + 2**-52, 1e300, -1e-300, 5e-324, 2.2250738585072014e-308,
          1.7976931348623157e308, -0.0, 0.1, 1 / 3, 3.4028235677973366e38]  # fmt: skip


def _computed(v: float) -> bool:
    """Whether ``v`` is a finite normal number: what arithmetic must keep exactly."""
    return math.isfinite(v) and abs(v) >= 2.2250738585072014e-308


def same_bits(got: np.ndarray, expected: list[Any], where: str) -> None:
    want = np.asarray(expected, dtype=got.dtype)
    assert got.shape == want.shape, f"{where}: shape {got.shape}"
    assert got.tobytes() == want.tobytes(), f"{where}: {got.tolist()!r} != {want.tolist()!r}"


def _host(x: Any) -> np.ndarray:
    v = values(x)
    return np.asarray(v.compute() if hasattr(v, "compute") else v)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_creation_path_keeps_the_float(xp: ModuleType, dtype: str) -> None:
    d = getattr(xp, dtype)
    like = xp.zeros((3,), dtype=d)
    for v in FLOATS:
        expected = [v] if dtype == "float64" else [float(np.float32(v))]  # NumPy's rounding
        with np.errstate(over="ignore"):
            one = np.asarray(expected, dtype=dtype).tolist()
        if math.isinf(one[0]):
            continue  # beyond float32's range: implementation-defined (torch's full raises)
        same_bits(_host(xp.full((2,), v, dtype=d)), one * 2, f"full({v!r})")
        same_bits(_host(xp.full_like(like, v)), one * 3, f"full_like({v!r})")
        same_bits(_host(xp.asarray(v, dtype=d)).reshape(1), one, f"asarray({v!r})")
        same_bits(_host(xp.asarray([v, v], dtype=d)), one * 2, f"asarray([{v!r}])")
        if not _computed(one[0]):
            # below: arithmetic (start + i * step), whose signed zeros the standard leaves
            # open, and where XLA (JAX, TensorFlow) flushes subnormals
            continue
        same_bits(_host(xp.linspace(v, v, 2, dtype=d)), one * 2, f"linspace({v!r})")
        if abs(v) < 1e300:
            same_bits(_host(xp.arange(v, v + abs(v) + 1, abs(v) + 1, dtype=d)), one,
                      f"arange({v!r})")  # fmt: skip


def test_writes_keep_the_float(xp: ModuleType) -> None:
    if not xp.__name__.startswith("eagerpy_xp.native"):
        target = xp.zeros((2,), dtype=xp.float64)
        for v in FLOATS:
            target[0] = v
            target[1:] = v
            same_bits(_host(target), [v, v], f"x[...] = {v!r}")
    x = xp.zeros((2,), dtype=xp.float64)
    for v in [f for f in FLOATS if _computed(f) or f == 0]:
        same_bits(_host(xp.where(x == 0, v, x)), [v, v], f"where(.., {v!r}, x)")
        same_bits(_host(x + v), [v + 0.0, v + 0.0], f"x + {v!r}")


def test_complex_parts_keep_the_float(xp: ModuleType) -> None:
    if "complex128" not in xp.__array_namespace_info__().dtypes():
        pytest.skip("this backend has no complex128 (MLX: docs/mlx.md)")
    for v in FLOATS:
        z = complex(v, -v)
        same_bits(_host(xp.full((1,), z, dtype=xp.complex128)), [z], f"full({z!r})")
        same_bits(_host(xp.asarray([z], dtype=xp.complex128)), [z], f"asarray({z!r})")
