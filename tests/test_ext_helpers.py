"""The EagerPy helpers (norms, softmax family, onehot_like, crossentropy, topk,
index_update) on every backend and flavour, against NumPy/SciPy references."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import special
from test_extensions import (
    ALL_BACKENDS,
    check_type,
    flavoured,
    jax_x64,  # noqa: F401 (autouse fixture)
    namespaces,
    native,
    to_np,
)

import eagerpy_xp as ep

FLAVOURS = ("native", "wrapped")
M = np.array([[1.0, -2.0, 0.0, 3.5], [1000.0, 999.0, -1000.0, 0.25], [-0.5, 0.0, 0.0, 2.0]])
LABELS = np.array([3, 0, 1])

pytestmark = pytest.mark.parametrize(("backend", "flavour"),
                                     [(b, f) for b in ALL_BACKENDS for f in FLAVOURS])  # fmt: skip


def close(result: Any, expected: Any, backend: str, flavour: str, **kw: Any) -> None:
    check_type(result, backend, flavour)
    np.testing.assert_allclose(to_np(result), expected, rtol=kw.get("rtol", 1e-13),
                               atol=kw.get("atol", 1e-13))  # fmt: skip


def test_softmax_family(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    for axis in (-1, 0, 1):
        close(ep.softmax(x, axis=axis), special.softmax(M, axis=axis), backend, flavour)
        close(ep.log_softmax(x, axis=axis), special.log_softmax(M, axis=axis), backend, flavour)
    close(ep.softmax(x), special.softmax(M, axis=-1), backend, flavour)
    for axis in (None, 0, 1, (0, 1)):
        for keepdims in (False, True):
            expected = special.logsumexp(M, axis=axis, keepdims=keepdims)
            close(ep.logsumexp(x, axis=axis, keepdims=keepdims), expected, backend, flavour)
    assert np.isfinite(to_np(ep.softmax(x))).all()


# NumPy warns on log(0); -inf is the result the standard and SciPy give for all -inf rows
@pytest.mark.filterwarnings("ignore:divide by zero encountered in log:RuntimeWarning")
def test_logsumexp_special_values(backend: str, flavour: str) -> None:
    inf = math.inf
    values = np.array([[-inf, -inf], [inf, 1.0], [-inf, 2.0], [1e308, 1e308]])
    x = flavoured(backend, flavour, values)
    result = to_np(ep.logsumexp(x, axis=1))
    np.testing.assert_allclose(result[:3], [-inf, inf, 2.0])
    assert result[3] == pytest.approx(1e308 + math.log(2.0))
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.{backend}\.softmax:.*floating"):
        ep.softmax(flavoured(backend, flavour, [1, 2], "int32"))
    with pytest.raises(TypeError, match="logsumexp"):
        ep.logsumexp(flavoured(backend, flavour, [1, 2], "int64"))


def test_norms(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    n = ep.norms
    for axis in (None, 0, 1, (0, 1)):
        flat = M.reshape(-1) if axis in (None, (0, 1)) else M
        ax = None if axis in (None, (0, 1)) else axis
        close(n.l0(x, axis=axis), np.count_nonzero(flat, axis=ax), backend, flavour)
        close(n.l1(x, axis=axis), np.sum(np.abs(flat), axis=ax), backend, flavour)
        close(n.l2(x, axis=axis), np.linalg.norm(flat, axis=ax), backend, flavour)
        close(n.linf(x, axis=axis), np.max(np.abs(flat), axis=ax), backend, flavour)
        for p in (3, 0.5):
            expected = np.sum(np.abs(flat) ** p, axis=ax) ** (1 / p)
            close(n.lp(x, p, axis=axis), expected, backend, flavour, rtol=1e-12)
    for p, name in ((0, "l0"), (1, "l1"), (2, "l2"), (math.inf, "linf")):
        close(n.lp(x, p, axis=1), to_np(getattr(n, name)(x, axis=1)), backend, flavour)
    assert n.l2(x, axis=1, keepdims=True).shape == (3, 1)
    assert n.l0(x).dtype == x.dtype  # EagerPy keeps the floating dtype


def test_norms_dtypes_and_errors(backend: str, flavour: str) -> None:
    ints = flavoured(backend, flavour, [[3, -4], [0, 1]], "int32")
    xp = ep.get_namespace(ints)
    assert ep.norms.l1(ints).dtype in (xp.int32, xp.int64)
    assert int(to_np(ep.norms.l1(ints))) == 8 and int(to_np(ep.norms.linf(ints))) == 4
    assert ep.norms.linf(ints).dtype == xp.int32
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.{backend}\.norms\.l2:"):
        ep.norms.l2(ints)
    with pytest.raises(TypeError, match=r"norms\.lp"):
        ep.norms.lp(ints, "two")
    big = flavoured(backend, flavour, [1e200, 1e200])
    assert float(to_np(ep.norms.l2(big))) == pytest.approx(math.sqrt(2) * 1e200)


def test_onehot_like_and_crossentropy(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    labels = flavoured(backend, flavour, LABELS, "int64" if backend != "tensorflow" else "int32")
    expected = np.zeros_like(M)
    expected[np.arange(3), LABELS] = 2.5
    close(ep.onehot_like(x, labels, value=2.5), expected, backend, flavour)
    close(ep.onehot_like(x, labels), expected / 2.5, backend, flavour)
    reference = special.logsumexp(M, axis=1) - M[np.arange(3), LABELS]
    close(ep.crossentropy(x, labels), reference, backend, flavour)
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.onehot_like:.*2-D"):
        ep.onehot_like(flavoured(backend, flavour, [1.0]), labels)
    with pytest.raises(ValueError, match="length 3"):
        ep.crossentropy(x, flavoured(backend, flavour, [0, 1], "int32"))
    with pytest.raises(ValueError, match="integer"):
        ep.crossentropy(x, flavoured(backend, flavour, [0.0, 1.0, 2.0]))


def test_topk(backend: str, flavour: str) -> None:
    values = np.array([[1.0, 3.0, 3.0, -1.0, 2.0], [0.0, 0.0, 0.0, 5.0, 0.0]])
    x = flavoured(backend, flavour, values)
    top, indices = ep.topk(x, 3)
    check_type(top, backend, flavour)
    check_type(indices, backend, flavour)
    assert to_np(indices).tolist() == [[1, 2, 4], [3, 0, 1]]  # ties: lower index first
    np.testing.assert_array_equal(to_np(top), [[3.0, 3.0, 2.0], [5.0, 0.0, 0.0]])
    assert to_np(ep.topk(x, 0)[0]).shape == (2, 0)
    assert to_np(ep.topk(x, 5, sorted=False)[1]).shape == (2, 5)
    ints = flavoured(backend, flavour, [4, 9, 1], "int32")
    assert to_np(ep.topk(ints, 1)[0]).tolist() == [9]
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.topk:.*k must be"):
        ep.topk(x, 6)
    with pytest.raises(ValueError, match="k must be"):
        ep.topk(x, -1)


def test_index_update(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    before = to_np(x).copy()
    expected = M.copy()
    expected[1, 2] = 7.0
    close(ep.index_update(x, (1, 2), 7.0), expected, backend, flavour)
    expected = M.copy()
    expected[:, 0] = -1.0
    close(ep.index_update(x, (slice(None), 0), -1.0), expected, backend, flavour)
    row = flavoured(backend, flavour, [9.0, 8.0, 7.0, 6.0])
    expected = M.copy()
    expected[2] = [9.0, 8.0, 7.0, 6.0]
    close(ep.index_update(x, 2, row), expected, backend, flavour)
    np.testing.assert_array_equal(to_np(x), before)  # functional: x unchanged


def test_backends_agree(backend: str, flavour: str) -> None:
    """Every helper gives the same numbers as on NumPy (native), bit for bit or nearly."""
    namespaces(backend)
    x = flavoured(backend, flavour, M)
    reference = native("numpy", M)
    for fn in (ep.softmax, ep.log_softmax, ep.logsumexp, ep.norms.l1, ep.norms.l2):
        np.testing.assert_allclose(to_np(fn(x)), fn(reference), rtol=1e-14, atol=1e-14)


def test_pad(backend: str, flavour: str) -> None:
    values = np.arange(12.0).reshape(3, 4)
    x = flavoured(backend, flavour, values)
    paddings = ((1, 2), (2, 1))
    close(ep.pad(x, paddings, value=-1.0),
          np.pad(values, paddings, constant_values=-1.0), backend, flavour)  # fmt: skip
    close(ep.pad(x, paddings, mode="reflect"), np.pad(values, paddings, mode="reflect"),
          backend, flavour)  # fmt: skip
    close(ep.pad(x, ((0, 0), (0, 0))), values, backend, flavour)
    with pytest.raises(ValueError, match=rf"eagerpy_xp\.{backend}\.pad:.*per axis"):
        ep.pad(x, ((1, 1),))
    with pytest.raises(ValueError, match="reflect padding of 3"):
        ep.pad(x, ((3, 0), (0, 0)), mode="reflect")
    with pytest.raises(ValueError, match="mode"):
        ep.pad(x, paddings, mode="wrap")


def test_kl_div_and_random(backend: str, flavour: str) -> None:
    x = flavoured(backend, flavour, M)
    q = flavoured(backend, flavour, M[::-1].copy())
    p_np, q_np = special.softmax(M, axis=-1), special.softmax(M[::-1], axis=-1)
    expected = np.sum(special.rel_entr(p_np, q_np), axis=-1)
    close(ep.kl_div_with_logits(x, q), expected, backend, flavour, rtol=1e-10, atol=1e-12)
    u = ep.uniform(x, (2, 3), low=-1.0, high=1.0, rng=np.random.default_rng(7))
    close(u, np.random.default_rng(7).uniform(-1.0, 1.0, (2, 3)), backend, flavour)
    normal = ep.normal(x, 4, mean=2.0, stddev=0.5, rng=np.random.default_rng(1))
    close(normal, np.random.default_rng(1).normal(2.0, 0.5, 4), backend, flavour)
    assert ep.uniform(x, 3).dtype == x.dtype
    with pytest.raises(TypeError, match=rf"eagerpy_xp\.{backend}\.uniform:"):
        ep.uniform(flavoured(backend, flavour, [1], "int32"), 2)
