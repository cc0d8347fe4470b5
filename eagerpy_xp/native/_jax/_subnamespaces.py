"""The JAX backend's ``linalg`` and ``fft``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from .._base import FFT, Linalg
from .._base.arguments import positive
from .._base.core import (
    translated,
)
from .._base.functions import accumulates_in_bool
from .._base.subnamespaces import EigResult
from ._core import _REAL_FLOATING, JaxCore


class JaxLinalg(Linalg):
    """``trace`` checks its ``dtype`` like every other dtype argument (x64 rules); ``eig``
    and ``eigvals``, which JAX computes on CPU only, run on the CPU and return to the
    input's device; the functions of two arrays check both (`JaxCore._arrays`)."""

    _b: JaxCore

    @translated
    def cross(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        self._b._arrays("linalg.cross", x1, x2)
        return jnp.linalg.cross(x1, x2, axis=axis)

    @translated
    def eig(self, x: Any, /) -> EigResult:
        target = self._eig_dtype(x, "linalg.eig")
        values, vectors = _on_cpu(jnp.linalg.eig, x)
        return EigResult(values.astype(target), vectors.astype(target))

    @translated
    def eigvals(self, x: Any, /) -> Any:
        target = self._eig_dtype(x, "linalg.eigvals")
        return _on_cpu(jnp.linalg.eigvals, x).astype(target)

    @translated
    def outer(self, x1: Any, x2: Any, /) -> Any:
        self._b._arrays("linalg.outer", x1, x2)
        return jnp.linalg.outer(x1, x2)

    @translated
    def solve(self, x1: Any, x2: Any, /) -> Any:
        self._b._arrays("linalg.solve", x1, x2)
        return jnp.linalg.solve(x1, x2)

    @translated
    def trace(self, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        target = self._b._accumulator(x, dtype, "linalg.trace")
        if accumulates_in_bool(self._b, target):
            return self._b.sum(self.diagonal(x, offset=offset), axis=-1, dtype=target)
        return self._l.trace(x, offset=offset, dtype=target)


class JaxFFT(FFT):
    """``fftfreq``/``rfftfreq`` take the namespace's dtypes and devices."""

    _b: JaxCore

    @translated
    def fftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(self._t.fftfreq, n, d, dtype, device, "fft.fftfreq")

    @translated
    def rfftfreq(self, n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        return self._freq(self._t.rfftfreq, n, d, dtype, device, "fft.rfftfreq")

    def _freq(self, fn: Any, n: int, d: float, dtype: Any, device: Any, function: str) -> Any:
        """``n`` a positive int (JAX takes 0 and negative lengths), ``dtype`` a real floating
        dtype of the namespace."""
        b = self._b
        positive(b, n, "n", function)
        dtype = b._default("real floating") if dtype is None else b.check_dtype(dtype, function)
        if dtype not in _REAL_FLOATING:
            raise b.error(function, f"dtype must be a real floating dtype, got "
                          f"{b.dtype_name(dtype)}", TypeError)  # fmt: skip
        place = None if device is None else b.native_device(device, function)
        return fn(n, d=d, dtype=dtype, device=place)


def _on_cpu(function: Callable[[Any], Any], x: Any) -> Any:
    """``function(x)`` computed on the CPU for a concrete ``x`` on another device (JAX has
    CPU kernels only for it), the results put back on ``x``'s devices.  Traced ``x`` is
    passed as it is: under ``jax.jit`` on an accelerator JAX then reports the kernel as
    missing (the compiled function cannot move data to the host)."""
    if isinstance(x, jax.core.Tracer) or all(d.platform == "cpu" for d in x.devices()):
        return function(x)
    cpu = jax.local_devices(backend="cpu")[0]
    return jax.device_put(function(jax.device_put(x, cpu)), x.sharding)
