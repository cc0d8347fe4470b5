"""The ``exported`` area: every function of the standard that ONNX can hold, exported as a
model and run by onnxruntime, equal to the eager call.

For each target whose backend exports models (its ``export_model`` hook: ndonnx), every
case of `compiled_cases.CASES` (one representative call per function of the standard,
``linalg`` and ``fft`` included, the operators, indexing, ``__setitem__`` and the EagerPy
helpers) is traced by `eagerpy_xp.export` on the target's own arrays, in the target's
flavour, run by `eagerpy_xp.onnx_function`, and must give the eager result: the same
dtypes and shapes, values within `compiled_cases.TOLERANCE`.  The complex input ``c``
is given as None (ndonnx holds no complex dtype): a case that needs it, or a function
the backend refuses eagerly (what ONNX cannot hold, `NotImplementedError`), must be
refused by the export too.  Cases are exported a group at a time (one model returning a
dozen results: a model costs one onnxruntime session); a group that fails is exported
again one case at a time, so a failure names its function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep

from .compiled_cases import CASES, INPUTS, NOT_ARRAYS, close, flatten
from .harness import Target

AREA = "exported"
pytestmark = [pytest.mark.ours_only, pytest.mark.exports,
              pytest.mark.tier("house", "models exported to ONNX: not in the standard")]

GROUP_SIZE = 12
NAMES = [n for n in CASES if n not in NOT_ARRAYS]
GROUPS = [NAMES[k:k + GROUP_SIZE] for k in range(0, len(NAMES), GROUP_SIZE)]
GROUP_OF = {name: g for g, group in enumerate(GROUPS) for name in group}
#: The inputs given to the cases (``c``, complex, as None).
REAL_INPUTS = [k for k in INPUTS if INPUTS[k].dtype.kind != "c"]

Outcome = tuple[str, Any]


def _group_function(names: list[str]) -> Callable[..., list[Any]]:
    """One function of the real inputs calling the cases ``names`` (``c`` is None)."""
    cases = [CASES[n] for n in names]

    def group(x: Any, y: Any, s: Any, i: Any, m: Any, v: Any) -> list[Any]:
        return [leaf for case in cases for leaf in flatten(case(x, y, s, i, m, None, v))]

    return group


def _arguments(target: Target) -> list[Any]:
    return [target.asarray(INPUTS[k]) for k in REAL_INPUTS]


def _run(target: Target, names: list[str]) -> list[Outcome] | Exception:
    args = _arguments(target)
    try:
        model = ep.export(_group_function(names), *args)
        results = ep.onnx_function(model)(*[target.to_numpy(a) for a in args])
    except Exception as exc:  # any failure: the group is retried one case at a time
        return exc
    results = results if isinstance(results, tuple) else (results,)
    outcomes: list[Outcome] = []
    position = 0
    for name in names:  # each case's results are consecutive outputs
        count = len(flatten(_eager(target, name)[1]))
        outcomes.append(("ok", list(results[position:position + count])))
        position += count
    return outcomes


_cache: dict[tuple[str, int], dict[str, Outcome]] = {}
_eager_cache: dict[tuple[str, str], Outcome] = {}


def _eager(target: Target, name: str) -> Outcome:
    key = (target.id, name)
    if key not in _eager_cache:
        try:
            x, y, s, i, m, v = _arguments(target)
            _eager_cache[key] = ("ok", CASES[name](x, y, s, i, m, None, v))
        except Exception as exc:
            _eager_cache[key] = ("raised", exc)
    return _eager_cache[key]


def _outcomes(target: Target, group: int) -> dict[str, Outcome]:
    key = (target.id, group)
    if key not in _cache:
        names = [n for n in GROUPS[group] if _eager(target, n)[0] == "ok"]
        together = _run(target, names) if names else []
        if isinstance(together, list):
            _cache[key] = dict(zip(names, together))
        else:
            outcomes: dict[str, Outcome] = {}
            for name in names:
                alone = _run(target, [name])
                outcomes[name] = alone[0] if isinstance(alone, list) else ("raised", alone)
            _cache[key] = outcomes
    return _cache[key]


@pytest.mark.parametrize("name", NAMES)
def test_exported(target: Target, name: str) -> None:
    """The case exported and run by onnxruntime gives the eager result (see the module)."""
    eager_kind, eager = _eager(target, name)
    if eager_kind == "raised":
        args = _arguments(target)
        with pytest.raises(Exception) as refused:
            ep.export(_group_function([name]), *args)
        if isinstance(eager, NotImplementedError):
            assert isinstance(refused.value, NotImplementedError), (
                f"{name}: eager refused it ({eager}), the export raised "
                f"{type(refused.value).__name__}: {str(refused.value)[:300]}")  # fmt: skip
        pytest.skip(f"{name} is not held eagerly either: {type(eager).__name__}: "
                    f"{str(eager)[:200]}")  # fmt: skip
    kind, got = _outcomes(target, GROUP_OF[name])[name]
    if kind == "raised":
        raise AssertionError(f"{name} exported raised {type(got).__name__}: "
                             f"{str(got).strip()[:500]}")  # fmt: skip
    want = flatten(eager)
    assert len(want) == len(got), f"{name}: {len(want)} results eagerly, {len(got)} exported"
    for k, (a, b) in enumerate(zip(want, got)):
        ea, eb = target.to_numpy(a), np.asarray(b)
        assert close(ea, eb, name), (
            f"{name}[{k}]: eager {ea.dtype}{ea.shape} {np.array2string(ea, threshold=12)} "
            f"!= exported {eb.dtype}{eb.shape} {np.array2string(eb, threshold=12)}")  # fmt: skip
