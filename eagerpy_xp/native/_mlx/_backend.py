"""The MLX backend: ``mlx.core`` arrays with the standard's semantics (docs/mlx.md).

`_core` holds the hooks and helpers (dtypes, devices, promotion, indexing); one mixin per
group of chapters builds on it: `_elementwise`, `_creation` (and data types),
`_functions` (the other chapters) and `_subnamespaces` (``linalg``, ``fft``, info);
`_indexing` holds indexing and mutation, `_autodiff` the autodiff hook, `_compile` the
compile and vectorize hooks.  `MLXBackend`
composes them.

Every function builds MLX's lazy graph and evaluates nothing, except where a value must
be handed back (``item``, NumPy and DLPack exports) or where a result's shape or an
error depends on values (``nonzero``, ``unique_*``, boolean masks, ``repeat`` with an
array of counts, and the range checks of integer index arrays): docs/mlx.md lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx

from ._autodiff import MLXAutodiff
from ._compile import Boundary, compile_function, vectorize_function
from ._functions import MLXFunctions
from ._indexing import MLXIndexing
from ._subnamespaces import MLXFFT, MLXInfo, MLXLinalg

__all__ = ["BACKEND", "MLXBackend"]


class MLXBackend(MLXFunctions, MLXIndexing):
    """Every function of the standard on ``mlx.core.array``."""

    linalg_class = MLXLinalg
    fft_class = MLXFFT
    info_class = MLXInfo
    autodiff = MLXAutodiff()

    def __init__(self) -> None:
        super().__init__()
        self._boundary = Boundary(None, None)

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """MLX's one-array functions take an `Array` through ``__mlx_array__``
        (``mx.sin(a)``; MLX's functions of two arrays do not read it: pass ``a.raw``);
        the compile and vectorize hooks take Arrays apart with ``cls`` and ``wrap``."""
        self.wrapper_type, self.wrap = cls, wrap
        self._boundary = Boundary(cls, wrap)
        cls.__mlx_array__ = _raw_of  # type: ignore[attr-defined]

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``fn`` compiled by ``mx.compile`` (``options``: ``inputs``, ``outputs``,
        ``shapeless``); Arrays in, Arrays out."""
        return compile_function(self._boundary, fn, options, self.error)

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any] | None:  # fmt: skip
        """``fn`` vectorized by ``mx.vmap``; Arrays in, Arrays out."""
        return vectorize_function(self._boundary, fn, in_axes, out_axes, self.error)

    def normalize(self, raw: Any) -> Any:
        return raw if type(raw) is mx.array else mx.array(raw)


def _raw_of(array: Any) -> Any:
    return array.raw


#: The one MLX backend object (the native module exports it).
BACKEND = MLXBackend()
