"""The TensorFlow backend, both flavours, against array_api_strict (and the spec) on chosen
inputs covering every dtype and the special values."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow", reason="the TensorFlow backend needs TensorFlow")
strict = pytest.importorskip("array_api_strict", reason="array_api_strict is the reference")

import eagerpy_xp as ep  # noqa: E402
import eagerpy_xp.native.tensorflow as xn  # noqa: E402
import eagerpy_xp.tensorflow as xw  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy reference warnings

FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
REAL = INTS + FLOATS
NUMERIC = REAL + COMPLEX
ALL = ("bool", *NUMERIC)

NAN, INF = math.nan, math.inf
FLOAT_VALUES = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0,
                1e-30, 1e30, 0.25, 10.0]  # fmt: skip


def values_for(dtype: str) -> np.ndarray:
    """Interesting values of a dtype: special floats, integer extremes."""
    if dtype == "bool":
        return np.array([True, False, True])
    if dtype in FLOATS:
        return np.array(FLOAT_VALUES, dtype=dtype)
    if dtype in COMPLEX:
        re = np.array([0.0, -0.0, 1.0, -2.5, INF, NAN, 0.5, 3.0])
        im = np.array([0.0, 1.0, -0.0, 2.0, 1.0, 0.0, -INF, -4.0])
        return (re + 1j * im).astype(dtype)
    info = np.iinfo(dtype)
    base = [0, 1, 2, 3, 5, 7, 100, info.max, info.max - 1, info.min]
    if dtype in SIGNED:
        base += [-1, -2, -7, -100, info.min + 1]
    return np.array(base).astype(dtype)


def t(values: Any, dtype: str | None = None) -> Any:
    return tf.constant(np.asarray(values, dtype=dtype))


def s(values: Any, dtype: str | None = None) -> Any:
    a = np.asarray(values, dtype=dtype)
    return strict.asarray(a, dtype=getattr(strict, a.dtype.name))


def host(x: Any) -> np.ndarray:
    if isinstance(x, ep.Array):
        x = x.raw
    if hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return np.asarray(x._array) if hasattr(x, "_array") else np.asarray(x)


def same(actual: Any, expected: Any, rtol: float | None = None, zeros: bool = False,
         atol: float = 0.0) -> None:  # fmt: skip
    """Values equal (NaN == NaN), dtypes equal, within a dtype-dependent tolerance."""
    a, e = host(actual), host(expected)
    assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape}"
    if a.dtype.kind in "fc":
        tol = rtol if rtol is not None else (2e-6 if a.dtype in (np.float32, np.complex64)
                                             else 1e-12)  # fmt: skip
        np.testing.assert_allclose(a, e, rtol=tol, atol=atol, equal_nan=True)
        if zeros:
            z = (e == 0) & (a == 0)
            np.testing.assert_array_equal(np.signbit(a.real[z]), np.signbit(e.real[z]))
    else:
        np.testing.assert_array_equal(a, e)


def both(fn: str, *args: Any, rtol: float | None = None, zeros: bool = False,
         atol: float = 0.0, **kwargs: Any) -> None:  # fmt: skip
    """Call ``fn`` on TF (native and wrapped) and on array_api_strict; compare results."""

    def convert(ns: str, a: Any) -> Any:
        if isinstance(a, np.ndarray):
            return {"tf": t, "strict": s, "wrapped": lambda v: ep.astensor(t(v))}[ns](a)
        if isinstance(a, list):
            return [convert(ns, v) for v in a]
        return a

    def call(ns: Any, name: str, conv: str) -> Any:
        f = ns
        for part in fn.split("."):
            f = getattr(f, part)
        return f(
            *[convert(conv, a) for a in args], **{k: convert(conv, v) for k, v in kwargs.items()}
        )

    expected = call(strict, fn, "strict")
    native = call(xn, fn, "tf")
    wrapped = call(xw, fn, "wrapped")
    if isinstance(expected, tuple):
        for n, w, e in zip(native, wrapped, expected):
            same(n, e, rtol, zeros, atol)
            same(w, e, rtol, zeros, atol)
    else:
        assert isinstance(wrapped, ep.Array)
        same(native, expected, rtol, zeros, atol)
        same(wrapped, expected, rtol, zeros, atol)


# -- namespace, detection, dtypes ----------------------------------------------------------


def test_namespace_and_detection() -> None:
    x = tf.constant([1.0])
    v = tf.Variable([1.0])
    assert ep.namespace(x) is xn and ep.namespace(v) is xn
    assert ep.namespace(ep.astensor(x)) is xw
    assert ep.astensor(x).__array_namespace__() is xw
    assert xn.float32 is tf.float32 and xw.uint64 is tf.uint64
    assert xn.__array_api_version__ == "2025.12"
    info = xn.__array_namespace_info__()
    assert set(info.dtypes()) == set(ALL)
    assert info.default_dtypes()["real floating"] == tf.float64
    assert info.devices()[0] == "cpu" and info.default_device() == "cpu"

    @tf.function
    def detect(a: Any) -> Any:
        assert ep.namespace(a) is xn  # symbolic tensors are TensorFlow arrays too
        return xn.sum(a)

    same(detect(t([1.0, 2.0])), np.float64(3.0))


def test_every_function_exists_and_is_not_delegated() -> None:
    from eagerpy_xp import _spec

    for name in _spec.FUNCTIONS:
        assert callable(getattr(xn, name)), name
    for name in _spec.LINALG:
        assert callable(getattr(xn.linalg, name)), name
    for name in _spec.FFT:
        assert callable(getattr(xn.fft, name)), name
    assert xn.__backend__._f is None  # no NumPy-like fallback: checked when built


def test_data_type_functions() -> None:
    assert xn.result_type(tf.int8, tf.uint8) == tf.int16
    assert xn.result_type(t([1], "uint16"), 1) == tf.uint16
    assert xn.can_cast(tf.int8, tf.int64) and not xn.can_cast(tf.int64, tf.int8)
    assert xn.finfo(tf.complex64).dtype == tf.float32 and xn.iinfo(tf.uint64).max == 2**64 - 1
    assert xn.isdtype(tf.uint32, "unsigned integer") and not xn.isdtype(tf.float32, "integral")
    with pytest.raises(TypeError, match="tensorflow"):
        xn.result_type(tf.int64, tf.uint64)


@pytest.mark.parametrize("dtype", ALL)
def test_astype_and_asarray(dtype: str) -> None:
    v = values_for(dtype)
    x = xn.asarray(v.tolist(), dtype=getattr(xn, dtype))
    same(x, v)
    same(xn.astype(t(v), tf.complex128), np.asarray(v).astype("complex128"))
    if dtype not in COMPLEX:
        same(xn.astype(t([0, 1, 2], "int8"), getattr(xn, dtype)),
             np.array([0, 1, 2]).astype(dtype))  # fmt: skip


def test_asarray_defaults_and_copy() -> None:
    assert xn.asarray([1.0, 2.0]).dtype == tf.float64
    assert xn.asarray([1, 2]).dtype == tf.int64
    assert xn.asarray(True).dtype == tf.bool
    assert xn.asarray([1j]).dtype == tf.complex128
    same(xn.asarray([t(1.0, "float32"), 2.0]), np.array([1.0, 2.0], "float32"))
    same(xn.asarray(memoryview(np.array([1, 2], "int16"))), np.array([1, 2], "int16"))
    x = t([1.0, 2.0])
    assert xn.asarray(x, copy=False) is x
    with pytest.raises(ValueError, match="asarray"):
        xn.asarray([1.0], copy=False)
    with pytest.raises(ValueError, match="asarray"):
        xn.asarray(x, dtype=tf.float32, copy=False)
    with pytest.raises(OverflowError, match="uint8"):
        xn.asarray(300, dtype=tf.uint8)
    with pytest.raises(TypeError, match="asarray"):
        xn.asarray(["a"])
    same(xn.asarray(tf.Variable([1, 2], dtype=tf.int16)), np.array([1, 2], "int16"))


# -- creation -----------------------------------------------------------------------------


def test_creation_functions() -> None:
    both("arange", 5)
    both("arange", 1, 10, 3)
    both("arange", 10, 1, -2)
    both("arange", 0.0, 1.0, 0.1)
    same(xn.arange(5, dtype=tf.uint16), np.arange(5, dtype="uint16"))
    both("arange", 3, 3)
    both("linspace", 0.0, 1.0, 5)
    both("linspace", 0.0, 1.0, 4, endpoint=False)
    both("linspace", 1.0, 2.0, 0)
    both("eye", 3, 4, k=1)
    both("eye", 3, k=-2)
    both("eye", 2, 3, k=5)
    same(xn.eye(3, dtype=tf.uint16), np.eye(3, dtype="uint16"))
    both("zeros", (2, 3))
    same(xn.ones((2,), dtype=tf.bool), np.ones(2, bool))
    same(xw.zeros((), dtype=tf.bool), np.zeros((), bool))
    same(xn.empty((0, 2), dtype=tf.uint64), np.zeros((0, 2), "uint64"))
    both("ones", 4)
    both("full", (2,), 7)
    both("full", (2,), 1.5)
    both("full", (2,), True)
    same(xn.full((2,), 2**64 - 1, dtype=tf.uint64), np.full(2, 2**64 - 1, "uint64"))
    x = np.arange(12.0).reshape(3, 4)
    both("zeros_like", x)
    both("ones_like", x)
    both("full_like", x, 3.0)
    same(xn.full_like(t(x), 2, dtype=tf.int8), np.full((3, 4), 2, "int8"))
    assert xn.empty((2, 2)).shape == (2, 2) and xn.empty_like(t(x)).dtype == tf.float64
    for k in (-5, -1, 0, 2, 7):
        both("tril", x, k=k)
        both("triu", x, k=k)
    both("tril", np.arange(24).reshape(2, 3, 4), k=1)
    grids = xn.meshgrid(t([1, 2, 3]), t([4, 5]), indexing="xy")
    expected = np.meshgrid([1, 2, 3], [4, 5], indexing="xy")
    for g, e in zip(grids, expected):
        same(g, e)
    grids = xn.meshgrid(t([1, 2, 3]), t([4, 5]), indexing="ij")
    assert grids[0].shape == (3, 2)
    zs = np.array([complex(0.0, -0.0), 1j])
    grids = xn.meshgrid(t(zs), t(zs[:1]))
    assert np.signbit(host(grids[0]).imag[0, 0])  # signed zeros survive
    with pytest.raises(ValueError, match="meshgrid"):
        xn.meshgrid(t([1]), indexing="bad")


def test_dlpack_both_ways() -> None:
    a = np.arange(6.0).reshape(2, 3)
    same(xn.from_dlpack(a), a)
    same(xn.from_dlpack(a, copy=True), a)
    x = t(a)
    same(np.from_dlpack(ep.astensor(x)), a)
    assert ep.astensor(x).__dlpack_device__() == (1, 0)
    assert xn.from_dlpack(x) is x
    for n in range(2, 6):  # slices: TensorFlow kernels abort on unaligned shared buffers
        v = np.arange(8.0)[n:]
        shared = xn.from_dlpack(v)
        copied = xn.from_dlpack(v, copy=True)
        same(tf.raw_ops.DeepCopy(x=shared), v)  # a kernel that checks alignment
        v[0] = -1.0
        assert host(copied)[0] == n
        if v.ctypes.data % 64:
            with pytest.raises(ValueError, match="aligned"):
                xn.from_dlpack(v, copy=False)


def test_devices() -> None:
    x = t([1.0])
    assert ep.astensor(x).device == ep.Device("cpu")
    assert xn.__backend__.native_device("cpu") == "/CPU:0"
    assert xn.__backend__.native_device(ep.Device("cpu")) == "/CPU:0"
    assert xn.__backend__._parse_tf_device("/job:localhost/device:GPU:1", "d") == "cuda:1"
    same(xn.asarray([1.0], device="cpu"), np.array([1.0]))
    same(xn.astype(x, tf.float32, device=ep.Device("cpu")), np.array([1.0], "float32"))
    same(ep.astensor(x).to_device("cpu"), np.array([1.0]))
    with pytest.raises(ValueError, match=r"not available|unsupported"):
        xn.zeros(2, device="tpu:3")


# -- element-wise ---------------------------------------------------------------------------

UNARY_FLOAT = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
               "expm1", "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan", "tanh",
               "reciprocal")  # fmt: skip
UNARY_EXACT = ("abs", "negative", "positive", "square", "sign", "ceil", "floor", "trunc",
               "round", "isfinite", "isinf", "isnan", "signbit")  # fmt: skip


@pytest.mark.parametrize("fn", UNARY_FLOAT)
@pytest.mark.parametrize("dtype", FLOATS + COMPLEX)
def test_unary_float_functions(fn: str, dtype: str) -> None:
    v = values_for(dtype)
    if dtype in COMPLEX and fn == "expm1":
        v = v[np.isfinite(v)]  # NumPy deviates from the spec at infinities: tested below
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-10
    both(fn, v, rtol=rtol, zeros=dtype in FLOATS and fn not in ("cos", "cosh", "exp"))


@pytest.mark.parametrize("fn", UNARY_EXACT)
@pytest.mark.parametrize("dtype", REAL)
def test_unary_exact_functions(fn: str, dtype: str) -> None:
    v = values_for(dtype)
    if fn == "signbit" and dtype in INTS:  # the standard: real floating-point only
        with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.signbit: .*real floating"):
            xn.signbit(t(v))
        return
    both(fn, v, zeros=True)


@pytest.mark.parametrize("fn", ("abs", "negative", "positive", "square", "sign", "round",
                                "isfinite", "isinf", "isnan", "conj", "real", "imag", "sqrt",
                                "exp", "log"))  # fmt: skip
def test_complex_unary(fn: str) -> None:
    v = values_for("complex128")
    finite = v[np.isfinite(v)]
    both(fn, finite if fn in ("sqrt", "exp", "log", "sign") else v, rtol=1e-12)


def test_complex_special_cases() -> None:
    """A few of the spec's complex special cases that TensorFlow kernels must get right."""
    zero = t(np.array([0j, 0j, 1 + 1j]))
    same(xn.pow(zero, t(np.array([0j, 2 + 0j, 0j]))), np.array([1 + 0j, 0j, 1 + 0j]))
    same(xn.log2(t(np.array([0j]))), np.array([complex(-INF, 0.0)]))
    same(xn.expm1(t(np.array([complex(INF, 0.0)]))), np.array([complex(INF, 0.0)]))
    same(xn.log1p(t(np.array([complex(-1.0, 0.0)]))), np.array([complex(-INF, 0.0)]))
    root = host(xn.sqrt(t(np.array([complex(-INF, -0.0)]))))
    assert root.real == 0 and root.imag == -INF
    for dtype in ("complex64", "complex128"):  # the smallest normal numbers: no flush to 0
        tiny = float(np.finfo(dtype).tiny)
        z = np.array([tiny * 1j, -tiny * 1j, complex(tiny, tiny), complex(-tiny, 0.0),
                      complex(3 * tiny, -2 * tiny)], dtype=dtype)  # fmt: skip
        same(xn.sqrt(t(z)), np.sqrt(z.astype(np.clongdouble)).astype(dtype), rtol=4e-7)
    same(xn.divide(t(np.array([1 + 1j, 2j])), t(np.array([0j, complex(INF, 1.0)]))),
         np.array([1 + 1j, 2j]) / np.array([0j, complex(INF, 1.0)]))  # fmt: skip
    z = t(np.array([complex(NAN, 0.0), complex(INF, NAN), complex(0.0, INF)]))
    same(xn.isnan(z), np.array([True, True, False]))
    same(xn.isinf(z), np.array([False, True, True]))
    same(xn.isfinite(z), np.array([False, False, False]))
    same(xn.abs(t(np.array([complex(INF, NAN)]))), np.array([INF]))
    same(xn.sign(t(np.array([0j, 3 + 4j]))), np.array([0j, 0.6 + 0.8j]))
    same(xn.real(t(np.array([1.0, 2.0]))), np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.imag: .*complex"):
        xn.imag(t(np.array([1.0, 2.0], "float32")))  # the standard: complex input only


BINARY_NUMERIC = ("add", "subtract", "multiply", "equal", "not_equal", "less", "less_equal",
                  "greater", "greater_equal", "maximum", "minimum", "floor_divide",
                  "remainder")  # fmt: skip


def pairs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """A column and a row of values: broadcasting gives every pair."""
    v = values_for(dtype)
    return v[:, None], v[None, :]


@pytest.mark.parametrize("fn", BINARY_NUMERIC)
@pytest.mark.parametrize("dtype", REAL)
def test_binary_real(fn: str, dtype: str) -> None:
    a, b = pairs(dtype)
    if dtype in INTS and fn in ("floor_divide", "remainder"):
        b = np.where(b == 0, np.ones_like(b), b)  # division by zero: see its own test
        if dtype in SIGNED:
            b = np.where(b == -1, 2 * np.ones_like(b), b)  # MIN // -1: its own test
    if dtype in FLOATS and fn == "floor_divide":
        # NumPy (and strict) differ from the spec's floor(x1 / x2) for infinite operands
        fin = np.isfinite(a) & np.isfinite(b) & (b != 0)
        expected = np.floor_divide(a, b)
        actual = host(xn.floor_divide(t(a), t(b)))
        np.testing.assert_array_equal(actual[fin], expected[fin])
        with np.errstate(all="ignore"):
            spec = np.floor(a / b)
        np.testing.assert_array_equal(actual[~fin], np.broadcast_to(spec, actual.shape)[~fin])
        return
    both(fn, a, b, zeros=fn not in ("maximum", "minimum"))


@pytest.mark.parametrize("fn", ("add", "subtract", "multiply", "equal", "not_equal", "divide",
                                "pow"))  # fmt: skip
@pytest.mark.parametrize("dtype", COMPLEX)
def test_binary_complex(fn: str, dtype: str) -> None:
    v = values_for(dtype)
    v = v[np.isfinite(v)]
    # complex division and powers at zero/infinite operands are implementation-defined in
    # the spec (C99 Annex G recommended); those cases have their own test
    divisors = v[v != 0] if fn in ("divide", "pow") else v
    both(fn, v[:, None], divisors[None, :], rtol=1e-4 if dtype == "complex64" else 1e-9)


@pytest.mark.parametrize("fn", ("divide", "pow", "atan2", "hypot", "logaddexp", "copysign",
                                "nextafter"))  # fmt: skip
@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_float(fn: str, dtype: str) -> None:
    a, b = pairs(dtype)
    rtol = 1e-6 if dtype == "float32" else 1e-14
    if fn == "logaddexp":
        rtol = 1e-5 if dtype == "float32" else 1e-12
    # TensorFlow's CPU kernels flush float32 subnormal results to zero
    atol = 2e-45 if dtype == "float32" else 0.0
    both(fn, a, b, rtol=rtol, zeros=fn not in ("logaddexp",), atol=atol)


@pytest.mark.parametrize("dtype", INTS)
def test_integer_pow_and_wraparound(dtype: str) -> None:
    a, b = pairs(dtype)
    b = (np.abs(b.astype("int64")) % 9).astype(dtype)
    both("pow", a, b)
    same(xn.pow(t([2, 1, -1], dtype if dtype in SIGNED else "int8"), t([-1, -3, -3], "int8")),
         np.array([0, 1, -1], dtype if dtype in SIGNED else "int8"))  # fmt: skip
    info = np.iinfo(dtype)
    same(xn.add(t([info.max], dtype), t([1], dtype)), np.array([info.min], dtype))
    same(xn.subtract(t([info.min], dtype), t([1], dtype)), np.array([info.max], dtype))
    same(xn.multiply(t([info.max], dtype), t([2], dtype)),
         np.multiply(np.array([info.max], dtype), np.array([2], dtype)))  # fmt: skip


@pytest.mark.parametrize("dtype", INTS)
def test_integer_division_by_zero_and_overflow(dtype: str) -> None:
    a = t([7, 0, 3], dtype)
    same(xn.floor_divide(a, t([0, 0, 0], dtype)), np.zeros(3, dtype))
    same(xn.remainder(a, t([0, 0, 0], dtype)), np.zeros(3, dtype))
    if dtype in SIGNED:
        low = np.iinfo(dtype).min
        same(xn.floor_divide(t([low, 7, -7], dtype), t([-1, -1, 2], dtype)),
             np.array([low, -7, -4], dtype))  # fmt: skip
        same(xn.remainder(t([low, -7, 7], dtype), t([-1, 2, -2], dtype)),
             np.array([0, 1, -1], dtype))  # fmt: skip
    same(xn.pow(t([4], dtype), 0.5), np.array([2.0]))  # mixed kinds: the float wins


@pytest.mark.parametrize("fn", ("bitwise_and", "bitwise_or", "bitwise_xor"))
@pytest.mark.parametrize("dtype", ("bool", *INTS))
def test_bitwise(fn: str, dtype: str) -> None:
    both(fn, *pairs(dtype))


@pytest.mark.parametrize("dtype", INTS)
def test_bitwise_invert_and_shifts(dtype: str) -> None:
    both("bitwise_invert", values_for(dtype))
    bits = np.iinfo(dtype).bits
    shifts = np.array([0, 1, 3, bits - 1, bits, bits + 5], dtype)
    v = values_for(dtype)[:, None]
    actual_l = host(xn.bitwise_left_shift(t(v), t(shifts)))
    actual_r = host(xn.bitwise_right_shift(t(v), t(shifts)))
    ok = shifts < bits
    np.testing.assert_array_equal(actual_l[:, ok], np.left_shift(v, shifts[ok]))
    np.testing.assert_array_equal(actual_r[:, ok], np.right_shift(v, shifts[ok]))
    np.testing.assert_array_equal(actual_l[:, ~ok], 0)
    np.testing.assert_array_equal(
        actual_r[:, ~ok], np.broadcast_to(np.where(v < 0, -1, 0), actual_r[:, ~ok].shape)
    )


@pytest.mark.parametrize("fn", ("logical_and", "logical_or", "logical_xor"))
def test_logical(fn: str) -> None:
    a = np.array([True, False])
    both(fn, a[:, None], a[None, :])
    both("logical_not", a)


def test_promotion_table_and_scalars() -> None:
    dtypes = ("bool", *NUMERIC)
    for d1, d2 in itertools.product(dtypes, dtypes):
        try:
            expected = strict.result_type(getattr(strict, d1), getattr(strict, d2))
        except TypeError:
            continue
        a, b = t(np.ones(2, d1)), t(np.ones(2, d2))
        result = xn.equal(a, b) if "bool" in (d1, d2) else xn.add(a, b)
        if "bool" not in (d1, d2):
            assert result.dtype.name == str(expected).split(".")[-1], (d1, d2)
    assert xn.add(t([1], "int8"), 1).dtype == tf.int8
    assert xn.add(1, t([1], "uint16")).dtype == tf.uint16
    assert xn.multiply(t([1.0], "float32"), 2.5).dtype == tf.float32
    assert xn.add(t([1.0], "float32"), 1j).dtype == tf.complex64
    # mixed kinds (unspecified by the standard): the floating dtype wins
    assert xn.add(t([1], "int64"), t([1.0], "float32")).dtype == tf.float32
    assert xn.add(t([1], "int8"), 0.5).dtype == tf.float64
    with pytest.raises(TypeError, match="uint64"):
        xn.add(t([1], "uint64"), t([1], "int64"))
    with pytest.raises(OverflowError, match="int8"):
        xn.add(t([1], "int8"), 1000)
    with pytest.raises(TypeError, match="at least one"):
        xn.add(1, 2)
    tiny = np.array([-1.4e-45, 1e-40, -0.0], "float32")  # TensorFlow's casts flush these
    same(xn.astype(t(tiny), tf.float64), tiny.astype("float64"), zeros=True)
    same(xn.add(t(tiny), t(np.full(3, -0.0))), tiny.astype("float64"), zeros=True)
    same(xn.astype(t(tiny.astype("complex64")), tf.complex128), tiny.astype("complex128"))
    y = t(np.array([-0.0], "float32"))  # TensorFlow's scalar cache must not mix up zeros
    for first, second in ((-0.0, 0.0), (0.0, -0.0)):
        same(xn.atan2(first, y), np.arctan2(np.float32(first), np.array([-0.0], "float32")))
        same(xn.atan2(second, y), np.arctan2(np.float32(second), np.array([-0.0], "float32")))
    with pytest.raises(TypeError, match="bitwise_and"):
        xn.bitwise_and(t([1.0]), t([1.0]))


def test_clip() -> None:
    x = np.array([-3.0, -1.0, 0.0, 2.0, NAN, INF])
    both("clip", x, -1.0, 1.5)
    both("clip", x, None, 0.0)
    both("clip", x, np.array(-2.0), np.array(2.0))
    both("clip", np.array([0, 5, 200], "uint8"), 3, 100)
    same(xn.clip(t([0, 5, 200], "uint8"), -10, 1000), np.array([0, 5, 200], "uint8"))
    assert xn.clip(t([1, 2], "int16"), 0).dtype == tf.int16
    with pytest.raises(TypeError, match="clip"):
        xn.clip(t([1, 2], "int16"), t([0.5]))
    with pytest.raises(TypeError, match="clip"):
        xn.clip(t([1, 2], "int16"), 0.5)


# -- operators and indexing (wrapped flavour) -----------------------------------------------


def test_wrapped_operators_match_functions() -> None:
    x = ep.astensor(t([1, 2, 250], "uint8"))
    y = ep.astensor(t([3, 0, 10], "uint8"))
    same(x + y, np.array([4, 2, 4], "uint8"))
    same(x // y, np.array([0, 0, 25], "uint8"))
    same(x % y, np.array([1, 0, 0], "uint8"))
    same(-x, np.array([255, 254, 6], "uint8"))
    same(~x, np.array([254, 253, 5], "uint8"))
    same(x << 1, np.array([2, 4, 244], "uint8"))
    same(2 * x, np.array([2, 4, 244], "uint8"))
    same(x**2, np.array([1, 4, 36], "uint8"))
    same(x > 1, np.array([False, True, True]))
    f = ep.astensor(t([[1.0, 2.0], [3.0, 4.0]], "float32"))
    same(f @ f.mT, np.array([[5.0, 11.0], [11.0, 25.0]], "float32"))
    same(1 / f, 1 / np.array([[1.0, 2.0], [3.0, 4.0]], "float32"))
    same(f.T, np.array([[1.0, 3.0], [2.0, 4.0]], "float32"))
    g = f
    g += 1
    same(g, np.array([[2.0, 3.0], [4.0, 5.0]], "float32"))
    with pytest.raises(TypeError, match=r"__iadd__: cannot cast the result dtype complex64 to the array's dtype float32"):
        g += 1.5j  # a dtype change: a TypeError (docs/errors.md; a ValueError before issue 15)
    assert float(f[0, 1]) == 3.0  # f is g: it was rebound too and int(x[2]) == 250 and bool(x[0])
    assert len(x) == 3 and [int(v) for v in x] == [1, 2, 250]


def test_getitem() -> None:
    a = np.arange(60).reshape(3, 4, 5)
    x = ep.astensor(t(a))
    keys: list[Any] = [
        0,
        -1,
        (1, 2),
        (slice(None, None, -1),),
        (slice(3, 0, -2), 2),
        (Ellipsis, 1),
        (None, 1),
        (1, None, Ellipsis, None),
        (slice(None), None, 2),
        (),
        (slice(10, 20),),
        (Ellipsis,),
    ]
    for key in keys:
        same(x[key], a[key])
    idx = np.array([2, 0, -1])
    same(x[t(idx)], a[idx])
    same(x[1, t(idx)], a[1, idx])
    same(x[:, t([[0, 1], [2, 3]]), t([1, 2])], a[:, [[0, 1], [2, 3]], [1, 2]])
    same(x[t([0, 2]), :, t([1, 4])], a[[0, 2], :, [1, 4]])
    same(x[t(idx), 1:3], a[idx, 1:3])
    mask = a[:, :, 0] % 3 == 0
    same(x[t(mask)], a[mask])
    same(x[t(a > 30)], a[a > 30])
    same(x[t(np.array(True))], a[np.array(True)])
    same(x[t(np.array(False))], a[np.array(False)])
    same(ep.astensor(t(5.0))[()], np.array(5.0))
    same(ep.astensor(t(5.0))[None], np.array([5.0]))
    with pytest.raises(IndexError):
        x[t([1.0])]


def test_basic_keys_of_captured_arrays_in_a_graph() -> None:
    """The basic-key fast case (one ``StridedSlice`` with cached arguments) indexes an
    eager `Array` captured by a ``tf.function`` (its arguments made as eager constants
    while the graph is built), then eagerly again; a key with a step of 0 raises the
    contract's `IndexError` before TensorFlow sees it, a slice bound beyond int32 takes
    the full path."""
    from eagerpy_xp.native._tensorflow import _indexing

    _indexing._SLICE_ARGUMENTS.clear()
    captured = ep.astensor(t(np.arange(10.0)))

    @tf.function
    def f(y: Any) -> Any:
        return captured[2:5] + y[1:4] + captured[7:4:-1]

    same(f(t(np.ones(5))), np.array([10.0, 10.0, 10.0]))
    same(captured[2:5], np.array([2.0, 3.0, 4.0]))
    assert all(not tf.is_symbolic_tensor(v) for args in _indexing._SLICE_ARGUMENTS.values()
               for v in args)  # fmt: skip
    with pytest.raises(IndexError, match=r"eagerpy_xp\.tensorflow\.Array\.__getitem__: slice .* has step 0"):
        captured[::0]
    same(captured[-2**40:2**40:3], np.arange(10.0)[::3])


def test_cached_scalar_constants_outlive_a_graph() -> None:
    """A Python scalar beside an eager tensor is a cached constant: one first met while a
    ``tf.function`` traces (an eager tensor it captures) must still serve eager calls and
    the next graph (it was a constant of the first graph: "out of scope")."""
    from eagerpy_xp.native._tensorflow import _eager

    _eager._SCALARS.clear()
    a = np.array([1.0, 4.0], dtype=np.float32)
    captured = t(a)
    same(tf.function(lambda: xn.multiply(captured, 7.0))(), 7 * a)
    same(xn.multiply(captured, 7.0), 7 * a)
    same(tf.function(lambda u: xn.multiply(u, 7.0) + xn.multiply(captured, 7.0))(t(a)), 14 * a)
    assert all(not tf.is_symbolic_tensor(c) for c in _eager._SCALARS.values())


def test_backend_first_built_inside_a_trace() -> None:
    """The TensorFlow backend imported for the first time while a ``tf.function`` traces
    still knows the eager tensor type (it was the graph's tensor type, so fast paths took
    graph tensors and cached graph constants: the next graph failed)."""
    import subprocess
    import sys

    code = (
        "import numpy as np, tensorflow as tf, eagerpy_xp as ep\n"
        "a = np.array([1.0, 4.0], dtype=np.float32)\n"
        "g = lambda x: ep.namespace(x).pow(x, 3) + x ** 0.5\n"
        "print(tf.function(g)(tf.constant(a)).numpy().tolist())\n"
        "from eagerpy_xp.native._tensorflow import _eager\n"
        "f = lambda x: ep.namespace(x).pow(x, 3) + x ** 0.5\n"
        "print(np.asarray(tf.function(f)(ep.astensor(tf.constant(a)))).tolist(), "
        "_eager.EAGER.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:2] == ["[2.0, 66.0]", "[2.0, 66.0] EagerTensor"], out.stdout


def test_setitem_rebinds() -> None:
    a = np.arange(12.0).reshape(3, 4)
    native = t(a)
    x = ep.astensor(native)
    x[0, :] = 0
    x[1, ::-2] = t(np.array([7.0, 8.0]))
    x[t(np.array([2, 2])), t(np.array([0, 3]))] = -1.0
    x[x > 9] = 9
    expected = a.copy()
    expected[0, :] = 0
    expected[1, ::-2] = [7.0, 8.0]
    expected[[2, 2], [0, 3]] = -1.0
    expected[expected > 9] = 9
    same(x, expected)
    same(native, a)  # the tensor itself is untouched
    u = ep.astensor(t([1, 2, 3], "uint16"))
    u[1] = 65535
    same(u, np.array([1, 65535, 3], "uint16"))
    u[0] = 1.5  # truncated toward zero, as NumPy and torch store it
    same(u, np.array([1, 65535, 3], "uint16"))
    with pytest.raises(TypeError, match="setitem"):
        u[0] = 1.5j
    with pytest.raises(TypeError, match="setitem"):
        u[0] = ep.astensor(t([1], "int32"))[0]
    z = ep.astensor(t(1.0))
    z[()] = 3.0
    same(z, np.array(3.0))
    z[()] = ep.astensor(t([4.0]))  # a size-1 value fits a 0-d selection, as in NumPy
    same(z, np.array(4.0))
    with pytest.raises(ValueError, match="setitem"):
        z[()] = ep.astensor(t([4.0, 5.0]))


def test_subnormals_are_not_zero() -> None:
    """TensorFlow's CPU kernels compare subnormals as zero; truth tests use the bits."""
    v = np.array([2.2e-313, -2e-311, 0.0, -0.0, NAN, -3.0])
    same(xn.sign(t(v)), np.sign(v), zeros=True)
    same(xn.count_nonzero(t(v)), np.array(np.count_nonzero(v)))
    same(xn.all(t(v[:2])), np.array(True))
    same(xn.any(t(v[2:4])), np.array(False))
    same(xn.astype(t(v), tf.bool), v.astype(bool))
    same(xn.nonzero(t(v))[0], np.nonzero(v)[0])
    same(xn.logical_and(xn.astype(t(v), tf.bool), True), v.astype(bool))
    same(xn.ceil(t(v)), np.ceil(v), zeros=True)
    same(xn.floor(t(v)), np.floor(v), zeros=True)
    same(xn.ceil(t(np.array([1e-40, -1e-40], "float32"))), np.array([1.0, -0.0], "float32"))


def test_take_and_take_along_axis() -> None:
    a = np.arange(12).reshape(3, 4)
    both("take", a, np.array([0, 2, 1]), axis=1)
    both("take", np.arange(5), np.array([4, 0]))
    same(xn.take(t(a), t([-1]), axis=0), a[[-1]])
    idx = np.argsort(-a, axis=1)
    both("take_along_axis", a, idx, axis=1)
    both("take_along_axis", a, np.array([[0, 1, 2, 0]]), axis=0)


@pytest.mark.parametrize("jit_compile", [False, True])
def test_take_along_axis_traced_with_known_and_unknown_shapes(jit_compile: bool) -> None:
    """Traced, the batch shapes are often known alike (no broadcast ops then) but may be
    unknown or broadcast: each case gives NumPy's values, negative indices included."""
    a = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    cases = [
        (np.array([[[-1], [0], [2]], [[3], [-4], [1]]]), None),  # shapes known alike
        (np.array([[[-1, 0]], [[2, -2]]]), None),  # index batch of 1: broadcast
        (np.array([[[-1], [0], [2]], [[3], [-4], [1]]]),
         [tf.TensorSpec([None, None, 4], tf.float32), tf.TensorSpec([None, None, 1], tf.int64)]),
    ]  # fmt: skip
    for index, signature in cases:
        f = tf.function(lambda x, i: xn.take_along_axis(x, i, axis=-1),
                        jit_compile=jit_compile, input_signature=signature)  # fmt: skip
        got = f(tf.constant(a), tf.constant(index, tf.int64))
        want = np.take_along_axis(a, np.broadcast_to(index, (2, 3, index.shape[-1])), axis=-1)
        np.testing.assert_array_equal(got.numpy(), want)


# -- manipulation ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
def test_manipulation_all_dtypes(dtype: str) -> None:
    a = np.resize(values_for(dtype), 12).reshape(3, 4)
    both("flip", a)
    both("flip", a, axis=1)
    both("roll", a, 2)
    both("roll", a, (1, -1), axis=(0, 1))
    both("reshape", a, (4, 3))
    both("reshape", a, (-1,))
    both("permute_dims", a, (1, 0))
    both("moveaxis", a[None], 0, -1)
    both("expand_dims", a, axis=(0, -1))
    both("squeeze", a[:, None], 1)
    both("concat", [a, a], axis=1)
    both("concat", [a, a], axis=None)
    both("stack", [a, a], axis=-1)
    both("tile", a, (2, 1, 2))
    both("repeat", a, 2, axis=0)
    both("repeat", a, np.array([1, 0, 2]), axis=0)
    both("repeat", a[:0], np.array([0, 3, 2, 1]), axis=1)
    both("broadcast_to", a[:1], (2, 3, 4))
    both("unstack", a, axis=1)
    both("broadcast_arrays", a, a[:1])
    both("matrix_transpose", a)
    both("tril", a)


def test_broadcast_shapes_and_errors() -> None:
    assert xn.broadcast_shapes((2, 1), (1, 3), (3,)) == (2, 3)
    assert xn.broadcast_shapes() == ()
    with pytest.raises(ValueError, match="broadcast"):
        xn.broadcast_shapes((2,), (3,))
    with pytest.raises(ValueError, match="squeeze"):
        xn.squeeze(t([[1, 2]]), 1)
    with pytest.raises(IndexError, match="axis"):
        xn.flip(t([1, 2]), axis=3)
    same(xn.concat([t([1], "int8"), t([300], "int16")]), np.array([1, 300], "int16"))


# -- statistics, searching, utility ---------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
def test_sum_prod_dtypes(dtype: str) -> None:
    a = np.resize(values_for(dtype), 12).reshape(3, 4)
    if dtype in INTS:
        a = a % 5 if dtype in UNSIGNED else np.clip(a, -5, 5)
    if dtype in FLOATS + COMPLEX:
        a = np.where(np.isfinite(a), a, 1).astype(dtype)
    if dtype != "bool":
        both("sum", a)
        both("sum", a, axis=1, keepdims=True)
        both("prod", a, axis=0)
        both("cumulative_sum", a, axis=1)
        both("cumulative_sum", a, axis=0, include_initial=True)
        both("cumulative_prod", a, axis=1, include_initial=True)
    both("count_nonzero", a, axis=1)
    both("any", a, axis=0)
    both("all", a, axis=(0, 1), keepdims=True)
    if dtype != "bool":  # strict: numeric only
        both("diff", a, axis=1)
        both("diff", a, axis=0, n=2, prepend=a[:1], append=a[:2])
        both("diff", a, n=0, append=a)
    else:
        same(xn.diff(t(a), axis=1), a[:, 1:] != a[:, :-1])


@pytest.mark.parametrize("dtype", REAL)
def test_min_max_argminmax(dtype: str) -> None:
    a = np.resize(values_for(dtype), 24).reshape(4, 6)
    both("max", a)
    both("min", a, axis=1)
    both("max", a, axis=(0,), keepdims=True)
    both("argmax", a, axis=1)
    both("argmin", a, axis=0, keepdims=True)
    both("argmax", a)
    ties = np.array([[1, 3, 3, 1], [2, 2, 0, 2]], dtype=dtype)
    both("argmax", ties, axis=1)
    both("argmin", ties, axis=1)


@pytest.mark.parametrize("dtype", FLOATS)
def test_mean_var_std(dtype: str) -> None:
    a = np.array([[1.0, 2.0, 4.0], [-1.0, 0.5, 8.0]], dtype)
    rtol = 1e-6 if dtype == "float32" else 1e-13
    both("mean", a, rtol=rtol)
    both("mean", a, axis=1, keepdims=True, rtol=rtol)
    for correction in (0.0, 1.0, 1.5):
        both("var", a, axis=0, correction=correction, rtol=rtol)
        both("std", a, axis=1, correction=correction, rtol=rtol)
    both("var", a, axis=(0, 1), keepdims=True, rtol=rtol)
    same(xn.var(t(np.array([1.0])), correction=1.0), np.array(NAN))
    same(xn.mean(t(np.array([NAN, 1.0], dtype))), np.array(NAN, dtype))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.mean: .*floating-point"):
        xn.mean(t([1, 2], "int8"))  # the standard: floating-point input only


def test_searching() -> None:
    a = np.array([[0, 1, 0], [2, 0, 3]])
    for got, want in zip(xn.nonzero(t(a)), np.nonzero(a)):
        same(got, want)
    both("where", a > 0, a, np.array(-1))
    same(xn.where(t(a > 0), t(a, "int8"), 2.5), np.where(a > 0, a, 2.5))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.where: .*boolean"):
        xn.where(t(a), t(a), t(a))
    sorted_f = np.array([-INF, -1.0, -0.0, 0.0, 1.0, 1.0, 2.0, INF, NAN])
    probes = np.array([-INF, -0.0, 0.0, 1.0, 1.5, INF, NAN])
    for side in ("left", "right"):
        both("searchsorted", sorted_f, probes, side=side)
    u = np.array([1, 5, 2**63, 2**64 - 1], "uint64")
    both("searchsorted", u, np.array([0, 2**63 + 1, 2**64 - 1], "uint64"))
    unsorted = np.array([3.0, 1.0, 2.0])
    both("searchsorted", unsorted, np.array([2.5]), sorter=np.argsort(unsorted))
    same(xn.searchsorted(t(sorted_f), 1.0), np.array(4))


@pytest.mark.parametrize("dtype", REAL)
def test_sort_argsort(dtype: str) -> None:
    a = np.resize(values_for(dtype), 24).reshape(4, 6)
    for descending in (False, True):
        both("sort", a, axis=1, descending=descending)
        both("argsort", a, axis=0, descending=descending)
        both("argsort", a, axis=1, descending=descending)


def test_sort_is_stable_with_nans_and_zeros() -> None:
    a = np.array([1.0, NAN, -0.0, 0.0, 1.0, NAN, -INF])
    both("argsort", a)
    both("argsort", a, descending=True)
    both("sort", a, descending=True)


@pytest.mark.parametrize("dtype", ALL)
def test_unique(dtype: str) -> None:
    v = values_for(dtype)
    a = np.concatenate([v, v[::2]])
    if dtype in COMPLEX:
        a = a[~np.isnan(a)]
    both("unique_values", a)
    both("unique_counts", a)
    both("unique_all", a)
    # NumPy orders NaN groups unstably in unique_inverse: check the reconstruction instead
    values, inverse = xn.unique_inverse(t(a.reshape(-1, 1)))
    assert inverse.shape == (a.size, 1)
    same(xn.take(values, xn.reshape(inverse, (-1,))), a)


def test_unique_nans_are_distinct() -> None:
    a = np.array([[NAN, 1.0], [NAN, -0.0], [0.0, 1.0]])
    values, indices, inverse, counts = xn.unique_all(t(a))
    same(values, np.array([0.0, 1.0, NAN, NAN]))
    same(counts, np.array([2, 2, 1, 1]))
    same(indices, np.array([3, 1, 0, 2]))
    assert inverse.shape == (3, 2)
    same(xn.take(values, tf.reshape(inverse, [-1])), a.reshape(-1))
    empty = xn.unique_all(t(np.zeros(0)))
    assert all(r.shape == (0,) for r in empty)


@pytest.mark.parametrize("dtype", ("int8", "uint64", "float32", "float64", "complex128"))
def test_isin(dtype: str) -> None:
    v = values_for(dtype)
    same(xn.isin(t(v), t(v[::3])), np.isin(v, v[::3]))  # strict: integers only
    same(xn.isin(t(v), t(v[::3]), invert=True), ~np.isin(v, v[::3]))  # strict ignores invert
    same(xn.isin(t(v), t(np.zeros(0, dtype))), np.zeros(v.shape, bool))
    if dtype in FLOATS:
        same(xn.isin(t(np.array([NAN, -0.0], dtype)), t(np.array([NAN, 0.0], dtype))),
             np.array([False, True]))  # fmt: skip


# -- linear algebra ---------------------------------------------------------------------------

RNG = np.random.default_rng(0)


@pytest.mark.parametrize(
    "dtype",
    (
        "int8",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int32",
        "int64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ),
)
def test_matmul_tensordot_vecdot(dtype: str) -> None:
    a = (RNG.integers(0, 5, (2, 3, 4)) + (1j if dtype in COMPLEX else 0)).astype(dtype)
    b = RNG.integers(0, 5, (4, 2)).astype(dtype)
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    both("matmul", a, b, rtol=rtol)
    both("matmul", a[0, 0], b, rtol=rtol)
    both("matmul", a, b[:, 0], rtol=rtol)
    both("tensordot", a, b, axes=1, rtol=rtol)
    both("tensordot", a, a, axes=([1, 2], [1, 2]), rtol=rtol)
    both("tensordot", a[0], b, axes=0, rtol=rtol)
    both("vecdot", a, a[0], rtol=rtol)
    both("vecdot", a, a, axis=-2, rtol=rtol)
    both("linalg.outer", a[0, 0], b[:, 0], rtol=rtol)
    both("linalg.cross", a[..., :3], a[0, :, 1:], rtol=rtol)
    with pytest.raises(ValueError, match="matmul"):
        xn.matmul(t(a), t(a))


def test_matmul_wraps_integers() -> None:
    a = np.array([[200, 100]], "uint8")
    same(xn.matmul(t(a), t(a.T)), np.matmul(a, a.T))


@pytest.mark.parametrize("dtype", ("float32", "float64", "complex128"))
def test_linalg(dtype: str) -> None:
    rtol = 1e-3 if dtype == "float32" else 1e-8
    m = RNG.standard_normal((2, 3, 3))
    if dtype in COMPLEX:
        m = m + 1j * RNG.standard_normal((2, 3, 3))
    m = m.astype(dtype)
    spd = (m @ np.conj(np.swapaxes(m, -1, -2)) + 3 * np.eye(3)).astype(dtype)
    for fn in ("det", "inv", "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv"):
        both(f"linalg.{fn}", spd, rtol=rtol)
    both("linalg.cholesky", spd, upper=True, rtol=rtol)
    both("linalg.slogdet", m, rtol=rtol)
    both("linalg.solve", spd, m, rtol=rtol)
    both("linalg.solve", spd[0], m[0, 0], rtol=rtol)
    both("linalg.matrix_power", m, 3, rtol=rtol)
    both("linalg.matrix_power", spd, -2, rtol=rtol)
    both("linalg.matrix_power", m, 0, rtol=rtol)
    for o in ("fro", "nuc", 1, -1, 2, -2, INF, -INF):
        both("linalg.matrix_norm", m, ord=o, rtol=rtol)
    both("linalg.matrix_norm", m, keepdims=True, rtol=rtol)
    for o in (2, 1, 0, INF, -INF, 3, 0.5):
        both("linalg.vector_norm", m, ord=o, rtol=rtol)
    both("linalg.vector_norm", m, axis=(0, 2), keepdims=True, rtol=rtol)
    for off in (-3, -1, 0, 2, 4):
        both("linalg.diagonal", m, offset=off)
        both("linalg.trace", m, offset=off, rtol=rtol)
    # factorizations: check the defining identities
    w, v = xn.linalg.eigh(t(spd))
    recon = host(xn.matmul(xn.multiply(v, w[..., None, :]), xn.linalg.matrix_transpose(
        xn.conj(v))))  # fmt: skip
    np.testing.assert_allclose(recon, spd, rtol=rtol, atol=rtol)
    for mode in ("reduced", "complete"):
        q, r = xn.linalg.qr(t(m[..., :2]), mode=mode)
        np.testing.assert_allclose(host(xn.matmul(q, r)), m[..., :2], rtol=rtol, atol=rtol)
    for full in (True, False):
        u, sv, vh = xn.linalg.svd(t(m[..., :2]), full_matrices=full)
        k = sv.shape[-1]
        recon = host(xn.matmul(xn.multiply(u[..., :k], tf.cast(sv, u.dtype)[..., None, :]),
                               vh))  # fmt: skip
        np.testing.assert_allclose(recon, m[..., :2], rtol=rtol, atol=rtol)


def test_linalg_corners() -> None:
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    sign, logabs = xn.linalg.slogdet(t(singular))
    same(sign, np.array(0.0))
    same(logabs, np.array(-INF))
    same(xn.linalg.trace(t(np.eye(3, dtype="int8"))), np.array(3))
    same(xn.linalg.trace(t(np.eye(3, dtype="uint8"))), np.array(3, "uint64"))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.linalg\.det: .*int32"):
        xn.linalg.det(t(np.eye(2, dtype="int32")))  # the standard: floating-point input only
    with pytest.raises(ValueError, match="square"):
        xn.linalg.inv(t(np.ones((2, 3))))
    with pytest.raises(ValueError, match="ord"):
        xn.linalg.matrix_norm(t(np.ones((2, 2))), ord=3)
    with pytest.raises(ValueError, match="mode"):
        xn.linalg.qr(t(np.ones((2, 2))), mode="r")


# -- fft ----------------------------------------------------------------------------------


@pytest.mark.parametrize("norm", ("backward", "ortho", "forward"))
@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_fft(norm: str, dtype: str) -> None:
    rtol = 1e-4 if dtype == "float32" else 1e-10
    x = RNG.standard_normal((3, 8)).astype(dtype)
    cdtype = "complex64" if dtype == "float32" else "complex128"
    z = (x + 1j * RNG.standard_normal((3, 8))).astype(cdtype)
    kw: dict[str, Any] = {"norm": norm, "rtol": rtol}
    for fn in ("fft", "ifft"):
        both(f"fft.{fn}", z, **kw)
        both(f"fft.{fn}", z, n=5, axis=0, **kw)
        both(f"fft.{fn}", z, n=11, **kw)
    both("fft.rfft", x, **kw)
    both("fft.rfft", x, n=5, axis=0, **kw)
    both("fft.irfft", z, **kw)
    both("fft.irfft", z, n=7, **kw)
    both("fft.hfft", z, **kw)
    both("fft.hfft", z, n=9, axis=0, **kw)
    both("fft.ihfft", x, **kw)
    both("fft.fftn", z, **kw)
    both("fft.ifftn", z, s=(4, 6), axes=(0, 1), **kw)
    both("fft.rfftn", x, **kw)
    both("fft.rfftn", x, s=(2, 6), **kw)
    both("fft.irfftn", z, **kw)
    both("fft.irfftn", z, s=(3, 10), **kw)


def test_fft_helpers() -> None:
    for n in (1, 4, 5):
        both("fft.fftfreq", n, d=0.5)
        both("fft.rfftfreq", n)
    same(xn.fft.fftfreq(4, dtype=tf.float32), np.fft.fftfreq(4).astype("float32"))
    a = np.arange(12.0).reshape(3, 4)
    both("fft.fftshift", a)
    both("fft.ifftshift", a, axes=(1,))
    with pytest.raises(ValueError, match="norm"):
        xn.fft.fft(t(a.astype("complex128")), norm="bad")


# -- graph mode ------------------------------------------------------------------------------


def test_graph_mode() -> None:
    """A representative set of functions inside tf.function, with unknown dimensions."""
    spec = tf.TensorSpec([None, None], tf.float32)

    def body(x: Any) -> dict[str, Any]:
        m = xn.matmul(x, xn.matrix_transpose(x))
        return {
            "add": xn.add(x, 1),
            "floordiv": xn.floor_divide(x, 2.0),
            "hypot": xn.hypot(x, x),
            "sum": xn.sum(x, axis=1),
            "var": xn.var(x, axis=0, correction=1.0),
            "max": xn.max(x),
            "argmax": xn.argmax(x, axis=1),
            "sort": xn.sort(x, axis=0),
            "argsort": xn.argsort(x, descending=True),
            "unique": xn.unique_values(x),
            "nonzero": xn.nonzero(x)[1],
            "where": xn.where(x > 0, x, 0.0),
            "tril": xn.tril(x, k=1),
            "getitem": xn.__backend__.getitem(x, (slice(None, None, -1), 0)),
            "mask": xn.__backend__.getitem(x, x > 0),
            "setitem": xn.__backend__.setitem(x, (0, slice(None)), 5.0),
            "cumsum": xn.cumulative_sum(x, axis=1, include_initial=True),
            "fft": xn.fft.fft(xn.astype(x, tf.complex64), n=4),
            "norm": xn.linalg.vector_norm(x, ord=3),
            "diag": xn.linalg.diagonal(m),
            "full_like": xn.full_like(x, 2),
            "searchsorted": xn.searchsorted(xn.sort(xn.reshape(x, (-1,))), x),
            "isin": xn.isin(x, x[:1]),
        }

    graph = tf.function(body, input_signature=[spec])
    x = t(np.array([[1.0, -2.0, 3.0], [0.0, 5.0, -1.5]], "float32"))
    eager, traced = body(x), graph(x)
    for key in eager:
        same(traced[key], eager[key])


def test_graph_mode_more() -> None:
    """Linear algebra, sets, indexing and integer corners inside tf.function."""
    spec = tf.TensorSpec([None], tf.int32)

    @tf.function(input_signature=[spec])
    def ints(v: Any) -> Any:
        m = xn.reshape(xn.concat([v, v]), (2, -1))
        u = xn.unique_all(v)
        return (xn.floor_divide(v, xn.flip(v)), xn.remainder(v, 0), xn.pow(v, 2),
                xn.matmul(m, xn.matrix_transpose(m)), u.values, u.counts, u.inverse_indices,
                xn.__backend__.getitem(v, xn.argsort(v)), xn.take(v, xn.asarray([0, -1])),
                xn.count_nonzero(v), xn.cumulative_prod(v, include_initial=True),
                xn.tile(v, (2, 1)), xn.sum(xn.astype(v, xn.uint8), axis=0))  # fmt: skip

    v = t([3, 0, -7, 3], "int32")
    for got, want in zip(ints(v), ints.python_function(v)):
        same(got, want)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def floats(m: Any) -> Any:
        spd = xn.matmul(m, xn.matrix_transpose(m)) + xn.eye(3)
        return (xn.linalg.inv(spd), xn.linalg.eigvalsh(spd), xn.linalg.slogdet(spd).logabsdet,
                xn.linalg.matrix_norm(m, ord="nuc"), xn.fft.rfft(m, n=3),
                xn.fft.irfftn(xn.fft.rfftn(m, s=(3, 3)), s=(3, 3)), xn.linalg.pinv(m),
                xn.linalg.solve(spd, xn.ones(3)))  # fmt: skip

    m = t(np.arange(9.0).reshape(3, 3) ** 0.5)
    for got, want in zip(floats(m), floats.python_function(m)):
        same(got, want, rtol=1e-9)


def test_variables() -> None:
    v = tf.Variable(np.array([[3.0, -1.0], [2.0, 5.0]]))
    same(xn.sum(v, axis=0), np.array([5.0, 4.0]))
    same(xn.add(v, t(np.ones(2))), np.array([[4.0, 0.0], [3.0, 6.0]]))
    same(xn.sort(v, axis=1), np.array([[-1.0, 3.0], [2.0, 5.0]]))
    x = ep.astensor(v)
    same(x[0], np.array([3.0, -1.0]))
    x[0, 0] = 0.0
    same(x, np.array([[0.0, -1.0], [2.0, 5.0]]))
    same(v, np.array([[3.0, -1.0], [2.0, 5.0]]))  # the variable is not written


def test_array_converts_to_tf() -> None:
    x = ep.astensor(t([1.0, 2.0]))
    same(tf.reduce_sum(x), np.array(3.0))
    same(tf.convert_to_tensor(x), np.array([1.0, 2.0]))


def test_errors_name_function_and_backend() -> None:
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.sum:"):
        xn.sum([1, 2])
    with pytest.raises(TypeError, match=r"eagerpy_xp\.tensorflow\.argsort:"):
        xn.argsort(t([1j]))
    with pytest.raises(TypeError, match="complex"):
        xn.less(t([1j]), t([1j]))
    with pytest.raises(ValueError, match="side"):
        xn.searchsorted(t([1.0]), t([1.0]), side="middle")
