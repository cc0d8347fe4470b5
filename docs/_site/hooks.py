"""MkDocs hooks of the documentation site (``mkdocs build --strict``).

- The home page is the README (its ``docs/`` paths made site links).
- The conformance page is drawn from ``reports/conformance.json`` when that report is
  complete (the latest run), followed by the hand-written part of ``docs/conformance.md``
  (as ``python -m conformance --docs`` would write it); else it is that page as committed.
- Every public function, class, method and property of ``eagerpy_xp`` (its ``__all__``)
  must have a docstring: a missing one is a warning, which ``--strict`` makes an error.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("mkdocs.hooks.eagerpy_xp")


def _readme_page() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"`docs/([\w-]+)\.md`", r"[\1](\1.md)", text)
    return text.replace("](docs/", "](")


def _conformance_page() -> str | None:
    path = ROOT / "reports" / "conformance.json"
    if not path.exists():
        return None
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from conformance.__main__ import docs_page, known_failure_lines
    from conformance.report import load, render_markdown

    try:
        report = load(path)
    except (ValueError, KeyError, json.JSONDecodeError) as exc:
        log.warning("reports/conformance.json is unreadable (%s): using docs/conformance.md",
                    exc)  # fmt: skip
        return None
    if report.get("status") != "complete":
        log.info("reports/conformance.json is partial: the site shows docs/conformance.md")
        return None
    committed = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    # the latest matrix, then the page's hand-written part, as `--docs` would write it
    return docs_page(render_markdown(report, known_failure_lines()), committed)


def on_files(files: Files, config: Any) -> Files:
    index = File.generated(config, "index.md", content=_readme_page())
    if files.get_file_from_path("index.md") is None:
        files.append(index)
    latest = _conformance_page()
    if latest is not None:
        old = files.get_file_from_path("conformance.md")
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, "conformance.md", content=latest))
    return files


def missing_docstrings() -> list[str]:
    """Public functions, classes, methods and properties of eagerpy_xp without a docstring."""
    import griffe

    package = griffe.load("eagerpy_xp", search_paths=[str(ROOT)], resolve_aliases=True)
    names = [str(e).strip("'\"") for e in package["__all__"].value.elements]
    missing = []
    for name in names:
        obj = package[name]
        obj = obj.final_target if obj.is_alias else obj
        if not _documentable(obj):
            continue
        if not obj.docstring:
            missing.append(name)
        if obj.is_class:
            for member_name, member in obj.members.items():
                member = member.final_target if member.is_alias else member
                if (not member_name.startswith("_") and _documentable(member)
                        and not member.docstring):  # fmt: skip
                    missing.append(f"{name}.{member_name}")
    return missing


def _documentable(obj: Any) -> bool:
    return bool(obj.is_function or obj.is_class or "property" in obj.labels)


def on_config(config: Any) -> Any:
    for name in missing_docstrings():
        log.warning("eagerpy_xp.%s has no docstring (the API reference needs one)", name)
    return config
