"""The ``compiled`` area: every function of the standard traced by the framework's compiler.

For each target, every case of `compiled_cases.CASES` (one representative call per
function of the standard, ``linalg`` and ``fft`` included, the operators, indexing and
``__setitem__``, and the EagerPy helpers) runs under the compiler of its backend, as
`eagerpy_xp.jit` chooses it (``jax.jit``, ``torch.compile(fullgraph=True)`` with the
``aot_eager`` backend for this broad sweep, ``tf.function(jit_compile=True)``), and must
give the eager result: the same dtypes and shapes, values within
`compiled_cases.TOLERANCE`, the same flavour (an `Array` in gives an `Array` out).  A
second call with the same inputs must not trace again.  Where the eager call raises
(the native flavour's operators are the framework's own: TensorFlow tensors have no
``mT``), the compiled call must raise the same exception type.  Data-dependent shapes
and what a compiler has no kernel for (`compiled_cases.COMPILER_LIMITS`) may instead be
refused with the contract's `NotImplementedError`.  NumPy and
Dask have no compiler: there the case runs as it is through `eagerpy_xp.jit`.

Cases are compiled a group at a time (one traced function returning the results of a
dozen cases): a compile costs the same order of time whether it holds one function or
twelve.  A group that fails is compiled again one case at a time, so a failure names
its function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from eagerpy_xp._detect import REGISTRY

from .compiled_cases import (
    CASES,
    COMPILER_LIMITS,
    DATA_DEPENDENT,
    INPUTS,
    NOT_ARRAYS,
    close,
    describe,
    flatten,
)
from .harness import Target

AREA = "compiled"
#: eagerpy_xp's own compile and vectorize hooks (another namespace has none to test here)
pytestmark = [pytest.mark.ours_only,
              pytest.mark.tier("house", "compiled and vectorized calls: not in the standard")]

GROUP_SIZE = 12
NAMES = list(CASES)
GROUPS = [NAMES[k:k + GROUP_SIZE] for k in range(0, len(NAMES), GROUP_SIZE)]
GROUP_OF = {name: g for g, group in enumerate(GROUPS) for name in group}

#: What happened to one case on one target: ("ok", results) or ("raised", exception).
Outcome = tuple[str, Any]


def _group_function(names: list[str], traced: list[int] | None = None
                    ) -> Callable[..., list[Any]]:  # fmt: skip
    """One function calling the cases ``names`` on the same inputs; a code object of its
    own (compilers cache per code object).  With ``traced``, each run of its body (under
    a tracing compiler: each trace) adds one to ``traced[0]`` (never for torch: Dynamo
    guards on the global it reads and replays the write on every call)."""
    scope: dict[str, Any] = {f"case{k}": CASES[n] for k, n in enumerate(names)}
    scope["traced"] = traced
    calls = ", ".join(f"case{k}(x, y, s, i, m, c, v)" for k in range(len(names)))
    tag = names[0].replace(".", "_").replace(" ", "_").strip("_")
    count = "    traced[0] += 1\n" if traced is not None else ""
    source = f"def group(x, y, s, i, m, c, v):\n{count}    return [{calls}]\n"
    exec(compile(source, f"<compiled cases from {tag}>", "exec"), scope)
    group: Callable[..., list[Any]] = scope["group"]
    return group


def _traces(backend: str, compiled: Any, traced: list[int]) -> int | None:
    """How many times ``compiled`` (the framework's compiled object) traced, where that
    can be told: a compiler whose traces run the Python body (JAX, MLX) once per trace
    (counted in ``traced``: ``jax.jit``'s own ``_cache_size`` reads 0 once its global
    cache of functions has turned over in a long process), or one that says it
    (TensorFlow); otherwise its second call is held to not compiling again
    (`_second_call`: torch's ``error_on_recompile``)."""
    compiler = REGISTRY[backend].compiler
    if compiler.traces_run_the_body:  # `_run` counts their traces
        return traced[0]
    if compiler.trace_count is not None:
        return compiler.trace_count(compiled)
    return None


def _second_call(backend: str, compiled: Any, args: list[Any]) -> Any:
    """Call ``compiled`` again: it must not compile again where the framework can be
    told to raise if it would."""
    call_again = REGISTRY[backend].compiler.call_again
    return compiled(*args) if call_again is None else call_again(compiled, args)


_cache: dict[tuple[str, int], dict[str, Outcome]] = {}


def _run(target: Target, names: list[str], args: list[Any]) -> list[Outcome] | Exception:
    backend = target.xp.__backend__
    traced = [0]
    compiler = REGISTRY[target.backend].compiler
    fn = _group_function(names, traced if compiler.traces_run_the_body else None)
    # the broad sweep's options (`eagerpy_xp.jit` takes them): torch's fast compile
    options = compiler.suite_options if backend.compiles else {}
    compiled = backend.compile(fn, dict(options))
    try:
        results = compiled(*args)
        again = _second_call(target.backend, compiled, args)
    except Exception as exc:  # any failure: the group is retried one case at a time
        return exc
    traces = _traces(target.backend, compiled, traced)
    if traces is not None and traces != 1:
        return AssertionError(f"traced {traces} times for two calls with the same inputs")
    del again
    return [("ok", r) for r in results]


def _outcomes(target: Target, group: int) -> dict[str, Outcome]:
    key = (target.id, group)
    if key not in _cache:
        names = GROUPS[group]
        args = [target.asarray(target.holdable(a)) for a in INPUTS.values()]
        together = _run(target, names, args)
        if isinstance(together, list):
            _cache[key] = dict(zip(names, together))
        else:
            outcomes: dict[str, Outcome] = {}
            for name in names:
                alone = _run(target, [name], args)
                outcomes[name] = alone[0] if isinstance(alone, list) else ("raised", alone)
            _cache[key] = outcomes
    return _cache[key]


def _eager(target: Target, name: str) -> Outcome:
    args = [target.asarray(target.holdable(a)) for a in INPUTS.values()]
    try:
        return "ok", CASES[name](*args)
    except Exception as exc:
        return "raised", exc


@pytest.mark.parametrize("name", NAMES)
def test_compiled(target: Target, name: str) -> None:
    """The case under the framework's compiler gives the eager result (see the module)."""
    eager_kind, eager = _eager(target, name)
    kind, got = _outcomes(target, GROUP_OF[name])[name]
    if eager_kind == "raised":
        assert kind == "raised", (
            f"{name}: eager raised {type(eager).__name__}: {eager}, compiled gave "
            f"{describe(got)}")  # fmt: skip
        if type(got) is not type(eager):  # the compiler may wrap it: look for it inside
            assert isinstance(got.__cause__, type(eager)) or type(eager).__name__ in str(got), (
                f"{name}: eager raised {type(eager).__name__}, compiled raised "
                f"{type(got).__name__}: {str(got)[:300]}")  # fmt: skip
        return
    if kind == "raised":
        if name in COMPILER_LIMITS.get(target.backend, {}):
            _check_refusal(target, name, got)
            return
        raise AssertionError(
            f"{name} under {target.backend}'s compiler raised {type(got).__name__}: "
            f"{str(got).strip()[:500]}")  # fmt: skip
    _compare(target, name, eager, got)


def _check_refusal(target: Target, name: str, exc: Exception) -> None:
    """What the compiler cannot do (`COMPILER_LIMITS`): the library's own functions
    refuse it with the contract's `NotImplementedError` naming the function; the native
    flavour's operators and indexing are the framework's, which raises its own error."""
    if name.startswith("__") and not target.wrapped:
        return
    function = f"Array.{name.split()[0]}" if name.startswith("__") else name
    assert isinstance(exc, NotImplementedError), (
        f"{name} under {target.backend}'s compiler "
        f"({COMPILER_LIMITS[target.backend][name]}): expected the contract's "
        f"NotImplementedError, got {type(exc).__name__}: {str(exc)[:300]}")  # fmt: skip
    assert f"eagerpy_xp.{target.backend}.{function}: " in str(exc), str(exc)[:300]


def _compare(target: Target, name: str, eager: Any, got: Any) -> None:
    want, have = flatten(eager), flatten(got)
    assert len(want) == len(have), f"{name}: {len(want)} results eagerly, {len(have)} compiled"
    for k, (a, b) in enumerate(zip(want, have)):
        if name in NOT_ARRAYS or not hasattr(a, "shape"):
            assert a == b or (isinstance(b, (tuple, list)) and tuple(a) == tuple(b)), \
                f"{name}[{k}]: {a!r} eagerly, {b!r} compiled"  # fmt: skip
            continue
        if target.wrapped:
            assert type(b) is ep.Array, f"{name}[{k}]: an Array in gave a {type(b).__name__} out"
        else:
            assert target.is_array(b), f"{name}[{k}]: a {type(b).__name__} came out"
        ea, eb = target.to_numpy(a), target.to_numpy(b)
        assert close(ea, eb, name), (
            f"{name}[{k}]: eager {ea.dtype}{ea.shape} {np.array2string(ea, threshold=12)} "
            f"!= compiled {eb.dtype}{eb.shape} {np.array2string(eb, threshold=12)}")  # fmt: skip


# -- vectorized: the same cases under eagerpy_xp.vmap ---------------------------------------
def _second_example() -> dict[str, np.ndarray]:
    """A second example for the mapped axis: the floating inputs moved a little."""
    rng = np.random.default_rng(7)
    return {k: (a + 0.01 * rng.standard_normal(a.shape).astype(a.dtype)
                if a.dtype.kind in "fc" else a)
            for k, a in INPUTS.items()}  # fmt: skip


SECOND = _second_example()
#: Backends whose vectorizer refuses data-dependent shapes (each example would have its
#: own; NumPy loops, TensorFlow's vectorized_map falls back to a loop; Dask cannot stack
#: arrays of unknown shapes lazily): their descriptors say it.
DATA_DEPENDENT_REFUSED = tuple(name for name, d in REGISTRY.items()
                               if d.compiler.vmap_refuses_data_dependent)  # fmt: skip
#: Cases whose results are no arrays (shapes): a vectorizer maps arrays only.
NOT_MAPPED = NOT_ARRAYS


def _vectorized_run(target: Target, names: list[str]) -> list[Outcome] | Exception:
    batch = [target.asarray(target.holdable(np.stack([INPUTS[k], SECOND[k]]))) for k in INPUTS]
    try:
        results = ep.vmap(_group_function(names))(*batch)
    except Exception as exc:
        return exc
    return [("ok", r) for r in results]


_vcache: dict[tuple[str, int], dict[str, Outcome]] = {}


def _vectorized(target: Target, name: str) -> Outcome:
    group = GROUP_OF[name]
    key = (target.id, group)
    if key not in _vcache:
        names = [n for n in GROUPS[group] if n not in NOT_MAPPED]
        together = _vectorized_run(target, names)
        if isinstance(together, list):
            _vcache[key] = dict(zip(names, together))
        else:
            outcomes: dict[str, Outcome] = {}
            for n in names:
                alone = _vectorized_run(target, [n])
                outcomes[n] = alone[0] if isinstance(alone, list) else ("raised", alone)
            _vcache[key] = outcomes
    return _vcache[key][name]


@pytest.mark.parametrize("name", [n for n in NAMES if n not in NOT_MAPPED])
def test_vectorized(target: Target, name: str) -> None:
    """The case under `eagerpy_xp.vmap` (``jax.vmap``, ``torch.func.vmap``,
    ``tf.vectorized_map``; NumPy and Dask loop) over two examples equals the case on each
    example, stacked; data-dependent shapes may be refused as under the compilers."""
    examples = [[target.asarray(target.holdable(d[k])) for k in INPUTS]
                for d in (INPUTS, SECOND)]  # fmt: skip
    try:
        loop = [CASES[name](*e) for e in examples]
    except Exception as exc:  # eagerly refused (the native flavour's own operators)
        kind, got = _vectorized(target, name)
        assert kind == "raised", f"{name}: eager raised {type(exc).__name__}, vmap did not"
        return
    kind, got = _vectorized(target, name)
    if kind == "raised":
        if name.startswith("__") and not target.wrapped and name.endswith("mask"):
            return  # the framework's own indexing by a mask under its vectorizer
        if name in DATA_DEPENDENT and target.backend in DATA_DEPENDENT_REFUSED:
            function = f"Array.{name.split()[0]}" if name.startswith("__") else name
            assert isinstance(got, NotImplementedError), (
                f"{name} under vmap: expected the contract's NotImplementedError, got "
                f"{type(got).__name__}: {str(got)[:300]}")  # fmt: skip
            assert any(f"eagerpy_xp.{target.backend}.{where}: " in str(got)
                       for where in (function, "vmap")), str(got)[:300]  # fmt: skip
            return
        raise AssertionError(f"{name} under {target.backend}'s vectorizer raised "
                             f"{type(got).__name__}: {str(got).strip()[:500]}")  # fmt: skip
    have = flatten(got)
    per_example = [flatten(r) for r in loop]
    assert len(have) == len(per_example[0]), f"{name}: {len(have)} results mapped"
    for k, value in enumerate(have):
        if target.wrapped:
            assert type(value) is ep.Array, f"{name}[{k}]: a {type(value).__name__} came out"
        want = np.stack([target.to_numpy(p[k]) for p in per_example])
        assert close(target.to_numpy(value), want, name), (
            f"{name}[{k}]: mapped {target.to_numpy(value)} != looped {want}")  # fmt: skip


#: The few cases compiled with each compiler's default options too: for torch that is
#: its default backend, inductor (it generates and compiles C++ on the CPU: seconds per
#: graph, so one group), where the broad sweep uses aot_eager.
DEFAULT_OPTION_CASES = ["ep.softmax", "matmul", "__iadd__", "linalg.solve", "sum", "where",
                        "take"]  # fmt: skip


@pytest.mark.parametrize("name", ["default compiler options"])
def test_compiled_with_default_options(target: Target, name: str) -> None:
    """`DEFAULT_OPTION_CASES` in one function under the compiler's defaults (torch:
    inductor), against the eager results, in a process where nothing ran before."""
    args = [target.asarray(target.holdable(a)) for a in INPUTS.values()]
    compiled = target.xp.__backend__.compile(_group_function(DEFAULT_OPTION_CASES), {})
    results = compiled(*args)
    _second_call(target.backend, compiled, args)
    for case, got in zip(DEFAULT_OPTION_CASES, results):
        kind, eager = _eager(target, case)
        assert kind == "ok", eager
        _compare(target, case, eager, got)
