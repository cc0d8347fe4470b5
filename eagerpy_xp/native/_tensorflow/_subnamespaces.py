"""The ``linalg`` and ``fft`` extensions on TensorFlow.

``fft``: any axis, ``n``/``s`` padding, and all norms.  ``tf.signal`` transforms the
innermost axis only and normalises inverse transforms itself; here every transform moves
the axis, resizes it and rescales for ``norm``.  Each transform takes the standard's dtypes
only: complex input for ``fft``, ``ifft``, ``fftn``, ``ifftn``, ``irfft``, ``irfftn``,
``hfft``; real floating input for ``rfft``, ``rfftn``, ``ihfft``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from ..._dtypes import COMPLEX_OF_REAL
from .._base import FFT, Linalg
from .._base.arguments import positive
from .._base.core import translated
from .._base.subnamespaces import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from ._core import FLOAT_KINDS, TFBase
from ._ranks import select

#: Why `refuse_under_xla` refuses det, slogdet, eig and eigvals.
_NO_XLA_KERNEL = "TensorFlow's XLA compiler for the CPU has no kernel for it"


_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


class TFLinalg(Linalg):
    """``linalg`` written on ``tf.linalg`` with the standard's batching and options."""

    _b: TFBase

    def __init__(self, backend: Any) -> None:
        self._b = backend

    def _matrix(self, x: Any, function: str) -> Any:
        x = self._b.floating(x, f"linalg.{function}")
        if self._b.ndim(x) < 2:
            raise self._b.error(f"linalg.{function}", "expected at least 2 dimensions")
        return x

    def _square(self, x: Any, function: str) -> Any:
        x = self._matrix(x, function)
        m, n = x.shape[-2], x.shape[-1]
        if m is not None and n is not None and m != n:
            raise self._b.error(f"linalg.{function}", f"expected square matrices, got "
                                f"{tuple(x.shape)}")  # fmt: skip
        return x

    def _wide(self, x: Any, function: str) -> tuple[Any, Any]:
        """A matrix in double precision for the decompositions, and its own dtype.

        TensorFlow's single-precision eigh/qr/svd are markedly less accurate than LAPACK's;
        computing in double and rounding back gives correctly rounded results.
        """
        x = self._matrix(x, function)
        wide = {tf.float32: tf.float64, tf.complex64: tf.complex128}.get(x.dtype, x.dtype)
        return tf.cast(x, wide), x.dtype

    def _narrow(self, result: Any, dtype: Any) -> Any:
        target = dtype.real_dtype if not result.dtype.is_complex else dtype
        return tf.cast(result, target)

    def _h(self, x: Any) -> Any:
        """The conjugate transpose of a stack of matrices."""
        return tf.linalg.adjoint(x)

    @translated
    def cholesky(self, x: Any, /, *, upper: bool = False) -> Any:
        low = tf.linalg.cholesky(self._square(x, "cholesky"))
        return self._h(low) if upper else low

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        b = self._b
        b.check_arrays("linalg.cross", x1, x2)
        (a, c), _ = b.operands("linalg.cross", x1, x2)
        a, c = b.broadcast_arrays(a, c)
        ax = b.normalize_axis(axis, b.ndim(a), "linalg.cross")
        if a.shape[ax] is not None and a.shape[ax] != 3:
            raise b.error("linalg.cross", f"axis {axis} must have size 3, got {a.shape[ax]}")
        a0, a1, a2 = tf.unstack(a, 3, axis=ax)
        c0, c1, c2 = tf.unstack(c, 3, axis=ax)
        return tf.stack([a1 * c2 - a2 * c1, a2 * c0 - a0 * c2, a0 * c1 - a1 * c0], axis=ax)

    @translated
    def det(self, x: Any, /) -> Any:
        self._b.refuse_under_xla("linalg.det", _NO_XLA_KERNEL)
        return tf.linalg.det(self._square(x, "det"))

    @translated
    def diagonal(self, x: Any, /, *, offset: int = 0) -> Any:
        b = self._b
        x = b.tensor(x, "linalg.diagonal")
        if b.ndim(x) < 2:
            raise b.error("linalg.diagonal", "expected at least 2 dimensions")
        start_r, start_c = max(-offset, 0), max(offset, 0)
        static = tuple(x.shape)
        if None not in static and 0 in static[:-2]:  # gather_nd refuses empty params
            size = max(min(static[-2] - start_r, static[-1] - start_c), 0)
            return tf.zeros((*static[:-2], size), x.dtype)
        shape = tf.shape(x, out_type=tf.int64)
        rows, cols = shape[-2], shape[-1]
        length = tf.maximum(tf.minimum(rows - start_r, cols - start_c), 0)
        i = tf.range(length)
        index = tf.stack([i + start_r, i + start_c], axis=-1)
        moved = tf.transpose(x, [b.ndim(x) - 2, b.ndim(x) - 1, *range(b.ndim(x) - 2)])
        picked = tf.gather_nd(moved, index)
        return tf.transpose(picked, [*range(1, b.ndim(x) - 1), 0])

    def _eig(self, x: Any, function: str, vectors: bool) -> tuple[Any, Any]:
        """``tf.linalg.eig`` (or ``eigvals``) in double precision, rounded to the complex
        dtype of ``x``'s precision; floating-point input only, as the standard says."""
        b = self._b
        b.refuse_under_xla(f"linalg.{function}", _NO_XLA_KERNEL)
        x = b.tensor(x, f"linalg.{function}")
        name = b.check_kind(x, f"linalg.{function}", FLOAT_KINDS, "a floating-point")
        self._square(x, function)
        target = b.tfd(COMPLEX_OF_REAL.get(name, name))
        wide = tf.cast(x, tf.complex128 if x.dtype.is_complex else tf.float64)
        if vectors:
            values, vecs = tf.linalg.eig(wide)
            return tf.cast(values, target), tf.cast(vecs, target)
        return tf.cast(tf.linalg.eigvals(wide), target), None

    @translated
    def eig(self, x: Any, /) -> EigResult:
        return EigResult(*self._eig(x, "eig", vectors=True))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        return self._eig(x, "eigvals", vectors=False)[0]

    @translated
    def eigh(self, x: Any, /) -> EighResult:
        wide, dtype = self._wide(self._square(x, "eigh"), "eigh")
        values, vectors = tf.linalg.eigh(wide)
        return EighResult(self._narrow(tf.math.real(values), dtype), self._narrow(vectors, dtype))

    @translated
    def eigvalsh(self, x: Any, /) -> Any:
        wide, dtype = self._wide(self._square(x, "eigvalsh"), "eigvalsh")
        return self._narrow(tf.math.real(tf.linalg.eigvalsh(wide)), dtype)

    @translated
    def inv(self, x: Any, /) -> Any:
        return tf.linalg.inv(self._square(x, "inv"))

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        if ord not in _MATRIX_ORDS:
            raise self._b.error("linalg.matrix_norm", f"unsupported ord {ord!r}")
        x = self._matrix(x, "matrix_norm")
        mag = tf.math.abs(x)
        if ord == "fro":
            result = tf.sqrt(tf.reduce_sum(mag * mag, axis=[-2, -1]))
        elif ord in ("nuc", 2, -2):
            s = self.svdvals(x)
            result = tf.reduce_sum(s, -1) if ord == "nuc" else \
                tf.reduce_max(s, -1) if ord == 2 else tf.reduce_min(s, -1)  # fmt: skip
        else:
            inner = -2 if ord in (1, -1) else -1
            sums = tf.reduce_sum(mag, axis=inner)
            result = tf.reduce_max(sums, -1) if ord > 0 else tf.reduce_min(sums, -1)
        return self._b.keep(result, [self._b.ndim(x) - 2, self._b.ndim(x) - 1], keepdims)

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        b = self._b
        x = b.tensor(x, "linalg.matrix_power")
        if not isinstance(n, int):
            raise b.error("linalg.matrix_power", f"n must be an int, got {n!r}", TypeError)
        if n < 0:
            x, n = self.inv(x), -n
        shape = tf.shape(x)
        result = tf.broadcast_to(
            tf.eye(shape[-1], dtype=x.dtype)
            if x.dtype != tf.uint16
            else tf.cast(tf.eye(shape[-1], dtype=tf.int32), x.dtype),
            shape,
        )
        square = x
        while n:
            if n & 1:
                result = b.matmul(result, square)
            n >>= 1
            if n:
                square = b.matmul(square, square)
        return result

    def _tolerance(self, s: Any, x: Any, rtol: Any) -> Any:
        """``rtol`` times the largest singular value (default ``max(M, N) * eps``)."""
        real = s.dtype
        if rtol is None:
            m, n = tf.shape(x)[-2], tf.shape(x)[-1]
            rtol = tf.cast(tf.maximum(m, n), real) * np.finfo(real.as_numpy_dtype).eps
        elif isinstance(rtol, (int, float)):
            rtol = tf.constant(rtol, real)
        else:
            rtol = tf.cast(self._b.tensor(rtol, "linalg"), real)[..., None]
        return rtol * tf.reduce_max(s, axis=-1, keepdims=True)

    @translated
    def matrix_rank(self, x: Any, /, *, rtol: Any = None) -> Any:
        x = self._matrix(x, "matrix_rank")
        s = self.svdvals(x)
        return tf.reduce_sum(tf.cast(s > self._tolerance(s, x, rtol), tf.int64), axis=-1)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        b = self._b
        b.check_arrays("linalg.outer", x1, x2)
        (a, c), _ = b.operands("linalg.outer", x1, x2)
        if b.ndim(a) != 1 or b.ndim(c) != 1:
            raise b.error("linalg.outer", "expected 1-d arrays")
        return tf.math.multiply(a[:, None], c[None, :])

    @translated
    def pinv(self, x: Any, /, *, rtol: Any = None) -> Any:
        x = self._matrix(x, "pinv")
        s, u, v = tf.linalg.svd(x, full_matrices=False)
        keep = s > self._tolerance(s, x, rtol)
        inverse = select(keep, 1 / select(keep, s, tf.ones_like(s)), tf.zeros_like(s))
        return tf.linalg.matmul(v * tf.cast(inverse, x.dtype)[..., None, :], self._h(u))

    @translated
    def qr(self, x: Any, /, *, mode: str = "reduced") -> QRResult:
        if mode not in ("reduced", "complete"):
            raise self._b.error("linalg.qr", f"mode must be 'reduced' or 'complete', got {mode!r}")
        wide, dtype = self._wide(x, "qr")
        # TensorFlow's Householder QR squares the entries unscaled: a column whose squares
        # pass float64's range (entries near 1.3e154) gave inf/NaN.  QR is homogeneous
        # (qr(c A) = Q, c R for c > 0): each matrix is divided by the power of two nearest
        # below its largest magnitude, which is exact, and R multiplied back.
        largest = tf.reduce_max(tf.abs(wide), axis=[-2, -1], keepdims=True)
        usable = tf.math.is_finite(largest) & (largest > 0)
        power = tf.where(usable, tf.math.pow(tf.constant(2.0, largest.dtype),
                                             tf.math.floor(tf.math.log(tf.where(usable, largest, 1.0))
                                                           / math.log(2.0))), 1.0)  # fmt: skip
        q, r = tf.linalg.qr(wide / tf.cast(power, wide.dtype), full_matrices=mode == "complete")
        return QRResult(self._narrow(q, dtype), self._narrow(r * tf.cast(power, r.dtype), dtype))

    @translated
    def slogdet(self, x: Any, /) -> SlogdetResult:
        """A singular matrix gives sign 0 and logabsdet -inf."""
        self._b.refuse_under_xla("linalg.slogdet", _NO_XLA_KERNEL)
        x = self._square(x, "slogdet")
        sign, logabs = tf.linalg.slogdet(x)
        logabs = tf.math.real(logabs)
        singular = tf.equal(sign, 0) | tf.math.is_inf(logabs)
        sign = select(singular, tf.zeros_like(sign), sign)
        return SlogdetResult(sign, select(singular, tf.constant(-math.inf, logabs.dtype),
                                            logabs))  # fmt: skip

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        """``x2`` is a vector only when it is 1-d (the 2025.12 rule)."""
        b = self._b
        b.check_arrays("linalg.solve", x1, x2)
        (a, c), _ = b.operands("linalg.solve", x1, x2)
        a = self._square(a, "solve")
        if c.dtype != a.dtype:
            c = tf.cast(c, a.dtype)
        vector = b.ndim(c) == 1
        if vector:
            c = c[:, None]
        rows, needed = c.shape[-2], a.shape[-1]
        if rows is not None and needed is not None and rows != needed:
            raise b.error("linalg.solve", f"x2 of shape {tuple(x2.shape)} does not fit x1 of "
                          f"shape {tuple(x1.shape)}")  # fmt: skip
        batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(c)[:-2])
        a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
        c = tf.broadcast_to(c, tf.concat([batch, tf.shape(c)[-2:]], 0))
        result = tf.linalg.solve(a, c)
        return result[..., 0] if vector else result

    @translated
    def svd(self, x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        wide, dtype = self._wide(x, "svd")
        s, u, v = tf.linalg.svd(wide, full_matrices=full_matrices)
        return SVDResult(self._narrow(u, dtype), self._narrow(s, dtype),
                         self._narrow(self._h(v), dtype))  # fmt: skip

    @translated
    def svdvals(self, x: Any, /) -> Any:
        wide, dtype = self._wide(x, "svdvals")
        return self._narrow(tf.linalg.svd(wide, compute_uv=False), dtype)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        return self._b.sum(self.diagonal(x, offset=offset), axis=-1, dtype=dtype)

    @translated
    def vector_norm(self, x: Any, /, *, axis: Any = None, keepdims: bool = False,
                    ord: Any = 2) -> Any:  # fmt: skip
        b = self._b
        x = b.floating(x, "linalg.vector_norm")
        axes = b.axes(axis, b.ndim(x), "linalg.vector_norm")
        mag = tf.math.abs(x)
        if ord == math.inf:
            result = tf.reduce_max(mag, axis=axes)
        elif ord == -math.inf:
            result = tf.reduce_min(mag, axis=axes)
        elif ord == 0:
            result = tf.reduce_sum(tf.cast(tf.not_equal(mag, 0), mag.dtype), axis=axes)
        elif ord == 1:
            result = tf.reduce_sum(mag, axis=axes)
        elif ord == 2:
            result = tf.sqrt(tf.reduce_sum(mag * mag, axis=axes))
        elif isinstance(ord, (int, float)):
            result = tf.pow(tf.reduce_sum(tf.pow(mag, ord), axis=axes), 1 / ord)
        else:
            raise b.error("linalg.vector_norm", f"unsupported ord {ord!r}")
        return b.keep(result, axes, keepdims)


_NORMS = ("backward", "ortho", "forward")


_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


class TFFFT(FFT):
    """``fft`` written on ``tf.signal``."""

    _b: TFBase

    def __init__(self, backend: Any) -> None:
        self._b = backend

    def _complex(self, x: Any, function: str) -> Any:
        x = self._b.tensor(x, f"fft.{function}")
        if x.dtype.is_complex:
            return x
        return tf.cast(x, tf.complex64 if x.dtype == tf.float32 else tf.complex128)

    def _real(self, x: Any, function: str) -> Any:
        x = self._b.floating(x, f"fft.{function}", complex_ok=False)
        return x

    def _resize(self, x: Any, n: int) -> Any:
        """``x`` cut or zero-padded to ``n`` along the last axis."""
        x = x[..., :n]
        missing = tf.maximum(n - tf.shape(x)[-1], 0)
        paddings = tf.concat([tf.zeros([self._b.ndim(x) - 1, 2], tf.int32),
                              tf.stack([0, missing])[None]], 0)  # fmt: skip
        return tf.pad(x, paddings)

    def _one(self, function: str, x: Any, n: int | None, axis: int, norm: str,
             inverse: bool, transform: Callable[[Any, int], Any], n_in: Callable[[int], int],
             default_n: Callable[[Any], int]) -> Any:  # fmt: skip
        """A 1-d transform along ``axis``: move, resize, transform, rescale, move back."""
        b = self._b
        if norm not in _NORMS:
            raise b.error(f"fft.{function}", f"norm must be one of {_NORMS}, got {norm!r}")
        a = b.normalize_axis(axis, b.ndim(x), f"fft.{function}")
        moved, undo = b.move_to_last(x, a)
        size = n if n is not None else default_n(moved)
        if size < 1:
            raise b.error(f"fft.{function}", f"n must be positive, got {size}")
        result = transform(self._resize(moved, n_in(size)), size)
        # tf.signal: forward transforms unscaled, inverse ones scaled by 1/n
        scale = {"backward": 1.0, "ortho": 1 / math.sqrt(size), "forward": 1 / size}[norm]
        if inverse:
            scale = {"backward": 1.0, "ortho": math.sqrt(size), "forward": float(size)}[norm]
        if scale != 1.0:
            result = result * tf.constant(scale, result.dtype)
        return b.undo_move(result, undo)

    def _length(self, x: Any) -> int:
        n = x.shape[-1]
        if n is None:
            raise self._b.error("fft", "the transformed axis needs a static length (or pass n)")
        return int(n)

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
            norm: str = "backward") -> Any:  # fmt: skip
        return self._one("fft", self._complex(x, "fft"), n, axis, norm, False,
                         lambda v, _: tf.signal.fft(v), lambda s: s, self._length)  # fmt: skip

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
             norm: str = "backward") -> Any:  # fmt: skip
        return self._one("ifft", self._complex(x, "ifft"), n, axis, norm, True,
                         lambda v, _: tf.signal.ifft(v), lambda s: s, self._length)  # fmt: skip

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
             norm: str = "backward") -> Any:  # fmt: skip
        def transform(v: Any, size: int) -> Any:
            out = tf.complex64 if v.dtype == tf.float32 else tf.complex128
            return tf.raw_ops.RFFT(input=v, fft_length=[size], Tcomplex=out)

        return self._one("rfft", self._real(x, "rfft"), n, axis, norm, False, transform,
                         lambda s: s, self._length)  # fmt: skip

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
              norm: str = "backward") -> Any:  # fmt: skip
        def transform(v: Any, size: int) -> Any:
            out = tf.float32 if v.dtype == tf.complex64 else tf.float64
            return tf.raw_ops.IRFFT(input=v, fft_length=[size], Treal=out)

        return self._one("irfft", self._complex(x, "irfft"), n, axis, norm, True, transform,
                         lambda s: s // 2 + 1, lambda v: 2 * (self._length(v) - 1))  # fmt: skip

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
             norm: str = "backward") -> Any:  # fmt: skip
        self._check_norm("hfft", norm)
        return self.irfft(tf.math.conj(self._complex(x, "hfft")), n=n, axis=axis,
                          norm=_SWAP[norm])  # fmt: skip

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1,
              norm: str = "backward") -> Any:  # fmt: skip
        self._check_norm("ihfft", norm)
        return tf.math.conj(self.rfft(x, n=n, axis=axis, norm=_SWAP[norm]))

    def _check_norm(self, function: str, norm: str) -> None:
        if norm not in _NORMS:
            raise self._b.error(f"fft.{function}", f"norm must be one of {_NORMS}, got {norm!r}")

    def _plan(self, function: str, x: Any, s: Any, axes: Any) -> tuple[list[int], list[Any]]:
        """Normalised axes and per-axis lengths (None: the input's own)."""
        b = self._b
        nd = b.ndim(x)
        if axes is None and s is not None and len(s) > nd:
            raise b.error(f"fft.{function}", f"s {tuple(s)} has more entries than the "
                          f"{nd} dimensions of the array")  # fmt: skip
        if axes is None:
            axes = list(range(nd)) if s is None else list(range(nd - len(s), nd))
        axes = [b.normalize_axis(a, nd, f"fft.{function}") for a in axes]
        sizes: list[Any] = [None] * len(axes) if s is None else list(s)
        if len(sizes) != len(axes):
            raise b.error(f"fft.{function}", "s and axes must have the same length")
        return axes, [None if v == -1 else v for v in sizes]

    def _many(self, one: Callable[..., Any], x: Any, axes: Sequence[int], sizes: Sequence[Any],
              norm: str) -> Any:  # fmt: skip
        for a, n in zip(axes, sizes):
            x = one(x, n=n, axis=a, norm=norm)
        return x

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None,
             norm: str = "backward") -> Any:  # fmt: skip
        x = self._complex(x, "fftn")
        axes, sizes = self._plan("fftn", x, s, axes)
        return self._many(self.fft, x, axes, sizes, norm)

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None,
              norm: str = "backward") -> Any:  # fmt: skip
        x = self._complex(x, "ifftn")
        axes, sizes = self._plan("ifftn", x, s, axes)
        return self._many(self.ifft, x, axes, sizes, norm)

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None,
              norm: str = "backward") -> Any:  # fmt: skip
        x = self._real(x, "rfftn")
        axes, sizes = self._plan("rfftn", x, s, axes)
        x = self.rfft(x, n=sizes[-1], axis=axes[-1], norm=norm)
        return self._many(self.fft, x, axes[:-1], sizes[:-1], norm)

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None,
               norm: str = "backward") -> Any:  # fmt: skip
        x = self._complex(x, "irfftn")
        axes, sizes = self._plan("irfftn", x, s, axes)
        x = self._many(self.ifft, x, axes[:-1], sizes[:-1], norm)
        return self.irfft(x, n=sizes[-1], axis=axes[-1], norm=norm)

    def _freq(self, function: str, values: Any, n: int, d: float, dtype: Any,
              device: Any) -> Any:  # fmt: skip
        b = self._b
        target = tf.float64 if dtype is None else b.check_dtype(dtype, f"fft.{function}")
        if not target.is_floating:
            raise b.error(f"fft.{function}", f"dtype must be a real floating dtype, got "
                          f"{b.dtype_name(target)}", TypeError)  # fmt: skip
        with b.placed(device, f"fft.{function}"):
            return tf.cast(tf.constant(values, tf.float64) / (n * d), target)

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        positive(self._b, n, "n", "fft.fftfreq")
        values = [*range((n - 1) // 2 + 1), *range(-(n // 2), 0)]
        return self._freq("fftfreq", values, n, d, dtype, device)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        positive(self._b, n, "n", "fft.rfftfreq")
        return self._freq("rfftfreq", list(range(n // 2 + 1)), n, d, dtype, device)

    def _shift(self, function: str, x: Any, axes: Any, sign: int) -> Any:
        b = self._b
        x = b.tensor(x, f"fft.{function}")
        axes = b.axes(axes, b.ndim(x), f"fft.{function}")
        if not axes:
            return x
        shape = tf.shape(x)
        shifts = [sign * (shape[a] // 2) for a in axes]
        return tf.roll(x, tf.stack(shifts), axes)

    @translated
    def fftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift("fftshift", x, axes, 1)

    @translated
    def ifftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift("ifftshift", x, axes, -1)
