"""Early pytest plugin of the conformance suite (``-p conformance.plugin`` in pyproject).

Loaded at start-up, before any test module is imported, so that the options work with a
bare ``pytest`` (testpaths) and JAX is configured for 64-bit types before anything imports
it: ``JAX_ENABLE_X64=1`` is the test harness's choice, never the library's.
"""

from __future__ import annotations

import pytest

from .harness import prepare_environment

prepare_environment()

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
