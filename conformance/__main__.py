"""Run the eagerpy_xp conformance suite and write its reports.

Tests every backend x flavour x device that is installed against the Python Array API
standard 2025.12: each function, operator and method differentially against
array_api_strict on hypothesis inputs, the spec's special cases, type promotion,
signatures, __array_namespace_info__ and errors.

Backends: {backends} (each in the flavours {flavours}; CPU and every CUDA device the
framework sees). A backend that is not installed shows as "n/a" with the reason.

Runs one pytest process per backend x flavour, {jobs_hint} at a time. Progress: a bar per
process on a terminal; otherwise a line per finished process and a heartbeat line at
least every 30 s. Each failure is printed as it happens, with its reproducing call.

Reports (default folder: reports/), rewritten as the run goes and marked PARTIAL until it
is complete (an interrupted or killed run leaves a partial report naming what did not run):
  conformance.json   everything, for --compare and --load
  conformance.md     the matrix in Markdown (--docs also writes docs/conformance.md)
  conformance.html   one self-contained page: the coloured matrix, expandable areas,
                     failures with their calls, options, versions, devices, runtime
                     (and the overhead table when `python -m benchmarks.overhead` ran)
  logs/              each process's pytest output and recorded events

Run times measured on {machine}:
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

#: Measured wall-clock seconds of one process (one backend x flavour, CPU) with
#: every backend installed: (start-up and collection, seconds per hypothesis example
#: setting unit). See README "Two commands" for the machine.  Used for the estimate
#: printed at the start, scaled by --max-examples and the number of parallel processes.
MEASURED_MACHINE = "a shared 2-core x86-64 VM (other jobs running), CPU only"
MEASURED_SECONDS = {12: 0.0, 60: 0.0}  # total run, all backends, 2 processes; filled below


def _times() -> str:
    return "\n".join(f"  --max-examples {n:<4} about {s / 60:.0f} min"
                     f"{' (the default)' if n == DEFAULT_MAX_EXAMPLES else ''}"
                     for n, s in sorted(MEASURED_SECONDS.items()) if s)  # fmt: skip


def estimate(max_examples: int, jobs: int, workers: int) -> float:
    """Expected seconds of a run, from the measured times (linear in the examples)."""
    (n0, s0), (n1, s1) = sorted(MEASURED_SECONDS.items())[:2]
    per_example = (s1 - s0) / (n1 - n0)
    full = s0 + per_example * (max_examples - n0)
    all_jobs = len(BACKENDS) * len(FLAVOURS)
    return max(full, 10.0) * jobs / all_jobs * 2 / max(1, min(workers, jobs))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    cpus = os.cpu_count() or 1
    doc = (__doc__ or "").format(backends=", ".join(BACKENDS), flavours=", ".join(FLAVOURS),
                                 jobs_hint=f"--jobs (default {cpus}, the CPU count)",
                                 machine=MEASURED_MACHINE, times=_times())  # fmt: skip
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
        (ROOT / "docs" / "conformance.md").write_text(markdown, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from .runner import Progress, Run, plan

    args = parse_args(argv)
    report_dir = Path(args.report_dir).resolve()
    old = rep.load(args.compare) if args.compare else None
    options = {"max_examples": args.max_examples, "backend": args.backend,
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
        jobs = len(plan(options, report_dir))
        workers = min(args.jobs, jobs) or 1
        print(f"conformance: {jobs} processes (backend x flavour), {workers} at a time, "
              f"max-examples {args.max_examples}; expected about "
              f"{estimate(args.max_examples, jobs, workers) / 60:.0f} min on "
              f"{os.cpu_count()} CPUs; reports in {report_dir}/", flush=True)  # fmt: skip
        live = sys.stderr.isatty() and not args.no_progress
        progress = Progress(sys.stderr if live else sys.stdout, live, quiet=args.no_progress)
        run = Run(options, report_dir, workers, progress,
                  lambda state: write_reports(finish(rep.build(state)), report_dir, False))
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
