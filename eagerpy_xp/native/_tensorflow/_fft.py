"""The ``fft`` extension on TensorFlow: any axis, ``n``/``s`` padding, and all norms.

``tf.signal`` transforms the innermost axis only and normalises inverse transforms
itself; here every transform moves the axis, resizes it and rescales for ``norm``.
Each transform takes the standard's dtypes only: complex input for ``fft``, ``ifft``,
``fftn``, ``ifftn``, ``irfft``, ``irfftn``, ``hfft``; real floating input for ``rfft``,
``rfftn``, ``ihfft``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from .._base import FFT
from .._base.arguments import positive
from .._base.core import translated
from ._common import TFBase

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
