"""``linalg`` and ``fft`` on torch: promotion of two operands, the standard's argument names."""

from __future__ import annotations

import math
from typing import Any

import torch

from .._base import FFT, Linalg
from .._base.core import translated
from .._base.subnamespaces import EigResult, check_vector_ord

_MATRIX_ORDS: tuple[Any, ...] = (1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc")


class TorchLinalg(Linalg):
    """``torch.linalg`` where it matches; the rest through the backend's own functions."""

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """Batch dimensions broadcast, zero-size ones too (torch wants equal ranks)."""
        b_ = self._b
        a, b = b_._as_tensors((x1, x2), "linalg.cross")
        # counted from the end (a non-negative axis is unambiguous for equal ranks only)
        axis = b_.normalize_axis(axis, min(a.ndim, b.ndim), "linalg.cross")
        axis -= min(a.ndim, b.ndim)
        if a.shape[axis] != 3 or b.shape[axis] != 3:
            raise b_.error("linalg.cross", f"axis {axis} must have size 3, got shapes "
                           f"{tuple(a.shape)} and {tuple(b.shape)}")  # fmt: skip
        if a.shape != b.shape:
            a, b = b_.broadcast_arrays(a, b)
        bits = self._b._bits
        return self._b._unbits(torch.linalg.cross(bits(a), bits(b), dim=axis), a.dtype)

    @translated
    def diagonal(self, x: Any, /, *, offset: int = 0) -> Any:
        self._b._check_matrix(x, "linalg.diagonal")
        return torch.diagonal(x, self._b.check_int(offset, "offset", "linalg.diagonal"), -2, -1)

    @translated
    def eig(self, x: Any, /) -> EigResult:
        """``torch.linalg.eig``: already complex of the input's precision."""
        self._eig_dtype(x, "linalg.eig")
        return EigResult(*torch.linalg.eig(x))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        self._eig_dtype(x, "linalg.eigvals")
        return torch.linalg.eigvals(x)

    @translated
    def matrix_norm(self, x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        if not any(ord == o and type(ord) is not bool for o in _MATRIX_ORDS):
            raise self._b.error("linalg.matrix_norm", f"ord must be one of 1, -1, 2, -2, inf, "
                                f"-inf, 'fro', 'nuc'; got {ord!r}")  # fmt: skip
        return torch.linalg.matrix_norm(x, ord=ord, keepdim=keepdims)

    @translated
    def matrix_power(self, x: Any, n: int, /) -> Any:
        """Integer matrices multiply through the backend's `matmul` (no CUDA kernel)."""
        n = self._b.check_int(n, "n", "linalg.matrix_power")
        if x.is_floating_point() or x.is_complex():
            return torch.linalg.matrix_power(x, n)
        if n < 0:
            raise self._b.error("linalg.matrix_power", "negative powers need a float matrix")
        result = self._b._unbits(
            torch.eye(x.shape[-1], dtype=torch.int64, device=x.device).to(self._b._bits(x).dtype)
            .expand(x.shape), x.dtype)  # fmt: skip
        base = x
        while n:
            if n & 1:
                result = self._b.matmul(result, base)
            n >>= 1
            if n:
                base = self._b.matmul(base, base)
        return result

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        a, b = self._b._as_tensors((x1, x2), "linalg.outer")
        if a.ndim != 1 or b.ndim != 1:
            raise self._b.error("linalg.outer", f"expected 1-d arrays, got shapes "
                                f"{tuple(a.shape)} and {tuple(b.shape)}")  # fmt: skip
        return self._b.multiply(a[:, None], b[None, :])

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        """``x2`` is a vector only when 1-d (torch also reads ``(..., n)`` batches so)."""
        a, b = self._b._as_tensors((x1, x2), "linalg.solve")
        if b.ndim == 1:
            return torch.linalg.solve(a, b[:, None])[..., 0]
        batch = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = a.expand(*batch, *a.shape[-2:])
        b = b.expand(*batch, *b.shape[-2:])
        return torch.linalg.solve(a, b)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        return self._b.sum(self.diagonal(x, offset=offset), axis=-1, dtype=dtype)

    @translated
    def vector_norm(
        self, x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2
    ) -> Any:
        check_vector_ord(self._b, ord)
        return self._b._reduce(torch.linalg.vector_norm, x, axis, keepdims, "linalg.vector_norm",
                               ord=ord)  # fmt: skip


class TorchFFT(FFT):
    """``torch.fft`` with the standard's ``axis``/``axes`` names and device handling."""

    def _checked_n(self, n: Any, function: str) -> int:
        return self._b.check_int(n, "each length", function, 1)  # type: ignore[no-any-return]

    def _checked_norm(self, norm: str, function: str) -> str:
        if norm not in ("backward", "ortho", "forward"):
            raise self._b.error(function, f"norm must be 'backward', 'ortho' or 'forward', "
                                f"got {norm!r}")  # fmt: skip
        return norm

    def _one(self, name: str, x: Any, n: int | None, axis: int, norm: str) -> Any:
        function = f"fft.{name}"
        self._b._check_tensor(x, function)
        n = None if n is None else self._checked_n(n, function)
        self._b.normalize_axis(axis, x.ndim, function)
        return getattr(torch.fft, name)(x, n=n, dim=axis, norm=self._checked_norm(norm, function))

    def _many(self, name: str, x: Any, s: Any, axes: Any, norm: str) -> Any:
        """Without ``axes``, ``s`` applies to the last ``len(s)`` axes (as in torch)."""
        function = f"fft.{name}"
        self._b._check_tensor(x, function)
        self._fft_axes(s, axes, x, name)
        if s is not None:
            s = tuple(self._checked_n(n, function) for n in s)
        return getattr(torch.fft, name)(x, s=s, dim=axes,
                                        norm=self._checked_norm(norm, function))  # fmt: skip

    @translated
    def fft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("fft", x, n, axis, norm)

    @translated
    def ifft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("ifft", x, n, axis, norm)

    @translated
    def rfft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("rfft", x, n, axis, norm)

    @translated
    def irfft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("irfft", x, n, axis, norm)

    @translated
    def hfft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("hfft", x, n, axis, norm)

    @translated
    def ihfft(
        self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
    ) -> Any:
        return self._one("ihfft", x, n, axis, norm)

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._many("fftn", x, s, axes, norm)

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._many("ifftn", x, s, axes, norm)

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._many("rfftn", x, s, axes, norm)

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        return self._many("irfftn", x, s, axes, norm)

    def _freq(self, name: str, n: int, d: float, dtype: Any, device: Any) -> Any:
        function = f"fft.{name}"
        kwargs = self._b._place(dtype, device, function)
        target = kwargs.setdefault("dtype", self._b._default("real floating"))
        if not target.is_floating_point:
            raise self._b.error(function, f"dtype must be a real floating dtype, got "
                                f"{self._b.dtype_name(target)}", TypeError)  # fmt: skip
        return getattr(torch.fft, name)(self._checked_n(n, function), d=d, **kwargs)

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq("fftfreq", n, d, dtype, device)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq("rfftfreq", n, d, dtype, device)

    def _shift(self, name: str, x: Any, axes: Any) -> Any:
        """``axes=()`` shifts nothing (torch refuses an empty ``dim``)."""
        self._b._check_tensor(x, f"fft.{name}")
        self._fft_axes(None, axes, x, name)
        if axes is not None and not isinstance(axes, int) and len(axes) == 0:
            return x.clone()
        return getattr(torch.fft, name)(x, dim=axes)

    @translated
    def fftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift("fftshift", x, axes)

    @translated
    def ifftshift(self, x: Any, /, *, axes: Any = None) -> Any:
        return self._shift("ifftshift", x, axes)
