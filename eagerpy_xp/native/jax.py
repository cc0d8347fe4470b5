"""The standard on JAX arrays, native flavour: JAX arrays in, JAX arrays out."""

from ._base import export
from ._jax import BACKEND

export(BACKEND, globals())
