"""`Array` methods as the migration guide lists them (keywords of the standard included),
and the EagerPy helpers reached through the array's own namespace."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import eagerpy_xp as ep


def _x() -> ep.Array:
    return ep.astensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32))


def test_argmin_argmax_keepdims() -> None:
    x = _x()
    assert np.array_equal(x.argmin(axis=1, keepdims=True).raw, [[1], [0]])
    assert np.array_equal(x.argmax(axis=1, keepdims=True).raw, [[0], [1]])
    assert x.argmax(axis=0).shape == (3,) and x.argmax(axis=0, keepdims=True).shape == (1, 3)
    assert x.argmin().raw == 3


def test_sort_argsort_descending_and_stable() -> None:
    x = _x()
    assert np.array_equal(x.sort(1, descending=True).raw, [[3, 2, 1], [5, 4, 0]])
    assert np.array_equal(x.sort(axis=0).raw, [[0, 1, 2], [3, 5, 4]])
    assert np.array_equal(x.argsort(axis=1, descending=True).raw, [[0, 2, 1], [1, 2, 0]])
    ties = ep.astensor(np.array([1, 0, 1, 0]))
    assert np.array_equal(ties.argsort(descending=True, stable=True).raw, [0, 2, 1, 3])


def test_helpers_through_the_namespace() -> None:
    x = _x()
    assert np.allclose(x.softmax(axis=1).sum(axis=1).raw, 1.0)
    assert np.allclose(x.norms.l2(axis=1).raw, np.sqrt([14.0, 41.0]))
    assert np.allclose(x.norms.lp(3, axis=0).raw, np.cbrt([27.0, 126.0, 72.0]))
    values, indices = x.topk(2)
    assert np.array_equal(values.raw, [[3, 2], [5, 4]]) and np.array_equal(indices.raw, [[0, 2], [1, 2]])
    assert type(x.logsumexp(axis=1)) is ep.Array
    assert np.array_equal(x.index_update((0, 1), 9.0).raw[0], [3, 9, 2])
    assert repr(x.norms).startswith("<eagerpy_xp norms")


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "tensorflow", "dask", "mlx"])
def test_format_specs(backend: str) -> None:
    """``f"{loss:.4f}"`` of a 0-d `Array` formats its Python scalar, on every backend (it
    raised "unsupported format string passed to Array.__format__")."""
    pytest.importorskip(backend)
    xp = importlib.import_module(f"eagerpy_xp.{backend}")
    loss, count, flag = xp.asarray(0.123456), xp.asarray(7), xp.asarray(True)
    z = xp.asarray(1.5 - 2j, dtype=xp.complex64)
    assert f"{loss:.4f}|{loss:>10.2e}|{count:05d}|{count:,}|{flag:^6}|{z:.1f}" == \
        "0.1235|  1.23e-01|00007|7|  1   |1.5-2.0j"
    assert f"{flag}" == str(flag)  # no spec: str() (Dask's is its lazy repr)
    assert f"{xp.asarray(-0.0):+.1f}" == "-0.0" and f"{xp.asarray(float('nan')):.2f}" == "nan"
    assert format(xp.ones(3), "") == str(xp.ones(3))  # no spec: str()
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.Array\.__format__: .*0-d.*\(2,\)"):
        f"{xp.ones(2):.2f}"
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.Array\.__format__: "):
        f"{loss:d}"
