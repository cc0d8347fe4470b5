"""The NumPy backend against the standard: every fix of a NumPy deviation, both flavours.

Each test runs on the native flavour (NumPy arrays in and out) and on the wrapped one
(`eagerpy_xp.Array` in and out); `values` brings either result back to NumPy.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
import eagerpy_xp.native.numpy as native
import eagerpy_xp.numpy as wrapped

inf, nan = math.inf, math.nan


@pytest.fixture(params=["native", "wrapped"])
def xp(request: pytest.FixtureRequest) -> ModuleType:
    return native if request.param == "native" else wrapped


def values(result: Any) -> np.ndarray:
    """A result of either flavour as a NumPy array."""
    if isinstance(result, ep.Array):
        assert type(result.raw) is np.ndarray  # the wrapped flavour stores ndarrays only
    return np.asarray(result)


def same(actual: Any, expected: Any) -> None:
    """Equal values, dtype, NaNs and signs of zeros (real and imaginary parts)."""
    a, e = values(actual), np.asarray(expected)
    assert a.dtype == e.dtype, (a.dtype, e.dtype)
    assert a.shape == e.shape, (a.shape, e.shape)
    for part in (np.real, np.imag) if a.dtype.kind == "c" else (np.asarray,):
        pa, pe = part(a), part(e)
        np.testing.assert_array_equal(pa, pe)
        if pa.dtype.kind == "f":  # signs of zeros and infinities; NaN signs are free
            known = ~np.isnan(pe)
            np.testing.assert_array_equal(np.signbit(pa[known]), np.signbit(pe[known]))


# -- element-wise special cases --------------------------------------------------------------
def test_floor_divide_infinities_and_signed_zeros(xp: ModuleType) -> None:
    x1 = xp.asarray([inf, inf, -inf, -inf, 1.0, -1.0, 5.0, inf, -0.0, 7.0])
    x2 = xp.asarray([2.0, -2.0, 2.0, -2.0, -inf, inf, -2.0, inf, 3.0, 2.0])
    expected = [inf, -inf, -inf, inf, -0.0, -0.0, -3.0, nan, -0.0, 3.0]
    same(xp.floor_divide(x1, x2), np.array(expected))
    if xp is wrapped:
        same(x1 // x2, np.array(expected))
        y = xp.asarray([inf, 1.0])
        y //= xp.asarray([-2.0, -inf])
        same(y, np.array([-inf, -0.0]))


def test_floor_divide_python_scalar_operand(xp: ModuleType) -> None:
    same(xp.floor_divide(inf, xp.asarray([2.0, -2.0], dtype=xp.float32)),
         np.array([inf, -inf], dtype=np.float32))  # fmt: skip
    same(xp.floor_divide(xp.asarray([7, -7]), 2), np.array([3, -4]))


def test_expm1_complex_special_cases(xp: ModuleType) -> None:
    cases = [  # (a, b) -> spec result
        ((0.0, 0.0), (0.0, 0.0)),
        ((inf, 0.0), (inf, 0.0)),
        ((inf, -0.0), (inf, -0.0)),
        ((inf, inf), (inf, nan)),
        ((inf, nan), (inf, nan)),
        ((-inf, inf), (-1.0, 0.0)),
        ((-inf, nan), (-1.0, 0.0)),
        ((-inf, 0.0), (-1.0, 0.0)),
        ((nan, 0.0), (nan, 0.0)),
        ((nan, -0.0), (nan, -0.0)),
        ((nan, 1.0), (nan, nan)),
        ((1.0, inf), (nan, nan)),
    ]
    for dtype in (np.complex64, np.complex128):
        x = np.array([complex(*a) for a, _ in cases], dtype=dtype)
        result = values(xp.expm1(xp.asarray(x)))
        assert result.dtype == dtype
        for (a, _), (real, imag), r in zip(cases, [e for _, e in cases], result):
            assert np.array_equal(r.real, real, equal_nan=True), (a, r)
            if imag == 0:
                assert r.imag == 0 and np.signbit(r.imag) == (math.copysign(1, imag) < 0), (a, r)
            else:
                assert np.isnan(r.imag), (a, r)
    # finite values keep NumPy's accurate result
    np.testing.assert_allclose(values(xp.expm1(xp.asarray([1e-10 + 1e-10j]))), [1e-10 + 1e-10j])
    same(xp.expm1(xp.asarray([-0.0, inf, -inf])), np.array([-0.0, inf, -1.0]))


def test_expm1_of_a_real_complex_whose_exp_overflows(xp: ModuleType) -> None:
    """``expm1(a ± 0j)`` with ``exp(a)`` past the dtype's range is ``inf ± 0j`` (the
    imaginary part ``exp(a) sin(±0)`` is exactly ±0; NumPy's kernel gives ``inf * 0``,
    NaN).  Found by the 60-example run: ``89+0j`` in complex64."""
    cases = [(np.complex64, 89.0), (np.complex128, 800.0)]
    for dtype, a in cases:
        x = np.array([complex(a, 0.0), complex(a, -0.0), complex(-a, 0.0)], dtype=dtype)
        same(xp.expm1(xp.asarray(x)),
             np.array([complex(inf, 0.0), complex(inf, -0.0), complex(-1.0, 0.0)], dtype=dtype))
        same(xp.expm1(xp.asarray(x[0])), np.asarray(complex(inf, 0.0), dtype=dtype))  # 0-d


def test_sign_complex_nan_and_zero(xp: ModuleType) -> None:
    x = xp.asarray([complex(inf, nan), complex(nan, 1.0), complex(3.0, 4.0), 0j, complex(-0.0, 0)])
    r = values(xp.sign(x))
    assert np.isnan(r[:2].real).all() and np.isnan(r[:2].imag).all()
    np.testing.assert_array_equal(r[2:], [0.6 + 0.8j, 0j, 0j])
    same(xp.sign(xp.asarray([-2.0, 0.0, 3.0])), np.array([-1.0, 0.0, 1.0]))
    same(xp.sign(xp.asarray([-2, 0, 3], dtype=xp.int8)), np.array([-1, 0, 1], dtype=np.int8))


def test_complex_zeros_and_infinities_keep_the_standard_signs(xp: ModuleType) -> None:
    """expm1(±0 ± 0j) and sign(±0 ± 0j) have a +0 real part; tanh(±inf + bj), b finite,
    is ±1 + copysign(0, b) j (NumPy takes the zero's sign from sin(2b))."""
    zeros = [complex(-0.0, -0.0), complex(-0.0, 0.0), complex(0.0, -0.0), complex(0.0, 0.0)]
    for dtype in (np.complex64, np.complex128):
        x = xp.asarray(np.array(zeros, dtype=dtype))
        same(xp.expm1(x), np.array([complex(0.0, -0.0), 0j, complex(0.0, -0.0), 0j], dtype=dtype))
        same(xp.sign(x), np.zeros(4, dtype=dtype))
        big = 4.5e152 if dtype is np.complex128 else 1e30  # finite in the dtype
        x = xp.asarray(np.array([complex(inf, 2.0), complex(inf, big), complex(-inf, 3.0),
                                 complex(inf, -2.0), complex(-inf, -0.5)], dtype=dtype))  # fmt: skip
        expected = [complex(1, 0.0), complex(1, 0.0), complex(-1, 0.0), complex(1, -0.0),
                    complex(-1, -0.0)]  # fmt: skip
        same(xp.tanh(x), np.array(expected, dtype=dtype))
        # tan(x) = -i tanh(ix): a finite real part a, an infinite imaginary part
        x = xp.asarray(np.array([complex(2.5, -inf), complex(-2.5, inf), complex(big, inf)],
                                dtype=dtype))  # fmt: skip
        same(xp.tan(x), np.array([complex(0.0, -1), complex(-0.0, 1), complex(0.0, 1)], dtype=dtype))
        # expm1(-inf + bj), b finite: exactly -1 + 0 cis(b)
        x = xp.asarray(np.array([complex(-inf, -2.5), complex(-inf, 2.5)], dtype=dtype))
        same(xp.expm1(x), np.array([complex(-1, -0.0), complex(-1, 0.0)], dtype=dtype))
    same(xp.tanh(xp.asarray([0.0, -inf])), np.array([0.0, -1.0]))


def test_dlpack_max_version_below_1_exports_the_unversioned_capsule(xp: ModuleType) -> None:
    """The standard's producer rule: a consumer's major version 0 gets the DLPack 0.x
    capsule ("dltensor"), 1.x or later the versioned one."""
    import ctypes

    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    x = xp.asarray([1.0, 2.0])
    for version, name in ((None, b"dltensor"), ((0, 0), b"dltensor"), ((0, 8), b"dltensor"),
                          ((1, 0), b"dltensor_versioned"), ((2, 3), b"dltensor_versioned")):  # fmt: skip
        assert get_name(x.__dlpack__(max_version=version)) == name, version


def test_pow_one_element_exponent_one_half(xp: ModuleType) -> None:
    # NumPy computes x ** 0.5 as sqrt(x) for one-element exponents: sqrt(-inf) is NaN and
    # sqrt(-0.) is -0., where the spec's pow gives +inf and +0
    x = xp.asarray([-inf, -0.0, 4.0])
    for exponent in (0.5, xp.asarray(0.5), xp.asarray([0.5]), xp.asarray([0.5, 0.5, 0.5])):
        same(xp.pow(x, exponent), np.array([inf, 0.0, 2.0]))
    x32 = xp.asarray([-inf, -0.0], dtype=xp.float32)
    same(xp.pow(x32, 0.5), np.array([inf, 0.0], dtype=np.float32))
    same(xp.pow(xp.asarray([2, 3]), 2), np.array([4, 9]))


def test_binary_functions_accept_a_python_scalar_on_either_side(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int16)
    same(xp.subtract(10, x), np.array([9, 8, 7], dtype=np.int16))
    same(xp.pow(x, 2), np.array([1, 4, 9], dtype=np.int16))
    same(xp.add(xp.asarray([1.5], dtype=xp.float32), 1), np.array([2.5], dtype=np.float32))


# -- clip ------------------------------------------------------------------------------------
def test_clip_result_dtype_is_x_dtype(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    same(xp.clip(x, xp.asarray(2, dtype=xp.int16)), np.array([2, 2, 3], dtype=np.int8))
    same(xp.clip(x, None, xp.asarray([2, 2, 2], dtype=xp.int64)), np.array([1, 2, 2], np.int8))


def test_clip_python_bounds_outside_the_dtype_range(xp: ModuleType) -> None:
    same(xp.clip(xp.asarray([0, 100, 255], dtype=xp.uint8), -1, 1000),
         np.array([0, 100, 255], dtype=np.uint8))  # fmt: skip
    same(xp.clip(xp.asarray([1, 2], dtype=xp.uint8), 300), np.array([255, 255], np.uint8))
    same(xp.clip(xp.asarray([1, -2], dtype=xp.int64), -(2**70), 2**70), np.array([1, -2]))


def test_clip_is_maximum_of_minimum(xp: ModuleType) -> None:
    # ties keep x (signed zeros); min wins where min > max (unspecified; documented)
    same(xp.clip(xp.asarray([-0.0, 0.0, 1.0]), -0.0, 0.0), np.array([-0.0, 0.0, 0.0]))
    same(xp.clip(xp.asarray([1.0, 2.0, 3.0]), 3.0, 1.0), np.array([3.0, 3.0, 3.0]))
    same(xp.clip(xp.asarray([1.0, 5.0]), xp.asarray([0.0, 2.0]), xp.asarray([[0.5], [6.0]])),
         np.array([[0.5, 2.0], [1.0, 5.0]]))  # fmt: skip


def test_clip_nan_and_none(xp: ModuleType) -> None:
    same(xp.clip(xp.asarray([1.0, nan, 3.0]), 0.0, 2.0), np.array([1.0, nan, 2.0]))
    same(xp.clip(xp.asarray([1.0, 2.0]), nan), np.array([nan, nan]))
    same(xp.clip(xp.asarray([1.0, 5.0])), np.array([1.0, 5.0]))


# -- sorting, searching, sets, statistics --------------------------------------------------
def test_stable_descending_sort_keeps_ties_in_order(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 1, 2, 3])
    same(xp.argsort(x, descending=True), np.array([4, 1, 3, 0, 2]))
    same(xp.argsort(x), np.array([0, 2, 1, 3, 4]))
    same(xp.sort(x, descending=True), np.array([3, 2, 2, 1, 1]))
    same(xp.sort(xp.asarray([0.0, -0.0, 1.0]), descending=True), np.array([1.0, 0.0, -0.0]))
    same(xp.argsort(xp.asarray([0, 255, 7, 255, 0], dtype=xp.uint8), descending=True),
         np.array([1, 3, 2, 0, 4]))  # fmt: skip
    same(xp.argsort(xp.asarray([-128, 127, -128], dtype=xp.int8), descending=True),
         np.array([1, 0, 2]))  # fmt: skip
    # bool is not real numeric: argsort refuses it (it sorted it before issue 15)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.argsort: .*real numeric.*bool"):
        xp.argsort(xp.asarray([False, True, False, True]), descending=True)
    same(xp.argsort(xp.asarray([1.0, nan, 3.0, 1.0]), descending=True), np.array([1, 2, 0, 3]))
    m = xp.asarray([[3, 1, 3], [0, 0, 5]])
    same(xp.argsort(m, axis=0, descending=True), np.array([[0, 0, 1], [1, 1, 0]]))
    same(xp.argsort(m, axis=1, descending=True), np.array([[0, 2, 1], [2, 0, 1]]))


def test_unique_nans_are_distinct_and_inverse_has_x_shape(xp: ModuleType) -> None:
    x = xp.asarray([1.0, nan, nan, 2.0, 1.0])
    same(xp.unique_values(x), np.array([1.0, 2.0, nan, nan]))
    counts = xp.unique_counts(x)
    same(counts.counts, np.array([2, 1, 1, 1]))
    result = xp.unique_all(xp.asarray([[1, 2], [2, 3]]))
    assert result._fields == ("values", "indices", "inverse_indices", "counts")
    same(result.inverse_indices, np.array([[0, 1], [1, 2]]))
    same(result.indices, np.array([0, 1, 3]))
    same(xp.unique_inverse(xp.asarray([[5, 5]])).inverse_indices, np.array([[0, 0]]))


def test_std_var_float_correction(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(values(xp.var(x, correction=1.5)), 5.0 / 2.5)
    np.testing.assert_allclose(values(xp.std(x, correction=1)), math.sqrt(5.0 / 3.0))


def test_searchsorted_scalar_x2(xp: ModuleType) -> None:
    r = xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), 2.5)
    same(r, np.array(2))
    same(xp.searchsorted(xp.asarray([1.0, 2.0, 2.0]), 2.0, side="right"), np.array(3))


def test_cumulative_functions(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    same(xp.cumulative_sum(x, include_initial=True), np.array([0, 1, 3, 6]))
    same(xp.cumulative_prod(x, include_initial=True), np.array([1, 1, 2, 6]))
    same(xp.cumulative_sum(xp.asarray([1, 2], dtype=xp.uint8)), np.array([1, 3], np.uint64))
    same(xp.cumulative_sum(xp.asarray([1.0, 2.0], dtype=xp.float32)),
         np.array([1.0, 3.0], np.float32))  # fmt: skip
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.cumulative_sum: axis is required"):
        xp.cumulative_sum(xp.ones((2, 2)))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.cumulative_prod: axis is required"):
        xp.cumulative_prod(xp.ones((2, 2)))
    same(xp.cumulative_sum(xp.ones((2, 2)), axis=1, include_initial=True),
         np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]))  # fmt: skip


def test_diff_count_nonzero_isin(xp: ModuleType) -> None:
    x = xp.asarray([1, 3, 6])
    same(xp.diff(x, prepend=xp.asarray([0]), append=xp.asarray([10])), np.array([1, 2, 3, 4]))
    same(xp.diff(x, n=2), np.array([1]))
    ones = xp.ones((2, 3, 4))
    same(xp.count_nonzero(ones, axis=(0, 2)), np.array([8, 8, 8]))
    assert values(xp.count_nonzero(ones, axis=(0, 2), keepdims=True)).shape == (1, 3, 1)
    same(xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2, 5])), np.array([False, True, False]))
    same(xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2]), invert=True), np.array([True, False, True]))


# -- manipulation and indexing --------------------------------------------------------------
def test_manipulation(xp: ModuleType) -> None:
    with pytest.raises(ValueError):
        xp.broadcast_shapes((2, 3), (4, 3))
    assert xp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert values(xp.expand_dims(xp.ones((2, 3)), axis=(0, -1))).shape == (1, 2, 3, 1)
    assert values(xp.permute_dims(xp.ones((2, 3, 4)), (-1, 0, 1))).shape == (4, 2, 3)
    grids = xp.meshgrid(xp.ones(2), xp.ones(3))
    assert type(grids) is tuple and values(grids[0]).shape == (3, 2)  # a tuple since 2025.12
    assert type(xp.broadcast_arrays(xp.ones(2), xp.ones((3, 1)))) is tuple
    assert type(xp.unstack(xp.ones((2, 3)))) is tuple
    with pytest.raises(ValueError):
        xp.squeeze(xp.ones((2, 3)), axis=0)
    same(xp.roll(xp.reshape(xp.arange(6), (2, 3)), (1, 1), axis=(0, 1)),
         np.array([[5, 3, 4], [2, 0, 1]]))  # fmt: skip
    assert values(xp.tile(xp.ones(2), (2, 2))).shape == (2, 4)
    with pytest.raises(ValueError):
        xp.reshape(xp.permute_dims(xp.ones((2, 3)), (1, 0)), (6,), copy=False)


def test_repeat_accepts_uint64_repeats(xp: ModuleType) -> None:
    x = xp.asarray([1, 2])
    same(xp.repeat(x, xp.asarray([1, 2], dtype=xp.uint64)), np.array([1, 2, 2]))
    same(xp.repeat(x, 2), np.array([1, 1, 2, 2]))


def test_take_requires_axis_beyond_one_dimension(xp: ModuleType) -> None:
    same(xp.take(xp.asarray([1, 2, 3]), xp.asarray([2, 0])), np.array([3, 1]))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.take: axis is required"):
        xp.take(xp.ones((2, 2)), xp.asarray([0]))
    same(xp.take(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1]), axis=1), np.array([[2], [4]]))
    same(xp.take_along_axis(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[1], [0]]), axis=1),
         np.array([[2], [3]]))  # fmt: skip


def test_where_with_scalars(xp: ModuleType) -> None:
    c = xp.asarray([True, False])
    same(xp.where(c, 1.0, xp.asarray([2.0, 3.0], dtype=xp.float32)),
         np.array([1.0, 3.0], dtype=np.float32))  # fmt: skip


# -- creation and data types ------------------------------------------------------------------
def test_tril_triu_need_matrices(xp: ModuleType) -> None:
    m = xp.reshape(xp.arange(1, 10), (3, 3))
    same(xp.tril(m, k=-1), np.array([[0, 0, 0], [4, 0, 0], [7, 8, 0]]))
    same(xp.triu(m), np.array([[1, 2, 3], [0, 5, 6], [0, 0, 9]]))
    for function in (xp.tril, xp.triu):
        with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.(tril|triu): expected an array of at"):
            function(xp.asarray([1, 2, 3]))


def test_asarray_and_astype_copy(xp: ModuleType) -> None:
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    with pytest.raises(ValueError):
        xp.asarray(np.ones(2), dtype=xp.float32, copy=False)
    base = np.ones(2)
    assert native.astype(base, native.float64, copy=False) is base
    assert native.astype(base, native.float64) is not base
    same(xp.astype(xp.asarray([1.7, -1.7]), xp.int32), np.array([1, -1], dtype=np.int32))


def test_asarray_rejects_objects_without_a_standard_dtype(xp: ModuleType) -> None:
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.asarray: .* has no dtype of the standard"):
        xp.asarray([1.5, 2**1030])
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.asarray:"):
        xp.asarray("abc")
    # Python ints alone get the default integer dtype, which holds neither (NumPy would make
    # uint64 of 2**63, float64 of [1, 2**63] and object of 2**70; docs/errors.md)
    for obj in (2**63, [1, 2**70], [[2**63], [1]], [1, 2**63], -(2**63) - 1):
        with pytest.raises(OverflowError, match=r"eagerpy_xp\.numpy\.asarray: the Python int"):
            xp.asarray(obj)
    assert values(xp.asarray(2**63, dtype=xp.uint64)).dtype == np.uint64
    same(xp.asarray([True, False]), np.array([True, False]))


def test_astype_complex_to_real_raises(xp: ModuleType) -> None:
    z = xp.asarray([1 + 2j, 0j])
    for dtype in (xp.float64, xp.float32, xp.int64):
        with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.astype: casting complex128 to"):
            xp.astype(z, dtype)
    same(xp.astype(z, xp.bool), np.array([True, False]))
    same(xp.astype(z, xp.complex64), np.array([1 + 2j, 0j], dtype=np.complex64))
    same(xp.astype(xp.asarray([1.5]), xp.complex64), np.array([1.5 + 0j], dtype=np.complex64))


def test_finfo_iinfo_accept_arrays_and_dtypes(xp: ModuleType) -> None:
    f = xp.finfo(xp.ones(2, dtype=xp.complex64))
    assert f.dtype == np.float32 and f.bits == 32 and type(f.eps) is float
    assert f.eps == float(np.finfo(np.float32).eps)
    i = xp.iinfo(xp.int8)
    assert (i.min, i.max, i.bits, i.dtype) == (-128, 127, 8, np.int8)
    assert xp.iinfo(xp.asarray([1], dtype=xp.uint16)).max == 65535
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.finfo: int8 is not"):
        xp.finfo(xp.int8)  # a dtype the function does not take (ValueError before issue 15)


def test_result_type_can_cast_isdtype(xp: ModuleType) -> None:
    assert xp.result_type(xp.float32, 1.0) == np.float32
    assert xp.result_type(xp.int8, xp.uint8) == np.int16
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, xp.uint64)
    assert not xp.can_cast(xp.int8, xp.float32)
    assert xp.can_cast(xp.asarray([1], dtype=xp.int8), xp.int16)
    assert xp.isdtype(xp.float32, ("integral", "real floating"))
    assert not xp.isdtype(xp.complex64, "real floating")


def test_info(xp: ModuleType) -> None:
    info = xp.__array_namespace_info__()
    assert info.capabilities() == {
        "boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64,
    }  # fmt: skip
    assert info.default_device() == "cpu" and info.devices() == ("cpu",)
    assert info.default_dtypes()["indexing"] == np.int64
    assert list(info.dtypes(kind="unsigned integer")) == ["uint8", "uint16", "uint32", "uint64"]
    assert list(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex64",
                                                                    "complex128"]  # fmt: skip


# -- linalg and fft ---------------------------------------------------------------------------
def test_linalg(xp: ModuleType) -> None:
    a = xp.asarray([[4.0, 1.0], [1.0, 3.0]])
    u = values(xp.linalg.cholesky(a, upper=True))
    np.testing.assert_allclose(u.T @ u, values(a))
    assert u[1, 0] == 0
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.linalg\.matrix_norm: ord must be"):
        xp.linalg.matrix_norm(a, ord=3)
    np.testing.assert_allclose(values(xp.linalg.matrix_norm(a, ord=inf)), 5.0)
    np.testing.assert_allclose(values(xp.linalg.vector_norm(xp.ones((2, 3, 4)), axis=(0, 2))),
                               np.full(3, math.sqrt(8)))  # fmt: skip
    np.testing.assert_allclose(values(xp.linalg.vector_norm(xp.asarray([1.0, 0, 2]), ord=0)), 2)
    assert values(xp.linalg.trace(xp.ones((2, 2), dtype=xp.int8))).dtype == np.int64
    assert values(xp.linalg.trace(xp.ones((2, 2), dtype=xp.float32))).dtype == np.float32
    svd = xp.linalg.svd(xp.ones((3, 2)), full_matrices=False)
    assert svd._fields == ("U", "S", "Vh") and values(svd.U).shape == (3, 2)
    assert xp.linalg.eigh(a)._fields == ("eigenvalues", "eigenvectors")
    assert xp.linalg.qr(a)._fields == ("Q", "R")
    same(xp.linalg.matrix_rank(xp.ones((3, 3)), rtol=0.1), np.array(1))


def test_fft_norm_validation_and_default_axes(xp: ModuleType) -> None:
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.fft\.fft: norm must be"):
        xp.fft.fft(xp.ones(4, dtype=xp.complex128), norm="bogus")
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.fft\.irfftn: norm must be"):
        xp.fft.irfftn(xp.ones((2, 2), dtype=xp.complex128), norm=None)
    # s without axes: the last len(s) axes
    assert values(xp.fft.fftn(xp.ones((3, 4, 5), dtype=xp.complex128), s=(2, 2))).shape == (3, 2, 2)
    same(xp.fft.fft(xp.ones(4, dtype=xp.complex64)), np.array([4, 0, 0, 0], dtype=np.complex64))
    # fft takes complex input only (real input was transformed before issue 15)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.fft\.fft: .*complex.*float32"):
        xp.fft.fft(xp.ones(4, dtype=xp.float32))


def test_fftfreq_dtype_and_device(xp: ModuleType) -> None:
    same(xp.fft.fftfreq(4, d=0.5), np.array([0.0, 0.5, -1.0, -0.5]))
    same(xp.fft.fftfreq(4, dtype=xp.float32, device="cpu"),
         np.array([0.0, 0.25, -0.5, -0.25], dtype=np.float32))  # fmt: skip
    same(xp.fft.rfftfreq(5, dtype=xp.float32), np.array([0.0, 0.2, 0.4], dtype=np.float32))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.numpy\.fft\.fftfreq: dtype must be a real floating"):
        xp.fft.fftfreq(4, dtype=xp.complex64)  # a dtype it does not take (ValueError before issue 15)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.numpy\.fft\.rfftfreq: n must be a positive int"):
        xp.fft.rfftfreq(0)
    with pytest.raises(ValueError):
        xp.fft.fftfreq(4, device="cuda:0")


def test_every_linalg_function_on_known_values(xp: ModuleType) -> None:
    la = xp.linalg
    a = xp.asarray([[4.0, 1.0], [1.0, 3.0]])
    b = xp.asarray([1.0, 2.0])
    close = np.testing.assert_allclose
    close(values(la.cholesky(a)), np.linalg.cholesky(np.asarray(values(a))))
    close(values(la.cross(xp.asarray([1.0, 0, 0]), xp.asarray([0.0, 1, 0]))), [0, 0, 1])
    close(values(la.det(a)), 11.0)
    same(la.diagonal(xp.reshape(xp.arange(8), (2, 2, 2)), offset=1), np.array([[1], [5]]))
    w, v = la.eigh(a)
    close(values(la.matmul(a, v)), values(v) * values(w), atol=1e-12)
    close(values(la.eigvalsh(a)), values(w))
    close(values(la.matmul(la.inv(a), a)), np.eye(2), atol=1e-12)
    close(values(la.matrix_norm(a, ord="nuc")), values(xp.sum(la.svdvals(a))))
    close(values(la.matrix_norm(a, keepdims=True)), [[math.sqrt(27)]])
    close(values(la.matrix_power(a, 2)), values(la.matmul(a, a)))
    same(la.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]])), np.array(1))
    same(la.matrix_transpose(xp.asarray([[1, 2]])), np.array([[1], [2]]))
    same(la.outer(xp.asarray([1, 2]), xp.asarray([3, 4, 5])), np.array([[3, 4, 5], [6, 8, 10]]))
    close(values(la.matmul(la.pinv(a), a)), np.eye(2), atol=1e-12)
    q, r = la.qr(a)
    close(values(la.matmul(q, r)), values(a))
    sign, logabsdet = la.slogdet(a)
    close((values(sign), values(logabsdet)), (1.0, math.log(11.0)))
    close(values(la.matmul(a, la.solve(a, b))), values(b))
    u, s, vh = la.svd(a)
    close(values(la.matmul(xp.multiply(u, s), vh)), values(a))
    same(la.tensordot(xp.asarray([1, 2]), xp.asarray([3, 4]), axes=1), np.array(11))
    same(la.trace(xp.asarray([[1, 2], [3, 4]], dtype=xp.uint8)), np.array(5, dtype=np.uint64))
    same(la.vecdot(xp.asarray([1j, 1]), xp.asarray([1j, 1])), np.array(2 + 0j))
    close(values(la.vector_norm(xp.asarray([3.0, -4.0]), ord=inf)), 4.0)


def test_every_fft_function_round_trips(xp: ModuleType) -> None:
    f = xp.fft
    x = xp.asarray([1.0, 2.0, 0.0, -1.0])
    z = xp.astype(x, xp.complex128)
    close = np.testing.assert_allclose
    close(values(f.fft(z)), np.fft.fft(values(x)))
    close(values(f.ifft(f.fft(z))), values(z), atol=1e-12)
    m = xp.reshape(xp.astype(xp.arange(6), xp.complex128), (2, 3))
    close(values(f.ifftn(f.fftn(m))), values(m), atol=1e-12)
    close(values(f.irfft(f.rfft(x), n=4)), values(x), atol=1e-12)
    r = xp.reshape(xp.astype(xp.arange(6), xp.float64), (2, 3))
    close(values(f.irfftn(f.rfftn(r), s=(2, 3))), values(r), atol=1e-12)
    close(values(f.hfft(f.ihfft(x), n=4)), values(x), atol=1e-12)
    close(values(f.fft(z, norm="ortho")), np.fft.fft(values(x)) / 2)
    same(f.fftshift(xp.asarray([0, 1, 2, -2, -1])), np.array([-2, -1, 0, 1, 2]))
    same(f.ifftshift(xp.asarray([-2, -1, 0, 1, 2])), np.array([0, 1, 2, -2, -1]))
    same(f.rfftfreq(4, d=0.25), np.array([0.0, 1.0, 2.0]))


def test_in_place_operators_use_the_fixed_functions() -> None:
    a = wrapped.asarray([-inf, -0.0, 4.0])
    a **= 0.5
    same(a, np.array([inf, 0.0, 2.0]))
    b = wrapped.asarray([inf, -inf, 3.0])
    b //= 2.0
    same(b, np.array([inf, -inf, 1.0]))
    c = wrapped.asarray([1, 2], dtype=wrapped.int8)
    c += 1
    same(c, np.array([2, 3], dtype=np.int8))
    with pytest.raises(TypeError, match=r"__iadd__: cannot cast the result dtype float64 to the array's dtype int8"):
        c += 1.5  # float64 cannot be cast back to int8 in place: a TypeError
    same(c, np.array([2, 3], dtype=np.int8))  # nothing written on failure


def test_pinv_default_rtol_is_max_m_n_times_eps(xp: ModuleType) -> None:
    # NumPy's own default (1e-15) would drop the 7e-16 singular value; 2 * eps keeps it
    a = xp.asarray([[1.0, 0.0], [0.0, 7e-16]])
    np.testing.assert_allclose(values(xp.linalg.pinv(a))[1, 1], 1 / 7e-16)
    assert values(xp.linalg.pinv(a, rtol=1e-10))[1, 1] == 0.0
    same(xp.linalg.matrix_rank(a), np.array(2))


def test_arrays_in_the_other_byte_order_are_of_their_dtype() -> None:
    """A big-endian float64 array (as read from a FITS or network file) is a float64
    array to every function with a dtype category; a big-endian int32 one is still an
    integer array to them."""
    xp = native
    swapped = np.arange(3.0).astype(">f8")
    np.testing.assert_array_equal(xp.sin(swapped), np.sin(np.arange(3.0)))
    np.testing.assert_array_equal(xp.add(swapped, swapped), [0.0, 2.0, 4.0])
    assert xp.mean(swapped) == 1.0
    with pytest.raises(TypeError, match="sin: expected an array of a floating-point dtype"):
        xp.sin(np.arange(3).astype(">i4"))
