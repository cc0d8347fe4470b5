"""The NumPy backend's ``fft``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base import FFT
from .._base.core import translated


class NumPyFFT(FFT):
    """``fftfreq``/``rfftfreq``: NumPy has no ``dtype`` argument (it always makes float64)."""

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(np.fft.fftfreq, "fftfreq", n, d, dtype, device)

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(np.fft.rfftfreq, "rfftfreq", n, d, dtype, device)

    def _freq(self, make: Any, function: str, n: int, d: float, dtype: Any, device: Any) -> Any:
        target = self._freq_dtype(dtype, function)
        if device is not None:
            self._b.native_device(device, function)
        return make(self._freq_length(n, function), d=d).astype(target, copy=False)
