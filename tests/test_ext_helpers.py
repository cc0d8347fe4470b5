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


#: `pad`'s width forms, NumPy's broadcasting of ``pad_width`` (for a 2-D array)
PAD_WIDTHS: list[Any] = [0, 2, (1, 2), [3], ((1, 2),), ((1,), (2,)), ((0, 3), (2, 1)),
                         [[4, 0], [0, 9]], ((0, 0), (0, 0)), np.int64(1)]  # fmt: skip


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad_matches_numpy(backend: str, flavour: str, mode: str) -> None:
    """Every width form and mode gives `numpy.pad`'s values (issue 23, item 2), widths
    larger than the axis included (NumPy mirrors and wraps again)."""
    for shape in ((3, 4), (1, 5), (2, 1)):
        values = np.arange(math.prod(shape), dtype=float).reshape(shape) - 3.5
        x = flavoured(backend, flavour, values)
        for width in PAD_WIDTHS:
            close(ep.pad(x, width, mode=mode), np.pad(values, width, mode=mode), backend, flavour)
            close(ep.pad(x, width, mode), np.pad(values, width, mode=mode), backend, flavour)
    v = np.arange(5.0)
    one = flavoured(backend, flavour, v)
    close(ep.pad(one, (7, 11), mode=mode), np.pad(v, (7, 11), mode=mode), backend, flavour)
    zero_d = flavoured(backend, flavour, np.array(2.5))
    close(ep.pad(zero_d, 3, mode=mode), np.pad(np.array(2.5), 3, mode=mode), backend, flavour)


def test_pad_constant_values_and_dtypes(backend: str, flavour: str) -> None:
    values = np.arange(6.0).reshape(2, 3)
    x = flavoured(backend, flavour, values)
    widths = ((1, 2), (2, 1))
    for fill in (-1.5, np.float64(np.nan), ((5, 6),), ((5, 6), (7, 8)), ((5,), (7,)), (9, 8)):
        expected = np.pad(values, widths, constant_values=fill)
        close(ep.pad(x, widths, constant_values=fill), expected, backend, flavour)
    close(ep.pad(x, widths, value=-1.0), np.pad(values, widths, constant_values=-1.0),
          backend, flavour)  # fmt: skip
    ints = flavoured(backend, flavour, np.array([[1, -2], [3, 4]]), "int8")
    padded = ep.pad(ints, 1, mode="reflect")
    check_type(padded, backend, flavour)
    assert str(to_np(padded).dtype) == "int8"
    np.testing.assert_array_equal(to_np(padded), np.pad(np.array([[1, -2], [3, 4]]), 1, "reflect"))
    empty = flavoured(backend, flavour, np.zeros((0, 3)))
    close(ep.pad(empty, ((1, 1), (0, 0)), constant_values=4.0),
          np.pad(np.zeros((0, 3)), ((1, 1), (0, 0)), constant_values=4.0), backend, flavour)  # fmt: skip
    close(ep.pad(empty, ((0, 0), (1, 1)), mode="edge"),
          np.pad(np.zeros((0, 3)), ((0, 0), (1, 1)), mode="edge"), backend, flavour)  # fmt: skip


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"paddings": 1.5}, TypeError, "paddings must hold ints, got 1.5"),
    ({"paddings": ((1, 2), (0, "a"))}, TypeError, "paddings must hold ints, got 'a'"),
    ({"paddings": True}, TypeError, "paddings must hold ints, got True"),
    ({"paddings": None}, TypeError, "paddings must hold ints, got None"),
    ({"paddings": -1}, ValueError, "paddings must be non-negative, got -1"),
    ({"paddings": ((1, 2), (3, -4))}, ValueError, "non-negative, got -4"),
    ({"paddings": (1, 2, 3)}, ValueError, r"one per axis \(2\), got \(1, 2, 3\)"),
    ({"paddings": ((1, 2),) * 3}, ValueError, "one per axis"),
    ({"paddings": ((1, 2, 3), (1, 2, 3))}, ValueError, "one per axis"),
    ({"paddings": 1, "mode": "bogus"}, ValueError, "unknown mode 'bogus'"),
    ({"paddings": 1, "mode": "mean"}, NotImplementedError, "mode 'mean' of numpy.pad"),
    ({"paddings": 1, "mode": "linear_ramp", "end_values": 3}, NotImplementedError, "linear_ramp"),
    ({"paddings": 1, "mode": "edge", "constant_values": 3}, ValueError, "for mode 'constant'"),
    ({"paddings": 1, "mode": "edge", "stat_length": 3}, ValueError, "stat_length is not"),
    ({"paddings": 1, "mode": "reflect", "reflect_type": "odd"}, NotImplementedError, "odd"),
    ({"paddings": 1, "bogus": 3}, TypeError, "unexpected keyword argument 'bogus'"),
    ({"paddings": 1, "constant_values": "a"}, TypeError, "constant_values must be a Python"),
    ({"paddings": 1, "constant_values": ((1, 2, 3),)}, ValueError, "constant_values must be one"),
    ({"paddings": 1, "value": 2.0, "constant_values": 3.0}, TypeError, "give the fill value once"),
])  # fmt: skip
def test_pad_refuses_bad_arguments(backend: str, flavour: str, kwargs: dict[str, Any],
                                   error: type[Exception], match: str) -> None:  # fmt: skip
    values = np.arange(6.0).reshape(2, 3)
    x = flavoured(backend, flavour, values)
    with pytest.raises(error, match=rf"^eagerpy_xp\.{backend}\.pad: .*{match}"):
        ep.pad(x, **kwargs)
    np.testing.assert_array_equal(to_np(x), values)  # unchanged
    for width in (1, 0):
        with pytest.raises(ValueError, match=r"mode 'wrap' cannot widen axis 0 of size 0"):
            ep.pad(flavoured(backend, flavour, np.zeros((0, 2))), (1, width), mode="wrap")


def test_sliding_window_view_matches_numpy(backend: str, flavour: str) -> None:
    """``xp.lib.stride_tricks.sliding_window_view``, where xarray's ``rolling`` finds it."""
    from numpy.lib.stride_tricks import sliding_window_view as reference

    values = np.arange(24.0).reshape(2, 3, 4)
    x = flavoured(backend, flavour, values)
    xp = namespaces(backend)[flavour == "wrapped"]
    view = xp.lib.stride_tricks.sliding_window_view
    for window, axis in [(2, -1), (3, 1), ((2, 2), (1, 2)), ((1, 3, 2), None), (4, 2), (0, 0),
                         ((2, 2), (2, 2)), ((2,), (0,)), (1, (2,))]:  # fmt: skip
        expected = reference(values, window, axis=axis)
        close(view(x, window, axis=axis), expected, backend, flavour)
        close(ep.extensions.sliding_window_view(x, window, axis), expected, backend, flavour)
    for window, axis, error, match in [
        (5, -1, ValueError, "window 5 does not fit axis 2 of size 4"),
        (-1, 0, ValueError, "window -1 does not fit"),
        (2, 3, ValueError, "axis 3 is out of range for a 3-d array"),
        ((2, 2), 0, ValueError, "2 window sizes for 1 axes"),
        (2, None, ValueError, "1 window sizes for 3 axes"),
        (2.5, 0, TypeError, "window_shape must hold ints, got 2.5"),
        (2, 0.5, TypeError, "axis must hold ints, got 0.5"),
    ]:  # fmt: skip
        with pytest.raises(error, match=rf"^eagerpy_xp\.{backend}\.sliding_window_view: {match}"):
            view(x, window, axis=axis)


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
