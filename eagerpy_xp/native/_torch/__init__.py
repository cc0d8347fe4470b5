"""The PyTorch backend: torch tensors with the standard's semantics.

`_core` holds the hooks and helpers (promotion, unsigned views, indexing); one mixin per
group of chapters builds on it: `_elementwise`, `_creation` (and data types),
`_functions` (the other chapters), and `_subnamespaces` (``linalg``, ``fft``); `_autodiff`
is the autodiff hook.  `TorchBackend` composes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._autodiff import TorchAutodiff
from ._creation import TorchCreation
from ._elementwise import TorchElementwise
from ._functions import TorchFunctions
from ._subnamespaces import TorchFFT, TorchLinalg

__all__ = ["BACKEND", "TorchBackend"]


class TorchBackend(TorchElementwise, TorchCreation, TorchFunctions):
    """Every function of the standard on ``torch.Tensor`` (``torch.nn.Parameter`` included)."""

    linalg_class = TorchLinalg
    fft_class = TorchFFT
    autodiff = TorchAutodiff()

    def register_wrapper(self, cls: type, wrap: Callable[[Any], Any]) -> None:
        """torch functions take an `Array` (``torch.sin(a)``) through the
        ``__torch_function__`` protocol, which torch reads from the class; they return
        native tensors."""
        cls.__torch_function__ = classmethod(_torch_function)  # type: ignore[attr-defined]


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
