"""pytest wiring of the conformance suite: targets, hypothesis profile, known failures.

The options (``--backend``, ``--flavour``, ``--device``, comma separated, default all;
``--max-examples``, small by default so that CI stays fast) are registered by the early
plugin `conformance.plugin`, which pyproject's addopts loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import AREA_OF, Target, discover, enable_jax_x64
from .plugin import DEFAULT_MAX_EXAMPLES

enable_jax_x64()  # the harness's choice, before anything imports jax (plugin.py does it first)

from hypothesis import HealthCheck, Phase, settings  # noqa: E402

from .known_failures import match as known_failure  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "flavours(*names): run only for these flavours")
    config.addinivalue_line("markers", "all_targets: also run for unavailable targets")
    examples = config.getoption("--max-examples")
    quick = examples <= DEFAULT_MAX_EXAMPLES  # CI: reproducible, no time spent shrinking
    settings.register_profile(
        "conformance",
        max_examples=examples,
        deadline=None,
        derandomize=quick,
        phases=[p for p in Phase if p is not Phase.shrink or not quick],
        database=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    config.stash[_TARGETS] = discover(
        config.getoption("--backend"), config.getoption("--flavour"), config.getoption("--device")
    )


_TARGETS = pytest.StashKey[list[Target]]()


def targets(config: pytest.Config) -> list[Target]:
    """Every requested target (available or not)."""
    return config.stash[_TARGETS]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "target" not in metafunc.fixturenames:
        return
    chosen = targets(metafunc.config)
    if metafunc.definition.get_closest_marker("all_targets") is None:
        chosen = [t for t in chosen if t.unavailable is None]
    marker = metafunc.definition.get_closest_marker("flavours")
    if marker is not None:
        chosen = [t for t in chosen if t.flavour in marker.args]
    metafunc.parametrize("target", chosen, ids=[t.id for t in chosen], scope="session")


def item_facts(item: pytest.Item) -> dict[str, Any]:
    """Matrix coordinates of a test item: area, function, backend, flavour, device."""
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    target = params.get("target")
    target = target if isinstance(target, Target) else None
    name = params.get("name")
    name = str(name) if name is not None else item.originalname  # type: ignore[attr-defined]
    area = getattr(item.module, "AREA", None) or AREA_OF.get(name, "utility")
    area = params.get("area", area)
    return {
        "area": area,
        "function": name,
        "backend": target.backend if target else "-",
        "flavour": target.flavour if target else "-",
        "device": target.device if target else "-",
    }


_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE not in Path(item.path).resolve().parents:
            continue  # the library's own unit tests
        facts = item_facts(item)
        item.user_properties.append(("facts", facts))
        reason = known_failure(item.nodeid, facts)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {reason}", strict=False))


@pytest.fixture(autouse=True)
def _conformance_profile() -> Any:
    """The suite's hypothesis settings, for the suite's tests only."""
    previous = settings.get_current_profile_name()
    settings.load_profile("conformance")
    yield
    settings.load_profile(previous)


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> Target:
    t: Target = request.param
    return t
