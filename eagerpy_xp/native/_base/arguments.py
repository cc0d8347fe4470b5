"""The standard's non-array arguments, checked again after a framework error.

A framework's message often omits the value at fault (JAX: "tuple index out of range" for
an axis, "Shape should be positive." for an FFT length; TensorFlow: "Only integers ... are
valid indices" for ``n=2.5``).  `recheck` is what a backend's ``explain`` hook (see
`core.translated`) may return: the contract's exception for the first argument found
invalid, naming it, or None.  It runs only after a failure, so it costs nothing on the
success path.
"""

from __future__ import annotations

import operator
from typing import Any

#: Functions whose ``axis`` may repeat an axis (each occurrence rolls again).
_REPEATS_ALLOWED = frozenset({"roll"})
#: Functions whose ``axes`` argument is not a list of axes of ``x``.
_OTHER_AXES = frozenset({"tensordot", "permute_dims"})
#: Keyword arguments that must be ints.
_INTEGERS = ("k", "offset")


def integer(backend: Any, value: Any, what: str, function: str,
            minimum: int | None = None) -> int:  # fmt: skip
    """``value`` as an int: `TypeError` for anything else (bool included), `ValueError`
    below ``minimum``."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise backend.error(function, f"{what} must be an int, got {value!r}", TypeError)
    number = operator.index(value)
    if minimum is not None and number < minimum:
        raise backend.error(function, f"{what} must be at least {minimum}, got {number}")
    return number


def positive(backend: Any, value: Any, what: str, function: str) -> int:
    """``value`` as an int of at least 1."""
    return integer(backend, value, what, function, minimum=1)


def sequence(backend: Any, value: Any, what: str, function: str) -> tuple[Any, ...]:
    """A tuple or list as a tuple, an int as a 1-tuple; `TypeError` for anything else."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    if hasattr(type(value), "__index__") and not isinstance(value, bool):
        return (value,)
    raise backend.error(function, f"{what} must be a tuple of ints, got {value!r}", TypeError)


def recheck(backend: Any, function: str, arguments: dict[str, Any]) -> Exception | None:
    """The contract's exception for the first invalid argument of a failed call of
    ``function`` (its arguments by parameter name), or None: axes (in range, ints, not
    repeated where that is an error), FFT lengths ``n`` and ``s``, offsets ``k``,
    ``num``, ``repetitions``, shapes and ``repeats``."""
    try:
        _check(backend, function, arguments)
    except (TypeError, ValueError, IndexError) as better:
        if str(better).startswith(f"eagerpy_xp.{backend.name}."):
            return better
        raise
    return None


def _ndim(x: Any) -> int | None:
    try:
        return len(x.shape)
    except (AttributeError, TypeError, ValueError):  # no array, or an unknown rank
        return None


def _check(backend: Any, function: str, a: dict[str, Any]) -> None:
    name = function.rpartition(".")[2]
    x = a.get("x", a.get("x1"))
    if name in ("concat", "stack") and isinstance(a.get("arrays"), (list, tuple)):
        x = a["arrays"][0] if a["arrays"] else None
    ndim = _ndim(x)
    if name in ("vecdot", "cross") and ndim is not None and _ndim(a.get("x2")) is not None:
        ndim = max(ndim, _ndim(a["x2"]))  # type: ignore[type-var]
    axis = a.get("axis")
    if axis is not None and ndim is not None:
        if name == "stack":
            ndim += 1
        elif name == "expand_dims":
            ndim += len(axis) if isinstance(axis, tuple) else 1
        if name in _REPEATS_ALLOWED:
            for item in axis if isinstance(axis, tuple) else (axis,):
                backend.normalize_axis(item, ndim, function)
        else:
            backend.normalize_axes(axis, ndim, function)
    axes = a.get("axes")
    if axes is not None and ndim is not None and name not in _OTHER_AXES:
        if not isinstance(axes, (tuple, list)):
            raise backend.error(function, f"axes must be a tuple of ints, got {axes!r}",
                                TypeError)  # fmt: skip
        for item in axes:
            backend.normalize_axis(item, ndim, function)
    if function.startswith("fft.") and a.get("n") is not None:
        positive(backend, a["n"], "n", function)
    if a.get("s") is not None:
        for size in sequence(backend, a["s"], "s", function):
            positive(backend, size, "s", function)
        if axes is not None and len(a["s"]) != len(axes):
            raise backend.error(function, f"s {a['s']!r} and axes {axes!r} differ in length")
    for key in _INTEGERS:
        if key in a:
            integer(backend, a[key], key, function)
    if "num" in a:
        integer(backend, a["num"], "num", function, minimum=0)
    if "repetitions" in a:
        for item in sequence(backend, a["repetitions"], "repetitions", function):
            integer(backend, item, "repetitions", function, minimum=0)
    if name in ("reshape", "broadcast_to") and "shape" in a:
        items = sequence(backend, a["shape"], "shape", function)
        for item in items:
            integer(backend, item, "shape", function, minimum=-1 if name == "reshape" else 0)
        if sum(item == -1 for item in items) > 1:
            raise backend.error(function, f"shape {a['shape']!r} has more than one -1")
    if isinstance(a.get("repeats"), (bool, int, float, complex, str)):
        integer(backend, a["repeats"], "repeats", function, minimum=0)
