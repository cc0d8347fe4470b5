"""Integration tests: eagerpy_xp Arrays inside libraries written against the array API.

SciPy reads ``SCIPY_ARRAY_API`` once, when it is first imported, so it is set here, at
import time of this conftest, before any test module here imports SciPy; the early plugin
`scipy_array_api` (pyproject's addopts) sets it before anything else can import SciPy.
"""

from __future__ import annotations

import os

os.environ["SCIPY_ARRAY_API"] = "1"

import pytest
from _integration import Target, targets


@pytest.fixture(params=targets(), ids=str)
def target(request: pytest.FixtureRequest) -> Target:
    """One backend's wrapped flavour, with the dtypes and tolerances tests use on it."""
    name: str = request.param
    return Target.load(name)


@pytest.fixture
def scipy_array_api() -> None:
    """Fail clearly when SciPy was imported before ``SCIPY_ARRAY_API`` could be set."""
    from scipy._lib._array_api import SCIPY_ARRAY_API

    if not SCIPY_ARRAY_API:
        pytest.fail("SciPy was imported before SCIPY_ARRAY_API=1 was set: keep pyproject's "
                    "addopts (`-p tests.integration.scipy_array_api` comes first) or export "
                    "SCIPY_ARRAY_API=1")  # fmt: skip
