"""python -m conformance.clients scipy|sklearn|array-api-extra [options]

Runs the library's own array-API tests (SciPy's and scikit-learn's installed tests,
array-api-extra's from its sdist, downloaded once into ~/.cache/eagerpy_xp) with
eagerpy_xp's namespaces added to the library's ``xp`` parametrization, first on
array_api_strict (the reference) and then on each namespace, one pytest process each.
Prints a line per finished namespace: of the tests that pass on array_api_strict, how
many pass on it (the same test, the namespace swapped), and writes reports/clients/
<library>-<selection>.md and .json with every failing test's id and first error line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eagerpy_xp import _detect

from . import BACKENDS, LIBRARIES, SELECTIONS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.clients",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("library", choices=LIBRARIES)
    parser.add_argument(
        "--backend",
        default=",".join(BACKENDS),
        help=f"comma separated (default: {','.join(BACKENDS)}; none: only --namespace ones)",
    )
    parser.add_argument("--flavour", choices=("wrapped", "native"), default="wrapped")
    parser.add_argument(
        "--namespace",
        action="append",
        default=[],
        metavar="MODULE",
        help="also run another namespace (a module such as array_api_compat's, or one of "
        "the library's own params); repeatable",
    )
    parser.add_argument(
        "-k", dest="keyword", default=None, help="pytest -k, added to the selection's"
    )
    parser.add_argument(
        "--select",
        choices=("ci", "full"),
        default="full",
        help="the fixed selection (conformance/clients/__init__.py)",
    )
    parser.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="PATH",
        help="test paths (relative to the library's test root) instead of the "
        "selection's; repeatable",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds per pytest process (killed after; partial results kept)",
    )
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="run the reference and every namespace in one pytest process (faster start-up; "
        "one crash loses all)",
    )
    parser.add_argument("--out", default="reports/clients", help="report folder")
    parser.add_argument("--report", default=None, help="report name (default <library>-<select>)")
    args = parser.parse_args(argv)

    from .runner import namespaces_for, run_library

    backends = [b for b in args.backend.split(",") if b and b != "none"]
    unknown = set(backends) - set(_detect.BACKENDS)
    if unknown:
        parser.error(f"unknown backend(s) {sorted(unknown)}; choose from "
                     f"{', '.join(_detect.BACKENDS)}")  # fmt: skip
    namespaces = namespaces_for(backends, args.flavour) + args.namespace
    assert args.select in SELECTIONS[args.library]
    rows = run_library(
        args.library,
        namespaces,
        args.select,
        args.keyword,
        paths=args.path or None,
        timeout=args.timeout,
        outdir=Path(args.out),
        report_name=args.report,
        together=args.one_process,
        printer=lambda line: print(line, flush=True),
    )
    name = args.report or f"{args.library}-{args.select}"
    print(f"report: {Path(args.out) / name}.md and .json")
    return 1 if any(row["failed"] or row["timed_out"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
