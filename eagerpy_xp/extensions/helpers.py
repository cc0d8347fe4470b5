"""EagerPy's helpers, written once over the standard namespace.

Every helper is `portable`: it runs on `Array`s (so on any backend, with the standard's
semantics) and returns results in the caller's type.  ``norms`` is a small namespace
object: ``norms.l2(x, axis=1)``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from .._array import Array, as_array
from .boundary import portable

__all__ = [
    "crossentropy", "index_update", "kl_div_with_logits", "log_softmax", "logsumexp",
    "normal", "norms", "onehot_like", "pad", "sliding_window_view", "softmax", "topk", "uniform",
]  # fmt: skip

Axis = int | tuple[int, ...] | None


def _check(function: str, x: Any, kinds: str | tuple[str, ...], what: str) -> ModuleType:
    """The namespace of `Array` ``x``; `TypeError` unless its dtype is of ``kinds``."""
    if type(x) is not Array:
        raise TypeError(f"{function}: expected an array, got {type(x)!r}")
    xp = x.__array_namespace__()
    if not xp.isdtype(x.dtype, kinds):
        raise TypeError(
            f"eagerpy_xp.{x.backend}.{function}: expected an array with {what} dtype, got {x.dtype}"
        )
    return xp


def _max_shifted(xp: ModuleType, x: Array, axis: Axis) -> Array:
    """The maximum over ``axis`` (kept), with non-finite maxima replaced by 0."""
    m = xp.max(x, axis=axis, keepdims=True)
    return xp.where(xp.isfinite(m), m, xp.zeros_like(m))


@portable
def logsumexp(x: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """``log(sum(exp(x)))`` over ``axis``, stable for large inputs (shifted by the max)."""
    xp = _check("logsumexp", x, "real floating", "a real floating-point")
    m = _max_shifted(xp, x, axis)
    total = xp.log(xp.sum(xp.exp(x - m), axis=axis, keepdims=keepdims))
    return total + (m if keepdims else xp.reshape(m, total.shape))


@portable
def softmax(x: Any, axis: int = -1) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``, stable for large inputs."""
    xp = _check("softmax", x, "real floating", "a real floating-point")
    e = xp.exp(x - _max_shifted(xp, x, axis))
    return e / xp.sum(e, axis=axis, keepdims=True)


@portable
def log_softmax(x: Any, axis: int = -1) -> Any:
    """``log(softmax(x))`` along ``axis``, computed as ``x - logsumexp(x)``."""
    _check("log_softmax", x, "real floating", "a real floating-point")
    return x - logsumexp(x, axis=axis, keepdims=True)


def _check_rows(function: str, x: Array, indices: Any, name: str) -> ModuleType:
    """Checks shared by `onehot_like` and `crossentropy`: 2-D ``x``, 1-D integer indices."""
    xp = x.__array_namespace__()
    if x.ndim != 2:
        raise ValueError(f"eagerpy_xp.{x.backend}.{function}: expected a 2-D array, got shape {x.shape}")
    if type(indices) is not Array or indices.backend != x.backend:
        raise TypeError(f"eagerpy_xp.{x.backend}.{function}: {name} must be a {x.backend} array, "
                        f"got {type(indices)!r}")  # fmt: skip
    if not xp.isdtype(indices.dtype, "integral") or indices.shape != x.shape[:1]:
        raise ValueError(
            f"eagerpy_xp.{x.backend}.{function}: {name} must be a 1-D integer array of length "
            f"{x.shape[0]}, got dtype {indices.dtype} and shape {indices.shape}"
        )
    return xp


@portable
def onehot_like(x: Any, indices: Any, *, value: Any = 1) -> Any:
    """An array like 2-D ``x`` that is ``value`` at ``[i, indices[i]]`` and 0 elsewhere."""
    xp = _check_rows("onehot_like", x, indices, "indices")
    columns = xp.arange(x.shape[1], dtype=indices.dtype, device=x.device)
    with _index_errors("onehot_like", x.backend):  # out of range: IndexError, not a zero row
        picked = xp.take(columns, indices)  # negative indices count from the end
    hit = xp.expand_dims(picked, axis=1) == columns
    return xp.where(hit, xp.full_like(x, value), xp.zeros_like(x))


@portable
def crossentropy(logits: Any, labels: Any) -> Any:
    """The per-row cross-entropy ``logsumexp(logits[i]) - logits[i, labels[i]]``."""
    _check("crossentropy", logits, "real floating", "a real floating-point")
    xp = _check_rows("crossentropy", logits, labels, "labels")
    with _index_errors("crossentropy", logits.backend):
        picked = xp.take_along_axis(logits, xp.expand_dims(labels, axis=1), axis=1)[:, 0]
    return logsumexp(logits, axis=1) - picked


@contextlib.contextmanager
def _index_errors(function: str, backend: str) -> Iterator[None]:
    """An `IndexError` of the backend's ``take`` (concrete indices out of range: every
    backend checks them) raised again naming the extension ``function``."""
    try:
        yield
    except IndexError as exc:
        what = str(exc).partition(": ")[2] or str(exc)
        raise IndexError(f"eagerpy_xp.{backend}.{function}: {what}") from exc


@portable
def topk(x: Any, k: int, sorted: bool = True) -> tuple[Any, Any]:
    """``(values, indices)`` of the ``k`` largest entries along the last axis.

    Always sorted in descending order (``sorted=False`` allows any order); ties keep
    the lower index first, on every backend.
    """
    xp = _check("topk", x, ("real floating", "integral", "bool"), "a real")
    size = x.shape[-1] if x.ndim else None
    if type(k) is not int or size is None or not 0 <= k <= size:
        raise ValueError(
            f"eagerpy_xp.{x.backend}.topk: k must be an int in [0, {size}] for an array of shape "
            f"{x.shape}, got {k!r}"
        )
    # bool sorts as 0 and 1 (the standard's argsort takes real numeric arrays only)
    keys = xp.astype(x, xp.uint8) if x.dtype == xp.bool else x
    indices = xp.argsort(keys, axis=-1, descending=True, stable=True)[..., :k]
    return xp.take_along_axis(x, indices, axis=-1), indices


@portable
def index_update(x: Any, indices: Any, values: Any) -> Any:
    """A copy of ``x`` with ``x[indices] = values``; ``x`` itself is left unchanged."""
    if type(x) is not Array:
        raise TypeError(f"index_update: expected an array, got {type(x)!r}")
    xp = x.__array_namespace__()
    # immutable frameworks: a second wrapper of the same value (writes rebind only it)
    result = xp.asarray(x, copy=True) if x._b.mutable else as_array(x._b, x._raw)
    result[indices] = values
    return result


@portable
def kl_div_with_logits(logits_p: Any, logits_q: Any, axis: int = -1,
                       keepdims: bool = False) -> Any:  # fmt: skip
    """``KL(softmax(p) || softmax(q))`` along ``axis`` (EagerPy took ``softmax(p)`` along
    the last axis whatever ``axis`` was)."""
    _check("kl_div_with_logits", logits_p, "real floating", "a real floating-point")
    xp = logits_p.__array_namespace__()
    log_p = log_softmax(logits_p, axis=axis)
    log_q = log_softmax(logits_q, axis=axis)
    return xp.sum(xp.exp(log_p) * (log_p - log_q), axis=axis, keepdims=keepdims)


#: What `pad` does with each mode; NumPy's other modes are not implemented.
PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")
_NUMPY_ONLY_MODES = ("empty", "linear_ramp", "maximum", "mean", "median", "minimum")


@portable
def pad(x: Any, paddings: Any, mode: str = "constant", value: Any = 0, *,
        constant_values: Any = None, **options: Any) -> Any:  # fmt: skip
    """``x`` padded by ``paddings``: EagerPy's form and `numpy.pad`'s, in one function.

    ``paddings`` (NumPy's ``pad_width``) is one int for every side, a ``(before, after)``
    pair for every axis, or one pair (or one int) per axis, broadcast as NumPy does.
    ``mode``: ``"constant"`` fills with ``value`` (EagerPy's name) or ``constant_values``
    (NumPy's: a scalar, a pair, or per-axis pairs); ``"edge"`` repeats the edge,
    ``"reflect"`` mirrors without repeating it, ``"symmetric"`` mirrors with it, ``"wrap"``
    repeats the array: any width, on every axis and backend, with `numpy.pad`'s values.
    ``options`` are `numpy.pad`'s keywords for other modes (``stat_length``,
    ``end_values``, ``reflect_type``), taken so that a call made for NumPy gets an answer
    that says what is not implemented (``reflect_type="even"``, NumPy's default, works).
    Errors: a width that is not an int -> `TypeError`; a negative width, a width that does
    not broadcast to ``(x.ndim, 2)``, an unknown mode, ``constant_values`` with another
    mode, or a mode other than ``"constant"`` widening an empty axis -> `ValueError`; the
    modes of `numpy.pad` not implemented here -> `NotImplementedError`.
    """
    if type(x) is not Array:
        raise TypeError(f"pad: expected an array, got {type(x)!r}")
    xp = x.__array_namespace__()
    fail = f"eagerpy_xp.{x.backend}.pad"
    if mode not in PAD_MODES:
        if mode in _NUMPY_ONLY_MODES:
            raise NotImplementedError(f"{fail}: mode {mode!r} of numpy.pad is not implemented; "
                                      f"supported: {', '.join(PAD_MODES)}")  # fmt: skip
        raise ValueError(f"{fail}: unknown mode {mode!r}; supported: {', '.join(PAD_MODES)}")
    _check_pad_options(fail, mode, options)
    widths = _pairs(fail, "paddings", paddings, x.ndim, _width)
    if constant_values is not None:
        if mode != "constant":
            raise ValueError(f"{fail}: constant_values is for mode 'constant', not {mode!r}")
        if value != 0:
            raise TypeError(f"{fail}: give the fill value once (value or constant_values)")
        fills = _pairs(fail, "constant_values", constant_values, x.ndim, _fill)
    else:
        fills = ((_fill(fail, "value", value),) * 2,) * x.ndim
    for axis, ((before, after), (first, last)) in enumerate(zip(widths, fills, strict=True)):
        if before == after == 0:
            continue
        size = x.shape[axis]
        if mode == "constant":
            x = xp.concat((_filled(xp, x, axis, before, first), x,
                           _filled(xp, x, axis, after, last)), axis=axis)  # fmt: skip
            continue
        if size == 0 or size is None:
            raise ValueError(f"{fail}: mode {mode!r} cannot widen axis {axis} of size {size}; "
                             "only mode 'constant' can")  # fmt: skip
        source = [_pad_source(mode, i - before, size) for i in range(before + size + after)]
        x = xp.take(x, _indices(xp, x, source), axis=axis)
    return x


def _check_pad_options(fail: str, mode: str, options: dict[str, Any]) -> None:
    """`numpy.pad`'s mode keywords: ``reflect_type="even"`` for the mirroring modes (what
    they do); the rest are for modes not implemented here."""
    for key, given in options.items():
        if key not in ("stat_length", "end_values", "reflect_type"):
            raise TypeError(f"{fail}: unexpected keyword argument {key!r}")
        if given is None:  # xarray passes the keywords it was not given as None
            continue
        if key != "reflect_type" or mode not in ("reflect", "symmetric"):
            raise ValueError(f"{fail}: {key} is not a keyword of mode {mode!r}")
        if given != "even":
            raise NotImplementedError(f"{fail}: reflect_type={given!r} is not implemented; "
                                      "'even' (numpy.pad's default) is")  # fmt: skip


def _indices(xp: ModuleType, x: Array, source: list[int]) -> Array:
    """``source`` as an index array (the default integer dtype, even when empty)."""
    dtype = xp.__array_namespace_info__().default_dtypes(device=x.device)["integral"]
    return xp.asarray(source, dtype=dtype, device=x.device)


def _pad_source(mode: str, i: int, n: int) -> int:
    """The index of ``x`` along an axis of size ``n`` that padded position ``i`` (counted
    from the first original entry) copies."""
    if mode == "edge":
        return min(max(i, 0), n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":
        j = i % (2 * n)
        return j if j < n else 2 * n - 1 - j
    if n == 1:  # reflect: a single entry mirrors onto itself
        return 0
    j = i % (2 * n - 2)
    return j if j < n else 2 * n - 2 - j


def _width(function: str, name: str, n: Any) -> int:
    if type(n) is Array and n.ndim == 0 and n.__array_namespace__().isdtype(n.dtype, "integral"):
        n = int(n)  # a NumPy integer or 0-d integer array, as numpy.pad takes
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{function}: {name} must hold ints, got {n!r}")
    if n < 0:
        raise ValueError(f"{function}: {name} must be non-negative, got {n}")
    return n


def _fill(function: str, name: str, v: Any) -> Any:
    if type(v) is Array and v.ndim == 0:
        return v.item()  # a NumPy scalar or a 0-d array (xarray passes numpy.float64(nan))
    if isinstance(v, (bool, int, float, complex)):
        return v
    raise TypeError(f"{function}: {name} must be a Python scalar or pairs of them, got {v!r}")


def _pairs(function: str, name: str, given: Any, ndim: int,
           check: Any) -> tuple[tuple[Any, Any], ...]:  # fmt: skip
    """``given`` broadcast to one ``(before, after)`` pair per axis, as `numpy.pad` does:
    a scalar, ``(v,)``, ``(b, a)``, ``((b, a),)``, or ``ndim`` of ``(v,)`` or ``(b, a)``."""
    rows = given if isinstance(given, (tuple, list)) else (given,)
    if rows and all(not isinstance(r, (tuple, list)) for r in rows):
        rows = (tuple(rows),)  # one row for every axis
    rows = [tuple(r) if isinstance(r, (tuple, list)) else (r,) for r in rows]
    if len(rows) not in (1, ndim) or any(len(r) not in (1, 2) for r in rows):
        raise ValueError(f"{function}: {name} must be one value, one (before, after) pair, or "
                         f"one per axis ({ndim}), got {given!r}")  # fmt: skip
    pairs = [tuple(check(function, name, v) for v in (r * 2 if len(r) == 1 else r)) for r in rows]
    return tuple((p[0], p[1]) for p in (pairs * ndim if len(pairs) == 1 else pairs))


def _filled(xp: ModuleType, x: Array, axis: int, n: int, value: Any) -> Array:
    """``n`` entries of ``value`` along ``axis``, the other axes as ``x``'s."""
    shape = (*x.shape[:axis], n, *x.shape[axis + 1 :])
    return xp.full(shape, value, dtype=x.dtype, device=x.device)


@portable
def sliding_window_view(x: Any, window_shape: int | tuple[int, ...],
                        axis: int | tuple[int, ...] | None = None) -> Any:  # fmt: skip
    """NumPy's ``lib.stride_tricks.sliding_window_view``: every window of ``window_shape``
    over ``axis`` (all axes for ``None``), the window axes appended at the end.

    A copy (``take``), not a view: the standard has no strided views.  xarray's
    ``rolling`` calls it as ``xp.lib.stride_tricks.sliding_window_view``.  Errors: a
    window that is not an int or an axis that is not one -> `TypeError`; a negative
    window, one larger than its axis, a window count that does not match the axes, an axis
    out of range -> `ValueError`.
    """
    if type(x) is not Array:
        raise TypeError(f"sliding_window_view: expected an array, got {type(x)!r}")
    xp = x.__array_namespace__()
    fail = f"eagerpy_xp.{x.backend}.sliding_window_view"
    windows = (window_shape,) if not isinstance(window_shape, (tuple, list)) else tuple(window_shape)
    axes = tuple(range(x.ndim)) if axis is None else (axis,) if not isinstance(axis, (tuple, list)) \
        else tuple(axis)  # fmt: skip
    for name, values in (("window_shape", windows), ("axis", axes)):
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, int)]
        if bad:
            raise TypeError(f"{fail}: {name} must hold ints, got {bad[0]!r}")
    if len(windows) != len(axes):
        raise ValueError(f"{fail}: {len(windows)} window sizes for {len(axes)} axes "
                         f"(window_shape={window_shape!r}, axis={axis!r})")  # fmt: skip
    ndim = x.ndim
    for w, a in zip(windows, axes, strict=True):
        if not -ndim <= a < ndim:
            raise ValueError(f"{fail}: axis {a} is out of range for a {ndim}-d array")
        a %= ndim
        n = x.shape[a]
        if n is None or not 0 <= w <= n:
            raise ValueError(f"{fail}: window {w} does not fit axis {a} of size {n}")
        starts = n - w + 1
        source = [i + j for i in range(starts) for j in range(w)]
        x = xp.take(x, _indices(xp, x, source), axis=a)
        x = xp.reshape(x, (*x.shape[:a], starts, w, *x.shape[a + 1 :]))
        x = xp.moveaxis(x, a + 1, -1)
    return x


class StrideTricks:
    """``lib.stride_tricks`` of a namespace: `sliding_window_view`, where xarray finds it."""

    __slots__ = ("sliding_window_view",)

    def __init__(self, adapt: Any = None) -> None:
        self.sliding_window_view = sliding_window_view if adapt is None else adapt(sliding_window_view)

    def __repr__(self) -> str:
        return "<eagerpy_xp lib.stride_tricks: sliding_window_view>"


class Lib:
    """``xp.lib`` of every namespace: NumPy's ``lib.stride_tricks.sliding_window_view``
    only (xarray's ``rolling`` needs it), not the rest of ``numpy.lib``."""

    __slots__ = ("stride_tricks",)

    def __init__(self, adapt: Any = None) -> None:
        self.stride_tricks = StrideTricks(adapt)

    def __repr__(self) -> str:
        return "<eagerpy_xp lib: stride_tricks.sliding_window_view>"


def _random(function: str, x: Any, shape: int | tuple[int, ...], draw: Any, rng: Any) -> Any:
    if type(x) is not Array:
        raise TypeError(f"{function}: expected an array, got {type(x)!r}")
    xp = x.__array_namespace__()
    if not xp.isdtype(x.dtype, "real floating"):
        raise TypeError(f"eagerpy_xp.{x.backend}.{function}: needs a real floating dtype, got {x.dtype}")
    import numpy as np

    generator = np.random.default_rng() if rng is None else rng
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return xp.asarray(draw(generator, shape), dtype=x.dtype, device=x.device)


@portable
def uniform(x: Any, shape: int | tuple[int, ...], low: float = 0.0, high: float = 1.0,
            *, rng: Any = None) -> Any:  # fmt: skip
    """Uniform samples in ``[low, high)`` with ``x``'s dtype, backend and device.

    Drawn on the host by NumPy (``rng``: a `numpy.random.Generator`, for seeding), then
    moved: the same numbers on every backend, not the framework's random state.
    """
    return _random("uniform", x, shape,
                   lambda g, s: g.uniform(low, high, s), rng)  # fmt: skip


@portable
def normal(x: Any, shape: int | tuple[int, ...], mean: float = 0.0, stddev: float = 1.0,
           *, rng: Any = None) -> Any:  # fmt: skip
    """Normal samples with ``x``'s dtype, backend and device; drawn like `uniform`."""
    return _random("normal", x, shape,
                   lambda g, s: g.normal(mean, stddev, s), rng)  # fmt: skip


# -- norms ------------------------------------------------------------------------------


@portable
def l0(x: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """The number of non-zero entries, in ``x``'s dtype for floating ``x`` (as EagerPy;
    real part's dtype for complex), else in the default integer dtype."""
    xp = _check("norms.l0", x, ("numeric", "bool"), "a numeric or bool")
    count = xp.count_nonzero(x, axis=axis, keepdims=keepdims)
    if xp.isdtype(x.dtype, "real floating"):
        return xp.astype(count, x.dtype)
    if xp.isdtype(x.dtype, "complex floating"):
        return xp.astype(count, xp.finfo(x.dtype).dtype)  # finfo(complex) names the real dtype
    return count


@portable
def l1(x: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """``sum(abs(x))``; keeps an integer dtype for integer ``x``."""
    xp = _check("norms.l1", x, "numeric", "a numeric")
    return xp.sum(xp.abs(x), axis=axis, keepdims=keepdims)


def _vector_norm(function: str, x: Any, ord: float, axis: Axis, keepdims: bool) -> Any:
    """``linalg.vector_norm`` of ``x / m`` times ``m``, ``m = max(abs(x))``: no overflow
    for large entries (``l2([1e200, 1e200])`` is finite); the gradient is unchanged."""
    xp = _check(function, x, ("real floating", "complex floating"), "a floating-point")
    if x.size == 0:
        return xp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    m = xp.max(xp.abs(x), axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m) & (m > 0), m, xp.ones_like(m))
    norm = xp.linalg.vector_norm(x / m, axis=axis, keepdims=True, ord=ord) * m
    if keepdims:
        return norm
    axes = tuple(range(x.ndim)) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    return xp.squeeze(norm, axis=axes)


@portable
def l2(x: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """The Euclidean norm (``linalg.vector_norm``, scaled: no overflow for large entries);
    floating-point ``x`` only."""
    return _vector_norm("norms.l2", x, 2, axis, keepdims)


@portable
def linf(x: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """``max(abs(x))``; keeps an integer dtype for integer ``x``."""
    xp = _check("norms.linf", x, "numeric", "a numeric")
    return xp.max(xp.abs(x), axis=axis, keepdims=keepdims)


@portable
def lp(x: Any, p: float, axis: Axis = None, keepdims: bool = False) -> Any:
    """The ``p``-norm: `l0`, `l1`, `l2`, `linf` for 0, 1, 2, inf, else
    ``linalg.vector_norm(x, ord=p)``, scaled like `l2` (floating-point ``x``)."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or math.isnan(p):
        raise TypeError(f"norms.lp: p must be a real number, got {p!r}")
    special = {0: l0, 1: l1, 2: l2, math.inf: linf}.get(p)
    if special is not None:
        return special(x, axis=axis, keepdims=keepdims)
    return _vector_norm("norms.lp", x, p, axis, keepdims)


class Norms:
    """The norms as a namespace object (``norms.l2(x)``), optionally adapted to a flavour."""

    __slots__ = ("l0", "l1", "l2", "linf", "lp")

    def __init__(self, adapt: Any = None) -> None:
        for name in self.__slots__:
            fn = globals()[name]
            setattr(self, name, fn if adapt is None else adapt(fn))

    def __repr__(self) -> str:
        return "<eagerpy_xp norms: l0, l1, l2, linf, lp>"


norms = Norms()
