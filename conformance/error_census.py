"""``python -m conformance.error_census``: count how each namespace answers invalid calls.

A fixed, seeded set of invalid calls (`conformance.invalid_calls`, about 1,500 per
namespace: every spec function, ``linalg`` and ``fft`` included, and for the wrapped
flavour the array object) runs on each requested namespace, in worker processes so that
a crash is counted rather than fatal.  Each outcome is classified (see
`conformance.invalid_calls`): clear, other exception, wrong answer, crash, changed
input, changed global.  The output is a Markdown report: the table, then the most common
failure signatures per namespace.  Run JAX with 64-bit types as the suite does::

    JAX_ENABLE_X64=1 python -m conformance.error_census --out errors.md
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

from .harness import BACKENDS, FLAVOURS, Target
from .invalid_calls import (
    ARRAY_ENTRIES,
    SIGNATURES,
    Invalid,
    Outcome,
    generate,
    run_in_subprocess,
)

CATEGORIES = ("clear", "other exception", "wrong answer", "crash", "timeout",
              "changed input", "changed global")  # fmt: skip


def census_calls(flavour: str, total: int) -> list[Invalid]:
    """The fixed set of invalid calls for one flavour (about ``total`` of them)."""
    names = [*SIGNATURES, *(ARRAY_ENTRIES if flavour == "wrapped" else ())]
    per_name = math.ceil(total / len(names))
    calls = []
    for name in names:
        for i in range(per_name):
            call = generate(name, random.Random(f"{name}:{i}"))
            if call is not None:
                calls.append(call)
    return calls


def _row(target: Target, outcomes: list[Outcome]) -> list[str]:
    counts = Counter(o.category for o in outcomes)
    n = len(outcomes)
    raised = [o for o in outcomes if o.exception]
    formatted = sum(o.formatted for o in raised)
    right = sum(o.right_type for o in raised)
    cells = [f"{counts[c]} ({100 * counts[c] / n:.0f} %)" if counts[c] else "0"
             for c in CATEGORIES]  # fmt: skip
    return [f"{target.backend} {target.flavour}", str(n), *cells,
            f"{right} ({100 * right / n:.0f} %)", f"{formatted} ({100 * formatted / n:.0f} %)"]


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.error_census",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default=",".join(BACKENDS))
    parser.add_argument("--flavour", default=",".join(FLAVOURS))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--calls", type=int, default=1550, help="calls per namespace")
    parser.add_argument("--signatures", type=int, default=40,
                        help="failure signatures listed per namespace")
    parser.add_argument("--out", help="write the Markdown report here (default: stdout)")
    args = parser.parse_args(argv)
    header = ["namespace", "calls", *CATEGORIES, "right type (any message)",
              "documented prefix"]
    rows: list[list[str]] = []
    details: list[str] = []
    started = time.monotonic()
    for backend in args.backend.split(","):
        for flavour in args.flavour.split(","):
            target = Target(backend, flavour, args.device)
            calls = census_calls(flavour, args.calls)
            outcomes = run_in_subprocess([(target, c) for c in calls])
            rows.append(_row(target, outcomes))
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
            details += _signatures(target, calls, outcomes, args.signatures)
    report = "\n".join([
        "# Error census", "",
        f"`python -m conformance.error_census` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{time.monotonic() - started:.0f} s): a fixed, seeded set of invalid calls per "
        "namespace, classified against docs/errors.md. *clear*: the contract's exception "
        "type, naming function and backend; *other exception*: wrong type or a message "
        "naming neither; *wrong answer*: no exception; *crash*: the process died; "
        "*changed input*: raised but modified an input; *changed global*: a framework "
        "switch changed. The last two columns count, over all calls, the exceptions of the "
        "contract's type whatever their message, and the messages in the documented "
        "format (`eagerpy_xp.<backend>.<function>: ...`).", "",
        _markdown_table(header, rows), "", *details,
    ])  # fmt: skip
    if args.out:
        Path(args.out).write_text(report + "\n")
    else:
        print(report)
    return 0


def _signatures(target: Target, calls: list[Invalid], outcomes: list[Outcome],
                limit: int) -> list[str]:  # fmt: skip
    """The most common failure signatures of one namespace, each with an example call."""
    counts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    functions: dict[str, set[str]] = {}
    for call, outcome in zip(calls, outcomes):
        if outcome.category == "clear":
            continue
        sig = outcome.signature(call)
        counts[sig] += 1
        functions.setdefault(sig, set()).add(call.function)
        examples.setdefault(sig, f"{call.describe()} -> {outcome.exception or 'returned'}: "
                                 f"{outcome.message.splitlines()[0][:160] if outcome.message else ''}")
    lines = [f"## {target.backend} {target.flavour}: {sum(counts.values())} failures, "
             f"top {limit} signatures", ""]  # fmt: skip
    for sig, n in counts.most_common(limit):
        names = sorted(functions[sig])
        shown = ", ".join(names[:8]) + (f", … ({len(names)})" if len(names) > 8 else "")
        lines.append(f"- **{n}** x `{sig}` — {shown}; e.g. `{examples[sig]}`")
    lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
