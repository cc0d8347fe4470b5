"""hypothesis' array-API strategies (``make_strategies_namespace``) on every namespace of
eagerpy_xp, both flavours: arrays of every dtype the namespace holds
(``__array_namespace_info__().dtypes()``), zero-size shapes, element bounds, ``unique``,
``fill``, indices and broadcastable shapes.  hypothesis builds its arrays with the
namespace's own ``zeros``/``full``/``asarray`` and ``__setitem__``, then reads each value
back, so this is a client exercising creation, writes and reads together.

hypothesis looks dtypes up by name (``complex_dtypes()``, ``scalar_dtypes()``); MLX's
namespaces have no ``complex128`` (docs/mlx.md), so those draw only dtypes MLX holds
(tests/test_mlx.py checks ``complex_dtypes()``); dtypes here come from ``dtypes()``.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _integration import NOT_HERE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning
from hypothesis.extra.array_api import make_strategies_namespace

from eagerpy_xp import Array
from eagerpy_xp.testing import installed_backends, namespace_for

NAMESPACES = [(b, f) for b in installed_backends() if b not in NOT_HERE for f in ("wrapped", "native")]
#: A few draws per dtype: hypothesis itself is not under test, its use of the namespace is
SETTINGS = settings(max_examples=12, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))  # fmt: skip


def _strategies(backend: str, flavour: str) -> tuple[ModuleType, Any]:
    xp = namespace_for(backend, flavour)
    with warnings.catch_warnings():
        # the native flavour's arrays are the framework's own; torch's, TensorFlow's and
        # Dask's have no __array_namespace__, which hypothesis checks and warns about
        warnings.filterwarnings("ignore", "Could not determine whether module",
                                HypothesisWarning)  # fmt: skip
        return xp, make_strategies_namespace(xp)


def _dtypes(xp: ModuleType, backend: str, flavour: str) -> list[str]:
    names = sorted(xp.__array_namespace_info__().dtypes())
    if backend == "torch" and flavour == "native":
        # hypothesis reads each written value back with int(); torch's own int() of a
        # uint64 tensor above 2**63 - 1 raises "value cannot be converted to type int64_t
        # without overflow" (the wrapped flavour's Array converts it)
        names.remove("uint64")
    return names


def _host(x: Any) -> np.ndarray:
    if type(x) is Array:
        return np.asarray(x.numpy())
    if hasattr(x, "compute"):  # Dask
        x = x.compute()
    return np.asarray(x)


@pytest.mark.parametrize(("backend", "flavour"), NAMESPACES, ids=[f"{b}-{f}" for b, f in NAMESPACES])
def test_arrays_of_every_dtype(backend: str, flavour: str) -> None:
    xp, xps = _strategies(backend, flavour)
    assert xps.api_version == xp.__array_api_version__
    shapes = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
    for name in _dtypes(xp, backend, flavour):
        _draw_arrays(xps, getattr(xp, name), name, shapes)


def _draw_arrays(xps: Any, dtype: Any, name: str, shapes: Any) -> None:
    @SETTINGS
    @given(xps.arrays(dtype=dtype, shape=shapes))
    def drawn(x: Any) -> None:
        assert x.dtype == dtype, (name, x.dtype)
        values = _host(x)
        assert values.shape == tuple(x.shape) and values.dtype.name == name

    drawn()


@pytest.mark.parametrize(("backend", "flavour"), NAMESPACES, ids=[f"{b}-{f}" for b, f in NAMESPACES])
def test_elements_unique_and_fill(backend: str, flavour: str) -> None:
    xp, xps = _strategies(backend, flavour)
    bounded = xps.arrays(dtype=xp.float32, shape=(7,),
                         elements={"min_value": -2, "max_value": 3, "allow_nan": False})  # fmt: skip
    unique = xps.arrays(dtype=xps.real_dtypes().filter(lambda d: d in _kept(xp, backend, flavour)),
                        shape=(6,), unique=True)  # fmt: skip
    filled = xps.arrays(dtype=xp.int16, shape=(40,), elements=st.integers(-3, 3), fill=st.just(9))

    @SETTINGS
    @given(bounded, unique, filled)
    def drawn(b: Any, u: Any, f: Any) -> None:
        values = _host(b)
        assert values.dtype == np.float32 and ((values >= -2) & (values <= 3)).all(), values
        values = _host(u)
        finite = values[~np.isnan(values)] if values.dtype.kind == "f" else values
        assert len(np.unique(finite)) == len(finite), values
        values = _host(f)
        assert ((values >= -3) & (values <= 3) | (values == 9)).all(), values

    drawn()


def _kept(xp: ModuleType, backend: str, flavour: str) -> list[Any]:
    return [getattr(xp, n) for n in _dtypes(xp, backend, flavour)]


@pytest.mark.parametrize(("backend", "flavour"), NAMESPACES, ids=[f"{b}-{f}" for b, f in NAMESPACES])
def test_scalars_indices_and_shapes(backend: str, flavour: str) -> None:
    xp, xps = _strategies(backend, flavour)
    dtypes = st.sampled_from(_kept(xp, backend, flavour))
    scalars = dtypes.flatmap(lambda d: st.tuples(st.just(d), xps.from_dtype(d)))
    shape = (4, 5, 3)
    x = xp.reshape(xp.arange(60, dtype=xp.int32), shape)
    reference = np.arange(60, dtype=np.int32).reshape(shape)

    indices = xps.indices(shape, allow_newaxis=True)
    if backend == "torch" and flavour == "native":
        # a torch tensor's own indexing takes no negative steps (the wrapped flavour's does)
        indices = indices.filter(lambda key: not any(
            type(k) is slice and (k.step or 1) < 0 for k in (key if type(key) is tuple else (key,))))

    @SETTINGS
    @given(scalars, indices, xps.broadcastable_shapes(shape))
    def drawn(scalar: tuple[Any, Any], index: Any, other: tuple[int, ...]) -> None:
        dtype, value = scalar
        full = xp.full((2,), value, dtype=dtype)
        host = _host(full)
        expected = np.full(2, value, dtype=host.dtype)
        np.testing.assert_array_equal(host, expected)  # (NaN, also in a complex part, equal)
        if host.dtype.kind == "f":
            assert (np.signbit(host) == np.signbit(expected)).all(), (value, host)
        np.testing.assert_array_equal(_host(x[index]), reference[index])
        assert np.broadcast_shapes(shape, other)[-len(shape):] == shape

    drawn()
