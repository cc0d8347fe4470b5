"""The standard on JAX, wrapped flavour: `eagerpy_xp.Array` in and out."""

from ._wrap import build
from .native import jax as _native

build(_native, globals())
