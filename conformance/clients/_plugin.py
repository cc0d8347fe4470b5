"""The pytest plugin that ``python -m conformance.clients`` loads into a library's own tests.

Loaded with ``-p conformance.clients._plugin`` in a pytest subprocess (never by the repo's
own test runs).  It reads its instructions from the environment the runner sets:

``EAGERPY_XP_CLIENTS_LIBRARY``     scipy, sklearn or array-api-extra
``EAGERPY_XP_CLIENTS_NAMESPACES``  comma-separated importable namespaces to add as params
                                   (``eagerpy_xp.numpy``, ``jax.numpy``, ...); a name that
                                   is already one of the library's own params (SciPy's
                                   ``torch``, ``jax.numpy``) keeps the library's param
``EAGERPY_XP_CLIENTS_RECORD``      a file: one JSON line per finished test

Only the library's params named in the namespaces list (``array_api_strict``, the
reference, always among them when the runner asks for it) are kept; tests that end up
without any of the chosen params are deselected, so nothing else runs.  Installed files
are never edited: SciPy's and array-api-extra's ``xp``/``library`` fixtures get their
params replaced when pytest generates tests, and scikit-learn's parametrization functions
are replaced in their module before any test module imports them.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

LIBRARY = os.environ.get("EAGERPY_XP_CLIENTS_LIBRARY", "")
NAMESPACES = [n for n in os.environ.get("EAGERPY_XP_CLIENTS_NAMESPACES", "").split(",") if n]
RECORD = os.environ.get("EAGERPY_XP_CLIENTS_RECORD")

# The fixture whose params name the namespace, and the module that defines it.
_FIXTURES = {"scipy": ("xp", "scipy.conftest"), "array-api-extra": ("library", "conftest")}


# -- SciPy and array-api-extra: the fixture's params --------------------------------------------
class ClientBackend:
    """Stands for an added namespace among array-api-extra's ``Backend`` enum members.

    array-api-extra's ``library`` fixture returns a ``Backend`` and its ``xp`` fixture
    imports ``library.modname``; tests compare ``library`` with members (``==``, ``like``).

    A wrapped namespace (``eagerpy_xp.jax``) is none of them: ``like`` and ``==`` are
    false, and the tests treat it as the generic (eager) namespace it is.  A native one
    (``eagerpy_xp.native.jax``) holds the framework's own arrays, which the library
    dispatches through array-api-compat as it does its own param's: it is compared equal to
    that param (its ``twin``), so the library's skips and expected failures for the
    framework apply to it as to its own param, and the two are judged on the same terms.
    """

    def __init__(self, modname: str) -> None:
        self.modname = modname
        self.value = modname
        self.name = modname.upper().replace(".", "_")
        prefix = "eagerpy_xp.native."
        framework = modname[len(prefix):] if modname.startswith(prefix) else None
        self.twin: Any = _twin(framework) if framework else None

    def like(self, *others: object) -> bool:
        return self.twin is not None and self.twin.like(*others)

    def __eq__(self, other: object) -> bool:
        return other is self or (self.twin is not None and other is self.twin)

    def __hash__(self) -> int:
        return hash(self.modname)

    def __str__(self) -> str:
        return self.modname

    __repr__ = __str__


def _twin(backend: str) -> Any:
    """array-api-extra's own ``Backend`` for a backend's framework: the member on the CPU
    (no ``:gpu``/``:readonly`` variant) whose module is one of the backend's packages
    (``jax.numpy`` for JAX), or None where the library has no param for it."""
    from eagerpy_xp._detect import REGISTRY

    if backend not in REGISTRY:
        return None
    packages = REGISTRY[backend].packages
    backends = importlib.import_module("array_api_extra._lib._backends").Backend
    for member in backends:
        if ":" not in member.value and member.modname.split(".")[0] in packages:
            return member
    return None


def _added_param(name: str) -> Any:
    if LIBRARY == "array-api-extra":
        return pytest.param(ClientBackend(name), id=name)
    return pytest.param(
        importlib.import_module(name), id=name, marks=pytest.mark.array_api_backends
    )


def _param_id(param: Any) -> str | None:
    return getattr(param, "id", None)


_patched: set[int] = set()


def _patch_fixture(metafunc: pytest.Metafunc) -> None:
    name, module = _FIXTURES[LIBRARY]
    defs = metafunc._arg2fixturedefs.get(name)  # pytest's own generate_tests reads this too
    if not defs:
        return
    for fixturedef in defs:
        func = getattr(fixturedef, "func", None)
        if (
            fixturedef.params is None
            or getattr(func, "__module__", "").split(".")[-1] != module.split(".")[-1]
        ):
            continue
        if id(fixturedef) in _patched:
            continue
        own = {_param_id(p): p for p in fixturedef.params}
        params = [own[n] if n in own else _added_param(n) for n in NAMESPACES]
        fixturedef.params = tuple(params)  # type: ignore[misc]
        fixturedef.ids = None  # type: ignore[misc]
        _patched.add(id(fixturedef))


def _patch_infinity(metafunc: pytest.Metafunc) -> None:
    """array-api-extra's ``infinity`` fixture: the largest value of the default float.

    It answers by backend identity (float32's maximum for its torch params, float64's for
    every other); an added namespace is none of them, so it gets its own default floating
    dtype's maximum, read from the namespace (what the fixture means), not float64's.
    """
    for fixturedef in metafunc._arg2fixturedefs.get("infinity", ()):
        if id(fixturedef) in _patched:
            continue
        original = fixturedef.func

        def infinity(library: Any, _original: Any = original) -> float:
            if isinstance(library, ClientBackend):
                xp = importlib.import_module(library.modname)
                default = xp.__array_namespace_info__().default_dtypes()["real floating"]
                return float(xp.finfo(default).max)
            return float(_original(library))

        fixturedef.func = infinity  # type: ignore[misc]
        _patched.add(id(fixturedef))


def _patch_xp(metafunc: pytest.Metafunc) -> None:
    """array-api-extra's ``xp`` fixture: the native flavour's own namespace.

    The fixture imports ``library.modname`` and then takes ``array_namespace`` of an empty
    array of it, which for a framework's own array is array-api-compat's namespace, not
    the one asked for: for a native namespace the fixture's setup (JAX's x64, the
    lazy-function patches, made with the library's view of the framework) runs as for its
    twin param, and the test gets the native namespace itself.
    """
    for fixturedef in metafunc._arg2fixturedefs.get("xp", ()):
        func = getattr(fixturedef, "func", None)
        if id(fixturedef) in _patched or getattr(func, "__module__", "").split(".")[-1] != "conftest":
            continue

        def xp(library: Any, request: Any, _original: Any = func) -> Iterator[Any]:
            generator = _original(library, request)
            theirs = next(generator)
            native = isinstance(library, ClientBackend) and library.twin is not None
            yield importlib.import_module(library.modname) if native else theirs
            for _ in generator:  # the fixture's teardown
                pass

        fixturedef.func = xp  # type: ignore[misc]
        _patched.add(id(fixturedef))


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if LIBRARY in _FIXTURES:
        _patch_fixture(metafunc)
    if LIBRARY == "array-api-extra":
        _patch_infinity(metafunc)
        _patch_xp(metafunc)


# -- scikit-learn: its parametrization functions -------------------------------------------------
_SKLEARN_OWN = {"numpy", "array_api_strict", "cupy", "torch", "dpnp"}


def _patch_sklearn() -> None:
    from sklearn.utils import _array_api

    original_combinations = _array_api.yield_namespace_device_dtype_combinations
    original_namespaces = _array_api.yield_namespaces

    def yield_namespaces(include_numpy_namespaces: bool = True) -> Iterator[str]:
        own = list(original_namespaces(include_numpy_namespaces=include_numpy_namespaces))
        for name in NAMESPACES:
            if name in _SKLEARN_OWN:
                if name in own:
                    yield name
            elif include_numpy_namespaces:  # the reference is one of the NumPy ones
                yield name

    def yield_namespace_device_dtype_combinations(
        include_numpy_namespaces: bool = True,
    ) -> Iterator[tuple[str, str | None, str | None]]:
        own = list(original_combinations(include_numpy_namespaces=include_numpy_namespaces))
        for name in NAMESPACES:
            if name in _SKLEARN_OWN:
                yield from (c for c in own if c[0] == name)
            elif include_numpy_namespaces:
                # array_api_strict is run as (CPU_DEVICE, float64) and (device1, float32);
                # an added namespace gets both dtypes on its default device
                yield name, None, "float64"
                yield name, None, "float32"

    _array_api.yield_namespaces = yield_namespaces  # type: ignore[assignment]
    _array_api.yield_namespace_device_dtype_combinations = (  # type: ignore[assignment]
        yield_namespace_device_dtype_combinations
    )


def pytest_configure(config: pytest.Config) -> None:
    if LIBRARY == "sklearn":
        _patch_sklearn()


# -- keep only the tests that run one of the chosen namespaces ------------------------------------
def _tokens(nodeid: str) -> list[str]:
    if not nodeid.endswith("]") or "[" not in nodeid:
        return []
    return nodeid[nodeid.index("[") + 1 : -1].split("-")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(NAMESPACES)
    keep, drop = [], []
    for item in items:
        (keep if wanted.intersection(_tokens(item.nodeid)) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# -- record each test's outcome ------------------------------------------------------------------
_state: dict[str, dict[str, Any]] = {}


def _first_line(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    if isinstance(report.longrepr, tuple):  # a skip: (path, line, reason)
        text = str(report.longrepr[2])
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # the first line, and the next two where it says little ("AssertionError: ")
    first = lines[:1] if lines and len(lines[0]) > 40 else lines[:3]
    return " / ".join(first)[:300]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if RECORD is None:
        return
    entry = _state.setdefault(report.nodeid, {"outcome": None, "message": "", "duration": 0.0})
    entry["duration"] += report.duration
    if hasattr(report, "wasxfail"):
        entry["outcome"] = entry["outcome"] or ("xpassed" if report.passed else "xfailed")
        entry["message"] = entry["message"] or str(report.wasxfail)[:300]
    elif report.failed:
        if entry["outcome"] not in ("failed", "error"):
            entry["outcome"] = "failed" if report.when == "call" else "error"
            entry["message"] = _first_line(report)
    elif report.skipped:
        entry["outcome"] = entry["outcome"] or "skipped"
        entry["message"] = entry["message"] or _first_line(report)
    elif report.when == "call" and entry["outcome"] is None:
        entry["outcome"] = "passed"
    if report.when == "teardown":
        entry = _state.pop(report.nodeid)
        with open(RECORD, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"nodeid": report.nodeid, "time": time.time(), **entry}))
            stream.write("\n")
