"""Chunk-level building blocks of the Dask backend: NumPy code run lazily, chunk by chunk.

Every chunk of a Dask array is a NumPy array, so where Dask's own function differs from the
standard, the backend runs the NumPy backend's (already conformant) function on each chunk
instead: element-wise functions through `elementwise`, functions along one axis (sorts,
``take_along_axis``) and on whole matrices (decompositions) through `gufunc`.  All of them
build graphs; none computes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from dask.array.core import elemwise

from .._numpy._backend import NumPyBackend
from ._kept import KEPT


class _ChunkBackend(NumPyBackend):
    """The NumPy backend as the Dask backend runs it on chunks: an error it raises when a
    graph is computed (``linalg.cholesky`` of a matrix that is not positive definite)
    names the Dask backend the user called, not NumPy (at the call, `translate` renames
    them anyway)."""

    def message_prefix(self, function: str) -> str:
        return "eagerpy_xp.dask." + super().message_prefix(function)[len("eagerpy_xp.numpy."):]

    def __dask_tokenize__(self) -> str:
        """Dask names each graph it builds from a token of the function run on the chunks,
        and a bound method's token holds its object's: without this, Dask pickled the whole
        backend for it (about 40 ms a call; SciPy's ``RigidTransform`` tests spent a tenth
        of their time there).  There is one such backend, with no state that changes what
        its functions compute."""
        return "eagerpy_xp.dask-chunks"


#: The NumPy backend: its functions are what the Dask backend runs on each chunk.
NUMPY = _ChunkBackend()


def elementwise(function: Callable[..., Any], *args: Any) -> Any:
    """``function`` (a NumPy-backend element-wise function) on each chunk of the broadcast
    arguments (Dask arrays and Python scalars); the output chunks are the inputs'.

    Dask infers the result dtype by running ``function`` on one-element samples and gives
    up (returns ``NotImplemented``) when that raises: an integer array to a negative power
    (``pow(int8_array, -1)``).  The dtype then comes from zero-size samples, which have no
    values to object to."""
    args = aligned(*args)
    result = elemwise(function, *args)
    if result is NotImplemented:
        samples = [np.empty((0,), a.dtype) if isinstance(a, da.Array) else a for a in args]
        result = elemwise(function, *args, dtype=function(*samples).dtype)
    return result


def aligned(*args: Any) -> tuple[Any, ...]:
    """``args`` (operands of one element-wise call) with their chunk sizes computed where
    Dask cannot line their chunks up: on an axis they share after broadcasting, one
    operand's chunks unknown (NaN: after a boolean mask or ``nonzero``) and their numbers
    of chunks different, none of them a known size 1.  Dask would pair each chunk of one
    with the single chunk of the other, as it broadcasts a length-1 axis: a graph that
    fails, or is wrong, when computed (SciPy's ``stats.rankdata`` adds a masked array of
    two chunks to a ``diff`` of one).  Computing the sizes costs one pass over what makes
    them; the operands given are left as they are (copies are sized)."""
    arrays = [a for a in args if isinstance(a, da.Array)]
    if len(arrays) < 2 or not any(math.isnan(n) for a in arrays for n in a.shape):
        return args
    ndim = max(a.ndim for a in arrays)
    for axis in range(1, ndim + 1):  # (trailing axes line up)
        chunks = {a.chunks[-axis] for a in arrays if a.ndim >= axis and a.shape[-axis] != 1}
        if not _pairable(chunks):
            return tuple(sized(a) if isinstance(a, da.Array) else a for a in args)
    return args


def _pairable(chunks: Any) -> bool:
    """Whether Dask can pair these chunkings of one axis (tuples of chunk sizes): all of
    one number of chunks, or all sizes known (Dask then rechunks to line them up)."""
    return len({len(c) for c in chunks}) <= 1 or not any(math.isnan(n) for c in chunks for n in c)


def sized(x: Any) -> Any:
    """``x``, or where some of its sizes are unknown a copy with its chunk sizes computed
    and its empty chunks merged away.

    A mask's result computes to chunks such as ``(0, 0, 0, 0, 1)``, and Dask treats an
    axis of size 1 as one to broadcast: that array plus one of shape ``(1,)`` in one chunk
    had chunks ``(0, 0, 0, 0, 1)``, one block in its graph and five values when computed
    (Dask 2026.8), and a loop of masked writes over input of several chunks failed with
    "Missing dependency ('add-...', 4)" (`tests/test_dask_unknown_chunks.py`)."""
    if not any(math.isnan(n) for n in x.shape):
        return x
    sizes = KEPT.chunk_sizes(x)  # (from its kept chunks where it is small)
    counted = (x.copy().compute_chunk_sizes() if sizes is None
               else da.Array(x.dask, x.name, sizes, meta=x._meta))  # fmt: skip
    chunks = tuple(tuple(n for n in axis if n) or (0,) for axis in counted.chunks)
    return counted.rechunk(chunks) if chunks != counted.chunks else counted


def aligned_mask(x: Any, mask: Any) -> tuple[Any, Any]:
    """``x`` and a boolean ``mask`` of its leading axes, chunked alike where Dask cannot
    pair their chunks: sizes unknown on either side and the numbers of chunks different
    (a mask written by one task, of one chunk, over an array of five: Dask would index
    each chunk of ``x`` with the whole mask, "boolean index did not match indexed array
    along axis 0; size of axis is 1 but size of corresponding boolean axis is 5").  Their
    chunk sizes are computed on copies, and the mask takes ``x``'s chunks."""
    if all(_pairable(pair) for pair in zip(x.chunks, mask.chunks)):
        return x, mask
    x = sized(x)
    return x, sized(mask).rechunk(x.chunks[: mask.ndim])


def whole_axes(x: Any, axes: tuple[int, ...]) -> Any:
    """``x`` rechunked so that each of ``axes`` is one chunk (no-op when already so)."""
    if all(len(x.chunks[a]) == 1 for a in axes):
        return x
    return x.rechunk({a: -1 for a in axes})


def is_whole(x: Any, axes: tuple[int, ...]) -> bool:
    """Whether every axis of ``axes`` is one chunk."""
    return all(len(x.chunks[a]) <= 1 for a in axes)


def gufunc(function: Callable[..., Any], signature: str, *args: Any, axes: Any = None,
           dtypes: Any, sizes: dict[str, int] | None = None) -> Any:  # fmt: skip
    """``da.apply_gufunc``: ``function`` sees blocks with the core dimensions last; the
    loop dimensions broadcast and keep their chunks.  The core dimensions must each be one
    chunk already (`whole_axes`: Dask's own rechunking divides by zero on empty arrays)."""
    return da.apply_gufunc(function, signature, *args, axes=axes, output_dtypes=dtypes,
                           output_sizes=sizes, allow_rechunk=False, vectorize=False)  # fmt: skip


def reshape(x: Any, shape: tuple[int, ...]) -> Any:
    """``da.reshape`` that also takes empty arrays (Dask's fails on them)."""
    if 0 in x.shape:
        resolved = np.empty(x.shape, dtype=bool).reshape(shape).shape
        return da.zeros(resolved, dtype=x.dtype)
    try:
        return da.reshape(x, shape)
    except NotImplementedError:  # sizes split unevenly across chunks: merge, then split
        return da.reshape(da.reshape(x, (-1,)), shape)


def match_loop_chunks(reference: Any, other: Any, core: tuple[int, int]) -> Any:
    """``other`` rechunked so that its loop (non-core) axes of ``reference``'s sizes have
    ``reference``'s chunks (`gufunc` needs them equal); ``core`` counts each one's core
    axes.  Loop axes align from the right, as broadcasting does."""
    ref_loop = reference.ndim - core[0]
    other_loop = other.ndim - core[1]
    wanted = {}
    for back in range(1, min(ref_loop, other_loop) + 1):
        i, j = ref_loop - back, other_loop - back
        if other.shape[j] == reference.shape[i] and other.chunks[j] != reference.chunks[i]:
            wanted[j] = reference.chunks[i]
    return other.rechunk(wanted) if wanted else other


def known(size: float) -> int | None:
    """A Dask dimension (NaN when unknown) as an int or None."""
    return None if math.isnan(size) else int(size)
