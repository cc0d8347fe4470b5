"""Early pytest plugin of the conformance suite (``-p conformance.plugin`` in pyproject).

Loaded at start-up, before any test module is imported, so that the options work with a
bare ``pytest`` (testpaths) and JAX is configured for 64-bit types before anything imports
it: ``JAX_ENABLE_X64=1`` is the test harness's choice, never the library's.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from .harness import NO_KERNEL_CACHE, cache_environment, prepare_environment
from .memory import bound as bound_memory

prepare_environment()


def _share_compilation_caches() -> str | None:
    """Give this pytest run one persistent compilation cache (JAX's ``suite_cache``), in a
    new temporary folder that its xdist workers inherit with the environment: a kernel one
    worker compiled (each of the suite's operations runs on both flavours, often in two
    workers) is read back by the other instead of compiled again (a third of the JAX tests'
    time, 324 s to 213 s on two cores). Where the caller named a cache (the main job's
    processes), or asked for none (`NO_KERNEL_CACHE`), that stands. Returns the folder this
    process made (None in a worker), removed when the run ends."""
    if os.environ.get("PYTEST_XDIST_WORKER") or os.environ.get(NO_KERNEL_CACHE):
        return None
    if any(key in os.environ for key in cache_environment("")):
        return None
    root = tempfile.mkdtemp(prefix="eagerpy_xp-kernels-")
    os.environ.update(cache_environment(root))
    return root


_KERNELS = _share_compilation_caches()

DEFAULT_MAX_EXAMPLES = 12


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "eagerpy_xp conformance suite")
    group.addoption("--backend", default=None,
                    help="eagerpy_xp backends to test, comma separated (default: all; "
                    "none: only the --namespace ones)")  # fmt: skip
    group.addoption("--flavour", default=None,
                    help="flavours to test: wrapped, native (default: both)")  # fmt: skip
    group.addoption("--device", default=None,
                    help="device kinds or devices: cpu, cuda, cuda:1 (default: all seen)")  # fmt: skip
    group.addoption("--namespace", action="append", default=[], metavar="MODULE",
                    help="also test another namespace (an importable module that claims "
                    "the standard), each a column of its own; repeatable")  # fmt: skip
    group.addoption("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES,
                    help=f"hypothesis examples per test (default {DEFAULT_MAX_EXAMPLES})")  # fmt: skip
    group.addoption("--record", default=None, metavar="FILE",
                    help="append each outcome to FILE as a JSON line (python -m conformance)")
    group.addoption("--no-suite-checks", action="store_true",
                    help="leave out the tests that check the suite itself (no target)")
    group.addoption("--tier", default=None, metavar="TIERS",
                    help="run only the checks of these tiers, comma separated: must, should, "
                    "house (default: all; see conformance/tiers.py)")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "array_object: only for targets whose array object "
                            "is the namespace's own (its operators, indexing, methods)")
    config.addinivalue_line("markers", "ours_only: eagerpy_xp's own choice where the "
                            "standard leaves one: only for eagerpy_xp's targets")
    config.addinivalue_line("markers", "all_targets: also run for unavailable targets")
    config.addinivalue_line("markers", "exports: only for eagerpy_xp's targets whose backend "
                            "exports models (its export_model hook)")
    config.addinivalue_line("markers", "tier(name, why): the authority of the check: must "
                            "(the standard's normative text), should (its recommendations), "
                            "house (eagerpy_xp's own contract); unmarked: must "
                            "(conformance/tiers.py)")  # fmt: skip
    path = config.getoption("--record")
    if path:
        from .recorder import Recorder

        suite_checks = not config.getoption("--no-suite-checks")
        config.pluginmanager.register(Recorder(path, suite_checks), "conformance-recorder")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _KERNELS is not None:
        shutil.rmtree(_KERNELS, ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Keep the process's memory bounded between tests (`conformance.memory`)."""
    bound_memory()
