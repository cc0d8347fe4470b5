"""The ``linalg`` and ``fft`` extensions against array_api_strict's, on hypothesis inputs."""

from __future__ import annotations

from typing import Any

import array_api_strict as xs
import pytest
from hypothesis import given

from eagerpy_xp import _spec

from .extension_cases import FFT_CASES, LINALG_CASES
from .functions import Case
from .harness import Target
from .strategies import Call
from .test_differential import check_call

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_TABLES = {"linalg": LINALG_CASES, "fft": FFT_CASES}


def test_tables_cover_the_extensions() -> None:
    assert set(LINALG_CASES) == set(_spec.LINALG)
    assert set(FFT_CASES) == set(_spec.FFT)


@pytest.mark.parametrize(("area", "name"),
                         [(area, name) for area, table in _TABLES.items() for name in table])
def test_extension_matches_reference(target: Target, area: str, name: str) -> None:
    case: Case = _TABLES[area][name]
    fn = target.function(f"{area}.{name}")
    reference: Any = getattr(xs, area)

    @given(call=case.calls)
    def check(call: Call) -> None:
        check_call(target, name, case, call, fn, reference)

    check()
