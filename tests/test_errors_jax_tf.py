"""The error contract (issue 15) on the JAX and TensorFlow backends, native functions and
the wrapped flavour: the contract's exception type, a message naming the function and the
backend, the framework's error kept as ``__cause__``.  Calls that used to abort the
process run in a subprocess, so a regression cannot kill the test run.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest

BACKENDS = ("jax", "tensorflow")


@pytest.fixture(params=[(b, f) for b in BACKENDS for f in ("native", "wrapped")],
                ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
def xp(request: pytest.FixtureRequest) -> ModuleType:
    backend, flavour = request.param
    pytest.importorskip(backend, reason=f"{backend} is not installed")
    prefix = "eagerpy_xp.native." if flavour == "native" else "eagerpy_xp."
    return importlib.import_module(prefix + backend)


def backend_of(xp: ModuleType) -> str:
    return xp.__name__.rsplit(".", 1)[-1]


def raises(kind: type[Exception], function: str, xp: ModuleType, call: Any) -> Exception:
    """``call()`` raises exactly the contract's ``kind`` naming function and backend."""
    with pytest.raises(Exception) as info:
        call()
    error = info.value
    assert type(error).__module__ in ("builtins", "eagerpy_xp.native._base.core"), repr(error)
    assert isinstance(error, kind), repr(error)
    assert function in str(error) and backend_of(xp) in str(error), str(error)
    return error


def f32(xp: ModuleType, values: Any) -> Any:
    return xp.asarray(np.asarray(values, dtype="float32"))


@pytest.mark.parametrize("name", ["add", "multiply", "copysign", "maximum", "less", "hypot"])
def test_shapes_that_do_not_broadcast(xp: ModuleType, name: str) -> None:
    a, b = f32(xp, np.ones((2, 3))), f32(xp, np.ones(4))
    raises(ValueError, name, xp, lambda: getattr(xp, name)(a, b))


def test_tensorflow_translates_its_op_errors() -> None:
    """TensorFlow's own error is kept as the cause, its op decorations dropped."""
    import tensorflow as tf

    import eagerpy_xp.native.tensorflow as nt

    a, b = nt.ones((2, 3)), nt.ones(4)
    error = raises(ValueError, "add", nt, lambda: nt.add(a, b))
    assert isinstance(error.__cause__, tf.errors.InvalidArgumentError)
    assert "[Op:" not in str(error) and "{{" not in str(error)
    raises(ValueError, "reshape", nt, lambda: nt.reshape(a, (4,)))
    raises(ValueError, "stack", nt, lambda: nt.stack([a, b]))
    raises(ValueError, "where", nt, lambda: nt.where(nt.asarray([True, False]), a, a))


def test_wrapped_indices_out_of_range(xp: ModuleType) -> None:
    """Python ints and concrete integer arrays out of range: `IndexError` naming the index
    and the axis size (JAX would clamp, TensorFlow names "slice index -1")."""
    if xp.__name__.startswith("eagerpy_xp.native"):
        pytest.skip("indexing a native array is the framework's own operator")
    v, m = f32(xp, [1.0, 2.0, 3.0]), f32(xp, np.ones((2, 3)))
    error = raises(IndexError, "__getitem__", xp, lambda: v[-4])
    assert "-4" in str(error) and "size 3" in str(error)
    raises(IndexError, "__getitem__", xp, lambda: v[5])
    raises(IndexError, "__getitem__", xp, lambda: m[:, 7])
    raises(IndexError, "__getitem__", xp, lambda: m[0, 0, 0])
    index = xp.asarray(np.array([0, 7], dtype="int32"))
    error = raises(IndexError, "__getitem__", xp, lambda: v[index])
    assert "7" in str(error) and "size 3" in str(error)
    negative = xp.asarray(np.array([0, -4], dtype="int32"))
    raises(IndexError, "__getitem__", xp, lambda: v[negative])
    assert np.asarray(v[xp.asarray(np.array([-3, 2], dtype="int32"))].raw).tolist() == [1.0, 3.0]


def test_take_out_of_range(xp: ModuleType) -> None:
    v = f32(xp, [1.0, 2.0, 3.0])
    bad = xp.asarray(np.array([7], dtype="int32"))
    error = raises(IndexError, "take", xp, lambda: xp.take(v, bad))
    assert "7" in str(error)
    raises(IndexError, "take", xp, lambda: xp.take(v, bad, axis=0))
    raises(IndexError, "take", xp, lambda: xp.take(f32(xp, np.ones((2, 3))), bad, axis=-1))
    raises(IndexError, "take_along_axis", xp, lambda: xp.take_along_axis(v, bad, axis=0))
    good = xp.asarray(np.array([-3], dtype="int32"))
    assert float(xp.take(v, good)[0]) == 1.0


def test_wrong_answers_become_errors(xp: ModuleType) -> None:
    c = xp.asarray(np.ones(2, dtype="complex64"))
    raises(TypeError, "astype", xp, lambda: xp.astype(c, xp.float32))
    assert xp.astype(c, xp.bool).dtype == xp.bool  # complex to bool is allowed
    t = xp.asarray(np.array([True]))
    raises(TypeError, "bitwise_left_shift", xp, lambda: xp.bitwise_left_shift(t, t))
    raises(TypeError, "bitwise_right_shift", xp, lambda: xp.bitwise_right_shift(t, t))
    cube = f32(xp, np.ones((2, 3, 4)))
    raises(ValueError, "moveaxis", xp, lambda: xp.moveaxis(cube, (0, 1), (2, 2)))
    raises(ValueError, "arange", xp, lambda: xp.arange(0, 10, 0))


def test_dtype_strings_get_a_hint(xp: ModuleType) -> None:
    error = raises(TypeError, "asarray", xp, lambda: xp.asarray([1.0], dtype="float32"))
    assert "dtype objects" in str(error)


def test_huge_sizes_on_tensorflow() -> None:
    import eagerpy_xp.native.tensorflow as nt

    raises(MemoryError, "full", nt, lambda: nt.full((2**20, 2**20), 1.0, dtype=nt.float32))


_CRASHERS = """
import sys
import eagerpy_xp.native.jax as xp
calls = {
    "zeros": lambda: xp.zeros((2**31,) * 3), "ones": lambda: xp.ones((2**31,) * 3),
    "empty": lambda: xp.empty((2**31,) * 3), "full": lambda: xp.full((2**31,) * 3, 1.0),
    "arange": lambda: xp.arange(0, 2**62), "eye": lambda: xp.eye(2**40),
    "linspace": lambda: xp.linspace(0, 1, 2**40), "zeros ": lambda: xp.zeros((2**40,)),
}
for name, call in calls.items():
    try:
        call()
    except (ValueError, MemoryError) as error:
        assert name.strip() in str(error) and "jax" in str(error), error
        print(name.strip(), type(error).__name__)
    else:
        print(name.strip(), "no error")
"""


def test_jax_sizes_that_abort_xla_raise_instead() -> None:
    """Each of these aborted the process (XLA's "overflow in static extent product", or
    a failed allocation read later); now ValueError past 2**59 elements, MemoryError
    beyond the device's memory."""
    pytest.importorskip("jax", reason="JAX is not installed")
    done = subprocess.run([sys.executable, "-c", _CRASHERS], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [
        "zeros", "ValueError", "ones", "ValueError", "empty", "ValueError", "full",
        "ValueError", "arange", "ValueError", "eye", "ValueError", "linspace", "MemoryError",
        "zeros", "MemoryError"]  # fmt: skip


def test_jax_64bit_numpy_arrays_without_x64() -> None:
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    import eagerpy_xp.native.jax as nj

    with jax.enable_x64(False):
        error = raises(ValueError, "asarray", nj, lambda: nj.asarray(np.ones(2)))
        assert "JAX_ENABLE_X64=1" in str(error)
