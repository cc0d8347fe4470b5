"""The conformance report: built from the recorded events, rendered as text, Markdown, JSON.

One report is a JSON object (``conformance.json``); the Markdown and HTML pages and the
printed matrix are drawn from it, so ``python -m conformance --load`` redraws them from a
saved report.  Everything is data driven: the rows are the areas the tests report
(``harness.AREAS`` gives the order of those it knows, new ones follow), the columns the
targets the run's processes report, so a new row (a new test module with its ``AREA``) or
a new backend appears without an edit here.  Columns are grouped by framework (`column_order`):
eagerpy_xp's flavours of a backend, then the other namespaces of that framework.

An item's outcome is passed, failed, missing (the namespace lacks a name the item needs:
a failure, counted apart), a known failure (xfailed/xpassed) or skipped.  Each item has a
tier (`conformance.tiers`: must, should, house): a cell's "failed" counts the must
failures, the should and house failures are counted apart (``should``, ``house``), so
that a column is conformant when it has no must failure and a peer is never judged by
eagerpy_xp's own contract.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

FORMAT = "eagerpy_xp-conformance/4"
COUNTED = ("passed", "failed", "missing", "xfailed", "xpassed", "should", "house")
#: The keys of a cell's counts: outcomes (``failed``: must failures only), the failures
#: of the other tiers (``should``, ``house``) and their passes (``should_passed``, ...).
_KEYS = ("passed", "failed", "missing", "xfailed", "xpassed", "skipped", "should", "house",
         "should_passed", "house_passed")

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
        tid = target_id(r)
        if tid == "-":
            continue  # the suite's checks of itself belong to no target
        for key in count_keys(r):
            areas[r["area"]][tid][key] += 1
            functions[r["area"]][r["function"]][tid][key] += 1
    return areas, functions


def count_keys(result: dict[str, Any]) -> tuple[str, ...]:
    """The counters one result adds to: its outcome, except that a failure of the should
    or house tier counts under the tier's name (``failed`` is the must failures); a pass
    of those tiers also counts as ``<tier>_passed``."""
    outcome, tier = result["outcome"], result.get("tier", "must")
    if tier == "must":
        return (outcome,)
    if outcome == "failed":
        return (tier,)
    if outcome == "passed":
        return ("passed", f"{tier}_passed")
    return (outcome,)


def _counter() -> Counts:
    return dict.fromkeys(_KEYS, 0)


def target_id(result: dict[str, Any]) -> str:
    """The matrix column of a result (reports before the ``target`` field: composed)."""
    if "target" in result:
        return str(result["target"])
    if result.get("backend", "-") == "-":
        return "-"
    return f"{result['backend']}-{result['flavour']}-{result['device']}"


def column_order(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Columns grouped by framework (the registered backends first, in their order), in a
    group eagerpy_xp's flavours (wrapped, native) before the other namespaces (those of
    `harness.PEERS` in its order, then by name), each by device."""
    from .harness import BACKENDS, FLAVOURS, PEERS

    frameworks = list(BACKENDS) + [f for f in PEERS if f not in BACKENDS]
    peers = [n for names in PEERS.values() for n in names]

    def key(t: dict[str, Any]) -> tuple[Any, ...]:
        group = t["backend"]
        rank = frameworks.index(group) if group in frameworks else len(frameworks)
        flavour = t["flavour"]
        if flavour in FLAVOURS and t.get("ours", True):
            inner: tuple[Any, ...] = (0, FLAVOURS.index(flavour), "")
        else:
            inner = (1, peers.index(flavour) if flavour in peers else len(peers), flavour)
        return (rank, group, *inner, t["device"])

    return sorted(targets, key=key)

def build(state: dict[str, Any]) -> dict[str, Any]:
    """The report of a run's state (see `runner.RunState.snapshot`)."""
    results = state["results"]
    areas, functions = tabulate(results)
    unfinished = {t for j in state["jobs"] if j.get("status") != "done"
                  for t in j.get("targets", ())}  # fmt: skip
    targets = [{**t, "finished": t["id"] not in unfinished} for t in column_order(state["targets"])]
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
        "estimate": _estimate_outcome(state.get("estimate"), state["status"],
                                      state["runtime_s"]),
        "overhead": state.get("overhead"),
        "comparison": state.get("comparison"),
    }


def _estimate_outcome(estimate: dict[str, Any] | None, status: str,
                      runtime_s: float) -> dict[str, Any] | None:  # fmt: skip
    """The estimate made at the start, with the actual time and the error once complete."""
    if not estimate:
        return None
    done = dict(estimate)
    if status == "complete":
        done["actual_s"] = round(runtime_s, 1)
        done["error"] = round((estimate["expected_s"] - runtime_s) / max(runtime_s, 1e-9), 3)
    return done


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
    """``passed/failed`` (failed: the must failures and the missing names) with ``(m
    missing)``, ``(+s should)`` and ``(+h house)`` (failures of those tiers, not in the
    failed count), ``(+n kf)`` known failures, ``n/a`` or ``—`` (nothing run)."""
    if target is not None and not target.get("available", True):
        return "n/a"
    if not counts or not any(counts.get(k) for k in COUNTED):
        return "…" if target is not None and not target.get("finished", True) else "—"
    missing = counts.get("missing", 0)
    text = f"{counts.get('passed', 0)}/{counts.get('failed', 0) + missing}"
    known = counts.get("xfailed", 0) + counts.get("xpassed", 0)
    return (text + (f" ({missing} missing)" if missing else "")
            + "".join(f" (+{counts[t]} {t})" for t in ("should", "house") if counts.get(t))
            + (f" (+{known} kf)" if known else ""))  # fmt: skip


def tier_counts(counts: Counts) -> dict[str, tuple[int, int]]:
    """(passed, failed) per tier of a cell's counts (must's failed: the missing too)."""
    should, house = counts.get("should_passed", 0), counts.get("house_passed", 0)
    return {"must": (counts.get("passed", 0) - should - house,
                     counts.get("failed", 0) + counts.get("missing", 0)),
            "should": (should, counts.get("should", 0)),
            "house": (house, counts.get("house", 0))}  # fmt: skip


def column_summary(counts: Counts | None, target: dict[str, Any]) -> str:
    """One line per column: conformant or not (no must failure), then passed / failed per
    tier (house marked "not judged" for another namespace), or why it did not run."""
    if not target.get("available", True):
        return f"not run: {target.get('reason')}"
    counts = counts or {}
    tiers = tier_counts(counts)
    verdict = "conformant" if not tiers["must"][1] else "not conformant"
    missing = counts.get("missing", 0)
    parts = [f"must {tiers['must'][0]} passed / {tiers['must'][1]} failed"
             + (f" ({missing} missing)" if missing else ""),
             f"should {tiers['should'][0]} passed / {tiers['should'][1]} failed"]  # fmt: skip
    house = f"house {tiers['house'][0]} passed / {tiers['house'][1]} failed"
    if not target.get("ours", True):
        house += " (eagerpy_xp's contract: not judged)"
    known = counts.get("xfailed", 0) + counts.get("xpassed", 0)
    return (f"{verdict}: " + "; ".join([*parts, house])
            + (f"; {known} known failures" if known else ""))  # fmt: skip


def judged_bad(counts: Counts | None, ours: bool = True) -> int:
    """The failures that count against a column: must (and missing) and should, and for
    eagerpy_xp's own columns house too."""
    counts = counts or {}
    bad = counts.get("failed", 0) + counts.get("missing", 0) + counts.get("should", 0)
    return bad + (counts.get("house", 0) if ours else 0)


def pass_rate(counts: Counts | None, ours: bool = True) -> float | None:
    """Passed (known failures count as passed: they are listed) over run, failures of the
    tiers the column is judged by (`judged_bad`) as not passed; None if none ran."""
    if not counts:
        return None
    run = sum(counts.get(k, 0) for k in COUNTED)
    if not ours:
        run -= counts.get("house", 0)  # another namespace's house failures: not judged
    if not run:
        return None
    return (run - judged_bad(counts, ours)) / run


def judged_failures(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The failed results that count against their column (see `judged_bad`)."""
    ours = {t["id"]: t.get("ours", True) for t in report.get("targets", [])}
    return [r for r in report["results"] if r["outcome"] == "failed"
            and (r.get("tier", "must") != "house" or ours.get(target_id(r), True))]


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
    if not o.get("ours", True):
        chosen = "no eagerpy_xp targets"
    if o.get("namespaces"):
        chosen += ", namespaces " + ", ".join(o["namespaces"])
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
        cells = job.get("cells") or {}
        per_cell = " (" + ", ".join(f"{t} {c.get('cpu_s', 0):.0f}" for t, c in cells.items()) + (
            f", start-up {job['startup_cpu_s']:.0f}" if job.get("startup_cpu_s") is not None
            else "") + ")" if cells and any("cpu_s" in c for c in cells.values()) else ""  # fmt: skip
        return (f"{job['name']} {job.get('done', 0)} tests in {job.get('seconds', 0):.0f} s"
                f"{cpu}{per_cell}{status}")

    jobs = report.get("jobs") or []
    return ("Processes (CPU seconds per column in brackets): " + "; ".join(one(j) for j in jobs)
            + ".") if jobs else ""  # fmt: skip


def estimate_line(report: dict[str, Any]) -> str:
    """The run's estimate at its start, and how far it was from the truth."""
    e = report.get("estimate")
    if not e:
        return ""
    if not e["expected_s"]:
        return "No estimate at the start: no stored costs for these processes."
    slow = f", each {e['slowdown']:.2f} s per CPU s" if "slowdown" in e else ""
    made = (f"Estimated at the start: {e['expected_s']:.0f} s ({e['workers']} processes at a "
            f"time on {e['cores']} cores at load {e['load']:.1f}{slow}, calibration "
            f"{e['calibration_s'] * 1000:.1f} ms{', JAX cache warm' if e.get('warm') else ''})")
    if "actual_s" in e and e.get("subset"):
        made += (f"; took {e['actual_s']:.0f} s: -k {e['subset']!r} ran part of those modules, "
                 "whose whole cost the estimate is")
    elif "actual_s" in e:
        made += f"; took {e['actual_s']:.0f} s ({e['error']:+.0%})"
    if e.get("unknown"):
        made += f"; not measured before: {', '.join(e['unknown'])}"
    return made + "."


def partial_note(report: dict[str, Any]) -> list[str]:
    if report["status"] == "complete":
        return []
    not_run = ", ".join(report.get("not_run", [])) or "none"
    return [f"**PARTIAL REPORT** ({report.get('partial_reason') or 'run not finished'}): "
            f"not finished: {not_run}. The counts cover only what ran.", ""]  # fmt: skip


def missing_names(report: dict[str, Any]) -> dict[str, list[str]]:
    """Target id -> the names it lacks (from the items counted as missing)."""
    found: dict[str, set[str]] = defaultdict(set)
    for r in report["results"]:
        if r["outcome"] == "missing":
            found[target_id(r)].update(r["message"].removeprefix("missing: ").split(", "))
    return {t: sorted(found[t]) for t in sorted(found)}


def failure_line(r: dict[str, Any]) -> str:
    call = f" — call: `{r['call']}`" if r.get("call") else ""
    return f"- [{r.get('tier', 'must')}] `{r['nodeid']}`: {r['message']}{call}"


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
        "examples; failed: the failures of the standard's normative text, the must tier); "
        "`(+n should)`, `(+n house)`: failures of the standard's recommendations and of "
        "eagerpy_xp's own contract (`conformance/tiers.py`); "
        "`(+n kf)` known failures (see `conformance/known_failures.py`); "
        "`n/a` backend not available; `—` no tests for that flavour (operators on native "
        "arrays are the framework's own); `…` not run yet (a partial report).",
        "",
        render_markdown_table(header, rows),
        "",
    ]
    parts += ["Per column (conformant: no must failure; passed / failed per tier):", ""]
    parts += [f"- `{t['id']}`: {column_summary(report['totals'].get(t['id']), t)}"
              for t in report["targets"]]  # fmt: skip
    parts += ["", jobs_line(report), ""]
    if estimate_line(report):
        parts += [estimate_line(report), ""]
    missing = missing_names(report)
    if missing:
        parts += ["## Missing", "",
                  "Names the standard requires that a namespace lacks (each item that "
                  "needs one counts as missing):", ""]  # fmt: skip
        parts += [f"- `{tid}`: " + ", ".join(f"`{n}`" for n in names)
                  for tid, names in missing.items()]  # fmt: skip
        parts.append("")
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


def measured_costs(report: dict[str, Any]) -> tuple[dict[str, dict[str, float]],
                                                     dict[str, float]]:  # fmt: skip
    """CPU seconds per target and test module (the suite's checks of itself under
    ``suite``), and each process group's start-up (averaged over its shards)."""
    targets: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in report["results"]:
        tid = target_id(r)
        module = r["nodeid"].split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")
        targets["suite" if tid == "-" else tid][module] += float(r.get("cpu_s") or 0.0)
    startup: dict[str, list[float]] = defaultdict(list)
    for job in report.get("jobs", []):
        if job.get("startup_cpu_s") is not None and job.get("status") == "done":
            startup[job.get("group", job["name"])].append(float(job["startup_cpu_s"]))
    return ({t: dict(m) for t, m in targets.items()},
            {g: sum(v) / len(v) for g, v in startup.items()})  # fmt: skip


def render_peers(report: dict[str, Any]) -> str:
    """The peers section of docs/conformance.md, from a run of other namespaces only
    (``--peers --no-ours --docs``): when and how it was made, the matrix by area, a line
    per column, what each lacks, the versions."""
    header, rows = matrix(report, with_functions=False)
    versions = ", ".join(f"{k} {v}" for k, v in report.get("versions", {}).items())
    parts = [*partial_note(report), describe_options(report), "",
             render_markdown_table(header, rows), "",
             "Per column (conformant: no must failure; passed / failed per tier; "
             "house is eagerpy_xp's own contract, not a peer's fault):", ""]  # fmt: skip
    parts += [f"- `{t['id']}`: {column_summary(report['totals'].get(t['id']), t)}"
              for t in report["targets"]]  # fmt: skip
    missing = missing_names(report)
    if missing:
        parts += ["", "Missing names:", ""]
        parts += [f"- `{tid}`: " + ", ".join(f"`{n}`" for n in names)
                  for tid, names in missing.items()]  # fmt: skip
    parts += ["", f"Versions: {versions}.", ""]
    return "\n".join(parts)


# -- comparison ----------------------------------------------------------------------------
def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What got better and worse from ``old`` to ``new``: per test item and per cell.

    An item is worse when it fails (or is missing) now and did not before (new items
    included), better when it failed before and does not now; items only in one report
    are also listed as added or removed, and each cell's pass rate is compared.

    Across namespaces: when each report has exactly one column the other lacks (an old
    run of one namespace, a new run of another: ``array_api_compat.torch`` against
    ``torch-native``), those two columns are compared with each other, item by item.
    """
    old_totals, new_totals = old.get("totals", {}), new.get("totals", {})
    gone, came = set(old_totals) - set(new_totals), set(new_totals) - set(old_totals)
    paired = (gone.pop(), came.pop()) if len(gone) == 1 and len(came) == 1 else None

    def outcomes(report: dict[str, Any], rename: tuple[str, str] | None) -> dict[str, str]:
        found = {}
        for r in report.get("results", []):
            nodeid = r["nodeid"]
            if rename is not None and target_id(r) == rename[0]:
                nodeid = nodeid.replace(rename[0], rename[1], 1)
            found[nodeid] = r["outcome"]
        return found

    before, after = outcomes(old, paired), outcomes(new, None)
    bad = ("failed", "missing")
    # worse: fails now and did not fail before (a new test that fails included)
    worse = sorted(n for n in after if after[n] in bad and before.get(n) not in bad)
    better = sorted(n for n in after if before.get(n) in bad and after[n] not in bad)
    if paired is not None:
        old_totals = {paired[1] if t == paired[0] else t: c for t, c in old_totals.items()}
    cells: dict[str, dict[str, float | None]] = {}
    for tid in sorted(set(old_totals) | set(new_totals)):
        was, now = pass_rate(old_totals.get(tid)), pass_rate(new_totals.get(tid))
        if was != now:
            cells[tid] = {"before": was, "after": now}
    return {"old": {"generated": old.get("generated"), "options": old.get("options")},
            "paired": list(paired) if paired else None,
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
    if comparison.get("paired"):
        old_id, new_id = comparison["paired"]
        lines.append(f"  (the old column {old_id} compared with the new column {new_id})")
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
