"""Libraries that find functions by an array's module name, on `Array`s of every backend:
autoray (``autoray.do``), opt_einsum (``contract``, ``contract_path``) and xarray's
``DataArray.dot`` (through opt_einsum, and through ``xp.einsum`` without it).

Issue 23, item 1: ``autoray.do("sum", x)`` raised ``ImportError`` for every function and
``opt_einsum.contract`` on a torch `Array` returned a NumPy array.  Each case runs the
library on NumPy arrays (the reference) and on `Array`s of one backend; results must be
`Array`s of that backend with NumPy's values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import autoray
import numpy as np
import opt_einsum
import pytest
import xarray as xr
from _integration import Target, prints_ok, registers_in_either_order, rng_inputs

Inputs = Callable[[np.random.Generator], tuple[Any, ...]]


def _normal(*shapes: tuple[int, ...]) -> Inputs:
    return lambda rng: tuple(rng.standard_normal(s) for s in shapes)


def _spd(n: int) -> Inputs:
    def make(rng: np.random.Generator) -> tuple[Any, ...]:
        a = rng.standard_normal((n, n))
        return (a @ a.T + n * np.eye(n), rng.standard_normal((n, 2)))

    return make


def _positive(*shape: int) -> Inputs:
    return lambda rng: (rng.uniform(0.5, 3.0, shape),)


def _svd(x: Any) -> tuple[Any, ...]:
    u, s, vh = autoray.do("linalg.svd", x)
    return s, (u * s[None, :]) @ vh, u.shape  # singular vectors only up to sign


def _eigh(x: Any, _: Any) -> tuple[Any, ...]:
    w, v = autoray.do("linalg.eigh", x)
    return w, (v * w[None, :]) @ autoray.do("transpose", v)


do = autoray.do

#: (id, function of the arrays, inputs): ~40 common autoray calls, linalg included
CASES: list[tuple[str, Callable[..., Any], Inputs]] = [
    ("sum", lambda x: do("sum", x), _normal((3, 4))),
    ("sum axis", lambda x: do("sum", x, axis=0), _normal((3, 4))),
    ("mean", lambda x: do("mean", x, axis=1), _normal((3, 4))),
    ("max", lambda x: do("max", x), _normal((3, 4))),
    ("min", lambda x: do("min", x, axis=0), _normal((3, 4))),
    ("prod", lambda x: do("prod", x, axis=1), _normal((3, 4))),
    ("exp", lambda x: do("exp", x), _normal((3, 4))),
    ("log", lambda x: do("log", x), _positive(3, 4)),
    ("sqrt", lambda x: do("sqrt", x), _positive(3, 4)),
    ("abs", lambda x: do("abs", x), _normal((3, 4))),
    ("absolute", lambda x: do("absolute", x), _normal((3, 4))),
    ("tanh", lambda x: do("tanh", x), _normal((3, 4))),
    ("arccos", lambda x: do("arccos", x / 4), _normal((3, 4))),
    ("clip", lambda x: do("clip", x, -0.5, 0.5), _normal((3, 4))),
    ("where", lambda x, y: do("where", x > y, x, y), _normal((3, 4), (3, 4))),
    ("maximum", lambda x, y: do("maximum", x, y), _normal((3, 4), (3, 4))),
    ("power", lambda x: do("power", x, 3), _normal((3, 4))),
    ("reshape", lambda x: do("reshape", x, (4, 3)), _normal((3, 4))),
    ("autoray.reshape", lambda x: autoray.reshape(x, (2, 6)), _normal((3, 4))),
    ("transpose", lambda x: do("transpose", x), _normal((3, 4))),
    ("autoray.transpose", lambda x: autoray.transpose(x), _normal((3, 4))),
    ("autoray.dag", lambda x: autoray.dag(x), _normal((3, 4))),
    ("concatenate", lambda x, y: do("concatenate", [x, y], axis=1), _normal((3, 4), (3, 2))),
    ("stack", lambda x, y: do("stack", [x, y]), _normal((3, 4), (3, 4))),
    ("tensordot", lambda x, y: do("tensordot", x, y, axes=1), _normal((3, 4), (4, 2))),
    ("einsum", lambda x, y: do("einsum", "ij,kj->ik", x, y), _normal((3, 4), (2, 4))),
    ("matmul", lambda x, y: do("matmul", x, y), _normal((3, 4), (4, 2))),
    ("conj", lambda x: autoray.conj(x), _normal((3, 4))),
    ("real", lambda x: autoray.real(x), _normal((3, 4))),
    ("trace", lambda x: do("trace", x), _normal((4, 4))),
    ("argmax", lambda x: do("argmax", x, axis=1), _normal((3, 4))),
    ("sort", lambda x: do("sort", x, axis=0), _normal((3, 4))),
    ("count_nonzero", lambda x: do("count_nonzero", x > 0), _normal((3, 4))),
    ("astype", lambda x: autoray.astype(x, "float32"), _normal((3, 4))),
    ("do astype", lambda x: do("astype", x, "float32"), _normal((3, 4))),
    ("linalg.svd", _svd, _normal((4, 3))),
    ("linalg.qr", lambda x: do("linalg.qr", x)[0] @ do("linalg.qr", x)[1], _normal((4, 3))),
    ("linalg.eigh", _eigh, _spd(4)),
    ("linalg.inv", lambda x, _: do("linalg.inv", x), _spd(3)),
    ("linalg.solve", lambda x, b: do("linalg.solve", x, b), _spd(3)),
    ("linalg.det", lambda x, _: do("linalg.det", x), _spd(3)),
    ("linalg.cholesky", lambda x, _: do("linalg.cholesky", x), _spd(3)),
    ("linalg.norm", lambda x: do("linalg.norm", x), _normal((3, 4))),
    ("linalg.norm axis", lambda x: do("linalg.norm", x, axis=1), _normal((3, 4))),
    ("linalg.norm ord", lambda x: do("linalg.norm", x, ord=2), _normal((3, 4))),
    ("fft.rfft", lambda x: do("fft.rfft", x), _normal((3, 4))),
    ("zeros_like", lambda x: do("zeros_like", x), _normal((3, 4))),
]


@pytest.mark.parametrize(("case", "function", "inputs"), CASES, ids=[c[0] for c in CASES])
def test_autoray_do(target: Target, case: str, function: Callable[..., Any],
                    inputs: Inputs) -> None:  # fmt: skip
    values = [target.cast(v) for v in rng_inputs(inputs)]
    reference = function(*values)
    result = function(*(target.asarray(v) for v in values))
    target.check(result, _numpy_leaves(reference), where=case,
                 check_dtype=case not in ("autoray.astype", "do astype"))  # fmt: skip


def _numpy_leaves(value: Any) -> Any:
    """Tuples (NumPy's named results included) as plain tuples, NumPy scalars as arrays."""
    if isinstance(value, tuple):
        return tuple(_numpy_leaves(v) for v in value)
    if isinstance(value, np.generic):
        return np.asarray(value)
    return value


def test_autoray_helpers(target: Target) -> None:
    values = target.cast(np.arange(12.0).reshape(3, 4))
    x = target.asarray(values)
    assert autoray.infer_backend(x) == "eagerpy_xp.interop"
    assert autoray.infer_backend_multi(values, x) == "eagerpy_xp.interop"  # beats numpy
    converted = autoray.to_numpy(x)
    assert type(converted) is np.ndarray
    np.testing.assert_array_equal(converted, values)
    assert autoray.get_dtype_name(x) == str(values.dtype)
    assert autoray.shape(x) == (3, 4) and autoray.ndim(x) == 2 and autoray.size(x) == 12
    assert autoray.get_dtype_name(autoray.astype(x, "float32")) == "float32"
    xp = autoray.get_namespace(x)
    target.check(xp.sum(x, axis=1), values.sum(1))
    with pytest.raises(TypeError, match="no array among the arguments"):
        autoray.do("zeros", (2, 3), like=x)  # only dtype and device reach the function


@pytest.mark.parametrize("first", ["autoray", "eagerpy_xp"])
def test_autoray_finds_arrays_in_either_import_order(first: str) -> None:
    registers_in_either_order(first, "autoray", "y = autoray.do('sum', x, axis=0)\n"
                              "assert type(y) is ep.Array and np.asarray(y).tolist() == [3.0, 5.0, 7.0], y")  # fmt: skip


def test_importing_eagerpy_xp_alone_leaves_only_the_hook() -> None:
    code = (
        "import sys\n"
        "before = list(sys.meta_path)\n"
        "import eagerpy_xp\n"
        "added = [f for f in sys.meta_path if f not in before]\n"
        "assert [type(f).__name__ for f in added] == ['_ClientHook'], added\n"
        "assert added[0].waiting == {'autoray', 'einops'}, added[0].waiting\n"
        "assert not {'autoray', 'einops', 'numpy'} & set(sys.modules)\n"
        "import json\n"  # any other import passes through untouched
        "assert added[0] in sys.meta_path\n"
        "print('ok')\n"
    )
    prints_ok(code)


#: (subscripts, operand shapes) for opt_einsum: 2 to 4 operands
CONTRACTIONS = [
    ("ij,kj->ik", ((3, 4), (2, 4))),
    ("ij,jk->ik", ((3, 4), (4, 5))),
    ("ij,jk,kl->il", ((3, 4), (4, 5), (5, 2))),
    ("abc,cd,bd->a", ((2, 3, 4), (4, 5), (3, 5))),
    ("ij,jk,kl,lm->im", ((2, 3), (3, 4), (4, 5), (5, 2))),
    ("ea,fb,abcd,gc,hd->efgh", ((2, 3), (2, 3), (3, 3, 3, 3), (2, 3), (2, 3))),
    ("bij,bjk->bik", ((2, 3, 4), (2, 4, 3))),
    ("i,i->", ((5,), (5,))),
    ("...ij,...jk->...ik", ((2, 3, 4), (2, 4, 3))),
]


@pytest.mark.parametrize(("subscripts", "shapes"), CONTRACTIONS, ids=[c[0] for c in CONTRACTIONS])
def test_opt_einsum_contract(target: Target, subscripts: str,
                             shapes: tuple[tuple[int, ...], ...]) -> None:  # fmt: skip
    values = [target.cast(v) for v in rng_inputs(_normal(*shapes))]
    expected = np.einsum(subscripts, *values)
    arrays = [target.asarray(v) for v in values]
    target.check(opt_einsum.contract(subscripts, *arrays), expected, where=subscripts)
    target.check(opt_einsum.contract(subscripts, *arrays, optimize="greedy"), expected)
    path, info = opt_einsum.contract_path(subscripts, *arrays)
    assert len(path) == max(len(shapes) - 1, 1) and info.eq.replace(" ", "")
    target.check(opt_einsum.contract(subscripts, *arrays, optimize=path), expected)
    expression = opt_einsum.contract_expression(subscripts, *shapes)
    target.check(expression(*arrays), expected)


@pytest.mark.parametrize("use_opt_einsum", [True, False])
def test_xarray_dot(target: Target, use_opt_einsum: bool) -> None:
    a, b, c = (target.cast(v) for v in rng_inputs(_normal((2, 3), (3, 4), (2, 3))))

    def dots(a: Any, b: Any, c: Any) -> tuple[Any, ...]:
        x = xr.DataArray(a, dims=("x", "y"))
        y = xr.DataArray(b, dims=("y", "z"))
        w = xr.DataArray(c, dims=("x", "y"))
        return (x.dot(y).data, x.dot(w).data, x.dot(w, dim="y").data,
                xr.dot(x, y, w, dim=...).data, (x @ y).data)  # fmt: skip

    with xr.set_options(use_opt_einsum=use_opt_einsum):
        reference = dots(a, b, c)
        result = dots(*(target.asarray(v) for v in (a, b, c)))
    target.check(result, _numpy_leaves(reference))
