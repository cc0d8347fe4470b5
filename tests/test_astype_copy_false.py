"""``astype(x, x.dtype, copy=False)`` returns ``x`` itself in the wrapped flavour, for every
dtype, backend and device form (the standard: "If False and the specified dtype matches
the data type of the input array, the input array must be returned"), so a write through
the result is a write to ``x`` even on immutable frameworks (JAX, MLX's lazy graphs), where
a new `Array` around the same data did not see it (found with the independent
array-api-tests run, docs/conformance.md).  Any other call still returns a new array:
``copy=True``, another dtype, or ``copy=False`` with a dtype that needs a cast."""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np
import pytest

from tests._flavours import values, x64

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")


@pytest.fixture(params=BACKENDS)
def xp(request: pytest.FixtureRequest) -> ModuleType:
    pytest.importorskip(request.param, reason=f"{request.param} is not installed")
    with x64(request.param):
        yield importlib.import_module("eagerpy_xp." + request.param)


def test_same_dtype_no_copy_is_the_input(xp: ModuleType) -> None:
    for name, dtype in xp.__array_namespace_info__().dtypes().items():
        x = xp.asarray([1, 0], dtype=dtype)
        assert xp.astype(x, dtype, copy=False) is x, name
        assert xp.astype(x, dtype, copy=False, device=x.device) is x, name
        assert xp.astype(x, dtype) is not x, name  # copy=True: a new array
        assert xp.astype(x, dtype, copy=True) is not x, name


def test_a_write_through_the_result_reaches_the_input(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    out = xp.astype(x, xp.int32, copy=False)
    out[1] = 7
    assert values(x).tolist() == [1, 7, 3]


def test_a_cast_is_still_a_new_array(xp: ModuleType) -> None:
    x = xp.asarray([1, 2], dtype=xp.int32)
    out = xp.astype(x, xp.float32, copy=False)
    assert out is not x and out.dtype == xp.float32
    assert np.array_equal(values(out), [1.0, 2.0])
