"""A new backend is its package plus one registry line (and its two one-line namespace
modules): nothing else in the library, the conformance suite or the benchmarks needs an
edit to know it.

The test builds a copy of the package with a made-up framework ``fakearrays`` (a NumPy
array subclass) and a backend package ``eagerpy_xp/native/_fake`` for it, adds the
package's line to `eagerpy_xp._detect`'s list, and checks in a fresh process that every
consumer of backend facts finds the new backend's: detection and the namespaces, error
messages, the stub generator, the EagerPy layer, the conformance suite's targets,
conversions, devices, known failures and compiler limits, and the benchmarks' tables.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import eagerpy_xp

PACKAGE = Path(eagerpy_xp.__file__).parent
REPO = PACKAGE.parent

FRAMEWORK = '''
"""A made-up framework: NumPy arrays of a type of its own."""
import numpy

class FakeArray(numpy.ndarray):
    pass

def asarray(data):
    return numpy.asarray(data).view(FakeArray)
'''

DESCRIPTOR = '''
"""The fake backend's facts."""
from typing import Any

from ..._descriptor import Compiler, Descriptor, Limitation, StubNames


def _from_numpy(a: Any, device: str) -> Any:
    import fakearrays

    return fakearrays.asarray(a.copy())


def _to_numpy(x: Any) -> Any:
    import numpy

    return numpy.asarray(x).view(numpy.ndarray)


DESCRIPTOR = Descriptor(
    name="fake",
    packages=("fakearrays",),
    array_types="fakearrays.FakeArray",
    framework="fakearrays",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import fakearrays\\nimport numpy", "fakearrays.FakeArray", "numpy.dtype[Any]"),
    numpy_dtypes=True,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    peers=("fakearrays",),
    limitations=(Limitation("*", "abs", "the fake framework's reason", test="test_abs"),),
    compiler=Compiler(data_dependent="fake: static shapes only"),
    benchmark_setup="import fakearrays as fw; x = fw.asarray([0.0, 1.0])",
)
'''

BACKEND = '''
"""The fake backend: NumPy's, on the fake framework's arrays."""
from typing import Any

import fakearrays
import numpy

from .._numpy._backend import NumPyBackend


class FakeBackend(NumPyBackend):
    name = "fake"

    def check_array(self, x: Any, function: str) -> None:
        plain = x.view(numpy.ndarray) if type(x) is fakearrays.FakeArray else x
        super().check_array(plain, function)


BACKEND = FakeBackend()
'''

CHECKS = '''
import numpy as np

import eagerpy_xp as ep
import fakearrays
from eagerpy_xp import _detect, _stubgen

assert ep.__file__.startswith(TREE), ep.__file__
assert _detect.BACKENDS[-1] == "fake", _detect.BACKENDS
assert "fakearrays.FakeArray" in _detect.SUPPORTED_TEXT

a = fakearrays.asarray([1.0, -2.0])
xp = ep.namespace(a)
assert xp.__name__ == "eagerpy_xp.native.fake", xp.__name__
assert xp.abs(a).tolist() == [1.0, 2.0]
wrapped = ep.astensor(a)
assert wrapped.__array_namespace__().__name__ == "eagerpy_xp.fake"
assert (-wrapped).raw.tolist() == [-1.0, 2.0]

stubs = {path.name: backend for path, (backend, _) in _stubgen.targets().items()}
assert stubs["fake.pyi"] == "fake"
assert "fakearrays.FakeArray" in _stubgen.render("fake", wrapped=False)

from eagerpy_xp import eagerpy as eagerpy_layer

tensor = eagerpy_layer.astensor(a)
assert type(tensor) is eagerpy_layer.tensor.NATIVE_CLASSES["fake"], type(tensor)
assert tensor._backend == "fake"

from conformance import compiled_cases, harness, known_failures

assert "fake" in harness.BACKENDS and harness.PEERS["fake"] == ("fakearrays",)
targets = harness.discover("fake", None, None)
assert [(t.flavour, t.device, t.unavailable) for t in targets] == [
    ("wrapped", "cpu", None), ("native", "cpu", None)], targets
native = targets[1].native(np.arange(3.0))
assert type(native) is fakearrays.FakeArray
assert type(targets[1].to_numpy(native)) is np.ndarray
assert [k.reason for k in known_failures.KNOWN_FAILURES if k.backend == "fake"] == [
    "the fake framework's reason"]
assert compiled_cases.COMPILER_LIMITS["fake"]["nonzero"] == "fake: static shapes only"

from benchmarks import per_op, startup

assert startup.SETUP["fake"].startswith("import fakearrays")
assert ("fake", "EagerPy") in startup.MISSING
assert per_op._plain("fake")["xp.exp(x)"] == "fw.exp(a)"
print("ok")
'''


def test_a_backend_is_its_package_and_one_registry_line(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(PACKAGE, tree / "eagerpy_xp", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "fakearrays.py").write_text(FRAMEWORK)
    backend = tree / "eagerpy_xp" / "native" / "_fake"
    backend.mkdir()
    (backend / "__init__.py").write_text(DESCRIPTOR)
    (backend / "_backend.py").write_text(BACKEND)
    # the two one-line namespace modules, as every backend has them
    for name in ("numpy.py", "native/numpy.py"):
        text = (PACKAGE / name).read_text().replace("NumPy", "the fake framework")
        (tree / "eagerpy_xp" / name.replace("numpy", "fake")).write_text(text)
    # the registry line
    detect = tree / "eagerpy_xp" / "_detect.py"
    text = detect.read_text()
    start = text.index("_PACKAGES: Final = (\n")
    end = text.index("\n)\n", start)
    detect.write_text(text[:end] + '\n    "eagerpy_xp.native._fake",' + text[end:])

    script = f"TREE = {str(tree)!r}\n" + textwrap.dedent(CHECKS)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300,
                          env={"PYTHONPATH": f"{tree}:{REPO}", "PATH": "/usr/bin:/bin",
                               "HOME": str(tmp_path)})  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]


def test_descriptor_facts_are_named_checked_and_read_only() -> None:
    import pytest

    from eagerpy_xp._descriptor import Compiler, Descriptor, Limitation, StubNames

    entry = Limitation("*", "abs", "why", test="test_abs")
    assert (entry.flavour, entry.function, entry.reason, entry.test) == ("*", "abs", "why", "test_abs")
    assert Limitation("native", "sum", "why").test == ""  # a default
    with pytest.raises(TypeError, match=r"missing \['reason'\]"):
        Limitation("*", "abs")
    with pytest.raises(TypeError, match=r"unknown facts \['tests'\]"):
        Limitation("*", "abs", "why", tests="x")
    with pytest.raises(TypeError):
        Limitation("*", "abs", "why", function="sum")  # given twice
    with pytest.raises(AttributeError, match="read-only"):
        entry.reason = "another"  # type: ignore[misc]
    described = Descriptor(name="x", packages=("x",), array_types="x.A", framework="x",
                           backend_module="x", stub=StubNames("import x", "x.A", "x.D"))  # fmt: skip
    assert described.compiler.data_dependent == "" and described.devices() == ["cpu"]
    assert described.problem() is None and described.lazy is False
    assert Compiler(data_dependent="why").vmap_refuses_data_dependent is False
