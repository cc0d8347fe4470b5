"""The ``dtype`` argument of the accumulating functions: ``sum``, ``prod``,
``cumulative_sum``, ``cumulative_prod`` and ``linalg.trace``.

The standard casts ``x`` to ``dtype`` before these functions accumulate, and says that
`astype` should not cast a complex array to a real-valued dtype; eagerpy_xp's `astype`
refuses that cast on every backend, and so do these five functions: a complex ``x`` with
an integer or real floating ``dtype`` is a `TypeError` naming the function, the backend
and both dtypes (docs/errors.md), on every backend and flavour (before, TensorFlow
refused every such dtype, MLX the integer ones, and NumPy, torch, JAX and Dask dropped
the imaginary part).  Complex to complex and real to anything still compute.

Bool is no real-valued dtype, and `astype` casts a complex array to it (``0`` is False,
any other value True): ``dtype=bool`` accumulates ``astype(x, bool)`` in bool, where
adding is a logical or and multiplying a logical and, as NumPy, JAX, Dask and MLX did for
real arrays (torch summed the truncated integers, TensorFlow and ndonnx refused some).

The family: each function over 0-d (``sum``/``prod``), 1-d, 2-d, stacked (``trace``) and
zero-size arrays, every dtype pair of the kinds above that the backend holds, values
against NumPy's; and `astype` of complex values to bool.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from tests._flavours import x64

#: Each backend, by the framework module it needs.
BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core", "ndonnx": "ndonnx"}  # fmt: skip

FUNCTIONS = ("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace")

#: The refused dtype kinds of a complex ``x``.
REAL_VALUED = ("signed integer", "unsigned integer", "real floating")


@pytest.fixture(params=[(b, f) for b in BACKENDS for f in ("native", "wrapped")],
                ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
def xp(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    backend, flavour = request.param
    pytest.importorskip(BACKENDS[backend], reason=f"{backend} is not installed")
    with x64(backend):
        yield importlib.import_module(
            f"eagerpy_xp.native.{backend}" if flavour == "native" else f"eagerpy_xp.{backend}")


def _backend(xp: ModuleType) -> str:
    return xp.__name__.rpartition(".")[2]


def _held(xp: ModuleType, *kinds: str) -> list[str]:
    info = xp.__array_namespace_info__()
    return [name for kind in kinds for name in info.dtypes(kind=kind)]


def _complex(xp: ModuleType) -> list[str]:
    held = _held(xp, "complex floating")
    if not held:
        pytest.skip(f"{xp.__name__} holds no complex dtype")
    return held


def _numpy(x: Any) -> np.ndarray:
    """A result as NumPy (an `Array`'s raw array; ndonnx's through ``unwrap_numpy``)."""
    raw = x.raw if isinstance(x, ep.Array) else x
    return np.asarray(raw.unwrap_numpy() if hasattr(raw, "unwrap_numpy") else raw)


def _values(shape: tuple[int, ...], kind: str, seed: int) -> np.ndarray:
    """Small values of ``kind`` (halves: sums and products are exact or nearly so)."""
    rng = np.random.default_rng(seed)
    if kind == "unsigned integer":
        return rng.integers(0, 4, shape).astype(np.float64)
    whole = rng.integers(-3, 4, shape).astype(np.float64)
    if kind == "signed integer":
        return whole
    if kind == "real floating":
        return whole / 2
    return (whole + 1j * rng.integers(-3, 4, shape)) / 2


#: function -> (shape, keyword arguments) of each call.
CALLS: dict[str, list[tuple[tuple[int, ...], dict[str, Any]]]] = {
    "sum": [((), {}), ((4,), {}), ((2, 3), {}), ((2, 3), {"axis": 1}), ((0,), {}),
            ((2, 0), {"axis": 0})],
    "prod": [((), {}), ((4,), {}), ((2, 3), {}), ((2, 3), {"axis": 0}), ((0,), {}),
             ((2, 0), {"axis": 1})],
    "cumulative_sum": [((4,), {}), ((2, 3), {"axis": 1}), ((2, 3), {"axis": 0,
                       "include_initial": True}), ((0,), {}), ((2, 0), {"axis": 1,
                       "include_initial": True})],
    "cumulative_prod": [((4,), {"include_initial": True}), ((2, 3), {"axis": 1}),
                        ((2, 3), {"axis": 0}), ((0,), {"include_initial": True}),
                        ((0, 3), {"axis": 0})],
    "linalg.trace": [((3, 3), {}), ((2, 3), {"offset": 1}), ((2, 3, 3), {"offset": -1}),
                     ((0, 0), {}), ((2, 0, 0), {})],
}  # fmt: skip


def _function(xp: ModuleType, name: str) -> Callable[..., Any]:
    return xp.linalg.trace if name == "linalg.trace" else getattr(xp, name)


def _reference(name: str, x: np.ndarray, kwargs: dict[str, Any]) -> np.ndarray:
    """NumPy's ``name`` of ``x`` (already in the accumulation dtype)."""
    axis = kwargs.get("axis")
    if name == "sum":
        return np.asarray(np.sum(x, axis=axis))
    if name == "prod":
        return np.asarray(np.prod(x, axis=axis))
    if name == "linalg.trace":
        return np.asarray(np.trace(x, offset=kwargs.get("offset", 0), axis1=-2, axis2=-1))
    fn = np.cumulative_sum if name == "cumulative_sum" else np.cumulative_prod
    return fn(x, axis=axis, include_initial=kwargs.get("include_initial", False))


def _bool_reference(name: str, x: np.ndarray, kwargs: dict[str, Any]) -> np.ndarray:
    """``x`` cast to bool as `astype` casts, accumulated in bool (or adds, and multiplies)."""
    truth = x.astype(bool)
    axis = kwargs.get("axis")
    if name == "sum":
        return np.asarray(np.any(truth, axis=axis))
    if name == "prod":
        return np.asarray(np.all(truth, axis=axis))
    if name == "linalg.trace":
        diagonal = np.diagonal(truth, offset=kwargs.get("offset", 0), axis1=-2, axis2=-1)
        return np.asarray(np.any(diagonal, axis=-1))
    a = 0 if axis is None else axis
    op = np.logical_or if name == "cumulative_sum" else np.logical_and
    result = op.accumulate(truth, axis=a) if truth.shape[a] else truth
    if kwargs.get("include_initial"):
        shape = list(truth.shape)
        shape[a] = 1
        start = np.full(shape, name == "cumulative_prod")
        result = np.concatenate([start, result], axis=a)
    return result


def _check(got: Any, want: np.ndarray, xp: ModuleType, dtype: str, context: str) -> None:
    assert got.dtype == getattr(xp, dtype), f"{context}: {got.dtype}"
    values = _numpy(got)
    assert values.shape == want.shape, f"{context}: shape {values.shape}"
    if dtype.startswith(("complex", "float")):
        tol = 1e-5 if dtype in ("complex64", "float32") else 1e-12
        np.testing.assert_allclose(values, want.astype(dtype), rtol=tol, atol=tol,
                                   err_msg=context)  # fmt: skip
    else:
        np.testing.assert_array_equal(values, want.astype(dtype), err_msg=context)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_complex_x_with_a_real_valued_dtype_is_refused(xp: ModuleType, name: str) -> None:
    """Every integer and real floating dtype the backend holds: a `TypeError` naming the
    function, the backend and both dtypes; ``x`` is left as it was."""
    fn = _function(xp, name)
    backend = _backend(xp)
    refused = 0
    for source in _complex(xp):
        for seed, (shape, kwargs) in enumerate(CALLS[name]):
            data = _values(shape, "complex floating", seed).astype(source)
            x = xp.asarray(data, dtype=getattr(xp, source))
            for target in _held(xp, *REAL_VALUED):
                message = (rf"^eagerpy_xp\.{backend}\.{name}: cannot accumulate {source} in "
                           rf"{target}: .*imaginary part")  # fmt: skip
                with pytest.raises(TypeError, match=message):
                    fn(x, dtype=getattr(xp, target), **kwargs)
                refused += 1
            assert x.dtype == getattr(xp, source)
            np.testing.assert_array_equal(_numpy(x), data)
    assert refused >= len(CALLS[name]) * 10


@pytest.mark.parametrize("name", FUNCTIONS)
def test_complex_x_with_a_complex_dtype_computes(xp: ModuleType, name: str) -> None:
    """complex64 to complex128 and back (and each to itself), with values."""
    fn = _function(xp, name)
    held = _complex(xp)
    for source in held:
        for target in held:
            for seed, (shape, kwargs) in enumerate(CALLS[name]):
                data = _values(shape, "complex floating", seed).astype(source)
                got = fn(xp.asarray(data, dtype=getattr(xp, source)), dtype=getattr(xp, target),
                         **kwargs)  # fmt: skip
                want = _reference(name, data.astype(target), kwargs)
                _check(got, want, xp, target, f"{name} {source} -> {target} {shape} {kwargs}")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_real_x_with_a_complex_dtype_computes(xp: ModuleType, name: str) -> None:
    """Integer and real floating ``x`` accumulated in each complex dtype."""
    fn = _function(xp, name)
    pairs = [(kind, source, target) for target in _complex(xp) for kind in REAL_VALUED
             for source in _held(xp, kind)]  # fmt: skip
    for seed, (kind, source, target) in enumerate(pairs):
        for shape, kwargs in _some_calls(name, seed):
            data = _values(shape, kind, seed).astype(source)
            got = fn(xp.asarray(data, dtype=getattr(xp, source)), dtype=getattr(xp, target),
                     **kwargs)  # fmt: skip
            want = _reference(name, data.astype(target), kwargs)
            _check(got, want, xp, target, f"{name} {source} -> {target} {shape} {kwargs}")


def _some_calls(name: str, seed: int) -> list[tuple[tuple[int, ...], dict[str, Any]]]:
    """Two of ``name``'s calls, by turns (each dtype pair of many sees two shapes; JAX
    compiles, and ndonnx builds a graph, for each new one)."""
    calls = CALLS[name]
    return [calls[seed % len(calls)], calls[(seed + 1) % len(calls)]]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_real_x_with_a_real_valued_dtype_computes(xp: ModuleType, name: str) -> None:
    """Still as before: integer and real floating ``x`` in each integer and real floating
    dtype, one call of the function per pair (values that every such dtype holds, sums
    and products included)."""
    fn = _function(xp, name)
    pairs = [(source, target) for source in _held(xp, *REAL_VALUED)
             for target in _held(xp, *REAL_VALUED)]  # fmt: skip
    for seed, (source, target) in enumerate(pairs):
        for shape, kwargs in _some_calls(name, seed)[:1]:
            data = _values(shape, "unsigned integer", seed).astype(source)
            got = fn(xp.asarray(data, dtype=getattr(xp, source)), dtype=getattr(xp, target),
                     **kwargs)  # fmt: skip
            want = _reference(name, data.astype(np.float64), kwargs)
            if not target.startswith("float") and np.any(want > 100):
                continue  # beyond int8: wraps as the dtype does (tested elsewhere)
            _check(got, want, xp, target, f"{name} {source} -> {target} {shape} {kwargs}")


#: Values whose bool is the point (zeros of both signs, NaN, a lone imaginary part), in
#: the order that fills each shape (`numpy.resize`).
_TRUTHS = {
    "real floating": [0.0, -0.0, 2.5, float("nan"), 1.0, -1.0, 0.0, 0.5, 3.0],
    "complex floating": [0j, complex(-0.0, 0.0), 1j, complex("nan"), 0.5, -2j,
                         complex(0.0, -0.0), 1 + 1j, 3.0],
    "signed integer": [0, 0, -3, 1, 2, -1, 0, 5, 1],
    "unsigned integer": [0, 0, 3, 1, 2, 1, 0, 5, 1],
}  # fmt: skip


@pytest.mark.parametrize("name", FUNCTIONS)
def test_bool_dtype_accumulates_the_truth_of_x(xp: ModuleType, name: str) -> None:
    """``dtype=bool``: ``astype(x, bool)`` (0 and -0 False, NaN and ``1j`` True) combined
    by or (sums) and and (products), the same on every backend and for complex ``x``."""
    fn = _function(xp, name)
    kinds = [k for k in _TRUTHS if _held(xp, k)]
    for kind in kinds:
        for source in _held(xp, kind):
            base = np.asarray(_TRUTHS[kind]).astype(source)
            for shape, kwargs in CALLS[name]:
                data = np.resize(base, shape)
                x = xp.asarray(data, dtype=getattr(xp, source))
                got = fn(x, dtype=xp.bool, **kwargs)
                _check(got, _bool_reference(name, data, kwargs), xp, "bool",
                       f"{name} {source} -> bool {shape} {kwargs}")  # fmt: skip


def test_astype_of_complex_to_bool(xp: ModuleType) -> None:
    """0 and -0 (either part) are False; any other value, NaN and a lone imaginary part
    included, is True (torch refused the cast before)."""
    values = [0j, 1j, complex("nan"), complex(-0.0, 0.0), complex(0.0, -0.0), 2.5 - 1j,
              complex(0.0, float("nan")), complex(-1e-30, 0.0)]  # fmt: skip
    want = np.array([False, True, True, False, False, True, True, True])
    for source in _complex(xp):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no ComplexWarning: nothing is dropped
            got = xp.astype(xp.asarray(np.asarray(values, dtype=source)), xp.bool)
        assert got.dtype == xp.bool
        np.testing.assert_array_equal(_numpy(got), want, err_msg=source)
        scalar = xp.astype(xp.asarray(1j, dtype=getattr(xp, source)), xp.bool)
        assert _numpy(scalar).shape == () and bool(_numpy(scalar))
