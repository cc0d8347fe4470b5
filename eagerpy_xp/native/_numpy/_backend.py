"""The NumPy backend: NumPy 2 is close to the standard; this holds only what differs.

Scalar results (native flavour): like ``array_api_compat.numpy``, functions return what
NumPy returns, so a 0-d result may be a NumPy scalar (``np.float64``) rather than a 0-d
``ndarray``; both carry ``dtype``/``shape`` and every function here accepts both.  The
wrapped flavour stores 0-d ``ndarray``s only (`NumPyBackend.normalize`).

The chapters are mixins over `_core.NumPyCore`: `_elementwise`, `_creation` (and data
types), `_functions` (the other chapters) and `_subnamespaces` (``fft``).  `NumPyBackend`
composes them.
"""

from __future__ import annotations

from ._creation import NumPyCreation
from ._elementwise import NumPyElementwise
from ._functions import NumPyFunctions
from ._subnamespaces import NumPyFFT

__all__ = ["BACKEND", "NumPyBackend", "NumPyFFT"]


class NumPyBackend(NumPyFunctions, NumPyCreation, NumPyElementwise):
    """Every function of the standard on NumPy arrays."""

    fft_class = NumPyFFT


#: The one NumPy backend object (the native module exports it).
BACKEND = NumPyBackend()
