"""`Array` methods as the migration guide lists them (keywords of the standard included),
and the EagerPy helpers reached through the array's own namespace."""

from __future__ import annotations

import numpy as np

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
