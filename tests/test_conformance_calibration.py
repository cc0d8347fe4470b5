"""The calibration of the conformance suite on array_api_strict, the standard's reference.

The must tier of the suite on ``array_api_strict`` fails exactly where
`conformance.calibration` lists a known upstream deviation: any other must failure is the
suite asserting what the standard does not say (a wrong verdict, which would be
published as a peer's fault), and a listed deviation that no longer fails is a stale entry.
A small, fixed number of examples keeps it well under two minutes on two cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.calibration import DEVIATIONS, VERSION, explain

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("array_api_strict")


def _run(tmp_path: Path, tier: str) -> list[dict[str, object]]:
    record = tmp_path / f"{tier}.jsonl"
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", JAX_ENABLE_X64="1")
    subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "conformance"), "-p", "conformance.plugin",
         "-p", "_hypothesis_pytestplugin", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
         "--backend", "none", "--namespace", "array_api_strict", "--max-examples", "2",
         "--tier", tier, "--no-suite-checks", "--record", str(record)],
        cwd=ROOT, env=env, capture_output=True, timeout=600, check=False)  # fmt: skip
    events = [json.loads(line) for line in record.read_text().splitlines() if line.strip()]
    return [e for e in events if e["event"] == "result"]


def test_strict_fails_exactly_the_listed_deviations(tmp_path: Path) -> None:
    import array_api_strict

    assert array_api_strict.__version__ == VERSION, (
        f"array_api_strict {array_api_strict.__version__}: calibrated on {VERSION}; run "
        "the must tier on it and update conformance/calibration.py")
    results = _run(tmp_path, "must")
    assert len(results) > 1500, f"only {len(results)} items ran"
    assert {r["tier"] for r in results} == {"must"}
    bad = [r for r in results if r["outcome"] in ("failed", "missing")]
    unexplained = [f"{r['nodeid']}: {str(r['message'])[:200]}" for r in bad
                   if explain(str(r["nodeid"])) is None]  # fmt: skip
    assert not unexplained, "must failures on array_api_strict that are no known deviation " \
        "(a wrong verdict of the suite?):\n" + "\n".join(unexplained)
    failing = [str(r["nodeid"]) for r in bad]
    stale = [d.what for d in DEVIATIONS
             if d.always and not all(any(part in n for n in failing) for part in d.tests)]
    assert not stale, f"listed deviations that no longer fail: {stale}"
