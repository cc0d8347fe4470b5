"""``einsum`` (an extension written once over the standard) and ``eagerpy_xp.interop`` (the
functions libraries find by module name) on every backend and flavour, against NumPy.

Issue 23, item 1: autoray found no function for an `Array` and opt_einsum computed in
NumPy; both look functions up by module name (``eagerpy_xp``).  The integration with the
libraries themselves is in ``tests/integration/test_dispatch_by_name.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_extensions import (
    ALL_BACKENDS,
    check_type,
    flavoured,
    jax_x64,  # noqa: F401 (autouse fixture)
    namespaces,
    to_np,
)

import eagerpy_xp as ep
from eagerpy_xp import interop

FLAVOURS = ("native", "wrapped")

pytestmark = pytest.mark.parametrize(("backend", "flavour"),
                                     [(b, f) for b in ALL_BACKENDS for f in FLAVOURS])  # fmt: skip

#: (subscripts, operand shapes): every feature of NumPy's string form
CASES: list[tuple[str, tuple[tuple[int, ...], ...]]] = [
    ("ij,jk->ik", ((2, 3), (3, 4))),
    ("ij,jk", ((2, 3), (3, 4))),  # implicit output
    ("ij,kj->ik", ((2, 3), (4, 3))),
    ("ba", ((2, 3),)),  # implicit output sorts: a transpose
    ("Ba", ((2, 3),)),  # upper case sorts first (ASCII), as NumPy
    ("ij->ji", ((2, 3),)),
    ("ij->", ((2, 3),)),
    ("ii->i", ((3, 3),)),  # diagonal
    ("ii", ((3, 3),)),  # trace
    ("iij->ji", ((2, 2, 3),)),
    ("iji->j", ((2, 3, 2),)),
    ("i,i->", ((4,), (4,))),
    ("i,j->ij", ((3,), (2,))),
    ("i,j", ((3,), (2,))),
    ("bij,bjk->bik", ((4, 2, 3), (4, 3, 5))),
    ("bij,jk->bik", ((4, 2, 3), (3, 5))),
    ("...ij,...jk->...ik", ((2, 1, 2, 3), (5, 3, 4))),  # ellipsis broadcasting
    ("...i,...i", ((2, 1, 3), (5, 3))),
    ("i...->...", ((2, 3),)),
    ("...,...", ((2, 3), (3,))),
    ("ij,j->ij", ((2, 1), (3,))),  # a label of size 1 broadcasts, as NumPy
    ("i,i", ((1,), (3,))),
    ("ij,ij->ij", ((2, 3), (2, 3))),
    ("abc,cd,db->a", ((2, 3, 4), (4, 5), (5, 3))),
    ("i,i,i->i", ((3,), (3,), (3,))),
    ("ij,jk,kl,lm->im", ((2, 3), (3, 4), (4, 2), (2, 5))),
    ("i->", ((0,),)),  # zero-size
    ("ij,jk->ik", ((2, 0), (0, 3))),
    ("ij,jk->ik", ((0, 2), (2, 3))),
    ("", ((),)),  # 0-d
    (",->", ((), ())),
    (",i->i", ((), (3,))),
    ("i j , j k -> i k", ((2, 3), (3, 2))),  # spaces are ignored, as NumPy
]


def _values(shapes: tuple[tuple[int, ...], ...], seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize(("subscripts", "shapes"), CASES, ids=[c[0] or "0-d" for c in CASES])
def test_einsum_matches_numpy(backend: str, flavour: str, subscripts: str,
                              shapes: tuple[tuple[int, ...], ...]) -> None:  # fmt: skip
    values = _values(shapes)
    expected = np.einsum(subscripts, *values)
    native_xp, wrapped_xp = namespaces(backend)
    xp = wrapped_xp if flavour == "wrapped" else native_xp
    operands = [flavoured(backend, flavour, v) for v in values]
    for einsum in (ep.einsum, xp.einsum, interop.einsum):
        result = einsum(subscripts, *operands)
        check_type(result, backend, flavour)
        got = to_np(result)
        assert got.shape == expected.shape, (subscripts, got.shape)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=subscripts)


def test_einsum_dtypes(backend: str, flavour: str) -> None:
    a = np.array([[100, 27], [-3, 5]], dtype=np.int8)
    x = flavoured(backend, flavour, a, "int8")
    for subscripts in ("ij->", "ij,jk->ik", "ii"):
        operands = (x,) * subscripts.split("->")[0].count(",") + (x,)
        result = ep.einsum(subscripts, *operands)
        expected = np.einsum(subscripts, *(a,) * len(operands))
        assert str(to_np(result).dtype) == "int8"  # the operands' dtype, as NumPy (wraps)
        np.testing.assert_array_equal(to_np(result), expected)
    c = np.array([[1 + 2j, -1j], [3.0, 0.5 - 1j]])
    z = flavoured(backend, flavour, c, "complex128")
    np.testing.assert_allclose(to_np(ep.einsum("ij,jk", z, z)), c @ c, rtol=1e-12)
    np.testing.assert_allclose(to_np(ep.einsum("ij->j", z)), c.sum(0), rtol=1e-12)


@pytest.mark.parametrize(("subscripts", "shapes", "match"), [
    ("ij,jk", ((2, 3), (4, 4)), "label 'j' has sizes 3 and 4"),
    ("i,i", ((2,), (3,)), "label 'i' has sizes 2 and 3"),
    ("ij->k", ((2, 3),), "output names 'k', which no operand has"),
    ("i->ii", ((2,),), "output names 'i' more than once"),
    ("ij", ((3,),), "name 2 axes for an array of 1"),
    ("i", ((2, 3),), "name 1 axes for an array of 2"),
    ("...ij", ((3,),), "name 2 axes for an array of 1"),
    ("i.", ((2,),), "'.' that is not part of '...'"),
    ("i1", ((2, 3),), "the character '1'"),
    ("......", ((2,),), "'...' more than once"),
    ("...i->i", ((2, 3),), "output 'i' does not name '...'"),
    ("ii->i", ((1, 3),), "repeats on one operand with sizes 1 and 3"),
    ("i,i", ((2,),), "name 2 operands, got 1"),
    ("i", ((2,), (2,)), "name 1 operands, got 2"),
    ("i->i->i", ((2,),), "one '->' at most"),
])  # fmt: skip
def test_einsum_refuses_bad_subscripts(backend: str, flavour: str, subscripts: str,
                                       shapes: tuple[tuple[int, ...], ...], match: str) -> None:  # fmt: skip
    operands = [flavoured(backend, flavour, v) for v in _values(shapes)]
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.einsum: .*{match}"):
        ep.einsum(subscripts, *operands)


def test_einsum_refuses_bad_operands(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, np.ones((2, 2)))
    flag = flavoured(backend, flavour, np.ones((2, 2)), "bool")
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.einsum: .*numeric dtype, got bool"):
        ep.einsum("ij,jk", x, flag)
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.einsum: .*sublist"):
        ep.einsum(x, [0, 1])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.einsum: operands must be arrays"):
        ep.einsum("ij,jk", x, [[1.0, 2.0], [3.0, 4.0]])
    other = "torch" if backend != "torch" else "numpy"
    with pytest.raises(TypeError, match="several libraries"):
        ep.einsum("ij,jk", x, ep.astensor(flavoured(other, "native", np.ones((2, 2)))))
    with pytest.raises(TypeError, match="at least one operand"):
        ep.einsum("ij")


# -- eagerpy_xp.interop: the functions autoray finds ----------------------------------------
M = np.array([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0], [1.0, 1.0, 5.0]])


def test_interop_standard_functions_dispatch_by_their_arrays(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    y = flavoured(backend, flavour, M[::-1].copy())
    for name, call, expected in [
        ("sum", lambda: interop.sum(x, axis=0), M.sum(0)),
        ("where", lambda: interop.where(x > 0, x, y), np.where(M > 0, M, M[::-1])),
        ("concat", lambda: interop.concat([x, y], axis=1), np.concatenate([M, M[::-1]], 1)),
        ("linalg.inv", lambda: interop.linalg.inv(x), np.linalg.inv(M)),
        ("linalg.solve", lambda: interop.linalg.solve(x, y), np.linalg.solve(M, M[::-1])),
        ("fft.rfft", lambda: interop.fft.rfft(x), np.fft.rfft(M)),
        ("absolute", lambda: interop.absolute(x), np.abs(M)),
        ("arctan2", lambda: interop.arctan2(x, y), np.arctan2(M, M[::-1])),
        ("power", lambda: interop.power(x, 2), M**2),
        ("concatenate", lambda: interop.concatenate((x, y), 1), np.concatenate([M, M[::-1]], 1)),
        ("transpose", lambda: interop.transpose(x), M.T),
        ("transpose axes", lambda: interop.transpose(x, (1, 0)), M.T),
        ("swapaxes", lambda: interop.swapaxes(x, 0, 1), M.T),
        ("trace", lambda: interop.trace(x), np.trace(M)),
        ("trace offset", lambda: interop.trace(x, 1), np.trace(M, 1)),
        ("tensordot", lambda: interop.tensordot(x, y, 1), np.tensordot(M, M[::-1], 1)),
        ("eagerpy_xp.tensordot", lambda: ep.tensordot(x, y, axes=([1], [0])),
         np.tensordot(M, M[::-1], ([1], [0]))),
        ("astype", lambda: interop.astype(x, "float32"), M.astype(np.float32)),
        ("conjugate", lambda: interop.conjugate(x), M),
    ]:  # fmt: skip
        result = call()
        check_type(result, backend, flavour)
        np.testing.assert_allclose(to_np(result), expected, rtol=1e-6, atol=1e-12, err_msg=name)
    assert str(to_np(interop.astype(x, "float32")).dtype) == "float32"


@pytest.mark.parametrize(("ord_", "axis", "keepdims"), [
    (None, None, False), (None, None, True), (None, 0, False), (None, 1, True), (1, 0, False),
    (np.inf, 1, False), (None, (0, 1), False), (None, (1, 0), True), ("fro", None, False),
    ("nuc", None, False), (1, None, False), (-np.inf, (0, 1), True), (2, None, False),
])  # fmt: skip
def test_interop_linalg_norm_is_numpys(backend: str, flavour: str, ord_: Any, axis: Any,
                                       keepdims: bool) -> None:  # fmt: skip
    x = flavoured(backend, flavour, M)
    result = interop.linalg.norm(x, ord=ord_, axis=axis, keepdims=keepdims)
    check_type(result, backend, flavour)
    expected = np.linalg.norm(M, ord=ord_, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(to_np(result), expected, rtol=1e-10)


def test_interop_refuses_what_it_cannot_dispatch(backend: str, flavour: str) -> None:
    with pytest.raises(TypeError, match=r"interop\.zeros: no array among the arguments"):
        interop.zeros((2, 3))
    with pytest.raises(AttributeError, match="no attribute 'no_such_function'"):
        interop.no_such_function  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'norms'"):
        interop.linalg.norms  # noqa: B018
    x = flavoured(backend, flavour, np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.linalg\.norm: ord=1 needs axis"):
        interop.linalg.norm(x, ord=1)
