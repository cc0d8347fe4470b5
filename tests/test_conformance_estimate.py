"""The run-time estimate of ``python -m conformance``: a calibration of the machine, costs
stored in its units, the schedule of processes on the cores beside the machine's load,
and the split of a process that would be the run's long pole."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance import estimate as est
from conformance.__main__ import expected
from conformance.runner import plan, suite_modules


def test_contention_is_measured_by_running_the_work_at_once() -> None:
    calibration = est.calibrate(repeats=3)
    one = est.contention(1, calibration, seconds=0.2)
    assert one is not None and one >= 1.0  # wall per CPU second of the work, now
    # the same work in two processes at once on fewer free cores is slower, never faster
    assert est.contention(2, calibration, seconds=0.2) is not None


def test_calibration_is_cpu_time_of_fixed_work() -> None:
    first, second = est.calibrate(repeats=3), est.calibrate(repeats=3)
    assert 0.001 < first < 5 and 0.001 < second < 5
    assert 0.5 < first / second < 2  # the least of several timings: stable
    # more work costs more: the unit is the work, not a constant
    assert est.calibrate(repeats=3, n=480_000) > 2 * est.calibrate(repeats=3, n=120_000)


def _costs() -> est.Costs:
    costs = est.Costs()
    # measured on a machine whose calibration took 0.02 s: CPU seconds per target, module
    costs.record(12, False, 0.02,
                 {"numpy-wrapped-cpu": {"test_differential": 2.0, "test_errors": 1.0},
                  "numpy-native-cpu": {"test_differential": 1.0, "test_errors": 1.0},
                  "jax-wrapped-cpu": {"test_differential": 40.0, "test_errors": 4.0},
                  "jax-native-cpu": {"test_differential": 36.0, "test_errors": 4.0}},
                 {"numpy": 1.0, "jax": 3.0}, "test machine")  # fmt: skip
    costs.record(12, True, 0.02, {"jax-wrapped-cpu": {"test_differential": 20.0}}, {},
                 "test machine")  # fmt: skip
    return costs


def test_costs_are_stored_in_calibration_units(tmp_path: Path) -> None:
    costs = _costs()
    path = tmp_path / "costs.json"
    costs.save(path)
    loaded = est.Costs.load(path)
    entry = loaded.data["examples"]["12"]
    assert entry["targets"]["numpy-wrapped-cpu"]["test_differential"] == {"cold": 100.0}
    assert entry["targets"]["jax-wrapped-cpu"]["test_differential"] == {"cold": 2000.0,
                                                                         "warm": 1000.0}
    assert entry["startup"]["jax"] == {"cold": 150.0}
    # warm where measured warm, else cold; and the other way round
    assert loaded.target_units("jax-wrapped-cpu", ["test_differential"], 12, True) == (1000.0, [])
    assert loaded.target_units("jax-native-cpu", ["test_differential"], 12, True) == (1800.0, [])
    units, unknown = loaded.target_units("numpy-native-cpu", ["test_compiled"], 12, False)
    assert units == 0.0 and unknown == ["test_compiled"]  # a module never measured
    assert est.Costs.load(tmp_path / "absent.json").data["examples"] == {}


def test_costs_scale_with_examples_where_tests_draw_examples() -> None:
    assert est.scaling("test_differential", 48, 12) == 4.0  # hypothesis examples
    assert est.scaling("test_special_cases", 48, 12) == 1.0  # fixed tables
    assert est.scaling("test_errors", 48, 12) == 1.0  # 100 fuzz calls up to 100 examples
    assert est.scaling("test_errors", 400, 12) == 4.0
    costs = _costs()
    units, _ = costs.target_units("numpy-wrapped-cpu", ["test_differential", "test_errors"],
                                  24, False)  # fmt: skip
    assert units == pytest.approx(100.0 * 2 + 50.0)


def test_the_estimate_scales_with_the_machine_and_its_load() -> None:
    jobs = {"jax": 4000.0, "numpy": 200.0, "torch": 300.0}
    quiet = est.estimate(jobs, [], 0.02, workers=2, cores=2, load=0.0, warm=False)
    assert quiet.seconds == pytest.approx(80.0)  # jax alone on one core, 0.02 s a unit
    assert quiet.jobs == {"jax": 80.0, "numpy": 4.0, "torch": 6.0}
    slower = est.estimate(jobs, [], 0.04, workers=2, cores=2, load=0.0, warm=False)
    assert slower.seconds == pytest.approx(2 * quiet.seconds)  # a machine twice as slow
    busy = est.estimate(jobs, [], 0.02, workers=2, cores=2, load=2.0, warm=False)
    assert busy.seconds == pytest.approx(2 * quiet.seconds)  # two others share the cores
    one = est.estimate(jobs, [], 0.02, workers=1, cores=2, load=0.0, warm=False)
    assert one.seconds == pytest.approx(90.0)
    measured = est.estimate(jobs, [], 0.02, workers=2, cores=2, load=0.0, warm=False,
                            measured=3.0)  # fmt: skip
    assert measured.seconds == pytest.approx(2 * quiet.seconds)  # the mean of 1 and 3
    assert est.slowdown(2, 2, 2.0, None) == pytest.approx(2.0)
    assert est.makespan([5, 4, 3, 3], 2) == 8  # longest first: 5+3, 4+3
    assert est.speed(2, 2, 1.0) == pytest.approx(2 / 3)
    assert est.error(130.0, 100.0) == pytest.approx(0.3)
    assert "expected about 1 min (80 s)" in quiet.describe()


def _options() -> dict[str, object]:
    return {"max_examples": 12, "backend": "numpy,jax", "flavour": None, "ours": True,
            "namespaces": []}  # fmt: skip


def test_plan_runs_the_costliest_first_and_splits_a_long_pole(tmp_path: Path) -> None:
    costs = _costs()
    options = _options()
    jobs = plan(options, tmp_path, costs, workers=1)
    assert [j.name for j in jobs] == ["jax", "numpy"]  # one process per backend, jax first
    assert jobs[0].suite_checks and not jobs[1].suite_checks
    assert jobs[0].flavours == ("wrapped", "native") and jobs[0].modules == ()
    split = plan(options, tmp_path, costs, workers=2)
    # jax alone is 91 % of the run: two shards of it, by module, beside numpy
    names = [j.name for j in split]
    assert names[:2] == ["jax:1", "jax:2"] and names[2] == "numpy"
    assert {split[0].modules, split[1].modules} == {("test_differential",),
                                                    tuple(m for m in suite_modules()
                                                          if m != "test_differential")}
    assert split[0].units == pytest.approx(150 + 3800.0)  # start-up + the two columns
    assert split[0].events.name == "jax_1.jsonl"


def test_the_printed_estimate_comes_from_the_calibration(tmp_path: Path) -> None:
    costs = _costs()
    options = _options()
    jobs, fast = expected(options, tmp_path, 1, calibration_s=0.01, load=0.0, costs=costs)
    _, slow = expected(options, tmp_path, 1, calibration_s=0.03, load=0.0, costs=costs)
    assert slow.seconds == pytest.approx(3 * fast.seconds)
    total_units = sum(j.units for j in jobs)
    assert fast.seconds == pytest.approx(total_units * 0.01)
    assert fast.unknown and all(" " in u for u in fast.unknown)  # modules never measured
    assert fast.record()["expected_s"] == pytest.approx(fast.seconds, abs=0.1)


def test_a_run_of_a_keyword_subset_says_so_instead_of_an_error() -> None:
    """The stored costs are of whole test modules: a ``-k`` run ends with what it ran, not
    with the estimate's error (a ``-k full`` run printed "took 48 s (+5078%)")."""
    from conformance import report as rep

    made = {"expected_s": 2497.0, "calibration_s": 0.03, "cores": 2, "load": 0.7, "workers": 2,
            "slowdown": 1.26, "actual_s": 48.0, "error": 51.0}  # fmt: skip
    assert "(+5100%)" in rep.estimate_line({"estimate": made})
    line = rep.estimate_line({"estimate": {**made, "subset": "full"}})
    assert "took 48 s: -k 'full' ran part of those modules" in line and "%)" not in line
