"""pytest wiring of the conformance suite: targets, hypothesis profile, known failures.

The options (``--backend``, ``--flavour``, ``--device``, comma separated, default all;
``--max-examples``, small by default so that CI stays fast) are registered by the early
plugin `conformance.plugin`, which pyproject's addopts loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import AREA_OF, Missing, Target, Unsupported, discover, prepare_environment
from .plugin import DEFAULT_MAX_EXAMPLES
from .session import TARGETS, targets
from .tiers import parse as parse_tiers
from .tiers import tier_of

prepare_environment()  # the harness's choice, before any framework loads (plugin.py does it first)

from hypothesis import HealthCheck, Phase, settings  # noqa: E402

from .known_failures import match as known_failure  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
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
    config.stash[TARGETS] = discover(
        config.getoption("--backend"), config.getoption("--flavour"),
        config.getoption("--device"), config.getoption("--namespace"))  # fmt: skip


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "target" not in metafunc.fixturenames:
        return
    chosen = targets(metafunc.config)
    if metafunc.definition.get_closest_marker("all_targets") is None:
        chosen = [t for t in chosen if t.unavailable is None]
    if metafunc.definition.get_closest_marker("array_object") is not None:
        chosen = [t for t in chosen if t.unavailable is None and t.operators]
    if metafunc.definition.get_closest_marker("ours_only") is not None:
        chosen = [t for t in chosen if t.ours]
    if metafunc.definition.get_closest_marker("exports") is not None:
        chosen = [t for t in chosen if t.unavailable is None
                  and hasattr(t.xp.__backend__, "export_model")]  # fmt: skip
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
        "target": target.id if target else "-",
        "tier": tier_of(item),
    }


_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = parse_tiers(config.getoption("--tier"))
    if len(wanted) < 3:  # --tier: only the checks of those tiers (`conformance.tiers`)
        mine = [i for i in items if _HERE in Path(i.path).resolve().parents]
        dropped = [i for i in mine if "target" in getattr(i, "fixturenames", ())
                   and tier_of(i) not in wanted]  # fmt: skip
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            gone = set(map(id, dropped))
            items[:] = [i for i in items if id(i) not in gone]
    for item in items:
        if _HERE not in Path(item.path).resolve().parents:
            continue  # the library's own unit tests
        if item.get_closest_marker("ours_only") is not None and tier_of(item) != "house":
            raise pytest.UsageError(f"{item.nodeid}: an ours_only check is eagerpy_xp's own "
                                    "contract: mark it tier('house', why)")  # fmt: skip
        facts = item_facts(item)
        item.user_properties.append(("facts", facts))
        reason = known_failure(item.nodeid, facts)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {reason}", strict=False))


def missing_name(exc: BaseException, target: Target) -> str | None:
    """The name a failure says the namespace lacks: `Missing` from `Target.function`, or
    an `AttributeError` of the namespace, one of its submodules (``linalg``, ``fft``) or
    its array object; None for any other failure."""
    if isinstance(exc, Missing):
        return exc.name
    if not isinstance(exc, AttributeError) or exc.name is None:
        return None
    owner = exc.obj
    if owner is None or target.unavailable is not None:
        return None
    xp = target.xp
    if owner is xp:
        return exc.name
    for part in ("linalg", "fft"):
        if owner is getattr(xp, part, None):
            return f"{part}.{exc.name}"
    if target.is_array(owner):
        return f"array.{exc.name}"
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failure that is a missing name is marked (the recorder counts it as "missing");
    an input dtype the namespace does not list skips the item, with the reason."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if call.excinfo is None or call.when != "call":
        return
    exc = call.excinfo.value
    if isinstance(exc, Unsupported):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {exc}")
        return
    callspec = getattr(item, "callspec", None)
    target = callspec.params.get("target") if callspec is not None else None
    if isinstance(target, Target):
        name = missing_name(exc, target)
        if name is not None:
            report.user_properties.append(("missing", name))


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
