"""Failures the suite knows about, each with its reason.  This list must only shrink.

A failure found in a backend is fixed in that backend; an entry is the record of one that
is not fixed yet (owner busy, framework bug), kept by the backend itself (its
descriptor's ``limitations``, `eagerpy_xp._descriptor.Limitation`).  An entry matches test items by
backend, flavour ("*" for both), spec function name (or test name) and, optionally, a
substring of the test id.  Matching items are marked ``xfail`` with the reason; one that
passes anyway is reported by ``python -m conformance`` so that its entry can go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eagerpy_xp._detect import REGISTRY


@dataclass(frozen=True)
class KnownFailure:
    backend: str
    flavour: str  # "wrapped", "native" or "*"
    function: str  # spec name as in the matrix's --functions rows, or "*"
    reason: str
    test: str = ""  # substring of the test id, "" for any

    def matches(self, nodeid: str, facts: dict[str, Any]) -> bool:
        return (
            facts["backend"] == self.backend
            and self.flavour in ("*", facts["flavour"])
            and self.function in ("*", facts["function"])
            and self.test in nodeid
        )


#: Every backend's known failures (its descriptor's ``limitations``).
KNOWN_FAILURES: tuple[KnownFailure, ...] = tuple(
    KnownFailure(name, entry.flavour, entry.function, entry.reason, entry.test)
    for name, descriptor in REGISTRY.items() for entry in descriptor.limitations
)


def match(nodeid: str, facts: dict[str, Any]) -> str | None:
    """The reason of the first entry matching a test item, or None."""
    for entry in KNOWN_FAILURES:
        if entry.matches(nodeid, facts):
            return entry.reason
    return None
