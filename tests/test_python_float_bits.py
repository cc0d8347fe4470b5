"""Python floats that need every bit of float64, through every creation function and the
writes, on every backend and both flavours.

Found by hypothesis' array-API strategies (tests/integration/test_hypothesis_strategies.py):
MLX's ``full((2,), 16777217.0, dtype=float64)`` gave ``16777216.0`` and ``1e300`` gave
``inf`` (the value went through a float32 MLX scalar first).  Each value must arrive exactly
in float64 (and in complex128's parts), and rounded once, as NumPy rounds it, in float32.
"""

from __future__ import annotations

import enum
import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

xp = namespaces("numpy", "torch", "jax", "tensorflow", "dask", "mlx")

#: Beyond float32's precision or range, subnormal in float64, signed zero, the extremes
FLOATS = [16777217.0, 1 + 2**-52, 1e300, -1e-300, 5e-324, 2.2250738585072014e-308,
          1.7976931348623157e308, -0.0, 0.1, 1 / 3, 3.4028235677973366e38]  # fmt: skip


def _computed(v: float) -> bool:
    """Whether ``v`` is a finite normal number: what arithmetic must keep exactly."""
    return math.isfinite(v) and abs(v) >= 2.2250738585072014e-308


def same_bits(got: np.ndarray, expected: list[Any], where: str) -> None:
    want = np.asarray(expected, dtype=got.dtype)
    assert got.shape == want.shape, f"{where}: shape {got.shape}"
    assert got.tobytes() == want.tobytes(), f"{where}: {got.tolist()!r} != {want.tolist()!r}"


def _host(x: Any) -> np.ndarray:
    v = values(x)
    return np.asarray(v.compute() if hasattr(v, "compute") else v)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_creation_path_keeps_the_float(xp: ModuleType, dtype: str) -> None:
    d = getattr(xp, dtype)
    like = xp.zeros((3,), dtype=d)
    for v in FLOATS:
        expected = [v] if dtype == "float64" else [float(np.float32(v))]  # NumPy's rounding
        with np.errstate(over="ignore"):
            one = np.asarray(expected, dtype=dtype).tolist()
        if math.isinf(one[0]):
            continue  # beyond float32's range: implementation-defined (torch's full raises)
        same_bits(_host(xp.full((2,), v, dtype=d)), one * 2, f"full({v!r})")
        same_bits(_host(xp.full_like(like, v)), one * 3, f"full_like({v!r})")
        same_bits(_host(xp.asarray(v, dtype=d)).reshape(1), one, f"asarray({v!r})")
        same_bits(_host(xp.asarray([v, v], dtype=d)), one * 2, f"asarray([{v!r}])")
        if not _computed(one[0]):
            # below: arithmetic (start + i * step), whose signed zeros the standard leaves
            # open, and where XLA (JAX, TensorFlow) flushes subnormals
            continue
        same_bits(_host(xp.linspace(v, v, 2, dtype=d)), one * 2, f"linspace({v!r})")
        if abs(v) < 1e300:
            same_bits(_host(xp.arange(v, v + abs(v) + 1, abs(v) + 1, dtype=d)), one,
                      f"arange({v!r})")  # fmt: skip


def test_writes_keep_the_float(xp: ModuleType) -> None:
    if not xp.__name__.startswith("eagerpy_xp.native"):
        target = xp.zeros((2,), dtype=xp.float64)
        for v in FLOATS:
            target[0] = v
            target[1:] = v
            same_bits(_host(target), [v, v], f"x[...] = {v!r}")
    x = xp.zeros((2,), dtype=xp.float64)
    for v in [f for f in FLOATS if _computed(f) or f == 0]:
        same_bits(_host(xp.where(x == 0, v, x)), [v, v], f"where(.., {v!r}, x)")
        same_bits(_host(x + v), [v + 0.0, v + 0.0], f"x + {v!r}")


def test_complex_parts_keep_the_float(xp: ModuleType) -> None:
    if "complex128" not in xp.__array_namespace_info__().dtypes():
        pytest.skip("this backend has no complex128 (MLX: docs/mlx.md)")
    for v in FLOATS:
        z = complex(v, -v)
        same_bits(_host(xp.full((1,), z, dtype=xp.complex128)), [z], f"full({z!r})")
        same_bits(_host(xp.asarray([z], dtype=xp.complex128)), [z], f"asarray({z!r})")


class _Three(enum.IntEnum):
    THREE = 3


#: Instances of subclasses of Python's scalar types, each beside the plain scalar it is
SUBCLASS_SCALARS = [(np.float64(2.5), 2.5), (np.float64(-0.0), -0.0), (np.float64(16777217.0), 16777217.0),
                    (np.complex128(1.5 - 2j), 1.5 - 2j), (_Three.THREE, 3)]  # fmt: skip


def _same(xp: ModuleType, got: Any, want: Any, where: str) -> None:
    assert got.dtype == want.dtype, f"{where}: {got.dtype} != {want.dtype}"
    same_bits(_host(got), _host(want).tolist(), where)


@pytest.mark.parametrize(("scalar", "plain"), SUBCLASS_SCALARS, ids=repr)
def test_subclasses_of_python_scalars_are_those_scalars(xp: ModuleType, scalar: Any,
                                                       plain: Any) -> None:  # fmt: skip
    """NumPy's float64 and complex128 scalars are Python floats and complexes (and an
    IntEnum member an int): wherever the standard takes a Python scalar they give what
    the plain scalar gives, dtype (weak promotion) and bits, on every backend.  Before,
    torch, JAX, TensorFlow, Dask and MLX refused them ("expected a torch.Tensor, got
    float64"), TensorFlow's full failed with a KeyError, and NumPy promoted float32 with
    them to float64."""
    wrapped = not xp.__name__.startswith("eagerpy_xp.native")
    dtypes = [n for n in ("float32", "float64", "complex64")
              if n in xp.__array_namespace_info__().dtypes()]  # fmt: skip
    if isinstance(plain, int):
        dtypes.append("int32")
    for name in dtypes:
        if isinstance(plain, complex) and not name.startswith("complex"):
            continue
        d = getattr(xp, name)
        x = xp.asarray([1, 2], dtype=d)
        calls = _calls(xp, x, d, name, plain, wrapped)
        for where, call in calls:
            _same(xp, call(scalar), call(plain), f"{where}({scalar!r}) in {name}")
        if wrapped:
            y, z = xp.asarray([1, 2], dtype=d), xp.asarray([1, 2], dtype=d)
            y += scalar
            z += plain
            y[0], z[0] = scalar, plain
            _same(xp, y, z, f"x += / x[0] = {scalar!r} in {name}")


def _calls(xp: ModuleType, x: Any, d: Any, name: str, plain: Any,
           wrapped: bool) -> list[tuple[str, Any]]:  # fmt: skip
    """(label, call of a scalar) for each place the standard takes a Python scalar, for an
    array ``x`` of dtype ``d`` (named ``name``)."""
    calls = [("multiply", lambda v: xp.multiply(x, v)), ("subtract first", lambda v: xp.subtract(v, x)),
             ("where", lambda v: xp.where(x == 1, v, x)),
             ("full", lambda v: xp.full((2,), v, dtype=d)), ("full_like", lambda v: xp.full_like(x, v))]  # fmt: skip
    real = not isinstance(plain, complex) and not name.startswith("complex")
    if not isinstance(plain, complex):
        calls += [("pow", lambda v: xp.pow(x, v))]
    if real:
        calls += [("greater", lambda v: xp.greater(x, v)), ("clip", lambda v: xp.clip(x, min=v)),
                  ("clip max", lambda v: xp.clip(x, None, v)), ("maximum", lambda v: xp.maximum(v, x))]  # fmt: skip
    if wrapped:
        calls += [("x * v", lambda v: x * v), ("v - x", lambda v: v - x), ("x == v", lambda v: x == v)]
        if not isinstance(plain, complex):
            calls += [("x ** v", lambda v: x ** v)]
        if real:
            calls += [("x < v", lambda v: x < v)]
    return calls


def test_two_numpy_scalars_stay_numpy_scalars() -> None:
    """Beside an array a NumPy float64 scalar is a Python float; two NumPy scalars (what
    Dask's chunks of a reduction hold, handed to the NumPy backend) stay NumPy's own 0-d
    arrays and keep NumPy's promotion."""
    import eagerpy_xp.native.numpy as nx

    assert np.asarray(nx.multiply(np.float32(2), np.float64(3))).dtype == np.float64
    assert np.asarray(nx.pow(np.float64(2), np.float64(3))) == 8.0
    assert nx.multiply(np.ones(2, np.float32), np.float64(3)).dtype == np.float32
    assert nx.multiply(np.float64(3), np.ones(2, np.float32)).dtype == np.float32


@pytest.mark.parametrize("function", ["full", "full_like"])
def test_a_float_fill_of_an_integer_array_keeps_its_integer_value(xp: ModuleType,
                                                                  function: str) -> None:  # fmt: skip
    """A float fill of an int64 array holds the float's integer part as NumPy's ``full``
    does (MLX gave 16777216 for 16777217.0: the value went through a float32 first)."""
    for v, expected in [(16777217.0, 16777217), (-16777219.0, -16777219),
                        (2.0**62 + 2.0**40, 2**62 + 2**40), (-3.7, -3)]:  # fmt: skip
        if function == "full":
            result = xp.full((2,), v, dtype=xp.int64)
        else:
            result = xp.full_like(xp.zeros((2,), dtype=xp.int64), v)
        assert _host(result).tolist() == [expected] * 2, (v, _host(result))
