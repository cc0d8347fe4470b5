"""``python -m conformance``: run the suite, print the matrix, write the reports.

Runs the conformance tests through pytest with an in-process plugin that collects every
outcome, shows a progress bar, prints a matrix (rows: spec areas, optionally expanded to
functions; columns: backend x flavour x device; cells: passed/failed) and writes
``<report-dir>/conformance.md`` and ``conformance.json``.  ``--docs`` also regenerates
``docs/conformance.md``.  The exit status is non-zero when anything fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_MAX_EXAMPLES = 60

Counts = dict[str, int]
OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped")


class Collector:
    """pytest plugin: records each test's outcome with its matrix coordinates."""

    def __init__(self, progress: bool) -> None:
        self.results: list[dict[str, Any]] = []
        self.total = 0
        self.done = 0
        self.progress = progress and sys.stderr.isatty()
        self.started = time.monotonic()
        self._last_draw = 0.0
        self._seen: set[str] = set()
        self.targets: list[Any] = []

    def pytest_configure(self, config: Any) -> None:
        from .conftest import targets

        self.targets = targets(config)

    def pytest_collection_finish(self, session: Any) -> None:
        self.total = len(session.items)
        self._draw(force=True)

    def pytest_runtest_logreport(self, report: Any) -> None:
        outcome = _outcome(report)
        if outcome is None or report.nodeid in self._seen:
            return
        self._seen.add(report.nodeid)
        facts = dict(report.user_properties).get("facts", {})
        message = ""
        if outcome == "failed":
            message = _short(report.longreprtext)
        elif outcome == "skipped" and isinstance(report.longrepr, tuple):
            message = str(report.longrepr[2])
        self.results.append({"nodeid": report.nodeid, "outcome": outcome, **facts,
                             "message": message})  # fmt: skip
        self.done += 1
        self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self.progress or (not force and now - self._last_draw < 0.2):
            return
        self._last_draw = now
        width = 40
        fraction = self.done / self.total if self.total else 0.0
        bar = "#" * int(width * fraction) + "." * (width - int(width * fraction))
        failed = sum(r["outcome"] == "failed" for r in self.results)
        elapsed = int(now - self.started)
        sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} {fraction:4.0%} "
                         f"failed {failed}  {elapsed // 60:02d}:{elapsed % 60:02d}")  # fmt: skip
        sys.stderr.flush()

    def finish(self) -> None:
        if self.progress:
            self._draw(force=True)
            sys.stderr.write("\n")


def _outcome(report: Any) -> str | None:
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpassed" if xfail else "passed"
        if report.skipped:
            return "xfailed" if xfail else "skipped"
        return "failed"
    if report.failed:
        return "failed"  # setup or teardown error
    if report.when == "setup" and report.skipped:
        return "xfailed" if xfail else "skipped"
    return None


def _short(text: str, limit: int = 600) -> str:
    lines = [ln for ln in text.splitlines() if ln.startswith("E ")] or text.splitlines()[-3:]
    joined = " ".join(ln[1:].strip() if ln.startswith("E ") else ln.strip() for ln in lines[:6])
    return joined[:limit]


# -- the matrix --------------------------------------------------------------------------------
def _target_ids(collector: Collector) -> list[str]:
    return [t.id for t in collector.targets]


def tabulate(results: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Counts]],
                                                      dict[str, dict[str, dict[str, Counts]]]]:
    """Counts per (area, target) and per (area, function, target)."""
    areas: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counter))
    functions: dict[str, dict[str, dict[str, Counts]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(Counter)))
    for r in results:
        if r.get("backend", "-") == "-":
            continue  # target-independent self checks of the suite
        tid = f"{r['backend']}-{r['flavour']}-{r['device']}"
        areas[r["area"]][tid][r["outcome"]] += 1
        functions[r["area"]][r["function"]][tid][r["outcome"]] += 1
    return areas, functions


class Counter(dict[str, int]):
    def __missing__(self, key: str) -> int:
        return 0


def cell(counts: Counts | None, unavailable: bool) -> str:
    if unavailable:
        return "n/a"
    if not counts or not any(counts.get(k) for k in ("passed", "failed", "xfailed", "xpassed")):
        return "—"
    text = f"{counts.get('passed', 0)}/{counts.get('failed', 0)}"
    known = counts.get("xfailed", 0) + counts.get("xpassed", 0)
    return text + (f" (+{known} kf)" if known else "")


def matrix_rows(collector: Collector, with_functions: bool) -> tuple[list[str], list[list[str]]]:
    from .harness import AREAS

    areas, functions = tabulate(collector.results)
    ids = _target_ids(collector)
    unavailable = {t.id for t in collector.targets if t.unavailable}
    header = ["area", *ids]
    rows = []
    for area in AREAS:
        rows.append([area, *(cell(areas[area].get(t), t in unavailable) for t in ids)])
        if with_functions:
            for function in sorted(functions[area]):
                rows.append([f"  {function}",
                             *(cell(functions[area][function].get(t), t in unavailable)
                               for t in ids)])  # fmt: skip
    totals = ["total"]
    for t in ids:
        summed: Counts = Counter()
        for area in AREAS:
            for k, v in areas[area].get(t, {}).items():
                summed[k] += v
        totals.append(cell(summed, t in unavailable))
    rows.append(totals)
    return header, rows


def render_text(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)


def render_markdown(header: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("  ", "&nbsp;&nbsp;") for c in cells) + " |"

    return "\n".join([line(header), "|" + "---|" * len(header), *(line(r) for r in rows)])


def report_markdown(collector: Collector, args: argparse.Namespace, runtime: float) -> str:
    from .known_failures import KNOWN_FAILURES

    header, rows = matrix_rows(collector, with_functions=False)
    f_header, f_rows = matrix_rows(collector, with_functions=True)
    failures = [r for r in collector.results if r["outcome"] == "failed"]
    xpassed = [r for r in collector.results if r["outcome"] == "xpassed"]
    parts = [
        "# Conformance matrix",
        "",
        "Generated by `python -m conformance` (the `conformance/` suite): every function, "
        "array method and operator of the Python Array API standard 2025.12 (with `linalg` "
        "and `fft`), differential against `array_api_strict` on hypothesis inputs, plus the "
        "spec's special cases, type promotion, signatures, `__array_namespace_info__` and "
        "required errors.",
        "",
        f"Options: max-examples {args.max_examples}, backend {args.backend or 'all'}, "
        f"flavour {args.flavour or 'all'}, device {args.device or 'all'}; "
        f"runtime {runtime:.0f} s; {len(collector.results)} tests.",
        "",
        "Cells: passed/failed test items (one item = one function or case, with many "
        "examples); `(+n kf)` known failures (see `conformance/known_failures.py`); "
        "`n/a` backend not available; `—` no tests for that flavour (operators on native "
        "arrays are the framework's own).",
        "",
        render_markdown(header, rows),
        "",
    ]
    unavailable = [t for t in collector.targets if t.unavailable]
    if unavailable:
        parts += ["## Not available", ""]
        parts += [f"- `{t.id}`: {t.unavailable}" for t in unavailable]
        parts.append("")
    parts += ["## Failures", ""]
    parts += ([f"- `{r['nodeid']}`: {r['message']}" for r in failures[:200]] or ["None."])
    parts += ["", "## Known failures", ""]
    parts += ([f"- {k.backend} / {k.flavour} / `{k.function}`: {k.reason}"
               for k in KNOWN_FAILURES] or ["None."])  # fmt: skip
    if xpassed:
        parts += ["", "Known failures that passed (their entries can go):", ""]
        parts += [f"- `{r['nodeid']}`" for r in xpassed]
    parts += ["", "## By function", "", "<details><summary>matrix by function</summary>", "",
              render_markdown(f_header, f_rows), "", "</details>", ""]  # fmt: skip
    return "\n".join(parts)


def report_json(collector: Collector, args: argparse.Namespace, runtime: float) -> dict[str, Any]:
    areas, functions = tabulate(collector.results)
    return {
        "api_version": "2025.12",
        "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "options": {k: getattr(args, k) for k in ("backend", "flavour", "device", "max_examples")},
        "runtime_s": round(runtime, 1),
        "targets": [{"id": t.id, "backend": t.backend, "flavour": t.flavour, "device": t.device,
                     "available": t.unavailable is None, "reason": t.unavailable}
                    for t in collector.targets],
        "areas": {a: {t: dict(c) for t, c in v.items()} for a, v in areas.items()},
        "functions": {a: {f: {t: dict(c) for t, c in v.items()} for f, v in fs.items()}
                      for a, fs in functions.items()},
        "results": collector.results,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", help="backends, comma separated (default: all)")
    parser.add_argument("--flavour", help="wrapped, native (default: both)")
    parser.add_argument("--device", help="cpu, cuda, cuda:1 ... (default: every device seen)")
    parser.add_argument("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES,
                        help=f"hypothesis examples per test (default {DEFAULT_MAX_EXAMPLES})")
    parser.add_argument("--functions", action="store_true", help="expand areas to functions")
    parser.add_argument("--report-dir", default="reports", help="where to write the reports")
    parser.add_argument("--docs", action="store_true", help="also regenerate docs/conformance.md")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression (subset of tests)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    import pytest

    args = parse_args(argv)
    pytest_args = [str(HERE), "-p", "conformance.plugin", "-p", "no:cacheprovider",
                   "-p", "no:terminal", "-o", "addopts=",
                   "--max-examples", str(args.max_examples)]  # fmt: skip
    for option in ("backend", "flavour", "device"):
        if getattr(args, option):
            pytest_args += [f"--{option}", getattr(args, option)]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    collector = Collector(progress=not args.no_progress)
    started = time.monotonic()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    code = pytest.main(pytest_args, plugins=[collector])
    collector.finish()
    runtime = time.monotonic() - started
    header, rows = matrix_rows(collector, args.functions)
    print(render_text(header, rows))
    failed = [r for r in collector.results if r["outcome"] == "failed"]
    for r in failed[:30]:
        print(f"FAILED {r['nodeid']}: {r['message'][:300]}")
    if len(failed) > 30:
        print(f"... and {len(failed) - 30} more failures (see the report)")
    report_dir = Path(args.report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    markdown = report_markdown(collector, args, runtime)
    (report_dir / "conformance.md").write_text(markdown)
    (report_dir / "conformance.json").write_text(
        json.dumps(report_json(collector, args, runtime), indent=1, default=str))
    if args.docs:
        (ROOT / "docs" / "conformance.md").write_text(markdown)
    print(f"{len(collector.results)} tests, {len(failed)} failed, {runtime:.0f} s; "
          f"reports in {report_dir}/")
    return 1 if failed or code not in (0, 5) else 0


if __name__ == "__main__":
    sys.exit(main())
