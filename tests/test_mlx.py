"""The MLX backend: dtypes (what MLX lacks and how it is refused), promotion of every pair,
special values, the functions MLX lacks or gets wrong, indexing and ``__setitem__`` with
every key kind, laziness (no function evaluates, measured by MLX's allocations),
autodiff, devices, ``convert``, the helpers, the EagerPy layer, and the compile and
vectorize hooks against eager results."""

from __future__ import annotations

import importlib
import math
import operator
import re
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

mx = pytest.importorskip("mlx.core", reason="MLX is not installed (pip install 'eagerpy-xp[mlx]')")

import eagerpy_xp as ep  # noqa: E402
import eagerpy_xp.mlx as wxp  # noqa: E402
import eagerpy_xp.native.mlx as xp  # noqa: E402
from conformance.compiled_cases import CASES, DATA_DEPENDENT, INPUTS, NOT_ARRAYS, flatten  # noqa: E402
from eagerpy_xp._dtypes import ALL, PROMOTION_TABLE  # noqa: E402
from eagerpy_xp.native._mlx._core import mapping  # noqa: E402

HELD = tuple(n for n in ALL if n != "complex128")
RNG = np.random.default_rng(7)
BACKEND = xp.__backend__


@pytest.fixture(params=["native", "wrapped"])
def ns(request: pytest.FixtureRequest) -> ModuleType:
    return xp if request.param == "native" else wxp


def host(a: Any) -> np.ndarray:
    """A NumPy copy of an MLX array or an `Array` (evaluates it)."""
    return np.array(a.raw if isinstance(a, ep.Array) else a)


def mlx_of(a: np.ndarray) -> Any:
    """A NumPy array as an MLX array of the same dtype (MLX itself reads float64 as
    float32 unless told)."""
    name = "bool_" if a.dtype == np.bool_ else a.dtype.name
    return mx.array(np.asarray(a, order="C"), dtype=getattr(mx, name))


def sample(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values of ``dtype``; floating ones include signed zeros, infinities and NaN."""
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return RNG.integers(max(info.min, -40), min(info.max, 40), shape, endpoint=True).astype(dtype)
    values = RNG.normal(0, 3, shape)
    flat = values.reshape(-1)
    flat[: min(5, flat.size)] = [0.0, -0.0, np.inf, -np.inf, np.nan][: min(5, flat.size)]
    if dtype.startswith("complex"):
        values = values + 1j * RNG.normal(0, 3, shape)
    return values.astype(dtype)


def same(result: Any, expected: Any, rtol: float | None = None) -> None:
    """Same dtype, shape and values (NaN equal; signs of zeros compared)."""
    got, want = host(result), np.asarray(expected)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        if rtol is None:
            rtol = 1e-6 if want.dtype in (np.float32, np.complex64) else 1e-13
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)
        zero = want.real == 0
        assert np.array_equal(np.signbit(got.real)[zero], np.signbit(want.real)[zero])
    else:
        np.testing.assert_array_equal(got, want)


# -- dtypes ----------------------------------------------------------------------------------
def test_dtypes_per_device(ns: ModuleType) -> None:
    info = ns.__array_namespace_info__()
    assert set(info.dtypes()) == set(HELD)
    assert set(info.dtypes(device="cpu")) == set(HELD)
    assert set(info.dtypes(kind="complex floating")) == {"complex64"}
    assert info.default_dtypes() == {"real floating": mx.float32, "complex floating":
                                     mx.complex64, "integral": mx.int64, "indexing": mx.int64}
    assert ns.float64 == mx.float64 and ns.bool == mx.bool_
    with pytest.raises(ValueError, match=r"eagerpy_xp\.mlx\.dtypes: .*'tpu:3'"):
        info.dtypes(device="tpu:3")


@pytest.mark.parametrize("call", [
    lambda ns: ns.asarray(np.ones(2, np.complex128)),
    lambda ns: ns.add(ns.ones(2, dtype=ns.float64), ns.ones(2, dtype=ns.complex64)),
    lambda ns: ns.multiply(ns.ones(2, dtype=ns.float64), 1j),
    lambda ns: ns.result_type(ns.float64, ns.complex64),
    lambda ns: ns.fft.rfft(ns.ones(4, dtype=ns.float64)),
    lambda ns: ns.fft.rfftn(ns.ones((2, 4), dtype=ns.float64)),
    lambda ns: ns.fft.ihfft(ns.ones(4, dtype=ns.float64)),
    lambda ns: ns.linalg.eigvals(ns.eye(2, dtype=ns.float64)),
    lambda ns: ns.from_dlpack(np.ones(2, np.complex128)),
])  # fmt: skip
def test_complex128_is_refused(ns: ModuleType, call: Callable[[ModuleType], Any]) -> None:
    """MLX has no complex128: a result of it is the contract's `NotImplementedError`
    naming the missing dtype (never a silent complex64)."""
    with pytest.raises(NotImplementedError, match=r"^eagerpy_xp\.mlx\.[\w.]+: MLX has no complex128"):
        call(ns)


def test_no_complex128_attribute(ns: ModuleType) -> None:
    """Clients find dtypes by name (``hasattr``, ``getattr(xp, name)``: array-api-tests,
    hypothesis' ``make_strategies_namespace``): MLX's namespaces have no ``complex128``,
    so nothing draws a dtype MLX cannot hold; the other complex dtype is there."""
    assert not hasattr(ns, "complex128") and "complex128" not in ns.__all__
    assert hasattr(ns, "complex64") and "complex64" in ns.__all__
    assert "complex128" not in ns.__array_namespace_info__().dtypes()
    import warnings

    from hypothesis.extra.array_api import make_strategies_namespace
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (hypothesis: the native namespace's version)
        strategies = make_strategies_namespace(ns, api_version="2024.12")
    drawn = {strategies.complex_dtypes().example() for _ in range(20)}
    assert drawn == {ns.complex64}
    # the complex result of float32 is there, of float64 refused (test_complex128_is_refused)
    assert ns.fft.rfft(ns.ones(4, dtype=ns.float32)).dtype == ns.complex64


#: Things a dtype is compared with: none of them is a dtype, and comparing must answer.
NOT_DTYPES = (None, "float32", "", float, int, bool, complex, object(), 0, 1.5, np.float32,
              np.dtype("float32"), [], ())


@pytest.mark.parametrize("name", HELD)
def test_wrapped_dtype_objects_behave(name: str) -> None:
    """The wrapped flavour's dtype objects answer every ``==`` (MLX's raise `TypeError` on
    None), hash and equal MLX's of the same name either way round, and are the one object
    everywhere the namespace hands a dtype out."""
    d = getattr(wxp, name)
    native = getattr(mx, "bool_" if name == "bool" else name)
    for other in NOT_DTYPES:
        assert (d == other) is False and (d != other) is True, other
        assert (other == d) is False and (other != d) is True, other
    assert d in (None, d) and None not in (d,) and d not in (None, "x", float)
    assert d == native and native == d and not (d != native) and not (native != d)
    assert hash(d) == hash(native) and {native: 1}[d] == 1 and {d: 1}[native] == 1
    assert all(d != getattr(wxp, n) and getattr(wxp, n) != d for n in HELD if n != name)
    assert d == getattr(xp, name) and getattr(xp, name) == d  # the native flavour's
    x = wxp.zeros(2, dtype=d)
    assert x.dtype is d and x.dtype is x.dtype and wxp.astype(x, d).dtype is d
    assert wxp.asarray([0], dtype=d).dtype is d and wxp.ones_like(x).dtype is d
    assert wxp.__array_namespace_info__().dtypes()[name] is d
    assert wxp.result_type(d, d) is d and wxp.result_type(x, x) is d
    if name.startswith(("int", "uint")):
        assert wxp.iinfo(d).dtype is d and wxp.iinfo(x).dtype is d
    if name.startswith(("float", "complex")):
        real = wxp.float64 if name == "float64" else wxp.float32
        assert wxp.finfo(d).dtype is real and wxp.finfo(x).dtype is real
    # either flavour's functions take either object
    assert xp.zeros(1, dtype=d).dtype == native and wxp.zeros(1, dtype=native).dtype is d
    import copy
    import pickle
    assert pickle.loads(pickle.dumps(d)) is d and copy.deepcopy(d) is d
    assert d.size == native.size and repr(d) == f"eagerpy_xp.mlx.{name}"


def test_wrapped_default_dtypes_are_the_namespace_objects() -> None:
    info = wxp.__array_namespace_info__()
    assert info.default_dtypes() == {"real floating": wxp.float32, "complex floating":
                                     wxp.complex64, "integral": wxp.int64,
                                     "indexing": wxp.int64}  # fmt: skip
    assert all(v is getattr(wxp, v.name) for v in info.default_dtypes().values())
    assert wxp.asarray([1.5]).dtype is wxp.float32 and wxp.argmax(wxp.ones(3)).dtype is wxp.int64


def test_native_dtype_objects_are_mlx_own() -> None:
    """The native flavour keeps MLX's objects and their behaviour (docs/mlx.md)."""
    assert xp.float32 is mx.float32 and type(xp.asarray([1.0]).dtype) is mx.Dtype
    with pytest.raises(TypeError):
        _ = mx.float32 == None  # noqa: E711  (MLX's own: what the wrapped flavour fixes)


#: (dtype, width) of every integer dtype, for the shifts below.
_INTEGERS = [(n, int(n.lstrip("uint") or 0)) for n in HELD if n.startswith(("int", "uint"))]


@pytest.mark.parametrize(("name", "bits"), _INTEGERS)
def test_shifts_as_wide_as_the_dtype_empty_the_value(ns: ModuleType, name: str,
                                                     bits: int) -> None:  # fmt: skip
    """MLX's kernels take a shift modulo their word (``int8(1) << 32`` was 1); the
    standard's reference shifts every bit out: ``<<`` gives 0, ``>>`` gives 0, and -1 for
    a negative value.  Every shift from 0 past twice the width, arrays and Python ints,
    functions and operators."""
    signed = name.startswith("int")
    top = 2 ** (bits - 1) - 1 if signed else 2**bits - 1
    values = [0, 1, 5, top] + ([-1, -5, -top - 1] if signed else [])
    shifts = [*range(min(top, 2 * bits + 70) + 1), top]
    pairs = [(v, s) for v in values for s in shifts]
    a = ns.asarray(np.array([v for v, _ in pairs], dtype=name))
    b = ns.asarray(np.array([s for _, s in pairs], dtype=name))

    def wrapped(v: int) -> int:
        v &= 2**bits - 1
        return v - 2**bits if signed and v >= 2 ** (bits - 1) else v

    left = [wrapped(v << s) if s < bits else 0 for v, s in pairs]
    right = [v >> s if s < bits else (-1 if v < 0 else 0) for v, s in pairs]
    assert host(ns.bitwise_left_shift(a, b)).tolist() == left
    assert host(ns.bitwise_right_shift(a, b)).tolist() == right
    if ns is wxp:
        assert host(a << b).tolist() == left and host(a >> b).tolist() == right
    x = ns.asarray(np.array(values, dtype=name))
    for s in (bits - 1, bits, bits + 1, 2 * bits, min(top, 100)):
        assert host(ns.bitwise_right_shift(x, s)).tolist() == [
            v >> s if s < bits else (-1 if v < 0 else 0) for v in values]
        assert host(ns.bitwise_left_shift(x, s)).tolist() == [
            wrapped(v << s) if s < bits else 0 for v in values]


def test_wide_shifts_under_vmap_and_compile() -> None:
    x = wxp.asarray(np.array([[1, -2], [3, -4]], dtype=np.int8))
    s = wxp.asarray(np.array([7, 9], dtype=np.int8))
    assert host(ep.vmap(lambda a: a >> s)(x)).tolist() == [[0, -1], [0, -1]]
    assert host(ep.vmap(lambda a: a << s)(x)).tolist() == [[-128, 0], [-128, 0]]
    assert host(ep.jit(lambda a, b: a << b)(x, s)).tolist() == [[-128, 0], [-128, 0]]


def test_numpy_float64_stays_float64(ns: ModuleType) -> None:
    """MLX reads a NumPy float64 array as float32; the namespace keeps float64 (and every
    other dtype of the standard)."""
    for name in HELD:
        a = sample((3,), name)
        same(ns.asarray(a), a)
    assert host(ns.asarray(np.float64(0.1))).item() == 0.1
    same(ns.asarray([1, 2]), np.array([1, 2], np.int64))
    same(ns.asarray([1.5, 2]), np.array([1.5, 2], np.float32))
    same(ns.asarray([[True], [False]]), np.array([[True], [False]]))
    same(ns.asarray([1j, 2]), np.array([1j, 2], np.complex64))
    same(ns.asarray([]), np.zeros(0, np.float32))
    same(ns.asarray(2**64 - 1, dtype=ns.uint64), np.array(2**64 - 1, np.uint64))


# -- promotion -------------------------------------------------------------------------------
@pytest.mark.parametrize("pair", sorted(p for p, r in PROMOTION_TABLE.items() if r != "complex128"))
def test_promotion_of_every_pair(pair: tuple[str, str]) -> None:
    """The standard's table for every pair MLX can hold, in functions and operators (MLX's
    own promotion differs: int64 with uint64 is float32 there, bool with int8 int8)."""
    a, b = pair
    x1, x2 = np.ones((2, 1), a), np.full((1, 3), 2, b)
    expected = PROMOTION_TABLE[pair]
    fn = xp.logical_or if expected == "bool" else xp.add
    result = fn(mlx_of(x1), mlx_of(x2))
    assert BACKEND.dtype_name(result.dtype) == expected
    same(result, np.logical_or(x1, x2) if expected == "bool" else (x1 + x2).astype(expected))
    op = operator.or_ if expected == "bool" else operator.add
    wrapped = op(wxp.asarray(x1), wxp.asarray(x2))
    assert BACKEND.dtype_name(wrapped.dtype) == expected


@pytest.mark.parametrize("name", HELD)
def test_python_scalars_keep_the_array_dtype(name: str) -> None:
    x = wxp.asarray(np.ones(3, name))
    scalars = {"bool": [True], "complex64": [2, 2.5, 1j]}.get(
        name, [2, 2.5] if name.startswith("float") else [2])
    fn, op = (xp.logical_and, operator.and_) if name == "bool" else (xp.multiply, operator.mul)
    for s in scalars:
        for result in (op(x, s), op(s, x), fn(x.raw, s), fn(s, x.raw)):
            assert BACKEND.dtype_name(result.dtype) == name, (name, s)
    if name.startswith(("int", "uint")):
        info = np.iinfo(name)
        zeros = mlx_of(np.zeros(3, name))
        same(xp.add(zeros, int(info.max)), np.full(3, info.max, name))
        same(xp.add(int(info.min), zeros), np.full(3, info.min, name))
        with pytest.raises(OverflowError, match=f"eagerpy_xp.mlx.add: .*{info.max + 1}"):
            xp.add(zeros, int(info.max) + 1)


def test_mixed_kinds_and_incompatible_pairs() -> None:
    with pytest.raises(TypeError, match="uint64 and int8"):
        xp.add(mx.array([1], dtype=mx.uint64), mx.array([1], dtype=mx.int8))
    assert xp.add(mx.array([1], dtype=mx.int8), 1.5).dtype == mx.float32
    assert xp.multiply(mx.array([1.0], dtype=mx.float32), 1j).dtype == mx.complex64


# -- element-wise: special values and the functions MLX lacks --------------------------------
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e-310,
                     -5e-324, 1.7976931348623157e308, 1e300, 709.5, -745.0, 100.5])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["exp", "sin", "cos", "tan", "expm1", "log1p", "tanh", "sign",
                                  "sqrt", "square", "trunc", "round", "abs", "negative"])
def test_unary_special_values(name: str, dtype: str) -> None:
    """Against NumPy, ulp-close and sign-exact on zeros: MLX computes float64 exp, sin and
    cos in float32 precision (and gives NaN for sin(1.8e308)); sign(NaN) is 0 there."""
    with np.errstate(all="ignore"):
        x = SPECIALS.astype(dtype)
        expected = getattr(np, name)(x)
    rtol = 4e-7 if dtype == "float32" else 4e-16
    same(getattr(xp, name)(mlx_of(x)), expected, rtol=rtol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float64_transcendentals_are_accurate(dtype: str) -> None:
    x = np.concatenate([RNG.uniform(-50, 50, 500), RNG.uniform(-1e6, 1e6, 100),
                        [np.pi / 2, np.pi, 1e-9, -3e-8]]).astype(dtype)  # fmt: skip
    eps = np.finfo(dtype).eps
    for name in ("exp", "sin", "cos"):
        got = host(getattr(xp, name)(mlx_of(x))).astype(np.float64)
        want = getattr(np, name)(x.astype(np.float64))
        finite = np.isfinite(want) & (np.abs(want) > np.finfo(dtype).tiny)
        error = np.abs(got - want)[finite] / np.abs(want[finite])
        limit = 8 if dtype == "float64" else 32  # MLX's own float32 exp: 28 ulps
        assert np.max(error) < limit * eps, (name, float(np.max(error) / eps))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["copysign", "hypot", "nextafter", "logaddexp", "atan2",
                                  "remainder", "floor_divide", "maximum", "pow"])
def test_binary_special_values(name: str, dtype: str) -> None:
    """Every pair of special values; copysign, hypot and nextafter are composed (MLX lacks
    them), remainder's zeros take the sign of x2 (MLX: of x1)."""
    a, b = np.meshgrid(SPECIALS, SPECIALS)
    a, b = a.ravel().astype(dtype), b.ravel().astype(dtype)
    with np.errstate(all="ignore"):
        expected = getattr(np, {"pow": "power"}.get(name, name))(a, b)
        if name == "floor_divide":  # the standard's floor(x1 / x2) (NumPy: NaN for inf // 1)
            expected = np.floor(a / b)
    rtol = 4e-7 if dtype == "float32" else 4e-16
    if name in ("pow", "hypot", "logaddexp"):
        rtol *= 8
    same(getattr(xp, name)(mlx_of(a), mlx_of(b)), expected, rtol=rtol)


def test_composed_functions_take_python_scalars_in_the_array_dtype() -> None:
    """A Python float beside a float64 array is float64 (MLX's own functions would make it
    float32 inside a composed function: 1e-271 would be 0)."""
    tiny = mlx_of(np.array([0.0, -1.0]))
    for fn in (xp.hypot, wxp.hypot):
        same(fn(tiny, 1.95e-271), np.hypot(np.array([0.0, -1.0]), 1.95e-271))
    same(xp.copysign(tiny, -0.0), np.copysign(np.array([0.0, -1.0]), -0.0))
    same(xp.nextafter(1e-300, tiny), np.nextafter(1e-300, np.array([0.0, -1.0])))
    same(wxp.logaddexp(wxp.asarray(tiny), 1e-300), np.logaddexp(np.array([0.0, -1.0]), 1e-300))


def test_float64_equals_complex64_exactly() -> None:
    """Their promoted dtype is complex128, which MLX lacks: compared part by part."""
    a = np.array([1.0, 0.1, 2.0])
    z = np.array([1, 0.1, 2 + 1j], np.complex64)
    same(xp.equal(mlx_of(a), mlx_of(z)), a == z)
    same(xp.not_equal(mlx_of(z), mlx_of(a)), z != a)
    same(wxp.asarray(a) == 1 + 0j, a == 1 + 0j)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signbit_reads_the_bit(dtype: str) -> None:
    x = np.array([0.0, -0.0, np.nan, -np.nan, -np.inf, 1.0, -1e-40], dtype)
    same(xp.signbit(mlx_of(x)), np.signbit(x))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_integer_power_with_negative_exponents(dtype: str) -> None:
    """1 for base 1, ±1 for base -1, else 0 (MLX: always 0), as torch/JAX/TensorFlow."""
    base = np.array([1, -1, -1, 2, 0, 3], dtype)
    exponent = np.array([-5, -3, -2, -1, 2, 2], dtype)
    same(xp.pow(mlx_of(base), mlx_of(exponent)), np.array([1, -1, 1, 0, 0, 9], dtype))


@pytest.mark.parametrize("name", ["exp", "expm1", "sin", "cos", "tan", "tanh", "sign", "log",
                                  "sqrt", "sinh", "cosh", "asinh", "atanh", "log1p"])
def test_complex_special_values(name: str) -> None:
    """C99's special cases (the standard's) through the library's complex functions,
    against NumPy where NumPy follows them."""
    parts = np.array([0.0, -0.0, 1.0, -2.0, np.inf, -np.inf, np.nan])
    re, im = (p.ravel() for p in np.meshgrid(parts, parts))
    z = np.empty(re.shape, np.complex64)
    z.real, z.imag = re, im
    got = host(getattr(xp, name)(mlx_of(z)))
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z.astype(np.complex128)).astype(np.complex64)
    finite = np.isfinite(z)
    if name in ("tan",):  # NumPy's complex tan of infinities differs from the standard
        finite &= np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-6)
    zero_in = finite & (z == 0)
    if name not in ("cos", "cosh", "exp", "log"):
        assert np.array_equal(np.signbit(got[zero_in].imag), np.signbit(want[zero_in].imag))


def test_complex_special_case_rows() -> None:
    """Rows of the standard that NumPy does not give (infinite inputs)."""
    inf, nan = math.inf, math.nan

    def c(a: float, b: float) -> Any:
        z = np.empty(1, np.complex64)
        z.real, z.imag = a, b
        return mlx_of(z)

    def check(got: Any, re: float, im: float) -> None:
        value = complex(host(got)[0])
        for g, w in ((value.real, re), (value.imag, im)):
            assert (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) ==
                                                         math.copysign(1, w)), (value, re, im)

    check(xp.expm1(c(inf, 0.0)), inf, 0.0)
    check(xp.expm1(c(-inf, 2.0)), -1.0, 0.0)
    check(xp.expm1(c(-0.0, 0.0)), 0.0, 0.0)
    check(xp.expm1(c(-0.0, -0.0)), 0.0, -0.0)
    check(xp.expm1(c(nan, 0.0)), nan, 0.0)
    check(xp.tanh(c(inf, 3e38)), 1.0, 0.0)
    check(xp.tanh(c(-inf, -2.0)), -1.0, -0.0)
    check(xp.sign(c(-0.0, -0.0)), 0.0, 0.0)
    check(xp.sign(c(nan, 1.0)), nan, nan)
    check(xp.tan(c(0.0, inf)), 0.0, 1.0)


# -- the other chapters ------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", "float32", "float64",
                                   "complex64"])
def test_matmul_and_friends_take_every_numeric_dtype(dtype: str) -> None:
    """MLX's matmul takes floating dtypes only: integers are multiplied exactly here,
    wrapping like the promoted dtype."""
    def finite(shape: tuple[int, ...]) -> np.ndarray:
        values = sample(shape, dtype)
        return np.where(np.isfinite(values), values, 1).astype(dtype)

    a, b, v = finite((2, 3, 4)), finite((4, 5)), finite((4,))
    same(xp.matmul(mlx_of(a), mlx_of(b)), a @ b, rtol=1e-4)
    same(xp.matmul(mlx_of(v), mlx_of(v)), v @ v, rtol=1e-4)
    same(xp.matmul(mlx_of(a), mlx_of(v)), a @ v, rtol=1e-4)
    same(xp.tensordot(mlx_of(a), mlx_of(b), axes=1), np.tensordot(a, b, axes=1), rtol=1e-4)
    same(xp.vecdot(mlx_of(v), mlx_of(v)), np.vecdot(v, v), rtol=1e-4)
    big = np.array([[100, 100]], np.int8)
    same(xp.matmul(mlx_of(big), mlx_of(big.T)), (big.astype(np.int64) @ big.T).astype(np.int8))


def test_sorting_is_stable_both_ways() -> None:
    x = np.array([3, 1, 3, 1, 2, 3, np.nan, 1, 2, -0.0, 0.0], np.float64)
    for descending in (False, True):
        order = host(xp.argsort(mlx_of(x), descending=descending))
        keys = -np.nan_to_num(x, nan=np.inf) if descending else np.nan_to_num(x, nan=np.inf)
        np.testing.assert_array_equal(order, np.argsort(keys, kind="stable"))
        assert order.dtype == np.int64
    same(xp.sort(mlx_of(x), descending=True), x[np.argsort(-np.nan_to_num(x, nan=np.inf),
                                                            kind="stable")])  # fmt: skip


def test_data_dependent_functions() -> None:
    """``nonzero`` and ``unique_*`` evaluate their input (docs/mlx.md); NaNs are distinct."""
    x = np.array([[3.0, np.nan, 1.0], [3.0, np.nan, 0.0]], np.float32)
    rows, cols = xp.nonzero(mlx_of(x))
    np.testing.assert_array_equal(host(rows), np.nonzero(x)[0])
    np.testing.assert_array_equal(host(cols), np.nonzero(x)[1])
    values, indices, inverse, counts = xp.unique_all(mlx_of(x))
    np.testing.assert_array_equal(host(values), [0.0, 1.0, 3.0, np.nan, np.nan])
    np.testing.assert_array_equal(host(counts), [1, 1, 2, 1, 1])
    np.testing.assert_array_equal(host(values)[host(inverse)], x)
    np.testing.assert_array_equal(host(indices), [5, 2, 0, 1, 4])
    assert host(inverse).shape == x.shape and host(counts).dtype == np.int64
    with pytest.raises(ValueError, match="nonzero: a 0-d array"):
        xp.nonzero(mx.array(1.0))


def test_isin_searchsorted_repeat() -> None:
    x = mlx_of(np.array([1, 5, 2, 7], np.int32))
    same(xp.isin(x, mlx_of(np.array([7, 1], np.int64))), np.array([True, False, False, True]))
    same(xp.isin(x, 5, invert=True), np.array([True, False, True, True]))
    same(xp.isin(mlx_of(np.array([np.nan, 1.0])), mlx_of(np.array([np.nan, 1.0]))),
         np.array([False, True]))
    same(xp.searchsorted(mlx_of(np.array([1.0, 2, 2, 3])), mlx_of(np.array([2.0, 0, 9])),
                         side="right"), np.array([3, 0, 4]))  # fmt: skip
    same(xp.repeat(x, mlx_of(np.array([0, 2, 1, 0]))), np.array([5, 5, 2], np.int32))
    same(xp.repeat(x, 2, axis=0), np.repeat(np.array([1, 5, 2, 7], np.int32), 2))


def test_statistics() -> None:
    x = sample((3, 4), "float64")
    x[~np.isfinite(x)] = 1.5
    for correction in (0, 1, 2.5):
        same(xp.var(mlx_of(x), axis=1, correction=correction), np.var(x, axis=1, ddof=correction))
        same(xp.std(mlx_of(x), axis=0, correction=correction, keepdims=True),
             np.std(x, axis=0, ddof=correction, keepdims=True))  # fmt: skip
    i8 = np.array([100, 100, 100], np.int8)
    same(xp.sum(mlx_of(i8)), np.int64(300))
    same(xp.prod(mlx_of(np.array([200, 2], np.uint8))), np.uint64(400))
    same(xp.cumulative_sum(mlx_of(i8), include_initial=True), np.array([0, 100, 200, 300]))
    same(xp.mean(mlx_of(x), axis=(0, 1)), np.mean(x))
    same(xp.argmax(mlx_of(np.array([[1, 3, 3]])), axis=1, keepdims=True), np.array([[1]]))
    same(xp.count_nonzero(mlx_of(np.array([0, 2, 0, 1]))), np.int64(2))
    same(xp.all(mlx_of(np.array([0j, 1j], np.complex64))), np.bool_(False))
    same(xp.any(mlx_of(np.array([0j, 1j], np.complex64))), np.bool_(True))
    with pytest.raises(ValueError, match=r"max: .*zero-size"):
        xp.max(mx.zeros((0, 2)), axis=0)


@pytest.mark.parametrize("shape", [(2, 0), (0, 2), (0,), (3, 0, 2)])
def test_reductions_of_zero_size_arrays(shape: tuple[int, ...]) -> None:
    """MLX's own reductions of zero-size arrays read memory nobody wrote (``mx.all`` of a
    (2, 0) array from NumPy is False, ``mx.prod`` of a (0, 2) one 0): identities here."""
    for axis in (None, *range(len(shape))):
        for keepdims in (False, True):
            b, f = np.zeros(shape, bool), np.zeros(shape, np.float32)
            same(xp.all(mlx_of(b), axis=axis, keepdims=keepdims), np.all(b, axis, keepdims=keepdims))
            same(xp.any(mlx_of(b), axis=axis, keepdims=keepdims), np.any(b, axis, keepdims=keepdims))
            same(xp.prod(mlx_of(f), axis=axis, keepdims=keepdims), np.prod(f, axis, keepdims=keepdims))
            same(xp.sum(mlx_of(f), axis=axis, keepdims=keepdims), np.sum(f, axis, keepdims=keepdims))
            same(wxp.sum(wxp.asarray(f), axis=axis), np.sum(f, axis))
            same(xp.count_nonzero(mlx_of(f), axis=axis, keepdims=keepdims),
                 np.count_nonzero(f, axis, keepdims=keepdims).astype(np.int64))  # fmt: skip
            with np.errstate(all="ignore"):
                same(xp.mean(mlx_of(f), axis=axis), np.mean(f, axis))
    same(xp.linalg.vector_norm(mx.zeros((0,)), ord=-1), np.float32(np.inf))


def test_linalg_complex_and_float64() -> None:
    """MLX's solve, inv, cholesky, qr, det, slogdet and pinv take real dtypes only: the
    complex ones are composed; eig of a complex matrix gives right eigenvectors (MLX's own
    gives their conjugates)."""
    a = (RNG.normal(size=(2, 3, 3)) + 1j * RNG.normal(size=(2, 3, 3))).astype(np.complex64)
    spd = (a @ np.conj(np.swapaxes(a, -1, -2)) + 3 * np.eye(3)).astype(np.complex64)
    rhs = RNG.normal(size=(2, 3, 2)).astype(np.complex64)
    la = xp.linalg
    same(la.solve(mlx_of(a), mlx_of(rhs)), np.linalg.solve(a, rhs), rtol=1e-4)
    same(la.inv(mlx_of(a)), np.linalg.inv(a), rtol=1e-4)
    same(la.cholesky(mlx_of(spd)), np.linalg.cholesky(spd), rtol=1e-4)
    same(la.cholesky(mlx_of(spd), upper=True),
         np.conj(np.swapaxes(np.linalg.cholesky(spd), -1, -2)), rtol=1e-4)  # fmt: skip
    same(la.det(mlx_of(a)), np.linalg.det(a), rtol=1e-4)
    sign, logabs = la.slogdet(mlx_of(a))
    np.testing.assert_allclose(host(sign), np.linalg.slogdet(a)[0], rtol=1e-4)
    np.testing.assert_allclose(host(logabs), np.linalg.slogdet(a)[1], rtol=1e-4)
    same(la.pinv(mlx_of(a)), np.linalg.pinv(a), rtol=1e-3)
    for mode in ("reduced", "complete"):
        tall = a[:, :, :2]
        q, r = la.qr(mlx_of(tall), mode=mode)
        np.testing.assert_allclose(host(q) @ host(r), tall, atol=1e-5)
        assert np.all(np.tril(host(r), -1) == 0)
        assert host(q).shape == np.linalg.qr(tall, mode=mode)[0].shape
    w, v = la.eig(mlx_of(a))
    np.testing.assert_allclose(a @ host(v), host(v) * host(w)[..., None, :], atol=1e-4)
    real = RNG.normal(size=(4, 3))
    q, r = la.qr(mlx_of(real), mode="complete")
    np.testing.assert_allclose(host(q) @ host(r), real, atol=1e-12)
    assert host(q).shape == (4, 4) and host(r).shape == (4, 3)
    same(la.det(mlx_of(real[:3])), np.linalg.det(real[:3]))
    same(la.matrix_power(mlx_of(real[:3]), -2), np.linalg.matrix_power(real[:3], -2))
    same(la.matrix_rank(mlx_of(np.ones((3, 3)))), np.int64(1))
    same(la.vector_norm(mlx_of(real), ord=3, axis=0), np.linalg.norm(real, ord=3, axis=0))
    same(la.matrix_norm(mlx_of(real), ord="nuc"), np.linalg.norm(real, ord="nuc"))
    same(la.trace(mlx_of(np.arange(9, dtype=np.int8).reshape(3, 3))), np.int64(12))
    same(la.cross(mlx_of(real[0]), mlx_of(real[1])), np.cross(real[0], real[1]))


def test_fft_including_hfft() -> None:
    """MLX has no hfft/ihfft: composed from irfft/rfft with every norm."""
    z = (RNG.normal(size=(3, 5)) + 1j * RNG.normal(size=(3, 5))).astype(np.complex64)
    r = RNG.normal(size=(3, 6)).astype(np.float32)
    f = xp.fft
    for norm in ("backward", "ortho", "forward"):
        same(f.fft(mlx_of(z), norm=norm), np.fft.fft(z, norm=norm).astype(np.complex64), 1e-4)
        same(f.hfft(mlx_of(z), n=8, norm=norm), np.fft.hfft(z, n=8, norm=norm).astype(np.float32),
             1e-4)  # fmt: skip
        same(f.ihfft(mlx_of(r), norm=norm), np.fft.ihfft(r, norm=norm).astype(np.complex64), 1e-4)
        same(f.irfftn(mlx_of(z), s=(3, 8), norm=norm),
             np.fft.irfftn(z, s=(3, 8), norm=norm).astype(np.float32), 1e-4)  # fmt: skip
    same(f.fftfreq(5, d=0.5), np.fft.fftfreq(5, d=0.5).astype(np.float32))
    same(f.rfftfreq(6, dtype=xp.float64), np.fft.rfftfreq(6))
    same(f.fftshift(mlx_of(r), axes=1), np.fft.fftshift(r, axes=1))
    same(f.ifftshift(mlx_of(r)), np.fft.ifftshift(r))


def test_creation() -> None:
    same(xp.arange(5), np.arange(5))
    same(xp.arange(0, 1, 0.25), np.arange(0, 1, 0.25, dtype=np.float32))
    same(xp.arange(10, 0, -3, dtype=xp.int8), np.arange(10, 0, -3, dtype=np.int8))
    same(xp.linspace(0, 1, 5, endpoint=False, dtype=xp.float64), np.linspace(0, 1, 5, False))
    same(xp.linspace(0, 1j, 3), np.linspace(0, 1j, 3).astype(np.complex64))
    same(xp.eye(3, 4, k=5), np.eye(3, 4, k=5, dtype=np.float32))
    same(xp.full((2,), 2**63 - 1), np.full(2, 2**63 - 1))
    same(xp.full((2,), complex(np.inf, 0)), np.full(2, complex(np.inf, 0), np.complex64))
    same(xp.tril(mlx_of(np.ones((2, 3, 3))), k=-1), np.tril(np.ones((2, 3, 3)), -1))
    same(xp.triu(mlx_of(np.ones((3, 2), np.int8)), k=1), np.triu(np.ones((3, 2), np.int8), 1))
    gx, gy = xp.meshgrid(mx.arange(2), mx.arange(3), indexing="ij")
    assert gx.shape == (2, 3) and gy.shape == (2, 3)
    with pytest.raises(ValueError, match="extents"):
        xp.zeros((2**31, 2))
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(np.ones(2), copy=False)
    x = mx.array([1.0, 2.0])
    y = xp.asarray(x, copy=True)
    y[0] = 5.0
    assert host(x)[0] == 1.0 and xp.asarray(x) is x


# -- indexing and __setitem__ ------------------------------------------------------------------
A = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
KEYS: list[Any] = [
    1, -1, (0, 2), (slice(None), slice(None, None, -1)), (..., 3), (None, 1, ..., None),
    (slice(2, 0, -1), 0, slice(1, None, 2)), np.array([1, 0, -1]), (0, np.array([2, 0])),
    (np.array([0, 1]), slice(None), np.array([3, 0])), np.array([True, False]),
    A[..., 0] > 5, A > 10, (Ellipsis, A[0, 0] > 1), True, False, (0, True),
    np.array(True), np.array(False), (slice(None), None, np.array([0, 2])),
    (0, slice(None), np.array([3, 0])), (np.array([1]), slice(None), 2),  # apart: theirs first
]  # fmt: skip


def _key(key: Any, wrap: Callable[[np.ndarray], Any]) -> Any:
    if isinstance(key, tuple):
        return tuple(wrap(k) if isinstance(k, np.ndarray) else k for k in key)
    return wrap(key) if isinstance(key, np.ndarray) else key


@pytest.mark.parametrize("key", KEYS, ids=[repr(k)[:40] for k in KEYS])
def test_getitem_every_key_kind(key: Any) -> None:
    expected = A[key]
    same(wxp.asarray(A)[_key(key, mlx_of)], expected)
    same(wxp.asarray(A)[_key(key, lambda k: wxp.asarray(k))], expected)


@pytest.mark.parametrize("key", KEYS, ids=[repr(k)[:40] for k in KEYS])
def test_setitem_every_key_kind(key: Any) -> None:
    expected = A.copy()
    shape = expected[key].shape
    value = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) + 100
    expected[key] = value
    x = wxp.asarray(A)
    kept = x[0]  # taken before: keeps its values (MLX replaces the node)
    x[_key(key, mlx_of)] = wxp.asarray(value)
    same(x, expected)
    same(kept, A[0])
    raw = mlx_of(A)
    written = xp.__backend__.setitem(raw, _key(key, mlx_of), 7)  # a new array (issue 37):
    assert written is not raw and np.array_equal(np.array(raw), A)  # raw is left as it is
    reference = A.copy()
    reference[key] = 7
    same(written, reference)


@pytest.mark.parametrize(("key", "kind"), [
    (5, IndexError), ((0, 3), IndexError), ((0, 0, 0, 0), IndexError), ((..., ...), IndexError),
    (1.5, IndexError), ("a", IndexError), (np.array([0, 2]), IndexError),
    (np.array([True, False, True]), IndexError), (np.array([0.0]), IndexError),
])  # fmt: skip
def test_bad_keys_raise_and_change_nothing(key: Any, kind: type[Exception]) -> None:
    x = wxp.asarray(A)
    with pytest.raises(kind, match=r"^eagerpy_xp\.mlx\.Array\.__getitem__: "):
        x[_key(key, mlx_of)]
    with pytest.raises(kind, match=r"^eagerpy_xp\.mlx\.Array\.__setitem__: "):
        x[_key(key, mlx_of)] = 1.0
    same(x, A)


def test_setitem_values_are_checked_before_writing() -> None:
    x = wxp.asarray(np.zeros((2, 3), np.float32))
    for value, kind in ((1j, TypeError), (mx.array([1.0, 2.0]), ValueError),
                        (mx.array([1.0], dtype=mx.complex64), TypeError), ("a", TypeError),
                        (np.ones(3), TypeError)):  # fmt: skip
        with pytest.raises(kind):
            x[0] = value
    same(x, np.zeros((2, 3), np.float32))
    x[1, :] = mx.array([[4.0, 5.0, 6.0]])  # leading size-1 dimensions drop
    same(x, np.array([[0, 0, 0], [4, 5, 6]], np.float32))
    i = wxp.asarray(np.zeros(3, np.int16))
    i[:] = mx.array([1, -2, 3], dtype=mx.int8)  # a dtype that promotes to the array's
    same(i, np.array([1, -2, 3], np.int16))
    with pytest.raises(TypeError, match="int8 values in an array of dtype float32"):
        x[0] = mx.array([1, 2, 3], dtype=mx.int8)  # another kind: no cast
    x[0] = mx.array([0.1, 2.5, -3.0], dtype=mx.float64)  # the array's kind: stored cast
    assert x.dtype == wxp.float32
    same(x, np.array([[0.1, 2.5, -3.0], [4, 5, 6]], np.float32))


def test_in_place_operators(ns: ModuleType) -> None:
    x = wxp.asarray(np.array([1.0, 2.0], np.float32))
    y = x
    x += 1
    x *= wxp.asarray(np.array([2.0, 3.0], np.float32))
    assert x is y
    same(x, np.array([4.0, 9.0], np.float32))
    i = wxp.asarray(np.array([1, 2], np.int8))
    with pytest.raises(TypeError):
        i += 1.5
    same(i, np.array([1, 2], np.int8))


# -- laziness ------------------------------------------------------------------------------------
N = 1 << 20  # 4 MiB of float32


def lazy(shape: tuple[int, ...] = (N,), dtype: Any = mx.float32) -> Any:
    """An array that exists only as a graph (no buffer yet)."""
    return (mx.arange(math.prod(shape), dtype=dtype) * 1.5 + 1).reshape(shape)


LAZY_CALLS: dict[str, Callable[[], Any]] = {
    "elementwise": lambda: xp.sin(xp.exp(lazy()) + xp.copysign(lazy(), -1.0)),
    "float64 exp/sin/cos": lambda: xp.cos(xp.sin(xp.exp(lazy(dtype=mx.float64)))),
    "promotion": lambda: xp.add(lazy(dtype=mx.int8), lazy(dtype=mx.uint16)),
    "hypot nextafter": lambda: xp.nextafter(xp.hypot(lazy(), lazy()), lazy()),
    "reductions": lambda: (xp.sum(lazy()), xp.var(lazy(), correction=1), xp.max(lazy()),
                           xp.argmax(lazy()), xp.cumulative_sum(lazy())),
    "manipulation": lambda: (xp.flip(lazy((1024, 1024)), axis=0),
                             xp.moveaxis(lazy((1024, 1024)), 0, 1), xp.roll(lazy(), 3),
                             xp.concat([lazy(), lazy()]), xp.tile(lazy((4, 8)), (2, 3)),
                             xp.reshape(lazy(), (1024, 1024)), xp.unstack(lazy((4, 1024)))),
    "sorting": lambda: (xp.sort(lazy(), descending=True), xp.argsort(lazy())),
    "searching": lambda: (xp.where(lazy() > 3, lazy(), 0.0),
                          xp.searchsorted(xp.sort(lazy()), lazy())),
    "isin": lambda: xp.isin(lazy(), lazy((16,))),
    "matmul int": lambda: xp.matmul(lazy((64, 64), mx.int32), lazy((64, 64), mx.int32)),
    "linalg": lambda: (xp.linalg.inv(lazy((128, 128)) + xp.eye(128)),
                       xp.linalg.det(lazy((16, 16))), xp.linalg.vector_norm(lazy()),
                       xp.linalg.solve(xp.astype(lazy((8, 8)), xp.complex64),
                                       xp.astype(lazy((8, 2)), xp.complex64))),
    "fft": lambda: (xp.fft.rfft(lazy()), xp.fft.hfft(xp.astype(lazy(), xp.complex64))),
    "creation": lambda: (xp.zeros((N,)), xp.linspace(0, 1, N), xp.full((N,), 2.0),
                         xp.arange(N), xp.eye(1024), xp.tril(lazy((1024, 1024)))),
    "getitem": lambda: (wxp.asarray(lazy())[::-2], wxp.asarray(lazy((1024, 1024)))[None, 3, ...],
                        wxp.asarray(lazy())[wxp.argsort(wxp.asarray(lazy()))]),
    "topk crossentropy": lambda: (ep.topk(lazy((64, 512)), 3),
                                  ep.crossentropy(lazy((64, 512)), xp.argmax(lazy((64, 512)),
                                                                             axis=1))),
    "setitem": lambda: _setitem_slice(),
    "setitem mask": lambda: _setitem_mask(),
    "asarray of arrays": lambda: xp.asarray([lazy(), lazy()]),
    "helpers": lambda: (ep.softmax(lazy((1024, 1024))), ep.norms.l2(lazy()),
                        ep.logsumexp(lazy())),
}  # fmt: skip


def _setitem_slice() -> Any:
    return xp.__backend__.setitem(lazy(), slice(0, 10), 0.0)


def _setitem_mask() -> Any:
    x = lazy((1024, 1024))  # (the hook: a wrapped write evaluates its result, issue 37)
    return xp.__backend__.setitem(x, x > 3.0, 0.0)  # one value under a mask: a where


@pytest.mark.parametrize("name", sorted(LAZY_CALLS))
def test_functions_do_not_evaluate(name: str) -> None:
    """No function evaluates: the arrays made lazily stay graphs, so MLX allocates no
    buffer for them or for the result (``mx.get_active_memory`` stays where it was, but
    for the small constants a call makes)."""
    mx.eval(mx.zeros(1))  # the allocator warm
    before = mx.get_active_memory()
    result = LAZY_CALLS[name]()
    grown = mx.get_active_memory() - before
    assert grown < 64 * 1024, f"{name} allocated {grown} bytes: something was evaluated"
    del result


def test_what_evaluates_is_documented() -> None:
    """The data-dependent functions evaluate (only what they must): their results exist."""
    x = lazy((1000,))
    before = mx.get_active_memory()
    xp.nonzero(x > 1000)
    assert mx.get_active_memory() > before  # nonzero's result is a computed array
    y = lazy((N,))
    base = mx.get_active_memory()
    xp.take(y, mx.array([0, 5, N - 1]))  # indices made from Python values: checked
    xp.take(y, xp.argsort(y))  # computed indices: left a graph, not checked
    xp.take_along_axis(y, xp.argsort(y), axis=0)
    xp.__backend__.setitem(y, xp.argsort(y), 0.0)  # (the hook: a wrapped write evaluates)
    assert mx.get_active_memory() - base < 64 * 1024
    with pytest.raises(IndexError, match="index 7 is out of bounds"):
        xp.take(mx.arange(3), mx.array([0, 7]))
    indices = mx.array([0, 1]) * 4  # a graph
    same(xp.take(mx.arange(9), indices), np.array([0, 4], np.int32))  # a graph: not checked
    mx.eval(indices)  # evaluated now: checked
    with pytest.raises(IndexError, match="index 4 is out of bounds"):
        xp.take(mx.arange(3), indices)


# -- autodiff -------------------------------------------------------------------------------------
def _loss(x: Any, c: float = 0.5) -> Any:
    xp_ = ep.namespace(x)
    return xp_.sum(xp_.sin(x) * x * x) + c * xp_.sum(xp_.log1p(x * x))


def _exact(x: np.ndarray, c: float = 0.5) -> np.ndarray:
    return np.cos(x) * x**2 + 2 * x * np.sin(x) + c * 2 * x / (1 + x**2)


@pytest.mark.parametrize("flavour", ["native", "wrapped"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_value_and_grad(flavour: str, dtype: str) -> None:
    values = np.array([0.3, -1.2, 2.5, 0.0], dtype)
    x = mlx_of(values) if flavour == "native" else wxp.asarray(values)
    value, g = ep.value_and_grad(_loss, x, c=0.25)
    assert type(g) is type(x) and type(value) is type(x)
    rtol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(host(g), _exact(values, 0.25), rtol=rtol, atol=rtol)
    assert host(g).dtype == np.dtype(dtype)
    value, aux, g = ep.value_and_grad(lambda t: (_loss(t), {"t": t, "n": 3}), x, has_aux=True)
    assert type(aux["t"]) is type(x) and aux["n"] == 3
    np.testing.assert_allclose(host(aux["t"]), values)
    second = ep.grad(lambda t: ep.namespace(t).sum(ep.grad(_loss, t)), x)  # nested
    h = 1e-3 if dtype == "float32" else 1e-6
    fd = (_exact(values + h).sum() - _exact(values - h).sum()) / (2 * h)
    assert type(second) is type(x)
    np.testing.assert_allclose(host(second).sum(), fd, rtol=1e-2 if dtype == "float32" else 1e-6)


@pytest.mark.parametrize(("name", "dtype", "derivative"), [
    ("exp", "float32", np.exp), ("exp", "float64", np.exp),
    ("sin", "float64", np.cos), ("cos", "float64", lambda v: -np.sin(v)),
])
def test_forward_mode_of_the_custom_functions(name: str, dtype: str, derivative: Any) -> None:
    """``mx.jvp`` through the functions the backend computes another way than MLX
    (``mx.custom_function``: float32 exp, float64 exp/sin/cos) gives the derivative times
    the tangent at every element (their jvp took the first element of each once)."""
    values = np.array([0.5, -1.25, 3.0, 0.0], dtype)
    tangent = np.array([1.0, 2.0, -0.5, 3.0], dtype)
    with mx.stream(mx.cpu):
        _, (out,) = mx.jvp(getattr(xp, name), [mlx_of(values)], [mlx_of(tangent)])
        grad = mx.grad(lambda t: mx.sum(getattr(xp, name)(t)))(mlx_of(values))
    rtol = 1e-6 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(host(out), derivative(values) * tangent, rtol=rtol)
    np.testing.assert_allclose(host(grad), derivative(values), rtol=rtol)


def test_grad_argnums_unused_and_errors() -> None:
    a, b = mx.array([1.0, 2.0]), mx.array([3.0, 4.0])
    value, (ga, gb) = ep.value_and_grad(lambda p, q: xp.sum(p * p), a, b, argnums=(0, 1))
    assert value.item() == 5.0
    same(ga, np.array([2.0, 4.0], np.float32))
    same(gb, np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="real floating"):
        ep.grad(lambda t: xp.sum(t), mx.array([1, 2]))
    with pytest.raises(ValueError, match="scalar"):
        ep.grad(lambda t: t * 2, a)
    assert ep.value_and_grad_fn(a, lambda t: xp.sum(t * t))(a)[0].item() == 5.0


# -- devices, convert, wrapper registration ---------------------------------------------------------
def test_devices(ns: ModuleType) -> None:
    x = ns.asarray([1.0, 2.0], device="cpu")
    assert ep.device(x) == "cpu"
    if ns is wxp:
        assert x.device == "cpu" and x.to_device("cpu").device == "cpu"
    assert ns.__array_namespace_info__().devices() == (ep.Device("cpu"),)
    assert ns.__array_namespace_info__().default_device() == "cpu"
    assert host(ep.to_device(x, "cpu")) is not None
    assert ns.zeros(2, device=mx.cpu).shape == (2,) and ns.ones(2, device=mx.Device(mx.cpu)).shape == (2,)
    if not mx.is_available(mx.gpu):
        for device in ("gpu", "mps", "cuda:0", "tpu:1"):
            with pytest.raises(ValueError, match=r"^eagerpy_xp\.mlx\.zeros: .*not available"):
                ns.zeros(2, device=device)
    with pytest.raises(ValueError, match="bogus"):
        ns.zeros(2, device="bogus")


@pytest.mark.parametrize("other", ["numpy", "torch", "jax", "tensorflow", "dask"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "float64",
                                   "complex64"])
def test_convert_both_ways(other: str, dtype: str) -> None:
    pytest.importorskip(other if other != "dask" else "dask.array", reason=f"{other} is not installed")
    if other == "jax":
        import jax

        context: Any = jax.enable_x64(True)
    else:
        import contextlib

        context = contextlib.nullcontext()
    values = sample((2, 3), dtype)
    with context:
        there = ep.convert(mlx_of(values), other)
        assert ep.get_namespace(there).__name__.endswith(other)
        back = ep.convert(there, "mlx")
        assert type(back) is mx.array
        same(back, values)
        wrapped = ep.convert(wxp.asarray(values), other)
        assert isinstance(wrapped, ep.Array) and wrapped.backend == other


def test_mlx_functions_take_an_array() -> None:
    """``register_wrapper``: MLX's one-array functions read ``__mlx_array__``."""
    a = wxp.asarray(np.array([0.0, 1.0], np.float32))
    same(mx.sin(a), np.sin(np.array([0.0, 1.0], np.float32)))
    same(mx.array(a), np.array([0.0, 1.0], np.float32))


def test_errors_keep_the_contract() -> None:
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.mlx\.sin: expected an MLX array, got numpy\.ndarray"):
        xp.sin(np.ones(2))
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.mlx\.sin: .*floating-point.*int32"):
        xp.sin(mx.array([1, 2]))
    with pytest.raises(TypeError, match="float16"):
        xp.sum(mx.array([1.0], dtype=mx.float16))
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.mlx\.add: .*cannot be broadcast") as info:
        xp.add(mx.ones((2, 3)), mx.ones(4))
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(IndexError, match=r"take: index 7 is out of bounds"):
        xp.take(mx.arange(3), mx.array([0, 7]))
    with pytest.raises(ValueError, match="axis 5 is out of range"):
        xp.sum(mx.ones((2, 3)), axis=5)


# -- helpers and the EagerPy layer ---------------------------------------------------------------
def test_helpers(ns: ModuleType) -> None:
    m = np.array([[1.0, -2.0, 0.0, 3.5], [1000.0, 999.0, -1000.0, 0.25]], np.float32)
    x = ns.asarray(m)
    e = np.exp(m - m.max(axis=1, keepdims=True))
    same(ns.softmax(x), e / e.sum(axis=1, keepdims=True), rtol=1e-6)
    same(ns.logsumexp(x, axis=1), np.log(e.sum(axis=1)) + m.max(axis=1), rtol=1e-6)
    same(ns.norms.l1(x, axis=1), np.abs(m).sum(axis=1))
    same(ns.norms.linf(x), np.float32(1000.0))
    labels = ns.asarray([3, 0])
    same(ns.crossentropy(x, labels), np.log(e.sum(axis=1)) + m.max(axis=1) - m[[0, 1], [3, 0]],
         rtol=1e-6)  # fmt: skip
    values, indices = ns.topk(x, 2)
    same(values, -np.sort(-m, axis=1)[:, :2])
    same(indices, np.argsort(-m, axis=1, kind="stable")[:, :2])
    same(ns.onehot_like(x, labels, value=2.0), np.array([[0, 0, 0, 2], [2, 0, 0, 0]], np.float32))


def test_eagerpy_layer_takes_mlx_arrays() -> None:
    import eagerpy_xp.eagerpy as eep

    t = eep.astensor(mx.array([[1.0, 2.0], [3.0, 4.0]]))
    assert type(t).__name__ == "MLXTensor"
    same(t.square().sum(axis=0).raw, np.array([10.0, 20.0], np.float32))
    value, g = eep.value_and_grad(lambda s: s.square().sum(), t)
    assert value.item() == 30.0
    same(g.raw, np.array([[2.0, 4.0], [6.0, 8.0]], np.float32))
    assert t.uniform((3,)).shape == (3,) and t.normal((2, 2)).dtype == mx.float32
    same(t.index_update(eep.index[0, 1], 9.0).raw, np.array([[1.0, 9.0], [3.0, 4.0]], np.float32))


# -- the compile and vectorize hooks ----------------------------------------------------------------
def _model(x: Any, w: Any, k: int = 2) -> dict[str, Any]:
    xp_ = ep.namespace(x, w)
    return {"y": xp_.tanh(xp_.matmul(x, w)) * k, "rest": [xp_.sum(x), "tag", k]}


@pytest.mark.parametrize("flavour", ["native", "wrapped"])
def test_compile_hook_matches_eager(flavour: str) -> None:
    traces: list[int] = []

    def counted(x: Any, w: Any, k: int = 2) -> Any:
        traces.append(1)
        return _model(x, w, k)

    compiled = BACKEND.compile(counted, {})
    wrap = wxp.asarray if flavour == "wrapped" else mlx_of
    x, w = wrap(RNG.normal(size=(4, 3)).astype(np.float32)), wrap(np.eye(3, dtype=np.float32))
    for k in (2, 2, 3):
        got, want = compiled(x, w, k=k), _model(x, w, k=k)
        assert type(got["y"]) is type(x) and type(got["rest"][0]) is type(x)
        assert got["rest"][1:] == ["tag", k]
        same(got["y"], host(want["y"]), rtol=1e-6)
    assert len(traces) <= 2 + 1  # traced again for the new Python value only (+1 eager below)
    mixed = compiled(wxp.asarray(host(x)), mlx_of(host(w)))  # an Array among the arguments
    assert type(mixed["y"]) is ep.Array
    shapeless = BACKEND.compile(lambda a: xp.sum(a * a), {"shapeless": True})
    assert host(shapeless(mx.ones(3))).item() == 3.0 and host(shapeless(mx.ones(5))).item() == 5.0
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.mlx\.compile: unknown option 'jit'"):
        BACKEND.compile(_model, {"jit": True})


@pytest.mark.parametrize("flavour", ["native", "wrapped"])
def test_vectorize_hook_matches_a_loop(flavour: str) -> None:
    wrap = wxp.asarray if flavour == "wrapped" else mlx_of
    xs, w = RNG.normal(size=(5, 3)).astype(np.float32), RNG.normal(size=(3,)).astype(np.float32)

    def loss(weights: Any, example: Any) -> Any:
        xp_ = ep.namespace(weights, example)
        return xp_.sum(xp_.tanh(weights * example) ** 2)

    per_example = BACKEND.vectorize(lambda weights, example: ep.grad(loss, weights, example),
                                    (None, 0), 0)  # fmt: skip
    assert per_example is not None
    got = per_example(wrap(w), wrap(xs))
    assert type(got) is type(wrap(w))
    loop = np.stack([host(ep.grad(loss, mlx_of(w), mlx_of(row))) for row in xs])
    same(got, loop, rtol=1e-6)
    batched = BACKEND.vectorize(lambda a: (ep.namespace(a).sum(a), a * 2), 0, 0)
    assert batched is not None
    total, doubled = batched(wrap(xs))
    same(total, xs.sum(axis=1), rtol=1e-6)
    same(doubled, xs * 2)
    assert type(total) is type(wrap(xs))
    compiled = BACKEND.compile(per_example, {})  # the compiler over the vectorizer
    same(compiled(wrap(w), wrap(xs)), loop, rtol=1e-6)
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.mlx\.vmap: in_axes \(0,\) has 1 entries"):
        BACKEND.vectorize(loss, (0,), 0)(wrap(w), wrap(xs))
    with pytest.raises(TypeError, match=r"^eagerpy_xp\.mlx\.vmap: in_axes"):
        BACKEND.vectorize(loss, (0, 1.5), 0)
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.mlx\.vmap: "):
        BACKEND.vectorize(loss, (0, 0), 0)(mx.ones((3, 2)), mx.ones((4, 2)))


#: Calls whose result's shape depends on the values of ``a`` (float32, shape (3, 4)),
#: and the function their refusal names.
DATA_DEPENDENT_CALLS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "nonzero": ("nonzero", lambda a: wxp.nonzero(a > 0)[0]),
    "unique_values": ("unique_values", lambda a: wxp.unique_values(a)),
    "unique_all": ("unique_all", lambda a: wxp.unique_all(a).counts),
    "unique_counts": ("unique_counts", lambda a: wxp.unique_counts(a).values),
    "unique_inverse": ("unique_inverse", lambda a: wxp.unique_inverse(a).inverse_indices),
    "a[mask]": ("Array.__getitem__", lambda a: a[a > 0]),
    "a[mask, 0]": ("Array.__getitem__", lambda a: a[a[:, 0] > 0, 0]),
    "a[0-d mask]": ("Array.__getitem__", lambda a: a[a[0, 0] > 0]),
    "a[mask] = array": ("Array.__setitem__", lambda a: _write(a, a > 0, a[0, :1])),
    "a[mask, :] = 1": ("Array.__setitem__", lambda a: _write(a, (a[:, 0] > 0, slice(None)), 1.0)),
    "repeat by an array": ("repeat", lambda a: wxp.repeat(a, wxp.astype(a[0] > 0, wxp.int64)
                                                          + 1, axis=1)),
}  # fmt: skip


def _write(a: Any, key: Any, value: Any) -> Any:
    b = wxp.asarray(a, copy=True)
    b[key] = value
    return b


def _transformed(how: str, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if how == "mx.compile":
        return BACKEND.compile(fn, {})
    if how == "mx.vmap":
        return lambda a: ep.vmap(fn)(wxp.stack([a, a]))
    return lambda a: ep.jit(ep.vmap(fn))(wxp.stack([a, a]))


@pytest.mark.parametrize("how", ["mx.compile", "mx.vmap", "mx.compile(mx.vmap)"])
@pytest.mark.parametrize("name", sorted(DATA_DEPENDENT_CALLS))
def test_data_dependent_shapes_are_refused_under_transformations(how: str, name: str) -> None:
    """The contract's `NotImplementedError`, naming the function and saying why; nothing
    left behind (the next eager call works, the vectorize hook's state is reset)."""
    function, call = DATA_DEPENDENT_CALLS[name]
    a = wxp.asarray(RNG.normal(size=(3, 4)).astype(np.float32))
    with pytest.raises(NotImplementedError, match=rf"^eagerpy_xp\.mlx\.{re.escape(function)}: "
                       r".*values.*mx\.compile and mx\.vmap do not know while they trace.*call "
                       r"it outside the transformation") as caught:  # fmt: skip
        _transformed(how, call)(a)
    assert "Attempting to eval" in str(caught.value.__cause__)  # MLX's own refusal, kept
    assert not mapping()
    call(a)  # eagerly: fine


def test_values_made_inside_a_transformation_are_read() -> None:
    """An array made from constants inside mx.compile or mx.vmap has values: a mask of it
    selects as eagerly (the same positions for every call and example)."""
    def select(a: Any) -> Any:
        keep = wxp.asarray(np.array([True, False, True, True]))
        return a[:, keep] * wxp.sum(wxp.asarray(np.array([1.0, 2.0], np.float32))[keep[:2]])

    a = wxp.asarray(RNG.normal(size=(3, 4)).astype(np.float32))
    want = host(select(a))
    same(BACKEND.compile(select, {})(a), want)
    same(ep.vmap(select)(wxp.stack([a, a * 2])), np.stack([want, want * 2]))


def test_other_evaluations_under_transformations_keep_the_contract() -> None:
    """A function that needs a value raises the contract's `NotImplementedError` (from
    MLX's refusal, translated); index checks are left to MLX; lists of arrays stack lazily."""
    filled = BACKEND.compile(lambda a: xp.full((2,), a[0]), {})
    with pytest.raises(NotImplementedError, match=r"^eagerpy_xp\.mlx\.full: .*mx\.compile"):
        filled(mx.array([1.5, 2.0]))
    taken = BACKEND.compile(lambda a, i: xp.take(a, i), {})
    same(taken(mx.array([1.0, 2.0, 3.0]), mx.array([2, 0])), np.array([3.0, 1.0], np.float32))
    stacked = BACKEND.compile(lambda a: xp.asarray([a, a * 2, (a + 1,)[0]]), {})
    same(stacked(mx.array([1.0, 2.0])), np.array([[1, 2], [2, 4], [2, 3]], np.float32))
    same(xp.asarray([mx.array(1, dtype=mx.int8), mx.array(2, dtype=mx.int8)]),
         np.array([1, 2], np.int8))  # fmt: skip
    same(xp.asarray([mx.array(1), mx.array(2.5)]), np.array([1, 2.5]))  # mixed: through NumPy


@pytest.mark.parametrize("how", ["mx.compile", "mx.vmap"])
def test_masked_write_of_one_value_works_under_transformations(how: str) -> None:
    """``a[mask] = v`` with a 0-d value (a Python scalar or a 0-d array) is one where: no
    data-dependent shape, so both transformations take it, masks of the leading axes too."""
    def write(a: Any) -> Any:
        b = wxp.asarray(a, copy=True)
        b[b < 0.0] = -1.0
        b[b[:, 0] > 0.5] = wxp.asarray(np.float32(7.0))
        b[wxp.asarray(np.array([[True], [False], [True]]))[:, 0]] += 0.5
        return b

    values = RNG.normal(size=(3, 4)).astype(np.float32)
    want = values.copy()
    want[want < 0] = -1.0
    want[want[:, 0] > 0.5] = 7.0
    want[[0, 2]] += 0.5
    same(write(wxp.asarray(values)), want)
    if how == "mx.compile":
        same(BACKEND.compile(write, {})(wxp.asarray(values)), want)
    else:
        second = values[::-1].copy()
        other = second.copy()
        other[other < 0] = -1.0
        other[other[:, 0] > 0.5] = 7.0
        other[[0, 2]] += 0.5
        same(ep.vmap(write)(wxp.asarray(np.stack([values, second]))), np.stack([want, other]))


# -- mx.vmap: the batching rules MLX lacks or gets wrong --------------------------------------
def _loop(fn: Callable[..., Any], axes: tuple[int | None, ...], args: list[Any]) -> list[Any]:
    n = next(a.shape[0] for a, axis in zip(args, axes) if axis is not None)
    return [fn(*(a[k] if axis is not None else a for a, axis in zip(args, axes)))
            for k in range(n)]  # fmt: skip


def _mapped_like_a_loop(fn: Callable[..., Any], axes: tuple[int | None, ...], args: list[Any],
                        rtol: float | None = None) -> None:  # fmt: skip
    """``ep.vmap(fn, in_axes=axes)`` over axis 0 of the mapped ``args`` equals a loop."""
    got = ep.vmap(fn, in_axes=axes)(*args)
    loop = _loop(fn, axes, args)
    parts = got if isinstance(got, tuple) else (got,)
    for k, part in enumerate(parts):
        want = np.stack([host(r[k] if isinstance(r, tuple) else r) for r in loop])
        same(part, want, rtol)


MIXED = {
    "bitwise_and": lambda a, b: ep.namespace(a).bitwise_and(a, b),
    "bitwise_or": lambda a, b: ep.namespace(a).bitwise_or(b, a),
    "bitwise_xor": lambda a, b: ep.namespace(a).bitwise_xor(a, b),
    "bitwise_left_shift": lambda a, b: ep.namespace(a).bitwise_left_shift(b, a % 4),
    "bitwise_right_shift": lambda a, b: ep.namespace(a).bitwise_right_shift(b, a % 4),
    "not_equal": lambda a, b: ep.namespace(a).not_equal(b, a),
    "logical_xor": lambda a, b: ep.namespace(a).logical_xor(b > 1, a > 1),
    "scalar first": lambda a, b: (ep.namespace(a).bitwise_and(3, a), ep.namespace(a).not_equal(
        2, a), ep.namespace(a).bitwise_left_shift(1, a % 4)),
    "operators": lambda a, b: (a & b, b | a, b ^ a, b << (a % 4), b >> (a % 4), b != a, 3 & a,
                               (b > 1) ^ (a > 1)),
    "broadcasting": lambda a, b: ep.namespace(a).bitwise_xor(a[:, None], b[None, :2]),
}  # fmt: skip


@pytest.mark.parametrize("flavour", ["native", "wrapped"])
@pytest.mark.parametrize("name", sorted(MIXED))
def test_mapped_and_unmapped_operands(name: str, flavour: str) -> None:
    """MLX 0.32's batching rules for ``not_equal`` and the bitwise functions mishandle an
    unmapped operand (wrong shapes; the bitwise kernels read past it, which can crash
    the process): under `eagerpy_xp.vmap` these functions broadcast it first."""
    if name == "operators" and flavour == "native":
        pytest.skip("a native MLX array's operators are MLX's own")
    wrap = wxp.asarray if flavour == "wrapped" else mlx_of
    a = wrap(RNG.integers(-20, 20, (4, 3)).astype(np.int32))
    b = wrap(RNG.integers(-20, 20, (3,)).astype(np.int32))
    _mapped_like_a_loop(MIXED[name], (0, None), [a, b])
    _mapped_like_a_loop(lambda u, v: MIXED[name](v, u), (None, 0), [b, a])
    _mapped_like_a_loop(MIXED[name], (0, 0), [a, a[::-1] * 3])
    pairs = wrap(RNG.integers(-20, 20, (2, 3)).astype(np.int32))  # mapped by the inner vmap only
    nested = ep.vmap(lambda row: ep.vmap(MIXED[name], in_axes=(None, 0))(row, pairs))(a)
    first = nested[0] if isinstance(nested, tuple) else nested
    want = [[MIXED[name](a[i], pairs[j]) for j in range(2)] for i in range(4)]
    same(first, np.stack([np.stack([host(w[0] if isinstance(w, tuple) else w) for w in row])
                          for row in want]))  # fmt: skip


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_linalg_without_batching_rules(dtype: str) -> None:
    """MLX's LU and QR have no batching rule: det, solve, inv (complex) and qr take other
    forms while `eagerpy_xp.vmap` traces (from slogdet, inv, Householder reflections)."""
    base = RNG.normal(size=(3, 4, 4)) + 4 * np.eye(4)
    if dtype == "complex64":
        base = base + 1j * RNG.normal(size=(3, 4, 4))
    s = wxp.asarray(base.astype(dtype))
    rhs = wxp.asarray(RNG.normal(size=(4, 2)).astype(dtype))
    rtol = 1e-4 if dtype != "float64" else 1e-10
    for fn, axes, args in [
        (lambda m: wxp.linalg.det(m), (0,), [s]),
        (lambda m, r: wxp.linalg.solve(m, r), (0, None), [s, rhs]),
        (lambda m, r: wxp.linalg.solve(m, r[:, 0]), (None, 0), [s[0], wxp.stack([rhs, rhs * 2])]),
        (lambda m: wxp.linalg.inv(m), (0,), [s]),
        (lambda m: wxp.linalg.qr(m), (0,), [s]),
        (lambda m: wxp.linalg.qr(m[:, :3], mode="complete"), (0,), [s]),
        (lambda m: wxp.linalg.qr(m[:3], mode="reduced"), (0,), [s]),
        (lambda m: wxp.linalg.matrix_power(m, -2), (0,), [s]),
        (lambda m: wxp.linalg.slogdet(m), (0,), [s]),
        (lambda m: wxp.linalg.det(m[:3, :3]), (0,), [s]),  # MLX's closed form up to 3 x 3
        (lambda m: wxp.linalg.det(m[::-1]), (0,), [s]),  # a row swap: the sign
    ]:  # fmt: skip
        _mapped_like_a_loop(fn, axes, args, rtol)
    special = np.zeros((3, 4, 4), dtype)
    special[1] = np.triu(base[1])  # columns zero below the diagonal: no reflection there
    special[2] = np.diag([2.0, -3.0, 0.5, -1.0])
    _mapped_like_a_loop(lambda m: (wxp.linalg.det(m), wxp.linalg.slogdet(m).sign,
                                   wxp.linalg.qr(m).R), (0,), [wxp.asarray(special)],
                        rtol)  # fmt: skip (R as LAPACK's: no reflection where none is due)


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_and_isin_over_mapped_sorted_values(side: str) -> None:
    """MLX cannot map its ``searchsorted`` over the sorted values: under `eagerpy_xp.vmap`
    the insertion points are counted (NaN after every number, equal to NaN)."""
    nan = math.nan
    sorted_ = wxp.asarray(np.array([[-1.0, 0.0, 0.0, 2.0, nan], [-3.0, -0.0, 1.0, nan, nan]],
                                   np.float32))  # fmt: skip
    values = wxp.asarray(np.array([nan, -0.0, 0.0, 2.0, -5.0, 9.0, 1.0], np.float32))
    _mapped_like_a_loop(lambda a, v: wxp.searchsorted(a, v, side=side), (0, None),
                        [sorted_, values])  # fmt: skip
    _mapped_like_a_loop(lambda a, v: wxp.searchsorted(a, v, side=side), (0, 0),
                        [sorted_, wxp.stack([values, -values])])  # fmt: skip
    _mapped_like_a_loop(lambda a, v: wxp.searchsorted(a, v[0], side=side), (0, None),
                        [sorted_, values])  # fmt: skip
    ints = wxp.asarray(np.array([[1, 3, 3, 7], [0, 0, 2, 9]], np.int64))
    _mapped_like_a_loop(lambda a, v: wxp.searchsorted(a, v, side=side), (0, None),
                        [ints, wxp.asarray(np.array([0, 3, 7, 10], np.int64))])  # fmt: skip
    _mapped_like_a_loop(lambda a, v: (wxp.isin(v, a), wxp.isin(v, a, invert=True)), (0, None),
                        [ints, wxp.asarray(np.array([0, 3, 7, 10], np.int64))])  # fmt: skip


def test_setitem_of_an_unmapped_value() -> None:
    """``mx.vmap`` writes a value that is not mapped into the first example only (MLX
    0.32): the wrapped flavour's setitem maps it first, for every key kind."""
    batch = wxp.asarray(RNG.normal(size=(3, 4, 5)).astype(np.float32))
    row = wxp.asarray(np.arange(5, dtype=np.float32))

    def write(a: Any, r: Any) -> Any:
        b = wxp.asarray(a, copy=True)
        b[..., 0] = 0.0
        b[1] = r
        b[2, 1:4] = r[:3]
        b[wxp.asarray(np.array([0, 3]))] = -r
        b[:, ::-2] = 2.5
        b[None, 0, 0] = r[1]
        return b

    _mapped_like_a_loop(write, (0, None), [batch, row])
    _mapped_like_a_loop(write, (0, 0), [batch, wxp.stack([row, row * 2, row * 3])])
    _mapped_like_a_loop(lambda a, r: ep.index_update(a, (slice(None), 1), r[0]), (0, None),
                        [batch, row])  # fmt: skip


#: Inputs for the sweep below: the conformance area's (complex64: MLX has no complex128).
_SWEEP_INPUTS = {k: (v.astype(np.complex64) if v.dtype == np.complex128 else v)
                 for k, v in INPUTS.items()}  # fmt: skip


@pytest.mark.parametrize("mapped", sorted(_SWEEP_INPUTS))
def test_every_case_with_one_argument_mapped(mapped: str) -> None:
    """Every case of the conformance area's ``compiled`` sweep (every function of the
    standard, the operators, indexing and the helpers) under `eagerpy_xp.vmap` with only
    ``mapped`` mapped, the other arguments shared (wrapped flavour: the native flavour's
    operators are MLX's own): equal to a loop.  Where one argument is mapped and another
    is not, MLX's batching rules meet operands of two kinds."""
    names = list(_SWEEP_INPUTS)
    axes = tuple(0 if n == mapped else None for n in names)
    second = _SWEEP_INPUTS[mapped] * (1.5 if _SWEEP_INPUTS[mapped].dtype.kind in "fc" else 1)
    if _SWEEP_INPUTS[mapped].dtype.kind in "iub":
        second = _SWEEP_INPUTS[mapped][::-1].copy() if mapped != "m" else ~_SWEEP_INPUTS[mapped]
    args = [wxp.asarray(np.stack([_SWEEP_INPUTS[n], second]) if n == mapped
                        else _SWEEP_INPUTS[n]) for n in names]  # fmt: skip
    wrong = []
    for case, fn in CASES.items():
        if case in NOT_ARRAYS or case in DATA_DEPENDENT:
            continue
        try:
            loop = [flatten(r) for r in _loop(fn, axes, args)]
        except Exception:  # eagerly refused: a shape the case does not fit
            continue
        try:
            got = flatten(ep.vmap(fn, in_axes=axes)(*args))
        except Exception as exc:  # recorded, reported below
            wrong.append(f"{case}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        for k, value in enumerate(got):
            want = np.stack([host(r[k]) for r in loop])
            have = host(value)
            if have.shape != want.shape or have.dtype != want.dtype or not np.allclose(
                    have, want, rtol=1e-5, atol=1e-6, equal_nan=True):  # fmt: skip
                wrong.append(f"{case}[{k}]: {have.dtype}{have.shape} != {want.dtype}{want.shape}")
    assert not wrong, "\n".join(wrong)


@pytest.fixture(autouse=True)
def _no_leftover_default_device() -> Iterator[None]:
    before = mx.default_device()
    yield
    assert mx.default_device() == before


def test_namespaces_import_mlx_only_on_demand() -> None:
    import subprocess
    import sys

    code = ("import sys, eagerpy_xp; assert 'mlx' not in sys.modules; "
            "import eagerpy_xp.native.numpy; assert 'mlx' not in sys.modules")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True)
    assert importlib.import_module("eagerpy_xp.native.mlx").__backend__ is BACKEND


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_smallest_int_divided_by_minus_one_does_not_kill_the_process(dtype: str) -> None:
    """MLX's CPU kernel traps (SIGFPE) on int32/int64 ``INT_MIN // -1`` and ``% -1``;
    the backend negates instead, wrapping as NumPy does, in functions and operators."""
    import eagerpy_xp.mlx as wx

    low = np.iinfo(dtype).min
    a = np.array([low, 7, -7, 5], dtype=dtype)
    b = np.array([-1, -1, 2, -1], dtype=dtype)
    with np.errstate(over="ignore"):
        want_div, want_rem = a // b, a % b
    x, y = wx.asarray(a), wx.asarray(b)
    for got, want in ((wx.floor_divide(x, y), want_div), (x // y, want_div),
                      (wx.remainder(x, y), want_rem), (x % y, want_rem),
                      (x // -1, -a), (x % -1, np.zeros_like(a))):  # fmt: skip
        assert np.array_equal(np.asarray(got), want), (got, want)
