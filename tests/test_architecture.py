"""The layers of eagerpy_xp hold: every import of every module is read (those inside
functions and under ``TYPE_CHECKING`` included) and checked against the layer rules of
``docs/architecture.md``; the import graph has no cycle, and neither has the conformance
suite's (``conformance/``)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import eagerpy_xp
from eagerpy_xp._detect import REGISTRY

ROOT = Path(eagerpy_xp.__file__).parent
PACKAGE = "eagerpy_xp"
SUITE = ROOT.parent / "conformance"
#: Frameworks only a backend may import (NumPy is the library's one dependency).
FRAMEWORKS = {p for name, r in REGISTRY.items() if name != "numpy" for p in r.packages}

#: The NumPy backend, which a backend whose chunks are NumPy arrays (Dask) may build on.
CHUNK_BACKEND = "eagerpy_xp.native._numpy"

#: The shared facts every layer may read.
FACTS = {"eagerpy_xp._spec", "eagerpy_xp._dtypes", "eagerpy_xp._devices", "eagerpy_xp._detect",
         "eagerpy_xp._descriptor"}  # fmt: skip


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(root: Path = ROOT) -> dict[str, Path]:
    return {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}


MODULES = _modules()


def _imports(name: str, path: Path, modules: dict[str, Path] = MODULES,
             package: str = PACKAGE, tree: ast.Module | None = None) -> set[str]:  # fmt: skip
    """Every module of the package or top-level package that ``name`` imports, anywhere
    (in ``tree``, where given: part of the module)."""
    if tree is None:
        tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking_block(block)
                   for stmt in block.body for n in ast.walk(stmt)}  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if id(node) in typing_only:  # a framework named for annotations only
                found.update(a.name for a in node.names if a.name.startswith(package))
                continue
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
                if id(node) in typing_only and not target.startswith(package):
                    continue  # a framework named for annotations only
            submodules = [f"{target}.{a.name}" for a in node.names
                          if f"{target}.{a.name}" in modules]  # fmt: skip
            # `from . import _spec` imports the submodule (its package is already loaded)
            found.update(submodules if len(submodules) == len(node.names) else [target])
            found.update(submodules)
    result: set[str] = set()
    for target in found:
        if target.startswith(package):
            # the deepest known module the import names
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target != name:
                result.add(target)
        else:
            result.add(target.partition(".")[0])
    return result


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _loaded(name: str, path: Path) -> set[str]:
    """What importing module ``name`` imports: `_imports` of its statements outside
    functions (a function's imports run when it is called) and ``TYPE_CHECKING`` blocks."""
    tree = ast.parse(path.read_text(), str(path))
    deferred = (ast.FunctionDef, ast.AsyncFunctionDef)
    tree.body = [n for n in tree.body if not isinstance(n, deferred)
                 and not _is_type_checking_block(n)]  # fmt: skip
    return _imports(name, path, tree=tree)


def _backend_package(module: str) -> str | None:
    """``eagerpy_xp.native._torch`` for any module of the torch backend, else None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "native" and parts[2].startswith("_") \
            and parts[2] != "_base":  # fmt: skip
        return ".".join(parts[:3])
    return None


#: module -> what importing it imports (for the backends' descriptor modules).
LOADED = {name: _loaded(name, path) for name, path in MODULES.items()
          if _backend_package(name) == name}  # fmt: skip


def _is_base(module: str) -> bool:
    return module == "eagerpy_xp.native._base" or module.startswith("eagerpy_xp.native._base.")


def _namespace_modules() -> set[str]:
    names = set()
    for backend in REGISTRY:
        names.update({f"eagerpy_xp.{backend}", f"eagerpy_xp.native.{backend}"})
    return names & set(MODULES)


def test_every_registered_backend_has_its_modules() -> None:
    for backend in REGISTRY:
        assert f"eagerpy_xp.{backend}" in MODULES
        assert f"eagerpy_xp.native.{backend}" in MODULES
        assert f"eagerpy_xp.native._{backend}" in MODULES
        assert REGISTRY[backend].backend_module in MODULES


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of ``graph`` (module -> modules it imports), or None."""
    internal = {m: {t for t in ts if t in graph} for m, ts in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(internal[m]):
            if state.get(t) == 1:
                return [*stack[stack.index(t):], t]
            if t not in state and (cycle := visit(t)) is not None:
                return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(internal):
        if m not in state and (cycle := visit(m)) is not None:
            return cycle
    return None


def test_no_import_cycle() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def suite_graph(root: Path = SUITE) -> dict[str, set[str]]:
    """The conformance suite's import graph (its own modules only)."""
    modules = _modules(root)
    return {name: {t for t in _imports(name, path, modules, "conformance") if t in modules}
            for name, path in modules.items()}  # fmt: skip


def test_the_conformance_suite_has_no_import_cycle() -> None:
    graph = suite_graph()
    assert "conformance.recorder" in graph and "conformance.conftest" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in the conformance suite: " + " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle_through_an_import_inside_a_function(
        tmp_path: Path) -> None:  # fmt: skip
    """The suite's old cycle, rebuilt: conftest -> plugin at import time, plugin ->
    recorder and recorder -> conftest inside functions."""
    package = tmp_path / "conformance"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "conftest.py").write_text("from .plugin import DEFAULT\n")
    (package / "plugin.py").write_text("DEFAULT = 1\ndef configure():\n"
                                       "    from .recorder import Recorder\n")
    (package / "recorder.py").write_text("class Recorder:\n    def finish(self):\n"
                                         "        from .conftest import targets\n")
    (package / "harness.py").write_text("import numpy\n")
    cycle = find_cycle(suite_graph(package))
    assert cycle == ["conformance.conftest", "conformance.plugin", "conformance.recorder",
                     "conformance.conftest"]


#: What a backend package's ``__init__`` (its descriptor, which the registry imports with
#: ``import eagerpy_xp``) may import besides the standard library.
DESCRIPTOR_IMPORTS = {"eagerpy_xp._descriptor"}


def _descriptor_violations(module: str, loaded: set[str]) -> list[str]:
    """A backend package's ``__init__`` (its descriptor) imports, when it is imported,
    nothing but `DESCRIPTOR_IMPORTS` and the standard library."""
    if _backend_package(module) != module:
        return []
    return [f"descriptor module {module} imports {t}" for t in sorted(loaded)
            if t not in DESCRIPTOR_IMPORTS and (t.startswith(PACKAGE) or t in FRAMEWORKS
                                                or t == "numpy")]  # fmt: skip


def _violations(module: str, targets: set[str]) -> list[str]:
    bad = []
    own = _backend_package(module)
    for t in sorted(targets):
        if t in FRAMEWORKS and own is None:
            bad.append(f"{module} imports the framework {t}; only a backend may")
        if not t.startswith(PACKAGE) or t in FACTS:
            continue
        if module in FACTS:
            bad.append(f"{module} (shared facts) imports {t}")
        elif own is not None or _is_base(module) or module == "eagerpy_xp.native":
            if not (_is_base(t) or (own is not None and t.startswith(own))
                    or (own is not None and t.startswith(CHUNK_BACKEND))):  # fmt: skip
                bad.append(f"backend module {module} imports {t}")
        elif module in _namespace_modules():
            if t != "eagerpy_xp._assembly":
                bad.append(f"namespace module {module} imports {t}; only the assembly")
        else:
            if _backend_package(t) is not None or t in _namespace_modules():
                bad.append(f"generic module {module} imports the backend module {t}")
    return bad


def test_layers_hold() -> None:
    problems = [v for m, ts in sorted(GRAPH.items()) for v in _violations(m, ts)]
    problems += [v for m, ts in sorted(LOADED.items()) for v in _descriptor_violations(m, ts)]
    assert problems == []


@pytest.mark.parametrize(
    ("module", "imports", "expected"),
    [
        ("eagerpy_xp.native._torch._core", {"eagerpy_xp._array"}, "backend module"),
        ("eagerpy_xp.native._base.core", {"eagerpy_xp.extensions"}, "backend module"),
        ("eagerpy_xp.native._jax", {"eagerpy_xp.native._torch"}, "backend module"),
        ("eagerpy_xp._wrap", {"torch"}, "framework"),
        ("eagerpy_xp._dtypes", {"eagerpy_xp._array"}, "shared facts"),
        ("eagerpy_xp.torch", {"eagerpy_xp._wrap"}, "namespace module"),
        ("eagerpy_xp.extensions.helpers", {"eagerpy_xp.native._jax"}, "generic module"),
        ("eagerpy_xp.native._mlx", {"mlx"}, "descriptor module"),
        ("eagerpy_xp.native._dask", {"numpy"}, "descriptor module"),
        ("eagerpy_xp.native._torch", {"eagerpy_xp.native._torch._backend"}, "descriptor module"),
        ("eagerpy_xp.native._jax", {"eagerpy_xp.native._base"}, "descriptor module"),
    ],
)
def test_the_rules_catch_a_forbidden_edge(module: str, imports: set[str], expected: str) -> None:
    found = _violations(module, imports) + _descriptor_violations(module, imports)
    assert any(expected in v for v in found)


def test_imports_inside_functions_are_read(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from ._array import Array\n"
                      "if TYPE_CHECKING:\n    from .extensions import bind\n    import torch\n"
                      "    import eagerpy_xp._wrap\n")  # fmt: skip
    found = _imports("eagerpy_xp.m", source)
    assert found >= {"eagerpy_xp._array", "eagerpy_xp.extensions", "eagerpy_xp._wrap"}
    assert "torch" not in found  # a framework named for annotations only is no dependency


@pytest.mark.parametrize("name", list(REGISTRY))
def test_registry_says_which_backends_differentiate(name: str) -> None:
    if REGISTRY[name].packages[0] not in {"numpy", "torch", "jax", "tensorflow"}:
        pytest.importorskip(REGISTRY[name].packages[0])  # an optional framework
    backend = importlib.import_module(f"eagerpy_xp.native.{name}").__backend__
    assert (backend.autodiff is not None) == REGISTRY[name].differentiable


def test_a_backend_without_a_namespace_must_define_what_defaults_would_delegate() -> None:
    from eagerpy_xp.native._base import Backend
    from eagerpy_xp.native._base.hooks import NumPyDtypes

    class Bare(NumPyDtypes, Backend):
        name = "bare"
        native_types = (object,)

        def abs(self, x: object, /) -> object:
            return x

    with pytest.raises(NotImplementedError) as info:
        Bare()
    message = str(info.value)
    assert "bare backend" in message and "acos" in message and "linalg.cholesky" in message
    assert "fft.fft" in message and ", abs," not in message  # defined by the backend


def test_no_backend_defines_a_function_by_setattr() -> None:
    for name, path in MODULES.items():
        if name.startswith("eagerpy_xp.native"):
            tree = ast.parse(path.read_text())
            calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) and n.func.id == "setattr"]  # fmt: skip
            assert calls == [], f"{name} sets attributes with setattr"


# -- one backend, one place ---------------------------------------------------------------
#: Files outside the backends' packages that may name a framework in code (a string or an
#: import; comments and docstrings aside), and why.
NAMING_ALLOWED: dict[str, str] = {
    # EagerPy 0.30's API names its frameworks: PyTorchTensor, ep.modules.torch, ...
    "eagerpy_xp/eagerpy/": "torch jax tensorflow",
    # baselines written in each framework's own API, to compare with
    "benchmarks/compiled.py": "torch jax tensorflow",
    "benchmarks/overhead.py": "torch jax tensorflow",
    "benchmarks/jit.py": "jax",
    # a benchmark of Dask alone (its scheduler, chunks and graph sizes)
    "benchmarks/dask_scale.py": "dask",
    # the export API is ndonnx's own (DESIGN.md: `export` traces through the ndonnx backend)
    "eagerpy_xp/_export.py": "ndonnx",
    # scikit-learn's own namespace params (its list, not ours)
    "conformance/clients/_plugin.py": "torch",
}


def _named_frameworks(path: Path, frameworks: dict[str, tuple[str, ...]]) -> set[str]:
    """The frameworks ``path`` names in a string constant (not a docstring) or an import."""
    import re

    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}  # fmt: skip
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                texts.append(node.value)
        elif isinstance(node, ast.Import):
            texts += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            texts.append(node.module or "")
    return {name for name, words in frameworks.items() for text in texts
            if any(re.search(rf"(?<![\w.]){w}(?!\w)", text) for w in words)}  # fmt: skip


def test_no_code_outside_a_backend_names_its_framework() -> None:
    """Outside a backend's package, ``eagerpy_xp/``, ``conformance/`` and ``benchmarks/``
    ask the backend's descriptor: only the registry's list of packages and the files of
    `NAMING_ALLOWED` name a framework (NumPy, the library's one dependency, aside)."""
    frameworks = {name: (name, *d.packages) for name, d in REGISTRY.items() if name != "numpy"}
    found: dict[str, set[str]] = {}
    for folder in (ROOT, SUITE, ROOT.parent / "benchmarks"):
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(ROOT.parent).as_posix()
            backend = _backend_package(_module_name(path)) if folder == ROOT else None
            allowed = set(next((v for k, v in NAMING_ALLOWED.items()
                                if relative.startswith(k)), "").split())  # fmt: skip
            if backend is not None:
                allowed.add(backend.rpartition("._")[2])
            if path.stem in frameworks and path.parent in (ROOT, ROOT / "native"):
                allowed.add(path.stem)  # a backend's two namespace modules
            names = _named_frameworks(path, frameworks) - allowed
            if names:
                found[relative] = names
    assert found == {}


def test_the_naming_check_finds_a_framework_named_in_a_string(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('"""Docstrings may say mlx."""\nBACKENDS = ("numpy", "mlx")\n'
                      "def f():\n    import dask.array\n")  # fmt: skip
    assert _named_frameworks(source, {"mlx": ("mlx",), "dask": ("dask",), "jax": ("jax",)}) \
        == {"mlx", "dask"}  # fmt: skip


# -- one layout ---------------------------------------------------------------------------
#: The module names of a backend package: one per chapter (a backend lacking a chapter
#: lacks the file), the descriptor (``__init__``) and the composition (``_backend``).
CHAPTERS = {
    "__init__": "the descriptor (`eagerpy_xp._descriptor.Descriptor`)",
    "_backend": "the backend class, composed of the chapters, and BACKEND",
    "_core": "the hooks and helpers every chapter builds on",
    "_elementwise": "element-wise functions",
    "_creation": "creation and data-type functions",
    "_indexing": "indexing, mutation, take",
    "_functions": "the other chapters (manipulation, searching, sets, sorting, statistics)",
    "_subnamespaces": "linalg, fft, __array_namespace_info__",
    "_autodiff": "the autodiff hook",
    "_compile": "the compile and vectorize hooks",
}
#: Helper modules a backend has besides its chapters, and what they hold.
HELPERS = {
    "_tensorflow": {"_eager": "the eager fast paths' raw ops", "_ranks": "ops beyond 8 dims"},
    "_dask": {"_chunks": "chunk-by-chunk helpers", "_kept": "small values kept once computed"},
    "_ndonnx": {"_export": "tracing a function into an ONNX model, and running one"},
}
#: The most lines a module of the library may have.
MAX_LINES = 700


def _backend_packages() -> list[Path]:
    return sorted(p for p in (ROOT / "native").iterdir()
                  if p.is_dir() and p.name.startswith("_") and p.name != "_base"
                  and (p / "__init__.py").exists())  # fmt: skip


def test_every_backend_package_has_the_same_layout() -> None:
    assert {p.name for p in _backend_packages()} == {f"_{name}" for name in REGISTRY}
    for package in _backend_packages():
        names = {p.stem for p in package.glob("*.py")}
        assert {"__init__", "_backend", "_core"} <= names, package.name
        assert names - set(CHAPTERS) == set(HELPERS.get(package.name, {})), package.name


def test_no_module_is_too_long() -> None:
    """No module of the library is over `MAX_LINES` lines (a longer one is split along a
    seam of its own: a backend's chapters, `Array`'s bases, EagerPy's files)."""
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}  # fmt: skip
    assert long == {}


#: The generic factories of element-wise functions (`native/_base/elementwise.py`).
FACTORIES = {"unary", "binary"}


def _own_factories(source: str) -> list[str]:
    """What makes a backend's element-wise functions other than the generic factories: a
    function of the module that wraps a function in `translated` (what a factory of
    functions of the standard does), and an element-wise function of the standard that a
    class assigns from anything but ``elementwise.unary(...)``/``elementwise.binary(...)``."""
    from eagerpy_xp.native._base.elementwise import BINARY, UNARY

    found = []
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            if any(isinstance(n, ast.Name) and n.id == "translated" for n in ast.walk(node)):
                found.append(f"{node.name} wraps a function in translated")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if not isinstance(item, ast.Assign):
                    continue
                names = [t.id for t in item.targets if isinstance(t, ast.Name)]
                call = item.value
                made = (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and isinstance(call.func.value, ast.Name)
                        and call.func.value.id == "elementwise" and call.func.attr in FACTORIES)
                found += [f"{n} is not made by elementwise.unary/binary" for n in names
                          if n in UNARY + BINARY and not made]  # fmt: skip
    return found


def test_element_wise_functions_come_from_the_generic_factories() -> None:
    """One factory per kind of element-wise function, in the generic layer: no backend's
    ``_elementwise.py`` has one of its own (docs/architecture.md, "Element-wise
    functions: two factories and a lane"); a function it gets wrong is a ``def``."""
    for package in _backend_packages():
        path = package / "_elementwise.py"
        if path.exists():
            assert _own_factories(path.read_text()) == [], package.name


def test_the_factory_check_finds_a_factory_of_a_backend() -> None:
    own = """
def _unary(name):
    def method(self, x, /):
        return getattr(torch, name)(x)
    return translated(method)

class Elementwise:
    exp = _unary("exp")
    sin = elementwise.unary("sin", torch.sin, _LANE)
    cos = torch.cos
"""
    assert _own_factories(own) == ["_unary wraps a function in translated",
                                   "exp is not made by elementwise.unary/binary",
                                   "cos is not made by elementwise.unary/binary"]  # fmt: skip


def test_one_operand_check_with_one_signature() -> None:
    """``check_operands(self, function, *operands)`` is the one operand check: no backend
    names another (``_operands``, ``_check_operands``) or gives it another signature."""
    for name, path in MODULES.items():
        if not name.startswith("eagerpy_xp.native"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                assert node.name not in ("_operands", "_check_operands"), (name, node.name)
                if node.name == "check_operands":
                    args = node.args
                    assert [a.arg for a in args.args] == ["self", "function"], name
                    assert args.vararg is not None and args.vararg.arg == "operands", name
                    assert not args.kwonlyargs, name
