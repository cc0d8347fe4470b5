"""The targets a pytest session of the suite tests (set by `conformance.conftest`, read by
the recorder and by the tests that run something once for every target)."""

from __future__ import annotations

import pytest

from .harness import Target

TARGETS = pytest.StashKey[list[Target]]()


def targets(config: pytest.Config) -> list[Target]:
    """Every requested target (available or not)."""
    return config.stash[TARGETS]
