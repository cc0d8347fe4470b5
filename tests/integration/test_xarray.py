"""xarray on `Array`-backed DataArrays of every backend: ``pad``, ``shift``, ``roll``,
``diff`` and ``rolling``, against the same calls on NumPy-backed DataArrays.

Issue 23, item 2: xarray calls ``xp.pad(x, pad_width, mode=..., constant_values=...)``
(NumPy's form) when the namespace has ``pad``, which eagerpy_xp's (EagerPy's form) refused,
so ``shift``, ``pad`` and ``rolling`` failed; ``rolling`` then needs
``xp.lib.stride_tricks.sliding_window_view``.  What still fails is xarray's own doing
(docs/ecosystem.md, "xarray"): each such case is a strict xfail with the reason.
(``DataArray.dot`` is in ``test_dispatch_by_name.py``.)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import xarray as xr
from _integration import Target, expect_known_failure, known_failure

A = np.arange(20.0).reshape(4, 5) - 7.5

#: (id, function of a DataArray with dims ("a", "b"))
CASES: list[tuple[str, Callable[[xr.DataArray], xr.DataArray]]] = [
    ("pad", lambda d: d.pad(b=(1, 2))),
    ("pad int", lambda d: d.pad(a=2)),
    ("pad constant_values", lambda d: d.pad(b=1, constant_values=7.0)),
    ("pad constant_values pair", lambda d: d.pad(a=(1, 2), constant_values={"a": (-1.0, 9.0)})),
    ("pad edge", lambda d: d.pad(a=1, b=(0, 3), mode="edge")),
    ("pad reflect", lambda d: d.pad(b=3, mode="reflect")),
    ("pad reflect wide", lambda d: d.pad(b=(9, 6), mode="reflect")),
    ("pad symmetric", lambda d: d.pad(b=7, mode="symmetric")),
    ("pad wrap", lambda d: d.pad(a=(2, 5), mode="wrap")),
    ("shift", lambda d: d.shift(b=1)),
    ("shift both", lambda d: d.shift(a=-2, b=3)),
    ("shift fill_value", lambda d: d.shift(b=2, fill_value=0.5)),
    ("roll", lambda d: d.roll(b=2, a=-1)),
    ("diff", lambda d: d.diff("b")),
    ("rolling construct", lambda d: d.rolling(b=3).construct("window")),
    ("rolling construct center", lambda d: d.rolling(a=2, b=3, center=True).construct(
        a="wa", b="wb")),
    ("rolling mean", lambda d: d.rolling(b=2).mean()),
    ("rolling sum center", lambda d: d.rolling(b=3, center=True).sum()),
    ("rolling max 2-d", lambda d: d.rolling(a=2, b=2).max()),
    ("rolling mean min_periods", lambda d: d.rolling(b=3, min_periods=1).mean()),
]  # fmt: skip

_NUMPY_DTYPES = ("xarray's dtypes.maybe_promote (the missing-value fill) takes NumPy dtypes "
                 "only and raises TypeError for torch.float64 / tf.float64 / mx.float32 "
                 "(docs/ecosystem.md, 'xarray')")  # fmt: skip
for _case in ("pad", "pad int", "shift", "shift both", "rolling construct",
              "rolling construct center"):  # fmt: skip
    known_failure(_case, ("torch", "tensorflow", "mlx-x32"), _NUMPY_DTYPES)
_BOOL_SUM = ("xarray's rolling reductions count valid entries with xp.sum of a boolean "
             "array, which the standard (and array_api_strict) refuse: TypeError "
             "(docs/ecosystem.md, 'xarray')")  # fmt: skip
for _case in ("rolling mean", "rolling sum center", "rolling max 2-d", "rolling mean min_periods"):
    known_failure(_case, ("numpy", "jax", "dask"), _BOOL_SUM)
    known_failure(_case, ("torch", "tensorflow", "mlx-x32"),
                  "xarray passes dtype names ('int8') to xp.result_type for non-NumPy dtypes "
                  "(and needs NumPy dtypes, see above) (docs/ecosystem.md, 'xarray')")  # fmt: skip


@pytest.mark.parametrize(("case", "function"), CASES, ids=[c[0] for c in CASES])
def test_xarray_operation(request: pytest.FixtureRequest, target: Target, case: str,
                          function: Callable[[xr.DataArray], xr.DataArray]) -> None:  # fmt: skip
    expect_known_failure(request, case, target)
    values = target.cast(A)
    reference = function(xr.DataArray(values, dims=("a", "b")))
    result = function(xr.DataArray(target.asarray(values), dims=("a", "b")))
    assert result.dims == reference.dims and result.shape == reference.shape
    target.check(result.data, np.asarray(reference.data), where=case)


def test_xarray_pad_refuses_what_numpy_refuses(target: Target) -> None:
    d = xr.DataArray(target.asarray(target.cast(A)), dims=("a", "b"))
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{target.name}\.pad: unknown mode"):
        d.pad(b=1, mode="bogus")
    with pytest.raises(NotImplementedError, match=r"mode 'mean' of numpy\.pad"):
        d.pad(b=1, mode="mean")
