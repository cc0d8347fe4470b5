"""`python -m benchmarks.overhead` says what it left out and why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks import overhead


def test_a_missing_library_is_named_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "eagerpy", None)  # import eagerpy raises ImportError
    left_out: list[str] = []
    variants = overhead._variants("numpy", left_out)
    assert "eagerpy" not in variants and "eagerpy_xp wrapped" in variants
    assert len(left_out) == 1
    assert left_out[0].startswith("numpy / EagerPy: not installed (ModuleNotFoundError")
    assert "pip install -e '.[bench]'" in left_out[0]


def test_the_run_lists_left_out_parts_and_saves_them(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setitem(sys.modules, "eagerpy", None)
    monkeypatch.setitem(sys.modules, "no_such_framework", None)
    monkeypatch.setitem(overhead.NATIVE, "no_such_framework", overhead.NATIVE["numpy"])
    out = tmp_path / "overhead.json"
    overhead.main(["--backends", "numpy", "no_such_framework", "--rounds", "1", "--calls", "2",
                   "--json", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "Left out:\n- numpy / EagerPy: not installed" in text
    assert "- no_such_framework: not installed (ModuleNotFoundError: import of no_such_framework halted" in text
    saved = json.loads(out.read_text())
    assert set(saved["backends"]) == {"numpy"}
    assert set(saved["backends"]["numpy"]["added_us"]) == {
        "array-api-compat", "eagerpy_xp native", "eagerpy_xp wrapped"}
    assert len(saved["left_out"]) == 2


def test_per_op_times_the_floor_and_reports_multiples_of_it(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:  # fmt: skip
    """`python -m benchmarks.per_op` times the bare wrapper in the same rounds and gives
    every form as a multiple of what it adds (the floor); --compare reads two runs."""
    from benchmarks import per_op

    table = per_op.measure("numpy", rounds=2, calls=5, ops=["x + y", "x[1:5]", "x ** 2"])
    assert set(table) == {per_op.FLOOR, "x + y", "x[1:5]", "x ** 2"}
    assert set(table[per_op.FLOOR]) == {"plain", "bare"}
    floor = per_op.floor_of(table)
    assert floor == table[per_op.FLOOR]["bare"] - table[per_op.FLOOR]["plain"]
    row = table["x + y"]
    wrapped = per_op.multiples(table, "eagerpy_xp wrapped")
    assert wrapped["x + y"] == (row["eagerpy_xp wrapped"] - row["plain"]) / floor
    assert "x[1:5]" not in per_op.multiples(table, "eagerpy_xp native")  # the plain form again
    text = per_op.report("numpy", table)
    assert "floor (f):" in text and "wrapped over plain: median" in text
    # the same plain `x + y` beside the floor and in its row: a speed change between them
    # is reported (a shared host that changes speed mixes two speeds in the medians)
    steady = {per_op.FLOOR: {"plain": 1.0, "bare": 1.3}, "x + y": {"plain": 1.05}}
    assert per_op._drift(steady) is None
    changed = {per_op.FLOOR: {"plain": 1.3, "bare": 1.6}, "x + y": {"plain": 1.1}}
    assert "speed changed" in (per_op._drift(changed) or "")
    assert "speed changed" in per_op.report("numpy", {**table, **changed})
    out = tmp_path / "run.json"
    out.write_text(json.dumps({"load": [0.0, 0.0, 0.0], "backends": {"numpy": table}}))
    per_op.main(["--compare", str(out), str(out)])
    assert "| `x ** 2` |" in capsys.readouterr().out
