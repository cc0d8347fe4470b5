"""The standard on TensorFlow, wrapped flavour: `eagerpy_xp.Array` in and out."""

from ._wrap import build
from .native import tensorflow as _native

build(_native, globals())
