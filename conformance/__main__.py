"""Run the eagerpy_xp conformance suite and write its reports.

Tests every backend x flavour x device that is installed against the Python Array API
standard 2025.12: each function, operator and method differentially against
array_api_strict on hypothesis inputs, the spec's special cases, type promotion,
signatures, __array_namespace_info__ and errors.

Backends: {backends} (each in the flavours {flavours}; CPU and every CUDA device the
framework sees). A backend that is not installed shows as "n/a" with the reason.

Runs one pytest process per backend x flavour (with its devices), {jobs_hint} at a time.
Progress: a bar per process on a terminal; otherwise a line per finished process and a
heartbeat line at least every 30 s. Each failure is printed as it happens, with its
reproducing call.

Reports (default folder: reports/), rewritten as the run goes and marked PARTIAL until it
is complete (an interrupted or killed run leaves a partial report naming what did not run):
  conformance.json   everything, for --compare and --load
  conformance.md     the matrix in Markdown (--docs also writes docs/conformance.md)
  conformance.html   one self-contained page: the coloured matrix, expandable areas,
                     failures with their calls, options, versions, devices, runtime
                     (and the overhead table when `python -m benchmarks.overhead` ran)
  logs/              each process's pytest output and recorded events

Expected run times with every backend installed, {workers} processes at a time on an idle
machine (from CPU times measured on {machine}):
{times}

Exit status: 0 when nothing failed, 1 when something failed, 2 for a partial run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import report as rep
from .harness import BACKENDS, FLAVOURS
from .plugin import DEFAULT_MAX_EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
THOROUGH_MAX_EXAMPLES = 100

#: Where the times below were measured, and the CPU seconds of each process (one backend
#: x flavour, CPU device, every test) at the default --max-examples: the expected
#: duration printed at the start, and the times in --help, come from these (the run of
#: 2026-12-01; its processes' wall-clock times were 4-9x these, the VM being shared with
#: other jobs at load 7-17; the whole default suite took 324 s in one process on an idle
#: VM of the same kind on 2026-11-30).
MEASURED_MACHINE = "a 2-core x86-64 VM (CPU seconds, measured under load)"
MEASURED_CPU_S: dict[str, float] = {
    "numpy-wrapped": 18.9, "numpy-native": 14.8, "torch-wrapped": 25.6, "torch-native": 19.8,
    "jax-wrapped": 410.3, "jax-native": 344.0, "tensorflow-wrapped": 33.7,
    "tensorflow-native": 26.3, "mlx-wrapped": 55.0, "mlx-native": 53.3,
}  # fmt: skip
STARTUP_CPU_S = 5.0  # of those: start-up and collection, which more examples do not change


def expected_seconds(jobs: list[str], max_examples: int, workers: int) -> float:
    """The run's expected wall-clock seconds with ``workers`` free CPUs: each process's
    measured CPU time scaled by the examples, the processes scheduled on ``workers`` CPUs
    longest first (a process not measured counts as the mean of those measured)."""
    mean = sum(MEASURED_CPU_S.values()) / max(1, len(MEASURED_CPU_S))
    scale = max_examples / DEFAULT_MAX_EXAMPLES
    loads = sorted((STARTUP_CPU_S + (MEASURED_CPU_S.get(b, mean) - STARTUP_CPU_S) * scale
                    for b in jobs), reverse=True)  # fmt: skip
    lanes = [0.0] * max(1, workers)
    for load in loads:
        lanes[lanes.index(min(lanes))] += load
    return max(lanes)


def _times(workers: int) -> str:
    every = [f"{b}-{f}" for b in BACKENDS for f in FLAVOURS]
    lines = [f"  --max-examples {n:<4} about {expected_seconds(every, n, workers) / 60:.0f} min"
             f"{label}" for n, label in ((DEFAULT_MAX_EXAMPLES, " (the default)"),
                                         (THOROUGH_MAX_EXAMPLES, " (--thorough)"))]  # fmt: skip
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    cpus = os.cpu_count() or 1
    doc = (__doc__ or "").format(backends=", ".join(BACKENDS), flavours=", ".join(FLAVOURS),
                                 jobs_hint=f"--jobs (default {cpus}, the CPU count)",
                                 machine=MEASURED_MACHINE, workers=cpus,
                                 times=_times(cpus))  # fmt: skip
    parser = argparse.ArgumentParser(prog="python -m conformance", description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", help=f"backends, comma separated: {', '.join(BACKENDS)} "
                        "(default: all)")  # fmt: skip
    parser.add_argument("--flavour", help=f"flavours, comma separated: {', '.join(FLAVOURS)} "
                        "(default: all)")  # fmt: skip
    parser.add_argument("--device", help="device kinds or devices: cpu, cuda, cuda:1 "
                        "(default: every device each framework sees)")  # fmt: skip
    depth = parser.add_mutually_exclusive_group()
    depth.add_argument("--max-examples", type=int, default=None, metavar="N",
                       help=f"hypothesis examples per test (default {DEFAULT_MAX_EXAMPLES}, "
                       "derandomized; above that each run draws new examples)")  # fmt: skip
    depth.add_argument("--thorough", action="store_true",
                       help=f"a deep run: --max-examples {THOROUGH_MAX_EXAMPLES}")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="hypothesis seed of a randomized run (above the default "
                        "examples): the same seed draws the same examples again")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=cpus, metavar="N",
                        help=f"pytest processes at a time (default {cpus}, the CPU count)")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression (a subset of tests)")
    parser.add_argument("--functions", action="store_true",
                        help="print the matrix expanded to functions")
    parser.add_argument("--report-dir", default="reports",
                        help="where to write the reports (default: reports/)")
    parser.add_argument("--docs", action="store_true",
                        help="also write docs/conformance.md (only from a complete run)")
    parser.add_argument("--compare", metavar="OLD.json",
                        help="print and mark (in the HTML) what got better or worse than "
                        "an earlier report")  # fmt: skip
    parser.add_argument("--load", metavar="REPORT.json",
                        help="run nothing: redraw the matrix and the reports from a saved "
                        "report (with --compare: compare two saved reports)")  # fmt: skip
    parser.add_argument("--no-progress", action="store_true",
                        help="no bars, heartbeats or failure lines while running")
    args = parser.parse_args(argv)
    if args.thorough:
        args.max_examples = THOROUGH_MAX_EXAMPLES
    elif args.max_examples is None:
        args.max_examples = DEFAULT_MAX_EXAMPLES
    if args.max_examples < 1 or args.jobs < 1:
        parser.error("--max-examples and --jobs must be at least 1")
    return args


def known_failure_lines() -> list[str]:
    from .known_failures import KNOWN_FAILURES

    return [f"- {k.backend} / {k.flavour} / `{k.function}`: {k.reason}" for k in KNOWN_FAILURES]


def overhead(report_dir: Path) -> dict[str, Any] | None:
    """The saved overhead benchmark (``python -m benchmarks.overhead``), if any."""
    path = report_dir / "overhead.json"
    if not path.exists():
        return None
    try:
        loaded: dict[str, Any] = json.loads(path.read_text())
    except ValueError:
        return None
    return loaded


def previous_seconds(report_dir: Path) -> dict[str, float]:
    """Seconds each process took in the previous complete report (for the order)."""
    try:
        old = rep.load(report_dir / "conformance.json")
    except (OSError, ValueError):
        return {}
    if old.get("status") != "complete":
        return {}
    return {j["name"]: float(j.get("seconds") or 0.0) for j in old.get("jobs", [])}


def write_reports(report: dict[str, Any], report_dir: Path, docs: bool) -> None:
    """conformance.json, .md and .html; each replaced in one step (never half written)."""
    from .report_html import render_html

    report_dir.mkdir(parents=True, exist_ok=True)
    markdown = rep.render_markdown(report, known_failure_lines())
    files = {"conformance.json": json.dumps(report, indent=1, default=str),
             "conformance.md": markdown, "conformance.html": render_html(report)}  # fmt: skip
    for name, text in files.items():
        temporary = report_dir / f".{name}.tmp"
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(report_dir / name)
    if docs and report["status"] == "complete":
        page = ROOT / "docs" / "conformance.md"
        old = page.read_text(encoding="utf-8") if page.exists() else ""
        page.write_text(docs_page(markdown, old), encoding="utf-8")


#: The line of docs/conformance.md below which the page is written by hand (how the
#: special cases were counted, the deeper runs, the mutations): `--docs` keeps it.
HAND_WRITTEN = "<!-- Written by hand below this line: python -m conformance --docs keeps it. -->"


def docs_page(markdown: str, old: str) -> str:
    """docs/conformance.md: the generated ``markdown``, then the hand-written part of the
    ``old`` page (from `HAND_WRITTEN` on), if it has one."""
    _, marker, kept = old.partition(HAND_WRITTEN)
    return markdown.rstrip("\n") + "\n\n" + marker + kept if marker else markdown


def main(argv: list[str] | None = None) -> int:
    from .runner import Progress, Run, plan

    args = parse_args(argv)
    report_dir = Path(args.report_dir).resolve()
    old = rep.load(args.compare) if args.compare else None
    options = {"max_examples": args.max_examples, "seed": args.seed, "backend": args.backend,
               "flavour": args.flavour, "device": args.device, "keyword": args.keyword,
               "jobs": args.jobs, "argv": sys.argv[1:] if argv is None else list(argv)}  # fmt: skip
    extras = {"overhead": overhead(report_dir)}

    def finish(report: dict[str, Any]) -> dict[str, Any]:
        report["overhead"] = extras["overhead"]
        if old is not None:
            report["comparison"] = rep.compare(old, report)
        return report

    if args.load:
        report = finish(rep.load(args.load))
    else:
        previous = previous_seconds(report_dir)
        jobs = plan(options, report_dir, previous)
        workers = min(args.jobs, len(jobs)) or 1
        expected = expected_seconds([j.name for j in jobs], args.max_examples, workers)
        print(f"conformance: {len(jobs)} processes (backend x flavour), {workers} at a time, "
              f"max-examples {args.max_examples}; expected about {expected / 60:.0f} min "
              f"({expected:.0f} s) with {workers} free CPUs, longer on a busy machine; "
              f"reports in {report_dir}/", flush=True)  # fmt: skip
        live = sys.stderr.isatty() and not args.no_progress
        progress = Progress(sys.stderr if live else sys.stdout, live, quiet=args.no_progress)
        run = Run(options, report_dir, workers, progress,
                  lambda state: write_reports(finish(rep.build(state)), report_dir, False),
                  previous)
        run.execute()
        report = finish(rep.build(run.snapshot()))
    write_reports(report, report_dir, args.docs and not args.load)
    if args.docs and args.load and report["status"] == "complete":
        (ROOT / "docs" / "conformance.md").write_text(
            rep.render_markdown(report, known_failure_lines()), encoding="utf-8")
    header, rows = rep.matrix(report, args.functions)
    print(rep.render_text(header, rows))
    failed = [r for r in report["results"] if r["outcome"] == "failed"]
    for r in failed[:30]:
        print(f"FAILED {r['nodeid']}: {r['message'][:300]}" +
              (f"\n    call: {r['call'][:300]}" if r.get("call") else ""))  # fmt: skip
    if len(failed) > 30:
        print(f"... and {len(failed) - 30} more failures (see the report)")
    if report.get("comparison"):
        print(rep.render_comparison(report["comparison"]))
    for note in rep.partial_note(report):
        print(note)
    print(f"{len(report['results'])} tests, {len(failed)} failed, {report['runtime_s']:.0f} s; "
          f"reports in {report_dir}/ (conformance.html, .md, .json)")  # fmt: skip
    if report["status"] != "complete":
        return 2
    return 1 if failed or report.get("collect_errors") else 0


if __name__ == "__main__":
    sys.exit(main())
