"""Per-operation overhead: one operator, function, reduction or index at a time.

Each operation runs on float32[16] arrays (``x``, and ``y`` a second one) in five forms:
the plain framework call, the array-api-compat namespace, EagerPy, the eagerpy_xp native
flavour and the eagerpy_xp wrapped flavour (an `Array`).  All forms of all operations
are timed interleaved in one process (round after round, each operation in each form in
turn) and the medians over rounds are reported, in µs per call and in µs added over the
plain framework call.  For operators, the array-api-compat and native columns call the
namespace function the operator stands for (their arrays are the framework's own, whose
operators are the plain column); indexing has no function, so those columns index the
framework's array as the plain column does.

**The floor.**  Every run also times the barest wrapper Python allows, in the same
rounds: a class with two slots whose ``__add__`` calls the framework's operator on the
two wrapped arrays and allocates the result (``object.__new__`` and two slot stores).
What it adds over the plain ``x + y`` is the *floor*: the least any Python array wrapper
adds to an operation on this machine, now.  Each form is also reported as a multiple of
it, ``(form - plain) / floor`` (and the wrapped flavour over the native one,
``(wrapped - native) / floor``), which, unlike µs, compares across machines and loads.
MLX is lazy: every form only builds the graph node (none evaluates), so its rows are the
cost of a call, not of the computation; array-api-compat hands MLX's arrays to
``mlx.core`` itself, and EagerPy has no MLX.


    python -m benchmarks.per_op [--backends numpy torch] [--rounds 200] [--calls 300]
                                [--ops "x[1:5]" "x * 2.0"] [--json out.json]
    python -m benchmarks.per_op --compare before.json after.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import timeit
from typing import Any

from eagerpy_xp._detect import REGISTRY

#: (operation, wrapped/EagerPy statement, namespace-function statement).  ``a`` and ``b``
#: are the two arrays (or tensors) of the form, ``xp`` its namespace.  Rows whose function
#: statement is None are indexing: every form but the wrapped one indexes the
#: framework's array (the native flavour has no indexing of its own).
OPERATIONS: tuple[tuple[str, str, str | None], ...] = (
    ("x + y", "a + b", "xp.add(a, b)"),
    ("x * y", "a * b", "xp.multiply(a, b)"),
    ("x * 2.0", "a * 2.0", "xp.multiply(a, 2.0)"),
    ("x * 2", "a * 2", "xp.multiply(a, 2)"),
    ("2 - x", "2 - a", "xp.subtract(2, a)"),
    ("x ** 2", "a ** 2", "xp.pow(a, 2)"),
    ("-x", "-a", "xp.negative(a)"),
    ("x < y", "a < b", "xp.less(a, b)"),
    ("x > 0.5", "a > 0.5", "xp.greater(a, 0.5)"),
    ("xp.exp(x)", "xp.exp(a)", "xp.exp(a)"),
    ("xp.add(x, y)", "xp.add(a, b)", "xp.add(a, b)"),
    ("xp.sum(x, axis=0)", "xp.sum(a, axis=0)", "xp.sum(a, axis=0)"),
    ("xp.mean(x, axis=0)", "xp.mean(a, axis=0)", "xp.mean(a, axis=0)"),
    ("x[1:5]", "a[1:5]", None),
    ("x[0]", "a[0]", None),
    ("x[..., 0]", "a[..., 0]", None),
    ("x[:, None]", "a[:, None]", None),
    ("x[::-1]", "a[::-1]", None),
)

#: The plain framework spelling of the functions (``fw`` is the framework module, ``a``
#: and ``b`` its arrays), where a backend's descriptor states none of its own
#: (``benchmark_spellings``, which also gives operators their plain spelling where the
#: framework's operator is not the wrapped one's).
PLAIN_DEFAULT: dict[str, str] = {
    "xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
    "xp.sum(x, axis=0)": "fw.sum(a, axis=0)", "xp.mean(x, axis=0)": "fw.mean(a, axis=0)",
}  # fmt: skip


def _plain(backend: str) -> dict[str, str]:
    """The plain framework spelling of each operation where it is not the wrapped one."""
    return {**PLAIN_DEFAULT, **REGISTRY[backend].benchmark_spellings}


#: EagerPy's spelling where it differs from the wrapped one (it has no ``add`` function).
EAGERPY: dict[str, str] = {
    "xp.exp(x)": "a.exp()",
    "xp.add(x, y)": "a + b",
    "xp.sum(x, axis=0)": "a.sum(axis=0)",
    "xp.mean(x, axis=0)": "a.mean(axis=0)",
}

COLUMNS = ("plain", "array-api-compat", "EagerPy", "eagerpy_xp native", "eagerpy_xp wrapped")
#: The pseudo-operation timing the floor (`Bare`), and its plain counterpart.
FLOOR = "floor: Bare(x) + Bare(y)"


class Bare:
    """The barest array wrapper: two slots, and an ``__add__`` that calls the framework's
    operator and allocates the result."""

    __slots__ = ("raw", "tag")

    def __add__(self, other: Bare) -> Bare:
        out = _new(Bare)
        out.raw = self.raw + other.raw
        out.tag = self.tag
        return out


_new = object.__new__


def _bare(raw: Any) -> Bare:
    out = _new(Bare)
    out.raw, out.tag = raw, None
    return out


def _input(backend: str, start: float = -2.0, stop: float = 2.0) -> Any:
    import numpy as np

    data = np.linspace(start, stop, 16, dtype=np.float32)
    if backend == "numpy":
        return data
    fw = importlib.import_module(REGISTRY[backend].framework)
    return getattr(fw, REGISTRY[backend].benchmark_array)(data)


def _forms(backend: str, op: str, wrapped_stmt: str, function_stmt: str | None
           ) -> dict[str, tuple[str, dict[str, Any]]]:  # fmt: skip
    """column -> (statement, globals); libraries that are not installed, and forms whose
    statement fails (torch has no negative steps), are left out."""
    import eagerpy_xp as ep

    raw, other = _input(backend), _input(backend, 0.5, 3.0)
    fw = importlib.import_module(REGISTRY[backend].framework)
    is_operator = not op.startswith("xp.")
    plain = _plain(backend).get(op, wrapped_stmt) if is_operator else _plain(backend)[op]
    forms: dict[str, tuple[str, dict[str, Any]]] = {
        "plain": (plain, {"a": raw, "b": other, "fw": fw}),
    }  # fmt: skip
    if REGISTRY[backend].in_array_api_compat:
        try:
            import array_api_compat

            forms["array-api-compat"] = (function_stmt or plain, {
                "a": raw, "b": other, "xp": array_api_compat.array_namespace(raw)})  # fmt: skip
        except ImportError:
            pass
    try:
        import eagerpy

        forms["EagerPy"] = (EAGERPY.get(op, wrapped_stmt), {"a": eagerpy.astensor(raw),
                                                            "b": eagerpy.astensor(other)})
    except (ImportError, ValueError):  # not installed, or a framework it lacks (MLX)
        pass
    forms["eagerpy_xp native"] = (function_stmt or plain,
                                  {"a": raw, "b": other, "xp": ep.namespace(raw)})  # fmt: skip
    wrapped = ep.astensor(raw)
    forms["eagerpy_xp wrapped"] = (wrapped_stmt, {"a": wrapped, "b": ep.astensor(other),
                                                  "xp": wrapped.__array_namespace__()})
    working = {}
    for column, (stmt, scope) in forms.items():
        try:
            eval(stmt, dict(scope))
        except Exception:  # torch refuses negative steps: that form is left out
            continue
        working[column] = (stmt, scope)
    return working


def _floor_forms(backend: str) -> dict[str, tuple[str, dict[str, Any]]]:
    raw, other = _input(backend), _input(backend, 0.5, 3.0)
    return {"plain": ("a + b", {"a": raw, "b": other}),
            "bare": ("a + b", {"a": _bare(raw), "b": _bare(other)})}  # fmt: skip


def measure(backend: str, rounds: int, calls: int, ops: list[str] | None = None
            ) -> dict[str, dict[str, float]]:  # fmt: skip
    """operation -> column -> median µs per call, the floor's row included.  Each round
    times every operation in every form, in an order of its own, so a change of the
    machine's load during the run falls on all rows alike, not on the rows that happened
    to be timed then."""
    forms = {FLOOR: _floor_forms(backend)}
    for op, wrapped_stmt, function_stmt in OPERATIONS:
        if ops is None or op in ops:
            forms[op] = _forms(backend, op, wrapped_stmt, function_stmt)
    # JAX dispatches asynchronously: each batch of calls keeps its last result and waits
    # for it (outside the timing), so that no batch pays for the work of the one before
    wait = _waiter(backend)
    timers = {op: {column: (timeit.Timer(_kept(stmt) if wait else stmt, globals=scope), scope)
                   for column, (stmt, scope) in row.items()}
              for op, row in forms.items()}  # fmt: skip
    for row in timers.values():
        for timer, _ in row.values():
            timer.timeit(max(calls // 10, 10))  # warm up
    samples: dict[str, dict[str, list[float]]] = {
        op: {column: [] for column in row} for op, row in timers.items()}  # fmt: skip
    # each round in its own order: no form always follows the same one
    order = [(op, column, timer, scope) for op, row in timers.items()
             for column, (timer, scope) in row.items()]  # fmt: skip
    shuffle = random.Random(0).shuffle
    for _ in range(rounds):
        shuffle(order)
        for op, column, timer, scope in order:
            samples[op][column].append(timer.timeit(calls) / calls * 1e6)
            if wait:
                wait(scope["_result"])
    return {op: {column: statistics.median(values) for column, values in row.items()}
            for op, row in samples.items()}  # fmt: skip


def _kept(stmt: str) -> str:
    """``stmt`` keeping its value as the global ``_result``."""
    return f"global _result; _result = {stmt}"


def _waiter(backend: str) -> Any:
    """For a framework that dispatches asynchronously (JAX): a function waiting for a
    result (an array, or anything holding one in ``.raw``); else None."""
    block = REGISTRY[backend].wait
    if block is None:
        return None

    def wait(result: Any) -> None:
        block(getattr(result, "raw", result))

    return wait

def floor_of(table: dict[str, dict[str, float]]) -> float:
    """What the bare wrapper adds over the plain ``x + y`` (µs)."""
    row = table[FLOOR]
    return row["bare"] - row["plain"]


#: The indexing rows: their native form is the plain one (the framework's own indexing).
INDEXING = frozenset(op for op, _, function in OPERATIONS if function is None)


def multiples(table: dict[str, dict[str, float]], column: str, over: str = "plain"
              ) -> dict[str, float]:  # fmt: skip
    """operation -> (column - over) / floor, for the rows that have both (the native
    flavour's indexing rows left out: they are the plain form again)."""
    floor = floor_of(table)
    native = "eagerpy_xp native" in (column, over)
    return {op: (row[column] - row[over]) / floor for op, row in table.items()
            if op != FLOOR and column in row and over in row
            and not (native and op in INDEXING)}  # fmt: skip


def report(backend: str, table: dict[str, dict[str, float]]) -> str:
    """A Markdown table: µs per call, µs added over the plain call and that as a multiple
    of the floor; then the floor and the wrapped flavour's median and largest multiple."""
    floor = floor_of(table)
    lines = [f"## {backend}", "", "| operation | " + " | ".join(COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]  # fmt: skip
    for op, row in table.items():
        if op == FLOOR:
            continue
        plain = row["plain"]
        cells = [f"{row[c]:.2f}" if c == "plain" else
                 f"{row[c]:.2f} ({row[c] - plain:+.2f}, {(row[c] - plain) / floor:+.1f}f)"
                 if c in row else "—" for c in COLUMNS]  # fmt: skip
        lines.append(f"| `{op}` | " + " | ".join(cells) + " |")
    wrapped = multiples(table, "eagerpy_xp wrapped")
    over_native = multiples(table, "eagerpy_xp wrapped", "eagerpy_xp native")
    native = multiples(table, "eagerpy_xp native")
    lines += ["", f"floor (f): {floor:.3f} µs ({table[FLOOR]['bare']:.2f} µs for `Bare(x) + "
              f"Bare(y)`, {table[FLOOR]['plain']:.2f} µs for `x + y`)"]  # fmt: skip
    for name, values in (("wrapped over plain", wrapped), ("wrapped over native", over_native),
                         ("native over plain", native)):  # fmt: skip
        if values:
            worst = max(values, key=values.__getitem__)
            lines.append(f"{name}: median {statistics.median(values.values()):+.2f}f, "
                         f"largest {values[worst]:+.2f}f (`{worst}`)")  # fmt: skip
    drift = _drift(table)
    if drift is not None:
        lines.append(drift)
    return "\n".join(lines)


def _drift(table: dict[str, dict[str, float]]) -> str | None:
    """A warning where the plain ``x + y`` timed beside the floor and the plain ``x + y``
    of the table's first row differ by over 10 %: the same statement in the same rounds,
    so the machine's speed changed during the run (a shared or throttled host) and the
    medians mix two speeds; rerun it."""
    plain, row = table[FLOOR]["plain"], table.get("x + y", {}).get("plain")
    if row is None or abs(plain - row) <= 0.1 * min(plain, row):
        return None
    return (f"WARNING: the plain `x + y` took {plain:.2f} µs beside the floor and {row:.2f} µs "
            "in its row: the machine's speed changed during the run; rerun it")


def compare(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Before/after tables of two `--json` runs: µs and floor multiples of the plain,
    native and wrapped forms."""
    out = [f"load average: before {before.get('load')}, after {after.get('load')}", ""]
    for backend, table in after["backends"].items():
        old = before["backends"].get(backend)
        if old is None:
            continue
        f0, f1 = floor_of(old), floor_of(table)
        out += [f"## {backend} (floor {f0:.3f} → {f1:.3f} µs)", "",
                "| operation | plain | native before → after | wrapped before → after |",
                "|---|---:|---:|---:|"]  # fmt: skip
        for op, row in table.items():
            if op == FLOOR or op not in old:
                continue
            cells = []
            for column in ("eagerpy_xp native", "eagerpy_xp wrapped"):
                a, b = old[op].get(column), row.get(column)
                if a is None or b is None:
                    cells.append("—")
                    continue
                cells.append(f"{a:.2f} ({(a - old[op]['plain']) / f0:+.1f}f) → "
                             f"{b:.2f} ({(b - row['plain']) / f1:+.1f}f)")
            out.append(f"| `{op}` | {row['plain']:.2f} | " + " | ".join(cells) + " |")
        for label, table_ in (("before", old), ("after", table)):
            out.append(f"\n{label}:")
            for name, column, over in (("wrapped over plain", "eagerpy_xp wrapped", "plain"),
                                       ("wrapped over native", "eagerpy_xp wrapped",
                                        "eagerpy_xp native"),
                                       ("native over plain", "eagerpy_xp native", "plain")):  # fmt: skip
                values = multiples(table_, column, over)
                worst = max(values, key=values.__getitem__)
                out.append(f"{name}: median {statistics.median(values.values()):+.2f}f, "
                           f"largest {values[worst]:+.2f}f (`{worst}`)")  # fmt: skip
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--backends", nargs="*",
                        default=[name for name, d in REGISTRY.items() if not d.lazy])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--ops", nargs="*", default=None,
                        help="the operations to time (as in the first column), default all; "
                             "one starting with '-' with a space before it: ' -x'")
    parser.add_argument("--json", default=None, help="also save the medians to this file")
    parser.add_argument("--compare", nargs=2, default=None, metavar=("BEFORE", "AFTER"),
                        help="print before/after tables of two --json files, and exit")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(open(p).read()) for p in args.compare)
        print(compare(before, after))
        return
    saved: dict[str, Any] = {"load": os.getloadavg(), "backends": {}}
    print(f"load average at the start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}\n")
    for backend in args.backends:
        try:
            importlib.import_module(REGISTRY[backend].framework)
        except ImportError:
            print(f"## {backend}\n\nnot installed\n")
            continue
        fast = REGISTRY[backend].benchmark_fast
        calls = args.calls if fast else max(args.calls // 10, 20)
        table = measure(backend, args.rounds, calls,
                        None if args.ops is None else [op.strip() for op in args.ops])
        saved["backends"][backend] = table
        print(report(backend, table), "\n", flush=True)
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    saved["load_end"] = os.getloadavg()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(saved, f, indent=1)


if __name__ == "__main__":
    main()
