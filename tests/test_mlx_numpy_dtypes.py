"""MLX: ``np.asarray`` of a wrapped `Array` has NumPy's own dtype objects (issue 37).

MLX's buffer describes int64 and uint64 as C's ``long long`` (``q``, ``Q``); NumPy reads
those as dtypes equal to its int64 and uint64 but with other type numbers than its own
(``l``, ``L`` on Linux).  Compiled code dispatching on the type number refused them or
read nothing: SciPy's ``ndimage.rank_filter`` raised "Unsupported array type" and
``ndimage.value_indices`` found no values, on ``eagerpy_xp.mlx`` only.  The wrapped
`Array`'s ``__array__`` now gives a view in NumPy's own dtype of the same name.

The family: every dtype MLX holds, several shapes, ``np.asarray`` with and without
``copy=False`` and with a dtype asked for: the type number and character are NumPy's own
and the values are the array's; and the two SciPy functions that failed, where SciPy is
installed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

mx = pytest.importorskip("mlx.core", reason="MLX is not installed (pip install 'eagerpy-xp[mlx]')")

import eagerpy_xp.mlx as wxp  # noqa: E402

HELD = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64", "complex64")  # fmt: skip
SHAPES = ((), (5,), (2, 3), (2, 1, 4))


def _values(shape: tuple[int, ...], name: str) -> np.ndarray:
    count = int(np.prod(shape))
    return (np.arange(count).reshape(shape) % 4).astype(name)


@pytest.mark.parametrize("name", HELD)
def test_numpy_copies_have_numpy_own_dtypes(name: str) -> None:
    own = np.dtype(name)
    for shape, copy in itertools.product(SHAPES, (None, False, True)):
        want = _values(shape, name)
        x = wxp.asarray(want)
        host = np.asarray(x, copy=copy)
        context = f"np.asarray({name}{shape}, copy={copy})"
        assert host.dtype.num == own.num and host.dtype.char == own.char, context
        assert host.shape == shape, context
        np.testing.assert_array_equal(host, want, err_msg=context)
    # a dtype asked for: NumPy's own of that name too
    for target in ("complex128",) if name == "complex64" else ("int64", "uint64", "float64"):
        host = np.asarray(wxp.asarray(_values((3,), name)), dtype=target)
        assert host.dtype.num == np.dtype(target).num, f"{name} as {target}"


def test_scipy_compiled_filters_read_mlx_integers() -> None:
    pytest.importorskip("scipy")
    from scipy import ndimage

    for name in ("int64", "uint64", "int32"):
        values = np.asarray([5, 1, 4, 2, 3, 9, 0], dtype=name)
        got = ndimage.rank_filter(np.asarray(wxp.asarray(values)), 1, size=[3])
        np.testing.assert_array_equal(got, ndimage.rank_filter(values, 1, size=[3]))
        labels = np.asarray([[1, 0, 0], [0, 2, 2], [0, 0, 4]], dtype=name)
        found = ndimage.value_indices(np.asarray(wxp.asarray(labels)), ignore_value=0)
        assert sorted(found) == [1, 2, 4], name
        for key, where in found.items():
            np.testing.assert_array_equal(where, np.nonzero(labels == key))
