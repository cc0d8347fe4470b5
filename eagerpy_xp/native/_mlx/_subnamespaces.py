"""``linalg``, ``fft`` and ``__array_namespace_info__`` on MLX.

MLX's decompositions (``mlx.core.linalg``) run on the CPU only: every one is called with
``stream=mx.cpu``, so they also work while the default device is the GPU (the results
live in the unified memory both share).  MLX's decompositions take float32 and float64
(``eig``, ``eigh`` and ``svd`` complex64 too); the complex ones it lacks are composed
here from MLX operations (still lazy): ``det``/``slogdet`` from the eigenvalues,
``solve``/``inv`` through the real form ``[[A, -B], [B, A]]`` of ``A + Bj``, ``cholesky``
and ``qr`` column by column, ``pinv`` from the SVD.  ``eig``/``eigvals`` of float64 would
be complex128, which MLX lacks: `NotImplementedError`.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import mlx.core as mx

from ..._dtypes import COMPLEX_OF_REAL
from .._base import FFT, Info, Linalg
from .._base.core import translated
from .._base.subnamespaces import (
    _MATRIX_NORM_ORDS,
    EighResult,
    EigResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    check_vector_ord,
)
from ._core import MAPPING, filled, part
from ._creation import complex_from_parts

_CPU = mx.cpu


class MLXLinalg(Linalg):
    """``linalg`` on MLX: decompositions on the CPU stream, complex ones composed."""

    _b: Any

    def _square(self, x: Any, function: str) -> Any:
        """``x``: a stack of square matrices (`ValueError` otherwise)."""
        x = self._b._raw(x, function)
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise self._b.error(function, f"expected a stack of square matrices, got shape "
                                f"{tuple(x.shape)}")  # fmt: skip
        return x

    def _complex(self, x: Any) -> bool:
        return bool(x.dtype == mx.complex64)

    @translated
    def cholesky(self, x: Any, /, *, upper: bool = False) -> Any:
        x = self._square(x, "linalg.cholesky")
        if x.shape[-1] == 0:
            return x
        if self._complex(x):
            lower = _complex_cholesky(x)
        else:
            lower = mx.linalg.cholesky(x, stream=_CPU)
        if upper:
            return mx.conj(mx.swapaxes(lower, -1, -2)) if self._complex(x) else \
                mx.swapaxes(lower, -1, -2)  # fmt: skip
        return lower

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        b = self._b
        x1, x2 = b._pair(x1, x2, "linalg.cross")
        ndim = max(x1.ndim, x2.ndim)
        axis = b.normalize_axis(axis, ndim, "linalg.cross")
        if min(x1.ndim, x2.ndim) == 0 or axis - ndim < -min(x1.ndim, x2.ndim):
            raise b.error("linalg.cross", f"axis {axis} is not an axis of both shapes "
                          f"{tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
        if x1.shape[axis - ndim] != 3 or x2.shape[axis - ndim] != 3:
            raise b.error("linalg.cross", f"axis {axis} must have size 3 in both shapes, got "
                          f"{tuple(x1.shape)} and {tuple(x2.shape)}")  # fmt: skip
        x1, x2 = mx.broadcast_arrays(x1, x2)
        a = [part(x1, i, axis) for i in range(3)]
        c = [part(x2, i, axis) for i in range(3)]
        parts = [a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]]
        return mx.stack(parts, axis=axis)

    @translated
    def det(self, x: Any, /) -> Any:
        x = self._square(x, "linalg.det")
        if x.shape[-1] == 0:
            return mx.ones(x.shape[:-2], dtype=x.dtype)
        if self._complex(x):
            return mx.prod(mx.linalg.eigvals(x, stream=_CPU), axis=-1)
        if MAPPING[0]:  # mx.vmap has no batching rule for MLX's LU: from a QR
            _, r, reflections = _householder_qr(x)
            flip = (1 - 2 * (reflections % 2)).astype(x.dtype)
            return flip * mx.prod(mx.diagonal(r, axis1=-2, axis2=-1), axis=-1)
        lu, pivots = mx.linalg.lu_factor(x, stream=_CPU)
        swaps = mx.sum(pivots != mx.arange(x.shape[-1], dtype=pivots.dtype), axis=-1)
        sign = 1 - 2 * (swaps % 2).astype(x.dtype)
        return sign * mx.prod(mx.diagonal(lu, axis1=-2, axis2=-1), axis=-1)

    def _real_slogdet(self, x: Any) -> tuple[Any, Any]:
        if MAPPING[0]:  # mx.vmap has no batching rule for MLX's LU (beyond 3 x 3)
            return _householder_slogdet(x)
        sign, logabs = mx.linalg.slogdet(x, stream=_CPU)
        return sign, logabs

    @translated
    def diagonal(self, x: Any, /, *, offset: int = 0) -> Any:
        b = self._b
        x = b._matrices(b._raw(x, "linalg.diagonal"), "linalg.diagonal")
        offset = b.check_int(offset, "offset", "linalg.diagonal")
        rows, cols = x.shape[-2], x.shape[-1]
        if not -rows < offset < cols:
            return mx.zeros((*x.shape[:-2], 0), dtype=x.dtype)
        return mx.diagonal(x, offset=offset, axis1=-2, axis2=-1)

    @translated
    def eig(self, x: Any, /) -> EigResult:
        """Eigenvalues and right eigenvectors, complex of the input's precision (float64:
        complex128, which MLX lacks: `NotImplementedError`)."""
        target = self._eig_target(x, "linalg.eig")
        if x.shape[-1] == 0:
            return EigResult(mx.zeros(x.shape[:-1], dtype=target), x.astype(target))
        values, vectors = mx.linalg.eig(x, stream=_CPU)
        if self._complex(x) and _EIG_CONJUGATES_COMPLEX_VECTORS():
            vectors = mx.conj(vectors)
        return EigResult(values.astype(target), vectors.astype(target))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        target = self._eig_target(x, "linalg.eigvals")
        if x.shape[-1] == 0:
            return mx.zeros(x.shape[:-1], dtype=target)
        return mx.linalg.eigvals(x, stream=_CPU).astype(target)

    def _eig_target(self, x: Any, function: str) -> Any:
        b = self._b
        x = self._square(x, function)
        name = b.dtype_name(x.dtype)
        complex_name = COMPLEX_OF_REAL.get(name, name)
        b.check_holds(complex_name, function)
        return b.dtypes_by_name[complex_name]

    @translated
    def eigh(self, x: Any, /) -> EighResult:
        x = self._square(x, "linalg.eigh")
        if x.shape[-1] == 0:
            return EighResult(mx.zeros(x.shape[:-1], dtype=_real_of(x)), x)
        return EighResult(*mx.linalg.eigh(x, stream=_CPU))

    @translated
    def eigvalsh(self, x: Any, /) -> Any:
        x = self._square(x, "linalg.eigvalsh")
        if x.shape[-1] == 0:
            return mx.zeros(x.shape[:-1], dtype=_real_of(x))
        return mx.linalg.eigvalsh(x, stream=_CPU)

    @translated
    def inv(self, x: Any, /) -> Any:
        x = self._square(x, "linalg.inv")
        if x.shape[-1] == 0:
            return x
        if self._complex(x):
            eye = mx.broadcast_to(mx.eye(x.shape[-1], dtype=mx.complex64), x.shape)
            return _complex_solve(x, eye)
        return mx.linalg.inv(x, stream=_CPU)

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        b = self._b
        if not any(ord == o and type(ord) is not bool for o in _MATRIX_NORM_ORDS):
            raise b.error("linalg.matrix_norm", f"ord must be one of 1, -1, 2, -2, inf, -inf, "
                          f"'fro', 'nuc'; got {ord!r}")  # fmt: skip
        x = b._matrices(b._raw(x, "linalg.matrix_norm"), "linalg.matrix_norm")
        magnitude = mx.abs(x)
        if x.size == 0 and ord in ("fro", "nuc", 1, -1, 2, -2):
            result = filled(magnitude, [x.ndim - 2, x.ndim - 1], False, 0.0)
        elif ord == "fro":
            result = mx.sqrt(mx.sum(mx.square(magnitude), axis=(-2, -1)))
        elif ord in (1, -1, math.inf, -math.inf):
            axis = -2 if ord in (1, -1) else -1
            sums = mx.sum(magnitude, axis=axis)
            result = _reduce_or_empty(sums, ord > 0)
        else:
            values = self._singular_values(x)
            if ord == "nuc":
                result = mx.sum(values, axis=-1)
            else:
                result = _reduce_or_empty(values, ord > 0)
        if keepdims:
            result = mx.expand_dims(result, (-2, -1))
        return result

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        b = self._b
        x = self._square(x, "linalg.matrix_power")
        n = b.check_int(n, "n", "linalg.matrix_power")
        if n < 0:
            x, n = self.inv(x), -n
        result = mx.broadcast_to(mx.eye(x.shape[-1], dtype=x.dtype), x.shape)
        base = x
        while n:
            if n & 1:
                result = b.matmul(result, base)
            n >>= 1
            if n:
                base = b.matmul(base, base)
        return result

    @translated
    def matrix_rank(self, x: Any, /, *, rtol: Any = None) -> Any:
        b = self._b
        x = b._matrices(b._raw(x, "linalg.matrix_rank"), "linalg.matrix_rank")
        values = self._singular_values(x)
        if rtol is None:
            rtol = max(x.shape[-2:]) * b.finfo(x.dtype).eps
        elif type(rtol) is not float and type(rtol) is not int:
            rtol = mx.expand_dims(b._raw(rtol, "linalg.matrix_rank"), -1)
        largest = mx.max(values, axis=-1, keepdims=True) if values.shape[-1] else values
        return mx.sum(values > rtol * largest, axis=-1).astype(b._default("indexing"))

    def _singular_values(self, x: Any) -> Any:
        if x.shape[-1] == 0 or x.shape[-2] == 0:
            return mx.zeros((*x.shape[:-2], 0), dtype=_real_of(x))
        return mx.linalg.svd(x, compute_uv=False, stream=_CPU)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        b = self._b
        x1, x2 = b._pair(x1, x2, "linalg.outer")
        if x1.ndim != 1 or x2.ndim != 1:
            raise b.error("linalg.outer", f"expected 1-d arrays, got shapes {tuple(x1.shape)} "
                          f"and {tuple(x2.shape)}")  # fmt: skip
        return x1[:, None] * x2[None, :]

    @translated
    def pinv(self, x: Any, /, *, rtol: Any = None) -> Any:
        """``rtol=None`` is the spec's ``max(M, N) * eps``; from the SVD."""
        b = self._b
        x = b._matrices(b._raw(x, "linalg.pinv"), "linalg.pinv")
        m, n = x.shape[-2], x.shape[-1]
        if m == 0 or n == 0:
            return mx.zeros((*x.shape[:-2], n, m), dtype=x.dtype)
        if rtol is None:
            rtol = max(m, n) * b.finfo(x.dtype).eps
        elif type(rtol) is not float and type(rtol) is not int:
            rtol = mx.expand_dims(b._raw(rtol, "linalg.pinv"), -1)
        u, s, vh = mx.linalg.svd(x, stream=_CPU)
        k = min(m, n)
        u, vh = u[..., :k], vh[..., :k, :]
        cutoff = rtol * mx.max(s, axis=-1, keepdims=True)
        inverse = mx.where(s > cutoff, 1 / mx.where(s > cutoff, s, 1), 0).astype(s.dtype)
        vh_h = mx.conj(mx.swapaxes(vh, -1, -2)) if self._complex(x) else mx.swapaxes(vh, -1, -2)
        u_h = mx.conj(mx.swapaxes(u, -1, -2)) if self._complex(x) else mx.swapaxes(u, -1, -2)
        return mx.matmul(vh_h * inverse[..., None, :].astype(x.dtype), u_h)

    @translated
    def qr(self, x: Any, /, *, mode: str = "reduced") -> QRResult:
        b = self._b
        if mode not in ("reduced", "complete"):
            raise b.error("linalg.qr", f"mode must be 'reduced' or 'complete', got {mode!r}")
        x = b._matrices(b._raw(x, "linalg.qr"), "linalg.qr")
        m, n = x.shape[-2], x.shape[-1]
        if self._complex(x) or (MAPPING[0] and m and n):  # no batching rule for MLX's QR
            q, r, _ = _householder_qr(x)
            k = min(m, n)
            return QRResult(q, r) if mode == "complete" else QRResult(q[..., :k], r[..., :k, :])
        if m == 0 or n == 0:
            q = mx.broadcast_to(mx.eye(m, dtype=x.dtype), (*x.shape[:-2], m, m)) if mode == \
                "complete" else mx.zeros((*x.shape[:-2], m, min(m, n)), dtype=x.dtype)  # fmt: skip
            rows = m if mode == "complete" else min(m, n)
            return QRResult(q, mx.zeros((*x.shape[:-2], rows, n), dtype=x.dtype))
        if mode == "complete" and m > n:  # Q of [x | I]: x's reflections, then the rest
            eye = mx.broadcast_to(mx.eye(m, dtype=x.dtype), (*x.shape[:-2], m, m))
            q, r = mx.linalg.qr(mx.concat([x, eye], axis=-1), stream=_CPU)
            return QRResult(q, r[..., :n])
        return QRResult(*mx.linalg.qr(x, stream=_CPU))

    @translated
    def slogdet(self, x: Any, /) -> SlogdetResult:
        x = self._square(x, "linalg.slogdet")
        real = _real_of(x)
        if x.shape[-1] == 0:
            return SlogdetResult(mx.ones(x.shape[:-2], dtype=x.dtype),
                                 mx.zeros(x.shape[:-2], dtype=real))  # fmt: skip
        if self._complex(x):
            values = mx.linalg.eigvals(x, stream=_CPU)
            size = mx.abs(values)
            zero = mx.any(size == 0, axis=-1)
            phase = mx.prod(values / mx.where(size == 0, 1, size).astype(values.dtype), axis=-1)
            logabs = mx.sum(mx.log(size), axis=-1)
            return SlogdetResult(mx.where(zero, mx.zeros_like(phase), phase),
                                 mx.where(zero, -math.inf, logabs).astype(real))  # fmt: skip
        sign, logabs = self._real_slogdet(x)
        return SlogdetResult(sign.astype(x.dtype), logabs.astype(real))

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        """``x2`` is a stack of matrices, or one vector (a 1-d ``x2``, solved for each
        matrix of ``x1``)."""
        b = self._b
        x1, x2 = b._pair(x1, x2, "linalg.solve")
        x1 = self._square(x1, "linalg.solve")
        vector = x2.ndim == 1
        rhs = x2[:, None] if vector else x2
        if rhs.shape[-2] != x1.shape[-1]:
            raise b.error("linalg.solve", f"shapes {tuple(x1.shape)} and {tuple(x2.shape)} do "
                          "not fit")  # fmt: skip
        batch = b.broadcast_shapes(tuple(x1.shape[:-2]), tuple(rhs.shape[:-2]))
        a = mx.broadcast_to(x1, (*batch, *x1.shape[-2:]))
        rhs = mx.broadcast_to(rhs, (*batch, *rhs.shape[-2:]))
        if x1.shape[-1] == 0 or rhs.shape[-1] == 0:
            result = mx.zeros(rhs.shape, dtype=x1.dtype)
        elif self._complex(x1):
            result = _complex_solve(a, rhs)
        else:
            result = _real_solve(a, rhs)
        return result[..., 0] if vector else result

    @translated
    def svd(self, x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        b = self._b
        x = b._matrices(b._raw(x, "linalg.svd"), "linalg.svd")
        m, n = x.shape[-2], x.shape[-1]
        k = min(m, n)
        batch = x.shape[:-2]
        if k == 0:
            eye_u = mx.broadcast_to(mx.eye(m, dtype=x.dtype), (*batch, m, m))
            eye_v = mx.broadcast_to(mx.eye(n, dtype=x.dtype), (*batch, n, n))
            s = mx.zeros((*batch, 0), dtype=_real_of(x))
            if full_matrices:
                return SVDResult(eye_u, s, eye_v)
            return SVDResult(eye_u[..., :0], s, eye_v[..., :0, :])
        u, s, vh = mx.linalg.svd(x, stream=_CPU)
        if not full_matrices:
            u, vh = u[..., :k], vh[..., :k, :]
        return SVDResult(u, s, vh)

    @translated
    def svdvals(self, x: Any, /) -> Any:
        b = self._b
        return self._singular_values(b._matrices(b._raw(x, "linalg.svdvals"), "linalg.svdvals"))

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        b = self._b
        x = b._matrices(b._raw(x, "linalg.trace"), "linalg.trace")
        diagonal = self.diagonal(x, offset=offset)
        return b.sum(diagonal, axis=-1, dtype=dtype)

    @translated
    def vector_norm(
        self, x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2
    ) -> Any:
        b = self._b
        x = b._raw(x, "linalg.vector_norm")
        axes = list(b.normalize_axes(axis, x.ndim, "linalg.vector_norm"))
        check_vector_ord(b, ord)
        magnitude = mx.abs(x)
        if axis is None:
            flat = magnitude.reshape(-1)
            result = _vector_norm(flat, [0], ord, False)
            return result.reshape((1,) * x.ndim) if keepdims else result
        return _vector_norm(magnitude, axes, ord, keepdims)


def _vector_norm(magnitude: Any, axes: list[int], ord: Any, keepdims: bool) -> Any:
    """The ``ord``-norm of non-negative values over ``axes``."""
    if not axes:  # each value alone: its magnitude, or for ord 0 whether it is nonzero
        return (magnitude != 0).astype(magnitude.dtype) if ord == 0 else magnitude
    count = math.prod(magnitude.shape[a] for a in axes)
    if count == 0:  # the sum of no terms is 0 (MLX's reductions of no elements are unreliable)
        nothing = filled(magnitude, axes, keepdims, 0.0)
        return nothing if ord >= 0 and ord != -math.inf else mx.power(nothing, -1.0) if \
            ord == -math.inf else mx.power(nothing, 1 / ord)  # fmt: skip
    if ord == math.inf or ord == -math.inf:
        fn = mx.max if ord > 0 else mx.min
        return fn(magnitude, axis=axes, keepdims=keepdims)
    if ord == 0:
        return mx.sum(magnitude != 0, axis=axes, keepdims=keepdims).astype(magnitude.dtype)
    if ord == 1:
        return mx.sum(magnitude, axis=axes, keepdims=keepdims)
    if ord == 2:
        scale = mx.max(magnitude, axis=axes, keepdims=True) if count else magnitude
        finite = mx.where(mx.logical_and(mx.isfinite(scale), scale > 0), scale, 1) if count else scale
        scaled = mx.sqrt(mx.sum(mx.square(magnitude / finite), axis=axes, keepdims=True)) * finite
        result = scaled if keepdims else mx.squeeze(scaled, axis=axes)
        infinite = mx.any(mx.isinf(magnitude), axis=axes, keepdims=keepdims)
        return mx.where(infinite, math.inf, result).astype(magnitude.dtype)
    if ord < 0:
        return mx.power(mx.sum(mx.power(magnitude, ord), axis=axes, keepdims=keepdims), 1 / ord)
    return mx.power(mx.sum(mx.power(magnitude, ord), axis=axes, keepdims=keepdims), 1 / ord)


def _reduce_or_empty(values: Any, largest: bool) -> Any:
    return (mx.max if largest else mx.min)(values, axis=-1)


def _real_of(x: Any) -> Any:
    return mx.float32 if x.dtype == mx.complex64 else x.dtype


def _conj_t(x: Any) -> Any:
    return mx.conj(mx.swapaxes(x, -1, -2))


def _complex_solve(a: Any, rhs: Any) -> Any:
    """``solve(a, rhs)`` for complex64 through the real system ``[[A, -B], [B, A]]
    [[X], [Y]] = [[C], [D]]`` of ``(A + Bj)(X + Yj) = C + Dj``."""
    n = a.shape[-1]
    re, im = mx.real(a), mx.imag(a)
    big = mx.concat([mx.concat([re, -im], axis=-1), mx.concat([im, re], axis=-1)], axis=-2)
    rhs_big = mx.concat([mx.real(rhs), mx.imag(rhs)], axis=-2)
    solution = _real_solve(big, rhs_big)
    return complex_from_parts(solution[..., :n, :], solution[..., n:, :])


def _complex_cholesky(x: Any) -> Any:
    """The lower Cholesky factor of Hermitian positive-definite complex64 matrices,
    column by column (MLX's ``cholesky`` takes real dtypes only)."""
    n = x.shape[-1]
    columns: list[Any] = []
    for j in range(n):
        if columns:
            done = mx.stack(columns, axis=-1)  # (..., n, j)
            row = done[..., j:j + 1, :]  # L[j, :j]
            column = x[..., :, j] - mx.matmul(done, _conj_t(row))[..., 0]
        else:
            column = x[..., :, j]
        pivot = mx.sqrt(mx.real(column[..., j]))
        scaled = column / pivot[..., None].astype(mx.complex64)
        above = mx.arange(n) < j
        scaled = mx.where(above, mx.zeros_like(scaled), scaled)
        scaled = mx.where(mx.arange(n) == j, pivot[..., None].astype(mx.complex64), scaled)
        columns.append(scaled)
    return mx.stack(columns, axis=-1)


def _real_solve(a: Any, rhs: Any) -> Any:
    """``solve(a, rhs)`` for real matrices by MLX's LU; while `eagerpy_xp.vmap` traces
    (``mx.vmap`` has no batching rule for MLX's LU) ``inv(a) @ rhs``."""
    if MAPPING[0]:
        return mx.matmul(mx.linalg.inv(a, stream=_CPU), rhs)
    return mx.linalg.solve(a, rhs, stream=_CPU)


def _householder_qr(x: Any) -> tuple[Any, Any, Any]:
    """The complete QR of matrices by Householder reflections, with LAPACK's signs for
    real ones (MLX's ``qr`` takes real dtypes only, and ``mx.vmap`` has no batching rule
    for it): ``Q`` (m x m), ``R`` (m x n) and how many reflections ``Q`` is made of (each
    has determinant -1; a column already zero below the diagonal takes none).

    Each column is divided by its largest magnitude before its reflection is built: a
    reflection does not change when its vector is scaled, and the squares it needs then
    stay near 1, so columns whose squared entries pass the dtype's range (float32's near
    1.8e19) give finite factors instead of ``inf`` and ``NaN``."""
    m, n = x.shape[-2], x.shape[-1]
    batch = x.shape[:-2]
    zero = mx.zeros((), dtype=x.dtype)
    q = mx.broadcast_to(mx.eye(m, dtype=x.dtype), (*batch, m, m))
    r = x
    rows = mx.arange(m)
    reflections = mx.zeros(batch, dtype=mx.int32)
    for k in range(min(m - 1, n) if m > 1 else 0):
        column = mx.where((rows >= k)[None] if batch else rows >= k, r[..., :, k], zero)
        largest = mx.max(mx.abs(column), axis=-1, keepdims=True)
        column = column / mx.where(largest == 0, 1, largest).astype(x.dtype)
        head = column[..., k]
        below = mx.sum(mx.square(mx.abs(mx.where(rows > k, column, zero))), axis=-1)
        norm = mx.sqrt(mx.sum(mx.square(mx.abs(column)), axis=-1))
        size = mx.abs(head)
        phase = mx.where(size == 0, mx.ones_like(head), head / mx.where(size == 0, 1, size)
                         .astype(x.dtype))  # fmt: skip
        alpha = -phase * norm.astype(x.dtype)
        v = column - mx.where(rows == k, alpha[..., None], zero)
        vnorm = mx.sum(mx.square(mx.abs(v)), axis=-1, keepdims=True)
        none = mx.logical_or(vnorm == 0, (below == 0)[..., None])  # nothing to reflect
        safe = mx.where(none, 1, vnorm)
        v = v[..., :, None]
        reflect = mx.where(none[..., None], zero,
                           2 * mx.matmul(v, _conj_t(v)) / safe[..., None].astype(x.dtype))
        reflections = reflections + mx.logical_not(none[..., 0]).astype(mx.int32)
        r = r - mx.matmul(reflect, r)
        q = q - mx.matmul(q, reflect)
    lower = mx.arange(m)[:, None] > mx.arange(n)[None, :]
    return q, mx.where(lower, zero, r), reflections  # exact zeros below the diagonal


def _householder_slogdet(x: Any) -> tuple[Any, Any]:
    """The sign (or phase) and log of the absolute determinant of square matrices from
    their Householder QR (``mx.vmap`` has no batching rule for MLX's LU)."""
    _, r, reflections = _householder_qr(x)
    diagonal = mx.diagonal(r, axis1=-2, axis2=-1)
    size = mx.abs(diagonal)
    unit = diagonal / mx.where(size == 0, 1, size).astype(x.dtype)
    flip = (1 - 2 * (reflections % 2)).astype(x.dtype)
    sign = mx.where(mx.any(size == 0, axis=-1), mx.zeros_like(flip), flip * mx.prod(unit, axis=-1))
    return sign, mx.sum(mx.log(size), axis=-1)


@functools.cache
def _EIG_CONJUGATES_COMPLEX_VECTORS() -> bool:
    """Whether MLX's ``eig`` of a complex matrix returns the conjugates of its right
    eigenvectors (MLX 0.32 does): tried once on a constant matrix."""
    a = mx.array([[1 + 1j, 2], [0, 3 - 1j]], dtype=mx.complex64)
    try:
        values, vectors = mx.linalg.eig(a, stream=_CPU)
        residual = mx.abs(mx.matmul(a, vectors) - vectors * values[None, :])
        return float(mx.max(residual).item()) > 1e-3  # type: ignore[arg-type]
    except Exception:  # traced (mx.compile): assume the known behaviour
        return True


class MLXFFT(FFT):
    """``fft`` on MLX: ``hfft``/``ihfft`` from ``irfft``/``rfft``; results MLX cannot hold
    (the complex128 of a float64 ``rfft``) raise `NotImplementedError`."""

    _b: Any

    def _input(self, x: Any, function: str) -> Any:
        return self._b._raw(x, f"fft.{function}")

    def _complex_result(self, x: Any, function: str) -> None:
        """`NotImplementedError` where the transform of real ``x`` would be complex128."""
        b = self._b
        b.check_holds(COMPLEX_OF_REAL[b.dtype_name(x.dtype)], f"fft.{function}")

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        x = self._input(x, "fft")
        self._fft_n(x, n, axis, "fft")
        return mx.fft.fft(x, n=n, axis=axis, norm=self._fft_norm(norm, "fft"))

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        x = self._input(x, "ifft")
        self._fft_n(x, n, axis, "ifft")
        return mx.fft.ifft(x, n=n, axis=axis, norm=self._fft_norm(norm, "ifft"))

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = self._input(x, "fftn")
        return _nd(mx.fft.fftn, x, s, self._fft_axes(s, axes, x, "fftn"),
                   self._fft_norm(norm, "fftn"))  # fmt: skip

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = self._input(x, "ifftn")
        return _nd(mx.fft.ifftn, x, s, self._fft_axes(s, axes, x, "ifftn"),
                   self._fft_norm(norm, "ifftn"))  # fmt: skip

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        x = self._input(x, "rfft")
        self._fft_n(x, n, axis, "rfft")
        norm = self._fft_norm(norm, "rfft")
        self._complex_result(x, "rfft")
        return mx.fft.rfft(x, n=n, axis=axis, norm=norm)

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        x = self._input(x, "irfft")
        self._fft_n(x, n, axis, "irfft")
        return mx.fft.irfft(x, n=n, axis=axis, norm=self._fft_norm(norm, "irfft"))

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = self._input(x, "rfftn")
        axes, norm = self._fft_axes(s, axes, x, "rfftn"), self._fft_norm(norm, "rfftn")
        self._complex_result(x, "rfftn")
        return _nd(mx.fft.rfftn, x, s, axes, norm)

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        x = self._input(x, "irfftn")
        return _nd(mx.fft.irfftn, x, s, self._fft_axes(s, axes, x, "irfftn"),
                   self._fft_norm(norm, "irfftn"))  # fmt: skip

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        """``irfft(conj(x))`` with the opposite normalisation (MLX has no ``hfft``)."""
        x = self._input(x, "hfft")
        self._fft_n(x, n, axis, "hfft")
        return mx.fft.irfft(mx.conj(x), n=n, axis=axis,
                            norm=_SWAPPED[self._fft_norm(norm, "hfft")])  # fmt: skip

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        """``conj(rfft(x))`` with the opposite normalisation (MLX has no ``ihfft``)."""
        x = self._input(x, "ihfft")
        self._fft_n(x, n, axis, "ihfft")
        norm = _SWAPPED[self._fft_norm(norm, "ihfft")]
        self._complex_result(x, "ihfft")
        return mx.conj(mx.fft.rfft(x, n=n, axis=axis, norm=norm))

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(n, d, dtype, device, "fftfreq")

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(n, d, dtype, device, "rfftfreq")

    def _freq(self, n: Any, d: Any, dtype: Any, device: Any, function: str) -> Any:
        """``[0, 1, ..., -1] / (d * n)`` (``rfftfreq``: the non-negative ones)."""
        b = self._b
        n = self._freq_length(n, function)
        target = self._freq_dtype(dtype, f"fft.{function}")
        b.check_holds(b.dtype_name(target), f"fft.{function}", device)
        stream = b._stream(device, f"fft.{function}")
        work = mx.float64 if target == mx.float64 else mx.float32
        if function == "rfftfreq":
            k = mx.arange(n // 2 + 1, dtype=work, **stream)
        else:
            k = mx.arange(n, dtype=work, **stream)
            k = mx.where(k < (n + 1) // 2, k, k - n)
        return (k / (d * n)).astype(target)

    @translated
    def fftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        x = self._b._raw(x, "fft.fftshift")
        return self._shift(x, axes, "fftshift", 1)

    @translated
    def ifftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        x = self._b._raw(x, "fft.ifftshift")
        return self._shift(x, axes, "ifftshift", -1)

    def _shift(self, x: Any, axes: Any, function: str, sign: int) -> Any:
        b = self._b
        self._fft_axes(None, axes, x, function)
        if axes is None:
            axes = tuple(range(x.ndim))
        elif not isinstance(axes, (tuple, list)):
            axes = (axes,)
        axes = tuple(b.normalize_axis(a, x.ndim, f"fft.{function}") for a in axes)
        if not axes or x.size == 0:
            return x
        shifts = tuple(sign * (x.shape[a] // 2) for a in axes)
        return mx.roll(x, shifts, axes)


#: A transform's normalisation seen from its inverse.
_SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _nd(fn: Any, x: Any, s: Any, axes: Any, norm: str) -> Any:
    kwargs: dict[str, Any] = {"norm": norm}
    if s is not None:
        kwargs["s"] = tuple(s)
    if axes is not None:
        kwargs["axes"] = list(axes)
    return fn(x, **kwargs)


class MLXInfo(Info):
    """``dtypes(device=...)`` per device: float64 is absent on the GPU, complex128
    everywhere."""

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        b = self._b
        if device is not None:
            b.native_device(device, "dtypes")
        supported = b.supported_dtype_names(device)
        wanted = supported if kind is None else b.dtype_names_in(kind)
        by_name = self._by_name()
        return {name: by_name[name] for name in supported if name in wanted}


__all__ = ["MLXFFT", "MLXInfo", "MLXLinalg"]
