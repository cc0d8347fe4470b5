"""EagerPy-style method chaining on `Array` (``x.square().sum(axis=1).sqrt()``).

Each method calls the wrapped namespace of the array's backend, so chained code means
exactly what the equivalent standard calls mean.
"""

from __future__ import annotations


class ArrayMethods:
    """Base of `Array` holding the EagerPy convenience methods."""

    __slots__ = ()
