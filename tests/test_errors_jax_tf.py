"""The error contract (issue 15) on the JAX and TensorFlow backends, native functions and
the wrapped flavour: the contract's exception type, a message naming the function and the
backend, the framework's error kept as ``__cause__``.  Calls that used to abort the
process run in a subprocess, so a regression cannot kill the test run.
"""

from __future__ import annotations

import importlib
import os
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


# -- dtype categories (issue 15): the standard's "should have a ... data type" ---------------
def _array(xp: ModuleType, dtype: str, shape: tuple[int, ...]) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) % 3
    return xp.asarray(values.astype(dtype))


#: (function, dtype outside its category, operands, shape); every element-wise function
#: with a fast path appears with a dtype its fast path must not take.
_OUT_OF_CATEGORY = [
    ("exp", "int32", 1, (2, 3)), ("sin", "bool", 1, (2, 3)), ("sqrt", "int64", 1, (2, 3)),
    ("log", "uint8", 1, (2, 3)), ("tan", "int16", 1, (2, 3)), ("tanh", "bool", 1, (2, 3)),
    ("negative", "bool", 1, (2, 3)), ("abs", "bool", 1, (2, 3)), ("sign", "bool", 1, (2, 3)),
    ("square", "bool", 1, (2, 3)), ("round", "bool", 1, (2, 3)), ("isnan", "bool", 1, (2, 3)),
    ("signbit", "int32", 1, (2, 3)), ("imag", "float32", 1, (2, 3)),
    ("ceil", "complex64", 1, (2, 3)), ("logical_not", "float32", 1, (2, 3)),
    ("bitwise_invert", "float32", 1, (2, 3)), ("reciprocal", "int32", 1, (2, 3)),
    ("sum", "bool", 1, (2, 3)), ("prod", "bool", 1, (2, 3)), ("mean", "int32", 1, (2, 3)),
    ("std", "int32", 1, (2, 3)), ("max", "complex64", 1, (2, 3)),
    ("argsort", "complex64", 1, (2, 3)), ("cumulative_sum", "bool", 1, (6,)),
    ("add", "bool", 2, (2, 3)), ("multiply", "bool", 2, (2, 3)), ("divide", "bool", 2, (2, 3)),
    ("pow", "bool", 2, (2, 3)), ("atan2", "int32", 2, (2, 3)), ("hypot", "int16", 2, (2, 3)),
    ("less", "complex64", 2, (2, 3)), ("maximum", "complex128", 2, (2, 3)),
    ("bitwise_and", "float32", 2, (2, 3)), ("bitwise_left_shift", "bool", 2, (2, 3)),
    ("logical_and", "float32", 2, (2, 3)), ("floor_divide", "bool", 2, (2, 3)),
    ("remainder", "complex64", 2, (2, 3)), ("nextafter", "int32", 2, (2, 3)),
    ("matmul", "bool", 2, (3, 3)), ("tensordot", "bool", 2, (3, 3)),
    ("vecdot", "bool", 2, (2, 3)), ("searchsorted", "bool", 2, (4,)),
    ("linalg.det", "int32", 1, (3, 3)), ("linalg.inv", "bool", 1, (3, 3)),
    ("linalg.outer", "bool", 2, (4,)), ("linalg.solve", "int32", 2, (3, 3)),
    ("linalg.cross", "bool", 2, (2, 3)), ("linalg.vector_norm", "int64", 1, (2, 3)),
    ("fft.fft", "float32", 1, (4,)), ("fft.rfft", "complex64", 1, (4,)),
    ("fft.ihfft", "int32", 1, (4,)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "dtype", "operands", "shape"), _OUT_OF_CATEGORY,
                         ids=[f"{c[0]}-{c[1]}" for c in _OUT_OF_CATEGORY])  # fmt: skip
def test_dtype_outside_the_category(xp: ModuleType, name: str, dtype: str, operands: int,
                                    shape: tuple[int, ...]) -> None:  # fmt: skip
    """`TypeError` in the contract's format, naming the dtype (the fast paths take only
    dtypes of the category, so they must not answer here)."""
    fn: Any = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    a = _array(xp, dtype, shape)
    error = raises(TypeError, name, xp, lambda: fn(*[a] * operands))
    assert str(error).startswith(f"eagerpy_xp.{backend_of(xp)}.{name}: "), str(error)
    assert dtype in str(error), str(error)


def test_where_condition_must_be_boolean(xp: ModuleType) -> None:
    a = _array(xp, "float32", (2, 3))
    error = raises(TypeError, "where", xp, lambda: xp.where(a, a, a))
    assert "boolean" in str(error) and "float32" in str(error)


# -- non-arrays and other libraries where arrays belong --------------------------------------
@pytest.mark.parametrize("bad", ["abc", None, [1.0, 2.0], object(), np.ones((2, 3))],
                         ids=["str", "None", "list", "object", "numpy"])  # fmt: skip
def test_non_arrays_and_other_libraries(xp: ModuleType, bad: Any) -> None:
    """``jax.numpy`` takes NumPy arrays and lists; each raises `TypeError` here."""
    a = f32(xp, np.ones((2, 3)))
    raises(TypeError, "exp", xp, lambda: xp.exp(bad))
    raises(TypeError, "add", xp, lambda: xp.add(a, bad))
    raises(TypeError, "add", xp, lambda: xp.add(bad, a))
    raises(TypeError, "sum", xp, lambda: xp.sum(bad))
    raises(TypeError, "matmul", xp, lambda: xp.matmul(a, bad))
    raises(TypeError, "concat", xp, lambda: xp.concat([a, bad]))
    raises(TypeError, "where", xp, lambda: xp.where(xp.asarray(np.ones((2, 3), bool)), a, bad))
    raises(TypeError, "linalg.outer", xp, lambda: xp.linalg.outer(a[0], bad))
    raises(TypeError, "meshgrid", xp, lambda: xp.meshgrid(a[0], bad))
    raises(TypeError, "broadcast_arrays", xp, lambda: xp.broadcast_arrays(a, bad))


def test_take_needs_an_integer_index_array(xp: ModuleType) -> None:
    v = f32(xp, [1.0, 2.0, 3.0])
    raises(TypeError, "take", xp, lambda: xp.take(v, f32(xp, [0.0])))
    raises(TypeError, "take", xp, lambda: xp.take(v, [0]))  # a list is not an array
    raises(TypeError, "take_along_axis", xp, lambda: xp.take_along_axis(v, f32(xp, [0.0])))


# -- messages name the function called, and the value at fault ------------------------------
def test_messages_name_the_function_called(xp: ModuleType) -> None:
    """A helper's message (``linalg.matmul`` calls ``matmul``) names the function the user
    called, in the documented prefix."""
    b = backend_of(xp)
    m = f32(xp, np.ones((2, 3)))
    cases = {
        "linalg.matmul": lambda: xp.linalg.matmul(m, m),
        "linalg.matrix_norm": lambda: xp.linalg.matrix_norm(f32(xp, np.eye(3)), ord="abc"),
        "fft.fft": lambda: xp.fft.fft(xp.asarray(np.ones(4, "complex64")), norm="bogus"),
        "fft.ihfft": lambda: xp.fft.ihfft(f32(xp, np.ones(4)), axis=4),
        "fft.hfft": lambda: xp.fft.hfft(xp.asarray(np.ones(4, "complex64")), n=0),
        "empty": lambda: xp.empty((2,), dtype=42),
        "astype": lambda: xp.astype(m, xp.float64, device="tpu:7"),
        "linalg.trace": lambda: xp.linalg.trace(f32(xp, [1.0, 2.0])),
    }
    for name, call in cases.items():
        with pytest.raises((TypeError, ValueError)) as info:
            call()
        assert str(info.value).startswith(f"eagerpy_xp.{b}.{name}: "), str(info.value)


@pytest.mark.parametrize(("name", "call", "kind", "needle"), [
    ("argmax", lambda xp, m: xp.argmax(m, axis=-4), ValueError, "-4"),
    ("mean", lambda xp, m: xp.mean(m, axis=2), ValueError, "2"),
    ("sum", lambda xp, m: xp.sum(m, axis="0"), TypeError, "'0'"),
    ("flip", lambda xp, m: xp.flip(m, axis=(0, -2)), ValueError, "(0, -2)"),
    ("fft.fftshift", lambda xp, m: xp.fft.fftshift(m, axes=(5,)), ValueError, "5"),
    ("fft.rfft", lambda xp, m: xp.fft.rfft(m, n=0), ValueError, "0"),
    ("fft.rfft", lambda xp, m: xp.fft.rfft(m, n=2.5), TypeError, "2.5"),
    ("reshape", lambda xp, m: xp.reshape(m, (2.5, 2)), TypeError, "2.5"),
    ("reshape", lambda xp, m: xp.reshape(m, (-1, -1)), ValueError, "(-1, -1)"),
    ("tile", lambda xp, m: xp.tile(m, (1.5,)), TypeError, "1.5"),
    ("tril", lambda xp, m: xp.tril(m, k=1.5), TypeError, "1.5"),
    ("repeat", lambda xp, m: xp.repeat(m, 1.5), TypeError, "1.5"),
    ("repeat", lambda xp, m: xp.repeat(m, -1), ValueError, "-1"),
    ("linspace", lambda xp, m: xp.linspace(0, 1, 2.5), TypeError, "2.5"),
    ("zeros", lambda xp, m: xp.zeros(2, device="bogus"), ValueError, "'bogus'"),
    ("asarray", lambda xp, m: xp.asarray([1.0], device="cpu:3"), ValueError, "'cpu:3'"),
])  # fmt: skip
def test_messages_name_the_value_at_fault(xp: ModuleType, name: str, call: Any,
                                          kind: type[Exception], needle: str) -> None:  # fmt: skip
    """Where the framework's message omits it ("tuple index out of range", "Shape should
    be positive.", TensorFlow's indexing complaint for ``n=2.5``)."""
    error = raises(kind, name, xp, lambda: call(xp, f32(xp, np.ones((2, 3)))))
    assert str(error).startswith(f"eagerpy_xp.{backend_of(xp)}.{name}: "), str(error)
    assert needle in str(error), str(error)


def test_shape_errors_are_value_errors(xp: ModuleType) -> None:
    """JAX reports these shapes as `TypeError` ("dot_general requires contracting
    dimensions", "must have rank at least 2"); TensorFlow as `InvalidArgumentError`."""
    m, v = f32(xp, np.ones((2, 3))), f32(xp, np.ones(3))
    raises(ValueError, "matmul", xp, lambda: xp.matmul(m, m))
    raises(ValueError, "tensordot", xp, lambda: xp.tensordot(m, f32(xp, np.ones((4, 2))), axes=1))
    raises(ValueError, "linalg.svd", xp, lambda: xp.linalg.svd(v))
    raises(ValueError, "linalg.cholesky", xp, lambda: xp.linalg.cholesky(m))
    raises(ValueError, "linalg.matrix_power", xp, lambda: xp.linalg.matrix_power(v, 2))
    raises(ValueError, "reshape", xp, lambda: xp.reshape(m, (5,)))
    raises(ValueError, "concat", xp, lambda: xp.concat([m, f32(xp, np.ones((2, 4)))]))
    raises(ValueError, "logical_xor", xp, lambda: xp.logical_xor(
        xp.asarray(np.ones((2, 3), bool)), xp.asarray(np.ones(5, bool))))  # fmt: skip


def test_more_wrong_answers_become_errors(xp: ModuleType) -> None:
    """Calls the framework answered (JAX: negative tensordot axes, a broadcast shift, a
    negative correction, empty frequencies; TensorFlow: ``isdtype(float64, 3)``, as
    ``tf.float64 == 3``-style enum comparisons, and two FFT lengths for one axis)."""
    m = f32(xp, np.ones((2, 3)))
    raises(ValueError, "tensordot", xp, lambda: xp.tensordot(m, m, axes=-1))
    raises(TypeError, "tensordot", xp, lambda: xp.tensordot(m, m, axes=1.5))
    raises(ValueError, "roll", xp, lambda: xp.roll(m, (1, 2), axis=0))
    raises(ValueError, "var", xp, lambda: xp.var(m, correction=-1))
    raises(TypeError, "std", xp, lambda: xp.std(m, correction="a"))
    raises(ValueError, "fft.fftfreq", xp, lambda: xp.fft.fftfreq(0))
    raises(ValueError, "fft.rfftfreq", xp, lambda: xp.fft.rfftfreq(-1))
    raises(TypeError, "fft.rfftfreq", xp, lambda: xp.fft.rfftfreq(2.5))
    raises(ValueError, "fft.ifftn", xp,
           lambda: xp.fft.ifftn(xp.asarray(np.ones(4, "complex64")), s=(4, 4)))  # fmt: skip
    raises(TypeError, "isdtype", xp, lambda: xp.isdtype(xp.float64, 3))
    assert "'abc'" in str(raises(TypeError, "full", xp, lambda: xp.full((2,), "abc")))
    assert "'abc'" in str(raises(TypeError, "full_like", xp, lambda: xp.full_like(m, "abc")))
    raises(TypeError, "full_like", xp, lambda: xp.full_like(m, None))
    raises(TypeError, "arange", xp, lambda: xp.arange("a"))
    raises(ValueError, "asarray", xp, lambda: xp.asarray([[1.0, 2.0], [3.0]]))
    raises(TypeError, "repeat", xp, lambda: xp.repeat(m, f32(xp, [1.0, 2.0])))


def test_repeat_beyond_memory(xp: ModuleType) -> None:
    raises(MemoryError, "repeat", xp, lambda: xp.repeat(f32(xp, [1.0, 2.0, 3.0]), 2**40))


# -- the array object: keys, values and devices ---------------------------------------------
def test_bad_keys_are_index_errors(xp: ModuleType) -> None:
    if xp.__name__.startswith("eagerpy_xp.native"):
        pytest.skip("indexing a native array is the framework's own operator")
    m = f32(xp, np.ones((2, 3)))
    for key in (1.5, "a", (Ellipsis, Ellipsis), object(), xp.asarray(np.array([True] * 3))):
        raises(IndexError, "__getitem__", xp, lambda key=key: m[key])
    with pytest.raises(IndexError, match=r"\.Array\.__setitem__: "):
        m[1.5] = 1.0
    with pytest.raises(IndexError, match=r"\.Array\.__setitem__: .*7"):
        m[xp.asarray(np.array([0, 7]))] = 1.0
    with pytest.raises(ValueError, match=r"\.Array\.__setitem__: "):
        m[0, :] = f32(xp, np.ones(5))
    assert np.asarray(m.raw).tolist() == np.ones((2, 3)).tolist()  # nothing was written


def test_to_device_names_the_array_method(xp: ModuleType) -> None:
    if xp.__name__.startswith("eagerpy_xp.native"):
        pytest.skip("to_device of a native array is the framework's own method")
    m = f32(xp, np.ones(2))
    for device in ("bogus", "tpu:7", "cpu:3"):
        with pytest.raises(ValueError, match=rf"eagerpy_xp\.\w+\.Array\.to_device: .*'{device}'"):
            m.to_device(device)


_NO_KERNEL_LOGS = """
import numpy as np
import eagerpy_xp as ep
import eagerpy_xp.native.tensorflow as nt
m = ep.astensor(nt.asarray(np.ones((2, 3))))
v = ep.astensor(nt.asarray(np.ones(3)))
for call, index in ((lambda: m[0, 0, 0], "3 indices"), (lambda: v[-4], "index -4"),
                    (lambda: v[nt.asarray(np.array([0, 7]))], "index 7"),
                    (lambda: nt.take(nt.asarray(np.ones(3)), nt.asarray(np.array([7]))), "index 7")):
    try:
        call()
    except IndexError as error:
        assert index in str(error), error
        print("IndexError")
"""


def test_tensorflow_out_of_range_indices_log_nothing() -> None:
    """``x[0, 0, 0]`` on 2-D, ``x[-4]`` on 3 rows and out-of-range index arrays raise
    `IndexError` naming the index, checked before a kernel runs: TensorFlow's failing
    kernels write C++ log lines (``OP_REQUIRES failed``) to stderr."""
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    done = subprocess.run([sys.executable, "-c", _NO_KERNEL_LOGS], capture_output=True,
                          text=True, timeout=300, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["IndexError"] * 4
    assert "OP_REQUIRES" not in done.stderr and "op_kernel" not in done.stderr, done.stderr


# -- the extensions ------------------------------------------------------------------------
def test_labels_out_of_range(xp: ModuleType) -> None:
    """``crossentropy`` and ``onehot_like`` with a label beyond the classes: `IndexError`
    naming the extension (``onehot_like`` gave a row of zeros)."""
    import eagerpy_xp as ep

    logits = f32(xp, np.zeros((2, 3)))
    for bad in ([0, 5], [0, -4]):
        labels = xp.asarray(np.array(bad))
        error = raises(IndexError, "crossentropy", xp,
                       lambda labels=labels: ep.crossentropy(logits, labels))  # fmt: skip
        assert str(bad[1]) in str(error)
        raises(IndexError, "onehot_like", xp, lambda labels=labels: ep.onehot_like(logits, labels))
    onehot = ep.onehot_like(logits, xp.asarray(np.array([0, -1])))  # -1: the last class
    assert np.asarray(getattr(onehot, "raw", onehot)).tolist() == [[1, 0, 0], [0, 0, 1]]
