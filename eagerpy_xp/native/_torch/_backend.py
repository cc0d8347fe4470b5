"""The PyTorch backend: torch tensors with the standard's semantics.

`_core` holds the hooks and helpers (promotion, unsigned views); one mixin per group of
chapters builds on it: `_elementwise`, `_indexing`, `_creation` (and data types),
`_functions` (the other chapters), and `_subnamespaces` (``linalg``, ``fft``); `_autodiff`
is the autodiff hook.  `TorchBackend` composes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _compile
from ._autodiff import TorchAutodiff
from ._creation import TorchCreation
from ._elementwise import TorchElementwise
from ._functions import TorchFunctions
from ._indexing import TorchIndexing
from ._subnamespaces import TorchFFT, TorchLinalg

__all__ = ["BACKEND", "TorchBackend"]


class TorchBackend(TorchElementwise, TorchIndexing, TorchCreation, TorchFunctions):
    """Every function of the standard on ``torch.Tensor`` (``torch.nn.Parameter`` included)."""

    linalg_class = TorchLinalg
    fft_class = TorchFFT
    autodiff = TorchAutodiff()

    compiles = True

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """torch functions take an `Array` (``torch.sin(a)``) through the
        ``__torch_function__`` protocol, which torch reads from the class; they return
        native tensors.  ``torch.func`` maps `Array`s (a pytree of one tensor), and
        ``torch.compile`` traces ``@`` between them (`_compile`)."""
        cls.__torch_function__ = classmethod(_torch_function)  # type: ignore[attr-defined]
        _compile.register_pytree(cls, wrap)
        _compile.teach_dynamo_operators(cls)

    def compile(self, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
        """``torch.compile(fn, fullgraph=True, **options)``: Dynamo traces `Array`s too."""
        return _compile.compile_function(fn, options)

    def vectorize(self, fn: Callable[..., Any], in_axes: Any, out_axes: Any
                  ) -> Callable[..., Any]:  # fmt: skip
        """``torch.func.vmap(fn, in_dims=in_axes, out_dims=out_axes)``."""
        return _compile.vectorize_function(fn, in_axes, out_axes)


def _torch_function(cls: Any, func: Callable[..., Any], types: Any,
                    args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:  # fmt: skip
    return func(*_unwrap_nested(cls, args), **_unwrap_nested(cls, kwargs or {}))


def _unwrap_nested(cls: Any, obj: Any) -> Any:
    if type(obj) is cls:
        return obj.raw
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unwrap_nested(cls, o) for o in obj)
    if isinstance(obj, dict):
        return {k: _unwrap_nested(cls, v) for k, v in obj.items()}
    return obj


#: The one torch backend object (the native module exports it).
BACKEND = TorchBackend()
