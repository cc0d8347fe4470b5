"""The Dask backend: values against the NumPy backend across chunk boundaries, laziness
(graph computations counted per function), chunks, immutability, linalg limits, a
two-process `LocalCluster`, and the EagerPy extensions on Dask arrays."""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any

import dask
import dask.array as da
import numpy as np
import pytest

import eagerpy_xp as ep
import eagerpy_xp.dask as wxp
import eagerpy_xp.native.dask as xp
import eagerpy_xp.native.numpy as nxp

RNG = np.random.default_rng(0)
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")  # fmt: skip


def sample(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values of ``dtype`` with signed zeros, infinities and NaNs for floating dtypes."""
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return RNG.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dtype)
    values = RNG.normal(0, 3, shape)
    flat = values.reshape(-1)
    flat[: min(4, flat.size)] = [0.0, -0.0, np.inf, -np.nan][: min(4, flat.size)]
    if dtype.startswith("complex"):
        values = values + 1j * RNG.normal(0, 3, shape)
    return values.astype(dtype)


def chunked(a: np.ndarray, size: int = 2) -> Any:
    """A Dask array of ``a`` in chunks of ``size`` along every axis (several chunks)."""
    return da.from_array(a, chunks=tuple(min(size, max(n, 1)) for n in a.shape))


def same(result: Any, expected: Any) -> None:
    """Same dtype, shape and values (NaNs equal, signed zeros compared)."""
    got = np.asarray(result.compute() if isinstance(result, da.Array) else result)
    want = np.asarray(expected)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-5 if want.dtype.itemsize <= 8 else 1e-12,
                                   atol=1e-6, equal_nan=True)  # fmt: skip
        finite_zero = want == 0
        assert np.array_equal(np.signbit(got.real)[finite_zero], np.signbit(want.real)[finite_zero])
    else:
        np.testing.assert_array_equal(got, want)


# -- values against the NumPy backend, every family, every dtype ---------------------------
UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
         "conj", "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan",
         "log", "log1p", "log2", "log10", "logical_not", "negative", "positive", "real",
         "reciprocal", "round", "sign", "signbit", "sin", "sinh", "square", "sqrt", "tan",
         "tanh", "trunc")  # fmt: skip
BINARY = ("add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
          "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "equal", "floor_divide",
          "greater", "greater_equal", "hypot", "less", "less_equal", "logaddexp", "logical_and",
          "logical_or", "logical_xor", "maximum", "minimum", "multiply", "nextafter",
          "not_equal", "pow", "remainder", "subtract")  # fmt: skip


def _applies(name: str, *args: Any) -> Any:
    """The NumPy backend's result, or None when it refuses the dtype (then so must Dask)."""
    try:
        with np.errstate(all="ignore"):
            return getattr(nxp, name)(*args)
    except (TypeError, ValueError):
        return None


@pytest.mark.parametrize("dtype", DTYPES)
def test_elementwise_match_numpy(dtype: str) -> None:
    a, b = sample((5, 3), dtype), sample((3,), dtype)  # b broadcasts against a's rows
    if dtype.startswith(("int", "uint")):
        b = np.abs(b) % 7 + (dtype[0] == "u" or 1)  # valid shifts, no division by zero
        b = b.astype(dtype)
    x, y = chunked(a), chunked(b)
    for name in UNARY:
        expected = _applies(name, a)
        if expected is not None:
            with np.errstate(all="ignore"):
                same(getattr(xp, name)(x), expected)
    for name in BINARY:
        expected = _applies(name, a, b)
        if expected is not None:
            with np.errstate(all="ignore"):
                same(getattr(xp, name)(x, y), expected)
                same(getattr(xp, name)(x, b[0].item()), getattr(nxp, name)(a, b[0].item()))


def test_fixed_special_cases() -> None:
    """The NumPy deviations the backend fixes chunk by chunk."""
    x = chunked(np.array([1.0, -1.0, np.inf, -np.inf, 0.0, 5.0]))
    same(xp.floor_divide(x, np.inf), np.array([0.0, -0.0, np.nan, np.nan, 0.0, 0.0]))
    same(xp.pow(chunked(np.array([-np.inf, -0.0])), 0.5), np.array([np.inf, 0.0]))
    z = chunked(np.array([np.inf + 0j, complex(np.nan, 1.0), 1e-20 + 1e-20j]))
    same(xp.expm1(z), nxp.expm1(z.compute()))
    same(xp.sign(z), nxp.sign(z.compute()))
    same(xp.log1p(z), nxp.log1p(z.compute()))
    big = chunked(np.array([89 + 0j, complex(89, -0.0), 1j], dtype=np.complex64))  # exp overflows
    same(xp.expm1(big)[:2], np.array([complex(np.inf, 0.0), complex(np.inf, -0.0)], np.complex64))


def test_setitem_into_a_zero_size_array_broadcasts_as_numpy() -> None:
    """A (2,) value into a (0, 2) selection writes nothing and is no error (Dask raised
    "shape mismatch"; 400-example run, seed 40001); a value that does not broadcast still
    raises."""
    x = ep.astensor(chunked(np.zeros((0, 2), dtype=bool)))
    x[(slice(None), ...)] = ep.astensor(chunked(np.array([False, True])))
    x[0:0] = True
    assert x.shape == (0, 2) and x.dtype == np.bool_
    same(x.raw, np.zeros((0, 2), dtype=bool))
    with pytest.raises(ValueError, match="could not broadcast"):
        x[:, ...] = ep.astensor(chunked(np.array([False, False, True])))
    with pytest.raises(IndexError):
        x[5] = True


def test_setitem_one_value_per_row_of_a_lazy_mask() -> None:
    """``x[mask] = values`` with a Dask mask (count unknown until computed) and one value
    per selected row (Dask raised "cannot broadcast shape (2,) to shape (nan,)"; the
    400-example rerun, seed 40001)."""
    x = ep.astensor(chunked(np.zeros(2, dtype=bool), size=1))
    x[ep.astensor(chunked(np.array([True, True]), size=1))] = ep.astensor(
        chunked(np.array([True, False]), size=1))
    same(x.raw, np.array([True, False]))
    y = ep.astensor(chunked(np.zeros((3, 2)), size=1))
    rows = ep.astensor(chunked(np.array([True, False, True]), size=1))
    y[rows] = ep.astensor(chunked(np.array([[1.0, 2.0], [3.0, 4.0]])))
    same(y.raw, np.array([[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]]))
    y[rows] = 7.0
    same(y.raw, np.array([[7.0, 7.0], [0.0, 0.0], [7.0, 7.0]]))


def test_integer_to_a_negative_power_is_an_array() -> None:
    """Dask's dtype inference gives up (``NotImplemented``) when the function raises on its
    samples; the backend then infers the dtype itself (60-example run, seed 6001: an empty
    int8 array ``**= -1``)."""
    empty = chunked(np.array([], dtype=np.int8))
    result = xp.pow(empty, -1)
    assert isinstance(result, da.Array) and result.dtype == np.int8
    same(result, np.array([], dtype=np.int8))
    wrapped = ep.astensor(empty)
    wrapped **= -1
    assert wrapped.dtype == np.int8 and wrapped.shape == (0,)
    same(xp.pow(chunked(np.array([2, 3], dtype=np.int8)), 2), np.array([4, 9], dtype=np.int8))


@pytest.mark.parametrize("dtype", ("int8", "uint16", "int64", "float32", "float64", "complex128"))
def test_reductions_match_numpy(dtype: str) -> None:
    a = sample((4, 5, 3), dtype)
    if dtype[0] in "iu":
        a = (a % 3).astype(dtype)  # products stay small
    else:
        a = np.where(np.isfinite(a), a, 1).astype(dtype)
    x = chunked(a)
    for axis in (None, 0, (0, 2), -1):
        for keepdims in (False, True):
            for name in ("sum", "prod", "mean", "max", "min", "all", "any", "count_nonzero"):
                if name in ("max", "min") and dtype.startswith("complex"):
                    continue
                if name == "mean" and dtype[0] in "iu":
                    continue
                same(getattr(xp, name)(x, axis=axis, keepdims=keepdims),
                     getattr(nxp, name)(a, axis=axis, keepdims=keepdims))  # fmt: skip
            if dtype[0] == "c":  # std and var are real floating-point only (issue 15)
                with pytest.raises(TypeError, match=r"eagerpy_xp\.dask\.std: .*complex128"):
                    xp.std(x, axis=axis, keepdims=keepdims)
            if dtype[0] == "f":
                for correction in (0, 1, 1.5):
                    for name in ("std", "var"):
                        same(getattr(xp, name)(x, axis=axis, correction=correction,
                                               keepdims=keepdims),
                             getattr(nxp, name)(a, axis=axis, correction=correction,
                                                keepdims=keepdims))  # fmt: skip
    for name in ("cumulative_sum", "cumulative_prod"):
        for include_initial in (False, True):
            same(getattr(xp, name)(x, axis=1, include_initial=include_initial),
                 getattr(nxp, name)(a, axis=1, include_initial=include_initial))  # fmt: skip
    if dtype[0] in "iuf":
        for name in ("argmax", "argmin"):
            same(getattr(xp, name)(x, axis=1, keepdims=True), getattr(nxp, name)(a, axis=1, keepdims=True))
            same(getattr(xp, name)(x), getattr(nxp, name)(a))


@pytest.mark.parametrize("dtype", ("bool", "int16", "uint8", "float32", "float64"))
def test_sorting_and_searching_match_numpy(dtype: str) -> None:
    a = (sample((6, 7), dtype) if dtype != "float64"
         else np.array([[3.0, -0.0, 0.0, np.nan, 1.0, 3.0, -np.inf]] * 6))  # fmt: skip
    x = chunked(a, 3)
    if dtype == "bool":  # not real numeric: sorting refuses it (issue 15)
        with pytest.raises(TypeError, match=r"eagerpy_xp\.dask\.sort: .*real numeric.*bool"):
            xp.sort(x)
        return
    for axis in (0, -1):
        for descending in (False, True):
            same(xp.sort(x, axis=axis, descending=descending),
                 nxp.sort(a, axis=axis, descending=descending))  # fmt: skip
            same(xp.argsort(x, axis=axis, descending=descending, stable=True),
                 nxp.argsort(a, axis=axis, descending=descending, stable=True))  # fmt: skip
    row = np.sort(a[0])
    same(xp.searchsorted(chunked(row, 3), x, side="right"), nxp.searchsorted(row, a, side="right"))
    same(xp.where(x > x[0], x, x[0]), nxp.where(a > a[0], a, a[0]))
    same(xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1),
         nxp.take_along_axis(a, nxp.argsort(a, axis=1), axis=1))  # fmt: skip
    for got, want in zip(xp.nonzero(x), nxp.nonzero(a)):
        same(got, want)


def test_sets_match_numpy() -> None:
    a = np.array([[3.0, np.nan, 1.0], [1.0, np.nan, 3.0], [2.0, 2.0, 0.0]])
    x = chunked(a)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        for got, want in zip(getattr(xp, name)(x), getattr(nxp, name)(a)):
            same(got, want)
    same(xp.unique_values(x), nxp.unique_values(a))
    same(xp.isin(x, chunked(np.array([1.0, 2.0]))), nxp.isin(a, np.array([1.0, 2.0])))


def test_manipulation_and_creation_match_numpy() -> None:
    a = sample((4, 6), "int32")
    x = chunked(a, 3)
    same(xp.concat([x, x], axis=None), nxp.concat([a, a], axis=None))
    same(xp.stack([x, x], axis=1), nxp.stack([a, a], axis=1))
    same(xp.reshape(x, (3, 8)), nxp.reshape(a, (3, 8)))
    same(xp.roll(x, 5), nxp.roll(a, 5))
    same(xp.roll(x, (1, -2), axis=(0, 1)), nxp.roll(a, (1, -2), axis=(0, 1)))
    same(xp.flip(x, axis=1), nxp.flip(a, axis=1))
    same(xp.permute_dims(x, (-1, 0)), nxp.permute_dims(a, (-1, 0)))
    same(xp.expand_dims(x, axis=(0, -1)), nxp.expand_dims(a, axis=(0, -1)))
    same(xp.squeeze(xp.expand_dims(x, axis=1), axis=1), a)
    same(xp.repeat(x, 2, axis=0), nxp.repeat(a, 2, axis=0))
    same(xp.repeat(x, xp.asarray([1, 0, 2, 1, 0, 3]), axis=1),
         nxp.repeat(a, np.array([1, 0, 2, 1, 0, 3]), axis=1))  # fmt: skip
    same(xp.tile(x, (2, 1)), nxp.tile(a, (2, 1)))
    for got, want in zip(xp.unstack(x, axis=1), nxp.unstack(a, axis=1)):
        same(got, want)
    same(xp.moveaxis(x, 0, 1), nxp.moveaxis(a, 0, 1))
    same(xp.take(x, xp.asarray([3, 0, 0]), axis=0), nxp.take(a, np.array([3, 0, 0]), axis=0))
    same(xp.diff(x, axis=1, prepend=x[:, :1]), nxp.diff(a, axis=1, prepend=a[:, :1]))
    same(xp.clip(x, -3, 7), nxp.clip(a, -3, 7))
    same(xp.tril(x, k=1), nxp.tril(a, k=1))
    same(xp.broadcast_to(x[0], (3, 6)), nxp.broadcast_to(a[0], (3, 6)))
    same(xp.astype(x, xp.float32), nxp.astype(a, nxp.float32))
    for k in (-1, 0, 2):
        same(xp.eye(3, 5, k=k, dtype=xp.int8), nxp.eye(3, 5, k=k, dtype=nxp.int8))
    same(xp.arange(2, 11, 3), nxp.arange(2, 11, 3))
    same(xp.linspace(0, 1, 7), nxp.linspace(0, 1, 7))
    same(xp.full((2, 3), 7), nxp.full((2, 3), 7))
    same(xp.asarray([[1, 2], [3, 4]], dtype=xp.uint8), nxp.asarray([[1, 2], [3, 4]], dtype=nxp.uint8))
    same(xp.matmul(x, xp.matrix_transpose(x)), nxp.matmul(a, nxp.matrix_transpose(a)))
    same(xp.tensordot(x, x, axes=([0], [0])), nxp.tensordot(a, a, axes=([0], [0])))
    same(xp.vecdot(x, x), nxp.vecdot(a, a))
    w = ep.astensor(x)  # the wrapped flavour's indexing (native operators are Dask's own)
    same(w[xp.asarray([2, 0]), xp.asarray([5, -1])].raw, a[np.array([2, 0]), np.array([5, -1])])
    same(w[w > 0].raw, a[a > 0])


def test_linalg_and_fft_match_numpy() -> None:
    a = RNG.normal(size=(3, 4, 4))
    a = a @ np.swapaxes(a, -1, -2) + 4 * np.eye(4)  # symmetric positive definite stack
    x = da.from_array(a, chunks=(1, 4, 4))  # split over the stack, matrices whole
    for name in ("cholesky", "det", "eigvalsh", "inv", "pinv", "svdvals", "matrix_rank"):
        same(getattr(xp.linalg, name)(x), getattr(nxp.linalg, name)(a))
    for name in ("eigh", "qr", "slogdet", "svd"):
        for got, want in zip(getattr(xp.linalg, name)(x), getattr(nxp.linalg, name)(a)):
            np.testing.assert_allclose(np.abs(got.compute()), np.abs(want), atol=1e-10)
    same(xp.linalg.solve(x, da.ones((4,), chunks=2)), nxp.linalg.solve(a, np.ones(4)))
    same(xp.linalg.matrix_power(x, -2), nxp.linalg.matrix_power(a, -2))
    for ord in ("fro", 1, -1, math.inf, -math.inf, 2, -2, "nuc"):
        same(xp.linalg.matrix_norm(x, ord=ord, keepdims=True),
             nxp.linalg.matrix_norm(a, ord=ord, keepdims=True))  # fmt: skip
    same(xp.linalg.trace(x, offset=1), nxp.linalg.trace(a, offset=1))
    same(xp.linalg.vector_norm(x, axis=(0, 2), ord=3), nxp.linalg.vector_norm(a, axis=(0, 2), ord=3))
    v = chunked(RNG.normal(size=(5, 3)))
    same(xp.linalg.cross(v, v[::-1]), nxp.linalg.cross(v.compute(), v.compute()[::-1]))
    tall = RNG.normal(size=(40, 3))
    blocked = da.from_array(tall, chunks=(10, 3))  # tall and skinny: Dask's TSQR
    q, r = xp.linalg.qr(blocked)
    np.testing.assert_allclose((q @ r).compute(), tall, atol=1e-12)
    same(xp.linalg.svdvals(blocked), nxp.linalg.svdvals(tall))
    signal = RNG.normal(size=(6, 8))
    s = chunked(signal, 3)
    z = xp.astype(s, xp.complex128)  # fft, ifft, fftn and hfft take complex input
    for name in ("fft", "ifft", "hfft"):
        same(getattr(xp.fft, name)(z, axis=0),
             getattr(nxp.fft, name)(signal.astype(np.complex128), axis=0))  # fmt: skip
    same(xp.fft.rfft(s, axis=0), nxp.fft.rfft(signal, axis=0))
    same(xp.fft.fftn(z, norm="ortho"), nxp.fft.fftn(signal.astype(np.complex128), norm="ortho"))
    same(xp.fft.irfftn(xp.fft.rfftn(s), s=(6, 8)), nxp.fft.irfftn(nxp.fft.rfftn(signal), s=(6, 8)))
    same(xp.fft.fftshift(s), nxp.fft.fftshift(signal))
    same(xp.fft.fftfreq(7, d=0.5, dtype=xp.float32), nxp.fft.fftfreq(7, d=0.5, dtype=nxp.float32))


def test_edge_cases_dask_gets_wrong() -> None:
    """Each of these fails with plain ``dask.array`` (found by the conformance suite)."""
    constant = chunked(np.full(5, 1.993005633354187, dtype=np.float32))
    assert xp.std(constant).compute() == 0.0 and xp.std(constant).dtype == np.float32
    same(xp.linspace(1, 7.285296999535196e-12, 2), nxp.linspace(1, 7.285296999535196e-12, 2))
    same(xp.repeat(da.zeros((0, 3), dtype=bool), 2), np.zeros((0,), dtype=bool))
    for got in xp.nonzero(da.zeros((2, 0, 2), dtype=bool)):
        same(got, np.zeros((0,), dtype=np.int64))
    same(xp.linalg.matrix_power(da.from_array(np.array([[2.0]], np.float32)), -1),
         np.array([[0.5]], np.float32))  # fmt: skip
    same(xp.argmax(chunked(np.array([[1, 5], [5, 0]]), 1)), np.int64(1))  # ties: C order
    same(xp.eye(3, 4, k=2), np.eye(3, 4, k=2))
    same(xp.searchsorted(chunked(np.arange(4)), da.zeros((0, 3, 0), dtype=np.int64)),
         np.zeros((0, 3, 0), dtype=np.int64))  # fmt: skip


# A matrix split into chunks by how it was built (SciPy's rotations stack 4 x 4 matrices
# from scalars: chunks (1, 1, 1, 1); `TestEppsSingleton` takes `pinv` of a split one):
# the whole-matrix functions rechunk its two axes (stacking axes keep their chunks), and use
# Dask's blocked algorithm where one takes the chunking.
_SPLIT_CALLS = {
    "det": lambda xp, a: xp.linalg.det(a), "eigh": lambda xp, a: xp.linalg.eigh(a).eigenvalues,
    "eigvalsh": lambda xp, a: xp.linalg.eigvalsh(a), "inv": lambda xp, a: xp.linalg.inv(a),
    "pinv": lambda xp, a: xp.linalg.pinv(a), "svdvals": lambda xp, a: xp.linalg.svdvals(a),
    "svd-s": lambda xp, a: xp.linalg.svd(a).S, "slogdet": lambda xp, a: xp.linalg.slogdet(a).logabsdet,
    "qr-r-abs": lambda xp, a: xp.abs(xp.linalg.qr(a).R), "cholesky": lambda xp, a: xp.linalg.cholesky(a),
    "solve": lambda xp, a: xp.linalg.solve(a, a[..., :, :2]),
    "matrix_rank": lambda xp, a: xp.linalg.matrix_rank(a),
    "matrix_power": lambda xp, a: xp.linalg.matrix_power(a, 3),
    "norm-2": lambda xp, a: xp.linalg.matrix_norm(a, ord=2),
}  # fmt: skip


@pytest.mark.parametrize("call", list(_SPLIT_CALLS))
@pytest.mark.parametrize("chunks", [(1, 1), (3, 1), (2, 4), (4, 4), (1, 4, 4)])
def test_whole_matrix_functions_take_split_matrices(call: str, chunks: tuple[int, ...]) -> None:
    base = RNG.normal(size=(4, 4))
    spd = base @ base.T + 4 * np.eye(4)  # positive definite: every function applies
    values = spd if len(chunks) == 2 else np.stack([spd, 2 * spd, spd + np.eye(4)])
    a = da.from_array(values, chunks=chunks if len(chunks) == 2 else (1, *chunks[1:]))
    got = _SPLIT_CALLS[call](xp, a)
    assert isinstance(got, da.Array)
    same(got, _SPLIT_CALLS[call](nxp, values))


def test_split_stacks_keep_their_stacking_chunks() -> None:
    a = da.from_array(np.broadcast_to(np.eye(4), (6, 4, 4)).copy(), chunks=(2, 1, 3))
    got = xp.linalg.inv(a)
    assert got.chunks[0] == (2, 2, 2) and got.chunks[1:] == ((4,), (4,))
    same(got, np.broadcast_to(np.eye(4), (6, 4, 4)))


# -- laziness: graph computations counted per function --------------------------------------
class CountingScheduler:
    """A Dask scheduler (``dask.config.set(scheduler=...)``) that counts its runs."""

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self, dsk: Any, keys: Any, **kwargs: Any) -> Any:
        self.runs += 1
        return dask.get(dsk, keys, **kwargs)


@pytest.fixture
def counter() -> Iterator[CountingScheduler]:
    scheduler = CountingScheduler()
    with dask.config.set(scheduler=scheduler):
        yield scheduler


M = chunked(RNG.normal(size=(6, 6)), 3)
MI = chunked(RNG.integers(0, 7, size=(6, 6)), 3)
V = chunked(RNG.normal(size=(6,)), 3)
MC = M.astype(np.complex128)  # for the functions of complex input (imag, fft, ...)
I = chunked(np.array([3, 1, 1, 0, 2, 5]), 3)  # noqa: E741 (an index array)
MW = da.from_array(M.compute() @ M.compute().T + 6 * np.eye(6), chunks=(6, 6))

#: Values of the spec's required parameters, by parameter name.
_ARGUMENTS: dict[str, Any] = {
    "x": M, "x1": M, "x2": M, "condition": M > 0, "indices": I, "arrays": [M, M],
    "shape": (6, 6), "fill_value": 1.5, "obj": [1.0, 2.0], "start": 0, "stop": 1, "num": 5,
    "n_rows": 3, "from_": M, "to": np.dtype("float64"), "type": np.dtype("float32"),
    "dtype": np.dtype("float32"), "kind": "real floating", "source": 0, "destination": 1,
    "axes": (1, 0), "shift": 1, "axis": 0, "repeats": 2, "repetitions": (2, 1), "n": 8,
}  # fmt: skip
#: Functions whose arguments the names above do not fit.
_OVERRIDES: dict[str, tuple[Any, ...]] = {
    "bitwise_and": (MI, MI), "bitwise_left_shift": (MI, MI), "bitwise_or": (MI, MI),
    "bitwise_right_shift": (MI, MI), "bitwise_xor": (MI, MI), "bitwise_invert": (MI,),
    "take_along_axis": (M, I[None, :].repeat(6, axis=0)), "searchsorted": (V, M),
    "squeeze": (M[None], 0), "broadcast_arrays": (M, V), "meshgrid": (V, V),
    "broadcast_shapes": ((6, 1), (1, 3)), "result_type": (M, np.dtype("float32")),
    "from_dlpack": (np.ones(3),), "reshape": (M, (4, 9)), "iinfo": (np.dtype("int8"),),
    "take": (V, I), "cumulative_sum": (V,), "cumulative_prod": (V,),
    "linalg.cross": (chunked(RNG.normal(size=(4, 3))), chunked(RNG.normal(size=(4, 3)))),
    "linalg.solve": (MW, V), "linalg.matrix_power": (MW, 2), "linalg.outer": (V, V),
    "imag": (MC,), "logical_not": (M > 0,), "logical_and": (M > 0, M > 0),
    "logical_or": (M > 0, M > 0), "logical_xor": (M > 0, M > 0),
    **{f"fft.{n}": (MC,) for n in ("fft", "ifft", "fftn", "ifftn", "irfft", "irfftn", "hfft")},
}  # fmt: skip


def _function(namespace: Any, name: str) -> Any:
    """``namespace``'s function ``name`` (``linalg.``/``fft.`` included)."""
    for part in name.split("."):
        namespace = getattr(namespace, part)
    return namespace


def _spec_args(name: str, text: str) -> tuple[Any, ...]:
    """Values for the required parameters of the spec's ``name``."""
    _, _, params = text.partition("(")
    scope: dict[str, Any] = {}
    exec(f"def f({params}: pass", scope)  # the spec's parameter list
    if name in _OVERRIDES:
        return tuple(_OVERRIDES[name])
    args: list[Any] = []
    for p in inspect.signature(scope["f"]).parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            args.extend(_ARGUMENTS["arrays"])
        elif p.default is p.empty:
            args.append(MW if name.startswith("linalg.") and p.name == "x" else _ARGUMENTS[p.name])
    return tuple(args)


def _spec_call(name: str, text: str) -> Callable[[], Any]:
    """A call of the namespace's ``name`` with values for its required parameters."""
    function, args = _function(xp, name), _spec_args(name, text)
    return lambda: function(*args)


def _every_function() -> dict[str, Callable[[], Any]]:
    from eagerpy_xp import _spec

    calls = {name: _spec_call(name, text) for name, text in _spec.FUNCTIONS.items()}
    calls.update({f"linalg.{n}": _spec_call(f"linalg.{n}", t) for n, t in _spec.LINALG.items()})
    calls.update({f"fft.{n}": _spec_call(f"fft.{n}", t) for n, t in _spec.FFT.items()})
    return calls


#: One call of every function of the standard, plus the wrapped flavour's mutation, the
#: gathers Dask refuses, a blocked decomposition and the EagerPy helpers; none may compute.
LAZY: dict[str, Callable[[], Any]] = {
    **_every_function(),
    "getitem multi-axis": lambda: wxp.asarray(M)[I, I], "getitem mask": lambda: M[M > 0],
    "setitem": lambda: _set(wxp.asarray(M)), "linalg.inv blocked": lambda: xp.linalg.inv(M),
    "logsumexp": lambda: ep.logsumexp(M, axis=1),
    "softmax": lambda: ep.softmax(wxp.asarray(M)), "norms.l2": lambda: ep.norms.l2(M, axis=0),
}  # fmt: skip


def _set(a: Any) -> Any:
    a[a > 0] = 0.0
    a[1:3, 0] = 1.0
    return a


@pytest.mark.parametrize("name", LAZY)
def test_functions_do_not_compute(counter: CountingScheduler, name: str) -> None:
    LAZY[name]()
    assert counter.runs == 0, f"{name} computed the graph {counter.runs} times"


def test_conversions_compute_once_each(counter: CountingScheduler) -> None:
    expected = float(np.sum(M.compute()))
    counter.runs = 0
    total = wxp.sum(wxp.asarray(M))
    assert isinstance(total.raw, da.Array) and counter.runs == 0
    assert float(total) == pytest.approx(expected)
    assert counter.runs == 1
    assert bool(total > -1e9) and counter.runs == 2
    assert np.asarray(wxp.asarray(V)).shape == (6,) and counter.runs == 3
    assert "dask.array<" in repr(total) and counter.runs == 3  # repr shows the graph only
    counts = xp.repeat(V, xp.asarray([1, 0, 2, 1, 0, 3]))  # array repeats: lazy, size unknown
    assert counter.runs == 3 and math.isnan(counts.shape[0])
    assert wxp.repeat(wxp.asarray(V), wxp.asarray([1, 0, 2, 1, 0, 3])).shape == (None,)
    assert counts.compute().shape == (7,) and counter.runs == 4


def test_data_dependent_shapes_are_unknown() -> None:
    a = wxp.asarray(M)
    masked = a[a > 0]
    assert masked.shape == (None,) and masked.size is None
    assert wxp.unique_values(a).shape == (None,)
    assert wxp.__array_namespace_info__().capabilities()["data-dependent shapes"] is True
    assert np.asarray(masked).shape == (int(np.sum(M.compute() > 0)),)


def _spec_texts() -> dict[str, str]:
    from eagerpy_xp import _spec

    texts = dict(_spec.FUNCTIONS)
    texts.update({f"linalg.{n}": t for n, t in _spec.LINALG.items()})
    texts.update({f"fft.{n}": t for n, t in _spec.FFT.items()})
    return texts


def _of_unknown_size(obj: Any, axis: int) -> Any:
    """``obj`` with each Dask array of one or more dimensions masked by an all-True Dask
    mask along ``axis``: the same values, that size unknown (NaN) to Dask."""
    if isinstance(obj, da.Array) and obj.ndim:
        keep = da.ones(obj.shape[axis], dtype=bool, chunks=obj.chunks[axis])
        return obj[(slice(None),) * (axis % obj.ndim) + (keep,)]
    if isinstance(obj, (list, tuple)):
        return type(obj)(_of_unknown_size(o, axis) for o in obj)
    return obj


def _computed(obj: Any) -> Any:
    if isinstance(obj, da.Array):
        return obj.compute()
    if isinstance(obj, (list, tuple)):
        return tuple(_computed(o) for o in obj) if isinstance(obj, tuple) else [
            _computed(o) for o in obj]
    return obj


def _same_result(got: Any, want: Any, what: str) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), what
        for g, w in zip(got, want):
            _same_result(g, w, what)
        return
    same(got, want)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("axis", [0, -1], ids=["first-axis", "last-axis"])
@pytest.mark.parametrize("name", sorted(_spec_texts()))
def test_every_function_takes_arrays_of_unknown_size(counter: CountingScheduler, name: str,
                                                     axis: int) -> None:  # fmt: skip
    """Issue 23: after a mask, ``unique_*``, ``nonzero`` or ``repeat`` with array repeats
    a size is unknown (NaN to Dask, None in ``Array.shape``); every function takes such
    arrays, lazily, with the NumPy backend's result on the same values."""
    args = _spec_args(name, _spec_texts()[name])
    unknown = _of_unknown_size(args, axis)
    counter.runs = 0
    result = _function(xp, name)(*unknown)
    allowed = 1 if (name, axis) == ("unstack", 0) else 0  # the tuple's length is the size
    assert counter.runs == allowed, f"{name} computed the graph {counter.runs} times"
    with dask.config.set(scheduler="sync"):
        with np.errstate(all="ignore"):
            expected = _function(nxp, name)(*_computed(args))
        if name in ("empty", "empty_like"):  # values undefined
            assert result.dtype == expected.dtype and result.compute().shape == expected.shape
        elif isinstance(expected, (np.ndarray, tuple)):
            _same_result(_computed(result), expected, name)


def test_chunks_kept_where_possible() -> None:
    x = chunked(RNG.normal(size=(8, 6)), 4)
    assert xp.exp(x).chunks == x.chunks
    assert xp.floor_divide(x, 2.0).chunks == x.chunks  # the NumPy fix runs per chunk
    assert xp.add(x, x[0]).chunks == x.chunks
    assert xp.sort(x, axis=1).chunks == ((4, 4), (6,))  # sorted axis whole, others kept
    assert xp.sum(x).chunks == ()  # a full reduction: one chunk
    assert xp.mean(x, axis=0).chunks == ((4, 2),)  # the reduced axis is gone, others kept
    assert xp.fft.fft(xp.astype(x, xp.complex128), axis=0).chunks == ((8,), (4, 2))
    # tile: repetitions merged (Dask's own repeats the chunks once per repetition)
    mask = chunked(np.array([[True, False]]), 1)
    tiled = xp.tile(mask, (225, 1))
    assert tiled.chunks == ((225,), (1, 1))
    np.testing.assert_array_equal(tiled.compute(), np.tile([[True, False]], (225, 1)))
    assert xp.tile(x, (1, 1)).chunks == x.chunks
    assert xp.tile(x, (1, 3)).chunks == ((4, 4), (18,))
    big = da.ones((4000, 64), chunks=(1000, 64))
    assert len(xp.tile(big, (100, 1)).chunks[0]) < 400 // 4  # Dask's chunk size, not one chunk
    picked = x[x[:, 0] > 0]  # unknown size: Dask's chunks, as they are
    values = x.compute()
    np.testing.assert_array_equal(xp.tile(picked, (3, 1)).compute(),
                                  np.tile(values[values[:, 0] > 0], (3, 1)))  # fmt: skip


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 2), (2, 1, 3)])
@pytest.mark.parametrize("split", [False, True], ids=["whole", "split"])
def test_tile_matches_numpy_in_few_chunks(shape: tuple[int, ...], split: bool) -> None:
    a = RNG.normal(size=shape)
    x = da.from_array(a, chunks=(1 if split else -1) if shape else ())
    for reps in [(), (1,), (2,), (0,), (3, 1), (1, 2), (2, 2, 2), (4, 0, 1), (2, 1, 1, 3)]:
        tiled = xp.tile(x, reps)
        np.testing.assert_array_equal(tiled.compute(), np.tile(a, reps))
        assert tiled.shape == np.tile(a, reps).shape
        if 0 not in tiled.shape:  # repetitions merged: no more chunks than x's own
            assert tiled.npartitions <= max(1, x.npartitions), (reps, tiled.chunks)
    mask = da.from_array(np.array([[True, False, True, True]]), chunks=1)
    many = xp.tile(mask, (50625, 1))  # SciPy's cubature, four dimensions (Dask: 50,625 chunks)
    assert many.chunks == ((50625,), (1, 1, 1, 1))
    np.testing.assert_array_equal(many[-2:].compute(), [[True, False, True, True]] * 2)


# -- mutation -------------------------------------------------------------------------------
def test_setitem_rebinds_and_leaves_shared_graphs_alone() -> None:
    base = chunked(np.arange(12.0).reshape(3, 4))
    a = wxp.asarray(base)
    view = a[0]
    other = ep.astensor(base)
    a[0, :] = -1.0
    a[a > 9] = 0.0
    a += 1
    np.testing.assert_array_equal(np.asarray(a), [[0, 0, 0, 0], [5, 6, 7, 8], [9, 10, 1, 1]])
    np.testing.assert_array_equal(np.asarray(view), [0, 1, 2, 3])
    np.testing.assert_array_equal(np.asarray(other), np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(base.compute(), np.arange(12.0).reshape(3, 4))
    with pytest.raises(TypeError, match=r"eagerpy_xp\.dask\.Array\.__setitem__: "):
        a[0, 0] = 1.5j


@pytest.mark.parametrize("chunks", [(5, 4, 4), (2, 3, 1)], ids=["rows", "blocks"])
def test_writes_of_derived_values_keep_the_graph_linear(chunks: tuple[int, ...]) -> None:
    """A loop writing values derived from an `Array` into it (SciPy's ``RigidTransform``):
    Dask's own ``x[k] = v`` copies ``v``'s whole graph into each write, so that the graph
    grows with the square of the loop's length; through the stand-in
    (`_indexing._written`) it grows by the same few entries a step, the values NumPy's,
    with values of one chunk or several and keys across chunks."""
    expected = np.zeros((10, 4, 4))
    a = wxp.asarray(da.zeros((10, 4, 4), chunks=chunks))
    sizes = []
    for step in range(30):
        a[..., 3, :3] = a[..., 3, :3] * 1.01 + step
        expected[..., 3, :3] = expected[..., 3, :3] * 1.01 + step
        a[1:7:2, 0] = wxp.sum(a[1:7:2], axis=1) - a[1:7:2, 0]
        expected[1:7:2, 0] = np.sum(expected[1:7:2], axis=1) - expected[1:7:2, 0]
        sizes.append(sum(len(layer) for layer in a.raw.dask.layers.values()))
    np.testing.assert_allclose(np.asarray(a), expected, rtol=1e-12)
    growth = [after - before for before, after in itertools.pairwise(sizes)]
    assert max(growth[15:]) <= max(growth[:5]), growth  # the same entries a step, late as early


def test_writes_of_dask_values_of_every_shape_match_numpy() -> None:
    """The stand-in's other shapes: a 0-d value, a row broadcast over a key, a column, a
    zero-size write, negative steps, and a value whose chunks differ from the target's."""
    expected = np.arange(12.0).reshape(3, 4)
    a = wxp.asarray(chunked(expected.copy(), 2))
    a[0, 0] = wxp.sum(a) * 1.0
    expected[0, 0] = expected.sum()
    a[1] = wxp.max(a, axis=0) + 1
    expected[1] = expected.max(axis=0) + 1
    a[:, 2] = wxp.mean(a, axis=1) * 2
    expected[:, 2] = expected.mean(axis=1) * 2
    a[2:2] = a[0:0] + 1
    a[::-1, ::2] = a[:, :2] * 3
    expected[::-1, ::2] = expected[:, :2] * 3
    np.testing.assert_allclose(np.asarray(a), expected, rtol=1e-15)
    b = wxp.asarray(da.zeros((4,), chunks=2))
    b[1:3] = wxp.asarray(da.ones((2,), chunks=1)) + 0
    np.testing.assert_array_equal(np.asarray(b), [0, 1, 1, 0])


# -- detection, errors, extensions ------------------------------------------------------------
def test_namespace_and_errors() -> None:
    assert ep.get_namespace(M) is xp and ep.get_namespace(ep.astensor(M)) is wxp
    assert xp.float32 is np.dtype("float32") and ep.astensor(M).device == "cpu"
    with pytest.raises(TypeError, match=r"dask and numpy|numpy and dask"):
        ep.get_namespace(M, np.ones(2))
    with pytest.raises(ValueError, match=r"eagerpy_xp\.dask\."):
        xp.zeros(3, device="cuda:0")
    with pytest.raises(NotImplementedError, match="dask has no automatic differentiation"):
        ep.value_and_grad(lambda v: xp.sum(v * v), V)


@pytest.mark.parametrize("flavour", ("native", "wrapped"))
def test_helpers(flavour: str) -> None:
    a = RNG.normal(size=(4, 5))
    x = chunked(a) if flavour == "native" else ep.astensor(chunked(a))
    back = (lambda r: r) if flavour == "native" else (lambda r: r.raw)
    shifted = a - a.max(axis=1, keepdims=True)
    soft = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(back(ep.softmax(x)).compute(), soft)
    lse = np.log(np.exp(a).sum(axis=0))
    np.testing.assert_allclose(back(ep.logsumexp(x, axis=0)).compute(), lse)
    np.testing.assert_allclose(back(ep.norms.l2(x, axis=1)).compute(), np.sqrt((a * a).sum(1)))
    np.testing.assert_allclose(back(ep.norms.linf(x)).compute(), np.abs(a).max())
    values, indices = ep.topk(x, 2)
    np.testing.assert_array_equal(back(indices).compute(), np.argsort(-a, axis=1)[:, :2])
    np.testing.assert_array_equal(back(values).compute(), -np.sort(-a, axis=1)[:, :2])


# -- a real cluster: two worker processes --------------------------------------------------------
@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, memory_limit="1GiB")  # fmt: skip
    with cluster, distributed.Client(cluster) as c:
        yield c


def _standardise_and_reduce(x: Any, w: Any) -> Any:
    """The same code on any namespace: column standardisation, a projection, a sum."""
    ns = ep.get_namespace(x, w)
    z = (x - ns.mean(x, axis=0)) / ns.std(x, axis=0, correction=1)
    return ns.sum(ns.matmul(z, w) ** 2, axis=0)


def test_computes_on_a_local_cluster(client: Any) -> None:
    data = RNG.normal(size=(4000, 8))
    weights = RNG.normal(size=(8, 2))
    expected = _standardise_and_reduce(data, weights)
    x = da.from_array(data, chunks=(500, 8))
    lazy = _standardise_and_reduce(ep.astensor(x), wxp.asarray(weights))
    assert isinstance(lazy.raw, da.Array)
    future = client.compute(lazy.raw)
    np.testing.assert_allclose(future.result(), expected, rtol=1e-10)
    assert len(client.scheduler_info()["workers"]) == 2
    # conversions go through the active client too
    assert float(wxp.sum(lazy)) == pytest.approx(float(expected.sum()), rel=1e-10)
    uniques = wxp.unique_counts(ep.astensor(da.from_array(np.array([1, 2, 2, 5, 5, 5]), chunks=2)))
    np.testing.assert_array_equal(np.asarray(uniques.counts), [1, 2, 3])


# -- issue 23: integer-array keys, masks, scalars, unknown sizes, DLPack -----------------------
BASE3 = np.arange(60.0).reshape(3, 4, 5) - 30.5


def _dask_keys() -> list[tuple[str, Any]]:
    """Keys with Dask index arrays: several, multi-dimensional, beside ints, slices, None
    and an ellipsis (Dask refused "Slicing with dask.array of ints only permitted when
    the indexer has zero or one dimensions" and "nd fancy indexing")."""
    one, two = np.array([0, 2, -1]), np.array([[0, 1], [2, -3]])
    found: list[tuple[str, Any]] = []
    for name, idx in (("1-d", one), ("2-d", two), ("empty", np.zeros(0, np.int64)),
                      ("uint8", np.array([2, 0], np.uint8))):  # fmt: skip
        found += [(f"[{name}]", (idx,)), (f"[{name},0]", (idx, 0)), (f"[0,{name}]", (0, idx)),
                  (f"[:,{name}]", (slice(None), idx)), (f"[{name},:,0]", (idx, slice(None), 0)),
                  (f"[0,:,{name}]", (0, slice(None), idx)), (f"[...,{name}]", (Ellipsis, idx)),
                  (f"[None,{name}]", (None, idx)), (f"[{name},{name}]", (idx, idx)),
                  (f"[{name},:,{name}]", (idx, slice(None), idx)),
                  (f"[::-1,{name}]", (slice(None, None, -1), idx))]  # fmt: skip
    found += [("[col,row]", (np.array([[0], [2]]), np.array([1, 3]))),
              ("[mask]", (BASE3[:, 0, 0] > -20,)), ("[mask2]", (BASE3[:, :, 0] > 0,))]
    return found


DASK_KEYS = _dask_keys()


@pytest.mark.parametrize(("name", "key"), DASK_KEYS, ids=[n for n, _ in DASK_KEYS])
def test_getitem_with_dask_index_arrays(counter: CountingScheduler, name: str, key: Any) -> None:
    """NumPy's result, lazily (nothing computed until asked)."""
    x = wxp.asarray(chunked(BASE3))
    dask_key = tuple(chunked(k) if isinstance(k, np.ndarray) else k for k in key)
    counter.runs = 0
    result = x[dask_key if len(dask_key) > 1 else dask_key[0]]
    assert counter.runs == 0, f"x{name} computed the graph"
    want = BASE3[key if len(key) > 1 else key[0]]
    got = np.asarray(result)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("name", "key"), DASK_KEYS, ids=[n for n, _ in DASK_KEYS])
def test_setitem_with_dask_index_arrays(name: str, key: Any) -> None:
    x = wxp.asarray(chunked(BASE3))
    want = BASE3.copy()
    want[key if len(key) > 1 else key[0]] = -1.0
    x[tuple(chunked(k) if isinstance(k, np.ndarray) else k for k in key)] = -1.0
    np.testing.assert_array_equal(np.asarray(x), want)


@pytest.mark.parametrize("x1", [[1.0, 2.0, 3.0], [1, 2, 3], [0.5, 0.5, 7.25]])
@pytest.mark.parametrize("x2", [2, 2.5, -1, 10, True])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_with_a_python_scalar(x1: list[Any], x2: Any, side: str) -> None:
    """``x2`` a Python int or float (Dask read ``x2.shape``): a 0-d result, as NumPy."""
    if isinstance(x2, bool):
        x2 = 1
    got = xp.searchsorted(chunked(np.asarray(x1), 2), x2, side=side)
    same(got, nxp.searchsorted(np.asarray(x1), x2, side=side))


def test_unknown_sizes_read_none_and_every_source_of_them() -> None:
    """Masks, ``nonzero``, ``unique_*`` and ``repeat`` with array repeats make unknown
    sizes: ``None`` in ``Array.shape`` (Dask: NaN), and the arrays feed on."""
    a = wxp.asarray(chunked(BASE3))
    sources = {"mask": a[a > 0], "nonzero": wxp.nonzero(a > 0)[0],
               "unique_values": wxp.unique_values(a), "unique_counts": wxp.unique_counts(a).counts,
               "repeat": wxp.repeat(a[0, 0], wxp.asarray(chunked(np.array([1, 0, 2, 1, 3]))))}  # fmt: skip
    for name, u in sources.items():
        assert u.shape == (None,) and u.size is None, name
        values = np.asarray(u)
        doubled = wxp.concat([u, u * 2])
        assert doubled.shape == (None,)
        np.testing.assert_array_equal(np.asarray(doubled), np.concatenate([values, values * 2]))
        np.testing.assert_array_equal(np.asarray(wxp.reshape(u, (-1, 1))), values.reshape(-1, 1))
        np.testing.assert_array_equal(np.asarray(wxp.sort(u)), np.sort(values))
        np.testing.assert_array_equal(np.asarray(wxp.stack([u, u], axis=1)),
                                      np.stack([values, values], axis=1))  # fmt: skip
        assert float(wxp.sum(wxp.astype(u, wxp.float64))) == pytest.approx(values.sum())


@pytest.mark.parametrize("copy", [None, True, False])
def test_dlpack_of_a_lazy_array(counter: CountingScheduler, copy: bool | None) -> None:
    """The standard's ``__dlpack__``: ``copy=None`` reuses a buffer "if possible and
    copies otherwise"; a lazy array has none, so it is computed into a new one (once),
    unknown sizes included; ``copy=False`` raises `BufferError`."""
    a = wxp.asarray(chunked(BASE3))
    masked = a[a > 0]
    for lazy, want in ((a, BASE3), (masked, BASE3[BASE3 > 0])):
        counter.runs = 0
        if copy is False:
            with pytest.raises(BufferError, match=r"eagerpy_xp\.dask\.Array\.__dlpack__: copy=False"):
                lazy.__dlpack__(copy=False)
            assert counter.runs == 0
            continue
        np.testing.assert_array_equal(np.from_dlpack(_Exporter(lazy, copy)), want)
        assert counter.runs == 1


class _Exporter:
    """Hands an `Array`'s ``__dlpack__`` to ``np.from_dlpack`` with a given ``copy``."""

    def __init__(self, array: Any, copy: bool | None) -> None:
        self.array, self.copy = array, copy

    def __dlpack__(self, **kwargs: Any) -> Any:
        kwargs["copy"] = self.copy
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self.array.__dlpack_device__()


def test_chunk_functions_are_named_without_pickling_the_backend() -> None:
    """Dask names a graph by a token of the function it runs on the chunks; a bound method
    of the chunk backend is tokenized by the backend's fixed token (not a pickle of the
    whole backend), and different functions still give different names."""
    from dask.base import normalize_token, tokenize

    from eagerpy_xp.native._dask._chunks import NUMPY

    assert normalize_token(NUMPY) == "eagerpy_xp.dask-chunks"
    assert tokenize(NUMPY.add) == tokenize(NUMPY.add) != tokenize(NUMPY.subtract)
    xp = wxp
    a = xp.asarray(da.from_array(np.linspace(0.0, 1.0, 8), chunks=4))
    names = {f(a).raw.name for f in (xp.sin, xp.cos, xp.exp, xp.sin)}
    assert len(names) == 3
    np.testing.assert_allclose(np.asarray(xp.cos(a)), np.cos(np.linspace(0.0, 1.0, 8)))


# SciPy's `rankdata` reshapes `repeat(ranks, counts)` (one unknown size) back to the data's
# known shape: the target's element count names the unknown size, so the call is lazy and
# its result's shape is the target's.
@pytest.mark.parametrize("shape", [(60,), (3, 20), (4, 3, 5), (1, 60, 1), (5, 12), (60, 1)])
@pytest.mark.parametrize("source", ["mask", "repeat", "two-d"])
def test_reshape_of_an_unknown_size_to_a_known_shape(counter: CountingScheduler,
                                                     shape: tuple[int, ...], source: str) -> None:  # fmt: skip
    values = np.arange(60.0) - 30.5
    if source == "mask":
        a = wxp.asarray(chunked(values, 7))
        u = a[a > -1e9]
    elif source == "repeat":
        a = wxp.asarray(chunked(values[::2], 7))
        u = wxp.repeat(a, wxp.asarray(chunked(np.full(30, 2), 7)))
        values = np.repeat(values[::2], 2)
    else:  # rows of unknown count, columns known
        a = wxp.asarray(chunked(values.reshape(12, 5), 4))
        u = a[a[:, 0] > -1e9]
    got = wxp.reshape(u, shape)
    assert got.shape == shape and counter.runs == 0
    same(got.raw, values.reshape(shape))
    with pytest.raises(ValueError, match="reshape"):  # a size that does not fit: at compute
        np.asarray(wxp.reshape(u, (7, 9)))


def test_reshape_of_an_unknown_size_beyond_stand_ins() -> None:
    """SciPy's ``TestRankData::test_big_tie``: a million repeated values reshaped to
    ``(10**6,)``; the size is named by the target, so no stand-in of it is built."""
    a = wxp.asarray(chunked(np.arange(10.0), 5))
    u = wxp.repeat(a, wxp.asarray(chunked(np.full(10, 100_000), 5)))
    got = wxp.reshape(u, (1000, 1000))
    assert got.shape == (1000, 1000)
    np.testing.assert_array_equal(np.asarray(got), np.repeat(np.arange(10.0), 100_000).reshape(1000, 1000))


# SciPy's `vectorized_filter` selects a footprint's elements with `x[..., footprint]`:
# a boolean array of the trailing axes after an ellipsis (beyond the standard, which makes
# a boolean array the sole index; NumPy and the other frameworks take it).
@pytest.mark.parametrize("mask_shape", [(), (5,), (4, 5), (3, 4, 5)])
@pytest.mark.parametrize("fill", ["some", "none", "all"])
@pytest.mark.parametrize("kind", ["numpy", "dask"])
def test_a_mask_of_trailing_axes_after_an_ellipsis(mask_shape: tuple[int, ...], fill: str,
                                                   kind: str) -> None:  # fmt: skip
    values = sample((3, 4, 5), "float64")
    count = math.prod(mask_shape)
    mask = {"some": np.arange(count) % 3 == 1, "none": np.zeros(count, bool),
            "all": np.ones(count, bool)}[fill].reshape(mask_shape)  # fmt: skip
    key = chunked(mask) if kind == "dask" else mask
    got = wxp.asarray(chunked(values))[..., key]
    want = values[..., mask]
    assert got.ndim == want.ndim
    same(got.raw, want)


# Portable code passes shapes along: SciPy's `xp_assert_close` broadcasts the expected
# array to `actual.shape`, which reads None for an unknown size.
@pytest.mark.parametrize("target", ["own", "leading", "bad-position", "too-short"])
@pytest.mark.parametrize("flavour", ["wrapped", "native"])
def test_broadcast_to_takes_the_arrays_own_unknown_sizes(target: str, flavour: str) -> None:
    values = np.arange(12.0).reshape(6, 2)
    a = wxp.asarray(chunked(values, 4))
    u = a[a[:, 0] > 3] if flavour == "wrapped" else a[a[:, 0] > 3].raw
    ns = wxp if flavour == "wrapped" else xp
    kept = values[values[:, 0] > 3]
    if target == "own":
        same(np.asarray(ns.broadcast_to(u, (None, 2))), kept)
        raw = u.raw if flavour == "wrapped" else u
        same(np.asarray(ns.broadcast_to(u, raw.shape)), kept)  # Dask's own NaN
    elif target == "leading":
        got = ns.broadcast_to(u, (3, None, 2))
        same(np.asarray(got), np.broadcast_to(kept, (3, *kept.shape)))
    else:
        with pytest.raises(TypeError, match=r"eagerpy_xp\.dask\.broadcast_to: .*None stands"):
            ns.broadcast_to(u, (None, 2, 2) if target == "bad-position" else (None,))


@pytest.mark.parametrize("kept", [0, 1, 4])
def test_iterating_an_unknown_size_yields_every_element(kept: int) -> None:
    """``for v in a`` over a mask's result (size unknown until computed) yields its
    elements; it yielded none (a ``range`` of the unknown size read as 0).  Python's
    ``max(H)`` in SciPy's ``minimum_phase`` iterates so."""
    values = np.arange(12.0)
    a = wxp.asarray(chunked(values, 5))
    u = a[a >= 12 - kept]
    got = [float(v) for v in u]
    assert got == list(values[12 - kept:])
    if kept:
        assert float(max(u)) == 11.0
