"""The conformance report: built from the recorded events, rendered as text, Markdown, JSON.

One report is a JSON object (``conformance.json``); the Markdown and HTML pages and the
printed matrix are drawn from it, so ``python -m conformance --load`` redraws them from a
saved report.  Everything is data driven: the rows are the areas the tests report
(``harness.AREAS`` gives the order of those it knows, new ones follow), the columns the
targets the run's processes report, so a new row (a new test module with its ``AREA``) or
a new backend appears without an edit here.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

FORMAT = "eagerpy_xp-conformance/2"
COUNTED = ("passed", "failed", "xfailed", "xpassed")

Counts = dict[str, int]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def area_order(seen: set[str]) -> list[str]:
    """The known areas in display order, then any new ones alphabetically."""
    from .harness import AREAS

    return [a for a in AREAS if a in seen] + sorted(seen - set(AREAS))


def tabulate(results: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Counts]],
                                                      dict[str, dict[str, dict[str, Counts]]]]:
    """Counts per area and target, and per area, function and target."""
    areas: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(_counter))
    functions: dict[str, dict[str, dict[str, Counts]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(_counter)))
    for r in results:
        if r.get("backend", "-") == "-":
            continue  # the suite's checks of itself belong to no target
        tid = f"{r['backend']}-{r['flavour']}-{r['device']}"
        areas[r["area"]][tid][r["outcome"]] += 1
        functions[r["area"]][r["function"]][tid][r["outcome"]] += 1
    return areas, functions


def _counter() -> Counts:
    return dict.fromkeys(("passed", "failed", "xfailed", "xpassed", "skipped"), 0)


def build(state: dict[str, Any]) -> dict[str, Any]:
    """The report of a run's state (see `runner.RunState.snapshot`)."""
    results = state["results"]
    areas, functions = tabulate(results)
    unfinished = {(j.get("backend"), j.get("flavour")) for j in state["jobs"]
                  if j.get("status") != "done"}  # fmt: skip
    targets = [{**t, "finished": (t["backend"], t["flavour"]) not in unfinished}
               for t in state["targets"]]  # fmt: skip
    totals: dict[str, Counts] = {t["id"]: _counter() for t in targets}
    for per_target in areas.values():
        for tid, counts in per_target.items():
            for k, v in counts.items():
                totals.setdefault(tid, _counter())[k] += v
    order = area_order(set(areas))
    return {
        "format": FORMAT,
        "api_version": "2025.12",
        "status": state["status"],
        "partial_reason": state.get("partial_reason"),
        "run_id": state["run_id"],
        "started": state["started"],
        "generated": _now(),
        "runtime_s": round(state["runtime_s"], 1),
        "options": state["options"],
        "machine": state["machine"],
        "versions": state["versions"],
        "jobs": state["jobs"],
        "targets": targets,
        "not_run": [j["name"] for j in state["jobs"] if j["status"] != "done"],
        "area_order": order,
        "totals": totals,
        "areas": {a: {t: dict(c) for t, c in areas[a].items()} for a in order},
        "functions": {a: {f: {t: dict(c) for t, c in fs.items()}
                          for f, fs in sorted(functions[a].items())} for a in order},
        "results": results,
        "collect_errors": state.get("collect_errors", []),
        "overhead": state.get("overhead"),
        "comparison": state.get("comparison"),
    }


def load(path: str | Path) -> dict[str, Any]:
    """A saved report; older formats (one process, no status) count as complete."""
    report: dict[str, Any] = json.loads(Path(path).read_text())
    report.setdefault("status", "complete")
    report.setdefault("format", "eagerpy_xp-conformance/1")
    if "totals" not in report or "area_order" not in report:
        areas, functions = tabulate(report.get("results", []))
        report["area_order"] = area_order(set(areas))
        report["areas"] = {a: {t: dict(c) for t, c in areas[a].items()} for a in areas}
        report["functions"] = {a: {f: {t: dict(c) for t, c in fs.items()}
                                   for f, fs in functions[a].items()} for a in functions}
        totals: dict[str, Counts] = {}
        for per_target in areas.values():
            for tid, counts in per_target.items():
                for k, v in counts.items():
                    totals.setdefault(tid, _counter())[k] += v
        report["totals"] = totals
    return report


# -- cells ---------------------------------------------------------------------------------
def cell_text(counts: Counts | None, target: dict[str, Any] | None) -> str:
    """``passed/failed`` with ``(+n kf)`` known failures, ``n/a`` or ``—`` (nothing run)."""
    if target is not None and not target.get("available", True):
        return "n/a"
    if not counts or not any(counts.get(k) for k in COUNTED):
        return "…" if target is not None and not target.get("finished", True) else "—"
    text = f"{counts.get('passed', 0)}/{counts.get('failed', 0)}"
    known = counts.get("xfailed", 0) + counts.get("xpassed", 0)
    return text + (f" (+{known} kf)" if known else "")


def pass_rate(counts: Counts | None) -> float | None:
    """Passed (known failures count as passed: they are listed) over run; None if none."""
    if not counts:
        return None
    run = sum(counts.get(k, 0) for k in COUNTED)
    if not run:
        return None
    return (run - counts.get("failed", 0)) / run


def matrix(report: dict[str, Any], with_functions: bool) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the matrix (areas, optionally their functions, and the total)."""
    targets = {t["id"]: t for t in report["targets"]}
    ids = list(targets)
    rows = []
    for area in report["area_order"]:
        per_target = report["areas"].get(area, {})
        rows.append([area, *(cell_text(per_target.get(t), targets[t]) for t in ids)])
        if with_functions:
            for function, counts in report["functions"].get(area, {}).items():
                rows.append([f"  {function}",
                             *(cell_text(counts.get(t), targets[t]) for t in ids)])  # fmt: skip
    rows.append(["total", *(cell_text(report["totals"].get(t), targets[t]) for t in ids)])
    return ["area", *ids], rows


def render_text(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)


def render_markdown_table(header: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("  ", "&nbsp;&nbsp;") for c in cells) + " |"

    return "\n".join([line(header), "|" + "---|" * len(header), *(line(r) for r in rows)])


def describe_options(report: dict[str, Any]) -> str:
    """One line: when, with which options, how long, how many tests, complete or not."""
    o = report["options"]
    chosen = ", ".join(f"{k} {o.get(k) or 'all'}" for k in ("backend", "flavour", "device"))
    keyword = f", -k {o['keyword']!r}" if o.get("keyword") else ""
    seed = f", seed {o['seed']}" if o.get("seed") is not None else ""
    return (f"Made {report['generated']} (started {report['started']}) with "
            f"max-examples {o['max_examples']}{seed}, {chosen}{keyword}, {o.get('jobs', 1)} "
            f"parallel processes; runtime {report['runtime_s']:.0f} s; "
            f"{len(report['results'])} tests.")  # fmt: skip


def jobs_line(report: dict[str, Any]) -> str:
    """The processes of the run: tests, wall-clock and CPU seconds, how each ended."""
    def one(job: dict[str, Any]) -> str:
        cpu = f", CPU {job['cpu_s']:.0f} s" if job.get("cpu_s") is not None else ""
        status = "" if job.get("status") == "done" else f", {job.get('status')}"
        return f"{job['name']} {job.get('done', 0)} tests in {job.get('seconds', 0):.0f} s{cpu}{status}"

    jobs = report.get("jobs") or []
    return ("Processes: " + "; ".join(one(j) for j in jobs) + ".") if jobs else ""


def partial_note(report: dict[str, Any]) -> list[str]:
    if report["status"] == "complete":
        return []
    not_run = ", ".join(report.get("not_run", [])) or "none"
    return [f"**PARTIAL REPORT** ({report.get('partial_reason') or 'run not finished'}): "
            f"not finished: {not_run}. The counts cover only what ran.", ""]  # fmt: skip


def failure_line(r: dict[str, Any]) -> str:
    call = f" — call: `{r['call']}`" if r.get("call") else ""
    return f"- `{r['nodeid']}`: {r['message']}{call}"


def render_markdown(report: dict[str, Any], known: list[str]) -> str:
    """The Markdown report (also `docs/conformance.md`); ``known`` lists known failures."""
    header, rows = matrix(report, with_functions=False)
    f_header, f_rows = matrix(report, with_functions=True)
    failures = [r for r in report["results"] if r["outcome"] == "failed"]
    xpassed = [r for r in report["results"] if r["outcome"] == "xpassed"]
    parts = [
        "# Conformance matrix",
        "",
        *partial_note(report),
        "Generated by `python -m conformance` (the `conformance/` suite): every function, "
        "array method and operator of the Python Array API standard 2025.12 (with `linalg` "
        "and `fft`), differential against `array_api_strict` on hypothesis inputs, plus the "
        "spec's special cases, type promotion, signatures, `__array_namespace_info__` and "
        "required errors.",
        "",
        describe_options(report),
        "",
        "Cells: passed/failed test items (one item = one function or case, with many "
        "examples); `(+n kf)` known failures (see `conformance/known_failures.py`); "
        "`n/a` backend not available; `—` no tests for that flavour (operators on native "
        "arrays are the framework's own); `…` not run yet (a partial report).",
        "",
        render_markdown_table(header, rows),
        "",
    ]
    parts += [jobs_line(report), ""]
    unavailable = [t for t in report["targets"] if not t.get("available", True)]
    if unavailable:
        parts += ["## Not available", ""]
        parts += [f"- `{t['id']}`: {t['reason']}" for t in unavailable]
        parts.append("")
    parts += ["## Failures", ""]
    parts += [failure_line(r) for r in failures[:200]] or ["None."]
    if len(failures) > 200:
        parts.append(f"- ... and {len(failures) - 200} more (see `conformance.json`)")
    parts += ["", "## Known failures", ""]
    parts += known or ["None."]
    if xpassed:
        parts += ["", "Known failures that passed (their entries can go):", ""]
        parts += [f"- `{r['nodeid']}`" for r in xpassed]
    parts += ["", "## By function", "", "<details><summary>matrix by function</summary>", "",
              render_markdown_table(f_header, f_rows), "", "</details>", ""]  # fmt: skip
    return "\n".join(parts)


# -- comparison ----------------------------------------------------------------------------
def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What got better and worse from ``old`` to ``new``: per test item and per cell.

    An item is worse when it fails now and did not before (new items included), better
    when it failed before and does not now; items only in one report are also listed as
    added or removed, and each cell's pass rate is compared.
    """
    def outcomes(report: dict[str, Any]) -> dict[str, str]:
        return {r["nodeid"]: r["outcome"] for r in report.get("results", [])}

    before, after = outcomes(old), outcomes(new)
    # worse: fails now and did not fail before (a new test that fails included)
    worse = sorted(n for n in after if after[n] == "failed" and before.get(n) != "failed")
    better = sorted(n for n in after if before.get(n) == "failed" and after[n] != "failed")
    cells: dict[str, dict[str, float | None]] = {}
    for tid in sorted(set(old.get("totals", {})) | set(new.get("totals", {}))):
        was, now = pass_rate(old.get("totals", {}).get(tid)), pass_rate(new["totals"].get(tid))
        if was != now:
            cells[tid] = {"before": was, "after": now}
    return {"old": {"generated": old.get("generated"), "options": old.get("options")},
            "worse": worse, "better": better,
            "added": sorted(set(after) - set(before)),
            "removed": sorted(set(before) - set(after)), "cells": cells}  # fmt: skip


def change(was: float | None, now: float | None) -> str:
    """How a cell's pass rate changed: worse, better, new (not run before), gone."""
    if was is None:
        return "new"
    if now is None:
        return "gone"
    return "worse" if was > now else "better"


def render_comparison(comparison: dict[str, Any], limit: int = 40) -> str:
    lines = [f"Compared with the report of {comparison['old']['generated']}: "
             f"{len(comparison['worse'])} worse, {len(comparison['better'])} better, "
             f"{len(comparison['added'])} added, {len(comparison['removed'])} removed."]  # fmt: skip
    for tid, rates in comparison["cells"].items():
        was, now = rates["before"], rates["after"]
        show = [f"{v:.1%}" if v is not None else "—" for v in (was, now)]
        mark = change(was, now)
        lines.append(f"  {tid}: pass rate {show[0]} -> {show[1]} ({mark})")
    for label in ("worse", "better"):
        for nodeid in comparison[label][:limit]:
            lines.append(f"  {label.upper()}: {nodeid}")
        if len(comparison[label]) > limit:
            lines.append(f"  ... and {len(comparison[label]) - limit} more {label}")
    return "\n".join(lines)
