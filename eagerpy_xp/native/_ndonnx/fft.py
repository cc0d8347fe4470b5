"""``fft`` on ndonnx: every transform gives or takes complex values, which ndonnx cannot
hold, so those are refused with the contract's `NotImplementedError`; the frequency
helpers and the shifts, which are real, are composed of ONNX operators."""

from __future__ import annotations

from typing import Any, NoReturn

import ndonnx as ndx

from .._base import FFT
from .._base.core import translated

#: Why the transforms are refused.
WHY = ("its result (or input) is complex, and ndonnx has no complex dtype: ONNX's DFT "
       "operator gives real and imaginary parts as a trailing axis of two, which no "
       "array of the standard is")  # fmt: skip


class NdonnxFFT(FFT):
    """Real ``fft`` functions; the transforms refused (`WHY`)."""

    def _refuse(self, function: str) -> NoReturn:
        raise self._b.error(f"fft.{function}", WHY, NotImplementedError)

    @translated
    def fft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._refuse("fft")

    @translated
    def ifft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._refuse("ifft")

    @translated
    def fftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._refuse("fftn")

    @translated
    def ifftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._refuse("ifftn")

    @translated
    def rfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._refuse("rfft")

    @translated
    def irfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._refuse("irfft")

    @translated
    def rfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._refuse("rfftn")

    @translated
    def irfftn(self, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
        self._refuse("irfftn")

    @translated
    def hfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        self._refuse("hfft")

    @translated
    def ihfft(self, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
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
