"""First call per backend: what a new process pays before its first result.

For each framework, each form runs in fresh Python processes: the process imports the
framework and makes a float32 array (not timed: every form pays that), then times its
first call from nothing: ``import eagerpy_xp``, ``ep.namespace(x)`` and one
``xp.sin(x)`` (or ``exp``); array-api-compat's ``array_namespace(x).sin(x)``; EagerPy's
``astensor(x).exp()`` (beside TensorFlow, which array-api-compat lacks; on MLX
array-api-compat's namespace is ``mlx.core`` itself).  The
processes of all forms and backends run interleaved, round after round, after one
untimed round (bytecode caching is on in every process, as for an installed package,
which has its ``.pyc`` files), and the medians over rounds are reported in ms.  Each process also reports the modules its first call
imported that a compiler needs and an eager call does not (``torch._dynamo``,
``torch._inductor``, ``jax.experimental``, ...) and the environment variables it set.

    python -m benchmarks.startup [--backends numpy torch] [--rounds 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Any

from eagerpy_xp._detect import REGISTRY

#: How each backend's framework is imported and its array made (not timed): its
#: descriptor's ``benchmark_setup``.
SETUP: dict[str, str] = {name: d.benchmark_setup for name, d in REGISTRY.items()}

#: The timed first call of each form.  ``x`` is the array; the result is ``r``.
FORMS: dict[str, str] = {
    "eagerpy_xp": "import eagerpy_xp as ep; xp = ep.namespace(x); r = xp.sin(x)",
    "eagerpy_xp wrapped": "import eagerpy_xp as ep; r = ep.astensor(x).__array_namespace__().sin(ep.astensor(x))",
    "array-api-compat": "from array_api_compat import array_namespace; r = array_namespace(x).sin(x)",
    "EagerPy": "import eagerpy; r = eagerpy.astensor(x).exp()",
}

#: The forms that cannot run on a backend (and why), as the libraries document (the
#: backends' descriptors say which frameworks EagerPy and array-api-compat support).
MISSING: dict[tuple[str, str], str] = {
    **{(name, "array-api-compat"): f"array-api-compat has no {name}"
       for name, d in REGISTRY.items() if not d.in_array_api_compat},
    **{(name, "EagerPy"): f"EagerPy has no {name}"
       for name, d in REGISTRY.items() if not d.in_eagerpy},
}  # fmt: skip

#: Modules an eager first call must not import: compilers and transforms it does not use.
HEAVY = tuple(m for d in REGISTRY.values() for m in d.compiler_modules)

_PROGRAM = """
import json, os, sys, time
{setup}
before_modules = set(sys.modules)
before_env = dict(os.environ)
t0 = time.perf_counter()
{form}
t1 = time.perf_counter()
new = set(sys.modules) - before_modules
heavy = sorted({{h for h in {heavy!r} for m in new if m == h or m.startswith(h + '.')}})
env = sorted(k for k in set(os.environ) | set(before_env) if os.environ.get(k) != before_env.get(k))
print(json.dumps({{"ms": (t1 - t0) * 1e3, "heavy": heavy, "env": env}}))
"""


#: The processes' environment: this one's, with bytecode caching on (an installed package
#: has its ``.pyc`` files; a first untimed round writes them where they are missing).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(backend: str, form: str) -> dict[str, Any]:
    """One fresh process: the framework imported and an array made, then the form's first
    call timed; its time in ms, the heavy modules it imported and the variables it set."""
    program = _PROGRAM.format(setup=SETUP[backend], form=FORMS[form], heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=600, env=_ENV)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{backend} / {form} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def installed(backend: str) -> bool:
    module = REGISTRY[backend].framework
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return done.returncode == 0


def measure(backends: list[str], forms: list[str], rounds: int) -> dict[str, dict[str, Any]]:
    """``{backend: {form: {"ms": median, "runs": [...], "heavy": [...], "env": [...]}}}``,
    every process of a round run once, interleaved, ``rounds`` rounds."""
    pairs = [(b, f) for b in backends for f in forms if (b, f) not in MISSING]
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {p: [] for p in pairs}
    for pair in pairs:  # untimed: writes the bytecode caches, warms the file system
        run_once(*pair)
    for _ in range(rounds):
        for pair in pairs:
            runs[pair].append(run_once(*pair))
    table: dict[str, dict[str, Any]] = {b: {} for b in backends}
    for (b, f), results in runs.items():
        table[b][f] = {
            "ms": statistics.median(r["ms"] for r in results),
            "runs": [round(r["ms"], 2) for r in results],
            "heavy": sorted({m for r in results for m in r["heavy"]}),
            "env": sorted({k for r in results for k in r["env"]}),
        }
    return table


def report(table: dict[str, dict[str, Any]], forms: list[str]) -> str:
    lines = ["| backend | " + " | ".join(forms) + " | heavy imports / environment (eagerpy_xp) |",
             "|---|" + "---:|" * len(forms) + "---|"]  # fmt: skip
    for backend, row in table.items():
        cells = [f"{row[f]['ms']:.0f} ms" if f in row else "—" for f in forms]
        ours = row.get("eagerpy_xp", {})
        notes = ", ".join([*ours.get("heavy", []), *(f"sets {k}" for k in ours.get("env", []))])
        lines.append(f"| {backend} | " + " | ".join(cells) + f" | {notes or 'none'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=list(SETUP))
    parser.add_argument("--forms", nargs="+", default=list(FORMS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    left_out = [b for b in args.backends if not installed(b)]
    backends = [b for b in args.backends if b not in left_out]
    table = measure(backends, args.forms, args.rounds)
    print(f"First call in a fresh process, median of {args.rounds} (ms)\n")
    print(report(table, args.forms))
    for backend in left_out:
        print(f"- {backend}: not installed")
    for (backend, form), why in MISSING.items():
        if backend in backends and form in args.forms:
            print(f"- {backend} / {form}: {why}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rounds": args.rounds, "backends": table, "left_out": left_out}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
