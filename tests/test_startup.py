"""Eager use loads no compiler: importing eagerpy_xp, building a backend's namespaces and
calling its functions and operators imports nothing of the frameworks' compilers
(``torch._dynamo``, ``torch._inductor``, ``jax.experimental``, ...) that the framework
had not imported itself, and leaves ``os.environ`` as it was; compiling then finds
everything it needs (Dynamo's handlers for `Array`, added when Dynamo is imported).

Each check runs in a fresh process, where nothing was imported before (no timing here:
``python -m benchmarks.startup`` measures the first call).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

import pytest

#: How each framework is imported and an array made, before eagerpy_xp is imported.
SETUP: dict[str, str] = {
    "numpy": "import numpy as fw; x = fw.linspace(0.0, 1.0, 4, dtype=fw.float32)",
    "torch": "import torch as fw; x = fw.linspace(0.0, 1.0, 4)",
    "jax": "import jax.numpy as fw; x = fw.linspace(0.0, 1.0, 4, dtype=fw.float32)",
    "tensorflow": "import tensorflow as fw; x = fw.linspace(0.0, 1.0, 4)",
    "dask": "import dask.array as fw; x = fw.linspace(0.0, 1.0, 4, dtype='float32', chunks=2)",
    "mlx": "import mlx.core as fw; x = fw.linspace(0.0, 1.0, 4)",
}
MODULES = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
           "dask": "dask.array", "mlx": "mlx.core"}  # fmt: skip
#: What an eager call must not import (compilers, tracers and transforms it does not use).
COMPILER_MODULES = ("torch._dynamo", "torch._inductor", "torch._functorch.aot_autograd",
                    "jax.experimental", "tensorflow.python.autograph.impl.api", "mlx.nn")  # fmt: skip

_EAGER = """
import json, os, sys
{setup}
env = dict(os.environ)
modules = set(sys.modules)
import eagerpy_xp as ep
xp = ep.namespace(x)
r = xp.sin(x)
r = xp.sum(xp.multiply(x, 2.0))
a = ep.astensor(x)
w = a.__array_namespace__()
r = w.exp(a * 2.0 - 1) + (-a) ** 2
r = a < 0.5
new = set(sys.modules) - modules
print(json.dumps({{
    "compilers": sorted(m for m in new
                        if any(m == c or m.startswith(c + ".") for c in {compilers!r})),
    "environ": sorted(k for k in set(env) | set(os.environ) if env.get(k) != os.environ.get(k)),
    "numpy": "numpy" in new,
}}))
"""


def _run(program: str) -> dict[str, Any]:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(program)], capture_output=True,
                          text=True, timeout=600, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("backend", list(SETUP))
def test_eager_use_imports_no_compiler_and_keeps_the_environment(backend: str) -> None:
    """Also: eager use imports NumPy only where the framework had imported it (all but
    MLX do): MLX's namespace is built, and its functions and operators run, without it
    (about 60-120 ms of a first call)."""
    pytest.importorskip(MODULES[backend], reason=f"{backend} is not installed")
    result = _run(_EAGER.format(setup=SETUP[backend], compilers=COMPILER_MODULES))
    assert result == {"compilers": [], "environ": [], "numpy": False}


def test_torch_compile_of_arrays_gets_dynamos_handlers_when_dynamo_loads() -> None:
    """The torch backend is built before Dynamo is imported; a bare
    ``torch.compile(fullgraph=True)`` of a function applying ``~`` and ``@`` to `Array`s
    (which torch 2.13's Dynamo cannot trace without the backend's handlers) then traces
    one graph, and so does `eagerpy_xp.jit`."""
    pytest.importorskip("torch", reason="torch is not installed")
    result = _run("""
        import json, sys
        import torch
        import eagerpy_xp as ep
        a = ep.astensor(torch.linspace(-1.0, 1.0, 6).reshape(2, 3))
        b = ep.astensor(torch.tensor([True, False]))
        before = "torch._dynamo" in sys.modules

        def f(x, m):
            return x @ x.mT, ~m

        compiled = torch.compile(f, fullgraph=True, backend="eager")
        y, n = compiled(a, b)
        z = ep.jit(lambda x: (x @ x.mT) * 2.0, backend="eager")(a)
        print(json.dumps({
            "dynamo_before": before,
            "types": [type(y).__name__, type(n).__name__, type(z).__name__],
            "y": y.raw.tolist(), "n": n.raw.tolist(), "z": z.raw.tolist(),
            "finders": [type(f).__name__ for f in sys.meta_path],
        }))
    """)
    t = [[-1.0, -0.6, -0.2], [0.2, 0.6, 1.0]]
    gram = [[sum(p * q for p, q in zip(r, s)) for s in t] for r in t]
    assert result["dynamo_before"] is False
    assert result["types"] == ["Array", "Array", "Array"]
    assert result["n"] == [False, True]
    for got, want, k in ((result["y"], gram, 1.0), (result["z"], gram, 2.0)):
        for row, want_row in zip(got, want):
            assert row == pytest.approx([k * w for w in want_row], abs=1e-6)
    assert "_WhenImported" not in result["finders"]  # it left once Dynamo was taught


def test_dynamo_loaded_before_the_backend_is_taught_at_once() -> None:
    """Where Dynamo is imported before the torch backend is built, the handlers are added
    when it is built (no finder waits for an import that already happened)."""
    pytest.importorskip("torch", reason="torch is not installed")
    result = _run("""
        import json, sys
        import torch, torch._dynamo
        import eagerpy_xp as ep
        b = ep.astensor(torch.tensor([True, False]))
        n = torch.compile(lambda m: ~m, fullgraph=True, backend="eager")(b)
        print(json.dumps({"n": n.raw.tolist(), "type": type(n).__name__,
                          "finders": [type(f).__name__ for f in sys.meta_path]}))
    """)
    assert result == {"n": [False, True], "type": "Array",
                      "finders": [f for f in result["finders"] if f != "_WhenImported"]}


_COLLECTIONS = """
import gc, json
import numpy as np
import eagerpy_xp as ep
from eagerpy_xp import _assembly
x = np.linspace(0.0, 1.0, 4, dtype=np.float32)
building = []
def marked(build):
    def run(*args):
        building.append(build)
        try:
            return build(*args)
        finally:
            building.pop()
    return run
_assembly._assemble_native = marked(_assembly._assemble_native)
_assembly.build = marked(_assembly.build)
{before}
gc.set_threshold(1, 1, 1)  # any allocation would start a collection, the full one too
collections = []
gc.callbacks.append(lambda phase, info: collections.append(info["generation"])
                    if phase == "start" and building else None)
xp = ep.namespace(x)  # the native namespace is built here
w = ep.astensor(x).__array_namespace__()  # and the wrapped one
gc.callbacks.clear()
print(json.dumps({{"collections": collections, "enabled": gc.isenabled()}}))
"""


@pytest.mark.parametrize("enabled", [True, False])
def test_namespace_builds_pause_the_collector_and_restore_it(enabled: bool) -> None:
    """Building a backend's namespaces starts no garbage collection, even with thresholds
    that would start one at every allocation (`_assembly._uncollected`: the objects a
    build makes are all kept, and a full collection after a framework's import walks
    millions of objects for nothing), and leaves the collector as it was: on stays on,
    off stays off."""
    result = _run(_COLLECTIONS.format(before="" if enabled else "gc.disable()"))
    assert result == {"collections": [], "enabled": enabled}
