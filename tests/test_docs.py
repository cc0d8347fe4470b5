"""The documentation: every Python example in README.md and docs/ runs as written, and the
documentation site builds with ``mkdocs build --strict`` (a broken link or a public name
without a docstring fails it).

An example that cannot run as it stands says so in the Markdown, on the line before its
fence, with the reason::

    <!-- example: raises TypeError (what the example shows: an upstream bug) -->
    <!-- example: pytest (a test file: run by pytest with the eagerpy_xp plugin) -->
    <!-- example: skip (needs a CUDA device) -->

The examples of a page run in order in one fresh Python process from the repository root,
each in its own namespace, as a reader would run them top to bottom (so that settings such
as ``SCIPY_ARRAY_API`` act as they would for the reader); a test file runs under pytest.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"(?:<!-- example: (?P<mark>[^>]*?) -->\n)?```python\n(?P<code>.*?)```",
                    re.DOTALL)  # fmt: skip
_MARK = re.compile(r"(?P<kind>raises|pytest|skip)\b\s*(?P<arg>\w+)?\s*\((?P<reason>.+)\)$")


@dataclass(frozen=True)
class Example:
    page: Path
    line: int
    code: str
    kind: str  # "run", "raises", "pytest" or "skip"
    argument: str  # the exception name for "raises"
    reason: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            line = text.count("\n", 0, match.start("code"))
            kind, argument, reason = "run", "", ""
            if match.group("mark"):
                mark = _MARK.match(match.group("mark"))
                assert mark, f"{page.name}:{line}: unreadable mark {match.group('mark')!r}"
                kind, argument, reason = mark["kind"], mark["arg"] or "", mark["reason"]
            found.append(Example(page, line, match.group("code"), kind, argument, reason))
    return found


EXAMPLES = examples()


def test_examples_are_found() -> None:
    assert any(e.page.name == "README.md" for e in EXAMPLES)
    assert all(e.kind != "skip" or e.reason for e in EXAMPLES)


_DRIVER = """
import json, sys, traceback, types
results = []
for number, (code, expected) in enumerate(json.load(open(sys.argv[1]))):
    # each example is the body of a module of its own, as a reader's script would be
    # (compilers such as torch.compile find a function's globals through its module)
    module = sys.modules[f"example{number}"] = types.ModuleType(f"example{number}")
    namespace = module.__dict__
    try:
        exec(compile(code, "example", "exec"), namespace)
        got, detail = None, ""
    except BaseException as exc:
        got, detail = type(exc).__name__, traceback.format_exc(limit=-3)
    results.append("ok" if got == (expected or None) else
                   f"expected {expected or 'no error'}, got {got}: {detail}")
print(json.dumps(results))
"""


def _reader_env() -> dict[str, str]:
    """The environment of a reader: without the switches this test session sets for
    itself (the conformance plugin turns on JAX's x64 mode)."""
    return {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}


def _run_page(page: Path, tmp_path: Path) -> list[tuple[Example, str]]:
    """Runs a page's plain and ``raises`` examples in order, in one fresh process (as a
    reader would, top to bottom), each in its own namespace."""
    chosen = [e for e in EXAMPLES if e.page == page and e.kind in ("run", "raises")]
    if not chosen:
        return []
    data = tmp_path / "examples.json"
    data.write_text(json.dumps([(e.code, e.argument) for e in chosen]))
    driver = tmp_path / "driver.py"
    driver.write_text(_DRIVER)
    done = subprocess.run([sys.executable, str(driver), str(data)], cwd=ROOT,
                          env=_reader_env(), capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return list(zip(chosen, json.loads(done.stdout.splitlines()[-1])))


def _run_test_file(example: Example, tmp_path: Path) -> None:
    path = tmp_path / "test_example.py"
    path.write_text(example.code)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-o", "addopts=", str(path)], cwd=tmp_path, env=_reader_env(),
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, f"{example.id}:\n{done.stdout}{done.stderr}"
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout


@pytest.mark.parametrize("page", [p for p in PAGES if any(e.page == p for e in EXAMPLES)],
                         ids=lambda p: p.name)  # fmt: skip
def test_examples_run_as_written(page: Path, tmp_path: Path) -> None:
    problems = [f"{e.id}:\n{e.code}\n{outcome}" for e, outcome in _run_page(page, tmp_path)
                if outcome != "ok"]  # fmt: skip
    assert not problems, "\n\n".join(problems)
    for example in EXAMPLES:
        if example.page == page and example.kind == "pytest":
            _run_test_file(example, tmp_path)


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("mkdocstrings") is None,
                    reason="needs the docs extra: pip install -e '.[docs]'")  # fmt: skip
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "reference" / "index.html").exists()
    page = (tmp_path / "site" / "reference" / "index.html").read_text()
    assert 'id="eagerpy_xp.value_and_grad"' in page
    conformance = (tmp_path / "site" / "conformance" / "index.html").read_text()
    assert "Conformance matrix" in conformance
    # the page's hand-written part stays, also when the matrix is a newer report's
    assert 'id="running-the-suite"' in conformance


def test_a_missing_docstring_fails_the_build() -> None:
    pytest.importorskip("griffe", reason="needs the docs extra: pip install -e '.[docs]'")
    sys.path.insert(0, str(ROOT / "docs" / "_site"))
    try:
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs" / "_site"))
    assert hooks.missing_docstrings() == []
    assert hooks._documentable(type("F", (), {"is_function": True, "is_class": False,
                                              "labels": set()})())  # fmt: skip


# The README: a page a newcomer reads in five minutes, whose commands are the ones CI runs.

README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README's length limit (issue 40: at most ~200 lines; benchmarks live in
#: docs/performance.md).
README_LINES = 200


def _bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)]


def _plain(command: str) -> str:
    """A shell command as a reader types it: ``pip``/``python`` for ``python3 -m pip`` and
    ``python3``, without pip's ``-q``."""
    command = re.sub(r"\bpython3? -m pip\b", "pip", command)
    command = re.sub(r"\bpython3\b", "python", command)
    return re.sub(r"\s+", " ", command.replace("pip install -q ", "pip install "))


def test_the_readme_is_short() -> None:
    assert README.count("\n") <= README_LINES
    assert "| operation | plain |" not in README, "benchmark tables belong in docs/performance.md"


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    at = ci.index("# The README's test command:")
    expected = ("pip install torch==2.13.0 && pip install -e '.[all,test]'"
                " && python -m pytest -q -n auto")
    assert _plain(ci[at + 1]) == expected
    blocks = _bash_blocks(README)
    assert expected in blocks
    # the main job: the same installs, then the conformance suite
    assert expected.replace("python -m pytest -q -n auto", "python -m conformance") in blocks


def test_the_readme_names_only_what_exists() -> None:
    """Every repository path and ``python -m`` module the README names exists, and every
    page of docs/ is linked from it."""
    top = "docs|conformance|benchmarks|eagerpy_xp|tests"
    paths = set(re.findall(rf"(?<![\w/.])((?:{top})/[\w./-]+\w)", README))
    assert paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, missing
    modules = set(re.findall(r"python -m ([\w.]+)", README)) - {"pip", "pytest", "mkdocs"}
    assert {"conformance"} <= modules
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    unlinked = sorted(p for p in pages if f"docs/{p}" not in README)
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_every_page_is_in_the_site_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"^  - [^:\n]+: ([\w-]+\.md)$", config, re.MULTILINE))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert nav == pages | {"index.md"}
