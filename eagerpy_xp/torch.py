"""The standard on PyTorch, wrapped flavour: `eagerpy_xp.Array` in and out."""

from ._wrap import build
from .native import torch as _native

build(_native, globals())
