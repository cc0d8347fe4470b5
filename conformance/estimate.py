"""How long a run takes on the machine it runs on: a calibration, stored costs, a schedule.

A run's processes cost CPU time that depends on the machine, so costs are stored in
units of a calibration: the CPU time of a fixed piece of Python work (`calibrate`) on the
machine that measured them.  ``conformance/costs.json`` holds, for each target (matrix
column) and test module, the CPU seconds a run measured divided by that run's
calibration, and each process's start-up (imports, collection) the same way, keyed by
``--max-examples`` and by whether JAX's compilation cache was warm; a run with
``--save-costs`` (or ``--docs``) updates the entries it measured.

At the start of a run the calibration is timed again (a fraction of a second), and the
expected time is the stored units times that calibration, the processes laid out
longest first on ``--jobs`` lanes, each lane slowed by what else the machine is running
(`slowdown`: the load, `machine_load`, and a measurement of the calibration work run in
as many processes at once, `contention`).  The end of the run prints the
estimate beside the actual time, and the report keeps both.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COSTS_PATH = Path(__file__).resolve().with_name("costs.json")
FORMAT = "eagerpy_xp-conformance-costs/1"
_SUITE = Path(__file__).resolve().parent


# -- calibration ----------------------------------------------------------------------------
def _work(n: int) -> int:
    """Interpreter work of the kind the suite does: calls, dicts, lists, strings."""
    total = 0
    table: dict[str, int] = {}
    for i in range(n):
        key = f"k{i % 97}"
        table[key] = table.get(key, 0) + i
        items = [i, i + 1, i + 2]
        total += sum(items) + len(key)
    return total + len(table)


def calibrate(repeats: int = 9, n: int = 120_000) -> float:
    """CPU seconds of `_work` (the least of ``repeats`` timings: the others were slowed by
    something else).  About 30 ms each on a 2024 x86-64 core."""
    best = math.inf
    for _ in range(repeats):
        start = time.process_time()
        _work(n)
        best = min(best, time.process_time() - start)
    return max(best, 1e-6)


def machine_load() -> float:
    """What else the machine is running: the 1-minute load average (runnable processes;
    0 where the system has none)."""
    try:
        return float(os.getloadavg()[0])
    except (AttributeError, OSError):
        return 0.0


#: A process running `_work` for about half a second: its wall and CPU seconds per round.
_PROBE = """
import time
from conformance.estimate import _work
_work({n})
wall, cpu, rounds = time.perf_counter(), time.process_time(), 0
while time.perf_counter() - wall < {seconds}:
    _work({n})
    rounds += 1
print((time.perf_counter() - wall) / rounds, (time.process_time() - cpu) / rounds)
"""


def contention(workers: int, calibration_s: float, seconds: float = 0.5,
               n: int = 120_000) -> float | None:  # fmt: skip
    """How much longer than its CPU time on a free core the calibration work takes when
    ``workers`` processes run it at once, now: 1 on an idle machine with a core for
    each; more where they share cores (other processes, or hyper-threads of one core,
    which a load average does not show).  None where the processes cannot be started."""
    code = _PROBE.format(n=n, seconds=seconds)
    root = str(_SUITE.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    try:
        probes = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                   text=True, env=env, cwd=root) for _ in range(max(1, workers))]
        walls = [float(p.communicate(timeout=60)[0].split()[0]) for p in probes]
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None
    return max(1.0, sum(walls) / len(walls) / calibration_s)


# -- which modules scale with --max-examples ------------------------------------------------
def scaling(module: str, examples: int, measured_at: int) -> float:
    """How a module's cost measured at ``measured_at`` examples scales to ``examples``:
    modules whose tests draw hypothesis examples (``@given``) scale linearly, the error
    fuzzer with ``max(100, examples)`` calls, the others not at all."""
    if examples == measured_at:
        return 1.0
    if module == "test_errors":
        return max(100, examples) / max(100, measured_at)
    path = _SUITE / f"{module}.py"
    try:
        draws = "@given(" in path.read_text(encoding="utf-8")
    except OSError:
        draws = False
    return examples / measured_at if draws else 1.0


# -- stored costs ---------------------------------------------------------------------------
Leaf = dict[str, float]  # {"cold": units, "warm": units}


@dataclass
class Costs:
    """The stored costs (see the module docstring): ``data["examples"][E]`` has
    ``targets`` (target id -> module -> leaf) and ``startup`` (process name -> leaf)."""

    data: dict[str, Any] = field(default_factory=lambda: {"format": FORMAT, "examples": {}})

    @classmethod
    def load(cls, path: Path = COSTS_PATH) -> Costs:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if data.get("format") != FORMAT:
            return cls()
        return cls(data)

    def save(self, path: Path = COSTS_PATH) -> None:
        path.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    def _levels(self, examples: int) -> list[tuple[int, dict[str, Any]]]:
        """The stored example counts, the requested one first, then the nearest."""
        stored = [(int(k), v) for k, v in self.data.get("examples", {}).items()]
        return sorted(stored, key=lambda kv: (kv[0] != examples, abs(math.log(kv[0] / examples))))

    @staticmethod
    def _pick(leaf: Leaf | None, warm: bool) -> float | None:
        if not leaf:
            return None
        first, second = ("warm", "cold") if warm else ("cold", "warm")
        return leaf.get(first, leaf.get(second))

    def target_units(self, target: str, modules: Iterable[str], examples: int,
                     warm: bool) -> tuple[float, list[str]]:  # fmt: skip
        """Units of one target over ``modules`` (scaled from the nearest stored example
        count), and the modules with no stored cost."""
        total, unknown = 0.0, []
        for module in modules:
            for level, entry in self._levels(examples):
                units = self._pick(entry.get("targets", {}).get(target, {}).get(module), warm)
                if units is not None:
                    total += units * scaling(module, examples, level)
                    break
            else:
                unknown.append(module)
        return total, unknown

    def mean_target_units(self, modules: Iterable[str], examples: int, warm: bool) -> float:
        """The mean units of the stored targets over ``modules`` (for a target never run)."""
        chosen = list(modules)
        targets = {t for _, e in self._levels(examples) for t in e.get("targets", {})}
        values = [self.target_units(t, chosen, examples, warm)[0] for t in targets
                  if t != "suite"]  # fmt: skip
        return sum(values) / len(values) if values else 0.0

    def startup_units(self, process: str, examples: int, warm: bool) -> float:
        for _, entry in self._levels(examples):
            units = self._pick(entry.get("startup", {}).get(process), warm)
            if units is not None:
                return units
        values = [u for _, e in self._levels(examples) for leaf in e.get("startup", {}).values()
                  if (u := self._pick(leaf, warm)) is not None]  # fmt: skip
        return sum(values) / len(values) if values else 0.0

    def modules_of(self, target: str, examples: int) -> set[str]:
        return {m for _, e in self._levels(examples)
                for m in e.get("targets", {}).get(target, {})}  # fmt: skip

    def record(self, examples: int, warm: bool, calibration_s: float,
               targets: dict[str, dict[str, float]], startup: dict[str, float],
               machine: str) -> None:  # fmt: skip
        """Store measured CPU seconds (target -> module -> s; process -> s) in units."""
        state = "warm" if warm else "cold"
        entry = self.data.setdefault("examples", {}).setdefault(str(examples), {})
        for target, modules in targets.items():
            stored = entry.setdefault("targets", {}).setdefault(target, {})
            for module, seconds in modules.items():
                stored.setdefault(module, {})[state] = round(seconds / calibration_s, 1)
        for process, seconds in startup.items():
            entry.setdefault("startup", {}).setdefault(process, {})[state] = round(
                seconds / calibration_s, 1)
        self.data["measured_on"] = {"machine": machine, "calibration_s": round(calibration_s, 5),
                                    "date": time.strftime("%Y-%m-%d", time.gmtime())}  # fmt: skip


# -- the schedule ---------------------------------------------------------------------------
def makespan(loads: list[float], lanes: int) -> float:
    """Wall time of ``loads`` (seconds each) run longest first on ``lanes`` at a time."""
    ends = [0.0] * max(1, lanes)
    for load in sorted(loads, reverse=True):
        ends[ends.index(min(ends))] += load
    return max(ends)


def speed(workers: int, cores: int, load: float) -> float:
    """The share of a core each of ``workers`` CPU-bound processes gets beside ``load``
    other runnable processes on ``cores`` cores (1: a core each)."""
    return min(1.0, cores / max(1e-9, workers + load))


def slowdown(workers: int, cores: int, load: float, measured: float | None) -> float:
    """Wall seconds per CPU second of each of ``workers`` processes: the mean of what the
    load says (`speed`) and what `contention` measured, where it could (the load average
    tells the last minute, the measurement the last half second; neither the future)."""
    from_load = 1 / speed(workers, cores, load)
    return from_load if measured is None else (from_load + measured) / 2


@dataclass
class Estimate:
    """A run's expected wall time and how it was reached."""

    seconds: float
    calibration_s: float
    cores: int
    load: float
    workers: int
    warm: bool
    slowdown: float
    measured: float | None
    jobs: dict[str, float]  # process -> expected CPU seconds
    unknown: list[str]  # what no stored cost covers (counted as nothing)

    def describe(self) -> str:
        if not self.seconds:
            return ("no estimate: nothing stored for these processes yet (a run with "
                    "--save-costs stores their costs)")
        unknown = (f"; not measured yet: {', '.join(self.unknown[:6])}"
                   + (" ..." if len(self.unknown) > 6 else "") if self.unknown else "")
        return (f"expected about {self.seconds / 60:.0f} min ({self.seconds:.0f} s): "
                f"{sum(self.jobs.values()):.0f} CPU s in {len(self.jobs)} processes, "
                f"{self.workers} at a time on {self.cores} cores at load {self.load:.1f} "
                f"(each {self.slowdown:.2f} s per CPU s), calibration "
                f"{self.calibration_s * 1000:.1f} ms"
                f"{', JAX cache warm' if self.warm else ''}{unknown}")  # fmt: skip

    def record(self) -> dict[str, Any]:
        return {"expected_s": round(self.seconds, 1), "calibration_s": self.calibration_s,
                "cores": self.cores, "load": self.load, "workers": self.workers,
                "slowdown": round(self.slowdown, 3),
                "measured": None if self.measured is None else round(self.measured, 3),
                "warm": self.warm, "jobs": {k: round(v, 1) for k, v in self.jobs.items()},
                "unknown": self.unknown}  # fmt: skip


def estimate(jobs: dict[str, float], unknown: list[str], calibration_s: float, workers: int,
             cores: int, load: float, warm: bool,
             measured: float | None = None) -> Estimate:  # fmt: skip
    """The wall time of processes of ``jobs`` units each, ``workers`` at a time
    (``measured``: `contention` of that many processes now, if known)."""
    cpu = {name: units * calibration_s for name, units in jobs.items()}
    running = min(workers, len(cpu)) or 1
    factor = slowdown(running, cores, load, measured)
    seconds = makespan([c * factor for c in cpu.values()], running)
    return Estimate(seconds, calibration_s, cores, load, running, warm, factor, measured, cpu,
                    unknown)


def error(expected: float, actual: float) -> float:
    """The estimate's error relative to the truth (+0.2: 20 % too long)."""
    return (expected - actual) / actual if actual > 0 else 0.0
