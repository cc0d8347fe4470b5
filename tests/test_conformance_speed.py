"""What made the main job faster keeps its checks: the error fuzzer's input check on lazy
arrays, its call count, the special cases' padded rows, one computation for many Dask
results, and the environment of the suite's processes."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import hypothesis
import numpy as np
import pytest

from conformance.harness import NO_KERNEL_CACHE, Target
from conformance.invalid_calls import (
    ARRAY_ENTRIES,
    FUZZ_CALLS,
    _changed,
    _graph_key,
    generate,
)
from conformance.runner import subprocess_env
from conformance.test_special_cases import padded_length


def test_a_lazy_input_is_computed_only_when_its_graph_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    pytest.importorskip("dask")
    for flavour in ("native", "wrapped"):
        target = Target("dask", flavour, "cpu")
        original = np.arange(3.0)
        x = target.asarray(original)
        keys = [_graph_key(target, x)]
        assert keys[0] is not None
        computed: list[Any] = []

        def counting(a: Any, real: Any = target.to_numpy, seen: list[Any] = computed) -> Any:
            seen.append(a)
            return real(a)

        monkeypatch.setattr(target, "to_numpy", counting)
        assert not _changed(target, [(x, original)], keys) and computed == []
        x[0] = 5.0  # Dask replaces the graph in place; the wrapped array rebinds
        assert _changed(target, [(x, original)], keys) and len(computed) == 1
        y = target.asarray(original)
        key = _graph_key(target, y)
        y[0] = 0.0  # a new graph with the same values: computed, and unchanged
        assert not _changed(target, [(y, original)], [key]) and len(computed) == 2
    assert _graph_key(Target("numpy", "native", "cpu"), np.zeros(2)) is None  # eager


def test_the_fuzzer_draws_its_calls_from_seeded_generators() -> None:
    assert FUZZ_CALLS == 100
    name = ARRAY_ENTRIES[0]
    first = generate(name, random.Random(f"0:{name}:7"))
    again = generate(name, random.Random(f"0:{name}:7"))
    assert first is not None and again is not None
    assert first.describe() == again.describe()  # a failure's seed and index reproduce it
    calls = {generate(name, random.Random(f"0:{name}:{i}")).describe()  # type: ignore[union-attr]
             for i in range(FUZZ_CALLS)}
    assert len(calls) > 20  # varied, as hypothesis' draws were


@pytest.mark.parametrize(("rows", "length"), [(1, 16), (16, 16), (17, 32), (33, 64), (64, 64)])
def test_special_case_rows_are_padded_to_few_lengths(rows: int, length: int) -> None:
    assert padded_length(rows) == length


def test_dask_results_in_one_computation() -> None:
    pytest.importorskip("dask")
    for flavour in ("native", "wrapped"):
        target = Target("dask", flavour, "cpu")
        arrays = [target.asarray(np.array([1.5, -0.0])), target.asarray(np.array(3, "int8"))]
        got = target.to_numpy_all(arrays)
        assert [g.dtype for g in got] == [np.float64, np.int8]
        assert np.signbit(got[0][1]) and got[1] == 3
    numpy = Target("numpy", "native", "cpu")
    assert numpy.to_numpy_all([np.arange(2)])[0].tolist() == [0, 1]


def test_the_suite_processes_run_jax_with_x64_and_a_compilation_cache(tmp_path: Path) -> None:
    env = subprocess_env(tmp_path, cache=True)
    assert env["JAX_ENABLE_X64"] == "1"
    assert env["JAX_COMPILATION_CACHE_DIR"] == str(tmp_path / "cache" / "jax")
    # every kernel is cached: the defaults leave out those compiled in under a second
    assert env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] == "0"
    assert env["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] == "0"
    assert env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] == "1"
    without = subprocess_env(tmp_path, cache=False)
    # no cache at all: neither the report's nor one inherited from a pytest run around it
    assert "JAX_COMPILATION_CACHE_DIR" not in without
    assert without[NO_KERNEL_CACHE] == "1"


def test_a_pytest_run_shares_one_kernel_cache_with_its_workers() -> None:
    """The repository's pytest runs give JAX a persistent compilation cache in a temporary
    folder (`conformance.plugin`), inherited by the xdist workers, so that one worker
    reads back what the other compiled; the folder is this run's own."""
    from conformance import plugin

    folder = os.environ.get("JAX_COMPILATION_CACHE_DIR", "")
    if plugin._KERNELS is None:  # a worker, or a run whose caller chose
        assert os.environ.get("PYTEST_XDIST_WORKER") or folder or os.environ.get(NO_KERNEL_CACHE)
    else:
        assert folder == os.path.join(plugin._KERNELS, "jax")
    if os.environ.get("PYTEST_XDIST_WORKER") and not os.environ.get(NO_KERNEL_CACHE):
        assert "eagerpy_xp-kernels-" in folder  # the controller's, inherited


def test_each_fuzz_item_runs_its_hundred_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance import test_errors
    from conformance.invalid_calls import Outcome

    class Config:  # what fuzz_plan reads of pytest's config
        stash = pytest.Stash()

        def getoption(self, name: str, default: Any = None) -> Any:
            return 7 if name == "hypothesis_seed" else default

    seen: list[str] = []

    def judged(target: Target, call: Any) -> Outcome:
        seen.append(call.describe())
        return Outcome("clear", "TypeError", "eagerpy_xp.numpy.add: ...", formatted=True)

    monkeypatch.setattr(test_errors, "run_call", judged)
    # The profile a whole test run may have loaded (the suite's, derandomized) is not this
    # test's subject: the plan is read under hypothesis' plain settings.
    monkeypatch.setattr(test_errors, "settings",
                        lambda: hypothesis.settings(max_examples=100, derandomize=False))
    config: Any = Config()
    count, seed = test_errors.fuzz_plan(config)
    assert (count, seed) == (100, "7")  # outside the suite's profile: randomized, seed 7
    test_errors._fuzz(Target("numpy", "native", "cpu"), "add", config)
    assert len(seen) == 100 and len(set(seen)) > 10


def test_risky_calls_run_in_workers_that_may_not_hang_the_run() -> None:
    """A worker that does not answer is killed and its call is a ``timeout``; the next call
    gets a new worker (a peer that computes a huge lazy array must not stall the run)."""
    from conformance.invalid_calls import Invalid, run_in_subprocess

    target = Target("numpy", "native", "cpu")
    huge = Invalid("zeros", "huge", ((2**62,),), {}, (MemoryError, ValueError), risky=True)
    fine = run_in_subprocess([(target, huge), (target, huge)])
    assert [o.category for o in fine] == ["clear", "clear"]
    hung = run_in_subprocess([(target, huge), (target, huge)], per_call_s=0.0, startup_s=0.0)
    assert [o.category for o in hung] == ["timeout", "timeout"]
    assert hung[0].message.startswith("no answer in 0 s")


def test_a_process_above_its_memory_bound_drops_the_kernel_caches(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Above `memory.LIMIT` (here lowered to one byte) a test process drops JAX's kernels
    (a jitted function compiles again), and the next release waits for `memory.STEP` more;
    below it, nothing is dropped."""
    jax = pytest.importorskip("jax")
    from conformance import memory

    f = jax.jit(lambda a: a * 3 + 1)
    f(np.arange(3.0))
    assert f._cache_size() == 1
    monkeypatch.setitem(memory._state, "next", 1 << 50)  # far above: nothing happens
    assert memory.bound() is False and f._cache_size() == 1
    monkeypatch.setattr(memory, "LIMIT", 1)
    monkeypatch.setitem(memory._state, "next", 1)
    assert memory.resident_bytes() > 1
    assert memory.bound() is True
    assert f._cache_size() == 0
    assert memory._state["next"] >= memory.resident_bytes() + memory.STEP // 2  # not at once
    np.testing.assert_array_equal(np.asarray(f(np.arange(3.0))), [1.0, 4.0, 7.0])
