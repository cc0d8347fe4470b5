"""Shared helpers of the integration tests: the backends under test and result checks.

Each test computes a reference by calling the library on NumPy arrays, then calls it on
`eagerpy_xp.Array`s of one backend and checks the results leaf by leaf: every leaf that
is an array in the reference must be an `Array` of that backend, equal to the reference
within the backend's floating-point tolerance.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from eagerpy_xp import Array
from eagerpy_xp.testing import assert_allclose, installed_backends, namespace_for

#: NumPy input dtype kind -> the dtype names used for it, with and without 64-bit support.
_WIDE = {"f": "float64", "i": "int64", "c": "complex128"}
_NARROW = {"f": "float32", "i": "int32", "c": "complex64"}


#: Backends these suites leave out, and why (their own tests say what they hold).
NOT_HERE = {
    "ndonnx": "a graph builder for ONNX export: each eager operation runs through "
              "onnxruntime (milliseconds a call) and it holds no complex dtype, so these "
              "libraries' numerical code is not its use; tests/test_ndonnx.py, "
              "tests/test_export.py and the main job's columns cover it",
}


def targets() -> list[str]:
    """Every backend eagerpy_xp provides whose framework is installed (but `NOT_HERE`)."""
    return [name for name in installed_backends() if name not in NOT_HERE]


@dataclass(frozen=True)
class Target:
    """One backend's wrapped namespace plus the dtypes and tolerances used on it.

    JAX without ``JAX_ENABLE_X64`` has no 64-bit dtypes; there inputs are made 32-bit
    (and so are the NumPy inputs of the reference) and tolerances are wider.
    """

    name: str
    xp: ModuleType
    wide: bool
    #: Whether the default real floating dtype is float64 (False for torch and JAX).
    wide_default: bool

    @classmethod
    def load(cls, name: str) -> Target:
        xp = namespace_for(name, "wrapped")
        info = xp.__array_namespace_info__()
        return cls(name, xp, {"float64", "complex128"} <= set(info.dtypes()),
                   info.default_dtypes()["real floating"] == xp.float64)  # fmt: skip

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """The backend name, ``-x32`` added when it lacks the 64-bit floating dtypes (JAX
        without x64; MLX, which has no complex128): inputs are 32-bit there."""
        return self.name if self.wide else f"{self.name}-x32"

    @property
    def rtol(self) -> float:
        return 1e-9 if self.wide else 2e-4

    @property
    def atol(self) -> float:
        return 1e-10 if self.wide else 1e-5

    def cast(self, value: Any) -> np.ndarray:
        """``value`` as a NumPy array in the dtype this backend will hold it in."""
        value = np.asarray(value)
        names = _WIDE if self.wide else _NARROW
        kind = value.dtype.kind if value.dtype.kind != "u" else "i"
        return value.astype(names[kind]) if kind in names else value

    def asarray(self, value: Any) -> Array:
        """``value`` (NumPy) as an `Array` of this backend."""
        result: Array = self.xp.asarray(self.cast(value))
        return result

    def check(self, actual: Any, reference: Any, *, check_dtype: bool = True,
              rtol: float | None = None, atol: float | None = None, where: str = "result") -> None:  # fmt: skip
        """Compare ``actual`` (from Arrays) with ``reference`` (from NumPy), recursively."""
        rtol = self.rtol if rtol is None else rtol
        atol = self.atol if atol is None else atol
        if isinstance(reference, (np.ndarray, np.generic)):
            assert type(actual) is Array, f"{where}: expected an Array, got {type(actual)!r}"
            assert actual.backend == self.name, f"{where}: Array of {actual.backend}"
            if self._in_default_float(actual, reference):
                check_dtype, rtol, atol = False, max(rtol, 2e-6), max(atol, 1e-6)
            assert_allclose(actual, reference, rtol=rtol, atol=atol, err_msg=where,
                            check_dtype=check_dtype and self.wide)  # fmt: skip
        elif isinstance(reference, (tuple, list)):
            assert isinstance(actual, (tuple, list)), f"{where}: got {type(actual)!r}"
            assert len(actual) == len(reference), f"{where}: length {len(actual)}"
            for i, (a, r) in enumerate(zip(actual, reference, strict=True)):
                self.check(a, r, check_dtype=check_dtype, rtol=rtol, atol=atol,
                           where=f"{where}[{i}]")  # fmt: skip
        elif isinstance(reference, (bool, int, float, complex)):
            if isinstance(reference, float) and not self.wide_default:
                rtol, atol = max(rtol, 2e-6), max(atol, 1e-6)  # may be computed in float32
            assert_allclose(actual, reference, rtol=rtol, atol=atol, err_msg=where)
        else:
            assert actual == reference, f"{where}: {actual!r} != {reference!r}"


    def _in_default_float(self, actual: Array, reference: Any) -> bool:
        """A float32 result where NumPy gives float64, from a library that asked for the
        namespace's default floating dtype: the standard leaves that dtype to the library."""
        narrow = {"float64": self.xp.float32, "complex128": self.xp.complex64}
        wanted = narrow.get(str(reference.dtype))  # MLX's dtypes refuse == None
        return not self.wide_default and wanted is not None and actual.dtype == wanted


#: Failures whose cause lies in another library, by (test module, case id, `Target.label`):
#: the reason, with the reproducer in docs/ecosystem.md.  Each is a strict xfail, so a fix
#: upstream shows.  The module is part of the key: two modules may both have a case "pad".
KNOWN_FAILURES: dict[tuple[str, str, str], str] = {}


def known_failure(case: str, backends: tuple[str, ...], reason: str) -> None:
    """Record that ``case`` of the calling test module fails on ``backends``
    (`Target.label`s) for ``reason``."""
    module = sys._getframe(1).f_globals["__name__"]
    for backend in backends:
        KNOWN_FAILURES[module, case, backend] = reason


def expect_known_failure(request: Any, case: str, target: Target) -> None:
    """Mark the running test as a strict xfail when ``case`` of its module is known to fail
    on ``target``."""
    import pytest

    reason = KNOWN_FAILURES.get((request.module.__name__, case, target.label))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))


def rng_inputs(make: Callable[[np.random.Generator], tuple[Any, ...]],
               seed: int = 0) -> tuple[Any, ...]:  # fmt: skip
    """The inputs a case's ``make`` draws from a seeded generator."""
    return make(np.random.default_rng(seed))


X64_REASON = ("{library} asks for a 64-bit dtype by name; JAX without x64 has none, and "
              "eagerpy_xp raises instead of downcasting (docs/ecosystem.md, 'JAX without x64')")


def prints_ok(code: str) -> None:
    """Run ``code`` in a fresh interpreter: it must print ``ok``."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def registers_in_either_order(first: str, library: str, use: str) -> None:
    """In a fresh interpreter, ``import first`` then the other of eagerpy_xp and
    ``library``: ``use`` (statements on ``x``, a NumPy `Array`) must pass, ``library``
    keeps its own loader, the import hook waits for it no more, and no framework but
    NumPy was imported."""
    second = "eagerpy_xp" if first == library else library
    prints_ok(
        f"import sys, {first}, {second}, numpy as np\n"
        f"import eagerpy_xp as ep, {library}\n"
        "x = ep.numpy.asarray(np.arange(6.0).reshape(2, 3))\n"
        f"{use}\n"
        "from eagerpy_xp.interop import _ClientHook\n"
        "hooks = [f for f in sys.meta_path if isinstance(f, _ClientHook)]\n"
        f"assert all({library!r} not in f.waiting for f in hooks), hooks\n"
        f"assert {library}.__loader__ is {library}.__spec__.loader\n"
        f"assert type({library}.__loader__).__name__ == 'SourceFileLoader', {library}.__loader__\n"
        "assert not {'torch', 'jax', 'tensorflow', 'dask'} & set(sys.modules)\n"
        "print('ok')\n"
    )
