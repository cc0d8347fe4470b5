"""The standard on Dask, wrapped flavour: `eagerpy_xp.Array` in and out."""

from ._wrap import build
from .native import dask as _native

build(_native, globals())
