"""``linalg`` on ndonnx, and ``__array_namespace_info__``.

ONNX has ``MatMul`` and the reductions, and no decomposition: ``det``, ``slogdet``,
``inv``, ``solve`` and a negative ``matrix_power`` are composed here of Gauss-Jordan
elimination with partial pivoting, unrolled over the matrix's (known) size: one step of
a few ONNX operators per column, the same on eager and symbolic arrays.  The
decompositions that need an iteration to converge (``eigh``, ``svd``, ``qr``,
``cholesky`` ...) and what is built on them (the 2-norms, ``pinv``, ``matrix_rank``) are
refused with the contract's `NotImplementedError` (`UNHELD`).

``fft`` on ndonnx: every transform gives or takes complex values, which ndonnx cannot
hold, so those are refused with the contract's `NotImplementedError`; the frequency
helpers and the shifts, which are real, are composed of ONNX operators."""

from __future__ import annotations

import math
from typing import Any, NamedTuple, NoReturn

import ndonnx as ndx
import numpy as np
import spox.opset.ai.onnx.v21 as _onnx

from ..._dtypes import REAL_FLOATING
from .._base import FFT, Info, Linalg
from .._base.core import translated
from .._base.functions import accumulation_dtype
from .._base.subnamespaces import SlogdetResult, check_vector_ord
from ._core import constant_var

#: Functions of ``linalg`` ONNX cannot hold, and why (docs/onnx.md).
UNHELD = {
    "cholesky": "ONNX has no Cholesky operator",
    "eigh": "ONNX has no eigendecomposition operator",
    "eigvalsh": "ONNX has no eigendecomposition operator",
    "eig": "ONNX has no eigendecomposition operator, and ndonnx no complex dtype",
    "eigvals": "ONNX has no eigendecomposition operator, and ndonnx no complex dtype",
    "qr": "ONNX has no QR operator",
    "svd": "ONNX has no singular value decomposition operator",
    "svdvals": "ONNX has no singular value decomposition operator",
    "pinv": "it needs a singular value decomposition, which ONNX has no operator for",
    "matrix_rank": "it needs singular values, which ONNX has no operator for",
}


class NdonnxLinalg(Linalg):
    """``linalg`` of ONNX operators (``MatMul``, reductions, gathers)."""

    def _refuse(self, function: str, why: str | None = None) -> NoReturn:
        raise self._b.error(f"linalg.{function}", why or UNHELD[function], NotImplementedError)

    def _unheld(self, function: str, x: Any, square: bool) -> NoReturn:
        """Refuse ``function`` (`UNHELD`), after checking ``x`` as the function would (a
        stack of matrices, square ones where ``square``): an invalid call is the same
        `ValueError` on every backend."""
        b = self._b
        shape = b.shape_of(x)
        if len(shape) < 2:
            raise b.error(f"linalg.{function}", f"expected a stack of matrices (at least 2 "
                          f"dimensions), got shape {shape}")  # fmt: skip
        if square and None not in shape[-2:] and shape[-1] != shape[-2]:
            raise b.error(f"linalg.{function}", f"expected a stack of square matrices, got "
                          f"shape {shape}")  # fmt: skip
        self._refuse(function)

    def _square(self, x: Any, function: str) -> int:
        """The size ``n`` of ``x``'s (known) square matrices, for a floating ``x``."""
        b = self._b
        b.check_array(x, f"linalg.{function}")
        name = b.dtype_name(x.dtype)
        if name not in REAL_FLOATING:
            raise b.error(f"linalg.{function}", f"expected a real floating-point array, got "
                          f"{name}", TypeError)  # fmt: skip
        shape = b.shape_of(x)
        if len(shape) < 2:
            raise b.error(f"linalg.{function}", f"expected a stack of square matrices, got "
                          f"shape {shape}")  # fmt: skip
        rows, cols = shape[-2:]
        if rows is None or cols is None:
            self._refuse(function, f"the matrices of shape {shape} must have a known size (the "
                         "elimination is unrolled over it)")  # fmt: skip
        if rows != cols:
            raise b.error(f"linalg.{function}", f"expected a stack of square matrices, got "
                          f"shape {shape}")  # fmt: skip
        return int(rows)

    @translated
    def cholesky(self, x: Any, /, *, upper: bool = False) -> Any:
        self._unheld("cholesky", x, True)

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """``a x b`` of the 3-vectors along ``axis``, element by element."""
        b = self._b
        s1, s2 = b.shape_of(x1), b.shape_of(x2)
        ndim = max(len(s1), len(s2))
        a = b.normalize_axis(axis, ndim, "linalg.cross") - ndim
        if len(s1) < -a or len(s2) < -a or s1[a] != 3 or s2[a] != 3:
            raise b.error("linalg.cross", f"axis {axis} must have size 3 in both arrays, got "
                          f"shapes {s1} and {s2}")  # fmt: skip
        dtype = b.result_type(x1, x2)
        return b.fuse(f"linalg.cross{a}", lambda p, q: _cross(p, q, a, dtype), x1, x2)

    @translated
    def det(self, x: Any, /) -> Any:
        """The product of the pivots (`_eliminate`) times their permutation's sign."""
        n = self._square(x, "det")
        if n == 0:
            return ndx.ones_like(ndx.sum(x, axis=(-2, -1)))

        def det(a: Any) -> Any:
            pivots, parity, _ = _eliminate(a, None, n)
            return parity * ndx.prod(pivots, axis=-1)

        return self._b.fuse("linalg.det", det, x)

    @translated
    def slogdet(self, x: Any, /) -> SlogdetResult:
        """The sum of the pivots' log magnitudes (no overflow of their product)."""
        n = self._square(x, "slogdet")
        if n == 0:
            ones = ndx.ones_like(ndx.sum(x, axis=(-2, -1)))
            return SlogdetResult(ones, ones - 1)

        def slogdet(a: Any) -> tuple[Any, Any]:
            pivots, parity, _ = _eliminate(a, None, n)
            return (parity * ndx.prod(ndx.sign(pivots), axis=-1),
                    ndx.sum(ndx.log(ndx.abs(pivots)), axis=-1))  # fmt: skip

        return SlogdetResult(*self._b.fuse("linalg.slogdet", slogdet, x))

    @translated
    def inv(self, x: Any, /) -> Any:
        """Gauss-Jordan on ``[x | I]``; a singular matrix gives infinities or NaN."""
        n = self._square(x, "inv")
        if n == 0:
            return ndx.asarray(x, copy=True)
        return self._b.fuse("linalg.inv", lambda a: _eliminate(a, "identity", n).solution, x)

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        """Gauss-Jordan on ``[x1 | x2]``; ``x2`` of shape ``(n,)`` is one vector."""
        b = self._b
        n = self._square(x1, "solve")
        dtype = b.result_type(x1, x2)
        x1, x2 = ndx.astype(x1, dtype), ndx.astype(x2, dtype)
        vector = len(b.shape_of(x2)) == 1
        rhs = ndx.expand_dims(x2, axis=-1) if vector else x2
        if b.shape_of(rhs)[-2] != n:
            raise b.error("linalg.solve", f"x2 of shape {b.shape_of(x2)} does not match x1 of "
                          f"shape {b.shape_of(x1)}")  # fmt: skip
        batch = b.broadcast_shapes(b.shape_of(x1)[:-2], b.shape_of(rhs)[:-2])
        x1 = ndx.broadcast_to(x1, (*batch, n, n))
        rhs = ndx.broadcast_to(rhs, (*batch, n, b.shape_of(rhs)[-1]))
        if n == 0:
            solution = ndx.asarray(rhs, copy=True)
        else:
            solution = self._b.fuse("linalg.solve", lambda a, r: _eliminate(a, r, n).solution,
                                    x1, rhs)  # fmt: skip
        return solution[..., 0] if vector else solution

    @translated
    def diagonal(self, x: Any, /, *, offset: int = 0) -> Any:
        """The entries ``x[..., i, i + offset]``, gathered from the flattened matrices."""
        b = self._b
        offset = b.check_int(offset, "offset", "linalg.diagonal")
        shape = b.shape_of(x)
        if len(shape) < 2:
            raise b.error("linalg.diagonal", f"expected an array of at least 2 dimensions, got "
                          f"shape {shape}")  # fmt: skip
        rows, cols = shape[-2:]
        if rows is None or cols is None:
            self._refuse("diagonal", f"the matrices of shape {shape} must have a known size")
        start_row, start_col = (0, offset) if offset >= 0 else (-offset, 0)
        count = max(0, min(rows - start_row, cols - start_col))
        flat = ndx.reshape(x, (*shape[:-2], rows * cols)) if None not in shape[:-2] else \
            ndx.reshape(x, (-1, rows * cols))  # fmt: skip
        positions = [(start_row + i) * cols + start_col + i for i in range(count)]
        taken = ndx.take(flat, ndx.asarray(positions, dtype=ndx.int64), axis=-1)
        if None in shape[:-2]:
            return ndx.reshape(taken, (*[-1 if s is None else s for s in shape[:-2]], count))
        return taken

    @translated
    def eig(self, x: Any, /) -> Any:
        self._unheld("eig", x, True)

    @translated
    def eigvals(self, x: Any, /) -> Any:
        self._unheld("eigvals", x, True)

    @translated
    def eigh(self, x: Any, /) -> Any:
        self._unheld("eigh", x, True)

    @translated
    def eigvalsh(self, x: Any, /) -> Any:
        self._unheld("eigvalsh", x, True)

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        """Frobenius and the 1- and infinity norms (sums of magnitudes); the 2-norms and
        the nuclear norm need singular values (refused)."""
        b = self._b
        if not any(ord == o and type(ord) is not bool
                   for o in (1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc")):  # fmt: skip
            raise b.error("linalg.matrix_norm", f"ord must be one of 1, -1, 2, -2, inf, -inf, "
                          f"'fro', 'nuc'; got {ord!r}")  # fmt: skip
        if len(b.shape_of(x)) < 2:
            raise b.error("linalg.matrix_norm", f"expected an array of at least 2 dimensions, "
                          f"got shape {b.shape_of(x)}")  # fmt: skip
        if ord in (2, -2, "nuc"):
            self._refuse("matrix_norm", f"ord={ord!r} needs singular values, which ONNX has "
                         "no operator for")  # fmt: skip
        magnitude = ndx.abs(x)
        if ord == "fro":
            result = ndx.sqrt(ndx.sum(magnitude * magnitude, axis=(-2, -1), keepdims=True))
        else:
            summed_axis = -2 if ord in (1, -1) else -1
            sums = ndx.sum(magnitude, axis=summed_axis, keepdims=True)
            pick = ndx.max if ord in (1, math.inf) else ndx.min
            result = pick(sums, axis=-1 if summed_axis == -2 else -2, keepdims=True)
        return result if keepdims else ndx.squeeze(result, axis=(-2, -1))

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        """Repeated squaring; a negative ``n`` of the inverse (`inv`)."""
        b = self._b
        n = b.check_int(n, "n", "linalg.matrix_power")
        size = self._square(x, "matrix_power") if n < 0 else _known_square(b, x)
        base = self.inv(x) if n < 0 else x
        result = None
        power = abs(n)
        while power:
            if power & 1:
                result = base if result is None else ndx.matmul(result, base)
            power >>= 1
            if power:
                base = ndx.matmul(base, base)
        if result is None:
            return ndx.eye(size, dtype=x.dtype) + ndx.zeros_like(x)
        return result

    @translated
    def matrix_rank(self, x: Any, /, *, rtol: Any = None) -> Any:
        self._unheld("matrix_rank", x, False)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        b = self._b
        if len(b.shape_of(x1)) != 1 or len(b.shape_of(x2)) != 1:
            raise b.error("linalg.outer", f"expected 1-d arrays, got shapes {b.shape_of(x1)} and "
                          f"{b.shape_of(x2)}")  # fmt: skip
        return b.multiply(ndx.expand_dims(x1, axis=-1), ndx.expand_dims(x2, axis=0))

    @translated
    def pinv(self, x: Any, /, *, rtol: Any = None) -> Any:
        self._unheld("pinv", x, False)

    @translated
    def qr(self, x: Any, /, *, mode: str = "reduced") -> Any:
        if mode not in ("reduced", "complete"):
            raise self._b.error("linalg.qr", f"mode must be 'reduced' or 'complete', got "
                                f"{mode!r}")  # fmt: skip
        self._unheld("qr", x, False)

    @translated
    def svd(self, x: Any, /, *, full_matrices: bool = True) -> Any:
        self._unheld("svd", x, False)

    @translated
    def svdvals(self, x: Any, /) -> Any:
        self._unheld("svdvals", x, False)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        b = self._b
        return b.sum(self.diagonal(x, offset=offset), axis=-1,
                     dtype=accumulation_dtype(b, x, dtype, "linalg.trace"))  # fmt: skip

    @translated
    def vector_norm(
        self, x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2
    ) -> Any:
        """Sums and extremes of magnitudes (``ord`` 0 counts the nonzero entries)."""
        b = self._b
        ndim = len(b.shape_of(x))
        axes = b.normalize_axes(axis, ndim, "linalg.vector_norm")
        check_vector_ord(b, ord)
        if b.dtype_name(x.dtype) not in REAL_FLOATING:
            raise b.error("linalg.vector_norm", f"expected a real floating-point array, got "
                          f"{b.dtype_name(x.dtype)}", TypeError)  # fmt: skip
        if ndim == 0:
            magnitude = ndx.abs(ndx.reshape(x, (1,)))
            axes, squeeze = (0,), True
        else:
            magnitude, squeeze = ndx.abs(x), False
        if ord == math.inf:
            result = ndx.max(magnitude, axis=axes, keepdims=True)
        elif ord == -math.inf:
            result = ndx.min(magnitude, axis=axes, keepdims=True)
        elif ord == 0:
            result = ndx.sum(ndx.astype(magnitude != 0, x.dtype), axis=axes, keepdims=True)
        elif ord == 1:
            result = ndx.sum(magnitude, axis=axes, keepdims=True)
        elif ord == 2:
            result = ndx.sqrt(ndx.sum(magnitude * magnitude, axis=axes, keepdims=True))
        else:
            p = ndx.asarray(float(ord), dtype=x.dtype)
            result = ndx.sum(magnitude ** p, axis=axes, keepdims=True) ** (1 / p)
        if squeeze:
            return ndx.reshape(result, ())
        if keepdims:
            return result
        return ndx.squeeze(result, axis=axes) if axes else result


def _cross(x1: Any, x2: Any, a: int, dtype: Any) -> Any:
    """`NdonnxLinalg.cross`'s graph: the 3-vectors along axis ``a`` (negative)."""
    u = ndx.moveaxis(ndx.astype(x1, dtype), a, -1)
    v = ndx.moveaxis(ndx.astype(x2, dtype), a, -1)
    u0, u1, u2 = u[..., 0], u[..., 1], u[..., 2]
    v0, v1, v2 = v[..., 0], v[..., 1], v[..., 2]
    result = ndx.stack([u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0], axis=-1)
    return ndx.moveaxis(result, -1, a)


def _known_square(b: Any, x: Any) -> int:
    shape = b.shape_of(x)
    if len(shape) < 2 or shape[-1] != shape[-2] or shape[-1] is None:
        raise b.error("linalg.matrix_power", f"expected a stack of square matrices of a known "
                      f"size, got shape {shape}")  # fmt: skip
    return int(shape[-1])


class _Elimination(NamedTuple):
    pivots: Any  #: (..., n): the pivot of each column, in the order eliminated
    parity: Any  #: (...): the sign of the pivot rows' permutation, 1 or -1
    solution: Any  #: (..., n, k): ``a^-1 rhs``, or None


def _eliminate(a: Any, rhs: Any, n: int) -> _Elimination:
    """Gauss-Jordan elimination with partial pivoting of the ``n`` x ``n`` matrices ``a``
    (augmented by ``rhs``: an array, ``"identity"``, or None), unrolled over the ``n``
    columns, written in ONNX operators directly (some 16 per column, where ndonnx's
    indexing and ``where`` would build hundreds).

    Rows are not swapped: column ``k`` takes as pivot the largest magnitude among the
    rows not used yet (``ArgMax``), and that row, picked by a one-hot ``MatMul``, clears
    column ``k`` from every other row.  The determinant is then the product of the
    pivots times the sign of the permutation of pivot rows.  A zero pivot (a singular
    matrix) gives a zero determinant; without ``rhs`` the elimination goes on dividing
    by 1 there, so nothing becomes NaN; the solution's entries divided by it are
    infinite or NaN, as LAPACK's are."""
    dtype = a.dtype.unwrap_numpy()

    def const(value: Any, kind: Any = dtype) -> Any:
        return constant_var(value, kind)

    m = a.unwrap_spox()
    if isinstance(rhs, str):  # the identity, one per matrix of a
        m = _onnx.concat([m, _onnx.expand(const(np.eye(n)), _onnx.shape(m))], axis=-1)
    elif rhs is not None:
        m = _onnx.concat([m, rhs.unwrap_spox()], axis=-1)
    rows = const(np.arange(n), np.int64)
    one, last, second = const(1.0), const([-1], np.int64), const([-2], np.int64)
    used = const(np.zeros(n, dtype=bool), bool)
    pivots, chosen = [], []
    for k in range(n):
        index = const(k, np.int64)
        column = _onnx.gather(m, index, axis=-1)  # (..., n)
        candidates = _onnx.where(used, const(-1.0), _onnx.abs(column))
        p = _onnx.arg_max(candidates, axis=-1, keepdims=1)  # (..., 1)
        picked = _onnx.equal(p, rows)  # (..., n): the pivot row
        e = _onnx.cast(picked, to=dtype)
        row = _onnx.matmul(_onnx.unsqueeze(e, second), m)  # (..., 1, width)
        pivot = _onnx.gather(row, index, axis=-1)  # (..., 1)
        divisor = pivot if rhs is not None else \
            _onnx.where(_onnx.equal(pivot, const(0.0)), one, pivot)  # fmt: skip
        factors = _onnx.div(_onnx.mul(column, _onnx.sub(one, e)), divisor)
        m = _onnx.sub(m, _onnx.mul(_onnx.unsqueeze(factors, last), row))
        used = _onnx.or_(used, picked)
        pivots.append(pivot)
        chosen.append(p)
    order = _onnx.concat(chosen, axis=-1)  # (..., n): the pivot row of each column
    # the permutation's sign: the product of sign(order[j] - order[i]) over i < j
    gaps = _onnx.sub(_onnx.unsqueeze(order, second), _onnx.unsqueeze(order, last))
    signs = _onnx.where(const(np.triu(np.ones((n, n), dtype=bool), 1), bool),
                        _onnx.sign(_onnx.cast(gaps, to=dtype)), one)  # fmt: skip
    parity = _onnx.reduce_prod(signs, const([-2, -1], np.int64), keepdims=0)
    solution = None
    if rhs is not None:  # row order[k] holds pivot_k times the solution's row k
        picks = _onnx.cast(_onnx.equal(_onnx.unsqueeze(order, last), rows), to=dtype)
        width = _onnx.slice(m, const([n], np.int64), const([np.iinfo(np.int64).max], np.int64),
                            last)  # fmt: skip
        stacked = _onnx.concat(pivots, axis=-1)
        solution = ndx.asarray(_onnx.div(_onnx.matmul(picks, width),
                                         _onnx.unsqueeze(stacked, last)))  # fmt: skip
    return _Elimination(ndx.asarray(_onnx.concat(pivots, axis=-1)), ndx.asarray(parity),
                        solution)  # fmt: skip


class NdonnxInfo(Info):
    """``dtypes()`` without ``kind`` (ndonnx's own requires it); devices: the cpu.
    ``default_dtypes()`` keeps the standard's four keys: its ``complex floating`` is the
    absent ``complex128`` (`core.AbsentDtype`), which no function takes."""

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": None}  # fmt: skip


__all__ = ["UNHELD", "NdonnxInfo", "NdonnxLinalg"]


#: Why the transforms are refused.
WHY = ("its result (or input) is complex, and ndonnx has no complex dtype: ONNX's DFT "
       "operator gives real and imaginary parts as a trailing axis of two, which no "
       "array of the standard is")  # fmt: skip


class NdonnxFFT(FFT):
    """Real ``fft`` functions; the transforms refused (`WHY`) once their arguments are
    checked (an invalid call is the same `ValueError` on every backend)."""

    def _refuse(self, function: str) -> NoReturn:
        raise self._b.error(f"fft.{function}", WHY, NotImplementedError)

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "fft")
        self._fft_norm(norm, "fft")
        self._refuse("fft")

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ifft")
        self._fft_norm(norm, "ifft")
        self._refuse("ifft")

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._fft_axes(s, axes, x, "fftn")
        self._fft_norm(norm, "fftn")
        self._refuse("fftn")

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._fft_axes(s, axes, x, "ifftn")
        self._fft_norm(norm, "ifftn")
        self._refuse("ifftn")

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "rfft")
        self._fft_norm(norm, "rfft")
        self._refuse("rfft")

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "irfft")
        self._fft_norm(norm, "irfft")
        self._refuse("irfft")

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._fft_axes(s, axes, x, "rfftn")
        self._fft_norm(norm, "rfftn")
        self._refuse("rfftn")

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._fft_axes(s, axes, x, "irfftn")
        self._fft_norm(norm, "irfftn")
        self._refuse("irfftn")

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "hfft")
        self._fft_norm(norm, "hfft")
        self._refuse("hfft")

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ihfft")
        self._fft_norm(norm, "ihfft")
        self._refuse("ihfft")

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        """``[0, 1, ..., n//2 - 1 + n%2, -(n//2), ..., -1] / (d * n)``."""
        n = self._freq_length(n, "fftfreq")
        dtype = self._freq_dtype(dtype, "fftfreq")
        if device is not None:
            self._b.native_device(device, "fft.fftfreq")
        positive = (n - 1) // 2 + 1
        k = ndx.concat([ndx.arange(0, positive, dtype=ndx.int64),
                        ndx.arange(-(n // 2), 0, dtype=ndx.int64)])  # fmt: skip
        return ndx.astype(k, dtype) / ndx.asarray(d * n, dtype=dtype)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        """``[0, 1, ..., n//2] / (d * n)``."""
        n = self._freq_length(n, "rfftfreq")
        dtype = self._freq_dtype(dtype, "rfftfreq")
        if device is not None:
            self._b.native_device(device, "fft.rfftfreq")
        k = ndx.arange(0, n // 2 + 1, dtype=ndx.int64)
        return ndx.astype(k, dtype) / ndx.asarray(d * n, dtype=dtype)

    @translated
    def fftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift(x, axes, "fftshift", 1)

    @translated
    def ifftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift(x, axes, "ifftshift", -1)

    def _shift(self, x: Any, axes: Any, function: str, sign: int) -> Any:
        """A roll by half of each axis's length (``n // 2``; back for ``ifftshift``)."""
        self._fft_axes(None, axes, x, function)
        b = self._b
        shape = b.shape_of(x)
        ndim = len(shape)
        chosen = b.normalize_axes(axes, ndim, f"fft.{function}")
        if any(shape[a] is None for a in chosen):
            raise b.error(f"fft.{function}", f"axes {chosen} of shape {shape} must have known "
                          "sizes (a dimension that depends on values is unknown)",
                          NotImplementedError)  # fmt: skip
        shifts = tuple(sign * (shape[a] // 2) for a in chosen)
        if not chosen:
            return x
        return b.roll(x, shifts, axis=chosen)
