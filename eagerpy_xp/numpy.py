"""The standard on NumPy, wrapped flavour: `eagerpy_xp.Array` in and out."""

from ._wrap import build
from .native import numpy as _native

build(_native, globals())
