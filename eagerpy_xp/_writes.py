"""Writes to a wrapped `Array` where its backend's writes rebind (`BackendCore.writes_in_place`
False: JAX, TensorFlow, Dask, MLX): a write is a read-modify-write of ``_raw``, run under
a striped lock (`write`), through the chain of views a basic-indexing or ``permute_dims``
result records (`_array._VIEW`, `Permuted`); the write of an in-place operator (`Update`)
and of ``x[key] = value`` (`Store`).  And `raise_as`: a failure of a member of the array
object as the contract's error naming it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from .native._base.fastpath import table_of

if TYPE_CHECKING:
    from .native._base import Backend

#: The locks of writes that rebind, by the written array's root (`write`): striped, so
#: that an `Array` needs no lock of its own and writes to different arrays rarely wait.
_WRITE_LOCKS = tuple(threading.RLock() for _ in range(64))


def rebind(array: Any, backend: Backend, raw: Any) -> None:
    """``array`` (an `Array` of ``backend``) holding ``raw``, the result of a write: its
    dtype and operator table assigned with it (`Array._ops`, `fastpath.table_of`)."""
    array._raw, array._dt = raw, raw.dtype
    array._ops = table_of(backend, raw, array._dt)


class Update:
    """An in-place operator's write: ``assign(raw, function(raw, operand))``."""

    __slots__ = ("b", "dunder", "function", "operand")

    def __init__(self, b: Backend, dunder: str, function: Any, operand: Any) -> None:
        self.b, self.dunder, self.function, self.operand = b, dunder, function, operand

    def __call__(self, raw: Any) -> Any:
        try:
            return self.b.assign(raw, self.function(raw, self.operand), self.dunder)
        except Exception as exc:
            raise_as(self.b, exc, self.dunder)


class Store:
    """``x[key] = value``'s write: the backend's ``setitem`` (which raises the contract's
    errors itself)."""

    __slots__ = ("b", "key", "value")

    def __init__(self, b: Backend, key: Any, value: Any) -> None:
        self.b, self.key, self.value = b, key, value

    def __call__(self, raw: Any) -> Any:
        return self.b.setitem(raw, self.key, self.value)


def write(array: Any, update: Callable[[Any], Any], operand: Any) -> None:
    """Rebind ``array`` to ``update(array's values)`` on a backend whose writes rebind,
    as one step for other threads: under the lock of the chain's root.

    ``array`` (an `Array`) may be a view (`_array._VIEW`: a basic-indexing result, which
    records its parent and key): then its values are first read again from its parent
    (through the chain:
    a view shows its parent's writes from its own next write on), and the written values
    go up the chain, each parent rebound to its own values with the child's written at
    the child's key.  Every new array is made before any is stored, so a failed write
    changes nothing.
    """
    b = array._b
    view = getattr(array, "_view", None)
    if view is None:  # (the common case, in short)
        with _WRITE_LOCKS[(id(array) >> 4) & 63]:
            for target, new in b.run_write(lambda: [(array, update(array._raw))], operand):
                rebind(target, b, new)
        return
    chain: list[tuple[Any, Any]] = []  # (parent, key), from ``array`` up
    root = array
    while view is not None:
        chain.append(view)
        root = view[0]
        view = getattr(root, "_view", None)
    with _WRITE_LOCKS[(id(root) >> 4) & 63]:
        for target, new in b.run_write(lambda: _write_chain(array, update, chain), operand):
            rebind(target, b, new)


def _write_chain(array: Any, update: Callable[[Any], Any],
                 chain: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:  # fmt: skip
    """`write`'s work, under its lock: each `Array` to rebind, with its new array."""
    b = array._b
    raw = array._raw
    now = [raw]  # the values now of ``array`` and each parent, root last
    if chain:  # read down from the root: a parent's write is seen from here on
        now = [chain[-1][0]._raw]
        for _, key in reversed(chain):
            now.append(key.get(b, now[-1]) if type(key) is Permuted else b.getitem(now[-1], key))
        now.reverse()
    new = update(now[0])
    stored = [(array, new)]
    for (parent, key), values in zip(chain, now[1:]):  # its child's values written at key
        new = key.put(b, new) if type(key) is Permuted else b.setitem(values, key, new)
        stored.append((parent, new))
    return stored


class Permuted:
    """The "key" of a view made by ``permute_dims`` (or ``moveaxis``, which is one):
    the child is its parent with the axes permuted, so the child's values are the
    parent's permuted and a write puts the whole child back, permuted the other way.
    NumPy's ``transpose`` is always a view; SciPy's ``oaconvolve`` (through its
    ``xp_swapaxes``) writes its overlap-add into a slice of a swapped slice."""

    __slots__ = ("axes", "inverse")

    def __init__(self, axes: tuple[int, ...]) -> None:
        self.axes = axes
        inverse = [0] * len(axes)
        for i, a in enumerate(axes):
            inverse[a] = i
        self.inverse = tuple(inverse)

    def get(self, b: Backend, raw: Any) -> Any:
        return b.permute_dims(raw, self.axes)

    def put(self, b: Backend, child: Any) -> Any:
        return b.permute_dims(child, self.inverse)


def raise_as(backend: Backend, exc: Exception, member: str) -> NoReturn:
    """Raise ``exc``, an error of the backend function behind an operator or attribute of
    the array object, as the contract's error naming ``member`` (``__add__``, ``Array.mT``:
    docs/errors.md), the original as ``__cause__``.  Only failures come here."""
    new = backend.translate(exc, member)
    if new is exc:
        raise exc
    raise new from exc
