"""The PyTorch backend, both flavours, against array_api_strict (NumPy) on chosen inputs."""

from __future__ import annotations

import inspect
import itertools
import math
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the torch backend needs torch installed")
strict = pytest.importorskip("array_api_strict", reason="the reference implementation")

import eagerpy_xp as ep  # noqa: E402
import eagerpy_xp.native.torch as nt  # noqa: E402
import eagerpy_xp.torch as wt  # noqa: E402
from eagerpy_xp import _spec  # noqa: E402
from eagerpy_xp._dtypes import ALL, INTEGRAL, kind_of  # noqa: E402
from eagerpy_xp.native._base.elementwise import BINARY, UNARY  # noqa: E402

# NumPy warns while computing reference values for special cases (0 / 0, ...)
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered in:RuntimeWarning")

FLAVOURS = [pytest.param(nt, id="native"), pytest.param(wt, id="wrapped")]
UNSIGNED_WIDE = ("uint16", "uint32", "uint64")


def host(x: Any) -> np.ndarray:
    """A NumPy copy of a tensor, an `Array` or a strict array."""
    if isinstance(x, ep.Array):
        x = x.raw
    if isinstance(x, torch.Tensor):
        return x.detach().resolve_conj().numpy()
    return np.asarray(x)


def check(got: Any, expected: Any, *, exact: bool = True) -> None:
    """Same dtype, shape and values (NaN equal to NaN; signed zeros compared when exact)."""
    a, b = host(got), host(expected)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape, (a.shape, b.shape)
    if a.dtype.kind in "fc" and not exact:
        rtol = 2e-6 if a.dtype in (np.float32, np.complex64) else 1e-12
        for part in (np.real, np.imag):  # parts apart: an infinite part is compared exactly
            np.testing.assert_allclose(part(a), part(b), rtol=rtol, atol=1e-6)
        return
    np.testing.assert_array_equal(a, b)
    if a.dtype.kind in "fc":
        for part in (np.real, np.imag) if a.dtype.kind == "c" else (np.asarray,):
            pa, pb = part(a), part(b)
            zeros = pb == 0
            np.testing.assert_array_equal(np.signbit(pa[zeros]), np.signbit(pb[zeros]))


def both(xp: ModuleType, values: Any, dtype: str) -> tuple[Any, Any]:
    """The same values as an array of ``xp`` and of array_api_strict."""
    data = np.asarray(values, dtype=dtype)
    return xp.asarray(torch.from_numpy(data.copy())), strict.asarray(data)


def special_values(name: str) -> list[Any]:
    kind = kind_of(name)
    if kind == "bool":
        return [True, False]
    if kind in ("signed integer", "unsigned integer"):
        info = np.iinfo(name)
        values = {0, 1, 2, 3, 7, info.max, info.max - 1, info.min}
        if info.min < 0:
            values |= {-1, -3, info.min + 1}
        return sorted(values)
    reals = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, math.inf, -math.inf, math.nan, 1e-30]
    if kind == "real floating":
        return reals
    parts = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan]
    return [complex(a, b) for a in parts for b in parts]


# -- the namespace surface ----------------------------------------------------------------------
@pytest.mark.parametrize("xp", FLAVOURS)
def test_every_name_of_the_standard_with_its_signature(xp: ModuleType) -> None:
    for table, where in ((_spec.FUNCTIONS, xp), (_spec.LINALG, xp.linalg), (_spec.FFT, xp.fft)):
        for name, text in table.items():
            expected = str(_spec_signature(text))
            assert str(_bare(inspect.signature(getattr(where, name)))) == expected, name
    for name in ALL:
        assert getattr(xp, name) is getattr(torch, name)
    assert (xp.e, xp.pi, xp.newaxis) == (math.e, math.pi, None)
    assert math.isinf(xp.inf) and math.isnan(xp.nan)
    assert xp.__array_api_version__ == "2025.12"


def _bare(sig: inspect.Signature) -> inspect.Signature:
    """A signature without annotations."""
    params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
    return sig.replace(parameters=params, return_annotation=sig.empty)


def _spec_signature(text: str) -> inspect.Signature:
    name, _, params = text.partition("(")
    scope: dict[str, Any] = {}
    exec(f"def {name}({params}: pass", scope)
    return inspect.signature(scope[name])


def test_namespace_detection_and_parameter() -> None:
    parameter = torch.nn.Parameter(torch.ones(2))
    assert ep.get_namespace(torch.ones(1)) is nt
    assert ep.get_namespace(parameter) is nt
    wrapped = ep.astensor(parameter)
    assert wrapped.__array_namespace__() is wt
    assert wrapped.raw is parameter
    assert host(wt.sum(wrapped)).item() == 2.0


# -- element-wise functions against the reference -----------------------------------------------
#: (function, dtype kind) pairs whose results the standard leaves open or torch rounds
#: differently from NumPy in the last bit; compared with a tolerance instead.
_INEXACT = {"abs", "divide", "reciprocal", "pow", "sign", "atan2", "logaddexp", "hypot", "acosh",
            "asinh", "atanh", "expm1", "exp", "tan", "tanh", "sinh", "cosh", "sin", "cos",
            "asin", "acos", "atan", "log", "log1p", "log2", "log10", "sqrt", "square"}  # fmt: skip


@pytest.mark.parametrize("dtype", ALL)
def test_unary_elementwise_match_reference(dtype: str) -> None:
    values = special_values(dtype)
    t, s = both(nt, values, dtype)
    for name in UNARY:
        try:
            expected = getattr(strict, name)(s)
        except (TypeError, ValueError):
            continue  # the reference rejects this dtype: nothing to compare
        got = getattr(nt, name)(t)
        if kind_of(dtype) == "complex floating" and name in ("sign", "reciprocal", "expm1"):
            # sign/reciprocal: unspecified for infinite or zero input; expm1: NumPy misses
            # the spec's special cases (checked in test_complex_special_cases)
            finite = np.isfinite(np.asarray(values)) & (np.asarray(values) != 0)
            got, expected = host(got)[finite], host(expected)[finite]
        check(got, expected, exact=name not in _INEXACT or kind_of(dtype) not in (
            "real floating", "complex floating"))  # fmt: skip


@pytest.mark.parametrize("dtype", ALL)
def test_binary_elementwise_match_reference(dtype: str) -> None:
    values = special_values(dtype)
    pairs = list(itertools.product(values, values))
    t1, s1 = both(nt, [p[0] for p in pairs], dtype)
    t2, s2 = both(nt, [p[1] for p in pairs], dtype)
    for name in BINARY:
        if name in ("pow", "bitwise_left_shift", "bitwise_right_shift"):
            continue  # integer overflow cases differ by design; checked against NumPy below
        try:
            expected = getattr(strict, name)(s1, s2)
        except (TypeError, ValueError):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = getattr(nt, name)(t1, t2)
        exact = name not in _INEXACT or kind_of(dtype) not in ("real floating", "complex floating")
        if name == "floor_divide" and kind_of(dtype) == "real floating":
            # the standard asks for floor(x1 / x2) when x2 is infinite: 1 // -inf is -0
            a, b = np.asarray([p[0] for p in pairs]), np.asarray([p[1] for p in pairs])
            with np.errstate(all="ignore"):
                expected = np.where(np.isinf(b) | np.isinf(a), np.floor(a / b),
                                    host(expected)).astype(dtype)  # fmt: skip
        if name == "divide" and kind_of(dtype) == "complex floating":
            finite = np.isfinite(np.asarray(pairs)).all(axis=1) & (np.asarray(pairs)[:, 1] != 0)
            got, expected = host(got)[finite], host(expected)[finite]
        check(got, expected, exact=exact)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_special_cases(dtype: str) -> None:
    inf, nan = math.inf, math.nan
    cases = {  # input -> expected, from the standard's special cases
        "expm1": [(complex(inf, 0.0), complex(inf, 0.0)), (complex(inf, -0.0), complex(inf, -0.0)),
                  (complex(-inf, 1.0), complex(-1.0, 0.0)), (complex(-inf, nan), complex(-1, 0)),
                  (complex(nan, -0.0), complex(nan, -0.0)), (complex(inf, nan), complex(inf, nan)),
                  (complex(0.0, 0.0), complex(0.0, 0.0)), (complex(1.0, inf), complex(nan, nan))],
        "log1p": [(complex(-0.0, 0.0), complex(0.0, 0.0)), (complex(-1.0, 0.0), complex(-inf, 0.0)),
                  (complex(-inf, nan), complex(inf, nan)), (complex(nan, inf), complex(inf, nan))],
        "acos": [(complex(0.0, 0.0), complex(math.pi / 2, -0.0)),
                 (complex(1.0, -0.0), complex(0.0, 0.0))],
        "negative": [(complex(0.0, 0.0), complex(-0.0, -0.0))],
        "add": [(complex(0.0, inf), complex(0.0, inf))],
        "pow": [(complex(0.0, 0.0), complex(1.0, 0.0)), (complex(inf, 1.0), complex(1.0, 0.0))],
    }  # fmt: skip
    for name, pairs in cases.items():
        x = torch.tensor([p[0] for p in pairs], dtype=getattr(torch, dtype))
        wanted = torch.tensor([p[1] for p in pairs], dtype=x.dtype).tolist()  # rounded
        two = name in ("add", "pow")  # second operand: zeros
        result = getattr(nt, name)(x, torch.zeros_like(x)) if two else getattr(nt, name)(x)
        for given, want, got in zip([p[0] for p in pairs], wanted, host(result).tolist()):
            for g, w in ((got.real, want.real), (got.imag, want.imag)):
                if math.isnan(w):
                    assert math.isnan(g), (name, given, got)
                else:
                    assert g == w and (w != 0 or math.copysign(1, g) == math.copysign(1, w)), (
                        name, given, got)  # fmt: skip


def test_complex_zero_to_a_negative_power_is_nan_as_the_reference() -> None:
    result = host(nt.pow(torch.tensor([0j, 2 + 0j]), torch.tensor([-1 + 0j, -1 + 0j])))
    assert np.isnan(result[0].real) and np.isnan(result[0].imag)
    np.testing.assert_allclose(result[1], 0.5)


@pytest.mark.parametrize("dtype", INTEGRAL)
def test_integer_wraparound_shifts_and_division_by_zero(dtype: str) -> None:
    info = np.iinfo(dtype)
    values = sorted({0, 1, 3, 7, info.max, info.min, info.bits - 1, info.bits, info.bits + 5}
                    | ({-1, -5, -64} if info.min < 0 else set()))  # fmt: skip
    pairs = np.asarray(list(itertools.product(values, values)), dtype=dtype)
    a, b = pairs[:, 0], pairs[:, 1]
    ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
    with np.errstate(all="ignore"):
        references = {
            "add": np.add(a, b), "subtract": np.subtract(a, b), "multiply": np.multiply(a, b),
            "bitwise_left_shift": np.left_shift(a, b), "bitwise_right_shift": np.right_shift(a, b),
            "floor_divide": np.where(b == 0, 0, np.floor_divide(a, b)).astype(dtype),
            "remainder": np.where(b == 0, 0, np.remainder(a, b)).astype(dtype),
            "maximum": np.maximum(a, b), "less": np.less(a, b), "bitwise_xor": a ^ b,
        }  # fmt: skip
        for name, expected in references.items():
            check(getattr(nt, name)(ta, tb), expected)
        check(nt.negative(ta), np.negative(a))
        check(nt.bitwise_invert(ta), np.invert(a))
        check(nt.abs(ta), np.abs(a))
        check(nt.sign(ta), np.sign(a))
        base, exponent = np.meshgrid(np.asarray([0, 1, 2, 3, info.max], dtype=dtype),
                                     np.asarray([0, 1, 2, 7], dtype=dtype))  # fmt: skip
        check(nt.pow(torch.from_numpy(base.copy()), torch.from_numpy(exponent.copy())),
              np.power(base, exponent))  # fmt: skip


def test_uint64_beyond_int64() -> None:
    big = np.asarray([2**64 - 1, 2**63, 5, 0], dtype=np.uint64)
    t = torch.from_numpy(big.copy())
    check(nt.max(t), np.uint64(2**64 - 1))
    check(nt.min(t), np.uint64(0))
    check(nt.sort(t), np.sort(big))
    check(nt.argsort(t, descending=True), np.asarray([0, 1, 2, 3]))
    check(nt.floor_divide(t, torch.tensor([2**63, 3, 2, 7], dtype=torch.uint64)),
          np.asarray([1, 3074457345618258602, 2, 0], dtype=np.uint64))  # fmt: skip
    check(nt.add(t, 1), np.asarray([0, 2**63 + 1, 6, 1], dtype=np.uint64))
    check(nt.greater(t, torch.tensor(2**63 - 1, dtype=torch.uint64)), big > 2**63 - 1)
    check(nt.unique_values(t), np.unique(big))
    check(nt.searchsorted(nt.sort(t), 2**63), np.asarray(2))
    assert nt.__backend__.item(t[0]) == 2**64 - 1


# -- type promotion and Python scalars ----------------------------------------------------------
def test_promotion_table_matches_reference() -> None:
    for a, b in itertools.product(ALL, ALL):
        try:
            expected = strict.result_type(getattr(strict, a), getattr(strict, b))
        except TypeError:
            continue
        if "bool" in (a, b):  # add is numeric: bool operands are a TypeError (issue 15)
            with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.add:.*numeric.*bool"):
                nt.add(nt.ones(2, dtype=getattr(nt, a)), nt.ones(2, dtype=getattr(nt, b)))
            continue
        got = nt.add(nt.ones(2, dtype=getattr(nt, a)), nt.ones(2, dtype=getattr(nt, b))).dtype
        assert got == getattr(torch, str(expected).split(".")[-1].strip("'>")), (a, b)
        assert nt.result_type(getattr(nt, a), getattr(nt, b)) == got


@pytest.mark.parametrize("xp", FLAVOURS)
def test_python_scalars_take_the_array_dtype(xp: ModuleType) -> None:
    for dtype in ("int8", "uint8", "uint16", "uint64", "float32", "complex64"):
        x = xp.asarray([1, 2], dtype=getattr(xp, dtype))
        assert xp.add(x, 1).dtype == x.dtype
        assert xp.multiply(3, x).dtype == x.dtype
        assert xp.equal(x, 1).dtype == xp.bool
    assert xp.add(xp.asarray([1.0], dtype=xp.float32), 2).dtype == xp.float32
    assert xp.add(xp.asarray([1.0], dtype=xp.float32), 1j).dtype == xp.complex64
    assert host(xp.subtract(xp.asarray([1], dtype=xp.uint8), 2)).tolist() == [255]
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.add:.*uint64 and int64"):
        xp.add(xp.ones(1, dtype=xp.uint64), xp.ones(1, dtype=xp.int64))
    with pytest.raises(OverflowError, match=r"eagerpy_xp\.torch\.add:.*300.*uint8"):
        xp.add(xp.ones(1, dtype=xp.uint8), 300)


def test_scalar_operands_match_array_operands() -> None:
    x = torch.tensor([math.nan, -1.0, 0.25, 3.0])
    for name in ("maximum", "minimum", "add", "subtract", "multiply", "less", "equal"):
        fn = getattr(nt, name)
        check(fn(x, 0.5), fn(x, torch.full((4,), 0.5)))
        check(fn(0.5, x), fn(torch.full((4,), 0.5), x))
    assert host(nt.add(torch.ones(1), 2**70)).tolist() == [float(2**70)]
    check(nt.minimum(torch.tensor([1, 5], dtype=torch.int8), 3), np.asarray([1, 3], dtype=np.int8))


def test_bool_arithmetic_and_mixed_kinds_follow_torch_where_unspecified() -> None:
    # The standard leaves int + float arrays open: the floating dtype wins (as in torch).
    assert nt.add(nt.ones(1, dtype=nt.int64), nt.ones(1, dtype=nt.float32)).dtype == nt.float32
    # bool arrays are not numeric: add refuses them (issue 15), as array_api_strict does
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.add: .*numeric dtype, got bool"):
        nt.add(nt.ones(1, dtype=nt.bool), nt.ones(1, dtype=nt.int8))
    assert nt.multiply(nt.ones(1, dtype=nt.int32), 0.5).dtype == nt.float32


def test_finfo_iinfo_carry_torch_dtypes() -> None:
    f = nt.finfo(nt.complex64)
    assert f.dtype is torch.float32 and f.bits == 32 and f.eps == np.finfo(np.float32).eps
    i = nt.iinfo(nt.uint64)
    assert i.dtype is torch.uint64 and i.max == 2**64 - 1 and i.min == 0
    assert wt.finfo(wt.asarray([1.0], dtype=wt.float64)).dtype is torch.float64
    assert nt.can_cast(nt.uint8, nt.int16) and not nt.can_cast(nt.int16, nt.uint8)
    assert nt.isdtype(nt.uint32, "unsigned integer") and not nt.isdtype(nt.float32, "integral")


# -- statistics and utilities -------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL)
def test_reductions_match_reference(dtype: str) -> None:
    data = np.arange(1, 7).reshape(2, 3).astype(dtype)
    t, s = nt.asarray(torch.from_numpy(data.copy())), strict.asarray(data)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("sum", {}), ("sum", {"axis": 1}), ("sum", {"axis": (0, 1), "keepdims": True}),
        ("sum", {"axis": ()}), ("prod", {"axis": 0}), ("prod", {}), ("max", {"axis": 1}),
        ("min", {"keepdims": True}), ("cumulative_sum", {"axis": 1}),
        ("cumulative_sum", {"axis": 0, "include_initial": True}),
        ("cumulative_prod", {"axis": 1, "include_initial": True}),
        ("count_nonzero", {"axis": (0, 1)}), ("count_nonzero", {"axis": 1, "keepdims": True}),
        ("all", {"axis": 0}), ("any", {"axis": ()}), ("argmax", {"axis": 1, "keepdims": True}),
        ("argmin", {}), ("mean", {"axis": 0}), ("var", {"axis": 1, "correction": 0.5}),
        ("std", {"correction": 1.5, "keepdims": True}), ("sort", {"axis": 0, "descending": True}),
        ("argsort", {"axis": 1, "descending": True}),
    ]  # fmt: skip
    for name, kwargs in calls:
        try:
            expected = getattr(strict, name)(s, **kwargs)
        except (TypeError, ValueError):
            continue
        check(getattr(nt, name)(t, **kwargs), expected, exact=name not in ("var", "std", "mean"))


def test_variance_is_exact_for_constant_data() -> None:
    x = torch.full((2, 3, 4), 1.1)
    check(nt.std(x), np.float32(0.0))
    check(nt.var(x, axis=(0, 2), correction=1.5), np.zeros(3, dtype=np.float32))
    check(
        nt.var(torch.tensor([1.0, 2.0, 4.0]), axis=(), keepdims=True), np.zeros(3, dtype=np.float32)
    )
    # var is real floating-point only (complex was accepted before issue 15)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.var: .*got complex64"):
        nt.var(torch.tensor([1j, 2 + 0j]))


def test_sum_dtype_rules() -> None:
    assert nt.sum(nt.ones(3, dtype=nt.int8)).dtype == nt.int64
    assert nt.sum(nt.ones(3, dtype=nt.uint16)).dtype == nt.uint64
    assert nt.prod(nt.ones(3, dtype=nt.uint8)).dtype == nt.uint64
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.sum: .*numeric dtype, got bool"):
        nt.sum(nt.ones(3, dtype=nt.bool))  # bool is not numeric (summed as int64 before issue 15)
    assert nt.sum(nt.ones(3, dtype=nt.float32)).dtype == nt.float32
    assert nt.cumulative_sum(nt.ones(3, dtype=nt.uint32)).dtype == nt.uint64
    assert host(nt.sum(nt.full(3, 200, dtype=nt.uint8), dtype=nt.uint8)).item() == (600 % 256)
    assert host(nt.sum(nt.ones(3, dtype=nt.float32), dtype=nt.float64)).dtype == np.float64
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.cumulative_sum:.*axis"):
        nt.cumulative_sum(nt.ones((2, 2)))


def test_stable_sort_and_unique() -> None:
    data = np.asarray([3.0, math.nan, 1.0, 3.0, -0.0, math.nan, 1.0, 0.0])
    t, s = both(nt, data, "float64")
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        for got, expected in zip(getattr(nt, name)(t), getattr(strict, name)(s)):
            check(got, expected, exact=False)
    assert host(nt.unique_values(t)).size == 5  # each NaN is distinct
    keys = np.asarray([2, 1, 2, 1, 2], dtype=np.int16)
    check(nt.argsort(torch.from_numpy(keys), descending=True), np.asarray([0, 2, 4, 1, 3]))
    check(nt.argsort(torch.from_numpy(keys)), np.asarray([1, 3, 0, 2, 4]))
    complex_values = np.asarray([1 + 2j, 1 - 1j, 1 + 2j, -3j])
    values, indices, inverse, counts = nt.unique_all(torch.from_numpy(complex_values))
    check(values, np.asarray([-3j, 1 - 1j, 1 + 2j]))
    check(indices, np.asarray([3, 1, 0]))
    check(inverse, np.asarray([2, 1, 2, 0]))
    check(counts, np.asarray([1, 1, 2]))


@pytest.mark.parametrize("xp", FLAVOURS)
def test_searching_and_sets(xp: ModuleType) -> None:
    x = xp.asarray([1, 3, 5, 7], dtype=xp.uint32)
    check(xp.searchsorted(x, 5), np.asarray(2))
    check(xp.searchsorted(x, 5, side="right"), np.asarray(3))
    check(xp.searchsorted(xp.asarray([3.0, 1.0]), xp.asarray([2.0]),
                          sorter=xp.asarray([1, 0])), np.asarray([1]))  # fmt: skip
    cond = xp.asarray([True, False, True, False])
    check(xp.where(cond, x, 0), np.asarray([1, 0, 5, 0], dtype=np.uint32))
    check(xp.where(cond, 1.5, xp.asarray([0.0], dtype=xp.float32)),
          np.asarray([1.5, 0, 1.5, 0], dtype=np.float32))  # fmt: skip
    check(xp.isin(x, xp.asarray([3, 7], dtype=xp.uint32)), np.asarray([False, True, False, True]))
    check(xp.isin(x, 5, invert=True), np.asarray([True, True, False, True]))
    check(xp.isin(xp.asarray([1j, 2.0]), xp.asarray([1j])), np.asarray([True, False]))
    check(xp.nonzero(xp.asarray([[0, 2], [3, 0]], dtype=xp.uint16))[1], np.asarray([1, 0]))
    check(xp.count_nonzero(xp.asarray([[0, 2], [3, 0]]), axis=(0, 1)), np.asarray(2))


@pytest.mark.parametrize("xp", FLAVOURS)
def test_clip_keeps_the_dtype(xp: ModuleType) -> None:
    x = xp.asarray([0, 100, 200], dtype=xp.uint8)
    check(xp.clip(x, -5, 150), np.asarray([0, 100, 150], dtype=np.uint8))
    check(xp.clip(x, xp.asarray([10, 0, 0], dtype=xp.uint8), 300),
          np.asarray([10, 100, 200], dtype=np.uint8))  # fmt: skip
    f = xp.asarray([-1.0, math.nan, 2.0], dtype=xp.float32)
    check(xp.clip(f, 0, 1.5), np.asarray([0.0, math.nan, 1.5], dtype=np.float32))
    check(xp.clip(f), host(f))
    big = xp.asarray([2**64 - 1, 3], dtype=xp.uint64)
    check(xp.clip(big, 5, 2**63), np.asarray([2**63, 5], dtype=np.uint64))


@pytest.mark.parametrize("xp", FLAVOURS)
def test_diff_repeat_take(xp: ModuleType) -> None:
    x = xp.asarray([1, 4, 9], dtype=xp.uint16)
    check(xp.diff(x, prepend=xp.asarray([0], dtype=xp.uint16), append=0),
          np.asarray([1, 3, 5, 65535 - 8], dtype=np.uint16))  # fmt: skip
    check(xp.diff(xp.asarray([[1.0, 2.0, 4.0]]), n=2), np.asarray([[1.0]], dtype=np.float32))
    check(xp.diff(xp.asarray([True, False, False])), np.asarray([True, False]))
    check(xp.repeat(x, xp.asarray([2, 0, 1])), np.asarray([1, 1, 9], dtype=np.uint16))
    check(xp.repeat(xp.asarray([[1, 2]]), 2, axis=0), np.asarray([[1, 2], [1, 2]]))
    check(xp.take(x, xp.asarray([2, -1, 0])), np.asarray([9, 9, 1], dtype=np.uint16))
    m = xp.reshape(xp.arange(6, dtype=xp.uint64), (2, 3))
    check(xp.take_along_axis(m, xp.asarray([[2], [-3]]), axis=1),
          np.asarray([[2], [3]], dtype=np.uint64))  # fmt: skip
    check(xp.take(m, xp.asarray([1]), axis=0), np.asarray([[3, 4, 5]], dtype=np.uint64))


@pytest.mark.parametrize("torch_wraps", [True, False], ids=["torch-wraps", "normalised-here"])
def test_take_along_axis_counts_negative_indices_from_the_end(
        torch_wraps: bool, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Both ways to a negative index: torch's own (recent torch wraps it, and its compiled
    form too) and the `where` kept for a torch that does not; eager, vmapped, compiled."""
    from eagerpy_xp.native._torch import _functions

    monkeypatch.setattr(_functions, "_TAKE_ALONG_WRAPS", torch_wraps)
    data = np.arange(24).reshape(2, 3, 4)
    for dtype in ("float32", "int8", "uint16", "bool", "complex64"):
        x = nt.asarray(torch.from_numpy((data % 5).astype(dtype)))
        for axis in (0, 1, 2, -1):
            n = data.shape[axis]
            shape = [1, 1, 1]
            shape[axis] = 5
            index = np.asarray([-1, 0, -n, n - 1, 1 - n]).reshape(shape)
            check(nt.take_along_axis(x, nt.asarray(torch.from_numpy(index)), axis=axis),
                  np.take_along_axis((data % 5).astype(dtype), index, axis=axis))  # fmt: skip
    x = torch.arange(24.0).reshape(2, 3, 4)
    index = torch.tensor([[[-1], [0], [-4]], [[3], [-2], [1]]])
    want = np.take_along_axis(x.numpy(), index.numpy(), axis=-1)

    def picked(a: Any, i: Any) -> Any:
        return nt.take_along_axis(a, i, axis=-1)

    check(torch.func.vmap(picked)(x, index), want)
    torch._dynamo.reset()
    check(torch.compile(picked, backend="aot_eager", fullgraph=True)(x, index), want)


# -- manipulation -------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int8", *UNSIGNED_WIDE, "float32", "complex128"])
def test_manipulation_on_every_dtype(dtype: str) -> None:
    data = (np.arange(6) % 4).reshape(2, 3).astype(dtype)
    t, s = nt.asarray(torch.from_numpy(data.copy())), strict.asarray(data)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("flip", (), {}), ("flip", (), {"axis": 1}), ("roll", (1,), {}),
        ("roll", ((1, -1),), {"axis": (0, 1)}), ("tile", ((2, 1),), {}),
        ("expand_dims", ((0, -1),), {}), ("moveaxis", (0, 1), {}),
        ("permute_dims", ((1, 0),), {}), ("reshape", ((3, 2),), {}),
        ("squeeze", (), {"axis": 0}), ("broadcast_to", ((2, 2, 3),), {}),
        ("tril", (), {"k": 1}), ("triu", (), {"k": -1}), ("matrix_transpose", (), {}),
    ]  # fmt: skip
    for name, args, kwargs in calls:
        source_t, source_s = (
            (t[None], strict.expand_dims(s, axis=0)) if name == "squeeze" else (t, s)
        )
        check(getattr(nt, name)(source_t, *args, **kwargs),
              getattr(strict, name)(source_s, *args, **kwargs))  # fmt: skip
    check(nt.concat([t, t], axis=None), strict.concat([s, s], axis=None))
    check(nt.stack([t, t], axis=-1), strict.stack([s, s], axis=-1))
    for got, expected in zip(nt.unstack(t, axis=1), strict.unstack(s, axis=1)):
        check(got, expected)


def test_manipulation_errors_and_promotion() -> None:
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.broadcast_shapes:"):
        nt.broadcast_shapes((2, 3), (4,))
    assert nt.broadcast_shapes((2, 1), (1, 3), ()) == (2, 3)
    assert nt.broadcast_shapes() == ()
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.squeeze:"):
        nt.squeeze(nt.ones((2, 1)), axis=0)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.reshape:"):
        nt.reshape(nt.ones((2, 3)).mT, (6,), copy=False)
    with pytest.raises(IndexError, match=r"eagerpy_xp\.torch\.expand_dims:"):
        nt.expand_dims(nt.ones(2), axis=3)
    mixed = nt.concat([nt.ones(1, dtype=nt.uint8), nt.ones(1, dtype=nt.int8)])
    assert mixed.dtype == nt.int16
    x = nt.ones((2, 3))
    copied = nt.reshape(x, (3, 2), copy=True)
    copied[0, 0] = 5
    assert x[0, 0].item() == 1.0
    a, b = nt.broadcast_arrays(nt.ones((2, 1)), nt.ones(3))
    assert tuple(a.shape) == tuple(b.shape) == (2, 3)


# -- creation -----------------------------------------------------------------------------------
@pytest.mark.parametrize("xp", FLAVOURS)
def test_creation(xp: ModuleType) -> None:
    check(xp.arange(5, dtype=xp.uint32), np.arange(5, dtype=np.uint32))
    check(xp.arange(5, 1), np.arange(5, 1))  # empty ranges: torch raises
    check(xp.arange(0.0, -1.0, 0.5), np.zeros(0, dtype=np.float32))
    check(xp.arange(1, 2, 0.25), np.arange(1, 2, 0.25, dtype=np.float32))
    assert xp.arange(3).dtype == xp.int64
    check(xp.linspace(0, 1, 4, endpoint=False), np.asarray([0, 0.25, 0.5, 0.75], dtype=np.float32))
    check(xp.linspace(0, 1, 3, dtype=xp.float64), np.linspace(0, 1, 3))
    assert xp.linspace(0, 1j, 2).dtype == xp.complex64
    # computed in double precision, as NumPy does
    check(xp.linspace(-4, 8.5, 3, endpoint=False),
          np.linspace(-4, 8.5, 3, endpoint=False).astype(np.float32))  # fmt: skip
    check(xp.eye(3, 4, k=1, dtype=xp.uint64), np.eye(3, 4, k=1, dtype=np.uint64))
    check(xp.eye(2, k=-5), np.zeros((2, 2), dtype=np.float32))
    assert xp.full((2,), True).dtype == xp.bool
    assert xp.full((2,), 3).dtype == xp.int64
    assert xp.full(2, 1.5).dtype == xp.float32
    assert xp.full((), 1j).dtype == xp.complex64
    check(xp.zeros((2, 0), dtype=xp.uint16), np.zeros((2, 0), dtype=np.uint16))
    check(xp.full_like(xp.ones(2, dtype=xp.int8), 7), np.full(2, 7, dtype=np.int8))
    check(xp.ones_like(xp.ones(2), dtype=xp.uint32), np.ones(2, dtype=np.uint32))
    check(xp.asarray([2**64 - 1], dtype=xp.uint64), np.asarray([2**64 - 1], dtype=np.uint64))
    check(xp.asarray([[True, False]]), np.asarray([[True, False]]))
    check(xp.asarray(1.5), np.asarray(1.5, dtype=np.float32))
    with pytest.raises(ValueError, match=r"shape"):
        xp.zeros((-1,))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.full:.*fill_value"):
        xp.full(2, [1])
    grids = xp.meshgrid(xp.asarray([1, 2]), xp.asarray([3, 4, 5]))
    assert [tuple(g.shape) for g in grids] == [(3, 2), (3, 2)]
    assert tuple(
        xp.meshgrid(xp.asarray([1, 2]), xp.asarray([3, 4, 5]), indexing="ij")[0].shape
    ) == (2, 3)


def test_asarray_copy_semantics() -> None:
    t = torch.ones(3)
    assert nt.asarray(t) is t
    assert nt.asarray(t, copy=False) is t
    copied = nt.asarray(t, copy=True)
    copied[0] = 5
    assert t[0].item() == 1.0
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.asarray:.*copy=False"):
        nt.asarray(t, dtype=nt.float64, copy=False)
    shared = np.ones(2)
    view = nt.asarray(shared, copy=False)
    view[0] = 7
    assert shared[0] == 7
    assert nt.asarray(t, dtype=nt.float64).dtype == nt.float64


def test_astype() -> None:
    x = nt.asarray([1.7, -1.2])
    check(nt.astype(x, nt.int32), np.asarray([1, -1], dtype=np.int32))
    assert nt.astype(x, nt.float32, copy=False) is x
    assert nt.astype(x, nt.float32) is not x
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.astype:.*imaginary"):
        nt.astype(nt.asarray([1j]), nt.float64)
    assert nt.astype(x, nt.float64, device="cpu").dtype == nt.float64


# -- linear algebra and fft ---------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["int8", "uint8", "uint32", "uint64", "int64", "float32"])
def test_products_promote_and_cover_integers(dtype: str) -> None:
    a = (np.arange(6).reshape(2, 3) % 5).astype(dtype)
    b = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
    sa, sb = strict.asarray(a), strict.asarray(b)
    check(nt.matmul(ta, tb), strict.matmul(sa, sb), exact=False)
    check(nt.matmul(ta[0], tb), strict.matmul(sa[0, ...], sb), exact=False)
    check(nt.tensordot(ta, tb, axes=1), strict.tensordot(sa, sb, axes=1), exact=False)
    check(nt.tensordot(ta, ta, axes=([0, 1], [0, 1])), strict.tensordot(sa, sa, axes=([0, 1], [0, 1])),
          exact=False)  # fmt: skip
    check(nt.vecdot(ta, ta), strict.vecdot(sa, sa), exact=False)
    check(nt.linalg.outer(ta[0], tb[0]), strict.linalg.outer(sa[0, ...], sb[0, ...]), exact=False)
    check(nt.linalg.trace(nt.matmul(ta, ta.mT)), strict.linalg.trace(sa @ sa.mT), exact=False)
    square = torch.from_numpy((np.arange(4).reshape(2, 2) % 3).astype(dtype))
    if dtype == "float32":
        check(nt.linalg.matrix_power(square, 3), np.linalg.matrix_power(host(square), 3),
              exact=False)  # fmt: skip
        return
    # matrix_power is floating-point only (integer powers were computed before issue 15)
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.torch\.linalg\.matrix_power: .*{dtype}"):
        nt.linalg.matrix_power(square, 3)


def test_mixed_products_promote() -> None:
    a = nt.ones((2, 2), dtype=nt.float32)
    b = nt.ones((2, 2), dtype=nt.float64)
    assert nt.matmul(a, b).dtype == nt.float64
    assert nt.vecdot(nt.ones(2, dtype=nt.uint8), nt.ones(2, dtype=nt.int8)).dtype == nt.int16
    check(nt.vecdot(nt.asarray([1j, 2]), nt.asarray([1j, 1])), np.asarray(3, dtype=np.complex64))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.matmul:"):
        nt.matmul(nt.ones((2, 3)), nt.ones((2, 3)))


def test_linalg_against_numpy() -> None:
    rng = np.random.default_rng(0)
    m = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    spd = m @ m.T
    t = torch.from_numpy(m.copy())
    s = strict.asarray(m)
    for name in ("det", "inv", "svdvals", "pinv", "matrix_rank", "diagonal", "matrix_norm"):
        check(getattr(nt.linalg, name)(t), getattr(strict.linalg, name)(s), exact=False)
    check(nt.linalg.matrix_norm(t, ord=2, keepdims=True),
          strict.linalg.matrix_norm(s, ord=2, keepdims=True), exact=False)  # fmt: skip
    check(nt.linalg.vector_norm(t, axis=(0, 1), ord=1), strict.linalg.vector_norm(s, axis=(0, 1), ord=1),
          exact=False)  # fmt: skip
    check(nt.linalg.cholesky(torch.from_numpy(spd)), np.linalg.cholesky(spd), exact=False)
    check(nt.linalg.eigvalsh(torch.from_numpy(spd)), np.linalg.eigvalsh(spd), exact=False)
    sign, logdet = nt.linalg.slogdet(t)
    check(sign * nt.exp(logdet), np.linalg.det(m), exact=False)
    q, r = nt.linalg.qr(t)
    check(q @ r, m, exact=False)
    u, sv, vh = nt.linalg.svd(t, full_matrices=False)
    check((u * sv[None]) @ vh, m, exact=False)
    check(nt.linalg.cross(nt.asarray([1, 0, 0]), nt.asarray([0, 1, 0], dtype=nt.uint8)),
          np.asarray([0, 0, 1], dtype=np.int64))  # fmt: skip
    # a (3,) right-hand side is a vector; a batch (2, 3, 3) with (3, 2) broadcasts as a matrix
    check(nt.linalg.solve(t, torch.ones(3, dtype=torch.float64)), np.linalg.solve(m, np.ones(3)),
          exact=False)  # fmt: skip
    batch = torch.stack([t, 2 * t])
    rhs = torch.ones((3, 2), dtype=torch.float64)
    check(
        nt.linalg.solve(batch, rhs), np.linalg.solve(host(batch), np.ones((2, 3, 2))), exact=False
    )


def test_fft_against_numpy() -> None:
    x = np.arange(8.0).reshape(2, 4) + 1j * np.arange(8.0).reshape(2, 4)[::-1]
    t = torch.from_numpy(x.copy())
    for name in ("fft", "ifft"):
        check(getattr(nt.fft, name)(t, n=6, axis=0, norm="ortho"),
              getattr(np.fft, name)(x, n=6, axis=0, norm="ortho"), exact=False)  # fmt: skip
    check(nt.fft.fftn(t, axes=(0, 1)), np.fft.fftn(x), exact=False)
    check(nt.fft.ifftn(t, s=(2, 2)), np.fft.ifftn(x, s=(2, 2), axes=(0, 1)), exact=False)
    real = torch.from_numpy(x.real.copy())
    check(nt.fft.rfft(real), np.fft.rfft(x.real), exact=False)
    check(nt.fft.irfft(t), np.fft.irfft(x), exact=False)
    check(nt.fft.rfftn(real), np.fft.rfftn(x.real), exact=False)
    check(nt.fft.irfftn(t, s=(2, 6)), np.fft.irfftn(x, s=(2, 6), axes=(0, 1)), exact=False)
    check(nt.fft.hfft(t), np.fft.hfft(x), exact=False)
    check(nt.fft.ihfft(real), np.fft.ihfft(x.real), exact=False)
    check(nt.fft.fftfreq(5, d=0.5), np.fft.fftfreq(5, d=0.5).astype(np.float32))
    check(nt.fft.rfftfreq(6, dtype=nt.float64), np.fft.rfftfreq(6))
    check(nt.fft.fftshift(t, axes=1), np.fft.fftshift(x, axes=1))
    check(nt.fft.ifftshift(t), np.fft.ifftshift(x))
    check(nt.fft.fftshift(t, axes=()), x)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.fft\.fft:.*norm"):
        nt.fft.fft(t, norm="sideways")
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.fft\.fftfreq:.*positive"):
        nt.fft.fftfreq(0)


# -- the Array object on torch ------------------------------------------------------------------
def _pair(values: Any, dtype: str = "int64") -> tuple[ep.Array, np.ndarray]:
    data = np.asarray(values, dtype=dtype)
    return wt.asarray(torch.from_numpy(data.copy())), data


_KEYS: list[Callable[[Any], Any]] = [
    lambda xp: (slice(None, None, -1),),
    lambda xp: (slice(None), slice(-1, 0, -2)),
    lambda xp: (Ellipsis, slice(2, None, -1)),
    lambda xp: (None, 1, slice(None, None, -3)),
    lambda xp: (xp.asarray([1, 0]), slice(None, None, -1)),
    lambda xp: (xp.asarray(True),),
    lambda xp: (xp.asarray(False), Ellipsis),
    lambda xp: (Ellipsis, None),
    lambda xp: (xp.asarray([[True, False, True, False], [False, True, True, True]]),),
    lambda xp: (-1, -2),
    lambda xp: (slice(5, 1, -1), xp.asarray([0, -1])),
]


@pytest.mark.parametrize("make_key", _KEYS)
@pytest.mark.parametrize("dtype", ["int64", "uint64", "float32"])
def test_getitem_and_setitem_every_key_kind(make_key: Callable[[Any], Any], dtype: str) -> None:
    x, data = _pair(np.arange(8).reshape(2, 4), dtype)
    key_t, key_n = make_key(wt), make_key(np)
    expected = data[key_n]
    check(x[key_t], expected)
    target = data.copy()
    target[key_n] = np.arange(expected.size, dtype=dtype).reshape(expected.shape)
    x[key_t] = wt.asarray(
        torch.from_numpy(np.arange(expected.size, dtype=dtype).reshape(expected.shape))
    )
    check(x, target)
    x[key_t] = 1
    target[key_n] = 1
    check(x, target)


def test_setitem_rules() -> None:
    native = torch.zeros(3, dtype=torch.int32)
    x = ep.astensor(native)
    x[1] = 5
    assert native.tolist() == [0, 5, 0]  # writes through to the tensor
    x[wt.asarray([0, 2])] = wt.asarray([7, 8], dtype=wt.int8)
    assert native.tolist() == [7, 5, 8]
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.Array\.__setitem__:.*complex"):
        x[0] = 1.5j
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.Array\.__setitem__:.*downcast"):
        x[0] = wt.asarray(1.0j)
    assert native.tolist() == [7, 5, 8]


def test_operators_and_inplace() -> None:
    x, data = _pair([5, -3, 0, 7], "int16")
    check(x // 2, data // 2)
    check(x % -3, data % -3)
    check(x << 20, np.zeros(4, dtype=np.int16))
    check(-x, -data)
    check(~x, ~data)
    check(x // 0, np.zeros(4, dtype=np.int16))
    check(2 ** wt.asarray([1, 2], dtype=wt.uint8), np.asarray([2, 4], dtype=np.uint8))
    check(x @ x, np.asarray(np.dot(data, data), dtype=np.int16))
    same = x
    x += 1
    x *= wt.asarray(2, dtype=wt.int8)
    assert same is x
    check(x, (data + 1) * 2)
    u = wt.asarray([1, 2], dtype=wt.uint32)
    u -= 3
    check(u, np.asarray([2**32 - 2, 2**32 - 1], dtype=np.uint32))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.Array\.__iadd__:"):
        u += wt.asarray([1.0, 2.0])  # a dtype change is a TypeError (ValueError before issue 15)
    check(wt.reshape(wt.arange(6), (2, 3)).mT, np.arange(6).reshape(2, 3).T)
    f = wt.asarray([1.0, 2.0], dtype=wt.float64)
    f /= 2
    check(f, np.asarray([0.5, 1.0]))


def test_scalars_conversions_and_display() -> None:
    x = wt.asarray(3, dtype=wt.uint64)
    assert int(x) == 3 and float(x) == 3.0 and bool(x) and x.__index__() == 3
    assert complex(wt.asarray(1j)) == 1j
    big = wt.asarray(2**64 - 1, dtype=wt.uint64)
    assert int(big) == 2**64 - 1
    y = wt.asarray([1.5, 2.0])
    assert np.asarray(y).tolist() == [1.5, 2.0]
    assert "dtype=float32" in repr(y) and "backend=torch" in repr(y) and "device=cpu" in repr(y)
    assert str(wt.asarray([1j])) == "[0.+1.j]"
    grad = torch.ones(2, requires_grad=True)
    assert np.asarray(ep.astensor(grad)).tolist() == [1.0, 1.0]
    conj = torch.conj(torch.tensor([1 + 1j]))
    assert np.asarray(ep.astensor(conj)).tolist() == [1 - 1j]
    with pytest.raises(TypeError, match="0-d"):
        float(y)


# -- devices and dlpack -------------------------------------------------------------------------
def test_devices() -> None:
    backend = nt.__backend__
    cpu = torch.device("cpu")
    for spec in ("cpu", ep.Device("cpu"), cpu):
        assert backend.native_device(spec) == cpu
    # an unavailable device is a ValueError naming it (it was translated unchecked before
    # issue 15, and torch failed only when the device was used)
    for spec, wanted, available in (
        ("cuda:1", torch.device("cuda", 1), torch.cuda.device_count() > 1),
        (ep.Device("cuda"), torch.device("cuda", 0), torch.cuda.device_count() > 0),
        ("mps", torch.device("mps", 0), torch.backends.mps.is_available()),
    ):
        if available:
            assert backend.native_device(spec) == wanted
        else:
            with pytest.raises(ValueError, match=rf"device.*{str(spec).split(':')[0]}.*not available"):
                backend.native_device(spec)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.to_device:.*tpu"):
        backend.native_device("tpu", "to_device")
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.zeros:"):
        nt.zeros(2, device="quantum")
    x = wt.ones(2, device=ep.Device("cpu"))
    assert isinstance(x.device, ep.Device) and x.device == "cpu"
    assert x.to_device("cpu").device == ep.Device("cpu")
    assert nt.asarray([1.0], device=cpu).device == cpu
    info = nt.__array_namespace_info__()
    assert cpu in info.devices()
    assert info.default_device() == cpu
    assert info.default_dtypes()["real floating"] is torch.get_default_dtype()
    assert info.default_dtypes(device="cpu")["indexing"] is torch.int64
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}
    assert len(info.dtypes()) == 13
    assert info.capabilities()["boolean indexing"] is True


def test_to_numpy_refuses_other_devices() -> None:
    meta = torch.empty(2, device="meta")
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.to_numpy:.*meta"):
        nt.__backend__.to_numpy(meta)


def test_dlpack_round_trips() -> None:
    x = wt.asarray([1.0, 2.0, 3.0])
    assert x.__dlpack_device__() == (1, 0)
    capsule = x.__dlpack__(max_version=(1, 0), copy=True)
    assert nt.from_dlpack(_Capsule(capsule, x.__dlpack_device__())).tolist() == [1.0, 2.0, 3.0]
    shared = nt.from_dlpack(x.raw)
    shared[0] = 9
    assert x.raw[0].item() == 9
    copied = wt.from_dlpack(x, copy=True, device="cpu")
    copied[0] = 0
    assert x.raw[0].item() == 9 and copied.raw[0].item() == 0
    from_numpy = nt.from_dlpack(np.arange(3, dtype=np.uint16))
    assert from_numpy.dtype == torch.uint16
    with_grad = ep.astensor(torch.ones(2, requires_grad=True))
    assert nt.from_dlpack(np.from_dlpack(with_grad)).tolist() == [1.0, 1.0]


class _Capsule:
    """A producer handing out a ready capsule (what a foreign library would do)."""

    def __init__(self, capsule: Any, device: tuple[Any, int]) -> None:
        self._capsule, self._device = capsule, device

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[Any, int]:
        return self._device


# -- edge cases an outside conformance suite found (issue 13) -----------------------------------
def _parts(z: Any) -> list[tuple[float, float]]:
    """(real, imag) of each element of a complex result, signs of zeros kept."""
    return [(v.real, v.imag) for v in host(z).ravel().tolist()]


def _same_signed(got: list[tuple[float, float]], expected: list[tuple[float, float]]) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        for a, b in zip(g, e):
            assert a == b and math.copysign(1, a) == math.copysign(1, b), (got, expected)


@pytest.mark.parametrize("xp", FLAVOURS)
def test_complex_sign_tanh_expm1_signed_zeros(xp: ModuleType) -> None:
    for dtype in ("complex64", "complex128"):
        zeros = [complex(-0.0, -0.0), complex(-0.0, 0.0), complex(0.0, -0.0), complex(0.0, 0.0)]
        x = xp.asarray(zeros, dtype=getattr(xp, dtype))
        _same_signed(_parts(xp.sign(x)), [(0.0, 0.0)] * 4)  # the standard: 0 + 0j
        _same_signed(_parts(xp.expm1(x)),  # +0 real part, the imaginary part's zero kept
                     [(0.0, -0.0), (0.0, 0.0), (0.0, -0.0), (0.0, 0.0)])  # fmt: skip
    inf = math.inf
    # tanh(±inf + bj), b finite: ±1 + copysign(0, b) j (torch: the sign of sin(2b))
    for dtype, big in ((xp.complex64, 1e30), (xp.complex128, 4.5e152)):  # finite in the dtype
        x = xp.asarray([complex(inf, 2.0), complex(inf, big), complex(-inf, 3.0),
                        complex(inf, -2.0), complex(-inf, -0.5)], dtype=dtype)  # fmt: skip
        _same_signed(_parts(xp.tanh(x)),
                     [(1.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (1.0, -0.0), (-1.0, -0.0)])  # fmt: skip
        # tan(x) = -i tanh(ix): a finite real part a, an infinite imaginary part
        x = xp.asarray([complex(2.5, -inf), complex(-2.5, inf), complex(big, inf)], dtype=dtype)
        _same_signed(_parts(xp.tan(x)), [(0.0, -1.0), (-0.0, 1.0), (0.0, 1.0)])
        # expm1(-inf + bj), b finite: exactly -1 + 0 cis(b)
        x = xp.asarray([complex(-inf, -2.5), complex(-inf, 2.5)], dtype=dtype)
        _same_signed(_parts(xp.expm1(x)), [(-1.0, -0.0), (-1.0, 0.0)])
    check(xp.tanh(xp.asarray([0.0, -inf])), np.array([0.0, -1.0], dtype=np.float32))


@pytest.mark.parametrize("xp", FLAVOURS)
def test_arange_float_start_with_negative_step_is_floating(xp: ModuleType) -> None:
    assert xp.arange(0.0, step=-1).dtype == torch.get_default_dtype()
    assert xp.arange(0.0, step=-1).shape == (0,)
    assert xp.arange(2, 0, -0.5).dtype == torch.get_default_dtype()
    check(xp.arange(2, 0, -0.5), np.array([2.0, 1.5, 1.0, 0.5], dtype=np.float32))
    assert xp.arange(3, 0, -1).dtype == torch.int64


@pytest.mark.parametrize("xp", FLAVOURS)
def test_cross_broadcasts_batch_dimensions(xp: ModuleType) -> None:
    assert xp.linalg.cross(xp.zeros((0, 3)), xp.zeros(3)).shape == (0, 3)
    assert xp.linalg.cross(xp.zeros((2, 0, 3)), xp.zeros((1, 3))).shape == (2, 0, 3)
    a = np.arange(6.0).reshape(2, 1, 3)
    b = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]])
    check(xp.linalg.cross(xp.asarray(a), xp.asarray(b)), np.cross(a, b).astype(np.float64))
    a2, b2 = a.reshape(2, 3).T, b[:2].T  # equal ranks: a non-negative axis is fine
    check(xp.linalg.cross(xp.asarray(a2), xp.asarray(b2), axis=0), np.cross(a2, b2, axis=0))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.linalg\.cross:.*size 3"):
        xp.linalg.cross(xp.zeros((2, 4)), xp.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.linalg\.cross:.*out of range"):
        xp.linalg.cross(xp.zeros(3), xp.zeros(3), axis=-2)


@pytest.mark.parametrize("xp", FLAVOURS)
def test_tensordot_with_zero_size_operands(xp: ModuleType) -> None:
    cases = [((0, 3), (3, 2), 1), ((2, 0), (0, 2), 1), ((2, 0), (0, 0), 1), ((0,), (0,), 1),
             ((2, 3), (3, 0), 1), ((0, 2), (0, 2), ([0], [0]))]  # fmt: skip
    for sa, sb, axes in cases:
        a = np.arange(math.prod(sa), dtype=np.float64).reshape(sa) + 1
        b = np.arange(math.prod(sb), dtype=np.float64).reshape(sb) + 1
        check(xp.tensordot(xp.asarray(a), xp.asarray(b), axes=axes), np.tensordot(a, b, axes))


@pytest.mark.parametrize("xp", FLAVOURS)
def test_outer_promotes_small_unsigned_types(xp: ModuleType) -> None:
    a, b = np.array([1, 200], dtype=np.uint8), np.array([3, 60000], dtype=np.uint16)
    for x, y in ((a, b), (b, a)):
        check(xp.linalg.outer(xp.asarray(x), xp.asarray(y)), np.outer(x, y))


def test_native_devices_are_what_native_tensors_report() -> None:
    info = nt.__array_namespace_info__()
    assert info.devices() and all(isinstance(d, torch.device) for d in info.devices())
    assert info.default_device() in info.devices()
    for d in info.devices():
        assert nt.from_dlpack(torch.ones(2), device=d).device == d
        assert nt.ones(2, device=d).device == d and nt.ones(2, device=d).device in info.devices()
        assert info.default_dtypes(device=d)["indexing"] is torch.int64
    wrapped = wt.__array_namespace_info__()
    assert all(isinstance(d, ep.Device) for d in wrapped.devices())
    assert wt.ones(2).device in wrapped.devices()


def _capsule_name(capsule: Any) -> bytes:
    import ctypes

    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get_name(capsule)  # type: ignore[no-any-return]


@pytest.mark.parametrize("xp", FLAVOURS)
def test_dlpack_max_version_below_1_exports_the_unversioned_capsule(xp: ModuleType) -> None:
    """The standard's producer rule: a consumer's major version 0 gets the DLPack 0.x
    capsule ("dltensor"), 1.x or later the versioned one."""
    x = xp.asarray([1.0, 2.0])
    for version, name in ((None, b"dltensor"), ((0, 0), b"dltensor"), ((0, 8), b"dltensor"),
                          ((1, 0), b"dltensor_versioned"), ((2, 3), b"dltensor_versioned")):  # fmt: skip
        assert _capsule_name(x.__dlpack__(max_version=version)) == name, version


# -- errors name the function and the backend ---------------------------------------------------
def test_errors_name_function_and_backend() -> None:
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.add:.*at least one"):
        nt.add(1, 2)
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.sum:.*expected a torch.Tensor"):
        nt.sum([1, 2])
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.mean:.*floating"):
        nt.mean(nt.ones(2, dtype=nt.int32))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.meshgrid:.*indexing"):
        nt.meshgrid(nt.ones(2), indexing="xx")
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.where:.*bool"):
        nt.where(nt.ones(2), 1, 2)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.max:.*zero-size"):
        nt.max(nt.ones(0))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.torch\.sort:.*complex"):
        nt.sort(nt.asarray([1j]))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.torch\.arange:.*step"):
        nt.arange(0, 1, 0)
