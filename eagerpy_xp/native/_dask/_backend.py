"""The Dask backend: the standard on ``dask.array``, lazily, chunk by chunk.

Defaults delegate to ``array_api_compat.dask.array`` (``dask.array`` with the standard's
names); this class holds what differs.

* **Lazy**: no function computes.  Only what must give a Python or NumPy value does:
  ``__bool__``, ``__int__``, ``__float__``, ``__complex__``, ``__index__``, ``__array__``,
  ``__dlpack__`` (the `item`, `to_numpy`, `dlpack` hooks), ``repeat`` with an array of
  repeats (only the repeats: the output's shape is their values), and indexing by position
  into an axis of unknown size (its chunk sizes).  Data-dependent shapes (``unique_*``,
  ``nonzero``, boolean masks) stay lazy with unknown sizes: ``shape`` reports ``None``
  there.  ``repr`` shows the graph's summary, not values.
* **Chunks** are kept where the operation allows: element-wise functions and cumulative
  sums work chunk by chunk; functions along an axis (sorts, ``take_along_axis``, the FFTs)
  rechunk that axis into one chunk and keep the others; reductions drop the reduced axes'
  chunks (over every axis: one chunk).  Matrix decompositions need each matrix in one
  chunk (see `_extensions`).
* **Semantics**: where Dask's chunk function is NumPy's and NumPy deviates from the
  standard (``floor_divide``, ``pow``, ``expm1``, ``log1p``, ``sign``, descending stable
  sorts, ``unique_*``), each chunk runs the NumPy backend's fixed function.
* **Immutable** for the wrapped flavour: ``x[k] = v`` rebinds the `Array` to a new Dask
  array; arrays sharing the old graph do not change.

The chapters are mixins over `_core.DaskCore`: `_elementwise`, `_creation`, `_indexing`,
`_functions` (the other chapters) and `_subnamespaces` (``linalg``, ``fft``); `_chunks`
holds the chunk-by-chunk helpers.  `DaskBackend` composes them.
"""

from __future__ import annotations

from ._creation import DaskCreation
from ._elementwise import DaskElementwise
from ._functions import DaskFunctions
from ._indexing import DaskIndexing
from ._subnamespaces import DaskFFT, DaskLinalg

__all__ = ["BACKEND", "DaskBackend"]


class DaskBackend(DaskFunctions, DaskIndexing, DaskCreation, DaskElementwise):
    """Every function of the standard on ``dask.array``."""

    linalg_class = DaskLinalg
    fft_class = DaskFFT


#: The one Dask backend object (the native module exports it).
BACKEND = DaskBackend()
