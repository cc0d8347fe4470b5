"""The per-operation paths trimmed for `benchmarks.per_op` (issue 39): each one's values,
its stored dtype, and the error of a call it refuses, which the full path raises.

- NumPy's binary fast cases have lanes (`NumPyElementwise.fast_case`): a Python float or
  an int within `_dtypes.LANE_MIN`..`LANE_MAX` beside a floating array keeps the array's
  dtype, so `Array`'s operators store it without reading the result's;
- torch's ``x[::-1]`` is ``Tensor.flipud`` (`fastpath.IndexCase.flip`), without the frame
  of `_reversed`;
- a lifted reduction whose fast op gives a NumPy scalar makes it a 0-d array itself;
- a lifted binary function tests two arrays of its case first.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import eagerpy_xp as ep
from eagerpy_xp import Array
from eagerpy_xp._dtypes import LANE_MAX, LANE_MIN
from eagerpy_xp.native._base import fastpath

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (inf * 0, 1e300 in float32)

INEXACT = ("float32", "float64", "complex64", "complex128")


def _numpy_backend() -> object:
    import eagerpy_xp.native.numpy as nxp

    return nxp.__backend__


def test_numpy_lanes_are_the_floating_dtypes_of_each_case() -> None:
    b = _numpy_backend()
    inexact = {np.dtype(n) for n in INEXACT}
    for function in ("add", "subtract", "multiply", "divide", "less", "greater", "equal",
                     "maximum", "atan2", "remainder", "bitwise_and", "logical_and"):  # fmt: skip
        case = b.fast_case(function)
        assert isinstance(case, fastpath.BinaryCase) and case.scalar is None, function
        cased = set(case.dtypes) | set(case.first)
        assert set(case.floats) == set(case.ints) == inexact & cased, function
        if function in b.operator_plans:  # (the plans of `Array`'s operators hold them)
            assert b.operator_plans[function].floats == case.floats, function
    # pow keeps its own hook: an int exponent is a lane, a float one (0.5?) is not
    pow_case = b.fast_case("pow")
    assert pow_case.scalar is not None and not pow_case.floats
    assert np.dtype("float32") in pow_case.ints


@pytest.mark.parametrize("dtype", INEXACT)
def test_numpy_operators_beside_python_scalars_keep_the_dtype(dtype: str) -> None:
    raw = np.array([-1.5, 0.0, 2.0, 3.25], dtype=dtype)
    x = ep.astensor(raw)
    for value in (2.0, -0.5, 2, LANE_MIN, LANE_MAX, 1e300, math.inf):
        for got, want in ((x * value, raw * value), (value - x, value - raw),
                          (x + value, raw + value), (x / value, raw / value)):  # fmt: skip
            assert type(got) is Array and type(got.raw) is np.ndarray
            assert got.dtype == np.dtype(dtype) == got.raw.dtype, (dtype, value)
            np.testing.assert_array_equal(got.raw, want)
    if not dtype.startswith("complex"):
        greater = x > 0.5
        assert greater.dtype == np.dtype(bool) == greater.raw.dtype
        np.testing.assert_array_equal(greater.raw, [False, False, True, True])


def test_numpy_scalars_outside_the_lanes_read_the_result() -> None:
    """An integer array beside a float (NumPy: float64), an int beyond the lane beside a
    float32 array, a complex beside a float array: the result's own dtype, as the full
    function gives it; an int that does not fit the array's dtype: the function's error,
    naming the operator."""
    ints = ep.astensor(np.array([1, 2, 3], dtype=np.int32))
    assert (ints * 2.0).dtype == np.dtype("float64") == (ints * 2.0).raw.dtype
    assert (ints * 2).dtype == np.dtype("int32") == (ints * 2).raw.dtype
    floats = ep.astensor(np.array([1.0, 2.0], dtype=np.float32))
    beyond = floats * (LANE_MAX + 1)
    assert beyond.dtype == np.dtype("float32") == beyond.raw.dtype
    complex_ = floats * 1j
    assert complex_.dtype == np.dtype("complex64") == complex_.raw.dtype
    np.testing.assert_array_equal(complex_.raw, [1j, 2j])
    small = ep.astensor(np.array([1, 2], dtype=np.uint8))
    with pytest.raises(OverflowError, match=r"^eagerpy_xp\.numpy\.Array\.__add__: .*-1 .*uint8"):
        small + (-1)
    with pytest.raises(OverflowError, match=r"^eagerpy_xp\.numpy\.add: .*-1 .*uint8"):
        ep.numpy.add(small, -1)


def test_torch_reversal_is_one_call_and_refuses_what_getitem_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    torch = pytest.importorskip("torch")
    import eagerpy_xp.native.torch as ntorch

    b = ntorch.__backend__
    assert b.index_plan.flip is torch.Tensor.flipud
    calls: list[object] = []
    full = type(b).getitem

    def counting(self: object, raw: object, key: object) -> object:
        calls.append(key)
        return full(self, raw, key)

    monkeypatch.setattr(type(b), "getitem", counting)
    matrix = torch.arange(12.0).reshape(4, 3)
    for raw in (torch.arange(5.0), matrix, matrix.to(torch.int8), matrix > 4):
        got = ep.astensor(raw)[::-1]
        assert type(got) is Array and got.dtype == raw.dtype == got.raw.dtype
        assert torch.equal(got.raw, torch.flip(raw, (0,)))
    assert calls == []
    # other negative steps are `_reversed`'s, and agree with the full path
    got = ep.astensor(torch.arange(5.0))[3::-1]
    assert torch.equal(got.raw, torch.tensor([3.0, 2.0, 1.0, 0.0]))
    got = ep.astensor(torch.arange(5.0))[:1:-1]
    assert torch.equal(got.raw, torch.tensor([4.0, 3.0, 2.0]))
    assert calls == []
    # a 0-d tensor (which Tensor.flip would take) and an unsigned dtype torch cannot
    # flip go to `getitem`: its IndexError, and its result on the bits
    with pytest.raises(IndexError, match=r"^eagerpy_xp\.torch\.Array\.__getitem__: .*0 dim"):
        ep.astensor(torch.tensor(3.0))[::-1]
    unsigned = ep.astensor(torch.tensor([1, 2, 70000], dtype=torch.uint32))[::-1]
    assert unsigned.raw.dtype == torch.uint32
    assert unsigned.raw.to(torch.int64).tolist() == [70000, 2, 1]
    assert calls == [slice(None, None, -1)] * 2


def test_numpy_mean_over_an_axis_gives_a_0d_array() -> None:
    raw = np.linspace(-2, 2, 16, dtype=np.float32)
    got = ep.numpy.mean(ep.astensor(raw), axis=0)
    assert type(got) is Array and type(got.raw) is np.ndarray and got.raw.shape == ()
    assert got.dtype == np.dtype("float32") == got.raw.dtype
    assert got.raw == np.mean(raw, axis=0)
    matrix = ep.numpy.mean(ep.astensor(raw.reshape(4, 4)), axis=1)
    np.testing.assert_array_equal(matrix.raw, raw.reshape(4, 4).mean(axis=1))
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.numpy\.mean: .*int32"):
        ep.numpy.mean(ep.astensor(np.arange(3, dtype=np.int32)), axis=0)


def test_lifted_binary_functions_on_two_arrays() -> None:
    xp = ep.numpy
    x = ep.astensor(np.array([1.0, -2.0, 3.0], dtype=np.float32))
    y = ep.astensor(np.array([0.5, 0.5, 4.0], dtype=np.float32))
    total = xp.add(x, y)
    assert type(total) is Array and total.dtype == np.dtype("float32") == total.raw.dtype
    np.testing.assert_array_equal(total.raw, [1.5, -1.5, 7.0])
    less = xp.less(x, y)
    assert less.dtype == np.dtype(bool) == less.raw.dtype
    np.testing.assert_array_equal(less.raw, [False, True, True])
    zero_d = xp.multiply(x[0], y[0])  # (NumPy's ufunc gives a scalar: made a 0-d array)
    assert type(zero_d.raw) is np.ndarray and zero_d.raw.shape == () and zero_d.raw == 0.5
    assert zero_d.dtype == np.dtype("float32")
    mixed = xp.add(x, ep.astensor(np.array([1, 2, 3], dtype=np.float64)))
    assert mixed.dtype == np.dtype("float64") == mixed.raw.dtype
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.numpy\.add: .*broadcast"):
        xp.add(x, ep.astensor(np.ones(4, dtype=np.float32)))
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.numpy\.add: got a torch Array"):
        xp.add(x, ep.astensor(torch.ones(3)))
