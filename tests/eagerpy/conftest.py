"""Fixtures of the EagerPy-compatibility tests: hygienic `install` (sys.modules restored
afterwards)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _ep_frameworks import eagerpy_modules


@pytest.fixture
def installed() -> Iterator[None]:
    """`eagerpy_xp.eagerpy.install()` for one test; every ``eagerpy*`` module entry is
    restored afterwards, so tests that import the real EagerPy are unaffected."""
    import eagerpy_xp.eagerpy as xep

    before = eagerpy_modules()
    xep.install()
    try:
        yield
    finally:
        xep.uninstall()
        assert eagerpy_modules() == before
