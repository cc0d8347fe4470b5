"""The Array object on the NumPy backend: operators, indexing, mutation, conversions."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import eagerpy_xp as ep
import eagerpy_xp.numpy as xp


def arr(values: object, dtype: object = None) -> ep.Array:
    return xp.asarray(values, dtype=dtype)


def test_operators_match_functions() -> None:
    x = arr([1.0, -2.0, 3.5])
    y = arr([2.0, 4.0, -1.0])
    for op, fn in [
        (x + y, xp.add(x, y)),
        (x - y, xp.subtract(x, y)),
        (x * y, xp.multiply(x, y)),
        (x / y, xp.divide(x, y)),
        (x // y, xp.floor_divide(x, y)),
        (x % y, xp.remainder(x, y)),
        (x**y, xp.pow(x, y)),
        (-x, xp.negative(x)),
        (abs(x), xp.abs(x)),
    ]:
        assert isinstance(op, ep.Array)
        np.testing.assert_array_equal(np.asarray(op), np.asarray(fn))


def test_reflected_operators_with_scalars_and_native() -> None:
    x = arr([1, 2, 3], dtype=xp.int8)
    r = 10 - x
    assert r.dtype == xp.int8
    np.testing.assert_array_equal(np.asarray(r), [9, 8, 7])
    native = np.array([1, 1, 1], dtype=np.int8)
    s = native + x
    assert isinstance(s, ep.Array)
    np.testing.assert_array_equal(np.asarray(s), [2, 3, 4])


def test_comparisons_return_bool_arrays() -> None:
    x = arr([1, 2, 3])
    eq = x == 2
    assert isinstance(eq, ep.Array) and eq.dtype == xp.bool
    assert np.asarray(eq).tolist() == [False, True, False]
    assert np.asarray(x >= 2).tolist() == [False, True, True]


def test_inplace_keeps_identity_and_aliases_native() -> None:
    native = np.array([1.0, 2.0])
    x = ep.astensor(native)
    y = x
    x += 1
    assert y is x
    assert native.tolist() == [2.0, 3.0]


def test_inplace_refuses_dtype_change() -> None:
    x = arr([1, 2], dtype=xp.int32)
    # a dtype change is a TypeError (docs/errors.md; a ValueError before issue 15)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.Array\.__iadd__:.*int32"):
        x += arr([1.5, 2.5])
    assert np.asarray(x).tolist() == [1, 2]


def test_inplace_refuses_shape_change() -> None:
    x = arr([1.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        x *= arr([[1.0], [2.0]])


def test_indexing() -> None:
    x = xp.reshape(xp.arange(12), (3, 4))
    assert np.asarray(x[::-1, -1]).tolist() == [11, 7, 3]
    assert x[..., None].shape == (3, 4, 1)
    assert np.asarray(x[x > 9]).tolist() == [10, 11]
    assert np.asarray(x[arr([0, 2]), 1]).tolist() == [1, 9]
    assert x[arr(True)].shape == (1, 3, 4)
    assert x[1, 2].shape == ()


def test_setitem_and_scalar_conversion() -> None:
    x = xp.zeros((2, 3))
    x[0, :] = 1.0
    x[x == 0] = 5.0
    x[(1, 0)] = arr(7.0)
    assert np.asarray(x).tolist() == [[1.0, 1.0, 1.0], [7.0, 5.0, 5.0]]
    assert float(x[1, 0]) == 7.0 and int(x[1, 0]) == 7 and bool(x[0, 0])
    assert complex(x[0, 0]) == 1 + 0j
    assert [1, 2, 3][arr(1)] == 2


def test_scalar_conversion_errors() -> None:
    with pytest.raises(TypeError, match="0-d"):
        bool(arr([1, 2]))
    with pytest.raises(TypeError, match="integer"):
        [1][arr(0.0)]
    with pytest.raises(OverflowError):
        int(arr(math.inf))
    with pytest.raises(TypeError, match="complex"):
        float(arr(1j))


def test_setitem_rejects_foreign_values() -> None:
    x = xp.zeros(2)
    with pytest.raises(TypeError, match="value must be an array"):
        x[0] = [1.0]  # type: ignore[assignment]


def test_attributes_repr_and_pickle() -> None:
    x = arr([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32)
    assert x.shape == (2, 2) and x.ndim == 2 and x.size == 4
    assert x.dtype == xp.float32 and x.device == "cpu"
    assert np.asarray(x.mT).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert np.asarray(x.T).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    text = repr(x)
    assert "float32" in text and "cpu" in text and "numpy" in text and "4." in text
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, ep.Array) and np.asarray(y).tolist() == np.asarray(x).tolist()
    with pytest.raises(TypeError):
        hash(x)


def test_dlpack_roundtrip() -> None:
    x = arr([1.0, 2.0])
    assert x.__dlpack_device__() == (1, 0)
    y = np.from_dlpack(x)
    assert y.tolist() == [1.0, 2.0]
    z = xp.from_dlpack(x)
    assert isinstance(z, ep.Array) and np.asarray(z).tolist() == [1.0, 2.0]


def test_to_device() -> None:
    x = arr([1.0])
    assert x.to_device("cpu").device == ep.Device("cpu")
    with pytest.raises(ValueError, match="numpy"):
        x.to_device("cuda:0")
