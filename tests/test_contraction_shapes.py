"""Every function that contracts or pairs up axes, given shapes that do not fit, raises
`ValueError` (docs/errors.md) on every backend and flavour; given shapes that fit, it gives
NumPy's answer.

The standard: ``vecdot``'s operands "must be compatible ... for all non-contracted axes"
and "the size of the axis over which to compute the dot product must be the same"
(no broadcasting of that axis: 1 against 3 is an error); ``matmul``'s inner dimensions
must agree and its stack dimensions broadcast; ``tensordot``'s contracted axes must have
the same sizes; ``linalg.cross``'s axis must have size 3 in both and the rest broadcast;
``linalg.solve``'s ``x2`` must fit ``x1``.  (TensorFlow's vecdot broadcast the contracted
axis and returned a value.)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")
xp = namespaces(*BACKENDS)

#: Function -> how it is called on two arrays (and keyword arguments).
CALLS: dict[str, Callable[..., Any]] = {
    "vecdot": lambda ns, a, b, **kw: ns.vecdot(a, b, **kw),
    "linalg.vecdot": lambda ns, a, b, **kw: ns.linalg.vecdot(a, b, **kw),
    "matmul": lambda ns, a, b, **kw: ns.matmul(a, b),
    "linalg.matmul": lambda ns, a, b, **kw: ns.linalg.matmul(a, b),
    "@": lambda ns, a, b, **kw: operator.matmul(a, b),
    "tensordot": lambda ns, a, b, **kw: ns.tensordot(a, b, **kw),
    "linalg.tensordot": lambda ns, a, b, **kw: ns.linalg.tensordot(a, b, **kw),
    "linalg.cross": lambda ns, a, b, **kw: ns.linalg.cross(a, b, **kw),
    "linalg.solve": lambda ns, a, b, **kw: ns.linalg.solve(a, b),
}

#: Function -> (shape of x1, shape of x2, keyword arguments) that do not fit.
MISFITS: dict[str, list[tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]]] = {
    "vecdot": [
        ((2, 3), (4, 3), {}),  # stacks that do not broadcast
        ((2, 1), (2, 3), {}),  # the contracted axis: 1 against 3 (no broadcasting)
        ((2, 3), (2, 1), {}),
        ((0,), (1,), {}),
        ((5, 1, 3), (4, 2), {}),
        ((3, 2), (1, 2), {"axis": -2}),
        ((2, 0, 3), (2, 1, 3), {"axis": -2}),
    ],
    "matmul": [
        ((2, 3), (4, 2), {}),  # inner dimensions differ
        ((1, 3), (1, 4), {}),  # 3 against 1: no broadcasting of inner dimensions
        ((2, 0), (1, 3), {}),
        ((2, 2, 3), (3, 3, 4), {}),  # stacks that do not broadcast
        ((3,), (4,), {}),
        ((3,), (4, 2), {}),
        ((2, 3), (4,), {}),
    ],
    "tensordot": [
        ((2, 3), (4, 2), {"axes": 1}),
        ((2, 3), (1, 2), {"axes": ((1,), (0,))}),  # 3 against 1: no broadcasting
        ((2, 3), (3, 2), {"axes": ((0,), (0,))}),
        ((2, 3, 4), (3, 5), {"axes": 2}),
    ],
    "linalg.cross": [
        ((2, 3), (4, 3), {}),
        ((3,), (2,), {}),
        ((2, 3), (3, 3), {}),
        ((3, 2), (3, 2), {"axis": -1}),  # the axis has size 2
    ],
    "linalg.solve": [
        ((3, 3), (2,), {}),
        ((2, 3, 3), (4, 3, 2), {}),
        ((3, 3), (2, 1), {}),
    ],
}
MISFITS["linalg.vecdot"] = MISFITS["vecdot"]
MISFITS["linalg.matmul"] = MISFITS["@"] = MISFITS["matmul"]
MISFITS["linalg.tensordot"] = MISFITS["tensordot"]

#: Function -> shapes that fit, with NumPy's answer.
FITS: dict[str, list[tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]]] = {
    "vecdot": [((2, 3), (3,), {}), ((4, 1, 3), (2, 3), {}), ((3, 2), (3, 1), {"axis": -2}),
               ((2, 0), (1, 0), {})],
    "matmul": [((2, 3), (3, 4), {}), ((5, 1, 2, 3), (4, 3, 2), {}), ((3,), (3,), {}),
               ((3,), (2, 3, 4), {}), ((2, 0), (0, 3), {})],
    "tensordot": [((2, 3), (3, 4), {"axes": 1}), ((2, 3, 4), (3, 4, 5), {"axes": 2}),
                  ((2, 3), (3, 2), {"axes": ((0, 1), (1, 0))})],
    "linalg.cross": [((2, 3), (3,), {}), ((4, 1, 3), (2, 3), {}), ((3, 2), (3, 2), {"axis": -2})],
    "linalg.solve": [((3, 3), (3,), {}), ((2, 3, 3), (3, 2), {}), ((1, 3, 3), (4, 3, 1), {})],
}
FITS["linalg.vecdot"] = FITS["vecdot"]
FITS["linalg.matmul"] = FITS["@"] = FITS["matmul"]
FITS["linalg.tensordot"] = FITS["tensordot"]

_NUMPY: dict[str, Callable[..., Any]] = {
    "vecdot": lambda a, b, axis=-1: np.sum(a * b, axis=axis),
    "matmul": np.matmul,
    "tensordot": np.tensordot,
    "linalg.cross": lambda a, b, axis=-1: np.cross(a, b, axis=axis),
    "linalg.solve": lambda a, b: (np.linalg.solve(a, b[..., None])[..., 0] if b.ndim == 1
                                  else np.linalg.solve(a, b)),
}


def _numpy(name: str) -> Callable[..., Any]:
    if name == "@":
        return _NUMPY["matmul"]
    return _NUMPY[name.removeprefix("linalg.") if name.endswith(("vecdot", "matmul",
                                                                   "tensordot")) else name]


def _inputs(shape1: tuple[int, ...], shape2: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(sum(shape1) * 7 + sum(shape2))
    a = rng.normal(size=shape1).astype(np.float32)
    b = rng.normal(size=shape2).astype(np.float32)
    if len(shape1) >= 2 and shape1[-1] == shape1[-2]:  # well-conditioned for solve
        a = a + 4 * np.eye(shape1[-1], dtype=np.float32)
    return a, b


def _cases(table: dict[str, list[Any]]) -> list[Any]:
    return [pytest.param(name, s1, s2, kw, id=f"{name}-{s1}-{s2}-{kw}".replace(" ", ""))
            for name, rows in table.items() for s1, s2, kw in rows]  # fmt: skip


def _array(ns: ModuleType, a: np.ndarray) -> Any:
    return ns.asarray(a)


@pytest.mark.parametrize(("name", "shape1", "shape2", "kwargs"), _cases(MISFITS))
def test_shapes_that_do_not_fit_raise(xp: ModuleType, name: str, shape1: tuple[int, ...],
                                      shape2: tuple[int, ...], kwargs: dict[str, Any]) -> None:  # fmt: skip
    if name == "@" and ".native." in xp.__name__:
        pytest.skip("a native array's @ is the framework's own operator")
    a, b = _inputs(shape1, shape2)
    x1, x2 = _array(xp, a), _array(xp, b)
    backend = xp.__name__.rpartition(".")[2]
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.") as info:
        result = CALLS[name](xp, x1, x2, **kwargs)
        values(result)  # (a lazy framework raises where it computes)
    assert not isinstance(info.value, (IndexError, TypeError)), info.value
    # the inputs are unchanged
    np.testing.assert_array_equal(values(x1), a)
    np.testing.assert_array_equal(values(x2), b)


@pytest.mark.parametrize(("name", "shape1", "shape2", "kwargs"), _cases(FITS))
def test_shapes_that_fit_give_numpys_answer(xp: ModuleType, name: str, shape1: tuple[int, ...],
                                            shape2: tuple[int, ...],
                                            kwargs: dict[str, Any]) -> None:  # fmt: skip
    if name == "@" and ".native." in xp.__name__:
        pytest.skip("a native array's @ is the framework's own operator")
    a, b = _inputs(shape1, shape2)
    got = values(CALLS[name](xp, _array(xp, a), _array(xp, b), **kwargs))
    want = _numpy(name)(a, b, **kwargs)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
