"""Index keys holding NumPy objects or lists, read with NumPy's meaning on every backend.

Client code indexes arrays of any library with NumPy index arrays and NumPy integers
(xarray's ``isel(z=[0, 2])`` builds ``x[np.array([0, 2]), :]``, SciPy passes
``np.int64`` positions); NumPy, torch, JAX and Dask took most of them, TensorFlow none.
`standard_key` turns such items into the standard's: NumPy integer and bool scalars (and
0-d arrays) into Python ints and bools, NumPy arrays and lists of ints or bools into the
backend's own arrays; everything else is left as it is, for the backend to check.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: The key items `standard_key` converts: lists, and NumPy's arrays and scalars once NumPy
#: is loaded (`foreign_types`; before that no key can hold one, and this module does not load
#: NumPy for a framework that does not need it: MLX).
_FOREIGN: tuple[type, ...] = (list,)


def foreign_types() -> tuple[type, ...]:
    """`_FOREIGN`, with NumPy's types added the first time NumPy is found loaded."""
    global _FOREIGN
    if len(_FOREIGN) == 1:
        np = sys.modules.get("numpy")
        if np is not None:
            _FOREIGN = (np.ndarray, np.generic, list)
    return _FOREIGN


def standard_key(key: Any, to_array: Callable[[np.ndarray], Any], backend: Any,
                 function: str) -> Any:  # fmt: skip
    """``key`` (an index or a tuple of them) with NumPy scalars, NumPy arrays and lists
    converted (``to_array`` makes the backend's array of a NumPy index array): one type
    test per item when there are none, and ``key`` itself when nothing changed."""
    foreign = _FOREIGN if len(_FOREIGN) > 1 else foreign_types()
    if type(key) is tuple:
        for k in key:
            if isinstance(k, foreign):
                break
        else:
            return key
        items = tuple(_item(k, to_array, backend, function) for k in key)
        return key if all(a is b for a, b in zip(items, key)) else items
    if isinstance(key, foreign):
        return _item(key, to_array, backend, function)
    return key


def as_it_is(index: np.ndarray) -> np.ndarray:
    """``to_array`` for a framework that takes NumPy index arrays (NumPy, JAX, Dask)."""
    return index


def _item(k: Any, to_array: Callable[[np.ndarray], Any], backend: Any, function: str) -> Any:
    import numpy as np  # (a list or a NumPy object: NumPy reads it)

    if isinstance(k, list):
        k = _list_index(k, backend, function)
    if isinstance(k, (np.generic, np.ndarray)) and k.ndim == 0:
        if k.dtype.kind == "b":
            return bool(k)  # a 0-d mask: NumPy's x[np.True_] is x[True]
        if k.dtype.kind in "iu":
            return int(k)  # NumPy's x[np.array(1)] is x[1]
    if isinstance(k, np.ndarray):
        return to_array(k)
    return k  # a 0-d float or other scalar: the backend refuses it


def _list_index(k: list[Any], backend: Any, function: str) -> np.ndarray:
    """A list of ints or bools (nested: a multi-dimensional index) as NumPy reads it."""
    import numpy as np

    try:
        array = np.asarray(k)
    except (ValueError, TypeError) as exc:  # ragged
        raise backend.error(function, f"index {k!r:.80} is not a list of ints or bools",
                            IndexError) from exc  # fmt: skip
    if array.size == 0 and array.dtype.kind == "f":
        return array.astype(np.intp)  # x[[]] selects nothing
    if array.dtype.kind not in "biu":
        raise backend.error(function, f"index {k!r:.80} is not a list of ints or bools",
                            IndexError)  # fmt: skip
    return array


def selects_nothing(mask_shape: tuple[Any, ...], shape: tuple[Any, ...]) -> bool:
    """Whether a boolean mask of ``mask_shape``, the sole index of an array of ``shape``,
    is one that NumPy and array_api_strict read as selecting nothing although its shape
    differs from the array's: a size-0 dimension against a non-zero one (``x[mask]``
    with ``mask`` of shape ``(0,)`` and ``x`` of shape ``(1,)``), every other dimension
    equal.  The result is empty, of shape ``(0, *shape[len(mask_shape):])``; a write
    writes nothing."""
    if len(mask_shape) > len(shape) or 0 not in mask_shape:
        return False
    pairs = list(zip(mask_shape, shape))
    return all(m == n or m == 0 for m, n in pairs) and any(m != n for m, n in pairs)


def without_leading_ones(value: Any, ndim: int) -> Any:
    """``value`` (any framework's array) without its leading size-1 dimensions beyond
    ``ndim``: NumPy's ``x[key] = value`` drops them first, so a value of shape ``(1, 3)``
    fits a selection of shape ``(3,)``."""
    while value.ndim > ndim and value.shape[0] == 1:
        value = value[0]
    return value


def broadcasts_to(shape: tuple[int, ...], selection: tuple[int, ...]) -> bool:
    """Whether a value of ``shape`` can be written into a selection of ``selection``'s
    shape: NumPy's rule, it broadcasts to it (checked also where the framework skips the
    check, as for an empty selection)."""
    import numpy as np

    try:
        return np.broadcast_shapes(shape, selection) == selection
    except ValueError:
        return False


def basic_in_range(shape: tuple[Any, ...], key: Any) -> bool:
    """Whether ``key`` is a basic index that a framework's own slicing reads as the
    standard does, once its ints are known to be in range: ints within their axis, slices
    of Python ints (or None) with a step other than 0, None, at most one ellipsis, and no
    more indices than ``shape`` has dims (each of a known size where an int indexes it).
    A backend whose framework reads an int out of range (MLX: garbage) or refuses it
    with log lines (TensorFlow) tests this before it indexes in `Array.__getitem__`'s
    fast case (`BackendCore.index_case`); False sends the key to its `getitem`."""
    items = key if type(key) is tuple else (key,)
    used = 0
    ellipsis = False
    for k in items:
        kind = type(k)
        if kind is int:
            used += 1
        elif kind is slice:
            for part in (k.start, k.stop, k.step):
                if part is not None and type(part) is not int:
                    return False
            if k.step == 0:
                return False
            used += 1
        elif k is Ellipsis:
            if ellipsis:
                return False
            ellipsis = True
        elif k is not None:
            return False
    ndim = len(shape)
    if used > ndim:
        return False
    dim = 0
    seen = 0
    for k in items:
        if k is Ellipsis:
            dim = ndim - (used - seen)
        elif k is not None:
            if type(k) is int:
                size = shape[dim]
                if size is None or not -size <= k < size:
                    return False
            dim += 1
            seen += 1
    return True
