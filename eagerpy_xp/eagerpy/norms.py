"""EagerPy's norms (``eagerpy.norms``), with EagerPy's formulas (``l2`` is
``x.square().sum().sqrt()``, not a scaled norm), so results match EagerPy to the bit."""

from __future__ import annotations

from .tensor import _l0, _l1, _l2, _linf, _lp

__all__ = ["l0", "l1", "l2", "linf", "lp"]


l0 = _l0
l1 = _l1
l2 = _l2
linf = _linf
lp = _lp
