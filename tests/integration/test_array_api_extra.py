"""Every public function of array-api-extra on eagerpy_xp Arrays of every backend.

Each case is ``(id, function, inputs)``: ``function(xp, *arrays)`` runs once with
``array_api_compat.numpy`` and NumPy arrays (the reference) and once with the backend's
wrapped namespace and the same values as Arrays; the results must agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import array_api_compat.numpy as np_xp
import array_api_extra as xpx
import numpy as np
import pytest
from _integration import X64_REASON, Target, expect_known_failure, known_failure, rng_inputs

Inputs = Callable[[np.random.Generator], tuple[Any, ...]]

pytestmark = [
    # Deprecated in favour of the 2025.12 standard's own functions, still public: covered.
    pytest.mark.filterwarnings(r"ignore:`xpx\.(broadcast_shapes|expand_dims)` is deprecated"),
    pytest.mark.filterwarnings("ignore:All-NaN slice encountered:RuntimeWarning"),
]


def _normal(*shapes: tuple[int, ...]) -> Inputs:
    return lambda rng: tuple(rng.standard_normal(s) for s in shapes)


def _with_nans(*shape: int) -> Inputs:
    def make(rng: np.random.Generator) -> tuple[Any, ...]:
        x = rng.standard_normal(shape)
        x[rng.random(shape) < 0.3] = np.nan
        x.flat[0] = np.nan
        return (x,)

    return make


def _ints(*shapes: tuple[int, ...], high: int = 6) -> Inputs:
    return lambda rng: tuple(rng.integers(0, high, s) for s in shapes)


def _complex(*shape: int) -> Inputs:
    return lambda rng: (rng.standard_normal(shape) + 1j * rng.standard_normal(shape),)


def _none(rng: np.random.Generator) -> tuple[Any, ...]:
    return ()


# Each `at` method with an index of each kind.
_AT_CASES: list[tuple[str, Callable[..., Any], Inputs]] = [
    (f"at.{method}[{label}]",
     lambda xp, x, m=method, k=key: getattr(xpx.at(x, k(xp, x)), m)(2.0),
     _normal((5, 3)))
    for method in ("set", "add", "subtract", "multiply", "divide", "power", "min", "max")
    for label, key in (
        ("slice", lambda xp, x: (slice(1, 3), 0)),
        ("mask", lambda xp, x: x > 0),
        ("int-array", lambda xp, x: xp.asarray([0, 2, 4])),
    )
]  # fmt: skip

CASES: list[tuple[str, Callable[..., Any], Inputs]] = [
    ("angle", lambda xp, z: xpx.angle(z), _complex(6)),
    ("angle-deg", lambda xp, z: xpx.angle(z, deg=True), _complex(6)),
    ("apply_where", lambda xp, x: xpx.apply_where(x > 0, (x,), lambda v: v**2, lambda v: -v),
     _normal((7,))),
    ("apply_where-fill", lambda xp, x: xpx.apply_where(x > 0, x, xp.sqrt, fill_value=-1.0),
     _normal((7,))),
    ("argpartition", lambda xp, x: xp.take(x, xpx.argpartition(x, 3))[3], _normal((9,))),
    *_AT_CASES,
    ("at.set-copy", lambda xp, x: (xpx.at(x)[0].set(9.0, copy=True), x), _normal((4,))),
    ("atleast_nd", lambda xp, x: xpx.atleast_nd(x, ndim=3), _normal((4,))),
    ("broadcast_shapes", lambda xp, a, b: xpx.broadcast_shapes(a.shape, b.shape),
     _normal((4, 1), (1, 3))),
    ("cov", lambda xp, x: xpx.cov(x), _normal((3, 10))),
    ("create_diagonal", lambda xp, x: xpx.create_diagonal(x, offset=1), _normal((4,))),
    ("default_dtype", lambda xp: xpx.default_dtype(xp, "indexing")
     == xp.__array_namespace_info__().default_dtypes()["indexing"], _none),
    ("deg2rad", lambda xp, x: xpx.deg2rad(x * 100), _normal((5,))),
    ("diag_indices", lambda xp: xpx.diag_indices(4, xp=xp), _none),
    ("expand_dims", lambda xp, x: xpx.expand_dims(x, axis=(0, 2)), _normal((3, 2))),
    ("isclose", lambda xp, a, b: xpx.isclose(a, a + b * 1e-9), _normal((6,), (6,))),
    ("isin", lambda xp, a, b: xpx.isin(a, b), _ints((8,), (3,))),
    ("kron", lambda xp, a, b: xpx.kron(a, b), _normal((2, 2), (3, 2))),
    ("lazy_apply", lambda xp, x: xpx.lazy_apply(np.cumsum, x, as_numpy=True, shape=x.shape,
                                                 dtype=x.dtype), _normal((6,))),
    ("nan_to_num", lambda xp, x: xpx.nan_to_num(x, fill_value=-3.0), _with_nans(6)),
    ("nanmax", lambda xp, x: xpx.nanmax(x, axis=0), _with_nans(4, 3)),
    ("nanmean", lambda xp, x: xpx.nanmean(x, axis=1), _with_nans(3, 5)),
    ("nanmin", lambda xp, x: xpx.nanmin(x), _with_nans(4, 3)),
    ("nansum", lambda xp, x: xpx.nansum(x, axis=1), _with_nans(3, 4)),
    ("nunique", lambda xp, x: xpx.nunique(x), _ints((12,))),
    ("one_hot", lambda xp, x: xpx.one_hot(x, 6, dtype=xp.int32), _ints((5,))),
    ("one_hot-default-dtype", lambda xp, x: (xpx.one_hot(x, 3, axis=0),
                                            xpx.one_hot(x, 3).dtype == xpx.default_dtype(xp)),
     _ints((4,), high=3)),
    ("pad", lambda xp, x: xpx.pad(x, 2), _normal((2, 3))),
    ("pad-widths", lambda xp, x: xpx.pad(x, ((1, 0), (0, 2)), constant_values=7.0),
     _normal((2, 3))),
    ("partition", lambda xp, x: (xpx.partition(x, 3)[3], xp.sort(xpx.partition(x, 3))),
     _normal((9,))),
    ("rad2deg", lambda xp, x: xpx.rad2deg(x), _normal((5,))),
    ("searchsorted", lambda xp, a, b: xpx.searchsorted(xp.sort(a), b), _normal((8,), (5,))),
    ("searchsorted-right", lambda xp, a, b: xpx.searchsorted(xp.sort(a), b, side="right"),
     _ints((8,), (5,))),
    ("setdiff1d", lambda xp, a, b: xpx.setdiff1d(a, b), _ints((10,), (4,))),
    ("sinc", lambda xp, x: xpx.sinc(x), _normal((7,))),
    ("tril_indices", lambda xp: xpx.tril_indices(4, offset=1, xp=xp), _none),
    ("triu_indices", lambda xp: xpx.triu_indices(3, m=5, xp=xp), _none),
    ("union1d", lambda xp, a, b: xpx.union1d(a, b), _ints((6,), (5,), high=9)),
    ("unravel_index", lambda xp, i: xpx.unravel_index(i, (3, 4)), _ints((5,), high=12)),
]


known_failure("cov", ("jax-x32",), X64_REASON.format(library="array-api-extra"))
known_failure("setdiff1d", ("dask",),
              "array-api-extra refuses lazy arrays whose output shape depends on the data "
              "('Unsupported lazy shape'; docs/dask.md)")


@pytest.mark.parametrize(("case", "function", "inputs"), CASES, ids=[c[0] for c in CASES])
def test_xpx_function(request: pytest.FixtureRequest, target: Target, case: str,
                      function: Callable[..., Any], inputs: Inputs) -> None:  # fmt: skip
    expect_known_failure(request, case, target)
    values = [target.cast(v) for v in rng_inputs(inputs)]
    reference = function(np_xp, *[v.copy() for v in values])  # xpx.at may write in place
    actual = function(target.xp, *[target.asarray(v) for v in values])
    target.check(actual, reference)


def test_every_public_function_is_covered() -> None:
    covered = {c[0].partition("-")[0].partition(".")[0] for c in CASES}
    public = set(xpx.__all__) - {"__version__", "testing"}
    assert public - covered == set()
