"""Early pytest plugin (``-p tests.integration.scipy_array_api`` in pyproject's addopts).

SciPy reads ``SCIPY_ARRAY_API`` once, when it is first imported, and other start-up code
(the conformance plugin discovering backends, TensorFlow's import of SciPy) may import
it before ``tests/integration/conftest.py`` is loaded; this sets it first.  The switch
only changes how SciPy treats non-NumPy arrays (and makes it refuse object arrays and
masked arrays); NumPy inputs take the same code paths either way.
"""

from __future__ import annotations

import os

os.environ["SCIPY_ARRAY_API"] = "1"
