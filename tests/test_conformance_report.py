"""``python -m conformance``'s machinery: the report, its pages, the comparison, the run.

The HTML page is checked in a real headless Chromium (Debian's ``chromium``) when one is
installed: the test clicks an area and a failing cell and reads what the page shows.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance import report as rep
from conformance.__main__ import (
    HAND_WRITTEN,
    PEERS_BEGIN,
    PEERS_END,
    docs_page,
    peers_section,
    write_reports,
)
from conformance.functions import CASES
from conformance.recorder import failure_text
from conformance.report_html import render_html
from conformance.runner import Progress, Run

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _result(nodeid: str, outcome: str, area: str, function: str, target: str,
            message: str = "", call: str = "") -> dict[str, Any]:  # fmt: skip
    backend, flavour, device = target.split("-")
    return {"nodeid": nodeid, "outcome": outcome, "area": area, "function": function,
            "backend": backend, "flavour": flavour, "device": device, "message": message,
            "call": call, "seconds": 0.1}  # fmt: skip


def _state(status: str = "complete", failing: bool = True) -> dict[str, Any]:
    targets = [
        {"id": "numpy-wrapped-cpu", "backend": "numpy", "flavour": "wrapped", "device": "cpu",
         "available": True, "reason": None, "device_name": "x86_64"},
        {"id": "torch-native-cpu", "backend": "torch", "flavour": "native", "device": "cpu",
         "available": True, "reason": None, "device_name": "x86_64"},
        {"id": "jax-wrapped-cpu", "backend": "jax", "flavour": "wrapped", "device": "cpu",
         "available": False, "reason": "not available: no jax", "device_name": ""},
    ]  # fmt: skip
    outcome = "failed" if failing else "passed"
    results = [
        _result("t::test_add[numpy-wrapped-cpu]", "passed", "elementwise", "add",
                "numpy-wrapped-cpu"),
        _result("t::test_add[torch-native-cpu]", "passed", "elementwise", "add",
                "torch-native-cpu"),
        _result("t::test_abs[numpy-wrapped-cpu]", "passed", "elementwise", "abs",
                "numpy-wrapped-cpu"),
        _result("t::test_abs[torch-native-cpu]", outcome, "elementwise", "abs",
                "torch-native-cpu", "abs: values differ at [0]" if failing else "",
                "check(call=abs(x=array([-0.0])))" if failing else ""),
        _result("t::test_bad[torch-native-cpu]", "passed", "a new row", "whatever",
                "torch-native-cpu"),
    ]  # fmt: skip
    jobs = [{"name": "numpy", "backend": "numpy", "targets": ["numpy-wrapped-cpu"],
             "status": "done"},
            {"name": "torch", "backend": "torch", "targets": ["torch-native-cpu"],
             "status": "done" if status == "complete" else "running"}]
    return {"status": status, "partial_reason": None if status == "complete" else "stopped",
            "run_id": "abc", "started": "2026-01-01T00:00:00Z", "runtime_s": 12.0,
            "options": {"max_examples": 12, "backend": None, "flavour": None, "device": None,
                        "keyword": None, "jobs": 2, "argv": ["--jobs", "2"]},
            "machine": {"cpu_count": 2}, "versions": {"torch": "2.13.0", "numpy": "2.4"},
            "jobs": jobs, "targets": targets, "results": results}  # fmt: skip


def test_matrix_rows_come_from_the_results() -> None:
    report = rep.build(_state())
    header, rows = rep.matrix(report, with_functions=True)
    assert header == ["area", "numpy-wrapped-cpu", "torch-native-cpu", "jax-wrapped-cpu"]
    table = {r[0]: r[1:] for r in rows}
    assert table["elementwise"] == ["2/0", "1/1", "n/a"]
    assert table["  abs"] == ["1/0", "0/1", "n/a"]
    assert table["a new row"] == ["—", "1/0", "n/a"]  # an area no code names, shown as is
    assert table["total"] == ["2/0", "2/1", "n/a"]
    assert rep.pass_rate(report["totals"]["torch-native-cpu"]) == pytest.approx(2 / 3)


def test_markdown_says_when_how_and_whether_complete() -> None:
    complete = rep.render_markdown(rep.build(_state()), [])
    assert "max-examples 12" in complete and "started 2026-01-01T00:00:00Z" in complete
    assert "PARTIAL" not in complete
    assert "check(call=abs(x=array([-0.0])))" in complete
    partial = rep.render_markdown(rep.build(_state("partial")), [])
    assert "**PARTIAL REPORT** (stopped): not finished: torch." in partial
    report = rep.build(_state("partial"))
    torch = next(t for t in report["targets"] if t["backend"] == "torch")
    assert rep.cell_text(None, torch) == "…"  # not run yet, unlike "—" (nothing to run)
    assert rep.cell_text(None, report["targets"][0]) == "—"


def test_compare_names_what_got_better_and_worse() -> None:
    old, new = rep.build(_state(failing=False)), rep.build(_state(failing=True))
    worse = rep.compare(old, new)
    assert worse["worse"] == ["t::test_abs[torch-native-cpu]"] and worse["better"] == []
    assert worse["cells"] == {"torch-native-cpu": {"before": 1.0, "after": pytest.approx(2 / 3)}}
    better = rep.compare(new, old)
    assert better["better"] == ["t::test_abs[torch-native-cpu]"] and better["worse"] == []
    text = rep.render_comparison(worse)
    assert "1 worse, 0 better" in text and "WORSE: t::test_abs[torch-native-cpu]" in text
    new["comparison"] = worse
    page = render_html(new)
    assert "<li class='worse'><code>t::test_abs[torch-native-cpu]</code></li>" in page
    assert 'class="delta worse"' in page


def test_failure_text_keeps_the_reproducing_call() -> None:
    message, call = failure_text(
        "E   AssertionError: abs: values differ\nE   assert False\n"
        "E   Falsifying example: check(\nE       call=abs(x=array([-0.0])),\nE   )\n"
        "E   You can reproduce this example by temporarily adding "
        "@reproduce_failure('6.1', b'AA==') as a decorator on your test case")  # fmt: skip
    assert message == "AssertionError: abs: values differ assert False"
    assert call == "check( call=abs(x=array([-0.0])), )  @reproduce_failure('6.1', b'AA==')"


def test_html_is_self_contained_and_marks_a_partial_report(tmp_path: Path) -> None:
    state = _state("partial")
    state["overhead"] = {"generated": "2026-01-01T00:00:00Z", "left_out": ["x: why"],
                         "backends": {"torch": {"added_us": {"eagerpy_xp native": 0.21}}}}
    report = rep.build(state)
    write_reports(report, tmp_path, docs=False)
    page = (tmp_path / "conformance.html").read_text()
    assert "http://" not in page and "https://" not in page and "<link" not in page
    assert "PARTIAL REPORT: stopped. Not finished: torch." in page
    assert json.loads((tmp_path / "conformance.json").read_text())["status"] == "partial"
    assert not list(tmp_path.glob(".*.tmp"))
    assert ("<tr><td class='row'>torch</td><td>+0.21</td></tr></table><p>Left out:</p>"
            "<ul><li>x: why</li></ul>") in page


def test_progress_names_a_failure_as_it_arrives(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    progress = Progress(sys.stdout, live=False)
    run = Run({"max_examples": 12, "backend": "numpy", "flavour": "native"}, tmp_path, 1,
              progress, lambda state: None)  # fmt: skip
    job = run.jobs[0]
    event = {"event": "result", **_state()["results"][3]}
    run._take(job, event)
    out = capsys.readouterr().out
    assert out == ("FAILED t::test_abs[torch-native-cpu] [torch/native/cpu]: abs: values "
                   "differ at [0]\n    call: check(call=abs(x=array([-0.0])))\n")  # fmt: skip
    assert job.counts == {"failed": 1}


def _chromium(url: str, *extra: str) -> str:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--user-data-dir=" + str(Path(url.split("file://")[-1].split("#")[0]).parent / "ud"),
         *extra, url],
        capture_output=True, text=True, timeout=120, check=True).stdout  # fmt: skip


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_html_in_a_real_browser(tmp_path: Path) -> None:
    """Chromium loads the page, a click opens an area and a failing cell's calls."""
    page = render_html(rep.build(_state()))
    clicks = """<script>
      document.querySelector('tr.area[data-area="elementwise"] td.row').click();
      document.querySelector('tr.function td.cell.fail[data-target="torch-native-cpu"]').click();
      document.body.setAttribute('data-shown', Array.from(document.querySelectorAll(
        'tr.function')).filter(r => getComputedStyle(r).display !== 'none').length);
    </script></body>"""
    path = tmp_path / "page.html"
    path.write_text(page.replace("</body>", clicks))
    dom = _chromium(path.as_uri(), "--dump-dom")
    assert 'data-shown="2"' in dom  # add and abs opened; the other area's row stays shut
    details = dom.split('<div id="details">')[1].split("</div>")[0]
    assert "Failures of abs on torch-native-cpu (1)" in details
    assert "t::test_abs[torch-native-cpu]" in details
    assert "call: check(call=abs(x=array([-0.0])))" in details
    # untouched, nothing is open
    dom = _chromium(tmp_path.joinpath("plain.html").as_uri(), "--dump-dom") if (
        tmp_path.joinpath("plain.html").write_text(page)) else ""
    assert dom.split('<div id="details">')[1].startswith("</div>")


SCREENSHOT = os.environ.get("CONFORMANCE_SCREENSHOT")


@pytest.mark.skipif(CHROMIUM is None or not SCREENSHOT,
                    reason="slow and not a check of behaviour: run once with "
                    "CONFORMANCE_SCREENSHOT=docs/conformance-report.png (needs chromium and "
                    "reports/conformance.json)")  # fmt: skip
def test_screenshot_of_the_latest_report(tmp_path: Path) -> None:
    report = rep.load(ROOT / "reports" / "conformance.json")
    area = next((r["area"] for r in report["results"] if r["outcome"] == "failed"),
                "elementwise")  # fmt: skip
    cell = next((f"{r['backend']}-{r['flavour']}-{r['device']}" for r in report["results"]
                 if r["outcome"] == "failed"), "")  # fmt: skip
    path = tmp_path / "page.html"
    path.write_text(render_html(report))
    out = Path(str(SCREENSHOT)).resolve()
    _chromium(f"{path.as_uri()}#open={area}&cell={cell}", f"--screenshot={out}",
              "--window-size=1500,1400", "--hide-scrollbars")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000


def _conformance(*args: str, report_dir: Path) -> subprocess.Popen[str]:
    # Ctrl-C reaches the run as in a terminal: a suite started in the background (a shell's
    # `&`) passes SIGINT on as ignored, and the run's Ctrl-C test then waited out its time
    return subprocess.Popen([sys.executable, "-m", "conformance", "--report-dir", str(report_dir),
                             *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            preexec_fn=_default_sigint)  # fmt: skip


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_small_run_end_to_end(tmp_path: Path) -> None:
    """One backend, two processes, a few tests: complete report, a line per process."""
    stale = tmp_path / "conformance.md"
    stale.write_text("an old report")
    process = _conformance("--backend", "numpy", "-k", "test_matches_reference and (abs or add)",
                           "--max-examples", "3", report_dir=tmp_path)
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0, out
    report = json.loads((tmp_path / "conformance.json").read_text())
    assert report["status"] == "complete" and report["not_run"] == []
    assert report["options"]["max_examples"] == 3
    assert [t["id"] for t in report["targets"]] == ["numpy-wrapped-cpu", "numpy-native-cpu"]
    assert set(report["functions"]["elementwise"]) == {"abs", "add", "logaddexp"}
    assert report["areas"]["elementwise"]["numpy-native-cpu"]["passed"] == 3
    assert "an old report" not in stale.read_text()
    assert (tmp_path / "logs" / "numpy.jsonl").exists()  # one process, both flavours
    assert "done numpy: 6 passed, 0 failed, 6 tests" in out
    assert "  cell numpy-wrapped-cpu: 3 passed, 0 failed, 0 missing, 0 skipped, " in out
    cells = report["jobs"][0]["cells"]
    assert set(cells) == {"numpy-wrapped-cpu", "numpy-native-cpu"}
    assert all(c["cpu_s"] > 0 for c in cells.values())  # CPU seconds per column
    assert "numpy-native-cpu: conformant: must 3 passed / 0 failed;" in out
    # the run's costs, in units of its calibration, for the estimates of later runs
    costs = tmp_path / "costs.json"
    process = _conformance("--load", str(tmp_path / "conformance.json"), "--save-costs",
                           "--costs", str(costs), report_dir=tmp_path / "again")  # fmt: skip
    out, _ = process.communicate(timeout=300)
    assert f"costs of 2 columns stored in {costs}" in out, out
    stored = json.loads(costs.read_text())["examples"]["3"]
    units = stored["targets"]["numpy-native-cpu"]["test_differential"]["cold"]
    calibration = report["estimate"]["calibration_s"]
    measured = sum(r["cpu_s"] for r in report["results"] if r["target"] == "numpy-native-cpu")
    assert units == pytest.approx(measured / calibration, abs=0.1)
    assert stored["startup"]["numpy"]["cold"] > 0


def test_an_interrupted_run_leaves_a_partial_report(tmp_path: Path) -> None:
    # 400 examples a test: slow enough that the Ctrl-C lands long before the last of
    # them, even on a loaded machine (at 50, a CI run had recorded 101 results first)
    process = _conformance("--backend", "numpy", "--flavour", "native", "-k",
                           "test_matches_reference", "--max-examples", "400",
                           report_dir=tmp_path)  # fmt: skip
    events = tmp_path / "logs" / "numpy.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (
            events.exists() and '"event": "result"' in events.read_text()):
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 2, out
    report = json.loads((tmp_path / "conformance.json").read_text())
    assert report["status"] == "partial" and report["not_run"] == ["numpy"]
    assert report["partial_reason"].startswith("interrupted (Ctrl-C)")
    assert 0 < len(report["results"]) < len(CASES)  # some ran, not all
    assert "PARTIAL REPORT" in (tmp_path / "conformance.html").read_text()


def test_docs_page_keeps_the_hand_written_part() -> None:
    old = f"# Conformance matrix\n\nold matrix\n\n{HAND_WRITTEN}\n\n## Deeper runs\n\nnotes\n"
    page = docs_page("# Conformance matrix\n\nnew matrix\n", old)
    assert page == f"# Conformance matrix\n\nnew matrix\n\n{HAND_WRITTEN}\n\n## Deeper runs\n\nnotes\n"
    assert docs_page("# new\n", "# an old page without the line\n") == "# new\n"
    # the published page has the line, so regenerating it keeps its notes
    assert HAND_WRITTEN in (ROOT / "docs" / "conformance.md").read_text()


def test_a_peers_run_rewrites_only_the_peers_section(tmp_path: Path) -> None:
    old = (f"# Conformance matrix\n\nour matrix\n\n{HAND_WRITTEN}\n\n## Peers\n\n"
           f"{PEERS_BEGIN}\n\nold table\n\n{PEERS_END}\n\n## Deeper runs\n")
    page = peers_section("new table\n", old)
    assert page == (f"# Conformance matrix\n\nour matrix\n\n{HAND_WRITTEN}\n\n## Peers\n\n"
                    f"{PEERS_BEGIN}\n\nnew table\n\n{PEERS_END}\n\n## Deeper runs\n")
    assert peers_section("t", "a page without one\n") == (
        f"a page without one\n\n{PEERS_BEGIN}\n\nt\n\n{PEERS_END}\n")
    # the published page has the section, inside the hand-written part
    published = (ROOT / "docs" / "conformance.md").read_text()
    assert published.index(HAND_WRITTEN) < published.index(PEERS_BEGIN) < published.index(
        PEERS_END)
    # rendered from a run of other namespaces only: when and how, the matrix, per column
    state = _state()
    state["options"].update(ours=False, namespaces=["array_api_strict"], max_examples=4)
    section = rep.render_peers(rep.build(state))
    assert "max-examples 4, no eagerpy_xp targets, namespaces array_api_strict" in section
    assert "| area | numpy-wrapped-cpu | torch-native-cpu | jax-wrapped-cpu |" in section
    assert "- `torch-native-cpu`: not conformant: must 2 passed / 1 failed;" in section


def _tiered_state() -> dict[str, Any]:
    """One of eagerpy_xp's columns and one other namespace, each with a failure per tier."""
    state = _state(failing=False)
    state["targets"] = [
        {"id": "numpy-wrapped-cpu", "backend": "numpy", "flavour": "wrapped", "device": "cpu",
         "ours": True, "available": True, "reason": None, "device_name": "x86_64"},
        {"id": "array_api_strict-cpu", "backend": "numpy", "flavour": "array_api_strict",
         "device": "cpu", "ours": False, "namespace": "array_api_strict", "available": True,
         "reason": None, "device_name": "x86_64"},
    ]  # fmt: skip
    results = []
    for target in ("numpy-wrapped-cpu", "array_api_strict-cpu"):
        for tier, outcome in (("must", "passed"), ("should", "failed"), ("house", "failed"),
                              ("house", "passed")):  # fmt: skip
            results.append({"nodeid": f"t::test_{tier}_{outcome}[{target}]", "outcome": outcome,
                            "area": "signatures", "function": "f", "target": target,
                            "tier": tier, "message": "", "call": ""})  # fmt: skip
    state["results"] = results
    state["jobs"] = [{"name": "x", "targets": [], "status": "done"}]
    return state


def test_tiers_are_shown_apart() -> None:
    """A cell's failed count is the must failures; should and house failures are shown
    beside it; a column with no must failure is conformant; another namespace's house
    failures are not judged (not in its pass rate, not among the run's failures)."""
    report = rep.build(_tiered_state())
    _, rows = rep.matrix(report, with_functions=False)
    table = {r[0]: r[1:] for r in rows}
    assert table["signatures"] == ["2/0 (+1 should) (+1 house)"] * 2
    ours, peer = (report["totals"][t] for t in ("numpy-wrapped-cpu", "array_api_strict-cpu"))
    assert rep.tier_counts(ours) == {"must": (1, 0), "should": (0, 1), "house": (1, 1)}
    summary = rep.column_summary(peer, report["targets"][1])
    assert summary.startswith("conformant: must 1 passed / 0 failed; should 0 passed / 1 "
                              "failed; house 1 passed / 1 failed (eagerpy_xp's contract: "
                              "not judged)")  # fmt: skip
    assert rep.pass_rate(ours, ours=True) == pytest.approx(2 / 4)
    assert rep.pass_rate(peer, ours=False) == pytest.approx(2 / 3)
    judged = [r["nodeid"] for r in rep.judged_failures(report)]
    assert judged == ["t::test_should_failed[numpy-wrapped-cpu]",
                      "t::test_house_failed[numpy-wrapped-cpu]",
                      "t::test_should_failed[array_api_strict-cpu]"]  # fmt: skip
    markdown = rep.render_markdown(report, [])
    assert "- [house] `t::test_house_failed[array_api_strict-cpu]`" in markdown
    page = render_html(report)
    assert "[should] " in page and "not judged" in page
    must_failure = dict(report["results"][0], outcome="failed")
    assert rep.count_keys(must_failure) == ("failed",)


def test_a_check_declares_its_tier_with_a_marker() -> None:
    """The tier of an item is its ``tier`` marker (a pytest.param's overrides the
    function's, the function's the module's), else must; ``--tier`` selects items by it;
    an ours_only item that is not house is refused at collection."""
    from conformance.tiers import parse, tier_of

    class Item:
        def __init__(self, *names: str) -> None:
            self.marks = [pytest.mark.tier(n).mark for n in names]
            self.nodeid = "x"

        def get_closest_marker(self, name: str) -> Any:
            return next((m for m in self.marks if m.name == name), None)

    assert tier_of(Item()) == "must"
    assert tier_of(Item("should", "house")) == "should"  # the closest first
    with pytest.raises(ValueError, match="unknown tier 'may'"):
        tier_of(Item("may"))
    assert parse(None) == ("must", "should", "house") and parse("must") == ("must",)
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "conformance" / "test_edges.py"),
         "-p", "conformance.plugin", "-o", "addopts=", "-q", "--collect-only",
         "--backend", "numpy", "--flavour", "wrapped", "--tier", "house",
         "-p", "no:cacheprovider"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300, check=False)  # fmt: skip
    ids = [ln for ln in listed.stdout.splitlines() if "::" in ln]
    house = ("library_zero_signs", "numpy_keys", "beyond", "unheld", "every_device")
    assert ids and all(any(h in i for h in house) for i in ids), listed.stdout[-2000:]
