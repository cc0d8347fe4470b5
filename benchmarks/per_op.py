"""Per-operation overhead: one operator, function or reduction at a time.

Each operation runs on float32[16] arrays (``x``, and ``y`` a second one) in five forms:
the plain framework call, the array-api-compat namespace, EagerPy, the eagerpy_xp native
flavour and the eagerpy_xp wrapped flavour (an `Array`).  All forms of all operations
are timed interleaved in one process (round after round, each operation in each form in
turn) and the medians over rounds are reported, in µs per call and in µs added over the
plain framework call.  For operators, the array-api-compat and native columns call the
namespace function the operator stands for (their arrays are the framework's own, whose
operators are the plain column).  MLX is lazy: every form only builds the graph node (none
evaluates), so its rows are the cost of a call, not of the computation; array-api-compat
hands MLX's arrays to ``mlx.core`` itself, and EagerPy has no MLX.

    python -m benchmarks.per_op [--backends numpy torch] [--rounds 200] [--calls 300]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import timeit
from typing import Any

#: (operation, wrapped/EagerPy statement, namespace-function statement).  ``a`` and ``b``
#: are the two arrays (or tensors) of the form, ``xp`` its namespace.
OPERATIONS: tuple[tuple[str, str, str], ...] = (
    ("x + y", "a + b", "xp.add(a, b)"),
    ("x * y", "a * b", "xp.multiply(a, b)"),
    ("x * 2.0", "a * 2.0", "xp.multiply(a, 2.0)"),
    ("-x", "-a", "xp.negative(a)"),
    ("x < y", "a < b", "xp.less(a, b)"),
    ("xp.exp(x)", "xp.exp(a)", "xp.exp(a)"),
    ("xp.add(x, y)", "xp.add(a, b)", "xp.add(a, b)"),
    ("xp.sum(x, axis=0)", "xp.sum(a, axis=0)", "xp.sum(a, axis=0)"),
    ("xp.mean(x, axis=0)", "xp.mean(a, axis=0)", "xp.mean(a, axis=0)"),
)

#: The plain framework spelling of each operation (``fw`` is the framework module).
PLAIN: dict[str, dict[str, str]] = {
    "numpy": {"xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
              "xp.sum(x, axis=0)": "fw.sum(a, axis=0)", "xp.mean(x, axis=0)": "fw.mean(a, axis=0)"},
    "torch": {"xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
              "xp.sum(x, axis=0)": "fw.sum(a, dim=0)", "xp.mean(x, axis=0)": "fw.mean(a, dim=0)"},
    "jax": {"xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
            "xp.sum(x, axis=0)": "fw.sum(a, axis=0)", "xp.mean(x, axis=0)": "fw.mean(a, axis=0)"},
    "tensorflow": {"xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
                   "xp.sum(x, axis=0)": "fw.reduce_sum(a, axis=0)",
                   "xp.mean(x, axis=0)": "fw.reduce_mean(a, axis=0)"},
    "mlx": {"xp.exp(x)": "fw.exp(a)", "xp.add(x, y)": "fw.add(a, b)",
            "xp.sum(x, axis=0)": "fw.sum(a, axis=0)", "xp.mean(x, axis=0)": "fw.mean(a, axis=0)"},
}  # fmt: skip

#: EagerPy's spelling where it differs from the wrapped one (it has no ``add`` function).
EAGERPY: dict[str, str] = {
    "xp.exp(x)": "a.exp()",
    "xp.add(x, y)": "a + b",
    "xp.sum(x, axis=0)": "a.sum(axis=0)",
    "xp.mean(x, axis=0)": "a.mean(axis=0)",
}

FRAMEWORK_MODULE = {"numpy": "numpy", "torch": "torch", "jax": "jax.numpy",
                    "tensorflow": "tensorflow", "mlx": "mlx.core"}  # fmt: skip
COLUMNS = ("plain", "array-api-compat", "EagerPy", "eagerpy_xp native", "eagerpy_xp wrapped")


def _input(backend: str, start: float = -2.0, stop: float = 2.0) -> Any:
    import numpy as np

    data = np.linspace(start, stop, 16, dtype=np.float32)
    if backend == "numpy":
        return data
    fw = importlib.import_module(FRAMEWORK_MODULE[backend])
    if backend == "tensorflow":
        return fw.constant(data)
    return fw.asarray(data)


def _forms(backend: str, op: str, wrapped_stmt: str, function_stmt: str
           ) -> dict[str, tuple[str, dict[str, Any]]]:  # fmt: skip
    """column -> (statement, globals); libraries that are not installed are left out."""
    import eagerpy_xp as ep

    raw, other = _input(backend), _input(backend, 0.5, 3.0)
    fw = importlib.import_module(FRAMEWORK_MODULE[backend])
    is_operator = not op.startswith("xp.")
    forms: dict[str, tuple[str, dict[str, Any]]] = {
        "plain": (wrapped_stmt if is_operator else PLAIN[backend][op],
                  {"a": raw, "b": other, "fw": fw}),
    }  # fmt: skip
    if backend != "tensorflow":
        try:
            import array_api_compat

            forms["array-api-compat"] = (function_stmt, {
                "a": raw, "b": other, "xp": array_api_compat.array_namespace(raw)})  # fmt: skip
        except ImportError:
            pass
    try:
        import eagerpy

        forms["EagerPy"] = (EAGERPY.get(op, wrapped_stmt), {"a": eagerpy.astensor(raw),
                                                            "b": eagerpy.astensor(other)})
    except (ImportError, ValueError):  # not installed, or a framework it lacks (MLX)
        pass
    forms["eagerpy_xp native"] = (function_stmt, {"a": raw, "b": other, "xp": ep.namespace(raw)})
    wrapped = ep.astensor(raw)
    forms["eagerpy_xp wrapped"] = (wrapped_stmt, {"a": wrapped, "b": ep.astensor(other),
                                                  "xp": wrapped.__array_namespace__()})
    return forms


def measure(backend: str, rounds: int, calls: int) -> dict[str, dict[str, float]]:
    """operation -> column -> median µs per call.  Each round times every operation in
    every form, so a change of the machine's load during the run falls on all rows
    alike, not on the rows that happened to be timed then."""
    timers = {op: {column: timeit.Timer(stmt, globals=scope)
                   for column, (stmt, scope) in _forms(backend, op, wrapped_stmt,
                                                       function_stmt).items()}
              for op, wrapped_stmt, function_stmt in OPERATIONS}  # fmt: skip
    for row in timers.values():
        for timer in row.values():
            timer.timeit(max(calls // 10, 10))  # warm up
    samples: dict[str, dict[str, list[float]]] = {
        op: {column: [] for column in row} for op, row in timers.items()}  # fmt: skip
    for _ in range(rounds):
        for op, row in timers.items():
            for column, timer in row.items():
                samples[op][column].append(timer.timeit(calls) / calls * 1e6)
    return {op: {column: statistics.median(values) for column, values in row.items()}
            for op, row in samples.items()}  # fmt: skip


def report(backend: str, table: dict[str, dict[str, float]]) -> str:
    """A Markdown table: µs per call, and µs added over the plain call in parentheses."""
    lines = [f"## {backend}", "", "| operation | " + " | ".join(COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]  # fmt: skip
    for op, row in table.items():
        plain = row["plain"]
        cells = [f"{row[c]:.2f}" if c == "plain" else
                 f"{row[c]:.2f} ({row[c] - plain:+.2f})" if c in row else "—"
                 for c in COLUMNS]  # fmt: skip
        lines.append(f"| `{op}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--backends", nargs="*",
                        default=["numpy", "torch", "jax", "tensorflow", "mlx"])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    for backend in args.backends:
        try:
            importlib.import_module(FRAMEWORK_MODULE[backend])
        except ImportError:
            print(f"## {backend}\n\nnot installed\n")
            continue
        calls = args.calls if backend in ("numpy", "torch") else max(args.calls // 10, 20)
        print(report(backend, measure(backend, args.rounds, calls)), "\n", flush=True)


if __name__ == "__main__":
    main()
