"""``python -m conformance`` on namespaces other than eagerpy_xp's: ``--namespace`` with a
namespace written here (a few functions over NumPy, one wrong, most missing), one that
cannot make an array, ``--peers`` beside eagerpy_xp's columns, and ``--compare`` of one
namespace's run against another's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance import report as rep
from conformance.conftest import missing_name
from conformance.harness import Missing, Target, device_label, discover, group_of, probe
from conformance.report_html import render_html

ROOT = Path(__file__).resolve().parents[1]

#: A namespace of five functions over NumPy: ``abs`` right, ``add`` wrong on purpose
#: (it subtracts), no ``acos``, no ``linalg``, no ``__array_namespace_info__``, and only
#: five of the thirteen dtypes.
FAKE = '''
import numpy as np

__array_api_version__ = "2025.12"
bool = np.bool_
int32, int64, float32, float64 = np.int32, np.int64, np.float32, np.float64


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    return np.asarray(obj, dtype=dtype)


def abs(x, /):
    return np.asarray(np.abs(x))


def add(x1, x2, /):
    return np.asarray(np.subtract(x1, x2))
'''

#: A namespace whose arrays cannot be made at all.
BROKEN = '''
__array_api_version__ = "2025.12"


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    raise RuntimeError("no arrays here")
'''


def _conformance(*args: str, report_dir: Path,
                 path: Path | None = None) -> tuple[int, str, dict[str, Any]]:  # fmt: skip
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-m", "conformance", "--report-dir", str(report_dir),
                           "--no-progress", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    out = done.stdout + done.stderr
    report = json.loads((report_dir / "conformance.json").read_text())
    return done.returncode, out, report


def test_a_foreign_namespace_shows_its_failures_and_missing_names(tmp_path: Path) -> None:
    (tmp_path / "fakens.py").write_text(FAKE)
    (tmp_path / "brokenns.py").write_text(BROKEN)
    code, out, report = _conformance(
        "--namespace", "fakens", "--namespace", "brokenns", "--max-examples", "3", "-k",
        "test_available or (test_matches_reference and (abs or add or acos))",
        report_dir=tmp_path / "r", path=tmp_path)  # fmt: skip
    assert code == 1, out  # failures and missing names: exit status 1, no crash
    assert report["status"] == "complete"
    assert [t["id"] for t in report["targets"]] == ["fakens-cpu", "brokenns-cpu"]
    fake, broken = report["targets"]
    assert fake["backend"] == "numpy" and fake["flavour"] == "fakens" and not fake["ours"]
    assert fake["available"] and not broken["available"]
    assert broken["reason"].startswith("cannot run: brokenns: asarray(numpy.array([1.0, 2.0]))"
                                       " raised RuntimeError: no arrays here")
    outcomes = {r["function"]: r for r in report["results"] if r["target"] == "fakens-cpu"
                and r["nodeid"].startswith("conformance/test_differential.py")}  # fmt: skip
    assert outcomes["abs"]["outcome"] == "passed"  # on the five dtypes it lists
    assert outcomes["add"]["outcome"] == "failed"
    assert "add" in outcomes["add"]["message"] and "values differ" in outcomes["add"]["message"]
    assert outcomes["add"]["call"].startswith("check( call=Call(")  # the reproducing call
    assert outcomes["acos"]["outcome"] == "missing"
    assert outcomes["acos"]["message"] == "missing: acos"
    assert "MISSING in fakens-cpu: acos, acosh, logaddexp" in out  # -k "acos" names acosh too
    assert "fakens-cpu: not conformant: must 2 passed / 4 failed (3 missing);" in out
    assert "brokenns-cpu: not run: cannot run: brokenns" in out
    markdown = (tmp_path / "r" / "conformance.md").read_text()
    assert "## Missing" in markdown and "- `fakens-cpu`: `acos`, `acosh`, `logaddexp`" in markdown
    assert "## Not available" in markdown and "brokenns-cpu" in markdown
    total = rep.cell_text(report["totals"]["fakens-cpu"], fake)
    assert total == "2/4 (3 missing)"


def test_peers_read_side_by_side_with_our_columns(tmp_path: Path) -> None:
    code, out, report = _conformance(
        "--peers", "--backend", "numpy", "--flavour", "native", "--max-examples", "2",
        "-k", "test_matches_reference and (abs or add)", report_dir=tmp_path)  # fmt: skip
    assert code in (0, 1) and report["status"] == "complete", out  # a peer may fail items
    ids = [t["id"] for t in report["targets"]]
    assert ids == ["numpy-native-cpu", "array_api_compat.numpy-cpu", "array_api_strict-cpu"]
    assert {j["name"] for j in report["jobs"]} == {"numpy", "array_api_compat.numpy",
                                                   "array_api_strict"}
    assert report["options"]["namespaces"] == ["array_api_compat.numpy", "array_api_strict"]
    strict = report["totals"]["array_api_strict-cpu"]
    assert strict["passed"] == 3 and strict["failed"] == 0, out
    assert "array-api-strict" in report["versions"] and "array-api-compat" in report["versions"]
    page = (tmp_path / "conformance.html").read_text()
    # one framework group: a header cell spanning our column and the two peers
    assert "<th class='group group-start' colspan='3'>numpy</th>" in page
    assert "<th class='peer' title='array_api_strict'>array_api_strict</th>" in page
    assert "<tr class=\"summary\"><td class=\"row\">summary</td>" in page.replace("'", '"')
    assert "conformant: must 3 passed / 0 failed;" in page


def test_columns_group_by_framework_ours_first() -> None:
    targets = [{"id": i, "backend": b, "flavour": f, "device": "cpu", "ours": o}
               for i, b, f, o in [("jax.numpy-cpu", "jax", "jax.numpy", False),
                                  ("zz-cpu", "zz", "zz", False),
                                  ("jax-native-cpu", "jax", "native", True),
                                  ("array_api_strict-cpu", "numpy", "array_api_strict", False),
                                  ("numpy-native-cpu", "numpy", "native", True),
                                  ("jax-wrapped-cpu", "jax", "wrapped", True)]]  # fmt: skip
    assert [t["id"] for t in rep.column_order(targets)] == [
        "numpy-native-cpu", "array_api_strict-cpu", "jax-wrapped-cpu", "jax-native-cpu",
        "jax.numpy-cpu", "zz-cpu"]  # fmt: skip


def _state(column: str, backend: str, flavour: str, outcomes: dict[str, str]) -> dict[str, Any]:
    results = [{"nodeid": f"conformance/test_differential.py::test_matches_reference"
                          f"[{column}-{name}]", "outcome": outcome, "area": "elementwise",
                "function": name, "backend": backend, "flavour": flavour, "device": "cpu",
                "target": column, "message": "", "call": "", "seconds": 0.1}
               for name, outcome in outcomes.items()]  # fmt: skip
    target = {"id": column, "backend": backend, "flavour": flavour, "device": "cpu",
              "available": True, "reason": None, "device_name": ""}  # fmt: skip
    return {"status": "complete", "partial_reason": None, "run_id": column,
            "started": "2026-01-01T00:00:00Z", "runtime_s": 1.0,
            "options": {"max_examples": 4}, "machine": {}, "versions": {},
            "jobs": [{"name": column, "targets": [column], "status": "done"}],
            "targets": [target], "results": results}  # fmt: skip


def test_compare_across_namespaces_pairs_the_two_columns() -> None:
    old = rep.build(_state("array_api_compat.torch-cpu", "torch", "array_api_compat.torch",
                           {"abs": "failed", "add": "passed", "acos": "missing"}))
    new = rep.build(_state("torch-native-cpu", "torch", "native",
                           {"abs": "passed", "add": "failed", "acos": "passed"}))
    comparison = rep.compare(old, new)
    assert comparison["paired"] == ["array_api_compat.torch-cpu", "torch-native-cpu"]
    prefix = "conformance/test_differential.py::test_matches_reference[torch-native-cpu-"
    assert comparison["better"] == [prefix + "abs]", prefix + "acos]"]
    assert comparison["worse"] == [prefix + "add]"]
    assert comparison["added"] == [] and comparison["removed"] == []
    assert comparison["cells"] == {"torch-native-cpu": {"before": pytest.approx(1 / 3),
                                                        "after": pytest.approx(2 / 3)}}
    text = rep.render_comparison(comparison)
    assert "the old column array_api_compat.torch-cpu compared with the new column " \
           "torch-native-cpu" in text  # fmt: skip
    # the same namespace in both: nothing is paired, items match by id
    again = rep.compare(new, new)
    assert again["paired"] is None and again["worse"] == [] and again["better"] == []
    new["comparison"] = comparison
    assert 'class="delta better"' in render_html(new)


def test_probe_of_other_namespaces() -> None:
    import array_api_strict

    facts = probe(array_api_strict, None)
    assert facts.operators and facts.framework is None and facts.label == "cpu"
    assert facts.dtypes == frozenset(("bool", "int8", "int16", "int32", "int64", "uint8",
                                      "uint16", "uint32", "uint64", "float32", "float64",
                                      "complex64", "complex128"))  # fmt: skip
    compat = probe(pytest.importorskip("array_api_compat.numpy"), None)
    assert not compat.operators  # NumPy arrays name numpy as their namespace, not compat
    assert compat.framework == "numpy" and compat.array_type is np.ndarray
    assert group_of("array_api_strict", facts) == "numpy"
    assert group_of("somewhere.else", compat) == "numpy"
    assert device_label(None) == "default" and device_label("cuda:1") == "cuda:1"


def test_a_missing_name_is_told_apart_from_a_failure() -> None:
    (target,) = discover("none", None, None, ["array_api_strict"])
    assert target.unavailable is None and not target.ours
    with pytest.raises(Missing) as info:
        target.function("linalg.nonexistent")
    assert missing_name(info.value, target) == "linalg.nonexistent"
    try:
        target.xp.linalg.also_missing  # noqa: B018
    except AttributeError as exc:
        assert missing_name(exc, target) == "linalg.also_missing"
    try:
        target.asarray(np.zeros(2)).no_such_attribute  # noqa: B018
    except AttributeError as exc:
        assert missing_name(exc, target) == "array.no_such_attribute"
    assert missing_name(AttributeError("inside a function"), target) is None
    assert missing_name(ValueError("x"), target) is None
    ours = Target("numpy", "native", "cpu")
    assert ours.ours and ours.module == "eagerpy_xp.native.numpy" and ours.dev == "cpu"
