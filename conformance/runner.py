"""Runs the suite as pytest processes, shows progress, saves as it goes.

One process per backend (both flavours, all its devices: JAX compiles each kernel once
for the two flavours) and one per other namespace (``--namespace``, ``--peers``);
``--jobs`` processes run at a time, the costliest first (`conformance.estimate`).  A
process whose expected cost is more than a lane's share of the run is split by test
module into shards that run side by side, so that no process is the run's long pole
while a core waits.

Each process records its outcomes (`recorder.py`) to ``<report-dir>/logs/<job>.jsonl``;
this side reads them while they grow, names every failure at once, draws a bar per job on
a terminal (a line per finished job and a heartbeat at least every 30 s elsewhere), and
rewrites the reports after every finished job and every heartbeat, marked partial until
the last job is done.  Ctrl-C or SIGTERM stops the processes and leaves a partial report
that says what did not run; a run killed outright leaves the last one written, which says
it is partial.

The processes are the suite's own, so their environment is set here: JAX with 64-bit
types, JAX's persistent compilation cache in ``<report-dir>/cache/jax`` (every kernel,
however small: a second run compiles nothing), no pytest plugins but the suite's and
hypothesis' (loading every installed plugin costs each process a second).
"""

from __future__ import annotations

import json
import math
import os
import platform
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from eagerpy_xp._detect import REGISTRY

from .estimate import Costs
from .harness import (
    BACKENDS,
    DEFAULT_BACKENDS,
    FLAVOURS,
    NO_KERNEL_CACHE,
    _wanted,
    cache_environment,
    group_of,
)
from .report import target_id

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "conformance"
HEARTBEAT_S = 20.0  # a log line at least this often (the promise is 30 s)
SAVE_S = 20.0  # the partial report is rewritten at least this often


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _clock(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def suite_modules() -> list[str]:
    """The suite's test modules (a new ``test_*.py`` is a new part of every process)."""
    return sorted(p.stem for p in SUITE.glob("test_*.py"))


def module_of(nodeid: str) -> str:
    """``conformance/test_edges.py::test_x[...]`` -> ``test_edges``."""
    return Path(nodeid.split("::", 1)[0]).stem


@dataclass
class Job:
    """One pytest process: one backend (its flavours and devices) or another namespace,
    with all test modules or a shard of them."""

    name: str  # "numpy", "jax:2" (a shard), "array_api_strict"
    group: str  # the backend or namespace: what its start-up cost is stored under
    events: Path
    log: Path
    backend: str = ""  # eagerpy_xp backend ("" for another namespace)
    flavours: tuple[str, ...] = ()
    namespace: str = ""  # another namespace's module path
    modules: tuple[str, ...] = ()  # test modules of a shard (empty: every module)
    targets: tuple[str, ...] = ()  # the target ids it is expected to report
    suite_checks: bool = False
    units: float = 0.0  # expected cost, calibration units
    status: str = "pending"  # pending, running, done, crashed, stopped
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    ended: float = 0.0
    total: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    cells: dict[str, dict[str, float]] = field(default_factory=dict)  # id -> counts, seconds
    module_cpu: dict[str, dict[str, float]] = field(default_factory=dict)  # id -> module -> s
    exitstatus: int | None = None
    cpu_s: float | None = None  # CPU seconds of the process (all its threads)
    _offset: int = 0

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    @property
    def startup_cpu_s(self) -> float | None:
        """CPU seconds outside the tests: imports, collection, fixtures, the recorder."""
        if self.cpu_s is None:
            return None
        tests = sum(c for m in self.module_cpu.values() for c in m.values())
        return max(0.0, self.cpu_s - tests)

    def elapsed(self, now: float) -> float:
        return (self.ended or now) - self.started if self.started else 0.0

    def eta(self, now: float) -> float | None:
        if not self.total or self.done < min(10, self.total):
            return None  # too early to tell
        return self.elapsed(now) / self.done * (self.total - self.done)

    def record(self) -> dict[str, Any]:
        return {"name": self.name, "group": self.group, "backend": self.backend,
                "flavours": list(self.flavours), "namespace": self.namespace,
                "modules": list(self.modules), "targets": list(self.targets),
                "status": self.status, "total": self.total, "done": self.done,
                "seconds": round(self.elapsed(time.monotonic()), 1),
                "cpu_s": self.cpu_s, "startup_cpu_s": _round(self.startup_cpu_s),
                "cells": {t: {k: round(v, 2) for k, v in c.items()}
                          for t, c in self.cells.items()},
                "exitstatus": self.exitstatus, "log": str(self.log)}  # fmt: skip

    def read_new(self) -> list[dict[str, Any]]:
        """Complete lines appended to the events file since the last read."""
        if not self.events.exists():
            return []
        with open(self.events, "rb") as f:
            f.seek(self._offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self._offset += end
        return [json.loads(line) for line in data[:end].splitlines() if line.strip()]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _device_label(options: dict[str, Any]) -> str:
    """The device part of the target ids a process is expected to report."""
    device = options.get("device") or "cpu"
    first = device.split(",")[0].strip()
    return first if ":" in first or first == "cpu" else f"{first}:0"


def _groups(options: dict[str, Any], work: Path) -> list[Job]:
    """One job per selected backend and per other namespace, every module."""
    device = _device_label(options)
    jobs = []
    if options.get("ours", True):
        flavours = tuple(_wanted(options.get("flavour"), FLAVOURS))
        for b in _wanted(options.get("backend"), BACKENDS, DEFAULT_BACKENDS):
            jobs.append(Job(b, b, work / f"{b}.jsonl", work / f"{b}.log", backend=b,
                            flavours=flavours,
                            targets=tuple(f"{b}-{f}-{device}" for f in flavours)))  # fmt: skip
    for ns in options.get("namespaces") or []:
        jobs.append(Job(ns, ns, work / f"{ns}.jsonl", work / f"{ns}.log", namespace=ns,
                        targets=(f"{ns}-{device}",)))  # fmt: skip
    return jobs


def plan(options: dict[str, Any], work: Path, costs: Costs | None = None,
         workers: int = 1, warm: bool = False) -> list[Job]:  # fmt: skip
    """The processes of a run, costliest first; one whose cost is more than a lane's share
    (the total over ``workers``) is split by test module into shards (not with ``-k``,
    whose subset the stored costs do not describe).  The first process
    also runs the suite's checks of itself (the tests without a target)."""
    costs = costs or Costs()
    examples = int(options.get("max_examples") or 12)
    modules = suite_modules()
    jobs = _groups(options, work)
    per_module: dict[str, dict[str, float]] = {}
    for job in jobs:
        per_module[job.name] = {m: _units(costs, job, [m], examples, warm) for m in modules}
        job.units = costs.startup_units(job.group, examples, warm) + sum(
            per_module[job.name].values())  # fmt: skip
    total = sum(j.units for j in jobs)
    # costs are of whole modules: a -k subset is not split by them
    lane = 0.0 if options.get("keyword") else total / max(1, workers)
    split: list[Job] = []
    for job in jobs:
        pieces = min(workers, math.ceil(job.units / lane)) if workers > 1 and lane > 0 else 1
        split += _shards(job, per_module[job.name], pieces, costs, examples, warm)
    split.sort(key=lambda j: -j.units)
    if split:
        split[0].suite_checks = True
    return split


def _units(costs: Costs, job: Job, modules: list[str], examples: int, warm: bool) -> float:
    total = 0.0
    for target in job.targets:
        if costs.modules_of(target, examples):
            total += costs.target_units(target, modules, examples, warm)[0]
        else:  # a target never measured: like the mean of those measured
            total += costs.mean_target_units(modules, examples, warm)
    return total


def _shards(job: Job, module_units: dict[str, float], pieces: int, costs: Costs,
            examples: int, warm: bool) -> list[Job]:  # fmt: skip
    """``job`` split into ``pieces`` processes of about equal cost (by module)."""
    pieces = min(pieces, len([m for m, u in module_units.items() if u > 0]))
    if pieces <= 1:
        return [job]
    bins: list[list[str]] = [[] for _ in range(pieces)]
    loads = [0.0] * pieces
    for module, units in sorted(module_units.items(), key=lambda mu: -mu[1]):
        i = loads.index(min(loads))
        bins[i].append(module)
        loads[i] += units
    startup = costs.startup_units(job.group, examples, warm)
    shards = []
    for i, (chosen, load) in enumerate(zip(bins, loads), 1):
        name = f"{job.name}:{i}"
        stem = name.replace(":", "_")
        shards.append(Job(name, job.group, job.events.with_name(f"{stem}.jsonl"),
                          job.log.with_name(f"{stem}.log"), job.backend, job.flavours,
                          job.namespace, tuple(sorted(chosen)), job.targets,
                          units=startup + load))  # fmt: skip
    return shards


def subprocess_env(report_dir: Path, cache: bool) -> dict[str, str]:
    """The environment of the suite's processes (see the module docstring)."""
    env = dict(os.environ)
    for descriptor in REGISTRY.values():
        env.update(descriptor.suite_environment)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    variables = cache_environment(str(compilation_cache(report_dir, "")))
    if cache:
        env.update(variables)
    else:  # no cache: nor the one of a pytest run that started this one
        for key in variables:
            env.pop(key, None)
        env[NO_KERNEL_CACHE] = "1"
    return env


def compilation_cache(report_dir: Path, backend: str) -> Path:
    """Where a backend's compiler keeps its kernels between runs of the suite."""
    return report_dir / "cache" / backend


def cache_warm(report_dir: Path) -> bool:
    """Whether a compilation cache (JAX's) holds kernels of an earlier run."""
    paths = [compilation_cache(report_dir, name) for name, d in REGISTRY.items() if d.suite_cache]
    return any(path.is_dir() and any(path.iterdir()) for path in paths)


def command(job: Job, options: dict[str, Any]) -> list[str]:
    paths = [str(SUITE / f"{m}.py") for m in job.modules] or [str(SUITE)]
    cmd = [sys.executable, "-m", "pytest", *paths, "-p", "conformance.plugin",
           "-p", "_hypothesis_pytestplugin", "-p", "no:cacheprovider", "-o", "addopts=",
           "-q", "--tb=short", "--max-examples", str(options["max_examples"]),
           "--record", str(job.events)]  # fmt: skip
    if job.namespace:
        cmd += ["--backend", "none", "--namespace", job.namespace]
    else:
        cmd += ["--backend", job.backend, "--flavour", ",".join(job.flavours)]
    if options.get("device"):
        cmd += ["--device", options["device"]]
    if options.get("keyword"):
        cmd += ["-k", options["keyword"]]
    if options.get("tier"):
        cmd += ["--tier", options["tier"]]
    if options.get("seed") is not None:
        cmd.append(f"--hypothesis-seed={options['seed']}")
    if not job.suite_checks:
        cmd.append("--no-suite-checks")
    return cmd


def machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "processor": platform.processor(),
            "cpu_count": os.cpu_count(), "python": platform.python_version()}  # fmt: skip


class Stopped(Exception):
    """SIGTERM or Ctrl-C: stop the processes and write a partial report."""


class Progress:
    """What the user sees: bars on a terminal, lines and heartbeats in a log."""

    def __init__(self, stream: TextIO, live: bool, quiet: bool = False) -> None:
        self.stream = stream
        self.live = live
        self.quiet = quiet
        self._drawn = 0
        self._last_line = time.monotonic()

    def message(self, text: str) -> None:
        """A line that stays (a failure, a finished job), printed above the bars."""
        if self.quiet:
            return
        self._clear()
        self.stream.write(text + "\n")
        self.stream.flush()
        self._last_line = time.monotonic()

    def _clear(self) -> None:
        if self.live and self._drawn:
            self.stream.write(f"\x1b[{self._drawn}F\x1b[J")
            self._drawn = 0

    def draw(self, jobs: list[Job], summary: str) -> None:
        if not self.live or self.quiet:
            return
        now = time.monotonic()
        self._clear()
        lines = [_bar(job, now) for job in jobs if job.status != "pending"]
        pending = [j.name for j in jobs if j.status == "pending"]
        if pending:
            lines.append(f"waiting: {', '.join(pending)}")
        lines.append(summary)
        self.stream.write("\n".join(lines) + "\n")
        self.stream.flush()
        self._drawn = len(lines)

    def heartbeat(self, jobs: list[Job], summary: str) -> None:
        """In a log: a line at least every HEARTBEAT_S seconds, naming what runs."""
        if self.live or self.quiet or time.monotonic() - self._last_line < HEARTBEAT_S:
            return
        now = time.monotonic()
        running = [f"{j.name} {j.done}/{j.total or '?'}" +
                   (f" eta {_clock(eta)}" if (eta := j.eta(now)) is not None else "")
                   for j in jobs if j.status == "running"]  # fmt: skip
        self.message(f"... {summary}; running: {', '.join(running) or 'none'}")


def _bar(job: Job, now: float, width: int = 28) -> str:
    total = job.total or 0
    fraction = job.done / total if total else 0.0
    filled = int(width * fraction)
    eta = job.eta(now)
    tail = {"done": "done", "crashed": "CRASHED", "stopped": "stopped"}.get(job.status)
    tail = tail or (f"eta {_clock(eta)}" if eta is not None else "starting")
    failed = job.counts.get("failed", 0)
    return (f"{job.name:<22} [{'#' * filled}{'.' * (width - filled)}] "
            f"{job.done:>5}/{total or '?':<5} failed {failed:<3} {_clock(job.elapsed(now))} "
            f"{tail}")  # fmt: skip


class Run:
    """One ``python -m conformance`` run: its jobs, its results, its report files."""

    def __init__(self, options: dict[str, Any], report_dir: Path, workers: int,
                 progress: Progress, save: Callable[[dict[str, Any]], None],
                 jobs: list[Job] | None = None) -> None:  # fmt: skip
        self.options = options
        self.report_dir = report_dir
        self.work = report_dir / "logs"
        self.workers = workers
        self.progress = progress
        self.save = save
        self.jobs = jobs if jobs is not None else plan(options, self.work)
        self.estimate: dict[str, Any] | None = None
        self.results: list[dict[str, Any]] = []
        self.targets: dict[str, dict[str, Any]] = {}
        self.versions: dict[str, str] = {}
        self.collect_errors: list[dict[str, Any]] = []
        self.run_id = uuid.uuid4().hex[:12]
        self.started_wall = time.time()
        self.started = time.monotonic()
        self.status = "partial"
        self.partial_reason: str | None = "run in progress (if no run is going on, it was killed)"
        self._last_save = 0.0

    # -- state ---------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {"status": self.status, "partial_reason": self.partial_reason,
                "run_id": self.run_id, "started": _iso(self.started_wall),
                "runtime_s": time.monotonic() - self.started, "options": self.options,
                "machine": machine(), "versions": self.versions,
                "jobs": [j.record() for j in self.jobs],
                "targets": self._target_list(), "results": list(self.results),
                "collect_errors": self.collect_errors, "estimate": self.estimate}  # fmt: skip

    def _target_list(self) -> list[dict[str, Any]]:
        """The targets the processes reported; an expected target no process reported
        (its job has not run, or stopped early) shows as a not-run column."""
        found = dict(self.targets)
        for job in self.jobs:
            for tid in job.targets:
                column = tid.rsplit("-", 1)[0] + "-"  # any device of that namespace
                if job.status == "done" or any(t.startswith(column) for t in found):
                    continue
                flavour = job.namespace or tid[len(job.backend) + 1:].rsplit("-", 1)[0]
                found[tid] = {"id": tid, "backend": job.backend or group_of(job.namespace),
                              "flavour": flavour, "device": tid.rsplit("-", 1)[1],
                              "namespace": job.namespace, "ours": not job.namespace,
                              "available": True, "reason": None, "device_name": "",
                              "not_run": True}  # fmt: skip
        return list(found.values())

    def summary(self) -> str:
        now = time.monotonic()
        done = sum(j.status in ("done", "crashed") for j in self.jobs)
        failed = sum(r["outcome"] == "failed" for r in self.results)
        missing = sum(r["outcome"] == "missing" for r in self.results)
        tests = sum(j.done for j in self.jobs)
        eta = self.eta(now)
        tail = f", eta {_clock(eta)}" if eta is not None else ""
        lacking = f", {missing} missing" if missing else ""
        return (f"[{_clock(now - self.started)}] {done}/{len(self.jobs)} jobs done, "
                f"{tests} tests, {failed} failed{lacking}{tail}")  # fmt: skip

    def eta(self, now: float) -> float | None:
        """Remaining seconds: running jobs at their own pace, pending ones like the mean."""
        timed = [j for j in self.jobs if j.status in ("running", "done") and j.total]
        if not timed or not any(j.done for j in timed):
            return None
        per_job = [j.elapsed(now) + (j.eta(now) or 0.0) for j in timed if j.done]
        mean = sum(per_job) / len(per_job)
        running = sum(j.eta(now) or mean for j in self.jobs if j.status == "running")
        pending = sum(mean for j in self.jobs if j.status == "pending")
        return (running + pending) / max(1, min(self.workers, len(self.jobs)))

    # -- events --------------------------------------------------------------------------
    def _take(self, job: Job, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "collected":
            job.total = event["total"]
            for t in event["targets"]:
                self.targets[t["id"]] = t
            self.versions.update(event["versions"])
        elif kind == "result":
            self.results.append({k: v for k, v in event.items() if k != "event"})
            job.counts[event["outcome"]] = job.counts.get(event["outcome"], 0) + 1
            tid = target_id(event)
            if tid != "-":
                cell = job.cells.setdefault(tid, {})
                cell[event["outcome"]] = cell.get(event["outcome"], 0) + 1
                cell["seconds"] = cell.get("seconds", 0.0) + event.get("seconds", 0.0)
                cell["cpu_s"] = cell.get("cpu_s", 0.0) + event.get("cpu_s", 0.0)
            modules = job.module_cpu.setdefault("suite" if tid == "-" else tid, {})
            module = module_of(event["nodeid"])
            modules[module] = modules.get(module, 0.0) + event.get("cpu_s", 0.0)
            if event["outcome"] == "missing":
                self.progress.message(f"MISSING {event['nodeid']} [{tid}]: {event['message']}")
            elif event["outcome"] == "failed":
                call = f"\n    call: {event['call']}" if event.get("call") else ""
                where = (f"{event['backend']}/{event['flavour']}/{event['device']}"
                         if event["backend"] != "-" else "suite")  # fmt: skip
                self.progress.message(f"FAILED {event['nodeid']} [{where}]: "
                                      f"{event['message'][:400]}{call}")  # fmt: skip
        elif kind == "collect_error":
            self.collect_errors.append(event)
            self.progress.message(f"ERROR collecting {event['nodeid']}: {event['message']}")
        elif kind == "finished":
            job.exitstatus = event["exitstatus"]
            job.cpu_s = event.get("cpu_s")

    def _poll(self, job: Job) -> None:
        for event in job.read_new():
            self._take(job, event)
        if job.process is None or job.process.poll() is None:
            return
        for event in job.read_new():
            self._take(job, event)
        job.ended = time.monotonic()
        code = job.process.returncode
        if job.exitstatus is None:  # the process ended without finishing the session
            job.status = "crashed"
            job.exitstatus = code
            self.progress.message(f"CRASHED {job.name}: exit {code} before the end; "
                                  f"its log: {job.log}\n{_tail(job.log)}")  # fmt: skip
        else:
            job.status = "done"
            failed = job.counts.get("failed", 0)
            missing = job.counts.get("missing", 0)
            lacking = f", {missing} missing" if missing else ""
            self.progress.message(f"done {job.name}: {job.counts.get('passed', 0)} passed, "
                                  f"{failed} failed{lacking}, {job.done} tests, "
                                  f"{job.elapsed(job.ended):.0f} s (CPU {job.cpu_s} s, "
                                  f"start-up {job.startup_cpu_s or 0:.0f} s)")  # fmt: skip
            for tid, counts in job.cells.items():
                self.progress.message(f"  cell {tid}: {counts.get('passed', 0):.0f} passed, "
                                      f"{counts.get('failed', 0):.0f} failed, "
                                      f"{counts.get('missing', 0):.0f} missing, "
                                      f"{counts.get('skipped', 0):.0f} skipped, "
                                      f"{counts.get('seconds', 0.0):.0f} s in its tests "
                                      f"(CPU {counts.get('cpu_s', 0.0):.0f} s)")  # fmt: skip
        self._write()

    def _start(self, job: Job) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        for path in (job.events, job.log):
            path.unlink(missing_ok=True)
        with open(job.log, "wb") as log:
            job.process = subprocess.Popen(
                command(job, self.options), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                env=subprocess_env(self.report_dir, bool(self.options.get("cache", True))),
                preexec_fn=_default_sigint)  # fmt: skip
        job.status = "running"
        job.started = time.monotonic()

    def _write(self, force: bool = True) -> None:
        now = time.monotonic()
        if force or now - self._last_save >= SAVE_S:
            self._last_save = now
            self.save(self.snapshot())

    # -- the loop ------------------------------------------------------------------------
    def execute(self) -> None:
        previous = signal.signal(signal.SIGTERM, _raise_stopped)
        for stale in [*self.work.glob("*.jsonl"), *self.work.glob("*.log")]:
            stale.unlink()  # an earlier run's processes: never mixed with this run's
        try:
            self._write()  # replaces any older report at once, marked partial
            while any(j.status in ("pending", "running") for j in self.jobs):
                running = [j for j in self.jobs if j.status == "running"]
                for job in self.jobs:
                    if job.status == "pending" and len(running) < self.workers:
                        self._start(job)
                        running.append(job)
                for job in running:
                    self._poll(job)
                summary = self.summary()
                self.progress.draw(self.jobs, summary)
                self.progress.heartbeat(self.jobs, summary)
                self._write(force=False)
                time.sleep(0.25)
            broken = [j.name for j in self.jobs if j.status == "crashed"]
            if broken:
                self.partial_reason = f"processes ended early: {', '.join(broken)} (see logs/)"
            else:
                self.status, self.partial_reason = "complete", None
        except (KeyboardInterrupt, Stopped) as exc:
            self._stop(exc)
        finally:
            signal.signal(signal.SIGTERM, previous)
        self.progress.draw(self.jobs, self.summary())

    def _stop(self, exc: BaseException) -> None:
        why = "interrupted (Ctrl-C)" if isinstance(exc, KeyboardInterrupt) else "stopped (SIGTERM)"
        for job in self.jobs:  # pytest ends its session on SIGINT (the recorder's last line)
            if job.process is not None and job.process.poll() is None:
                job.process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 10
        for job in self.jobs:
            if job.process is not None:
                try:
                    job.process.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    job.process.kill()
                    job.process.wait()
                for event in job.read_new():
                    self._take(job, event)
                if job.status == "running":
                    job.status, job.ended = "stopped", time.monotonic()
        self.partial_reason = f"{why} after {_clock(time.monotonic() - self.started)}"
        self.progress.message(f"{why}: writing a partial report")


def _default_sigint() -> None:
    """In a job's process: Ctrl-C stops pytest even when this run was started in the
    background (where the shell makes processes ignore SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _raise_stopped(signum: int, frame: Any) -> None:
    raise Stopped()


def _tail(path: Path, lines: int = 8) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
