"""The PyTorch backend: torch tensors with the standard's semantics.

One module per group of chapters: `_core` (hooks, promotion, unsigned views, indexing),
`_elementwise`, `_creation` (and data types), `_functions` (the other chapters) and
`_extensions` (``linalg``, ``fft``).
"""

from __future__ import annotations

from typing import Any

from ._extensions import TorchFFT, TorchLinalg
from ._functions import TorchFunctions

__all__ = ["TorchBackend"]


class TorchBackend(TorchFunctions):
    """Every function of the standard on ``torch.Tensor`` (``torch.nn.Parameter`` included)."""

    linalg_class = TorchLinalg
    fft_class = TorchFFT

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
