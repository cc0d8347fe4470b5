"""Errors the spec (or the project's design) requires, with clear messages.

The spec requires `ValueError` for ``asarray(..., copy=False)`` when a copy is needed and
for ``__int__`` of NaN (`OverflowError` for infinities); the design requires that bad
input raises `TypeError`/`ValueError` naming the function and the backend, and that a
failing in-place operation leaves the array unchanged.

The second half is the fuzzer of docs/errors.md: seeded generators draw invalid calls
(`conformance.invalid_calls`) of every spec function (``linalg`` and ``fft`` included) on
every target, and invalid uses of the array object where it is the namespace's own
(`fuzz_plan`: 100 calls per item, more with a larger ``--max-examples``); calls with
sizes beyond memory run once per session in worker processes.  All items are rows of the
matrix's "errors" area (``AREA`` below; the ``name`` parameter is the function row).

eagerpy_xp's targets are judged by the whole contract of docs/errors.md; another
namespace by the exception type alone (the standard leaves messages, and most errors,
to the library): the contract's type, no changed input, no changed global, no crash.

Tiers (`conformance.tiers`): the module's items are ``house`` (the standard names almost
no exception type: TypeError for dtypes, ValueError for shapes, IndexError for keys are
docs/errors.md's choices), except the errors the standard itself requires, marked
``must`` beside them: ``__int__`` of NaN and of an infinity; ``asarray(copy=False)`` of
a list is ``should`` ("must never copy for input which supports the buffer protocol and
must raise a ValueError in case a copy would be necessary": a list has no buffer, so
whether the sentence reaches it is open).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

from eagerpy_xp._detect import REGISTRY

from .harness import Target, Unsupported
from .invalid_calls import (
    ALL_NAMES,
    ARRAY_ENTRIES,
    FUZZ_CALLS,
    LAZY_BACKENDS,
    SIGNATURES,
    Invalid,
    Outcome,
    base_call,
    generate,
    message_prefix,
    risky_calls,
    run_call,
    run_in_subprocess,
)

AREA = "errors"
pytestmark = pytest.mark.tier("house", "exception types and messages: docs/errors.md")
_MUST = pytest.mark.tier("must", "the standard names this exception")
_SHOULD = pytest.mark.tier("should", "asarray's copy=False sentence speaks of input with a "
                           "buffer; a list's ValueError is its natural reading")  # fmt: skip

#: name -> (call on the namespace, accepted exceptions, whether the message must name
#: the function and backend)
_CASES: dict[str, tuple[Callable[[Any, Target], Any], tuple[type[Exception], ...], str]] = {
    "asarray copy=False from a list": (
        lambda xp, t: xp.asarray([1, 2], copy=False, device=t.dev), (ValueError,), ""),
    "zeros negative dimension": (
        lambda xp, t: xp.zeros((2, -1), device=t.dev), (ValueError,), "zeros"),
    "astype to a non-dtype": (
        lambda xp, t: xp.astype(t.asarray(np.ones(2)), "float77"), (TypeError, ValueError),
        "astype"),
    "isdtype unknown kind": (
        lambda xp, t: xp.isdtype(xp.float32, "floaty"), (ValueError, TypeError), "floaty"),
    "dtypes unknown kind": (
        lambda xp, t: xp.__array_namespace_info__().dtypes(kind="floaty"),
        (ValueError, TypeError), "floaty"),
    "unknown device": (
        lambda xp, t: xp.zeros(2, device="tpu:7"), (ValueError, TypeError, RuntimeError), "zeros"),
}  # fmt: skip


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=_SHOULD if n == "asarray copy=False from a list" else [])
    for n in sorted(_CASES)])  # fmt: skip
def test_error(target: Target, name: str) -> None:
    call, kinds, needle = _CASES[name]
    with pytest.raises(kinds) as info:
        call(target.xp, target)
    message = str(info.value)
    if needle and target.ours:  # the message is eagerpy_xp's contract, not the standard's
        assert needle in message, f"message {message!r} does not name {needle!r}"


@_MUST  # __int__: "If self is NaN, raise ValueError"; "±infinity, raise OverflowError"
@pytest.mark.array_object
@pytest.mark.parametrize(("name", "value", "kind"), [
    ("__int__", float("nan"), ValueError), ("__int__", float("inf"), OverflowError),
    ("__int__", float("-inf"), OverflowError),
])  # fmt: skip
def test_scalar_conversion_error(target: Target, name: str, value: float,
                                 kind: type[Exception]) -> None:  # fmt: skip
    x = target.asarray(np.array(value))
    with pytest.raises(kind):
        getattr(x, name)()


@pytest.mark.array_object
@pytest.mark.parametrize("name", ["in-place operator changing the dtype"])
def test_inplace_dtype_change_leaves_array(target: Target, name: str) -> None:
    x = target.asarray(np.array([1, 2, 3], dtype="int8"))
    y = target.asarray(np.array([0.5, 0.5, 0.5], dtype="float32"))
    with pytest.raises((TypeError, ValueError)):
        x += y
    np.testing.assert_array_equal(target.to_numpy(x), [1, 2, 3])
    assert target.dtype_name(x.dtype) == "int8"


# -- the fuzzer: invalid calls of every function and of the array object ---------------------------
_FUNCTIONS = list(SIGNATURES)
_ARRAY_ENTRIES = list(ARRAY_ENTRIES)
_RISKY = [n for n in SIGNATURES if risky_calls(n)]


_FUZZ_SEED = pytest.StashKey[str]()


def fuzz_plan(config: pytest.Config) -> tuple[int, str]:
    """How many calls each fuzz item draws, and the seed of their generators: fixed for a
    derandomized run, else ``--hypothesis-seed`` or one drawn per session (failure
    messages name it, so that ``--seed`` reproduces them)."""
    current = settings()
    count = max(FUZZ_CALLS, current.max_examples)
    if current.derandomize:
        return count, "0"
    if _FUZZ_SEED not in config.stash:
        chosen = config.getoption("hypothesis_seed", None)
        config.stash[_FUZZ_SEED] = str(chosen if chosen is not None
                                       else random.SystemRandom().getrandbits(32))  # fmt: skip
    return count, config.stash[_FUZZ_SEED]


def _check(target: Target, call: Invalid, outcome: Outcome, where: str = "") -> None:
    """Fail (with the message only: a traceback costs more than the call) unless
    ``outcome`` keeps the contract: type, function and backend named, documented prefix,
    offending value shown, inputs and framework switches unchanged.  Another namespace
    is held to the type only (and no changed input, global or crash)."""
    what = f"{target.id}: {call.describe()}{where}"
    prefix = message_prefix(target.backend, call.function)
    if not target.ours:
        if outcome.category in ("clear", "other exception") and outcome.right_type:
            return
        expected = "/".join(e.__name__ for e in call.expected)
        pytest.fail(f"{what}: {outcome.category}; expected {expected}, got "
                    f"{outcome.exception or 'a result'}: {outcome.message[:300]}",
                    pytrace=False)  # fmt: skip
    if outcome.category != "clear":
        expected = "/".join(e.__name__ for e in call.expected)
        pytest.fail(f"{what}: {outcome.category}; expected {expected} naming the function and "
                    f"{target.backend!r}, got {outcome.exception or 'a result'}: "
                    f"{outcome.message[:300]}", pytrace=False)  # fmt: skip
    if not outcome.formatted:
        pytest.fail(f"{what}: message {outcome.message[:200]!r} does not start {prefix!r}",
                    pytrace=False)  # fmt: skip
    if not outcome.names_value:
        pytest.fail(f"{what}: message {outcome.message[:200]!r} lacks {call.needle!r}",
                    pytrace=False)  # fmt: skip


def _fuzz(target: Target, name: str, config: pytest.Config) -> None:
    """`fuzz_plan`'s calls of ``name``, each from its own seeded generator (a plain
    `random.Random`: drawing each choice through hypothesis cost 40 ms per call), stopping
    at the first that breaks the contract."""
    count, seed = fuzz_plan(config)
    tried = 0
    for i in range(count):
        call = generate(name, random.Random(f"{seed}:{name}:{i}"), risky=False)
        assert call is not None, f"the generator has no invalid call of {name}"
        try:
            outcome = run_call(target, call)
        except Unsupported:
            continue  # an input dtype the namespace does not list
        tried += 1
        _check(target, call, outcome, f" (fuzz seed {seed}, call {i})")
    if not tried:
        raise Unsupported(f"{target.id}: every call of {name} needs a dtype it does not list")


@pytest.mark.parametrize("name", _FUNCTIONS)
def test_invalid_call(target: Target, name: str, request: pytest.FixtureRequest) -> None:
    """An invalid call of a spec function raises per the contract and changes nothing."""
    _fuzz(target, name, request.config)


@pytest.mark.array_object
@pytest.mark.parametrize("name", _ARRAY_ENTRIES)
def test_invalid_array_use(target: Target, name: str, request: pytest.FixtureRequest) -> None:
    """Bad keys, operands, conversions, ``.T``, ``to_device`` of the array object."""
    _fuzz(target, name, request.config)


@pytest.fixture(scope="session")
def _risky_outcomes(request: pytest.FixtureRequest) -> dict[tuple[str, str], Outcome]:
    """Every risky call on every available target, run once in worker processes (a crash
    kills a worker, not the test run)."""
    from .session import targets

    jobs = [(t, c) for t in targets(request.config) if t.unavailable is None
            for n in SIGNATURES for c in risky_calls(n)]  # fmt: skip
    outcomes = run_in_subprocess(jobs)
    return {(t.id, c.function): o for (t, c), o in zip(jobs, outcomes)}


@pytest.mark.parametrize("name", _RISKY)
def test_huge_size(target: Target, name: str,
                   _risky_outcomes: dict[tuple[str, str], Outcome]) -> None:  # fmt: skip
    """Sizes beyond memory raise MemoryError/ValueError; the process survives."""
    (call,) = risky_calls(name)
    _check(target, call, _risky_outcomes[(target.id, name)])


def test_invalid_calls_start_from_valid_ones() -> None:
    """Self-check of the generator (no target, so no matrix cell): every name has invalid
    calls, and the valid call each mutation starts from succeeds on NumPy."""
    base = Target("numpy", "native", "cpu")
    for name in ALL_NAMES:
        assert generate(name, random.Random(0)) is not None, name
        if name in SIGNATURES:
            args, kwargs = base_call(name, random.Random(0))
            outcome = run_call(base, Invalid(name, "valid", tuple(args), kwargs))
            assert not outcome.exception, f"{name}: {outcome.exception}: {outcome.message}"


def test_judgement_accepts_pythons_operator_refusal_only() -> None:
    """Self-check of the judgement (docs/errors.md, "What the fuzzer accepts"): Python's
    own TypeError after ``NotImplemented`` passes for an operator with a non-array operand,
    and nothing else does."""
    from .invalid_calls import _python_operator_refusal

    python = TypeError("unsupported operand type(s) for +: 'Array' and 'str'")
    operand = Invalid("Array.__add__", "operand", (np.ones(2), "abc"), {}, (TypeError,))
    assert _python_operator_refusal(operand, python)
    assert _python_operator_refusal(
        Invalid("Array.__lt__", "operand", (np.ones(2), object()), {}, (TypeError,)),
        TypeError("'<' not supported between instances of 'Array' and 'object'"))
    assert not _python_operator_refusal(operand, TypeError("cannot add"))  # not Python's words
    assert not _python_operator_refusal(operand, ValueError(str(python)))  # not a TypeError
    arrays = Invalid("Array.__add__", "operand", (np.ones(2), np.ones(3)), {}, (ValueError,))
    assert not _python_operator_refusal(arrays, python)  # two arrays: the library must raise
    function = Invalid("add", "non-array", (np.ones(2), "abc"), {}, (TypeError,))
    assert not _python_operator_refusal(function, python)  # a function is not an operator
    outcome = run_call(Target("numpy", "wrapped", "cpu"), operand)
    assert outcome.category == "clear" and outcome.formatted, outcome


@pytest.mark.parametrize("lazy", sorted(LAZY_BACKENDS))
def test_judgement_of_lazy_results(lazy: str) -> None:
    """Self-check: on a lazy backend (Dask), a huge size may give a lazy array (within
    int64 extents) and an index array's entries are checked when the result is computed;
    an eager backend that returned would be a wrong answer."""
    pytest.importorskip(REGISTRY[lazy].framework)
    huge = Invalid("linspace", "huge", (0, 1, 2**40), {}, (MemoryError, ValueError), risky=True)
    assert run_call(Target(lazy, "native", "cpu"), huge).category == "clear"
    take = Invalid("take", "argument", (np.ones(4), np.asarray([0, 9])), {"axis": 0},
                   (IndexError,), "9")  # fmt: skip
    for backend in (lazy, "numpy"):
        outcome = run_call(Target(backend, "native", "cpu"), take)
        assert outcome.category == "clear" and outcome.names_value, (backend, outcome)
    shape = Invalid("add", "broadcast", (np.ones((2, 3)), np.ones(4)), {}, (ValueError,))
    assert run_call(Target(lazy, "native", "cpu"), shape).category == "clear"
