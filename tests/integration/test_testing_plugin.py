"""`eagerpy_xp.testing`: the pytest plugin (run through pytester) and the assert helpers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _integration import Target

import eagerpy_xp as ep
import eagerpy_xp.numpy
from eagerpy_xp.testing import (
    XPCase,
    assert_allclose,
    assert_equal,
    installed_backends,
    namespace_for,
    xp_cases,
)

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]

PLUGIN_TEST = """
import pytest
import eagerpy_xp as ep
import eagerpy_xp.numpy

def test_sum(xp, xp_device):
    x = xp.asarray([1.0, 2.0, 3.0], device=xp_device)
    assert float(xp.sum(x)) == 6.0
    assert ep.device(x) == xp_device
    wrapped = xp.__name__.startswith("eagerpy_xp.native") is False
    assert (type(x).__name__ == "Array") is wrapped

@pytest.mark.xp_backends("numpy")
@pytest.mark.xp_flavours("wrapped")
def test_marked(xp):
    assert xp.__name__ == "eagerpy_xp.numpy"

@pytest.mark.parametrize("xp", ["mine"])
def test_own_parametrisation(xp):
    assert xp == "mine"

def test_without_xp():
    pass
"""


@pytest.fixture
def plugin_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A downstream project's tests, run in a subprocess (in-process runs restore sys.modules
    afterwards, and TensorFlow and PyTorch abort when imported a second time)."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_downstream=PLUGIN_TEST)
    return pytester


def _plugin_args() -> tuple[str, ...]:
    """``-p eagerpy_xp.testing`` unless the installed entry point loads the plugin already
    (naming it twice makes pytest refuse to start)."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "eagerpy_xp.testing" for ep in entry_points(group="pytest11"))
    return () if installed else ("-p", "eagerpy_xp.testing")


def _cpu_ids(names: tuple[str, ...]) -> set[str]:
    return {f"{b}-{f}-cpu" for b in names for f in ("native", "wrapped")}


def test_import_loads_no_framework() -> None:
    code = ("import sys, eagerpy_xp.testing; "
            "print(sorted(m for m in ('numpy', 'torch', 'jax', 'tensorflow') if m in sys.modules))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_entry_point_is_declared() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"eagerpy_xp": "eagerpy_xp.testing"}
    assert {"scipy>=1.17", "scikit-learn>=1.9"} <= set(project["optional-dependencies"]["test"])


def test_fixture_parametrises_flavours_and_markers(plugin_run: pytest.Pytester) -> None:
    # numpy only: a subprocess importing every framework costs half a minute in CI; that
    # every installed backend gets cases is checked in-process below.
    result = plugin_run.runpytest_subprocess(*_plugin_args(), "-v",
                                             "--xp-backend", "numpy")  # fmt: skip
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines_random(["*test_sum?numpy-native-cpu? PASSED*",
                                        "*test_sum?numpy-wrapped-cpu? PASSED*",
                                        "*test_marked?numpy-wrapped-cpu? PASSED*",
                                        "*test_own_parametrisation?mine? PASSED*",
                                        "*test_without_xp PASSED*"])  # fmt: skip


def test_every_installed_backend_has_working_cases() -> None:
    backends = installed_backends()
    assert "numpy" in backends
    cases = xp_cases()
    assert {c.id for c in cases} >= _cpu_ids(backends)
    for case in cases:
        xp = case.namespace()
        x = xp.asarray([1.0, 2.0, 3.0], device=case.device)
        assert float(xp.sum(x)) == 6.0
        assert ep.device(x) == case.device
        assert (type(x) is ep.Array) is (case.flavour == "wrapped")


def test_command_line_selection(plugin_run: pytest.Pytester) -> None:
    result = plugin_run.runpytest_subprocess(*_plugin_args(), "-v", "--xp-backend", "numpy",
                                  "--xp-flavour", "native", "--xp-device", "cpu")  # fmt: skip
    result.assert_outcomes(passed=3, skipped=1)  # test_marked asks for wrapped: none left
    result.stdout.fnmatch_lines(["*test_sum?numpy-native-cpu? PASSED*",
                                 "*test_marked?no-backend? SKIPPED*"])  # fmt: skip


def test_unknown_backend_is_a_clear_error(plugin_run: pytest.Pytester) -> None:
    result = plugin_run.runpytest_subprocess(*_plugin_args(), "--xp-backend", "cupyy")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*unknown backend 'cupyy'*"])


def test_xp_cases_and_namespaces() -> None:
    cases = xp_cases(["numpy"])
    assert [(c.backend, c.flavour, str(c.device)) for c in cases] == [
        ("numpy", "native", "cpu"), ("numpy", "wrapped", "cpu")]  # fmt: skip
    assert cases[1].namespace() is namespace_for("numpy") is ep.numpy
    assert xp_cases(["numpy"], ["native"], ["cuda"]) == []
    with pytest.raises(ValueError, match="unknown flavour 'strict'"):
        xp_cases(flavours=["strict"])
    with pytest.raises(ValueError, match="unknown backend"):
        namespace_for("mxnet")


def test_broken_backend_fails_loudly() -> None:
    case = XPCase("torch", "wrapped", None, "ImportError: boom")
    assert case.id == "torch-wrapped-broken"
    with pytest.raises(RuntimeError, match="'torch' is installed but eagerpy_xp cannot load it: "
                                           "ImportError: boom"):  # fmt: skip
        case.namespace()


# -- assert_allclose / assert_equal -------------------------------------------------------------
def test_asserts_accept_arrays_of_every_kind(target: Target) -> None:
    values = np.array([[1.0, np.nan], [3.0, -4.5]])
    wrapped = target.asarray(values)
    reference = target.cast(values)
    for actual in (wrapped, wrapped.raw):
        assert_equal(actual, reference)
        assert_allclose(actual, reference * (1 + 1e-9), rtol=1e-6)
        assert_allclose(reference, actual)
    assert_equal(wrapped[0, 0], 1.0)  # 0-d array against a Python scalar
    assert_allclose(wrapped[1], [3.0, -4.5])  # against a list
    assert_allclose(ep.numpy.asarray(reference), wrapped)  # across backends


def test_assert_messages_name_both_sides(target: Target) -> None:
    x = target.asarray(np.array([1.0, 2.0, 3.0]))
    desired = target.cast(np.array([1.0, 2.0, 3.5]))
    with pytest.raises(AssertionError, match=rf"assert_allclose: actual \({target.name} Array\) "
                                             r"vs desired \(numpy array\): context"):  # fmt: skip
        assert_allclose(x, desired, err_msg="context")
    with pytest.raises(AssertionError, match=rf"assert_equal: actual \({target.name} array\)"):
        assert_equal(x.raw, desired)
    with pytest.raises(AssertionError, match=r"shape mismatch: \(3,\) != \(1, 3\)"):
        assert_allclose(x, target.cast(np.array([[1.0, 2.0, 3.0]])))


def test_assert_dtype_check() -> None:
    x = np.array([1.0, 2.0])
    with pytest.raises(AssertionError, match="dtype mismatch: float32 != float64"):
        assert_equal(ep.numpy.asarray(x, dtype=ep.numpy.float32), x)
    assert_equal(ep.numpy.asarray(x, dtype=ep.numpy.float32), x, check_dtype=False)


def test_assert_rejects_unknown_types() -> None:
    with pytest.raises(TypeError, match=r"assert_equal: cannot compare a builtins.dict"):
        assert_equal({"a": 1}, np.ones(1))
