"""docs/architecture.md says what the code is: its layer table names every module of
``eagerpy_xp/`` and nothing that is not there, every import goes to the importer's layer
or one below it, every registered backend has the package and namespace modules the page
describes, and every file, module and name the page cites in backquotes exists.

A page that drifts from the code fails here: move a module, rename a helper or add a
backend, and the page has to say so.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from eagerpy_xp._detect import BACKENDS
from tests.test_architecture import GRAPH, MODULES

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "eagerpy_xp"
PAGE = REPO / "docs" / "architecture.md"
TEXT = PAGE.read_text(encoding="utf-8")
#: A placeholder the page writes for "each registered backend".
PLACEHOLDER = "<backend>"


def _layer_table(text: str = TEXT) -> list[tuple[int, list[str]]]:
    """The rows of the page's layer table: (layer, the paths of its modules column)."""
    section = text.partition("\n## The layers\n")[2].partition("\n## ")[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].isdigit():
            rows.append((int(cells[0]), re.findall(r"`([^`]+)`", cells[1])))
    return rows


def _expand(entry: str) -> list[str]:
    """An entry of the table for every registered backend where it names ``<backend>``."""
    if PLACEHOLDER not in entry:
        return [entry]
    return [entry.replace(PLACEHOLDER, name) for name in BACKENDS]


def _exists(entry: str) -> bool:
    """A package entry ends in ``/`` and is a folder with an ``__init__.py``; a module
    entry is a file."""
    if entry.endswith("/"):
        return (PACKAGE / entry / "__init__.py").is_file()
    return (PACKAGE / entry).is_file()


def _layers() -> dict[str, int]:
    """Each entry of the table (expanded) -> its layer."""
    layers: dict[str, int] = {}
    for layer, entries in _layer_table():
        for entry in entries:
            for path in _expand(entry):
                assert path not in layers, f"{path} is in the layer table twice"
                layers[path] = layer
    return layers


def _layer_of(relative: str, layers: dict[str, int]) -> int | None:
    """The layer of a file (a path under eagerpy_xp/): its own entry, else that of the
    deepest package holding it."""
    if relative in layers:
        return layers[relative]
    parts = relative.split("/")[:-1]
    while parts:
        folder = "/".join(parts) + "/"
        if folder in layers:
            return layers[folder]
        parts.pop()
    return None


def _relative(module: str) -> str:
    return MODULES[module].relative_to(PACKAGE).as_posix()


def test_the_table_is_read() -> None:
    layers = _layers()
    assert len(layers) > 10 and min(layers.values()) == 0
    assert "native/_base/" in layers and "_array.py" in layers


def test_every_entry_of_the_table_exists() -> None:
    missing = sorted(path for path in _layers() if not _exists(path))
    assert not missing, f"the layer table names what is not there: {missing}"


def test_every_module_is_in_the_table() -> None:
    layers = _layers()
    absent = sorted(_relative(m) for m in MODULES if _layer_of(_relative(m), layers) is None)
    assert not absent, f"modules the layer table of docs/architecture.md lacks: {absent}"


def test_every_import_goes_to_the_same_layer_or_below() -> None:
    layers = _layers()
    layer = {m: _layer_of(_relative(m), layers) for m in MODULES}
    upward = sorted(f"{m} (layer {layer[m]}) imports {t} (layer {layer[t]})"
                    for m, targets in GRAPH.items() for t in targets
                    if (layer.get(t) or 0) > (layer[m] or 0))  # fmt: skip
    assert not upward, upward


@pytest.mark.parametrize("name", BACKENDS)
def test_every_registered_backend_has_what_the_page_says(name: str) -> None:
    """Its backend (a package or a module) and its two namespace modules, where the layer
    table puts them."""
    layers = _layers()
    backend = [p for p in (f"native/_{name}/", f"native/_{name}.py") if p in layers]
    assert backend, f"the layer table names no backend module or package for {name}"
    for path in (*backend, f"{name}.py", f"native/{name}.py"):
        assert path in layers, f"{path}: not in the layer table"
        assert _exists(path), f"eagerpy_xp/{path} is missing"


def _package_table(text: str = TEXT) -> dict[str, set[str]]:
    """The page's table of what each backend package holds: backend -> its modules (the
    page lists them besides those its header names, which every package has)."""
    section = text.partition("\n## A backend\n")[2].partition("\n## ")[0]
    rows, common = {}, set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] == "backend":
            common = set(re.findall(r"`(\w+\.py)`", cells[1]))
        elif len(cells) == 2 and cells[0] in BACKENDS:
            rows[cells[0]] = common | set(re.findall(r"`(\w+\.py)`", cells[1]))
    return rows


def test_the_page_lists_the_modules_of_every_backend_package() -> None:
    table = _package_table()
    packages = {n for n in BACKENDS if (PACKAGE / "native" / f"_{n}" / "__init__.py").exists()}
    assert set(table) == packages, "the page's table of backend packages"
    for name, listed in table.items():
        actual = {p.name for p in (PACKAGE / "native" / f"_{name}").glob("*.py")}
        assert listed == actual, f"{name}: the page lists {sorted(listed - actual)} that are " \
            f"not there and lacks {sorted(actual - listed)}"


# Names the page cites in backquotes: files, modules and module-level or class attributes.

_PATH = re.compile(r"^[\w./<>-]+\.(?:py|pyi|md|json|toml|sh)$|^[\w./<>-]+/$")
_DOTTED = re.compile(r"^_?[A-Za-z]\w*(?:\.\w+)+$")


def _cited(text: str = TEXT) -> set[str]:
    """Every backquoted token of the page outside code blocks."""
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return {" ".join(token.split()) for token in re.findall(r"`([^`]+)`", prose)}


def _path_exists(token: str) -> bool:
    """A path of the repository, of the package (``native/_base/core.py``) or of docs/
    (``errors.md``): a folder where it ends in ``/``, else a file; a bare module name
    (``_core.py``) is a module somewhere in the package."""
    for path in _expand(token):
        if "/" not in path and any(PACKAGE.rglob(path)):
            continue  # a module named in a table of modules (`_core.py`)
        places = (REPO / path, PACKAGE / path, REPO / "docs" / path)
        if not any(p.is_dir() if path.endswith("/") else p.is_file() for p in places):
            return False
    return True


def test_every_file_the_page_names_exists() -> None:
    paths = {t for t in _cited() if _PATH.match(t) and " " not in t}
    assert "tests/test_architecture.py" in paths
    missing = sorted(p for p in paths if not _path_exists(p))
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


class _Defined:
    """What a module defines at its top level (functions, classes, assignments, imports),
    and for each class what its body defines."""

    def __init__(self, module: str) -> None:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        self.names = self._members(tree.body)
        self.classes: dict[str, set[str]] = {}
        self.bases: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                # the class body, and what its methods assign to ``self``
                self.classes[node.name] = self._members(node.body) | {
                    n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                    and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name)
                    and n.value.id == "self"}  # fmt: skip
                self.bases[node.name] = [ast.unparse(b).rpartition(".")[2] for b in node.bases]

    @classmethod
    def _members(cls, body: list[ast.stmt]) -> set[str]:
        found: set[str] = set()
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found.update(n.id for t in targets for n in ast.walk(t)
                             if isinstance(n, ast.Name))  # fmt: skip
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                found.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.If, ast.Try)):
                found |= cls._members(node.body)
        return found

    def has(self, path: list[str]) -> bool:
        """Whether ``name`` or ``class.member`` (the first two of ``path``) is defined;
        deeper parts (an attribute of an object) are not checked."""
        if not path:
            return True
        if path[0] not in self.names:
            return False
        return len(path) == 1 or path[0] not in self.classes or _has_member(path[0], path[1])


def _has_member(cls: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a class of the package (found by name), or one of its bases, defines
    ``member``."""
    for module in MODULES:
        defined = _defined(module)
        if cls in defined.classes and cls not in seen:
            if member in defined.classes[cls] or any(
                    _has_member(base, member, seen | {cls}) for base in defined.bases[cls]):
                return True
    return False


@functools.cache
def _defined(module: str) -> _Defined:
    return _Defined(module)


def _resolves(token: str) -> str | None:
    """Why a dotted name the page cites does not exist, or None where it does. Its first
    component is a module of the package (``_detect``, ``fastpath``, ``eagerpy_xp``) or a
    class of it (``BackendCore``); the rest are submodules, then a name the module (or the
    class) defines. A name whose first component is neither (``torch.add``,
    ``jax.jit``, ``x.raw``) is not the package's and is not checked."""
    first, *rest = token.split(".")
    if first in BACKENDS or first in ("linalg", "fft"):
        return None  # a framework's name (`torch.compile`) or the standard's (`linalg.solve`)
    modules = [m for m in MODULES if m.rpartition(".")[2] == first]
    for module in modules:
        path = list(rest)
        while path and f"{module}.{path[0]}" in MODULES:
            module = f"{module}.{path.pop(0)}"
        if _defined(module).has(path):
            return None
    if modules:
        return f"no module {first} ({', '.join(modules)}) has {'.'.join(rest)}"
    owners = [m for m in MODULES if first in _defined(m).classes]
    if owners and not _has_member(first, rest[0]):
        return f"the class {first} ({', '.join(owners)}) has no {rest[0]}"
    return None


def test_every_name_the_page_cites_exists() -> None:
    tokens = sorted(t for t in _cited() if _DOTTED.match(t) and not _PATH.match(t))
    assert any(t.startswith("_detect.") for t in tokens)
    problems = [f"`{t}`: {why}" for t in tokens if (why := _resolves(t)) is not None]
    assert not problems, "docs/architecture.md cites names the code lacks:\n" + "\n".join(
        problems)


def test_a_stale_name_is_caught() -> None:
    assert _resolves("_detect.REGISTRY_THAT_IS_NOT") is not None
    assert _resolves("fastpath.no_such_decorator") is not None
    assert _resolves("BackendCore.fast_case_gone") is not None
    assert _resolves("torch.add") is None  # a framework's name: not checked


def test_a_module_missing_from_the_table_is_caught() -> None:
    layers = _layers()
    layers.pop("interop.py", None)
    assert _layer_of("interop.py", layers) is None
    assert _layer_of("native/_base/core.py", layers) == layers["native/_base/"]
