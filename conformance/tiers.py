"""The authority of each check: must, should or house.

Every item of the suite asserts something on one of three authorities:

- ``must``: the standard's normative text (its "must", its signatures' parameter names and
  order, its special cases, its type promotion table, its required names).  A namespace is
  *conformant* when it has no must failure (a missing required name counts as one).
- ``should``: the standard's recommendations ("should", "may": positional-only and
  keyword-only parameters, an IndexError for an out-of-range key, ...).  Peers are judged
  by must and should.
- ``house``: this project's own contract where the standard says nothing or leaves a
  choice: the exception types and message format of docs/errors.md, OverflowError for a
  Python int beyond a dtype, the sign of a zero the standard leaves open, NumPy keys,
  compiled and vectorized calls.  eagerpy_xp's columns must pass it too; another
  namespace's house failures are shown apart and never make it non-conformant.

A test declares its tier in one place: the ``tier`` marker, on the test function (or on
one ``pytest.param`` of it, for an item whose authority differs from its siblings'),
with the reason::

    @pytest.mark.tier("should", "the standard: parameters before / should be positional-only")

An unmarked item is ``must``.  That default is the strict one on purpose: most of the
suite compares with the standard's reference (array_api_strict) or its written special
cases, and a check that asserts less than the normative text must say so; the calibration
(`conformance.calibration`, run in CI) fails on any must failure of array_api_strict that
is not a listed upstream deviation, so a check that claims ``must`` wrongly is caught
there rather than published as a peer's fault.
"""

from __future__ import annotations

from typing import Any

MUST, SHOULD, HOUSE = "must", "should", "house"
TIERS = (MUST, SHOULD, HOUSE)
DEFAULT = MUST

#: The tiers a namespace is judged by (a failure of these makes a column red): eagerpy_xp's
#: own columns by all three, another namespace by the standard's two.
JUDGED_OURS = TIERS
JUDGED_PEER = (MUST, SHOULD)


def tier_of(item: Any) -> str:
    """The tier of a pytest item: its closest ``tier`` marker's first argument, else
    `DEFAULT`."""
    marker = item.get_closest_marker("tier")
    if marker is None:
        return DEFAULT
    name = marker.args[0] if marker.args else marker.kwargs.get("name", DEFAULT)
    if name not in TIERS:
        raise ValueError(f"{item.nodeid}: unknown tier {name!r}; known: {', '.join(TIERS)}")
    return str(name)


def parse(option: str | None) -> tuple[str, ...]:
    """The tiers of a ``--tier`` option (comma separated; None or "all": every tier)."""
    if not option or option == "all":
        return TIERS
    chosen = tuple(t.strip() for t in option.split(",") if t.strip())
    unknown = [t for t in chosen if t not in TIERS]
    if unknown:
        raise ValueError(f"unknown tier {', '.join(unknown)}; known: {', '.join(TIERS)}")
    return chosen


def judged(ours: bool) -> tuple[str, ...]:
    """The tiers whose failures count against a column (see `JUDGED_OURS`)."""
    return JUDGED_OURS if ours else JUDGED_PEER
