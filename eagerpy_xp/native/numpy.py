"""The standard on NumPy arrays, native flavour: NumPy arrays in, NumPy arrays out."""

from ._base import export
from ._numpy import NumPyBackend

export(NumPyBackend(), globals())
