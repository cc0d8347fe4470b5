"""``linalg`` and ``fft`` on Dask arrays.

**linalg**: the decompositions and everything built on them (``cholesky``, ``det``,
``eigh``, ``eigvalsh``, ``inv``, ``matrix_power``, ``matrix_rank``, ``pinv``, ``qr``,
``slogdet``, ``solve``, ``svd``, ``svdvals``, ``matrix_norm`` with ``ord`` 2, -2 or
``"nuc"``) run NumPy's LAPACK on whole matrices, so each matrix must lie in one chunk; the
stacking axes may be chunked any way (each chunk of matrices is one task).  A 2-D matrix
split into several chunks goes through Dask's blocked algorithm where there is one and it
takes the chunking: ``qr``, ``svd`` and ``svdvals`` of a tall-and-skinny matrix with its
columns in one chunk (Dask's TSQR), ``cholesky`` with square chunks, ``solve`` and ``inv``
(Dask's blocked LU).  Otherwise the two matrix axes are rechunked into one chunk first
(a matrix split by how it was built, such as a 4 x 4 one stacked from scalars), as the
FFTs rechunk their axes.  The rest (``cross``,
``diagonal``, ``matrix_norm`` with ``ord`` 1, -1, inf, -inf, "fro", ``trace``,
``vector_norm``, products) works on any chunking.

**fft**: the transformed axes become one chunk each (Dask's FFT works on whole axes); the
other axes keep their chunks.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np

from ..._dtypes import COMPLEX_FLOATING, REAL_OF_COMPLEX
from .._base import Linalg
from .._base.core import translated
from .._base.subnamespaces import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from .._numpy._subnamespaces import NumPyFFT
from ._chunks import NUMPY, gufunc, is_whole, known, match_loop_chunks, whole_axes

_NP_LINALG = NUMPY.linalg


class DaskLinalg(Linalg):
    """Whole-matrix functions chunk by chunk of matrices; Dask's blocked ones for 2-D."""

    def _whole(self, x: Any, function: str) -> Any:
        """``x`` checked to be a stack of matrices, with each matrix in one chunk: the two
        matrix axes rechunked where they are split (as the FFTs rechunk their axes; NumPy's
        LAPACK needs each matrix whole in memory anyway), the stacking axes as they are."""
        b = self._b
        if x.ndim < 2:
            raise b.error(f"linalg.{function}", f"expected an array of at least 2 dimensions, "
                                                f"got shape {b.shape_of(x)}")  # fmt: skip
        if None in b.shape_of(x)[-2:]:  # the backend's `recover` computes it lazily
            raise ValueError("the matrices' sizes are unknown (a data-dependent shape)")
        return whole_axes(x, (x.ndim - 2, x.ndim - 1))

    def _sizes(self, x: Any) -> tuple[int, int]:
        """The matrix sizes of a stack that passed `_whole` (so they are known)."""
        return int(x.shape[-2]), int(x.shape[-1])

    def _blocked_2d(self, x: Any) -> bool:
        """Whether ``x`` is one 2-D matrix split into several chunks."""
        return bool(x.ndim == 2 and not is_whole(x, (0, 1)))

    def _dask_blocked(self, applies: bool, call: Callable[[], Any]) -> Any:
        """Dask's blocked algorithm for a 2-D matrix split into chunks, where ``applies``;
        None where it does not apply or Dask refuses the chunking (`_whole` rechunks the
        matrix then)."""
        if not applies:
            return None
        try:
            return call()
        except ValueError:
            return None

    @translated
    def cholesky(self, x: Any, /, *, upper: bool = False) -> Any:
        blocked = self._dask_blocked(self._blocked_2d(x),
                                     lambda: da.linalg.cholesky(x, lower=not upper))  # fmt: skip
        if blocked is not None:
            return blocked
        x = self._whole(x, "cholesky")
        return gufunc(functools.partial(_NP_LINALG.cholesky, upper=upper), "(m,m)->(m,m)", x,
                      dtypes=x.dtype)  # fmt: skip

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """``axis`` counts in the broadcast shape; that axis becomes one chunk (size 3)."""
        b = self._b
        ndim = max(x1.ndim, x2.ndim)
        offset = b.normalize_axis(axis, ndim, "linalg.cross") - ndim  # negative
        for x in (x1, x2):
            if x.ndim + offset >= 0 and known(x.shape[offset]) is None:  # unknown: lazily
                return b.lazily("linalg.cross", (x1, x2), {"axis": axis})
            if x.ndim + offset < 0 or known(x.shape[offset]) != 3:
                raise b.error("linalg.cross", f"axis {axis} must have size 3 in both arrays, "
                              f"got shapes {b.shape_of(x1)} and {b.shape_of(x2)}")  # fmt: skip
        dtype = np.result_type(x1.dtype, x2.dtype)
        a1 = da.moveaxis(whole_axes(x1, (x1.ndim + offset,)), offset, -1)
        a2 = da.moveaxis(whole_axes(x2, (x2.ndim + offset,)), offset, -1)
        if 0 in a1.shape[:-1] or 0 in a2.shape[:-1]:  # empty batches: gufunc cannot loop
            batch = np.broadcast_shapes(a1.shape[:-1], a2.shape[:-1])
            return da.moveaxis(da.zeros((*batch, 3), dtype=dtype), -1, offset)
        result = gufunc(_cross_last, "(i),(i)->(i)", a1, match_loop_chunks(a1, a2, (1, 1)),
                        dtypes=dtype)  # fmt: skip
        return da.moveaxis(result, -1, offset)

    @translated
    def det(self, x: Any, /) -> Any:
        x = self._whole(x, "det")
        return gufunc(_NP_LINALG.det, "(m,m)->()", x, dtypes=x.dtype)

    @translated
    def eig(self, x: Any, /) -> EigResult:
        """Chunk by chunk of matrices through the NumPy backend's ``eig`` (complex of the
        input's precision)."""
        target = self._eig_dtype(x, "linalg.eig")
        x = self._whole(x, "eig")
        values, vectors = gufunc(_eig, "(m,m)->(m),(m,m)", x, dtypes=(target, target))
        return EigResult(values, vectors)

    @translated
    def eigvals(self, x: Any, /) -> Any:
        target = self._eig_dtype(x, "linalg.eigvals")
        x = self._whole(x, "eigvals")
        return gufunc(_NP_LINALG.eigvals, "(m,m)->(m)", x, dtypes=target)

    @translated
    def eigh(self, x: Any, /) -> EighResult:
        x = self._whole(x, "eigh")
        values, vectors = gufunc(_eigh, "(m,m)->(m),(m,m)", x,
                                 dtypes=(_real(x.dtype), x.dtype))  # fmt: skip
        return EighResult(values, vectors)

    @translated
    def eigvalsh(self, x: Any, /) -> Any:
        x = self._whole(x, "eigvalsh")
        return gufunc(_NP_LINALG.eigvalsh, "(m,m)->(m)", x, dtypes=_real(x.dtype))

    @translated
    def inv(self, x: Any, /) -> Any:
        blocked = self._dask_blocked(self._blocked_2d(x), lambda: da.linalg.inv(x))
        if blocked is not None:
            return blocked
        x = self._whole(x, "inv")
        return gufunc(_NP_LINALG.inv, "(m,m)->(m,m)", x, dtypes=x.dtype)

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        """``ord`` 2, -2 and ``"nuc"`` take singular values (whole matrices); the others
        are reductions on any chunking."""
        if ord in (2, -2, "nuc") and type(ord) is not bool:
            values = self.svdvals(x)
            if ord == "nuc":
                result = da.sum(values, axis=-1)
            else:
                result = (da.max if ord == 2 else da.min)(values, axis=-1)
            return da.expand_dims(result, (-2, -1)) if keepdims else result
        if ord == "fro":
            magnitude = da.abs(x)
            return da.sqrt(da.sum(magnitude * magnitude, axis=(-2, -1), keepdims=keepdims))
        if ord in (1, -1, math.inf, -math.inf) and type(ord) is not bool:
            summed_axis, other_axis = (-2, -1) if ord in (1, -1) else (-1, -2)
            sums = da.sum(da.abs(x), axis=summed_axis, keepdims=True)
            pick = da.max if ord > 0 else da.min
            result = pick(sums, axis=other_axis, keepdims=True)
            return result if keepdims else da.squeeze(result, axis=(-2, -1))
        return super().matrix_norm(x, keepdims=keepdims, ord=ord)  # raises for a bad ord

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        n = self._b.check_int(n, "n", "linalg.matrix_power")
        x = self._whole(x, "matrix_power")
        return gufunc(functools.partial(_matrix_power, n=n), "(m,m)->(m,m)", x,
                      dtypes=x.dtype if n >= 0 or x.dtype.kind in "fc" else np.dtype(np.float64))  # fmt: skip

    @translated
    def matrix_rank(self, x: Any, /, *, rtol: Any = None) -> Any:
        x = self._whole(x, "matrix_rank")
        if isinstance(rtol, da.Array):
            return gufunc(_matrix_rank, "(m,n),()->()", x, rtol, dtypes=np.dtype(np.int64))
        return gufunc(functools.partial(_matrix_rank, rtol=rtol), "(m,n)->()", x,
                      dtypes=np.dtype(np.int64))  # fmt: skip

    @translated
    def pinv(self, x: Any, /, *, rtol: Any = None) -> Any:
        x = self._whole(x, "pinv")
        if isinstance(rtol, da.Array):
            return gufunc(_pinv, "(m,n),()->(n,m)", x, rtol, dtypes=x.dtype)
        return gufunc(functools.partial(_pinv, rtol=rtol), "(m,n)->(n,m)", x, dtypes=x.dtype)

    @translated
    def qr(self, x: Any, /, *, mode: str = "reduced") -> QRResult:
        b = self._b
        if mode not in ("reduced", "complete"):
            raise b.error("linalg.qr", f"mode must be 'reduced' or 'complete', got {mode!r}")
        tall = self._blocked_2d(x) and mode == "reduced" and len(x.chunks[1]) == 1
        blocked = self._dask_blocked(tall, lambda: da.linalg.qr(x))  # (TSQR)
        if blocked is not None:
            return QRResult(*blocked)
        x = self._whole(x, "qr")
        m, n = self._sizes(x)
        k = min(m, n) if mode == "reduced" else m
        q, r = gufunc(functools.partial(_qr, mode=mode), "(m,n)->(m,k),(k,n)", x,
                      dtypes=(x.dtype, x.dtype), sizes={"k": k})  # fmt: skip
        return QRResult(q, r)

    @translated
    def slogdet(self, x: Any, /) -> SlogdetResult:
        x = self._whole(x, "slogdet")
        sign, logabsdet = gufunc(_slogdet, "(m,m)->(),()", x, dtypes=(x.dtype, _real(x.dtype)))
        return SlogdetResult(sign, logabsdet)

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        """``x2`` is a vector only when it is 1-D (2025.12)."""
        dtype = np.result_type(x1.dtype, x2.dtype)
        blocked = self._dask_blocked(self._blocked_2d(x1) and x2.ndim <= 2,
                                     lambda: da.linalg.solve(x1, x2))  # fmt: skip
        if blocked is not None:
            return blocked
        x1 = self._whole(x1, "solve")
        if x2.ndim == 1:
            return gufunc(_NP_LINALG.solve, "(m,m),(m)->(m)", x1, whole_axes(x2, (0,)),
                          dtypes=dtype)  # fmt: skip
        x2 = self._whole(x2, "solve")
        return gufunc(_NP_LINALG.solve, "(m,m),(m,n)->(m,n)", x1,
                      match_loop_chunks(x1, x2, (2, 2)), dtypes=dtype)  # fmt: skip

    @translated
    def svd(self, x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        tall = self._blocked_2d(x) and not full_matrices and len(x.chunks[1]) == 1
        blocked = self._dask_blocked(tall, lambda: da.linalg.svd(x))  # (TSQR)
        if blocked is not None:
            return SVDResult(*blocked)
        x = self._whole(x, "svd")
        m, n = self._sizes(x)
        k = min(m, n)
        signature = "(m,n)->(m,m),(k),(n,n)" if full_matrices else "(m,n)->(m,k),(k),(k,n)"
        u, s, vh = gufunc(functools.partial(_svd, full_matrices=full_matrices), signature, x,
                          dtypes=(x.dtype, _real(x.dtype), x.dtype), sizes={"k": k})  # fmt: skip
        return SVDResult(u, s, vh)

    @translated
    def svdvals(self, x: Any, /) -> Any:
        tall = self._blocked_2d(x) and len(x.chunks[1]) == 1
        blocked = self._dask_blocked(tall, lambda: da.linalg.svd(x)[1])  # (TSQR)
        if blocked is not None:
            return blocked
        x = self._whole(x, "svdvals")
        m, n = self._sizes(x)
        return gufunc(_NP_LINALG.svdvals, "(m,n)->(k)", x, dtypes=_real(x.dtype),
                      sizes={"k": min(m, n)})  # fmt: skip

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        """The sum of the diagonal (small integers widen as in `sum`)."""
        b = self._b
        if x.ndim < 2:
            raise b.error("linalg.trace", f"expected an array of at least 2 dimensions, got "
                          f"shape {b.shape_of(x)}")  # fmt: skip
        offset = b.check_int(offset, "offset", "linalg.trace")
        diagonal = da.diagonal(x, offset=offset, axis1=-2, axis2=-1)
        return b.sum(diagonal, axis=-1, dtype=dtype)


def _real(dtype: Any) -> Any:
    name = str(np.dtype(dtype))
    return np.dtype(REAL_OF_COMPLEX[name]) if name in COMPLEX_FLOATING else np.dtype(dtype)


def _cross_last(x1: Any, x2: Any) -> Any:
    return _NP_LINALG.cross(x1, x2, axis=-1)


def _eig(x: Any) -> tuple[Any, Any]:
    return tuple(_NP_LINALG.eig(x))  # type: ignore[return-value]


def _eigh(x: Any) -> tuple[Any, Any]:
    return tuple(_NP_LINALG.eigh(x))  # type: ignore[return-value]


def _matrix_power(x: Any, n: int) -> Any:
    return _NP_LINALG.matrix_power(x, n)


def _matrix_rank(x: Any, rtol: Any = None) -> Any:
    return _NP_LINALG.matrix_rank(x, rtol=rtol)


def _pinv(x: Any, rtol: Any = None) -> Any:
    return _NP_LINALG.pinv(x, rtol=rtol)


def _qr(x: Any, mode: str) -> tuple[Any, Any]:
    return tuple(_NP_LINALG.qr(x, mode=mode))  # type: ignore[return-value]


def _slogdet(x: Any) -> tuple[Any, Any]:
    return tuple(_NP_LINALG.slogdet(x))  # type: ignore[return-value]


def _svd(x: Any, full_matrices: bool) -> tuple[Any, Any, Any]:
    return tuple(_NP_LINALG.svd(x, full_matrices=full_matrices))  # type: ignore[return-value]


class DaskFFT(NumPyFFT):
    """Each transformed axis becomes one chunk first; ``*freq`` take the namespace's dtypes
    (NumPy's ``_freq``, fed with Dask's frequency functions)."""

    def _along(self, x: Any, axes: Any) -> Any:
        b = self._b
        if axes is None:
            return whole_axes(x, tuple(range(x.ndim)))
        items = axes if isinstance(axes, (tuple, list)) else (axes,)
        return whole_axes(x, tuple(b.normalize_axis(a, x.ndim, "fft") for a in items))

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "fft")
        return self._t.fft(self._along(x, axis), n=n, axis=axis, norm=self._fft_norm(norm, "fft"))

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ifft")
        return self._t.ifft(self._along(x, axis), n=n, axis=axis,
                            norm=self._fft_norm(norm, "ifft"))  # fmt: skip

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        axes = self._fft_axes(s, axes, x, "fftn")
        return self._t.fftn(self._along(x, axes), s=s, axes=axes,
                            norm=self._fft_norm(norm, "fftn"))  # fmt: skip

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        axes = self._fft_axes(s, axes, x, "ifftn")
        return self._t.ifftn(self._along(x, axes), s=s, axes=axes,
                             norm=self._fft_norm(norm, "ifftn"))  # fmt: skip

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "rfft")
        return self._t.rfft(self._along(x, axis), n=n, axis=axis,
                            norm=self._fft_norm(norm, "rfft"))  # fmt: skip

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "irfft")
        return self._t.irfft(self._along(x, axis), n=n, axis=axis,
                             norm=self._fft_norm(norm, "irfft"))  # fmt: skip

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        axes = self._fft_axes(s, axes, x, "rfftn")
        return self._t.rfftn(self._along(x, axes), s=s, axes=axes,
                             norm=self._fft_norm(norm, "rfftn"))  # fmt: skip

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        axes = self._fft_axes(s, axes, x, "irfftn")
        return self._t.irfftn(self._along(x, axes), s=s, axes=axes,
                              norm=self._fft_norm(norm, "irfftn"))  # fmt: skip

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "hfft")
        return self._t.hfft(self._along(x, axis), n=n, axis=axis,
                            norm=self._fft_norm(norm, "hfft"))  # fmt: skip

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ihfft")
        return self._t.ihfft(self._along(x, axis), n=n, axis=axis,
                             norm=self._fft_norm(norm, "ihfft"))  # fmt: skip

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(da.fft.fftfreq, "fftfreq", n, d, dtype, device)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(da.fft.rfftfreq, "rfftfreq", n, d, dtype, device)
