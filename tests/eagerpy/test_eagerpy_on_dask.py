"""`eagerpy_xp.eagerpy` on Dask arrays (issue 17, item 4): the same calls as on NumPy
(no autodiff: Dask has none)."""

from __future__ import annotations

import numpy as np
import pytest
from _ep_frameworks import data

import eagerpy_xp.eagerpy as ep

pytest.importorskip("dask.array", reason="Dask is not installed")


def test_dask_same_as_numpy() -> None:
    import dask.array as da

    raws = data("numpy")
    x, p = ep.astensor(da.from_array(raws["x"], chunks=2)), ep.astensor(da.from_array(raws["p"]))
    nx, npp = ep.astensor(raws["x"]), ep.astensor(raws["p"])
    assert type(x) is ep.DaskTensor
    for mine, ref in ((ep.clip(x + p, 0, 1), ep.clip(nx + npp, 0, 1)), (x.sum(axis=1), nx.sum(axis=1)),
                      (ep.concatenate([x, p]), ep.concatenate([nx, npp])), (x.norms.l2(), nx.norms.l2())):  # fmt: skip
        assert mine.dtype == ref.dtype and mine.shape == ref.shape
        np.testing.assert_allclose(mine.numpy(), ref.numpy(), rtol=1e-6)
    with pytest.raises(NotImplementedError):
        ep.value_and_grad(lambda t: t.sum(), x)
