"""`python -m benchmarks.compiled` runs every workload on every framework, checks that the
portable code computes what the hand-written code does, and prints one table each.

Smallest sizes, two rounds, one compile each, torch on ``aot_eager`` (inductor compiles
for minutes on a small machine): a smoke test of the benchmark, not a measurement."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from benchmarks import compiled

QUICK = ["--small", "--rounds", "2", "--compiles", "1", "--torch-backend", "aot_eager"]
VARIANTS = {"hand", "same", "bare", "native", "wrapped", "eager"}


def _table_rows(text: str, framework: str) -> list[list[str]]:
    """The cells of the rows of ``framework``'s Markdown table (header first)."""
    section = text.split(f"## {framework} (", 1)[1].split("\n\n", 2)[1]
    rows = [line.strip() for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


@pytest.mark.parametrize("framework", compiled.FRAMEWORKS)
def test_every_workload_agrees_and_fills_its_row(framework: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    pytest.importorskip(framework, reason=f"{framework} is not installed")
    results = compiled.main([*QUICK, "--frameworks", framework])
    text = capsys.readouterr().out

    assert set(results) == {framework}
    assert set(results[framework]) == set(compiled.WORKLOADS)
    for workload, r in results[framework].items():
        # every variant ran and matched the hand-written result (main asserts it with
        # assert_allclose; the largest difference is kept)
        assert set(r["max_abs_diff"]) == VARIANTS, workload
        assert all(0.0 <= d <= 1e-3 for d in r["max_abs_diff"].values()), r["max_abs_diff"]
        assert r["max_abs_diff"]["hand"] == 0.0 and r["max_abs_diff"]["bare"] == 0.0
        assert set(r["ms"]) == set(r["ratio"]) == set(r["ratio_to_same"]) == VARIANTS
        assert all(v > 0 for v in r["ms"].values())
        assert r["ratio"]["hand"] == 1.0 and r["ratio_to_same"]["same"] == 1.0
        assert r["ratio"]["eager"] == pytest.approx(r["ms"]["eager"] / r["ms"]["hand"])
        assert set(r["compile_s"]) == set(compiled.COMPILED) == {"hand", "same", "native",
                                                                 "wrapped"}  # fmt: skip
        assert all(v > 0 for v in r["compile_s"].values())
        assert r["compile_ratio"]["hand"] == 1.0 and r["compile_ratio_to_same"]["same"] == 1.0
        assert r["compile_ratio"]["native"] == pytest.approx(
            r["compile_s"]["native"] / r["compile_s"]["hand"])

    assert "- CPU: " in text and "load average" in text and f"{framework} " in text
    header, rule, *rows = _table_rows(text, framework)
    assert header == list(compiled.COLUMNS)
    assert len(rule) == len(header)
    assert [row[0] for row in rows] == list(compiled.WORKLOADS)
    one, two = re.compile(r"^\d+\.\d+ \(\d+\.\d{3}\)$"), re.compile(
        r"^\d+\.\d+ \(\d+\.\d{3}, \d+\.\d{3}\)$")  # a value and one or two ratios
    shapes = [None, None, one, one, two, two, one, None, one, two, two]
    for row in rows:
        assert len(row) == len(header) == len(shapes), row
        for cell, shape in zip(row[1:], shapes[1:]):
            assert (shape or re.compile(r"^\d+\.\d+$")).match(cell), (row, cell)
        r = results[framework][row[0]]
        native_ms, ratios = row[4].split(" ", 1)
        assert float(native_ms) == pytest.approx(r["ms"]["native"], abs=1e-3)
        assert ratios == f"({r['ratio']['native']:.3f}, {r['ratio_to_same']['native']:.3f})"


def test_a_wrong_portable_result_stops_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    """A benchmark of wrong code is worthless: a portable workload that computes
    something else (the summed instead of the mean loss) fails before any timing."""
    pytest.importorskip("jax", reason="jax is not installed")
    import eagerpy_xp as ep

    def summed(logits: Any, labels: Any) -> Any:
        xp = ep.namespace(logits)
        return -xp.sum(compiled._picked_log_probs(xp, logits, labels))

    monkeypatch.setitem(compiled.PORTABLE, "xent",
                        lambda logits, labels: ep.value_and_grad(summed, logits, labels))  # fmt: skip
    with pytest.raises(AssertionError, match="jax xent native"):
        compiled.main([*QUICK, "--frameworks", "jax", "--workloads", "xent", "--no-eager"])


def test_the_agreement_check_compares_shapes_dtypes_and_values() -> None:
    a = (np.ones(3, np.float32), np.float32(2.0))
    assert compiled._agree("same", a, a) == 0.0
    assert compiled._agree("close", (a[0] + 1e-6, a[1]), a) == pytest.approx(1e-6, rel=0.1)
    with pytest.raises(AssertionError, match="far, result 1"):
        compiled._agree("far", (a[0], np.float32(2.1)), a)
    with pytest.raises(AssertionError):
        compiled._agree("shape", (np.ones(4, np.float32), a[1]), a)
    with pytest.raises(AssertionError):
        compiled._agree("dtype", (np.ones(3, np.float64), a[1]), a)
    with pytest.raises(AssertionError):
        compiled._agree("count", (a[0],), a)


def test_steady_state_in_fresh_processes_pools_their_rounds() -> None:
    """``--processes``: each child builds and times the variants anew; the samples come
    back pooled, every variant with as many rounds (the pairing of the ratios)."""
    pytest.importorskip("jax", reason="jax is not installed")
    samples = compiled._steady_in_processes("jax", "xent", True, 20, "aot_eager", 2)
    assert set(samples) == {"hand", "same", "bare", "native", "wrapped"}
    assert {len(times) for times in samples.values()} == {20}
    assert all(0 < t < 1 for times in samples.values() for t in times)
