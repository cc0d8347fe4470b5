"""The torch backend's indexing: ``x[key]`` and ``x[key] = value`` with NumPy's meaning of
keys (negative steps on flipped dims, integer index arrays beside ints, NumPy index
arrays, empty masks), the unsigned dtypes torch lacks kernels for moved on their signed
views, and `TorchIndexing.assign` (the in-place operators)."""

from __future__ import annotations

from typing import Any

import torch

from ..._detect import SCALAR_TYPES, plain_scalar
from .._base.core import raise_translated
from .._base.keys import selects_nothing, standard_key, without_leading_ones
from ._core import SIGNED_VIEW, Tensor, TorchCore, transformed


class TorchIndexing(TorchCore):
    """The indexing chapter: `getitem`, `setitem` and `assign` (`BackendCore`'s hooks) and
    the fast case of basic keys (`index_case`)."""

    def index_case(self) -> tuple[Any, ...] | None:
        """A basic key without negative steps is torch's own indexing: `getitem` hands it
        to torch as it is; one with a negative step is `_reversed`, what `getitem` does
        for it without the checks other keys need, and ``[::-1]`` is ``Tensor.flipud``
        (``flip(0)``, without `_reversed`'s frame; it refuses a 0-d tensor, which
        ``flip(0)`` would take, and the unsigned dtypes torch has no flip for: both go
        to `getitem`)."""
        return (Tensor, False, None, _reversed, False, Tensor.flipud)

    def getitem(self, raw: Any, key: Any) -> Any:
        if isinstance(key, Tensor) and key.dtype == torch.bool:
            self.refuse_data_dependent("__getitem__", raw, key)
        new_key, flips = self._index_key(tuple(raw.shape), key)
        if _empty_mask(new_key, raw):  # (torch: "The shape of the mask ... does not match")
            return raw.new_empty((0, *raw.shape[new_key[0].ndim:]))
        try:
            if flips:
                raw = self._on_bits(torch.flip, raw, flips)
            return raw[new_key]
        except Exception as exc:
            raise_translated(self, exc, "__getitem__")

    def setitem(self, raw: Any, key: Any, value: Any) -> Any:
        """The key and the value are checked in full before anything is written (torch
        writes the valid rows of an integer-array key before it finds an invalid one)."""
        value = self._setitem_value(raw, value)
        new_key, flips = self._index_key(tuple(raw.shape), key, "__setitem__")
        if _empty_mask(new_key, raw):  # nothing to write; the value must still fit
            try:
                torch.broadcast_to(value, (0, *raw.shape[new_key[0].ndim:]))
            except Exception as exc:
                raise_translated(self, exc, "__setitem__")
            return raw
        try:
            mask = new_key[0] if len(new_key) == 1 else None
            if isinstance(mask, Tensor) and mask.dtype == torch.bool and value.ndim == 0 \
                    and 0 < mask.ndim <= raw.ndim and mask.shape == raw.shape[:mask.ndim] \
                    and (transformed(raw) or transformed(mask)):  # fmt: skip
                # traced or mapped: no data-dependent shape (vmap refuses one), a where
                mask = mask.reshape(*mask.shape, *([1] * (raw.ndim - mask.ndim)))
                target = self._bits(raw)
                target.copy_(torch.where(mask, self._bits(value), target))
                return raw
            if any(isinstance(k, torch.Tensor) for k in new_key):  # index arrays: read first
                _fitted(value, raw[new_key].shape)
            target = self._bits(raw)
            value = self._bits(value)
            if flips:  # write through the flat positions the key selects
                positions = torch.arange(raw.numel(), device=raw.device).reshape(raw.shape)
                chosen = self.getitem(positions, key)
                coords = torch.unravel_index(chosen.reshape(-1), tuple(raw.shape))
                target[coords] = _fitted(value, chosen.shape).reshape(-1)
            else:
                target[new_key] = value
        except Exception as exc:
            raise_translated(self, exc, "__setitem__")
        return raw

    def _setitem_value(self, raw: Tensor, value: Any) -> Tensor:
        name = self._name(raw)
        if isinstance(value, SCALAR_TYPES):
            value = self.setitem_scalar(name, plain_scalar(value))
            return self._scalar_tensor(value, raw.dtype, raw, "__setitem__")
        self._check_tensor(value, "__setitem__")
        self.check_stored_dtype(self._name(value), name)
        return value.to(raw.dtype)

    def assign(self, raw: Any, result: Any, function: str) -> Any:
        if result.dtype != raw.dtype or tuple(result.shape) != tuple(raw.shape):
            result = self.in_place_result(raw, result, function)  # cast back, or the error
        raw.copy_(result)
        return raw


    def _index_key(self, shape: tuple[int, ...], key: Any, function: str = "__getitem__"
                   ) -> tuple[tuple[Any, ...], list[int]]:  # fmt: skip
        """``key`` with negative-step slices made positive on flipped dims.

        Returns the new key and the dims of ``x`` to flip before indexing with it.  Integer
        index tensors become int64 (torch reads uint8 tensors as masks).
        """
        key = standard_key(key, _index_tensor, self, function)  # NumPy's index arrays
        items = key if isinstance(key, tuple) else (key,)
        for item in items:
            if not (item is None or item is Ellipsis or isinstance(item, (slice, torch.Tensor))
                    or hasattr(type(item), "__index__")):  # fmt: skip
                raise self.error(function, f"index {item!r} is not an int, slice, ellipsis, None "
                                 "or an array", IndexError)  # fmt: skip
        consumed = [_dims_consumed(k) for k in items]
        if consumed.count(-1) > 1:  # torch accepts x[..., ...]
            raise self.error(function, f"at most one ellipsis is allowed, got {key!r}",
                             IndexError)  # fmt: skip
        ellipsis_dims = len(shape) - sum(c for c in consumed if c >= 0)
        if ellipsis_dims < 0:  # (a negative step past the last dim would find no size)
            raise self.error(function, f"index {key!r}: too many indices for an array of "
                             f"{len(shape)} dimension(s)", IndexError)  # fmt: skip
        new: list[Any] = []
        flips: list[int] = []
        array = None  # the first index array of one or more dimensions
        dim = 0
        for item, used in zip(items, consumed):
            if used < 0:  # the ellipsis
                new.append(item)
                dim += ellipsis_dims
                continue
            if isinstance(item, slice) and item.step is not None and item.step < 0:
                item = _ascending(item, shape[dim])
                flips.append(dim)
            elif isinstance(item, torch.Tensor):
                if item.dtype not in (torch.bool, torch.int64):
                    if item.is_floating_point() or item.is_complex():
                        raise self.error(function, f"index arrays must be integer or bool, "
                                         f"got {item.dtype}", IndexError)  # fmt: skip
                    item = item.to(torch.int64)
                if item.ndim and array is None:
                    array = item
            new.append(item)
            dim += used
        if array is not None and len(new) > 1 and any(type(k) is int for k in new):
            # NumPy's rule: ints beside index arrays index as arrays too (torch reads them
            # as basic indices, which moves the arrays' dimensions when the two are apart);
            # shape (1,) broadcasts as the 0-d array NumPy makes of an int
            new = [torch.tensor([k], device=array.device) if type(k) is int else k
                   for k in new]  # fmt: skip
        return tuple(new), flips


def _empty_mask(key: tuple[Any, ...], raw: Tensor) -> bool:
    """Whether ``key`` is one boolean mask that selects nothing (`keys.selects_nothing`)."""
    return (len(key) == 1 and isinstance(key[0], torch.Tensor) and key[0].dtype == torch.bool
            and selects_nothing(tuple(key[0].shape), tuple(raw.shape)))  # fmt: skip


def _index_tensor(index: Any) -> Tensor:
    """A NumPy index array as a tensor (torch would read a uint8 one as a mask, and takes
    no negative strides)."""
    import numpy as np

    return torch.from_numpy(np.ascontiguousarray(index))

def _ascending(item: slice, n: int) -> slice:
    """The slice of a dim of size ``n``, flipped, that selects what ``item`` (a slice with
    a negative step) selects of it unflipped, in the same order."""
    positions = range(*item.indices(n))
    if not len(positions):
        return slice(0, 0)
    first = n - 1 - positions[0]
    return slice(first, first + (len(positions) - 1) * -item.step + 1, -item.step)


def _fitted(value: Tensor, shape: Any) -> Tensor:
    """``value`` broadcast to a selection of ``shape`` as NumPy's (and torch's own)
    ``x[key] = value`` does: leading dims of size 1 beyond the selection's dropped first
    (`keys.without_leading_ones`); torch's error where it does not fit."""
    return torch.broadcast_to(without_leading_ones(value, len(shape)), shape)


def _reversed(raw: Tensor, key: Any) -> Tensor | None:
    """``raw[key]`` for a basic key with a negative step (`TorchCore.index_case`): the
    dims it reverses flipped, then indexed with ascending slices, as `TorchCore.getitem`
    does; no indexing where that selects everything.  None for the unsigned dtypes that
    `getitem` flips on their bits, and for more indices than dims."""
    if type(key) is slice:  # one slice: the first dim reversed, perhaps all of it
        if key.step == -1 and key.start is None and key.stop is None and raw.ndim:
            return raw.flip(0)  # x[::-1] (the unsigned dtypes torch has no flip for
            # raise, which sends the key to `getitem`; a 0-d tensor would flip)
    if raw.dtype in SIGNED_VIEW:
        return None
    if type(key) is slice:
        n = raw.shape[0]  # (a 0-d array: an IndexError, and getitem's own)
        k = _ascending(key, n)
        flipped = raw.flip(0)
        return flipped if k.start == 0 and k.stop == n and k.step == 1 else flipped[k]
    items = key if type(key) is tuple else (key,)
    shape = raw.shape
    used = 0
    for k in items:
        if k is not None and k is not Ellipsis:
            used += 1
    if used > len(shape):
        return None
    new: list[Any] = []
    flips: list[int] = []
    everything = True
    dim = 0
    for k in items:
        if k is Ellipsis:
            dim += len(shape) - used
        elif k is None or type(k) is int:
            everything = False
            dim += k is not None
        else:
            n = shape[dim]
            if k.step is not None and k.step < 0:
                k = _ascending(k, n)
                flips.append(dim)
            everything = everything and k.indices(n) == (0, n, 1)
            dim += 1
        new.append(k)
    flipped = torch.flip(raw, flips)
    return flipped if everything else flipped[tuple(new)]


def _dims_consumed(item: Any) -> int:
    """How many dims of the indexed array a key item uses (-1 for the ellipsis)."""
    if item is Ellipsis:
        return -1
    if item is None or isinstance(item, bool):
        return 0
    if isinstance(item, torch.Tensor):
        return item.ndim if item.dtype == torch.bool else 1
    return 1


__all__ = ["TorchIndexing"]
