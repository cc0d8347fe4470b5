"""The typed public surface: generated stubs, checked against the run time and by mypy.

* the committed stubs are exactly what `eagerpy_xp._stubgen` writes;
* every stubbed name exists at run time with the same parameters (names, kinds,
  defaults), and every name of the standard and every extension is stubbed;
* mypy (strict), run on a user-style module, sees `Array`s and framework arrays where
  they are, and reports wrong arguments and unknown methods (fails if the surface goes
  back to ``Any``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import eagerpy_xp
from eagerpy_xp import _spec, _stubgen
from eagerpy_xp.extensions import NAMESPACE_NAMES

REPO = Path(eagerpy_xp.__file__).resolve().parent.parent


def test_committed_stubs_are_the_generators_output() -> None:
    targets = _stubgen.targets()
    assert {p.name for p in targets if p.parent.name == "eagerpy_xp"} >= {
        "numpy.pyi", "torch.pyi", "jax.pyi", "tensorflow.pyi"}  # fmt: skip
    for path, (backend, wrapped) in targets.items():
        assert path.exists(), f"{path} missing: run python -m eagerpy_xp._stubgen"
        assert path.read_text() == _stubgen.render(backend, wrapped), (
            f"{path} is out of date: run python -m eagerpy_xp._stubgen"
        )
    written = {*eagerpy_xp_dir().glob("*.pyi"), *(eagerpy_xp_dir() / "native").glob("*.pyi")}
    assert written == set(targets), "a stub without a module (or the reverse)"


def eagerpy_xp_dir() -> Path:
    return Path(eagerpy_xp.__file__).resolve().parent


def _stub_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Top-level defs as ``name`` and the methods of ``_Linalg``/``_Fft`` as
    ``linalg.name``/``fft.name``."""
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef) and node.name in ("_Linalg", "_Fft"):
            prefix = node.name[1:].lower()
            for method in node.body:
                assert isinstance(method, ast.FunctionDef)
                found[f"{prefix}.{method.name}"] = method
    return found


def _stub_parameters(node: ast.FunctionDef, method: bool) -> list[tuple[str, str, Any]]:
    a = node.args
    positional = [*a.posonlyargs, *a.args][1 if method else 0:]
    n_posonly = len(a.posonlyargs) - (1 if method and a.posonlyargs else 0)
    defaults = [inspect.Parameter.empty] * (len(positional) - len(a.defaults)) + [
        ast.literal_eval(d) for d in a.defaults]  # fmt: skip
    params = [(p.arg, "POSITIONAL_ONLY" if i < n_posonly else "POSITIONAL_OR_KEYWORD", d)
              for i, (p, d) in enumerate(zip(positional, defaults))]  # fmt: skip
    if a.vararg:
        params.append((a.vararg.arg, "VAR_POSITIONAL", inspect.Parameter.empty))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append((p.arg, "KEYWORD_ONLY",
                       inspect.Parameter.empty if d is None else ast.literal_eval(d)))  # fmt: skip
    if a.kwarg:
        params.append((a.kwarg.arg, "VAR_KEYWORD", inspect.Parameter.empty))
    return params


def _runtime_parameters(fn: Any) -> list[tuple[str, str, Any]] | None:
    try:
        sig = inspect.signature(fn)
    except ValueError:  # a builtin without a signature (NumPy's ufuncs)
        return None
    return [(p.name, p.kind.name, p.default) for p in sig.parameters.values()]


def _accepts(runtime: list[tuple[str, str, Any]], stub: list[tuple[str, str, Any]]) -> bool:
    """Whether a function with parameters ``runtime`` takes every call the stub allows: the
    stub's parameters in order, of the same kind and default, and any extra ones optional
    (NumPy's ufuncs add ``out``, ``where``, ...)."""
    empty = inspect.Parameter.empty
    if runtime[: len(stub)] != stub:
        return False
    return all(default is not empty or kind.startswith("VAR")
               for _, kind, default in runtime[len(stub):])  # fmt: skip


def _modules(backend: str) -> list[tuple[ModuleType, Path]]:
    pytest.importorskip(backend, reason=f"{backend} is not installed")
    return [(importlib.import_module(f"eagerpy_xp.{backend}"), eagerpy_xp_dir() / f"{backend}.pyi"),
            (importlib.import_module(f"eagerpy_xp.native.{backend}"),
             eagerpy_xp_dir() / "native" / f"{backend}.pyi")]  # fmt: skip


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_stubs_match_the_runtime(backend: str) -> None:
    for module, stub in _modules(backend):
        tree = ast.parse(stub.read_text())
        functions = _stub_functions(tree)
        variables = {n.target.id for n in tree.body
                     if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}  # fmt: skip
        compared = 0
        for name, node in functions.items():
            owner, _, attr = name.rpartition(".")
            runtime = getattr(getattr(module, owner) if owner else module, attr, None)
            assert runtime is not None, f"{module.__name__}.{name} is stubbed but missing"
            expected = _runtime_parameters(runtime)
            if expected is not None:
                stubbed = _stub_parameters(node, method=bool(owner))
                wrapped = not module.__name__.startswith("eagerpy_xp.native.")
                assert stubbed == expected if wrapped else _accepts(expected, stubbed), (
                    f"{module.__name__}.{name}: stub {stubbed} and runtime {expected} differ")
                compared += 1
        assert compared > 150, f"{module.__name__}: only {compared} signatures compared"
        for name in variables:
            if not name.startswith("_") or name == "__array_api_version__":
                assert hasattr(module, name), f"{module.__name__}.{name} is stubbed but missing"
        # and the reverse: every name of the standard (and every extension) is stubbed
        required = {*_spec.FUNCTIONS, *NAMESPACE_NAMES, "__array_namespace_info__",
                    *(f"linalg.{n}" for n in _spec.LINALG), *(f"fft.{n}" for n in _spec.FFT)}
        assert required - set(functions) - {"norms", "lib"} == set()
        assert {*_spec.DTYPES, *_spec.CONSTANTS, "linalg", "fft", "norms", "lib",
                "__array_api_version__"} <= variables  # fmt: skip
        assert set(module.__all__) - set(functions) - variables == set()


USER_MODULE = '''\
import torch

import eagerpy_xp as ep
import eagerpy_xp.native.torch as nxp
import eagerpy_xp.torch as xp

t = torch.ones(3)
a = ep.astensor(t)
b = xp.asarray(t)
reveal_type(xp.add(a, b))  # R:eagerpy_xp._array.Array
reveal_type(nxp.add(t, t))  # R:torch._tensor.Tensor
reveal_type(a + 1.0)  # R:eagerpy_xp._array.Array
reveal_type(2 * a)  # R:eagerpy_xp._array.Array
reveal_type(a < b)  # R:eagerpy_xp._array.Array
reveal_type(a == b)  # R:eagerpy_xp._array.Array
reveal_type(-a)  # R:eagerpy_xp._array.Array
reveal_type(a.sum(axis=0).sqrt())  # R:eagerpy_xp._array.Array
reveal_type(a.square().sum(axis=0, keepdims=True).argmax(keepdims=True))  # R:eagerpy_xp._array.Array
reveal_type(xp.linalg.slogdet(a))  # R:tuple[eagerpy_xp._array.Array, eagerpy_xp._array.Array]
reveal_type(nxp.fft.fft(t))  # R:torch._tensor.Tensor
reveal_type(xp.softmax(a))  # R:eagerpy_xp._array.Array
reveal_type(xp.norms.l2(a))  # R:eagerpy_xp._array.Array
reveal_type(ep.value_and_grad(lambda x: x.sum(), a))  # R:tuple[eagerpy_xp._array.Array, eagerpy_xp._array.Array]
reveal_type(ep.value_and_grad(lambda x: (x.sum(), x), t, has_aux=True))  # R:tuple[torch._tensor.Tensor, Any, torch._tensor.Tensor]
reveal_type(ep.grad(lambda x: x.sum(), a))  # R:eagerpy_xp._array.Array
xp.sum(a, axis="zero")  # E:arg-type
xp.reshape(a)  # E:call-arg
a.no_such_method()  # E:attr-defined
a + "text"  # E:arg-type
nxp.sum(t, keepdims=1.5)  # E:arg-type
'''


def test_mypy_sees_the_typed_surface(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the user module types torch tensors")
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")
    user = tmp_path / "user.py"
    user.write_text(USER_MODULE)
    config = tmp_path / "mypy.ini"
    config.write_text(textwrap.dedent(f"""\
        [mypy]
        strict = True
        mypy_path = {REPO}
        cache_dir = {tmp_path / "mypy_cache"}
        """))
    stdout, stderr, _ = api.run(["--config-file", str(config), "--show-error-codes",
                                 "--no-error-summary", "--hide-error-context", str(user)])  # fmt: skip
    assert "eagerpy_xp" in stdout or stdout == "", stderr
    got: dict[int, list[str]] = {}
    for line in stdout.splitlines():  # only the user module's lines, not the library's
        if line.startswith(str(user)):
            _, number, rest = line.split(":", 2)
            got.setdefault(int(number), []).append(rest.strip())
    expected_lines = set()
    for number, text in enumerate(USER_MODULE.splitlines(), start=1):
        marker = text.rpartition("  # ")[2]
        if marker.startswith("R:"):
            expected_lines.add(number)
            assert got.get(number) == [f'note: Revealed type is "{marker[2:]}"'], (number, text)
        elif marker.startswith("E:"):
            expected_lines.add(number)
            messages = got.get(number, [])
            assert len(messages) == 1 and messages[0].startswith("error:") and \
                messages[0].endswith(f"[{marker[2:]}]"), (number, text, messages)  # fmt: skip
    assert set(got) == expected_lines, {n: got[n] for n in set(got) - expected_lines}
