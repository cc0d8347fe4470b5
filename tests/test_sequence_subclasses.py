"""Named tuples and other list and tuple subclasses given to ``stack``, ``concat`` and
``asarray``, against NumPy.

The standard's ``stack(arrays)`` and ``concat(arrays)`` take a tuple or a list of arrays;
a named tuple is a tuple.  SciPy stacks its ``ConfidenceInterval(low, high)`` results
(``xp.stack(res.confidence_interval)``: ``stats`` ``TestBootstrap::
test_multisample_BCa_against_R``, issue 37).  The wrapped flavour unwrapped only exact
lists and tuples, so the native function got `Array`s ("expected a NumPy array, got
Array"), and torch's ``asarray`` of a named tuple of 0-d `Array`s failed ("len() of a 0-d
array").  Every backend, in both flavours, now takes them as the plain sequence with the
same items, for every dtype and rank.
"""

from __future__ import annotations

import collections
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

Interval = collections.namedtuple("Interval", ["low", "high"])


class Listed(list):  # type: ignore[type-arg]
    """A list subclass."""


class Tupled(tuple):  # type: ignore[type-arg]
    """A tuple subclass that is not a named tuple."""


CONTAINERS = {
    "namedtuple": lambda items: Interval(*items),
    "list subclass": lambda items: Listed(items),
    "tuple subclass": lambda items: Tupled(items),
}
DTYPES = ("float32", "float64", "int32", "int64", "uint8", "bool", "complex64")
SHAPES = ((), (3,), (2, 3))


def pair(xp: ModuleType, dtype: str, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two NumPy arrays of ``dtype`` and ``shape`` with different values."""
    size = int(np.prod(shape))
    first = (np.arange(size) % 5).reshape(shape).astype(dtype)
    second = ((np.arange(size) * 3 + 1) % 7).reshape(shape).astype(dtype)
    return first, second


@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_stack_and_concat_take_sequence_subclasses(xp: ModuleType, dtype: str,
                                                   shape: tuple[int, ...],
                                                   container: str) -> None:  # fmt: skip
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    first, second = pair(xp, dtype, shape)
    items = [xp.asarray(first), xp.asarray(second)]
    make = CONTAINERS[container]
    for axis in range(-len(shape) - 1, len(shape) + 1):
        got = xp.stack(make(items), axis=axis)
        assert got.dtype == ours
        assert values(got).tolist() == np.stack([first, second], axis=axis).tolist(), axis
    if shape:
        for axis in range(-len(shape), len(shape)):
            got = xp.concat(make(items), axis=axis)
            assert got.dtype == ours
            assert values(got).tolist() == np.concatenate([first, second], axis=axis).tolist()
        got = xp.concat(make(items), axis=None)
        assert values(got).tolist() == np.concatenate([first.ravel(), second.ravel()]).tolist()


@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_asarray_of_a_sequence_subclass_of_0d_arrays(xp: ModuleType, dtype: str,
                                                     container: str) -> None:  # fmt: skip
    ours = getattr(xp, dtype, None)
    if ours is None:
        pytest.skip(f"{xp.__name__} has no {dtype}")
    first, second = pair(xp, dtype, ())
    got = xp.asarray(CONTAINERS[container]([xp.asarray(first), xp.asarray(second)]))
    assert got.dtype == ours
    assert values(got).tolist() == [first.item(), second.item()]


@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize("items", [[1.5, -2.0], [3, 4], [True, False], [1 + 2j, 0j]], ids=repr)
def test_asarray_of_a_sequence_subclass_of_python_scalars(xp: ModuleType, container: str,
                                                          items: list[Any]) -> None:  # fmt: skip
    expected = np.asarray(items)
    if expected.dtype == np.complex128 and getattr(xp, "complex128", None) is None:
        pytest.skip(f"{xp.__name__} has no complex128")
    got = xp.asarray(CONTAINERS[container](items))
    assert values(got).tolist() == expected.tolist()
    assert values(got).dtype.kind == expected.dtype.kind
