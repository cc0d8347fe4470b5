"""The standard on PyTorch tensors, native flavour: torch tensors in, torch tensors out."""

from ._base import export
from ._torch import TorchBackend

export(TorchBackend(), globals())
