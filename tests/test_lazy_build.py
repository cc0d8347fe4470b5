"""What a first call builds: ``namespace(x)`` of a native array builds the native
namespace only; the wrapped one (``eagerpy_xp.<backend>``) is built by the first way to an
`Array` (``astensor``, ``Array(x)``, ``convert``) or by importing it, so an `Array` never
finds its namespace missing.  A backend's methods learn their parameters from their code
objects (`core._parameters`), not from `inspect.signature`, and must learn what it says.

The builds run in fresh processes (NumPy only: the mechanism is the same on every backend).
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

from eagerpy_xp.native._base import core

_PROGRAM = """
import sys
import numpy as np
import eagerpy_xp as ep
x = np.linspace(0.0, 1.0, 4, dtype=np.float32)
xp = ep.namespace(x)
xp.sin(x)
print("native", "eagerpy_xp.numpy" in sys.modules)
{make}
print("after", "eagerpy_xp.numpy" in sys.modules)
a = ep.astensor(x) if {make!r} != "pass" else None
print("built", a is None or a.__array_namespace__() is sys.modules["eagerpy_xp.numpy"])
"""


@pytest.mark.parametrize("make, built", [
    ("pass", False),
    ("ep.astensor(x)", True),
    ("ep.Array(x)", True),
    ("ep.convert(x, 'numpy')", True),  # (its source backend: `_detect.backend_for`)
    ("import eagerpy_xp.numpy", True),
    ("ep.numpy", True),
])  # fmt: skip
def test_the_wrapped_namespace_is_built_on_the_way_to_an_array(make: str, built: bool) -> None:
    done = subprocess.run([sys.executable, "-c", _PROGRAM.format(make=make)],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.split()
    assert lines[:2] == ["native", "False"]  # namespace(x) of a native array: native only
    assert lines[2:] == ["after", str(built), "built", "True"]


def _translated_methods() -> list[tuple[str, object]]:
    import eagerpy_xp.native.numpy as xp

    backend = xp.__backend__
    found = []
    for owner in (backend, backend.linalg, backend.fft):
        for name in dir(type(owner)):
            method = getattr(type(owner), name, None)
            original = getattr(method, "__wrapped__", None)
            if callable(method) and original is not None and hasattr(original, "__code__"):
                found.append((f"{type(owner).__name__}.{name}", original))
    return found


def test_parameters_read_from_code_are_the_signatures() -> None:
    methods = _translated_methods()
    assert len(methods) > 100  # (NumPy's element-wise functions are its own fast paths)
    for where, original in methods:
        want = [(p.name, p.kind) for p in list(inspect.signature(original).parameters.values())[1:]]  # type: ignore[arg-type]
        assert core._parameters(original) == want, where  # type: ignore[arg-type]


def test_parameters_of_every_kind() -> None:
    def f(self, a, /, b, *arrays, c, d=1, **kw):  # type: ignore[no-untyped-def]
        e = 2  # a local after the parameters: not one of them
        return e

    P = inspect.Parameter
    assert core._parameters(f) == [("a", P.POSITIONAL_ONLY), ("b", P.POSITIONAL_OR_KEYWORD),
                                   ("arrays", P.VAR_POSITIONAL), ("c", P.KEYWORD_ONLY),
                                   ("d", P.KEYWORD_ONLY)]  # fmt: skip
    # where the checks come from: positional-only x, a variadic `arrays`
    assert core._checks(f, [("x", P.POSITIONAL_ONLY), ("arrays", P.VAR_POSITIONAL)]) == \
        ((0, None, False, "array"), (1, None, False, "rest"))  # fmt: skip


def test_a_failed_call_still_names_its_arguments() -> None:
    """The signature a failure needs (`core._bound`) is read then, from the method."""
    import eagerpy_xp.native.numpy as xp

    backend = xp.__backend__
    method = type(backend).argsort.__wrapped__
    assert core._bound(method, backend, (1.5,), {"axis": 0}) == {"x": 1.5, "axis": 0}
    assert core._bound(inspect.signature(method), backend, (1.5,), {}) == {"x": 1.5}
    assert core._bound(method, backend, (1.5,), {"nope": 0}) == {}
    with pytest.raises(TypeError, match="argsort"):
        xp.argsort([1.0])
