"""The in-process half of ``python -m conformance``: a pytest plugin that records as it goes.

``python -m conformance`` runs one pytest process per backend or namespace (``--record FILE``);
this plugin appends one JSON object per line to FILE and flushes it at once, so that the
parent shows progress and a killed run still leaves every finished result on disk:

- ``{"event": "collected", "total": N, "targets": [...], "versions": {...}, ...}``
- ``{"event": "result", "nodeid": ..., "outcome": ..., "area": ..., "function": ...,
  "backend": ..., "flavour": ..., "device": ..., "target": ..., "tier": ..., "message": ...,
  "call": ...,
  "seconds": ..., "cpu_s": ...}`` (``outcome`` "missing": the namespace lacks the name
  the item needs, ``missing``)
- ``{"event": "finished", "exitstatus": N, "cpu_s": ...}``

Nothing here names a backend: the targets, areas and functions come from the suite.
"""

from __future__ import annotations

import json
import os
import platform
import re
import time
from importlib import metadata
from typing import Any, TextIO

import pytest

from eagerpy_xp._detect import REGISTRY

from .harness import Target

OUTCOMES = ("passed", "failed", "missing", "xfailed", "xpassed", "skipped")

#: Distributions whose versions every report records (the frameworks of the run's targets
#: are added by their import name).
_ALWAYS = ("eagerpy-xp", "numpy", "hypothesis", "array-api-strict", "pytest")


def outcome_of(report: pytest.TestReport) -> str | None:
    """The matrix outcome of one report phase (None: this phase decides nothing)."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpassed" if xfail else "passed"
        if report.skipped:
            return "xfailed" if xfail else "skipped"
        return "failed"
    if report.failed:
        return "failed"  # a setup or teardown error
    if report.when == "setup" and report.skipped:
        return "xfailed" if xfail else "skipped"
    return None


_FALSIFYING = re.compile(r"Falsifying (?:explicit )?example: (.*)", re.DOTALL)
_REPRODUCE = re.compile(r"You can reproduce this example.*?(@reproduce_failure\(.*?\))", re.DOTALL)


def failure_text(longrepr: str, limit: int = 1200) -> tuple[str, str]:
    """(the assertion message, the reproducing call) of a failure's long report.

    The call is hypothesis's "Falsifying example" (the generated arguments); tests without
    hypothesis name their inputs in the message.
    """
    e_lines = [ln[1:].strip() for ln in longrepr.splitlines() if ln.startswith("E ")]
    if not e_lines:
        e_lines = [ln.strip() for ln in longrepr.splitlines()[-3:]]
    joined = "\n".join(e_lines)
    found = _FALSIFYING.search(joined)
    call = ""
    if found:
        joined = joined[: found.start()].strip()
        example = found.group(1)
        blob = _REPRODUCE.search(example)
        example = example[: blob.start()] if blob else example
        call = " ".join(example.split()) + (f"  {blob.group(1)}" if blob else "")
    message = " ".join(joined.split())
    return message[:limit], call[:limit]


def device_name(backend: str, device: str) -> str:
    """What the framework calls a device (the GPU's model name), or the CPU's."""
    name = REGISTRY[backend].device_name if backend in REGISTRY else None
    try:
        if device.partition(":")[0] == "cuda" and name is not None:
            return name(device)
    except Exception as exc:  # a name is decoration: never fail the run for it
        return f"{device} ({type(exc).__name__})"
    return platform.processor() or platform.machine() or "cpu"


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def versions(packages: list[str]) -> dict[str, str]:
    """Installed versions of the suite's own dependencies and of the distributions that
    provide the tested frameworks and namespaces (by top-level package: ``torch``,
    ``array_api_compat``, ``mlx``)."""
    found: dict[str, str] = {"python": platform.python_version()}
    owners = metadata.packages_distributions()
    seen = set()
    for name in (*_ALWAYS, *(d for p in packages for d in owners.get(p, [p]))):
        normal = re.sub(r"[-_.]+", "-", name).lower()  # array_api_strict is array-api-strict
        version = _version(name)
        if version is not None and normal not in seen:
            seen.add(normal)
            found[name] = version
    return found


def target_record(target: Target) -> dict[str, Any]:
    available = target.unavailable is None
    return {"id": target.id, "backend": target.backend, "flavour": target.flavour,
            "device": target.device, "namespace": target.module, "ours": target.ours,
            "available": available, "reason": target.unavailable,
            "device_name": device_name(target.backend, target.device) if available else ""}  # fmt: skip


class Recorder:
    """Writes each outcome to a JSON-lines file the moment it is known."""

    def __init__(self, path: str, suite_checks: bool) -> None:
        self._file: TextIO = open(path, "a", encoding="utf-8")
        self._suite_checks = suite_checks
        self._seen: set[str] = set()
        self._started: dict[str, tuple[float, float]] = {}
        self._parent = os.getppid()

    def _write(self, event: dict[str, Any]) -> None:
        self._file.write(json.dumps(event, default=str) + "\n")
        self._file.flush()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:  # fmt: skip
        if self._suite_checks:
            return
        # Items without a target check the suite itself: one process of the run does them.
        kept = [i for i in items if "target" in getattr(i, "fixturenames", ())]
        dropped = [i for i in items if "target" not in getattr(i, "fixturenames", ())]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        from .session import targets

        chosen = targets(session.config)
        packages = {t.backend for t in chosen} | {t.module.partition(".")[0] for t in chosen}
        self._write({"event": "collected", "total": len(session.items), "time": time.time(),
                     "targets": [target_record(t) for t in chosen],
                     "versions": versions(sorted(packages - {"eagerpy_xp"})),
                     "errors": session.testsfailed,
                     "cpu_s": round(time.process_time(), 2)})  # fmt: skip

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self._started[nodeid] = (time.monotonic(), time.process_time())
        if os.getppid() != self._parent:  # python -m conformance was killed: stop too
            pytest.exit("the process that started this run is gone", returncode=3)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = outcome_of(report)
        if outcome is None or report.nodeid in self._seen:
            return
        self._seen.add(report.nodeid)
        properties: dict[str, Any] = dict(report.user_properties)
        facts: dict[str, Any] = properties.get("facts", {})
        message = call = ""
        if outcome == "failed" and "missing" in properties:
            outcome, message = "missing", f"missing: {properties['missing']}"
        elif outcome == "failed":
            message, call = failure_text(report.longreprtext)
        elif outcome in ("skipped", "xfailed") and isinstance(report.longrepr, tuple):
            message = str(report.longrepr[2])
        elif outcome == "xfailed":
            message = str(getattr(report, "wasxfail", ""))
        wall, cpu = self._started.get(report.nodeid, (time.monotonic(), time.process_time()))
        self._write({"event": "result", "nodeid": report.nodeid, "outcome": outcome,
                     "area": facts.get("area", "suite"), "function": facts.get("function", ""),
                     "backend": facts.get("backend", "-"), "flavour": facts.get("flavour", "-"),
                     "device": facts.get("device", "-"), "target": facts.get("target", "-"),
                     "tier": facts.get("tier", "must"), "message": message, "call": call,
                     "seconds": round(time.monotonic() - wall, 3),
                     "cpu_s": round(time.process_time() - cpu, 4)})  # fmt: skip

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            message, _ = failure_text(report.longreprtext)
            self._write({"event": "collect_error", "nodeid": report.nodeid, "message": message})

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self._write({"event": "finished", "exitstatus": int(exitstatus), "time": time.time(),
                     "cpu_s": round(time.process_time(), 2)})  # fmt: skip
        self._file.close()
