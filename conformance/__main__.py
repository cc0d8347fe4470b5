"""Run the eagerpy_xp conformance suite and write its reports.

Tests every backend x flavour x device that is installed against the Python Array API
standard 2025.12: each function, operator and method differentially against
array_api_strict on hypothesis inputs, the spec's special cases, type promotion,
signatures, __array_namespace_info__ and errors.  Any other namespace that claims the
standard runs through the same suite with --namespace (array_api_strict,
array_api_compat.torch, jax.numpy, mlx.core, numpy, ...), with its own arrays and
operators, each a column of its own; --peers adds those of every installed backend beside
eagerpy_xp's columns.

Backends: {backends} (each in the flavours {flavours}; CPU and every CUDA device the
framework sees). A backend that is not installed shows as "n/a" with the reason.
Peers (--peers): {peers}.

Runs one pytest process per backend (both flavours) and per other namespace, {jobs_hint}
at a time, the costliest first (a process costlier than a core's share is split by test
module). It prints the expected time at the start, measured on this machine (a short
calibration, the costs stored in conformance/costs.json, the cores and the load), and
the estimate beside the actual time at the end. Progress: a bar per process on a
terminal; otherwise a line per finished process and a heartbeat line at least every 30
s. Each failure is printed as it happens, with its reproducing call; a function a
namespace lacks is counted as "missing".

Reports (default folder: reports/), rewritten as the run goes and marked PARTIAL until it
is complete (an interrupted or killed run leaves a partial report naming what did not run):
  conformance.json   everything, for --compare and --load
  conformance.md     the matrix in Markdown (--docs also writes docs/conformance.md)
  conformance.html   one self-contained page: the coloured matrix grouped by framework,
                     a summary per column, expandable areas, failures with their calls,
                     options, versions, devices, runtime and estimate
                     (and the overhead table when `python -m benchmarks.overhead` ran)
  logs/              each process's pytest output and recorded events
  cache/jax/         JAX's compilation cache (a second run compiles nothing; --no-cache)

Expected run times on this machine, {workers} processes at a time, nothing else running:
{times}

Exit status: 0 when nothing failed, 1 when something failed or is missing, 2 for a
partial run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import estimate as est
from . import report as rep
from .harness import BACKENDS, FLAVOURS, PEERS, peers
from .plugin import DEFAULT_MAX_EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
THOROUGH_MAX_EXAMPLES = 100


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def expected(options: dict[str, Any], report_dir: Path, workers: int,
             calibration_s: float | None = None, load: float | None = None,
             costs: est.Costs | None = None,
             measure: bool = False) -> tuple[Any, est.Estimate]:  # fmt: skip
    """The planned jobs of a run and its estimate on this machine (``measure``: also time
    the calibration in as many processes at once as will run, `estimate.contention`)."""
    from .runner import cache_warm, plan, suite_modules

    costs = costs or est.Costs.load()
    warm = bool(options.get("cache", True)) and cache_warm(report_dir)
    jobs = plan(options, report_dir / "logs", costs, workers, warm)
    examples = int(options["max_examples"])
    unknown = sorted({f"{t} {m} (not counted)" for j in jobs for t in j.targets
                      for m in (j.modules or tuple(suite_modules()))
                      if costs.modules_of(t, examples) and costs.target_units(
                          t, [m], examples, warm)[1]}
                     | {f"{t} (counted as the mean column)" for j in jobs for t in j.targets
                        if not costs.modules_of(t, examples)})  # fmt: skip
    calibration = calibration_s if calibration_s is not None else est.calibrate()
    now = load if load is not None else est.machine_load()
    running = min(workers, len(jobs)) or 1
    measured = est.contention(running, calibration) if measure else None
    estimate = est.estimate({j.name: j.units for j in jobs}, unknown, calibration, workers,
                            cores(), now, warm, measured)  # fmt: skip
    return jobs, estimate


def _times(workers: int) -> str:
    calibration = est.calibrate()
    lines = []
    for n, label in ((DEFAULT_MAX_EXAMPLES, " (the default)"),
                     (THOROUGH_MAX_EXAMPLES, " (--thorough)")):  # fmt: skip
        options = {"max_examples": n}
        _, e = expected(options, ROOT / "reports", workers, calibration, 0.0)
        lines.append(f"  --max-examples {n:<4} about {e.seconds / 60:.0f} min{label}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    cpus = cores()
    given = sys.argv[1:] if argv is None else argv
    wants_help = any(a in ("-h", "--help") for a in given)  # the times cost a calibration
    doc = (__doc__ or "").format(backends=", ".join(BACKENDS), flavours=", ".join(FLAVOURS),
                                 peers=", ".join(peers()) or "none installed",
                                 jobs_hint=f"--jobs (default {cpus}, the CPU count)",
                                 workers=cpus,
                                 times=_times(cpus) if wants_help else "")  # fmt: skip
    parser = argparse.ArgumentParser(prog="python -m conformance", description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", help=f"backends, comma separated: {', '.join(BACKENDS)} "
                        "(default: all)")  # fmt: skip
    parser.add_argument("--flavour", help=f"flavours, comma separated: {', '.join(FLAVOURS)} "
                        "(default: all)")  # fmt: skip
    parser.add_argument("--device", help="device kinds or devices: cpu, cuda, cuda:1 "
                        "(default: every device each framework sees)")  # fmt: skip
    parser.add_argument("--namespace", action="append", default=[], metavar="MODULE",
                        help="test another namespace (an importable module that claims the "
                        "standard: array_api_strict, a framework's own module, ...) as a column of its own; "
                        "repeatable. Alone it runs only the namespaces given; with "
                        "--backend or --flavour, eagerpy_xp's targets too")  # fmt: skip
    parser.add_argument("--peers", action="store_true",
                        help="also run the installed peers of the selected backends "
                        f"({', '.join(n for names in PEERS.values() for n in names)}) "
                        "beside eagerpy_xp's columns")  # fmt: skip
    parser.add_argument("--no-ours", action="store_true",
                        help="leave eagerpy_xp's own targets out (with --peers or --namespace)")
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
    parser.add_argument("--tier", default=None, metavar="TIERS",
                        help="only the checks of these tiers, comma separated: must (the "
                        "standard's normative text), should (its recommendations), house "
                        "(eagerpy_xp's own contract) (default: all)")  # fmt: skip
    parser.add_argument("--functions", action="store_true",
                        help="print the matrix expanded to functions")
    parser.add_argument("--report-dir", default="reports",
                        help="where to write the reports (default: reports/)")
    parser.add_argument("--docs", action="store_true",
                        help="also write docs/conformance.md and store the measured costs "
                        "(only from a complete run)")  # fmt: skip
    parser.add_argument("--save-costs", action="store_true",
                        help="store the CPU time each column and module took, in units of "
                        "this machine's calibration, in conformance/costs.json (from a "
                        "complete run, or with --load from a saved one): the estimates of "
                        "later runs use them")  # fmt: skip
    parser.add_argument("--costs", default=str(est.COSTS_PATH), metavar="FILE",
                        help="the stored costs the estimate reads and --save-costs writes "
                        "(default: conformance/costs.json)")  # fmt: skip
    parser.add_argument("--no-cache", action="store_true",
                        help="no JAX compilation cache (every kernel is compiled afresh)")
    parser.add_argument("--compare", metavar="OLD.json",
                        help="print and mark (in the HTML) what got better or worse than "
                        "an earlier report; an old run of one namespace against a new run "
                        "of another compares their columns")  # fmt: skip
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


def run_options(args: argparse.Namespace, argv: list[str] | None) -> dict[str, Any]:
    """The options of a run as its report records them (the namespaces resolved)."""
    chosen = args.backend is not None or args.flavour is not None
    ours = not args.no_ours and (chosen or not args.namespace)
    namespaces = list(dict.fromkeys(args.namespace))
    if args.peers:
        selected = [b.strip() for b in args.backend.split(",")] if args.backend else None
        namespaces += [p for p in peers(selected) if p not in namespaces]
    return {"max_examples": args.max_examples, "seed": args.seed, "backend": args.backend,
            "flavour": args.flavour, "device": args.device, "keyword": args.keyword,
            "tier": args.tier, "jobs": args.jobs, "ours": ours, "namespaces": namespaces,
            "peers": args.peers, "cache": not args.no_cache,
            "argv": sys.argv[1:] if argv is None else list(argv)}  # fmt: skip


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
        page = ROOT / "docs" / "conformance.md"
        old = page.read_text(encoding="utf-8") if page.exists() else ""
        if report["options"].get("ours", True):
            page.write_text(docs_page(markdown, old), encoding="utf-8")
        else:  # a run of other namespaces only: the page's peers section
            page.write_text(peers_section(rep.render_peers(report), old), encoding="utf-8")


#: The line of docs/conformance.md below which the page is written by hand (how the
#: special cases were counted, the deeper runs, the mutations): `--docs` keeps it.
HAND_WRITTEN = "<!-- Written by hand below this line: python -m conformance --docs keeps it. -->"


def docs_page(markdown: str, old: str) -> str:
    """docs/conformance.md: the generated ``markdown``, then the hand-written part of the
    ``old`` page (from `HAND_WRITTEN` on), if it has one."""
    _, marker, kept = old.partition(HAND_WRITTEN)
    return markdown.rstrip("\n") + "\n\n" + marker + kept if marker else markdown


#: The lines around the peers section of docs/conformance.md (in the hand-written part),
#: which a run of other namespaces only with ``--docs`` rewrites.
PEERS_BEGIN = "<!-- Peers: python -m conformance --peers --no-ours --docs rewrites up to the end line. -->"
PEERS_END = "<!-- End of the peers section. -->"


def peers_section(section: str, old: str) -> str:
    """``old`` with its peers section replaced by ``section`` (added at the end if the
    page has none)."""
    before, begin, rest = old.partition(PEERS_BEGIN)
    _, end, after = rest.partition(PEERS_END)
    if not (begin and end):
        before, after = old.rstrip("\n") + "\n\n", "\n"
    return f"{before}{PEERS_BEGIN}\n\n{section.strip()}\n\n{PEERS_END}{after}"


def save_costs(report: dict[str, Any], path: Path = est.COSTS_PATH) -> str:
    """Store what a complete run measured in conformance/costs.json (see `estimate`); what
    was stored, or why nothing was."""
    estimate = report.get("estimate")
    if report["status"] != "complete" or not estimate:
        return "costs not stored: only a complete run with an estimate (this format) has them"
    targets, startup = rep.measured_costs(report)
    if not any(c for modules in targets.values() for c in modules.values()):
        return "costs not stored: the report has no CPU times per test"
    costs = est.Costs.load(path)
    about = report.get("machine", {})
    costs.record(int(report["options"]["max_examples"]), bool(estimate.get("warm")),
                 float(estimate["calibration_s"]), targets, startup,
                 f"{about.get('processor') or about.get('platform')}, "
                 f"{about.get('cpu_count')} CPUs")  # fmt: skip
    costs.save(path)
    return (f"costs of {len(targets)} columns stored in {path} "
            f"(max-examples {report['options']['max_examples']})")


def main(argv: list[str] | None = None) -> int:
    from .runner import Progress, Run

    args = parse_args(argv)
    report_dir = Path(args.report_dir).resolve()
    old = rep.load(args.compare) if args.compare else None
    options = run_options(args, argv)
    extras = {"overhead": overhead(report_dir)}

    def finish(report: dict[str, Any]) -> dict[str, Any]:
        report["overhead"] = extras["overhead"]
        if old is not None:
            report["comparison"] = rep.compare(old, report)
        return report

    if args.load:
        report = finish(rep.load(args.load))
    else:
        workers = args.jobs
        jobs, estimate = expected(options, report_dir, workers,
                                  costs=est.Costs.load(Path(args.costs)), measure=True)  # fmt: skip
        subset = " (for whole modules: -k runs a subset)" if args.keyword else ""
        print(f"conformance: {len(jobs)} processes ({', '.join(j.name for j in jobs)}), "
              f"max-examples {args.max_examples}; {estimate.describe()}{subset}; reports in "
              f"{report_dir}/", flush=True)  # fmt: skip
        live = sys.stderr.isatty() and not args.no_progress
        progress = Progress(sys.stderr if live else sys.stdout, live, quiet=args.no_progress)
        run = Run(options, report_dir, workers, progress,
                  lambda state: write_reports(finish(rep.build(state)), report_dir, False),
                  jobs)  # fmt: skip
        run.estimate = estimate.record()
        if args.keyword:  # the stored costs are of whole modules
            run.estimate["subset"] = args.keyword
        run.execute()
        report = finish(rep.build(run.snapshot()))
    if args.save_costs or (args.docs and not args.load):
        print(save_costs(report, Path(args.costs)))
    write_reports(report, report_dir, args.docs)
    header, rows = rep.matrix(report, args.functions)
    print(rep.render_text(header, rows))
    failed = rep.judged_failures(report)  # another namespace's house failures: not judged
    missing = rep.missing_names(report)
    for r in failed[:30]:
        print(f"FAILED [{r.get('tier', 'must')}] {r['nodeid']}: {r['message'][:300]}" +
              (f"\n    call: {r['call'][:300]}" if r.get("call") else ""))  # fmt: skip
    if len(failed) > 30:
        print(f"... and {len(failed) - 30} more failures (see the report)")
    for tid, names in missing.items():
        print(f"MISSING in {tid}: {', '.join(names)}")
    if report.get("comparison"):
        print(rep.render_comparison(report["comparison"]))
    for note in rep.partial_note(report):
        print(note)
    for t in report["targets"]:
        print(f"{t['id']}: {rep.column_summary(report['totals'].get(t['id']), t)}")
    if rep.estimate_line(report):
        print(rep.estimate_line(report))
    lacking = sum(r["outcome"] == "missing" for r in report["results"])
    print(f"{len(report['results'])} tests, {len(failed)} failed, {lacking} missing, "
          f"{report['runtime_s']:.0f} s; reports in {report_dir}/ "
          f"(conformance.html, .md, .json)")  # fmt: skip
    if report["status"] != "complete":
        return 2
    return 1 if failed or lacking or report.get("collect_errors") else 0


if __name__ == "__main__":
    sys.exit(main())
