"""``repeat`` with an array of counts takes counts of every integer dtype the namespace
has, on every backend and flavour (the standard: ``repeats`` "must have an integer data
type"), and gives NumPy's answer: one count for every element (shape ``(1,)`` or the
axis's size), zero-size inputs included.  (MLX's counts of ``uint64`` made NumPy refuse a
'safe' cast to ``int64`` and the call raised `TypeError`; the independent suite found it,
docs/conformance.md.)"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")
xp = namespaces(*BACKENDS)

#: (x's values, axis, counts): counts of the axis's size, of shape (1,), and empty.
CASES = [
    ([[1, 2, 3], [4, 5, 6]], 1, [0, 2, 1]),
    ([[1, 2, 3], [4, 5, 6]], 0, [3]),
    ([1, 2, 3], None, [1, 0, 2]),
    ([], None, []),
    (np.zeros((0, 2)).tolist(), 0, []),
]


def _unknown(n: object) -> bool:
    return n is None or (isinstance(n, float) and n != n)


def _integer_dtypes(ns: ModuleType) -> dict[str, object]:
    return ns.__array_namespace_info__().dtypes(kind="integral")


@pytest.mark.parametrize("case", range(len(CASES)))
def test_counts_of_every_integer_dtype(xp: ModuleType, case: int) -> None:
    data, axis, counts = CASES[case]
    x = xp.asarray(np.asarray(data, dtype=np.int32).reshape(np.shape(data)), dtype=xp.int32)
    expected = np.repeat(np.asarray(data, dtype=np.int32).reshape(np.shape(data)),
                         np.asarray(counts, dtype=np.int64), axis=axis)  # fmt: skip
    for name, dtype in _integer_dtypes(xp).items():
        r = xp.asarray(counts, dtype=dtype)
        out = xp.repeat(x, r, axis=axis)
        assert out.dtype == x.dtype, name
        # Dask's sizes made of the counts' values are unknown (None; NaN natively,
        # docs/dask.md) until computed; every size that is known must be NumPy's.
        assert len(out.shape) == expected.ndim, name
        assert all(_unknown(n) or n == e for n, e in zip(out.shape, expected.shape)), name
        got = values(out)
        assert got.shape == expected.shape, name
        assert np.array_equal(got, expected), name



@pytest.mark.parametrize("flavour", ["eagerpy_xp.mlx", "eagerpy_xp.native.mlx"])
def test_mlx_unsigned_count_beyond_extents_is_refused(flavour: str) -> None:
    """An unsigned count past MLX's int32 extents is a `ValueError` naming ``repeat``,
    not a count wrapped by the cast to int64 (2**63 would read as negative)."""
    pytest.importorskip("mlx.core", reason="mlx is not installed")
    import importlib

    ns = importlib.import_module(flavour)
    for big in (2**40, 2**63):
        with pytest.raises(ValueError, match=r"eagerpy_xp\..*repeat: .*beyond MLX's extents"):
            ns.repeat(ns.asarray([1]), ns.asarray([big], dtype=ns.uint64))
