"""SciPy's, scikit-learn's and array-api-extra's own array-API tests on eagerpy_xp (CI slice).

Runs ``python -m conformance.clients LIB --select ci`` (conformance/clients/): a fixed
selection of each library's own tests, chosen to cover the defects issue 37 found, on
array_api_strict (the library's reference param) and on the wrapped NumPy and torch
namespaces, in one pytest process per library.  Every test of the selection that passes on
array_api_strict must pass on each of ours, unless ``KNOWN_EXCEPTIONS`` in
conformance/clients/__init__.py lists it with its reason.  The whole suites are the command
(docs/ecosystem.md, "Client libraries' own test suites").
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance.clients import SELECTIONS
from conformance.clients.runner import run_library

NAMESPACES = ["eagerpy_xp.numpy", "eagerpy_xp.torch"]
# the selection's strict-passing tests, at least (a shrunken selection fails this)
MINIMUM_STRICT_PASSING = {"scipy": 20, "sklearn": 20, "array-api-extra": 20}
MODULES = {"scipy": "scipy", "sklearn": "sklearn", "array-api-extra": "array_api_extra"}


@pytest.mark.parametrize("library", list(SELECTIONS))
def test_strict_passing_tests_pass_on_ours(library: str, tmp_path: Path) -> None:
    for module in (MODULES[library], "torch", "array_api_strict"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    if library == "array-api-extra":
        import subprocess

        from conformance.clients.runner import array_api_extra_tests

        try:
            array_api_extra_tests(quiet=True)
        except subprocess.CalledProcessError:  # its tests are in the sdist only
            pytest.skip("array-api-extra's sdist could not be downloaded (pip download failed)")
    lines: list[str] = []
    rows = run_library(library, NAMESPACES, "ci", None, timeout=600, outdir=tmp_path,
                       together=True, printer=lines.append)  # fmt: skip
    assert [row["namespace"] for row in rows] == NAMESPACES, "\n".join(lines)
    problems = []
    for row in rows:
        assert not row["timed_out"], "\n".join(lines)
        assert row["strict_passing"] >= MINIMUM_STRICT_PASSING[library], "\n".join(lines)
        for item in row["failed"]:
            problems.append(f"{item['id']} ({item['outcome']}): {item['message']}")
        # "not run": the library lists array_api_strict literally in that test's
        # parametrization (not through the function the plugin extends): not comparable
        for item in row["skipped"]:
            problems.append(f"{item['id']}: skipped ({item['message']})")
    assert not problems, (
        f"{library}'s own tests that pass on array_api_strict fail on eagerpy_xp "
        f"({len(problems)}):\n" + "\n".join(problems) + "\n\n" + "\n".join(lines)
    )


@pytest.mark.parametrize(
    ("library", "nodeid", "namespace", "key"),
    [
        ("scipy", "a.py::T::t[array_api_strict]", "array_api_strict", "a.py::T::t[<xp>]"),
        ("scipy", "a.py::t[float32-eagerpy_xp.jax]", "eagerpy_xp.jax", "a.py::t[float32-<xp>]"),
        # a namespace inside another's name is not that namespace
        ("scipy", "a.py::t[eagerpy_xp.jax.numpy]", "eagerpy_xp.jax", None),
        ("scipy", "a.py::t", "array_api_strict", None),
        # scikit-learn: strict runs on named devices, an added namespace on its default one
        (
            "sklearn",
            "a.py::t[array_api_strict-CPU_DEVICE-float64]",
            "array_api_strict",
            "a.py::t[<xp>-float64]",
        ),
        (
            "sklearn",
            "a.py::t[rbf-array_api_strict-device1-float32]",
            "array_api_strict",
            "a.py::t[rbf-<xp>-float32]",
        ),
        (
            "sklearn",
            "a.py::t[rbf-eagerpy_xp.torch-None-float32]",
            "eagerpy_xp.torch",
            "a.py::t[rbf-<xp>-float32]",
        ),
        (
            "sklearn",
            "a.py::t[E()-check(array_namespace=array_api_strict,device_name=device1,"
            "dtype_name=float32)]",
            "array_api_strict",
            "a.py::t[E()-check(array_namespace=<xp>,dtype_name=float32)]",
        ),
    ],
)
def test_key_swaps_the_namespace(library: str, nodeid: str, namespace: str,
                                 key: str | None) -> None:  # fmt: skip
    from conformance.clients.runner import swap_key

    assert swap_key(library, nodeid, namespace) == key
