"""Operator tables (`fastpath.OperatorTable`): every `Array` carries the table of its
dtype and native type (``_ops``), which its operators test instead of both types and
both dtypes.  A stale table would run one dtype's op on another's array, so every way
an `Array` is made or rebound is checked here against `fastpath.table_of`, on every
wrapped backend; and arrays that may not take the fast cases (other dtypes, subclasses,
tracers) hold `NO_TABLE` and still compute the full path's values.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from eagerpy_xp import Array
from eagerpy_xp.native._base import fastpath
from tests._flavours import x64

BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
            "dask": "dask.array", "mlx": "mlx.core", "ndonnx": "ndonnx"}


@pytest.fixture(params=list(BACKENDS))
def xp(request: pytest.FixtureRequest) -> Any:
    pytest.importorskip(BACKENDS[request.param], reason=f"{request.param} is not installed")
    with x64(request.param):
        yield importlib.import_module(f"eagerpy_xp.{request.param}")


def _checked(a: Any) -> Any:
    """``a`` itself, after checking that an `Array` holds its own table."""
    if type(a) is Array:
        expected = fastpath.table_of(a._b, a._raw, a._dt)
        assert a._ops is expected, (a._b.name, a._ops.dtype, expected.dtype, type(a._raw))
        if expected is not fastpath.NO_TABLE:
            assert expected.dtype == a._raw.dtype and expected.backend is a._b
    return a


#: Ways to make an `Array` from ``x`` (float) and ``i`` (int): creation, operators with
#: arrays and every kind of Python scalar, functions with and without fast cases,
#: reductions, indexing, conversions.
MAKERS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "asarray": lambda xp, x, i: xp.asarray([1.0, 2.0]),
    "asarray-int": lambda xp, x, i: xp.asarray([1, 2]),
    "zeros-bool": lambda xp, x, i: xp.zeros((2, 3), dtype=xp.bool),
    "arange": lambda xp, x, i: xp.arange(5),
    "x + x": lambda xp, x, i: x + x,
    "x + i (promoted)": lambda xp, x, i: x + xp.astype(i, x.dtype),
    "x * 2.0": lambda xp, x, i: x * 2.0,
    "x * 2": lambda xp, x, i: x * 2,
    "i * 2**40": lambda xp, x, i: i * 2**40,
    "2 - x": lambda xp, x, i: 2 - x,
    "x ** 2": lambda xp, x, i: x ** 2,
    "x ** 0.5": lambda xp, x, i: x ** 0.5,
    "x * 1j": lambda xp, x, i: x * 1j,
    "x * True": lambda xp, x, i: x * True,
    "i / 2": lambda xp, x, i: i / 2,
    "i // 2": lambda xp, x, i: i // 2,
    "x > 0.5": lambda xp, x, i: x > 0.5,
    "x == x": lambda xp, x, i: x == x,
    "~(x > 1)": lambda xp, x, i: ~(x > 1),
    "-x": lambda xp, x, i: -x,
    "abs(i)": lambda xp, x, i: abs(i),
    "+i": lambda xp, x, i: +i,
    "exp": lambda xp, x, i: xp.exp(x),
    "add": lambda xp, x, i: xp.add(x, x),
    "add scalar": lambda xp, x, i: xp.add(x, 2.0),
    "less": lambda xp, x, i: xp.less(x, x),
    "isnan": lambda xp, x, i: xp.isnan(x),
    "sum": lambda xp, x, i: xp.sum(x),
    "sum axis": lambda xp, x, i: xp.sum(x, axis=0),
    "sum int": lambda xp, x, i: xp.sum(i),
    "mean": lambda xp, x, i: xp.mean(x, axis=0),
    "max": lambda xp, x, i: xp.max(x),
    "astype": lambda xp, x, i: xp.astype(x, xp.float32),
    "where": lambda xp, x, i: xp.where(x > 1, x, 0.0),
    "reshape": lambda xp, x, i: xp.reshape(x, (-1,)),
    "stack": lambda xp, x, i: xp.stack([x, x]),
    "x[0]": lambda xp, x, i: x[0],
    "x[1:]": lambda xp, x, i: x[1:],
    "x[::-1]": lambda xp, x, i: x[::-1],
    "x[..., None]": lambda xp, x, i: x[..., None],
    "x[x > 1]": lambda xp, x, i: x[x > 1],
    "x.T": lambda xp, x, i: xp.reshape(x, (1, -1)).T,
    "x.mT": lambda xp, x, i: xp.reshape(x, (1, -1)).mT,
    "matmul": lambda xp, x, i: xp.reshape(x, (1, -1)) @ xp.reshape(x, (-1, 1)),
    "linalg": lambda xp, x, i: xp.linalg.vector_norm(x),
    "copy": lambda xp, x, i: __import__("copy").copy(x),
    "pickle": lambda xp, x, i: __import__("pickle").loads(__import__("pickle").dumps(x)),
    "Array(raw)": lambda xp, x, i: Array(x.raw),
    "astensor": lambda xp, x, i: ep.astensor(x.raw),
}


@pytest.mark.parametrize("maker", list(MAKERS))
def test_every_made_array_holds_its_own_table(xp: ModuleType, maker: str) -> None:
    x = xp.asarray([1.0, 2.0, 3.0])
    i = xp.asarray([1, 2, 3])
    try:
        made = MAKERS[maker](xp, x, i)
    except Exception as error:  # what a backend refuses is another test's: only its type
        assert isinstance(error, (TypeError, ValueError, NotImplementedError, OverflowError))
        return
    _checked(made)
    if type(made) is Array:  # and what is made from it, again
        if made.dtype == xp.bool:
            _checked(made == made)
            _checked(~made)
        else:
            _checked(made + made)
            _checked(-made)


WRITES: dict[str, Callable[[Any, Any], None]] = {
    "x[0] = 5.0": lambda xp, x: x.__setitem__(0, 5.0),
    "x[:] = array": lambda xp, x: x.__setitem__(slice(None), xp.ones(3)),
    "x += 1.0": lambda xp, x: x.__iadd__(1.0),
    "x *= x": lambda xp, x: x.__imul__(x),
    "view write": lambda xp, x: x[1:].__setitem__(0, 7.0),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_writes_keep_the_table(xp: ModuleType, write: str) -> None:
    x = xp.asarray([1.0, 2.0, 3.0])
    before = x._ops
    WRITES[write](xp, x)
    _checked(x)
    assert x._ops is before  # (a write keeps the dtype and the type)
    assert x.dtype == xp.asarray([1.0]).dtype


def test_a_table_per_dtype_and_one_for_none(xp: ModuleType) -> None:
    backend = xp.asarray(1.0)._b
    tables = backend.operator_tables
    assert tables and all(t.backend is backend and t.dtype == d for d, t in tables.items())
    kinds = {type(t.array_type) for t in tables.values()}
    assert len(kinds) == 1  # one native type carries tables
    none = fastpath.NO_TABLE
    assert all(case is None for case in none.arrays + none.floats + none.ints + none.unary)
    # a case's result table is its result dtype's
    for table in tables.values():
        for case in table.arrays + table.floats + table.ints + table.unary:
            if case is not None:
                op, result, dtype = case
                assert callable(op) and result is tables[dtype]


def test_tables_of_mixed_dtypes_take_the_full_path(xp: ModuleType) -> None:
    """Two tables differ: the operator promotes, as the function does."""
    small = xp.asarray([1, -2], dtype=xp.int8)
    large = xp.asarray([300, 400], dtype=xp.int16)
    assert small._ops is not large._ops
    for total in (small + large, large + small, xp.add(small, large)):
        _checked(total)
        assert total.dtype == xp.int16
        assert np.asarray(total).tolist() == [301, 398]
    f = xp.asarray([1.5, 2.5])
    other = next(n for n in ("numpy", "torch") if n != f._b.name)
    pytest.importorskip(other)
    alien = importlib.import_module(f"eagerpy_xp.{other}").asarray([1.5, 2.5])
    with pytest.raises(TypeError, match="cannot mix"):
        f + alien


def test_a_subclass_holds_no_table_and_still_computes() -> None:
    torch = pytest.importorskip("torch")
    xp = importlib.import_module("eagerpy_xp.torch")
    parameter = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    p = Array(parameter)
    assert type(p.raw) is torch.nn.Parameter and p._ops is fastpath.NO_TABLE
    for result, expected in ((p + p, [2.0, 4.0]), (p * 2.0, [2.0, 4.0]), (-p, [-1.0, -2.0]),
                             (p + xp.asarray([1.0, 1.0]), [2.0, 3.0])):  # fmt: skip
        _checked(result)
        assert result.raw.tolist() == expected
    (p * p).sum().raw.backward()  # the graph is kept through the full path
    assert parameter.grad.tolist() == [2.0, 4.0]


def test_traced_arrays_hold_no_table() -> None:
    jax = pytest.importorskip("jax")
    xp = importlib.import_module("eagerpy_xp.jax")
    seen = []

    def f(raw: Any) -> Any:
        a = Array(raw)
        seen.append(a._ops)
        b = a * 2.0 + a
        seen.append(b._ops)
        return b.raw

    out = jax.jit(f)(xp.asarray([1.0, 2.0]).raw)
    assert seen == [fastpath.NO_TABLE, fastpath.NO_TABLE]
    assert out.tolist() == [3.0, 6.0]


def test_threads_writing_keep_tables_whole(xp: ModuleType) -> None:
    """Writers of disjoint rows and readers through operators, in threads: every read
    sees an array whose table is its own, and no row is lost."""
    a = xp.zeros((4, 64))
    errors: list[BaseException] = []

    def writer(row: int) -> None:
        try:
            for _ in range(20):
                a[row, ...] = xp.ones(64) * (row + 1)
        except BaseException as error:
            errors.append(error)

    def reader() -> None:
        try:
            for _ in range(20):
                _checked(a + a)
                _checked(a)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(r,)) for r in range(4)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors and "Stream" in str(errors[0]):  # MLX: arrays of one thread in another
        pytest.skip(f"MLX evaluates per thread (docs/mlx.md): {errors[0]}")
    assert not errors, errors
    _checked(a)
    rows = np.asarray(xp.sum(a, axis=1))
    assert rows.tolist() == [64.0, 128.0, 192.0, 256.0]
