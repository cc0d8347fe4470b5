"""Wrappers out of a nest and back in, for framework transforms that map only their own
arrays (``tf.vectorized_map``'s output checks, ``mx.compile``, ``mx.vmap``).

A nest is a tuple (named tuples too), list or dict of nests, or a leaf.  `strip` swaps
every wrapper (`eagerpy_xp.Array`, which a backend knows only as the class the assembly
registered) for its native array and says where they were; `dress` puts wrappers back
at those places.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Where wrappers were: True (a wrapper), False (anything else), or a tuple/dict of
#: places matching a container.
Places = Any


def strip(obj: Any, cls: type) -> tuple[Any, Places]:
    """``obj`` with every ``cls`` instance replaced by its ``.raw``, and their places."""
    t = type(obj)
    if t is cls:
        return obj.raw, True
    if t is list or t is tuple or (isinstance(obj, tuple) and hasattr(obj, "_fields")):
        parts = [strip(o, cls) for o in obj]
        raws = [p[0] for p in parts]
        rebuilt = t(*raws) if t is not list and t is not tuple else t(raws)
        return rebuilt, tuple(p[1] for p in parts)
    if t is dict:
        stripped = {k: strip(v, cls) for k, v in obj.items()}
        return {k: v[0] for k, v in stripped.items()}, {k: v[1] for k, v in stripped.items()}
    return obj, False


def dress(obj: Any, places: Places, wrap: Callable[[Any], Any]) -> Any:
    """``obj`` (as `strip` left it, or a nest of the same shape) with ``wrap`` applied
    at the places `strip` found wrappers."""
    if places is True:
        return wrap(obj)
    if places is False:
        return obj
    if isinstance(places, dict):
        return {k: dress(obj[k], places[k], wrap) for k in obj}
    items = [dress(o, p, wrap) for o, p in zip(obj, places)]
    t = type(obj)
    return t(*items) if isinstance(obj, tuple) and hasattr(obj, "_fields") else t(items)
