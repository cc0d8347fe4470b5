"""The ndonnx backend, both flavours, on eager (constant) and symbolic (``ndx.argument``)
arrays: values against NumPy, promotion of dtype pairs, zero-size and broadcasting
shapes, ``linalg`` composed of ONNX operators, what ONNX cannot hold and how it is
refused (type and message), ``isin``, ``broadcast_shapes``, ``__array_namespace_info__``,
``x[k] = v``, the EagerPy helpers, ``convert``, and unknown dimensions of data-dependent
shapes."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

ndx = pytest.importorskip("ndonnx", reason="ndonnx is not installed (pip install 'eagerpy-xp[all]')")
pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")

import eagerpy_xp as ep  # noqa: E402
import eagerpy_xp.native.ndonnx as xp  # noqa: E402
import eagerpy_xp.ndonnx as wxp  # noqa: E402
from eagerpy_xp._dtypes import ALL, COMPLEX_FLOATING, PROMOTION_TABLE  # noqa: E402

HELD = tuple(n for n in ALL if n not in COMPLEX_FLOATING)
RNG = np.random.default_rng(11)


@pytest.fixture(params=["native", "wrapped"])
def ns(request: pytest.FixtureRequest) -> ModuleType:
    return xp if request.param == "native" else wxp


def host(a: Any) -> np.ndarray:
    """A NumPy copy of an eager ndonnx array or an `Array` of one."""
    raw = a.raw if isinstance(a, ep.Array) else a
    return np.asarray(raw.unwrap_numpy())


def run_symbolic(fn: Callable[..., Any], *inputs: np.ndarray, wrapped: bool = False) -> Any:
    """``fn`` on symbolic arguments of ``inputs``' shapes and dtypes, built into a model
    and run by onnxruntime on ``inputs``: NumPy results."""
    args = {f"a{i}": ndx.argument(shape=a.shape, dtype=getattr(ndx, a.dtype.name))
            for i, a in enumerate(inputs)}  # fmt: skip
    passed = [ep.astensor(v) if wrapped else v for v in args.values()]
    out = fn(*passed)
    out = out.raw if isinstance(out, ep.Array) else out
    model = ndx.build(args, {"out": out})
    return ep.onnx_function(model)(*inputs)


# -- the namespace and its registration -----------------------------------------------------
def test_namespace_of_ndonnx_arrays_is_this_backend() -> None:
    a = ndx.asarray(np.arange(3.0))
    assert ep.namespace(a) is xp
    assert ep.namespace(ep.astensor(a)) is wxp
    assert ep.astensor(a).raw is a


def test_info_lists_the_real_dtypes_without_kind_and_the_cpu() -> None:
    for namespace in (xp, wxp):
        info = namespace.__array_namespace_info__()
        assert list(info.dtypes()) == list(HELD)
        assert list(info.dtypes(kind="real floating")) == ["float32", "float64"]
        assert info.devices() == (ep.Device("cpu"),)
        assert repr(info.default_device()) == "Device('cpu')"
        assert info.default_dtypes()["real floating"] == ndx.float64
    assert not hasattr(xp, "complex64") and not hasattr(wxp, "complex128")


def test_devices_accept_ndonnx_own_device_object() -> None:
    a = xp.asarray([1.0, 2.0], device=ndx.asarray(1.0).device)
    assert ep.astensor(a).device == "cpu"
    # the native array's own device object has no name: it equals Device("cpu"), so it
    # is among devices() (and from_dlpack(x, device=Device("cpu")) is on it)
    assert a.device == ep.Device("cpu") and ep.Device("cpu") == a.device
    assert a.device in xp.__array_namespace_info__().devices()
    assert xp.from_dlpack(a, device=ep.Device("cpu")).device == ep.Device("cpu")
    assert a.device != ep.Device("cuda:0") and a.device != "cuda"
    with pytest.raises(ValueError, match=r"eagerpy_xp\.ndonnx\.asarray: .*cuda"):
        xp.asarray([1.0], device="cuda:0")


# -- element-wise functions and reductions, eager and symbolic -------------------------------
UNARY = ["abs", "exp", "log1p", "sqrt", "sin", "tanh", "floor", "negative", "square", "sign",
         "isnan", "isfinite"]  # fmt: skip


@pytest.mark.parametrize("name", UNARY)
def test_unary_functions_equal_numpy_eager_and_symbolic(ns: ModuleType, name: str) -> None:
    a = np.array([[0.5, -1.5, 2.0], [3.0, 0.0, -0.25]], dtype=np.float32)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(a)
    eager = getattr(ns, name)(ns.asarray(a))
    np.testing.assert_allclose(host(eager), expected, rtol=1e-6, equal_nan=True)
    symbolic = run_symbolic(lambda x: getattr(ns, name)(x), a, wrapped=ns is wxp)
    np.testing.assert_allclose(symbolic, expected, rtol=1e-6, equal_nan=True)
    assert symbolic.dtype == expected.dtype


PAIRS = [("int8", "uint8"), ("int16", "int32"), ("uint8", "uint32"), ("float32", "float64"),
         ("int32", "int64"), ("bool", "bool"), ("uint16", "int16")]  # fmt: skip


@pytest.mark.parametrize(("d1", "d2"), PAIRS)
def test_binary_promotion_of_dtype_pairs(d1: str, d2: str) -> None:
    a = (np.arange(6) % 3).astype(d1).reshape(2, 3)
    b = (np.arange(3) % 2 + 1).astype(d2)
    function = "logical_or" if d1 == "bool" else "add"
    result = getattr(xp, function)(xp.asarray(a), xp.asarray(b))
    assert result.dtype == getattr(ndx, PROMOTION_TABLE[d1, d2])
    np.testing.assert_array_equal(host(result), getattr(np, function)(a, b))
    symbolic = run_symbolic(lambda x, y: getattr(xp, function)(x, y), a, b)
    assert symbolic.dtype == np.dtype(PROMOTION_TABLE[d1, d2])


def test_python_scalars_keep_the_array_dtype(ns: ModuleType) -> None:
    a = ns.asarray(np.array([1, 2, 3], dtype=np.int8))
    assert ns.multiply(a, 2).dtype == ndx.int8
    assert ns.add(a, 1).dtype == ndx.int8
    if ns is wxp:
        assert (a * 2).dtype == ndx.int8 and (2.5 * wxp.astype(a, wxp.float32)).dtype == ndx.float32
    np.testing.assert_array_equal(host(ns.add(a, 1)), [2, 3, 4])


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
def test_zero_size_shapes(ns: ModuleType, shape: tuple[int, ...]) -> None:
    a = np.zeros(shape, dtype=np.float64)
    assert tuple(ns.exp(ns.asarray(a)).shape) == shape
    assert float(host(ns.sum(ns.asarray(a)))) == 0.0
    np.testing.assert_array_equal(host(ns.sum(ns.asarray(a), axis=-1)), a.sum(axis=-1))


def test_broadcasting_shapes_eager_and_symbolic() -> None:
    a = RNG.normal(size=(4, 1, 3))
    b = RNG.normal(size=(2, 1))
    np.testing.assert_allclose(host(xp.multiply(xp.asarray(a), xp.asarray(b))), a * b)
    np.testing.assert_allclose(run_symbolic(xp.multiply, a, b), a * b)
    assert xp.broadcast_shapes((4, 1, 3), (2, 1), ()) == (4, 2, 3)
    with pytest.raises(ValueError, match=r"eagerpy_xp\.ndonnx\.broadcast_shapes: .*do not broadcast"):
        xp.broadcast_shapes((2,), (3,))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "var", "std"])
def test_reductions_equal_numpy(name: str) -> None:
    a = RNG.normal(size=(3, 4))
    expected = getattr(np, name)(a, axis=1)
    np.testing.assert_allclose(host(getattr(xp, name)(xp.asarray(a), axis=1)), expected)
    np.testing.assert_allclose(run_symbolic(lambda x: getattr(xp, name)(x, axis=1), a), expected)


# -- isin -------------------------------------------------------------------------------------
def test_isin_eager_symbolic_invert_and_scalars(ns: ModuleType) -> None:
    a = np.array([[1, 5, 3], [7, 2, 5]], dtype=np.int32)
    b = np.array([5, 2, 9], dtype=np.int32)
    expected = np.isin(a, b)
    np.testing.assert_array_equal(host(ns.isin(ns.asarray(a), ns.asarray(b))), expected)
    np.testing.assert_array_equal(host(ns.isin(ns.asarray(a), ns.asarray(b), invert=True)),
                                  ~expected)  # fmt: skip
    np.testing.assert_array_equal(host(ns.isin(ns.asarray(a), 5)), a == 5)
    np.testing.assert_array_equal(run_symbolic(lambda x, y: xp.isin(x, y), a, b), expected)


def test_isin_nan_is_in_nothing() -> None:
    a = np.array([np.nan, 1.0])
    assert host(xp.isin(xp.asarray(a), xp.asarray(a))).tolist() == [False, True]


# -- linalg ------------------------------------------------------------------------------------
MATRICES = np.array([[[4.0, 2.0, 1.0], [3.0, 5.0, 2.0], [1.0, 1.0, 7.0]],
                     [[0.0, 2.0, 1.0], [1.0, 0.0, 3.0], [2.0, 1.0, 0.0]],
                     [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]])  # (one row swap) fmt: skip


@pytest.mark.parametrize("name", ["det", "inv"])
def test_det_and_inv_by_elimination_eager_and_symbolic(ns: ModuleType, name: str) -> None:
    expected = getattr(np.linalg, name)(MATRICES)
    np.testing.assert_allclose(host(getattr(ns.linalg, name)(ns.asarray(MATRICES))), expected,
                               atol=1e-12)  # fmt: skip
    fn = getattr(ns.linalg, name)
    np.testing.assert_allclose(run_symbolic(fn, MATRICES, wrapped=ns is wxp), expected, atol=1e-12)


def test_slogdet_solve_and_singular_matrices() -> None:
    sign, logabs = xp.linalg.slogdet(xp.asarray(MATRICES))
    np.testing.assert_allclose(host(sign), np.linalg.slogdet(MATRICES)[0])
    np.testing.assert_allclose(host(logabs), np.linalg.slogdet(MATRICES)[1])
    rhs = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(host(xp.linalg.solve(xp.asarray(MATRICES), xp.asarray(rhs))),
                               np.linalg.solve(MATRICES, rhs[:, None])[..., 0])  # fmt: skip
    empty = xp.asarray(np.zeros((2, 0, 0)))
    np.testing.assert_array_equal(host(xp.linalg.det(empty)), [1.0, 1.0])
    assert xp.linalg.inv(empty).shape == (2, 0, 0)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert float(host(xp.linalg.det(xp.asarray(singular)))) == 0.0
    sign, logabs = xp.linalg.slogdet(xp.asarray(singular))
    assert float(host(sign)) == 0.0 and float(host(logabs)) == -math.inf


def test_composed_linalg_functions_equal_numpy(ns: ModuleType) -> None:
    a = RNG.normal(size=(2, 3, 4))
    m = ns.asarray(a)
    np.testing.assert_allclose(host(ns.linalg.diagonal(m, offset=1)), np.diagonal(a, 1, -2, -1))
    np.testing.assert_allclose(host(ns.linalg.trace(m, offset=-1)), np.trace(a, -1, -2, -1))
    np.testing.assert_allclose(host(ns.linalg.matrix_norm(m)), np.linalg.norm(a, axis=(-2, -1)))
    for order in (1, -1, math.inf, -math.inf):
        np.testing.assert_allclose(host(ns.linalg.matrix_norm(m, ord=order)),
                                   np.linalg.norm(a, ord=order, axis=(-2, -1)))  # fmt: skip
    for order in (2, 1, 0, math.inf, -math.inf, 3):
        np.testing.assert_allclose(host(ns.linalg.vector_norm(m, axis=-1, ord=order)),
                                   np.linalg.norm(a, ord=order, axis=-1))  # fmt: skip
    u, v = RNG.normal(size=(4, 3)), RNG.normal(size=(3,))
    np.testing.assert_allclose(host(ns.linalg.cross(ns.asarray(u), ns.asarray(v))), np.cross(u, v))
    np.testing.assert_allclose(host(ns.linalg.outer(ns.asarray(v), ns.asarray(v))), np.outer(v, v))
    np.testing.assert_allclose(host(ns.linalg.matrix_power(ns.asarray(MATRICES), -2)),
                               np.linalg.matrix_power(MATRICES, -2), atol=1e-12)  # fmt: skip
    np.testing.assert_allclose(host(ns.linalg.matrix_power(ns.asarray(MATRICES), 0)),
                               np.broadcast_to(np.eye(3), MATRICES.shape))  # fmt: skip
    np.testing.assert_allclose(host(ns.matmul(m, ns.asarray(a.swapaxes(-1, -2)))),
                               a @ a.swapaxes(-1, -2))  # fmt: skip
    np.testing.assert_allclose(host(ns.vecdot(m, m)), (a * a).sum(-1))


def test_diagonal_of_symbolic_matrices_with_an_unknown_batch() -> None:
    a = RNG.normal(size=(5, 3, 3))
    arg = ndx.argument(shape=("B", 3, 3), dtype=ndx.float64)
    model = ndx.build({"a": arg}, {"t": xp.linalg.trace(arg)})
    np.testing.assert_allclose(ep.onnx_function(model)(a), np.trace(a, axis1=1, axis2=2))


# -- what ONNX cannot hold ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["svd", "eigh", "qr", "cholesky", "pinv", "matrix_rank",
                                  "svdvals", "eigvalsh"])  # fmt: skip
def test_decompositions_are_refused_saying_what_onnx_lacks(ns: ModuleType, name: str) -> None:
    with pytest.raises(NotImplementedError, match=rf"eagerpy_xp\.ndonnx\.linalg\.{name}: .*ONNX"):
        getattr(ns.linalg, name)(ns.asarray(MATRICES))


def test_two_norms_are_refused() -> None:
    with pytest.raises(NotImplementedError, match=r"linalg\.matrix_norm: ord=2 needs singular"):
        xp.linalg.matrix_norm(xp.asarray(MATRICES), ord=2)


def test_fft_transforms_refused_real_helpers_composed() -> None:
    with pytest.raises(NotImplementedError, match=r"eagerpy_xp\.ndonnx\.fft\.rfft: .*complex"):
        xp.fft.rfft(xp.asarray(np.arange(4.0)))
    np.testing.assert_allclose(host(xp.fft.fftfreq(7, d=0.5)), np.fft.fftfreq(7, d=0.5))
    np.testing.assert_allclose(host(xp.fft.rfftfreq(8)), np.fft.rfftfreq(8))
    a = np.arange(10.0).reshape(2, 5)
    np.testing.assert_array_equal(host(xp.fft.fftshift(xp.asarray(a))), np.fft.fftshift(a))
    np.testing.assert_array_equal(host(xp.fft.ifftshift(xp.asarray(a), axes=1)),
                                  np.fft.ifftshift(a, axes=1))  # fmt: skip


def test_complex_dtypes_are_refused(ns: ModuleType) -> None:
    with pytest.raises(NotImplementedError, match=r"eagerpy_xp\.ndonnx\.zeros: complex64: ndonnx has no complex"):
        ns.zeros(3, dtype=ns.__backend__.dtypes_by_name["complex64"])
    assert ns.isdtype(ns.float32, "real floating")


def test_a_symbolic_value_is_refused_for_python() -> None:
    arg = ep.astensor(ndx.argument(shape=(2,), dtype=ndx.float32))
    with pytest.raises(NotImplementedError, match=r"symbolic .* xp\.where"):
        bool(wxp.sum(arg) > 0)
    with pytest.raises(NotImplementedError, match=r"symbolic"):
        float(wxp.sum(arg))


# -- data-dependent shapes stay unknown ---------------------------------------------------------
def test_data_dependent_shapes_keep_unknown_dimensions() -> None:
    arg = ndx.argument(shape=("N",), dtype=ndx.float64)
    assert xp.nonzero(arg)[0].shape == (None,)
    assert xp.unique_values(arg).shape == (None,)
    masked = ep.astensor(arg)[ep.astensor(arg) > 0]
    assert masked.shape == (None,)
    a = np.array([3.0, -1.0, 2.0, 3.0])
    np.testing.assert_array_equal(run_symbolic(lambda x: x[x > 0], a), [3.0, 2.0, 3.0])
    np.testing.assert_array_equal(run_symbolic(xp.unique_values, a), [-1.0, 2.0, 3.0])


# -- the wrapped flavour: writes, helpers, convert -----------------------------------------------
def test_setitem_in_the_wrapped_flavour_eager_and_symbolic() -> None:
    a = wxp.asarray(np.arange(6.0).reshape(2, 3))
    b = a
    a[0, 1] = -1.0
    a[:, 2] = wxp.asarray([10.0, 20.0])
    assert b is a
    np.testing.assert_array_equal(host(a), [[0.0, -1.0, 10.0], [3.0, 4.0, 20.0]])
    a[a > 5] = 0.0
    np.testing.assert_array_equal(host(a), [[0.0, -1.0, 0.0], [3.0, 4.0, 0.0]])
    with pytest.raises(TypeError, match=r"__setitem__"):
        a[0, 0] = 1j

    def clip_first_row(x: Any) -> Any:
        x[0] = 0.0
        return x

    np.testing.assert_array_equal(run_symbolic(clip_first_row, np.ones((2, 2)), wrapped=True),
                                  [[0.0, 0.0], [1.0, 1.0]])  # fmt: skip


def test_eagerpy_helpers(ns: ModuleType) -> None:
    a = RNG.normal(size=(2, 5))
    m = ns.asarray(a)
    e = np.exp(a - a.max(-1, keepdims=True))
    np.testing.assert_allclose(host(ns.softmax(m, axis=-1)), e / e.sum(-1, keepdims=True))
    np.testing.assert_allclose(host(ns.logsumexp(m, axis=-1)), np.log(np.exp(a).sum(-1)))
    np.testing.assert_allclose(host(ns.norms.l2(m, axis=-1)), np.linalg.norm(a, axis=-1))


@pytest.mark.parametrize("other", ["numpy", "torch"])
def test_convert_to_and_from_other_backends(other: str) -> None:
    pytest.importorskip(other)
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    source = ep.convert(a, other) if other != "numpy" else a
    onnx_array = ep.convert(source, "ndonnx")
    assert type(onnx_array) is ndx.Array and onnx_array.dtype == ndx.int16
    back = ep.convert(onnx_array, other)
    np.testing.assert_array_equal(np.asarray(ep.convert(back, "numpy")), a)
    wrapped = ep.convert(ep.astensor(source), "ndonnx")
    assert isinstance(wrapped, ep.Array) and wrapped.backend == "ndonnx"


def test_keys_with_fewer_entries_than_dimensions_and_an_integer_array() -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    w = wxp.asarray(a)
    for key in [0, (0, 1), (slice(None), np.array([2, -1])), (np.array([[1, 0]]),),
                (Ellipsis, np.array([3, 0])), (None, 1, np.array([0, 2]))]:  # fmt: skip
        np.testing.assert_array_equal(host(w[key]), a[key])
    arg = ep.astensor(ndx.argument(shape=("N", 3), dtype=ndx.float64))
    assert arg[:, ep.astensor(ndx.asarray(np.array([2, 0])))].shape == (None, 2)


#: NumPy's advanced keys for an array of shape (3, 4, 5): integer arrays (several, apart
#: or adjacent, broadcasting, negative, with ints among them), masks inside tuples, a
#: lone bool, NumPy integers as slice bounds.
ADVANCED_KEYS = [
    (np.array([0, 2]), np.array([1, 3])), (np.array([[0], [2]]), slice(None), np.array([4, 0])),
    (np.array([0, 1]), np.array([-1, -4]), slice(2, None)),
    (0, slice(None), np.array([4, 0])), (slice(None), np.array([1, -1]), np.array([[0, 4]])),
    (np.array([2, 0]), 1), (slice(None), np.arange(20).reshape(4, 5) % 3 == 0),
    (np.array([True, False, True]), 1, slice(1, 3)), (Ellipsis, np.array([-5, 4])),
    (None, np.array([1]), slice(None), 0), np.True_, np.False_, np.array(2),
    slice(np.int64(1), np.int32(3)), (np.array([], dtype=np.int64), slice(None)),
]  # fmt: skip


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=repr)
def test_advanced_keys_read_and_write_as_numpy(key: Any) -> None:
    """``x[key]`` and ``x[key] = v`` (a scalar, and an array broadcast to the selection)
    equal NumPy's, in the wrapped flavour; the native one reads the same."""
    a = np.arange(60.0).reshape(3, 4, 5)
    w = wxp.asarray(a)
    np.testing.assert_array_equal(host(w[key]), a[key])
    assert w[key].shape == a[key].shape
    written, expected = wxp.asarray(a), a.copy()
    written[key] = -1.0
    expected[key] = -1.0
    np.testing.assert_array_equal(host(written), expected)
    np.testing.assert_array_equal(host(w), a)  # (the original keeps its values)
    row = np.arange(a[key].shape[-1], dtype=np.float64) if a[key].ndim else np.float64(7.0)
    written[key] = wxp.asarray(row)
    expected[key] = row
    np.testing.assert_array_equal(host(written), expected)


def test_writes_through_integer_arrays_keep_dtypes_and_the_last_duplicate() -> None:
    big = np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)
    w = wxp.asarray(big)
    w[np.array([0, 2])] = 2**64 - 2
    np.testing.assert_array_equal(host(w), [2**64 - 2, 2**63, 2**64 - 2])
    flags = wxp.asarray(np.zeros((2, 2), dtype=bool))
    flags[np.array([1, 0]), np.array([0, 1])] = True
    np.testing.assert_array_equal(host(flags), [[False, True], [True, False]])
    repeated = wxp.asarray(np.zeros(3))
    repeated[np.array([1, 1])] = wxp.asarray(np.array([5.0, 6.0]))
    np.testing.assert_array_equal(host(repeated), [0.0, 6.0, 0.0])


@pytest.mark.parametrize(("key", "kind", "text"), [
    ((np.array([0, 3]),), IndexError, "index 3 is out of bounds for axis 0 of size 3"),
    ((0, np.array([[-5]])), IndexError, "index -5 is out of bounds for axis 1 of size 4"),
    ((0, 6), IndexError, "index 6 is out of bounds for axis 1 of size 4"),
    ((np.array([1.0]),), IndexError, "integer or boolean dtype, got float64"),
    ((Ellipsis, Ellipsis), IndexError, "at most one ellipsis"),
    (([[0, 1], [1]],), IndexError, "__getitem__"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
])  # fmt: skip
def test_invalid_keys_are_index_errors(key: Any, kind: type, text: str) -> None:
    w = wxp.asarray(np.arange(60.0).reshape(3, 4, 5))
    with pytest.raises(kind, match=r"eagerpy_xp\.ndonnx\.Array\.__getitem__: .*" + _re(text)):
        w[key if len(key) > 1 else key[0]]
    with pytest.raises(kind, match=r"eagerpy_xp\.ndonnx\.Array\.__setitem__: "):
        w[key if len(key) > 1 else key[0]] = 1.0
    np.testing.assert_array_equal(host(w), np.arange(60.0).reshape(3, 4, 5))
    with pytest.raises(ValueError, match=r"__setitem__: a value of shape \(5,\) does not "
                                         r"broadcast to the selected shape \(4,\)"):  # fmt: skip
        w[0, :, 0] = wxp.asarray(np.ones(5))


def _re(text: str) -> str:
    import re

    return re.escape(text).replace(r"__getitem__", "")


def test_signbit_copysign_hypot_atan2_and_integer_division_by_zero() -> None:
    v = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 2.5])
    np.testing.assert_array_equal(host(xp.signbit(xp.asarray(v))), np.signbit(v))
    np.testing.assert_array_equal(np.signbit(host(xp.copysign(xp.asarray(v), -0.0))), True)
    y, x = np.meshgrid(v, v, indexing="ij")
    np.testing.assert_allclose(host(xp.hypot(xp.asarray(y), xp.asarray(x))), np.hypot(y, x))
    angles = host(xp.atan2(xp.asarray(y), xp.asarray(x)))
    np.testing.assert_allclose(angles, np.arctan2(y, x), rtol=1e-15)
    np.testing.assert_array_equal(np.signbit(angles), np.signbit(np.arctan2(y, x)))  # (-0.0)
    for name in ("expm1", "log1p"):  # ndonnx's own give +0.0 for -0.0
        assert np.signbit(host(getattr(xp, name)(xp.asarray(np.array([-0.0]))))).all()
    a = xp.asarray(np.array([7, -3], np.int16))
    zero_two = xp.asarray(np.array([0, 2], np.int16))
    np.testing.assert_array_equal(host(xp.floor_divide(a, zero_two)), [0, -2])
    np.testing.assert_array_equal(host(xp.remainder(a, zero_two)), [0, 1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nextafter_by_arithmetic_equals_numpy(dtype: str) -> None:
    """Signed zeros, subnormals, powers of two both ways, the largest finite number,
    infinities, NaN, equal operands (the second one's sign)."""
    info = np.finfo(dtype)
    tiny = info.smallest_subnormal
    v = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 0.5, tiny, -tiny, info.tiny, info.max, -info.max,
                  np.inf, -np.inf, np.nan, 3.3, -7.1e-30, 1e30], dtype=dtype)  # fmt: skip
    toward = np.array([-0.0, 0.0, 0.0, 0.0, -1.0, 1.0, 0.0, 1.0, 0.0, np.inf, np.inf, 0.0, 0.0,
                       1.0, 3.3, -1.0, -np.inf], dtype=dtype)  # fmt: skip
    got = host(xp.nextafter(xp.asarray(v), xp.asarray(toward)))
    expected = np.nextafter(v, toward)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    grid = np.nextafter(v[:, None], v[None, :])
    np.testing.assert_array_equal(host(xp.nextafter(xp.asarray(v[:, None]), xp.asarray(v[None, :]))),
                                  grid)  # fmt: skip


def test_fused_compositions_keep_values_dtypes_errors_and_symbolic_graphs() -> None:
    """A composition run as one onnxruntime model (eager inputs; `NdonnxCore.fuse`)
    gives the node-by-node values, keeps float32, is reused (the same session for the
    same shapes and dtypes), raises what the trace raises, and on symbolic inputs
    stays a graph."""
    b = xp.__backend__
    for dtype in ("float32", "float64"):
        y = RNG.normal(size=(3, 1)).astype(dtype)
        x = RNG.normal(size=(1, 4)).astype(dtype)
        got = xp.atan2(xp.asarray(y), xp.asarray(x))
        assert got.dtype == getattr(xp, dtype) and got.shape == (3, 4)
        np.testing.assert_allclose(host(got), np.arctan2(y, x), rtol=2e-7 if dtype == "float32" else 1e-15)
        assert xp.nextafter(xp.asarray(x), 1.0).dtype == getattr(xp, dtype)
    b._sessions.clear()  # (a bounded cache: full after other tests, it would evict as it adds)
    before = len(b._sessions)
    a = RNG.normal(size=(2, 3, 3))
    first = host(xp.linalg.det(xp.asarray(a)))
    assert len(b._sessions) == before + 1
    again = host(xp.linalg.det(xp.asarray(a * 2)))
    assert len(b._sessions) == before + 1  # (the same model, other values)
    np.testing.assert_allclose(first, np.linalg.det(a))
    np.testing.assert_allclose(again, np.linalg.det(a * 2))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.ndonnx\.nextafter: "):
        xp.nextafter(xp.asarray(np.ones(4)), xp.asarray(np.ones((2, 3))))
    arg = ndx.argument(shape=("N", 2, 2), dtype=ndx.float64)
    symbolic = xp.linalg.det(arg)
    assert symbolic.shape == (None,)
    model = ndx.build({"a": arg}, {"d": symbolic})
    batch = RNG.normal(size=(5, 2, 2))
    np.testing.assert_allclose(ep.onnx_function(model)(batch), np.linalg.det(batch))


def test_python_ints_at_the_64_bit_bounds() -> None:
    """ndonnx reads such ints as int64 (or through float64): ``where``, integer
    division, shifts, ``arange`` and ``asarray`` keep their exact values here."""
    u = xp.asarray(np.array([1, 2, 3], np.uint64))
    top = 2**64 - 1
    condition = xp.asarray(np.array([True, False, True]))
    np.testing.assert_array_equal(host(xp.where(condition, u, top)), [1, top, 3])
    np.testing.assert_array_equal(host(xp.where(condition, top, u)), [top, 2, top])
    np.testing.assert_array_equal(host(xp.floor_divide(top, u)), [top, top // 2, top // 3])
    np.testing.assert_array_equal(host(xp.remainder(top, u)), [0, 1, 0])
    np.testing.assert_array_equal(host(xp.bitwise_right_shift(u, top)), [0, 0, 0])
    np.testing.assert_array_equal(host(xp.arange(top - 2, top + 1, dtype=xp.uint64)),
                                  [top - 2, top - 1, top])  # fmt: skip
    low = -(2**63)
    np.testing.assert_array_equal(host(xp.arange(low + 2, low - 1, -1, dtype=xp.int64)),
                                  [low + 2, low + 1, low])  # fmt: skip
    np.testing.assert_array_equal(host(xp.asarray([[1], [top]], dtype=xp.uint64)), [[1], [top]])
    for call in (lambda: xp.asarray([[1], [top + 1]], dtype=xp.uint64),
                 lambda: xp.where(condition, u, top + 1), lambda: xp.floor_divide(u, -1),
                 lambda: xp.arange(top + 1, top + 2, dtype=xp.uint64),
                 lambda: xp.asarray([2**63, 1])):  # fmt: skip
        with pytest.raises(OverflowError, match=r"eagerpy_xp\.ndonnx\.\w+: the Python int "
                                                r"-?\d+ does not fit"):  # fmt: skip
            call()


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"])
def test_right_shift_is_arithmetic_for_every_count(dtype: str) -> None:
    info = np.iinfo(dtype)
    middle = info.min // 2 - 3 if info.min else info.max // 3
    a = np.array([info.min, info.min + 1, middle, 0, 1, 5, info.max], dtype=dtype)
    counts = np.arange(0, info.bits + 3, dtype=dtype)
    got = host(xp.bitwise_right_shift(xp.asarray(a[:, None]), xp.asarray(counts[None, :])))
    expected = a[:, None] >> np.minimum(counts, info.bits - 1)[None, :]
    np.testing.assert_array_equal(got, expected)


def test_integer_products_wrap_and_running_products_take_any_sign() -> None:
    """ndonnx computes both in float64 (and ``cumulative_prod`` as
    ``exp(cumulative_sum(log(x)))``, NaN for a negative entry)."""
    a = np.full((2, 4, 3), 15, dtype=np.uint64)
    np.testing.assert_array_equal(host(xp.prod(xp.asarray(a), keepdims=True)),
                                  np.prod(a, keepdims=True))  # fmt: skip
    b = np.arange(-6, 9, dtype=np.int64).reshape(3, 5) * 2**20 + 1
    for axis in (None, 0, 1, (0, 1)):
        np.testing.assert_array_equal(host(xp.prod(xp.asarray(b), axis=axis)), np.prod(b, axis=axis))
    np.testing.assert_array_equal(host(xp.prod(xp.asarray(np.zeros((2, 0), np.int8)), axis=1)),
                                  [1, 1])  # fmt: skip
    assert xp.prod(xp.asarray(np.ones(3, np.int8))).dtype == xp.int64
    f = np.array([[-42.5, 2.0, 0.0, -3.0], [1.5, -1.0, 4.0, 2.0]], dtype=np.float32)
    got = host(xp.cumulative_prod(xp.asarray(f), axis=1, include_initial=True))
    np.testing.assert_allclose(got, np.concatenate([np.ones((2, 1)), np.cumprod(f, axis=1)], 1))
    np.testing.assert_array_equal(np.signbit(got[:, 1:]), np.signbit(np.cumprod(f, axis=1)))
    i = np.array([3, -5, 7, 2**40, 2**30], dtype=np.int64)
    np.testing.assert_array_equal(host(xp.cumulative_prod(xp.asarray(i))), np.cumprod(i))
    assert host(xp.cumulative_prod(xp.asarray(np.zeros(0)), include_initial=True)).tolist() == [1.0]


def test_trunc_logaddexp_and_searchsorted_of_any_shape() -> None:
    v = np.array([-1.2e-253, -0.5, 0.5, -0.0, np.nan, -np.inf, -3.7])
    got = host(xp.trunc(xp.asarray(v)))
    np.testing.assert_array_equal(got, np.trunc(v))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.trunc(v)))
    a = np.array([-2.3e16, np.inf, -np.inf, np.nan, 1.0, 800.0])
    b = np.array([4.39e16, np.inf, -np.inf, 1.0, 2.0, 800.0])
    np.testing.assert_allclose(host(xp.logaddexp(xp.asarray(a), xp.asarray(b))), np.logaddexp(a, b))
    sorted_ = xp.asarray(np.array([1.0, 2.0, 3.0]))
    for v2 in (np.array(1.5), np.array([[1.5, 3.0], [0.0, 9.0]]), np.zeros((0, 2))):
        for side in ("left", "right"):
            found = xp.searchsorted(sorted_, xp.asarray(v2), side=side)
            np.testing.assert_array_equal(host(found), np.searchsorted([1.0, 2.0, 3.0], v2, side))


def test_jit_runs_as_is_vmap_loops_and_autodiff_is_refused(ns: ModuleType) -> None:
    a = ns.asarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(host(ep.vmap(lambda v: ep.namespace(v).sum(v))(a)), [3.0, 12.0])
    np.testing.assert_array_equal(host(ep.jit(lambda v: v * 2)(a)), np.arange(6.0).reshape(2, 3) * 2)
    with pytest.raises(NotImplementedError, match=r"eagerpy_xp\.ndonnx\.value_and_grad: ndonnx "
                                                  r"has no automatic differentiation"):  # fmt: skip
        ep.value_and_grad(lambda x: ep.namespace(x).sum(x), a)


def test_take_with_narrow_and_negative_indices(ns: ModuleType) -> None:
    a = np.arange(12.0).reshape(3, 4)
    taken = ns.take(ns.asarray(a), ns.asarray(np.array([2, -1], np.int32)), axis=1)
    np.testing.assert_array_equal(host(taken), a[:, [2, -1]])


@pytest.mark.parametrize(("name", "reference"), [("cos", np.cos), ("tan", np.tan),
                                                 ("atan", np.arctan), ("asin", np.arcsin),
                                                 ("acos", np.arccos)])  # fmt: skip
def test_float64_trigonometry_keeps_double_precision(name: str, reference: Any) -> None:
    """onnxruntime has no double Tan, Atan, Asin, Acos (ndonnx casts those, and Cos, to
    float32): the backend uses double Cos, Sin and Newton steps (float32 would be off by
    some 1e-7)."""
    v = np.concatenate([np.array([0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e300, np.inf,
                                  -np.inf, np.nan, 0.5, 2.0, 1 - 1e-16, -1 + 1e-16, 1.5]),
                        np.random.default_rng(5).normal(size=400) * np.logspace(-12, 12, 400)])  # fmt: skip
    with np.errstate(all="ignore"):
        expected = reference(v)
    got = host(getattr(xp, name)(xp.asarray(v)))
    # (near cos's zeros two libms' last bits differ: an absolute 1e-16, which tan's
    # quotient amplifies)
    periodic = name in ("cos", "tan")
    np.testing.assert_allclose(got, expected, rtol=1e-13 if periodic else 1e-14,
                               atol=1e-15 if name == "cos" else 0)  # fmt: skip
    assert (np.signbit(got) == np.signbit(expected))[~np.isnan(expected)].all()
    y, x = np.meshgrid(v[10:60], v[10:60], indexing="ij")
    np.testing.assert_allclose(host(xp.atan2(xp.asarray(y), xp.asarray(x))), np.arctan2(y, x),
                               rtol=1e-15, atol=0)  # fmt: skip


@pytest.mark.parametrize(("name", "reference"), [("cosh", np.cosh), ("sinh", np.sinh),
                                                 ("asinh", np.arcsinh), ("acosh", np.arccosh),
                                                 ("atanh", np.arctanh)])  # fmt: skip
def test_float64_hyperbolic_functions_keep_double_precision(name: str, reference: Any) -> None:
    """onnxruntime computes these in float32 for float64 inputs; the backend composes them
    in float64 (1e-14 relative: float32 would give some 1e-7)."""
    v = np.array([0.0, -0.0, 1e-300, -1e-12, 0.3, -0.99, 1.0, -1.0, 2.0, 25.0, 1e10, -1e200,
                  np.inf, -np.inf, np.nan, 1.0000001])  # fmt: skip
    with np.errstate(all="ignore"):
        expected = reference(v)
    got = host(getattr(xp, name)(xp.asarray(v)))
    np.testing.assert_allclose(got, expected, rtol=1e-14, atol=0)
    assert (np.signbit(got) == np.signbit(expected))[~np.isnan(expected)].all()


def test_the_suite_skips_what_needs_a_kind_ndonnx_holds_none_of() -> None:
    """conformance.harness: the fuzzer's stand-in for a complex input is refused
    (`Unsupported`: an Exception and a pytest skip), and a hypothesis test whose every
    example needs a complex dtype is skipped after 25 examples, while one with some
    holdable examples runs them."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from conformance.harness import Target, Unsupported

    target = Target("ndonnx", "native", "cpu")
    assert target.holdable(np.zeros(2, np.float64)).dtype == np.float64
    for dtype in ("complex64", "complex128"):
        with pytest.raises(Unsupported, match="holds no dtype of"):
            target.holdable(np.zeros(2, dtype))
    assert issubclass(Unsupported, Exception) and issubclass(Unsupported, pytest.skip.Exception)
    drawn: list[str] = []

    @settings(max_examples=40, database=None, derandomize=True)
    @given(st.sampled_from(["complex64", "complex128"]), st.integers())
    def never(name: str, _: int) -> None:
        drawn.append(name)
        target.check_holds(name)

    with pytest.raises(pytest.skip.Exception, match="which every example needs"):
        never()
    assert len(drawn) == 25
    ran: list[str] = []

    @settings(max_examples=30, database=None, derandomize=True)
    @given(st.sampled_from(["complex128", "float64"]), st.integers())
    def sometimes(name: str, _: int) -> None:
        target.check_holds(name)
        ran.append(name)

    sometimes()
    assert ran and set(ran) == {"float64"}


def test_uint64_and_int64_beyond_float64s_integers() -> None:
    """onnxruntime has no uint64 ReduceSum, ReduceMax, ArgMax, TopK or Unique (ndonnx
    goes through float64 and rounds past 2**53) and its int64 ReduceSum saturates: sums
    wrap as NumPy's, order functions keep uint64's order (through its int64 twin)."""
    top = 2**64 - 1
    a = np.array([top, 2**63 + 1, 5, 2**63, 2**53 + 1, top - 1], dtype=np.uint64)
    x = xp.asarray(a)
    checks = [
        (xp.sum(x), np.sum(a)), (xp.cumulative_sum(x), np.cumsum(a)),
        (xp.max(x), a.max()), (xp.min(x), a.min()), (xp.argmax(x), a.argmax()),
        (xp.argmin(x), a.argmin()), (xp.sort(x), np.sort(a)),
        (xp.sort(x, descending=True), np.sort(a)[::-1]), (xp.argsort(x), np.argsort(a, kind="stable")),
        (xp.unique_values(x), np.unique(a)),
        (xp.unique_counts(xp.asarray(np.concatenate([a, a[:2]])))[1],
         np.unique(np.concatenate([a, a[:2]]), return_counts=True)[1]),
    ]  # fmt: skip
    i = np.array([[2**62, 2**62, 2**62], [-5, 7, -(2**63)]], dtype=np.int64)
    with np.errstate(over="ignore"):
        checks += [(xp.sum(xp.asarray(i), axis=1), np.sum(i, axis=1)),
                   (xp.sum(xp.asarray(i), axis=0, keepdims=True), np.sum(i, axis=0, keepdims=True)),
                   (xp.cumulative_sum(xp.asarray(i), axis=1, include_initial=True),
                    np.concatenate([np.zeros((2, 1), np.int64), np.cumsum(i, axis=1)], axis=1)),
                   (xp.sum(xp.asarray(np.array([100, 100], np.int8)), dtype=xp.int8), np.int8(-56)),
                   (xp.sum(xp.asarray(np.zeros((0, 3), np.int32)), axis=0), np.zeros(3, np.int64))]  # fmt: skip
    for got, expected in checks:
        assert host(got).dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(host(got), expected)
    assert host(xp.cumulative_sum(x, include_initial=True)).tolist()[:3] == [0, top, 2**63]
    empty = xp.sum(xp.asarray(np.zeros((0, 2), np.uint16)))  # (onnxruntime's uint64 MatMul
    assert host(empty) == 0 and empty.dtype == xp.uint64   # fails on an empty inner axis)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_where_keeps_signed_zeros_from_either_operand(dtype: str) -> None:
    """onnxruntime's Where returns +0.0 where it picks a -0.0 from its first operand."""
    c = np.array([True, False, True, False, True])
    a = np.array([-0.0, 1.0, -0.0, 2.0, 0.0], dtype=dtype)
    b = np.array([5.0, -0.0, 0.0, -0.0, -0.0], dtype=dtype)
    for x1, x2 in ((a, b), (b, a), (-0.0, b), (a, -0.0)):
        got = host(xp.where(xp.asarray(c), x1 if isinstance(x1, float) else xp.asarray(x1),
                            x2 if isinstance(x2, float) else xp.asarray(x2)))  # fmt: skip
        expected = np.where(c, x1, x2).astype(dtype)
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    grid = host(xp.where(xp.asarray(c[:, None]), xp.asarray(a), xp.asarray(b)))
    np.testing.assert_array_equal(np.signbit(grid), np.signbit(np.where(c[:, None], a, b)))


@pytest.mark.parametrize("key", [0, -1, slice(0, 1), (slice(None),)])
def test_fewer_expressions_than_dimensions(key: Any) -> None:
    """The wrapped flavour reads ``x[0]`` of a 2-d array as NumPy's ``x[0, ...]``; the
    native one (ndonnx's own arrays and operator) raises the `IndexError` the standard's
    indexing page recommends (docs/onnx.md)."""
    data = np.arange(6.0).reshape(2, 3)
    full = (*key, Ellipsis) if isinstance(key, tuple) else (key, Ellipsis)
    np.testing.assert_array_equal(np.asarray(wxp.asarray(data)[key]), data[full])
    with pytest.raises(IndexError):
        xp.asarray(data)[key]
    np.testing.assert_array_equal(xp.asarray(data)[full].unwrap_numpy(), data[full])
