"""Run a client library's own array-API tests on chosen namespaces and compare with strict."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eagerpy_xp._detect import REGISTRY

from . import BACKENDS, KNOWN_EXCEPTIONS, REFERENCE, SELECTIONS

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("EAGERPY_XP_CACHE", Path.home() / ".cache" / "eagerpy_xp"))
PASSING = {"passed"}

# scikit-learn runs array_api_strict on two (device, dtype) pairs; an added namespace on
# its default device (None) with both dtypes.  The key of a test drops the device.
_SKLEARN_STRICT_DEVICES = ("CPU_DEVICE", "device1")


# -- where the tests are --------------------------------------------------------------------------
def _installed_root(package: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise SystemExit(f"conformance.clients: {package} is not installed")
    return Path(spec.origin).parent.parent


def array_api_extra_tests(quiet: bool = False) -> Path:
    """The unpacked sdist of the installed array-api-extra (downloaded once, cached)."""
    import array_api_extra

    version = array_api_extra.__version__
    folder = CACHE / "sdist"
    root = folder / f"array_api_extra-{version}"
    if (root / "tests" / "main" / "conftest.py").exists():
        return root
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / f"array_api_extra-{version}.tar.gz"
    if not archive.exists():
        if not quiet:
            print(f"downloading array-api-extra {version}'s sdist into {folder}", flush=True)
        # only the package itself from source: its build dependencies stay wheels
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                "array-api-extra",
                f"array-api-extra=={version}",
                "-d",
                str(folder),
            ],
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return root


def test_root(library: str) -> Path:
    if library == "scipy":
        return _installed_root("scipy")
    if library == "sklearn":
        return _installed_root("sklearn")
    return array_api_extra_tests()


def namespaces_for(backends: Iterable[str], flavour: str) -> list[str]:
    prefix = "eagerpy_xp.native." if flavour == "native" else "eagerpy_xp."
    return [prefix + b for b in backends]


# -- test keys: the same test with the namespace swapped -------------------------------------------
def _bounded(name: str) -> str:
    return rf"(?<![\w.]){re.escape(name)}(?![\w.])"


def swap_key(library: str, nodeid: str, namespace: str) -> str | None:
    """``nodeid`` with ``namespace`` written ``<xp>`` (and scikit-learn's device dropped)."""
    if "[" not in nodeid:
        return None
    base, params = nodeid.split("[", 1)
    if library == "sklearn":
        devices = _SKLEARN_STRICT_DEVICES if namespace == REFERENCE else ("None",)
        for device in devices:
            params = re.sub(
                _bounded(namespace) + "-" + re.escape(device) + r"(?=-)", "<xp>", params
            )
            params = params.replace(
                f"array_namespace={namespace},device_name={device},", "array_namespace=<xp>,"
            )
    new = re.sub(_bounded(namespace), "<xp>", params)
    if new == params and "<xp>" not in params:
        return None
    return f"{base}[{new}"


# -- one pytest process -----------------------------------------------------------------------------
@dataclass
class Run:
    namespace: str
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # nodeid -> entry
    seconds: float = 0.0
    returncode: int | None = None
    timed_out: bool = False
    log: str = ""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for entry in self.results.values():
            out[entry["outcome"]] = out.get(entry["outcome"], 0) + 1
        return out


def _ini() -> Path:
    path = CACHE / "clients" / "pytest.ini"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # an empty configuration: the repo's own addopts and plugins stay out
        path.write_text("[pytest]\n", encoding="utf-8")
    return path


def pytest_command(
    library: str, root: Path, paths: Iterable[str], keyword: str | None, extra: Iterable[str] = ()
) -> list[str]:
    if library == "array-api-extra":
        # its own configuration (filterwarnings = error, strict markers); one warning of
        # this environment's, raised inside hypothesis' pytest plugin while it writes a
        # report, is not the library's to see (it aborted the session: INTERNALERROR)
        config = [
            "-c",
            str(root / "pyproject.toml"),
            "--rootdir",
            str(root),
            "-W",
            "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning",
        ]
    else:
        config = ["-c", str(_ini()), "--rootdir", str(root)]
    command = [
        sys.executable,
        "-m",
        "pytest",
        *config,
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-p",
        "no:eagerpy_xp",
        "-p",
        "conformance.clients._plugin",
        "-q",
        "--tb=no",
        "--no-header",
        "-o",
        "console_output_style=classic",
        *extra,
    ]
    if keyword:
        command += ["-k", keyword]
    return command + [str(root / p) for p in paths]


def run_namespaces(
    library: str,
    namespaces: list[str],
    paths: Iterable[str],
    keyword: str | None,
    *,
    timeout: float | None,
    logdir: Path,
    extra: Iterable[str] = (),
    profile: Path | None = None,
) -> dict[str, Run]:
    """One pytest process running ``namespaces``; its results split by namespace."""
    root = test_root(library)
    logdir.mkdir(parents=True, exist_ok=True)
    safe = "+".join(n.replace(".", "_") for n in namespaces)
    record = logdir / f"{library}-{safe}.jsonl"
    record.unlink(missing_ok=True)
    log = logdir / f"{library}-{safe}.log"
    # not the caller's pytest-xdist worker variables: the library's run is one plain process
    # (pytest-benchmark reads PYTEST_XDIST_WORKER and warns, an error under the
    # library's filterwarnings=error)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env.update(
        EAGERPY_XP_CLIENTS_LIBRARY=library,
        EAGERPY_XP_CLIENTS_NAMESPACES=",".join(namespaces),
        EAGERPY_XP_CLIENTS_RECORD=str(record),
        SCIPY_ARRAY_API="1",
        # the caller's PYTHONPATH first (to measure another checkout's eagerpy_xp), then
        # this repository, for conformance.clients._plugin
        PYTHONPATH=os.pathsep.join([*filter(None, [env.get("PYTHONPATH")]), str(REPO)]),
    )
    # what the suite's processes set (SciPy's and array-api-extra's own JAX params switch
    # x64 on, and so does the harness)
    for descriptor in REGISTRY.values():
        env.update(descriptor.suite_environment)
        for key, value in descriptor.suite_environment_defaults.items():
            env.setdefault(key, value)
    command = pytest_command(library, root, paths, keyword, extra)
    if profile is not None:
        command[1:1] = ["-m", "cProfile", "-o", str(profile)]  # python -m cProfile -m pytest
    start = time.perf_counter()
    runs = {n: Run(n, log=str(log)) for n in namespaces}
    returncode, timed_out = None, False
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            timed_out = True
    seconds = time.perf_counter() - start
    patterns = {n: re.compile(_bounded(n)) for n in namespaces}
    if record.exists():
        for line in record.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            nodeid = entry.pop("nodeid")
            params = nodeid.partition("[")[2]
            for name, pattern in patterns.items():
                if pattern.search(params):
                    runs[name].results[nodeid] = entry
                    break
    for run in runs.values():
        run.returncode, run.timed_out = returncode, timed_out
        run.seconds = (
            seconds if len(runs) == 1 else sum(e["duration"] for e in run.results.values())
        )
    return runs


def run_namespace(
    library: str, namespace: str, paths: Iterable[str], keyword: str | None, **options: Any
) -> Run:
    return run_namespaces(library, [namespace], paths, keyword, **options)[namespace]


# -- comparing with the reference --------------------------------------------------------------------
def compare(library: str, reference: Run, other: Run) -> dict[str, Any]:
    strict_passing = {}
    for nodeid, entry in reference.results.items():
        key = swap_key(library, nodeid, REFERENCE)
        if key is not None and entry["outcome"] in PASSING:
            strict_passing[key] = nodeid
    ours = {}
    for nodeid, entry in other.results.items():
        key = swap_key(library, nodeid, other.namespace)
        if key is not None:
            ours[key] = (nodeid, entry)
    passed, failed, skipped, missing, known = [], [], [], [], []
    for key in sorted(strict_passing):
        if key not in ours:
            missing.append(key)
            continue
        nodeid, entry = ours[key]
        outcome = entry["outcome"]
        if outcome in PASSING:
            passed.append(key)
        elif outcome in ("skipped", "xfailed"):
            skipped.append({"id": nodeid, "message": entry["message"]})
        else:
            reason = KNOWN_EXCEPTIONS.get((library, other.namespace, key))
            item = {"id": nodeid, "outcome": outcome, "message": entry["message"]}
            if reason is not None:
                known.append({**item, "reason": reason})
            else:
                failed.append(item)
    return {
        "namespace": other.namespace,
        "strict_passing": len(strict_passing),
        "passed": len(passed),
        "failed": failed,
        "known": known,
        "skipped": skipped,
        "not_run": missing,
        "seconds": round(other.seconds, 1),
        "timed_out": other.timed_out,
        "outcomes": other.counts(),
    }


def summary_line(library: str, row: dict[str, Any]) -> str:
    text = (
        f"{library:<15} {row['namespace']:<28} strict-passing {row['strict_passing']:>5}: "
        f"{row['passed']:>5} passed, {len(row['failed']):>4} failed"
    )
    if row["known"]:
        text += f", {len(row['known'])} known"
    if row["skipped"]:
        text += f", {len(row['skipped'])} skipped"
    if row["not_run"]:
        text += f", {len(row['not_run'])} not run"
    text += f"  ({row['seconds']:.0f} s{', TIMED OUT' if row['timed_out'] else ''})"
    return text


# -- reports -------------------------------------------------------------------------------------------
def write_report(
    path: Path, library: str, selection: dict[str, Any], reference: Run, rows: list[dict[str, Any]]
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "library": library,
        "version": _version(library),
        "selection": selection,
        "reference": {
            "namespace": REFERENCE,
            "outcomes": reference.counts(),
            "seconds": round(reference.seconds, 1),
            "timed_out": reference.timed_out,
        },
        "namespaces": rows,
    }
    path.with_suffix(".json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    path.with_suffix(".md").write_text(markdown(data), encoding="utf-8")


def _version(library: str) -> str:
    module = {"scipy": "scipy", "sklearn": "sklearn", "array-api-extra": "array_api_extra"}
    return str(__import__(module[library]).__version__)


def markdown(data: dict[str, Any]) -> str:
    lines = [
        f"# {data['library']} {data['version']}: its own array-API tests on eagerpy_xp",
        "",
        f"Selection: paths {', '.join(data['selection']['paths'])}; "
        f"-k {data['selection']['keyword'] or '(all)'}.",
        f"Reference {REFERENCE}: {data['reference']['outcomes']} "
        f"({data['reference']['seconds']} s).",
        "",
        "| namespace | strict-passing | passed | failed | known | skipped | not run | s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in data["namespaces"]:
        lines.append(
            f"| {row['namespace']} | {row['strict_passing']} | {row['passed']} | "
            f"{len(row['failed'])} | {len(row['known'])} | {len(row['skipped'])} | "
            f"{len(row['not_run'])} | {row['seconds']}{' (timed out)' if row['timed_out'] else ''} |"
        )
    for row in data["namespaces"]:
        if not (row["failed"] or row["known"]):
            continue
        lines += ["", f"## {row['namespace']}: failing", ""]
        for item in row["failed"]:
            lines.append(f"- `{item['id']}` ({item['outcome']}): {item['message']}")
        for item in row["known"]:
            lines.append(f"- `{item['id']}` (known: {item['reason']}): {item['message']}")
    return "\n".join(lines) + "\n"


# -- the whole command ----------------------------------------------------------------------------------
def run_library(
    library: str,
    namespaces: list[str],
    select: str,
    keyword: str | None,
    *,
    paths: list[str] | None = None,
    timeout: float | None = None,
    outdir: Path,
    report_name: str | None = None,
    together: bool = False,
    printer: Any = print,
) -> list[dict[str, Any]]:
    """Run the reference and then each namespace (or all in one process: ``together``)."""
    chosen_paths, chosen_keyword = SELECTIONS[library][select]
    if paths:
        chosen_paths = tuple(paths)
    if keyword:
        chosen_keyword = f"({chosen_keyword}) and ({keyword})" if chosen_keyword else keyword
    outdir = outdir.resolve()
    logdir = outdir / "logs"
    shared: dict[str, Run] = {}
    if together:
        shared = run_namespaces(
            library,
            [REFERENCE, *namespaces],
            chosen_paths,
            chosen_keyword,
            timeout=timeout,
            logdir=logdir,
        )
        reference = shared[REFERENCE]
    else:
        reference = run_namespace(
            library, REFERENCE, chosen_paths, chosen_keyword, timeout=timeout, logdir=logdir
        )
    counts = reference.counts()
    printer(
        f"{library:<15} {REFERENCE:<28} {counts.get('passed', 0):>5} passed, "
        f"{counts.get('failed', 0) + counts.get('error', 0)} failed, "
        f"{counts.get('skipped', 0)} skipped  ({reference.seconds:.0f} s"
        f"{', TIMED OUT' if reference.timed_out else ''})"
    )
    if not reference.results:
        printer(f"  no test ran on {REFERENCE}: see {reference.log}")
    rows = []
    selection = {"name": select, "paths": list(chosen_paths), "keyword": chosen_keyword}
    name = report_name or f"{library}-{select}"
    for namespace in namespaces:
        run = shared.get(namespace) or run_namespace(
            library, namespace, chosen_paths, chosen_keyword, timeout=timeout, logdir=logdir
        )
        row = compare(library, reference, run)
        rows.append(row)
        printer(summary_line(library, row))
        write_report(outdir / name, library, selection, reference, rows)
    if not namespaces:
        write_report(outdir / name, library, selection, reference, rows)
    return rows


__all__ = ["BACKENDS", "run_library"]
