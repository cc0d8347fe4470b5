"""NumPy index arrays, NumPy integers and lists of ints as keys, read and written with
NumPy's meaning on every backend (issue 23: ``x[np.array([0, 2])]``, ``x[np.array([0,
2]), :]``, ``x[:, np.array([1])]``, NumPy masks, ``np.int64(1)`` raised `IndexError` on
TensorFlow; xarray's ``isel(z=[0, 2])`` builds that key; Dask refused several index
arrays and multi-dimensional ones, torch read a uint8 index array as a mask).

The keys are generated: every integer dtype of index array, 0-d, 1-d, 2-d and empty ones,
negative entries, masks of each rank, NumPy scalars, lists, in every position beside
slices, ints, None and an ellipsis, two arrays adjacent and apart.  Each is compared with
NumPy for ``Array.__getitem__``, ``Array.__setitem__`` (wrapped flavour: native arrays
keep their framework's own operators) and the EagerPy layer.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from tests._flavours import values, x64

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask")
SHAPE = (3, 4, 5)
BASE = np.arange(60.0).reshape(SHAPE) - 30.5


@pytest.fixture(params=BACKENDS)
def xp(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    pytest.importorskip(request.param)
    with x64(request.param):
        yield importlib.import_module(f"eagerpy_xp.{request.param}")


def _index_arrays() -> list[tuple[str, Any]]:
    """Integer index arrays into an axis of size 3 (every axis of SHAPE has at least 3)."""
    found: list[tuple[str, Any]] = []
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        found.append((f"{dtype}[0,2]", np.array([0, 2], dtype)))
    found += [
        ("[-1,-3,1]", np.array([-1, -3, 1])),
        ("repeated", np.array([2, 2, 0, 2])),
        ("empty", np.array([], dtype=np.int64)),
        ("2-d", np.array([[0, 1], [2, -1]])),
        ("2-d-empty", np.zeros((2, 0), dtype=np.int32)),
        ("reversed-strides", np.arange(3)[::-1]),
        ("list", [0, 2]),
        ("nested-list", [[0, 1], [2, 2]]),
        ("empty-list", []),
    ]
    return found


def _scalars() -> list[tuple[str, Any]]:
    return [("np.int64(1)", np.int64(1)), ("np.int8(-1)", np.int8(-1)),
            ("np.uint32(2)", np.uint32(2)), ("0-d int", np.array(2)),
            ("0-d uint8", np.array(1, dtype=np.uint8))]  # fmt: skip


def keys() -> list[tuple[str, Any]]:
    """(id, key) pairs for an array of SHAPE."""
    out: list[tuple[str, Any]] = []
    arrays = _index_arrays() + _scalars()
    for name, k in arrays:
        out += [(f"[{name}]", k), (f"[{name},:]", (k, slice(None))),
                (f"[:,{name}]", (slice(None), k)), (f"[...,{name}]", (Ellipsis, k)),
                (f"[0,{name}]", (0, k)), (f"[{name},0]", (k, 0)),
                (f"[{name},:,0]", (k, slice(None), 0)), (f"[0,:,{name}]", (0, slice(None), k)),
                (f"[None,{name}]", (None, k)), (f"[:,None,{name}]", (slice(None), None, k)),
                (f"[1:,{name},::-1]", (slice(1, None), k, slice(None, None, -1)))]  # fmt: skip
    pair = np.array([0, 2])
    column = np.array([[1], [0]])
    out += [("[a,a]", (pair, pair)), ("[a,:,a]", (pair, slice(None), pair)),
            ("[:,a,a]", (slice(None), pair, pair)), ("[a,a,a]", (pair, pair, pair)),
            ("[col,a]", (column, pair)), ("[:,col,a]", (slice(None), column, pair)),
            ("[col,:,a]", (column, slice(None), pair)), ("[a,0,a]", (pair, 0, pair)),
            ("[list,list]", ([0, 1], [2, 2])), ("[a,np.int64]", (pair, np.int64(1)))]  # fmt: skip
    masks = [("mask1", BASE[:, 0, 0] > 0), ("mask2", BASE[:, :, 0] > 0), ("mask3", BASE > 0),
             ("mask-none", np.zeros(3, bool)), ("mask-all", np.ones((3, 4), bool)),
             ("bool-list", [True, False, True])]  # fmt: skip
    out += [(f"[{n}]", m) for n, m in masks]
    out += [("[:,mask]", (slice(None), np.array([True, False, True, True]))),
            ("[np.True_]", np.True_), ("[np.False_]", np.False_),
            ("[0-d True]", np.array(True)), ("[0-d False]", np.array(False)),
            ("[True]", True), ("[False]", False),
            ("[np slice bounds]", (slice(np.int64(1), np.array(3)), slice(None, None, np.int8(2)))),
            ("[np.int64,np.int32]", (np.int64(2), np.int32(-1)))]  # fmt: skip
    return out


KEYS = keys()


def _same(got: Any, want: np.ndarray, what: str) -> None:
    got = values(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, NumPy {want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize(("name", "key"), KEYS, ids=[n for n, _ in KEYS])
def test_getitem_with_numpy_keys(xp: ModuleType, name: str, key: Any) -> None:
    want = BASE[key]
    x = xp.asarray(BASE)
    _same(x[key], want, f"x{name}")
    _same(ep.astensor(x.raw)[key], want, f"astensor(native){name}")


@pytest.mark.parametrize(("name", "key"), KEYS, ids=[n for n, _ in KEYS])
def test_setitem_with_numpy_keys(xp: ModuleType, name: str, key: Any) -> None:
    """A scalar and an array of the selection's shape, as NumPy writes them."""
    selection = BASE[key]
    for value in (-1.0, -(np.arange(selection.size, dtype=np.float64) + 100).reshape(
            selection.shape)):  # fmt: skip
        want = BASE.copy()
        want[key] = value
        x = xp.asarray(BASE)
        x[key] = value if isinstance(value, float) else xp.asarray(value)
        _same(x, want, f"x{name} = {type(value).__name__}")


@pytest.mark.parametrize("key", [np.array([0, 3]), (slice(None), np.array([5])),
                                 (np.array([0, 1]), np.array([0, 1, 2])), [4], np.int64(3),
                                 (np.array([[0], [3]]), 0), np.array([1.5]),
                                 np.zeros(2, bool), [0, "a"], [[0, 1], [2]]])  # fmt: skip
def test_bad_numpy_keys_raise_index_error(xp: ModuleType, key: Any) -> None:
    """Out of range, wrong mask shape, arrays that do not broadcast, non-integer entries:
    `IndexError` naming the backend, for reading and writing (nothing written)."""
    x = xp.asarray(BASE)
    backend = xp.__name__.rpartition(".")[2]
    with pytest.raises(IndexError, match=rf"eagerpy_xp\.{backend}\.Array\.__getitem__: "):
        values(x[key])
    with pytest.raises(IndexError, match=rf"eagerpy_xp\.{backend}\.Array\.__setitem__: "):
        x[key] = 0.0
    _same(x, BASE, "after a failed write")


def test_eagerpy_layer_takes_numpy_index_arrays(xp: ModuleType) -> None:
    """EagerPy's own ``test_getitem_ndarray`` and ``index_update`` with NumPy keys."""
    import eagerpy_xp.eagerpy as eagerpy

    t = eagerpy.astensor(xp.asarray(BASE).raw)
    for key in (np.array([0, 2]), (np.array([0, 2]), slice(None)), (slice(None), np.array([1])),
                np.arange(3) % 2 == 0, np.int64(1), (np.int64(0), np.array([[0], [2]]))):  # fmt: skip
        _same(t[key].raw, BASE[key], f"eagerpy t[{key!r}]")
        want = BASE.copy()
        want[key] = 7.0
        _same(t.index_update(key, 7.0).raw, want, f"eagerpy index_update {key!r}")


def test_xarray_isel_on_every_backend(xp: ModuleType) -> None:
    """The key xarray builds for ``isel``: a NumPy index array beside full slices."""
    x = xp.asarray(BASE)
    _same(x[(slice(None), np.array([0, 2]), slice(None))], BASE[:, [0, 2], :], "isel(y=[0, 2])")
    _same(x[(np.array([1]), slice(None), np.array([4, 0]))], BASE[[1], :, [4, 0]], "two dims")
