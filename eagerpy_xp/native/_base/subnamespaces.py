"""The sub-namespaces ``linalg`` and ``fft`` (the standard's extensions) and ``__array_namespace_info__``.

Each is a small object holding its backend; the namespace exposes its bound methods, so
``xp.linalg.solve`` and ``xp.fft.fft`` have the spec's signatures.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

from ..._dtypes import COMPLEX_FLOATING, COMPLEX_OF_REAL, REAL_FLOATING
from .core import translated
from .functions import accumulates_in_bool, accumulation_dtype

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_MATRIX_NORM_ORDS: tuple[Any, ...] = (1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc")


class Linalg:
    """``linalg`` defaults delegating to the framework's ``linalg`` module ``self._l``."""

    _prefix = "linalg."  # function names in messages (see `translated`)

    def __init__(self, backend: Any) -> None:
        self._b = backend
        self._l: Any = getattr(backend._f, "linalg", None)

    @translated
    def cholesky(self, x: Any, /, *, upper: bool = False) -> Any:
        return self._l.cholesky(x, upper=upper)

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        b = self._b
        b.normalize_axis(axis, max(len(b.shape_of(x1)), len(b.shape_of(x2))), "linalg.cross")
        return self._l.cross(x1, x2, axis=axis)

    @translated
    def det(self, x: Any, /) -> Any:
        return self._l.det(x)

    @translated
    def diagonal(self, x: Any, /, *, offset: int = 0) -> Any:
        return self._l.diagonal(x, offset=self._b.check_int(offset, "offset", "linalg.diagonal"))

    @translated
    def eig(self, x: Any, /) -> EigResult:
        """Eigenvalues and right eigenvectors of a stack of square matrices, complex of the
        input's precision (NumPy returns real results when every eigenvalue is real)."""
        target = self._eig_dtype(x, "linalg.eig")
        values, vectors = self._l.eig(x)
        return EigResult(values.astype(target, copy=False), vectors.astype(target, copy=False))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        """The eigenvalues of ``eig``, complex of the input's precision."""
        target = self._eig_dtype(x, "linalg.eigvals")
        return self._l.eigvals(x).astype(target, copy=False)

    def _eig_dtype(self, x: Any, function: str) -> Any:
        """The complex dtype of ``eig``'s results for ``x``: `TypeError` unless ``x`` is a
        floating-point array, `ValueError` unless its last two dimensions are equal."""
        b = self._b
        if not b.is_native(x):
            raise b.error(function, f"expected an array, got {type(x).__name__}", TypeError)
        name = b.dtype_name(x.dtype)
        if name not in REAL_FLOATING and name not in COMPLEX_FLOATING:
            raise b.error(function, f"expected a floating-point array, got {name}", TypeError)
        shape = b.shape_of(x)
        if len(shape) < 2 or (None not in shape[-2:] and shape[-1] != shape[-2]):
            raise b.error(function, f"expected a stack of square matrices, got shape {shape}")
        return b.dtypes_by_name[COMPLEX_OF_REAL.get(name, name)]

    @translated
    def eigh(self, x: Any, /) -> EighResult:
        return EighResult(*self._l.eigh(x))

    @translated
    def eigvalsh(self, x: Any, /) -> Any:
        return self._l.eigvalsh(x)

    @translated
    def inv(self, x: Any, /) -> Any:
        return self._l.inv(x)

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        return self._b.matmul(x1, x2)

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        if not any(ord == o and type(ord) is not bool for o in _MATRIX_NORM_ORDS):
            raise self._b.error("linalg.matrix_norm", f"ord must be one of 1, -1, 2, -2, inf, -inf, "
                                               f"'fro', 'nuc'; got {ord!r}")  # fmt: skip
        return self._l.matrix_norm(x, keepdims=keepdims, ord=ord)

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        return self._l.matrix_power(x, self._b.check_int(n, "n", "linalg.matrix_power"))

    @translated
    def matrix_rank(self, x: Any, /, *, rtol: Any = None) -> Any:
        """A 1-d ``x`` raises (NumPy would give the rank of a vector)."""
        return self._l.matrix_rank(self._b._matrices(x, "linalg.matrix_rank"), rtol=rtol)

    @translated
    def matrix_transpose(self, x: Any, /) -> Any:
        return self._b.matrix_transpose(x)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        b = self._b
        if len(b.shape_of(x1)) != 1 or len(b.shape_of(x2)) != 1:
            raise b.error("linalg.outer", f"expected 1-d arrays, got shapes {b.shape_of(x1)} and "
                          f"{b.shape_of(x2)}")  # fmt: skip
        return self._l.outer(x1, x2)

    @translated
    def pinv(self, x: Any, /, *, rtol: Any = None) -> Any:
        """``rtol=None`` is the spec's ``max(M, N) * eps`` (NumPy's default is ``1e-15``)."""
        if rtol is None:
            rtol = self._default_rtol(x)
        return self._l.pinv(x, rtol=rtol)

    def _default_rtol(self, x: Any) -> Any:
        """The spec's default relative tolerance ``max(M, N) * eps`` for ``x``'s dtype."""
        b = self._b
        shape = b.shape_of(x)
        name = b.dtype_name(x.dtype)
        if len(shape) < 2 or None in shape[-2:] or name not in (*REAL_FLOATING, *COMPLEX_FLOATING):
            return None  # the framework's default (and its error for non-matrices)
        return max(shape[-2:]) * b.finfo(x.dtype).eps

    @translated
    def qr(self, x: Any, /, *, mode: str = "reduced") -> QRResult:
        return QRResult(*self._l.qr(x, mode=mode))

    @translated
    def slogdet(self, x: Any, /) -> SlogdetResult:
        return SlogdetResult(*self._l.slogdet(x))

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        return self._l.solve(x1, x2)

    @translated
    def svd(self, x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        return SVDResult(*self._l.svd(x, full_matrices=full_matrices))

    @translated
    def svdvals(self, x: Any, /) -> Any:
        return self._l.svdvals(x)

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        return self._b.tensordot(x1, x2, axes=axes)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        b = self._b
        offset = b.check_int(offset, "offset", "linalg.trace")
        dtype = accumulation_dtype(b, x, dtype, "linalg.trace")
        if accumulates_in_bool(b, dtype):
            return b.sum(self.diagonal(x, offset=offset), axis=-1, dtype=dtype)
        return self._l.trace(x, offset=offset, dtype=dtype)

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        return self._b.vecdot(x1, x2, axis=axis)

    @translated
    def vector_norm(
        self, x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2
    ) -> Any:
        b = self._b
        b.normalize_axes(axis, len(b.shape_of(x)), "linalg.vector_norm")
        check_vector_ord(b, ord)
        return self._l.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)


def check_vector_ord(backend: Any, ord: Any) -> None:
    """``vector_norm``'s ``ord``: a real number (``inf``, ``-inf`` and 0 included); a
    string (``"fro"``, a matrix norm's) is a bad value, a `ValueError` (docs/errors.md)."""
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise backend.error("linalg.vector_norm", f"ord must be a real number (inf, -inf "
                            f"included), got {ord!r}")  # fmt: skip


class FFT:
    """``fft`` defaults delegating to the framework's ``fft`` module ``self._t``."""

    _prefix = "fft."  # function names in messages (see `translated`)

    def __init__(self, backend: Any) -> None:
        self._b = backend
        self._t: Any = getattr(backend._f, "fft", None)

    def _fft_norm(self, norm: str, function: str) -> str:
        """``norm`` checked against the spec's three modes."""
        if norm not in ("backward", "ortho", "forward"):
            raise self._b.error(f"fft.{function}", f"norm must be 'backward', 'ortho' or 'forward', "
                                          f"got {norm!r}")  # fmt: skip
        return norm

    def _fft_axes(self, s: Any, axes: Any, x: Any = None, function: str = "fft") -> Any:
        """The spec's default axes for ``s`` without ``axes``: the last ``len(s)`` ones;
        with ``x``, ``s`` and ``axes`` are checked against it (sizes at least 1, axes in
        range and as many as ``s``)."""
        if axes is None and s is not None:
            axes = tuple(range(-len(s), 0))
        if x is None:
            return axes
        b = self._b
        name = f"fft.{function}"
        ndim = len(b.shape_of(x))
        if s is not None:
            sizes = b.check_sizes(s, "s", name)
            if 0 in sizes:
                raise b.error(name, f"s must hold positive sizes, got {s!r}")
        if axes is not None:
            items = axes if isinstance(axes, (tuple, list)) else (axes,)
            for a in items:
                b.normalize_axis(a, ndim, name)
            if s is not None and len(s) != len(items):
                raise b.error(name, f"s {s!r} and axes {axes!r} differ in length")
        return axes

    def _fft_n(self, x: Any, n: Any, axis: Any, function: str) -> None:
        """``n`` (None or a positive int) and ``axis`` (in range for ``x``) of a 1-d FFT."""
        b = self._b
        name = f"fft.{function}"
        if n is not None:
            b.check_int(n, "n", name, 1)
        b.normalize_axis(axis, len(b.shape_of(x)), name)

    def _freq_length(self, n: Any, function: str) -> int:
        return self._b.check_int(n, "n", f"fft.{function}", 1)

    def _freq_dtype(self, dtype: Any, function: str) -> Any:
        """The frequencies' dtype: a real floating dtype, the default one for ``None``."""
        b = self._b
        if dtype is None:
            return b.dtypes_by_name[b.default_dtype_names()["real floating"]]
        dtype = b.check_dtype(dtype, function)
        if b.dtype_name(dtype) not in ("float32", "float64"):
            raise b.error(f"fft.{function}", f"dtype must be a real floating dtype, got "
                          f"{b.dtype_name(dtype)}", TypeError)  # fmt: skip
        return dtype

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "fft")
        return self._t.fft(x, n=n, axis=axis, norm=self._fft_norm(norm, "fft"))

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ifft")
        return self._t.ifft(x, n=n, axis=axis, norm=self._fft_norm(norm, "ifft"))

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._t.fftn(x, s=s, axes=self._fft_axes(s, axes, x, "fftn"),
                             norm=self._fft_norm(norm, "fftn"))

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._t.ifftn(x, s=s, axes=self._fft_axes(s, axes, x, "ifftn"),
                             norm=self._fft_norm(norm, "ifftn"))

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "rfft")
        return self._t.rfft(x, n=n, axis=axis, norm=self._fft_norm(norm, "rfft"))

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "irfft")
        return self._t.irfft(x, n=n, axis=axis, norm=self._fft_norm(norm, "irfft"))

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._t.rfftn(x, s=s, axes=self._fft_axes(s, axes, x, "rfftn"),
                             norm=self._fft_norm(norm, "rfftn"))

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._t.irfftn(x, s=s, axes=self._fft_axes(s, axes, x, "irfftn"),
                             norm=self._fft_norm(norm, "irfftn"))

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "hfft")
        return self._t.hfft(x, n=n, axis=axis, norm=self._fft_norm(norm, "hfft"))

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._fft_n(x, n, axis, "ihfft")
        return self._t.ihfft(x, n=n, axis=axis, norm=self._fft_norm(norm, "ihfft"))

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._t.fftfreq(n, d=d, dtype=dtype, device=device)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._t.rfftfreq(n, d=d, dtype=dtype, device=device)

    @translated
    def fftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        self._fft_axes(None, axes, x, "fftshift")
        return self._t.fftshift(x, axes=axes)

    @translated
    def ifftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        self._fft_axes(None, axes, x, "ifftshift")
        return self._t.ifftshift(x, axes=axes)


class Info:
    """``__array_namespace_info__()``: what the backend supports, from its hooks.

    ``native=True`` is the native flavour's: its devices are what its arrays report
    (the backend's `info_device` hook), so ``x.device in info.devices()`` holds there too.
    """

    def __init__(self, backend: Any, native: bool = False) -> None:
        self._b = backend
        self._native = native

    def capabilities(self) -> dict[str, Any]:
        return self._b.capabilities()  # type: ignore[no-any-return]

    def default_device(self) -> Any:
        return self._b.info_device(self._b.default_device(), self._native)

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        if device is not None:
            self._b.native_device(device, "default_dtypes")
        by_name = self._by_name()
        return {kind: by_name[name] for kind, name in self._b.default_dtype_names().items()}

    def _by_name(self) -> dict[str, Any]:
        """The flavour's dtype objects by name (`BackendCore.wrapped_dtypes_by_name`)."""
        b = self._b
        return b.dtypes_by_name if self._native else b.wrapped_dtypes_by_name  # type: ignore[no-any-return]

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        if device is not None:
            self._b.native_device(device, "dtypes")
        supported = self._b.supported_dtype_names()
        wanted = supported if kind is None else self._b.dtype_names_in(kind)
        by_name = self._by_name()
        return {name: by_name[name] for name in supported if name in wanted}

    def devices(self) -> tuple[Any, ...]:
        """The available devices (a tuple since 2025.12)."""
        return tuple(self._b.info_device(d, self._native) for d in self._b.devices())
