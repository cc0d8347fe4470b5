"""Every function at 9 and more dimensions gives the standard's reference answer, on every
backend and flavour.

Some framework kernels stop at 8 dimensions (TensorFlow's ``StridedSlice``, ``ReverseV2``,
``SelectV2`` and ``Where``: "Unhandled input dimensions 9", "reverse is not implemented for
tensors of rank > 8"; the TensorFlow backend uses `_tensorflow._ranks` beyond them);
the standard has no such limit below the rank a namespace reports in
``capabilities()["max dimensions"]``.  Each call here runs on the namespace under test and
on NumPy (``array_api_compat.numpy``: 64 dimensions, NumPy's keys) with the same
arguments, and the values must agree.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import array_api_compat.numpy as reference
import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")
xp = namespaces(*BACKENDS)

#: Shapes of 9 and 10 dimensions, sizes 1, 2 and 3 mixed (few elements, every axis kind).
SHAPES = {9: (2, 1, 3, 1, 2, 2, 1, 2, 3), 10: (2, 1, 3, 1, 2, 2, 1, 2, 3, 2)}


def _data(shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray:
    n = int(np.prod(shape))
    if dtype == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    if dtype.startswith("int"):
        return (np.arange(n) * 7 % 11 - 5).astype(dtype).reshape(shape)
    real = ((np.arange(n) * 7 % 13) - 6.5) / 2
    if dtype.startswith("complex"):
        return (real + 1j * real[::-1]).astype(dtype).reshape(shape)
    return real.astype(dtype).reshape(shape)


#: name -> (call on a namespace and its input arrays, input dtypes).  Each call uses the
#: standard's API only, so the same call runs on NumPy for the answer.
Call = Callable[..., Any]
CASES: dict[str, tuple[Call, tuple[str, ...]]] = {
    "take": (lambda ns, x: ns.take(x, ns.asarray([2, 0]), axis=2), ("float32",)),
    "take_along_axis": (lambda ns, x: ns.take_along_axis(
        x, ns.argsort(x, axis=-1), axis=-1), ("float32",)),
    # manipulation
    "flip": (lambda ns, x: ns.flip(x), ("float32",)),
    "flip axis": (lambda ns, x: ns.flip(x, axis=(0, 4, -1)), ("float32",)),
    "roll": (lambda ns, x: ns.roll(x, 1, axis=(2, 8)), ("float32",)),
    "roll flat": (lambda ns, x: ns.roll(x, 3), ("float32",)),
    "permute_dims": (lambda ns, x: ns.permute_dims(x, tuple(reversed(range(x.ndim)))),
                     ("float32",)),
    "moveaxis": (lambda ns, x: ns.moveaxis(x, 0, -1), ("float32",)),
    "reshape": (lambda ns, x: ns.reshape(ns.reshape(x, (-1,)), tuple(x.shape)), ("float32",)),
    "squeeze": (lambda ns, x: ns.squeeze(x, axis=1), ("float32",)),
    "expand_dims": (lambda ns, x: ns.expand_dims(x, axis=3), ("float32",)),
    "concat": (lambda ns, x: ns.concat([x, x], axis=4), ("float32",)),
    "stack": (lambda ns, x: ns.stack([x, x], axis=-1), ("float32",)),
    "unstack": (lambda ns, x: ns.unstack(x, axis=2)[1], ("float32",)),
    "broadcast_to": (lambda ns, x: ns.broadcast_to(_first(ns, x, -1), tuple(x.shape)),
                     ("float32",)),
    "broadcast_arrays": (lambda ns, x: ns.broadcast_arrays(x, _first(ns, x, 0))[1],
                         ("float32",)),
    "tile": (lambda ns, x: ns.tile(x, (1,) * (x.ndim - 1) + (2,)), ("float32",)),
    "repeat": (lambda ns, x: ns.repeat(x, 2, axis=3), ("float32",)),
    "pad via concat": (lambda ns, x: ns.concat([ns.zeros_like(_first(ns, x, 0)), x], axis=0),
                       ("float32",)),
    # element-wise
    "add": (lambda ns, x, y: ns.add(x, y), ("float32", "float32")),
    "multiply broadcast": (lambda ns, x: ns.multiply(x, _first(ns, x, 0)), ("float32",)),
    "where": (lambda ns, x: ns.where(ns.greater(x, 0.0), x, ns.negative(x)), ("float32",)),
    "where scalars": (lambda ns, x: ns.where(ns.greater(x, 0.0), x, 0.5), ("float32",)),
    "clip": (lambda ns, x: ns.clip(x, -2.0, 3.0), ("float32",)),
    "exp": (lambda ns, x: ns.exp(ns.divide(x, 8.0)), ("float32",)),
    "bitwise_and": (lambda ns, x, y: ns.bitwise_and(x, y), ("int32", "int32")),
    "logical_not": (lambda ns, x: ns.logical_not(x), ("bool",)),
    # reductions and statistics
    "sum": (lambda ns, x: ns.sum(x, axis=(1, 4, 8)), ("float32",)),
    "sum keepdims": (lambda ns, x: ns.sum(x, axis=-2, keepdims=True), ("float32",)),
    "prod": (lambda ns, x: ns.prod(ns.divide(x, 4.0), axis=2), ("float32",)),
    "mean": (lambda ns, x: ns.mean(x, axis=(0, 2)), ("float32",)),
    "max": (lambda ns, x: ns.max(x, axis=5), ("float32",)),
    "std": (lambda ns, x: ns.std(x, axis=-1, correction=1), ("float32",)),
    "cumulative_sum": (lambda ns, x: ns.cumulative_sum(x, axis=2), ("float32",)),
    "cumulative_prod": (lambda ns, x: ns.cumulative_prod(ns.divide(x, 4.0), axis=-1,
                                                         include_initial=True), ("float32",)),
    "diff": (lambda ns, x: ns.diff(x, axis=2), ("float32",)),
    "all": (lambda ns, x: ns.all(x, axis=(0, 8)), ("bool",)),
    "count_nonzero": (lambda ns, x: ns.count_nonzero(x, axis=4), ("float32",)),
    # searching and sorting
    "argmax": (lambda ns, x: ns.argmax(x, axis=2), ("float32",)),
    "argmin keepdims": (lambda ns, x: ns.argmin(x, axis=-1, keepdims=True), ("float32",)),
    "sort": (lambda ns, x: ns.sort(x, axis=2, descending=True), ("float32",)),
    "argsort": (lambda ns, x: ns.argsort(x, axis=0, stable=True), ("float32",)),
    "nonzero": (lambda ns, x: ns.nonzero(ns.greater(x, 0.0))[x.ndim - 1], ("float32",)),
    "searchsorted": (lambda ns, x: ns.searchsorted(ns.sort(ns.reshape(x, (-1,))), x),
                     ("float32",)),
    "unique_values": (lambda ns, x: ns.sort(ns.unique_values(x)), ("float32",)),
    # linear algebra on stacks
    "matmul": (lambda ns, x: ns.matmul(x, ns.matrix_transpose(x)), ("float32",)),
    "matrix_transpose": (lambda ns, x: ns.matrix_transpose(x), ("float32",)),
    "vecdot": (lambda ns, x: ns.vecdot(x, x, axis=-1), ("float32",)),
    "tensordot": (lambda ns, x: ns.tensordot(x, x, axes=((2, 5), (2, 5))), ("float32",)),
    "linalg.vector_norm": (lambda ns, x: ns.linalg.vector_norm(x, axis=(0, 8)), ("float32",)),
    "linalg.matrix_norm": (lambda ns, x: ns.linalg.matrix_norm(x), ("float32",)),
    "linalg.diagonal": (lambda ns, x: ns.linalg.diagonal(x), ("float32",)),
    "linalg.trace": (lambda ns, x: ns.linalg.trace(x), ("float32",)),
    "linalg.cross": (lambda ns, x: ns.linalg.cross(x, ns.flip(x, axis=2), axis=2),
                     ("float32",)),
    "linalg.det": (lambda ns, x: ns.linalg.det(ns.add(_first(ns, _first(ns, x, -1), -2), 2.0)),
                   ("float32",)),
    # creation from an array
    "zeros_like": (lambda ns, x: ns.zeros_like(x), ("float32",)),
    "full_like": (lambda ns, x: ns.full_like(x, 2.5), ("float32",)),
    "tril": (lambda ns, x: ns.tril(x), ("float32",)),
    "triu": (lambda ns, x: ns.triu(x, k=1), ("float32",)),
    "astype": (lambda ns, x: ns.astype(x, ns.int32), ("float32",)),
}

#: Element-wise functions whose special cases (``tf.where`` inside: TensorFlow's
#: ``SelectV2``) met the kernels' limit, and others of each kind, on each dtype kind.
_ELEMENTWISE = {
    "float32": ("sign", "ceil", "floor", "trunc", "log2", "log10", "hypot", "logaddexp",
                "floor_divide", "remainder", "abs", "sqrt", "tanh"),
    "complex64": ("sign", "sqrt", "log", "log1p", "log2", "log10", "expm1", "tan", "tanh",
                  "reciprocal", "divide", "pow"),
    "int32": ("floor_divide", "remainder", "pow", "bitwise_left_shift", "bitwise_right_shift",
              "negative", "sign"),
}
_BINARY = frozenset({"hypot", "logaddexp", "floor_divide", "remainder", "divide", "pow",
                     "bitwise_left_shift", "bitwise_right_shift"})


def _elementwise(name: str, dtype: str) -> tuple[Call, tuple[str, ...]]:
    if name in _BINARY:
        def call(ns: ModuleType, x: Any, y: Any) -> Any:
            if dtype == "int32":  # non-negative, small: shifts and powers stay defined
                x, y = ns.abs(ns.remainder(x, 5)), ns.add(ns.abs(ns.remainder(y, 3)), 1)
            return getattr(ns, name)(x, y)
        return call, (dtype, dtype)
    return (lambda ns, x: getattr(ns, name)(x)), (dtype,)


CASES.update({f"{name} {dtype}": _elementwise(name, dtype)
              for dtype, names in _ELEMENTWISE.items() for name in names})

#: Cases that use the array object's own operators (indexing): run where the array object
#: is the namespace's (the wrapped flavours; a native array's are the framework's).
OPERATOR_CASES: dict[str, tuple[Call, tuple[str, ...]]] = {
    "getitem int": (lambda ns, x: x[1, ...], ("float32",)),
    "getitem ints": (lambda ns, x: x[(0,) * x.ndim], ("float32",)),
    "getitem ellipsis": (lambda ns, x: x[..., 1], ("float32",)),
    "getitem slices": (lambda ns, x: x[:, :, 1:, :, ::-1, :1, ..., ::2], ("float32",)),
    "getitem reversed": (lambda ns, x: x[(slice(None, None, -1),) * x.ndim], ("float32",)),
    "getitem newaxis": (lambda ns, x: x[None, ..., None, 0], ("float32",)),
    "getitem index array": (lambda ns, x: x[ns.asarray([1, 0, 1]), ...], ("float32",)),
    "getitem index arrays": (lambda ns, x: x[0, ..., ns.asarray([1, 0]), ns.asarray([1, 1])],
                             ("float32",)),
    "getitem mask": (lambda ns, x: x[x > 0], ("float32",)),
    "operators": (lambda ns, x, y: ((x + y) * 2 - x / 4.0) ** 2 >= -x, ("float32", "float32")),
}

#: name -> (write on a namespace's array in place, reading the result back): the same
#: calls on NumPy give the answer.
WRITES: dict[str, Callable[[ModuleType, Any], None]] = {
    "setitem int": lambda ns, x: x.__setitem__((1, ...), -1.0),
    "setitem ints": lambda ns, x: x.__setitem__((0,) * x.ndim, 9.0),
    "setitem ellipsis": lambda ns, x: x.__setitem__((..., 0), 7.0),
    "setitem slices": lambda ns, x: x.__setitem__((slice(None, None, -1),) * 3 + (...,),
                                                  x[0, ...] * 0 + 4),
    "setitem mask": lambda ns, x: x.__setitem__(x > 0, 0.5),
    "setitem index array": lambda ns, x: x.__setitem__((ns.asarray([1, 0]), ...), 3.0),
}


def _first(ns: ModuleType, x: Any, axis: int) -> Any:
    """``x``'s first entry along ``axis``, the axis kept (through ``take``: no operator)."""
    return ns.take(x, ns.asarray([0]), axis=axis)


def _reference(call: Call, arrays: list[np.ndarray]) -> np.ndarray:
    return np.asarray(call(reference, *[reference.asarray(a) for a in arrays]))


def _close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("rank", sorted(SHAPES))
@pytest.mark.parametrize("name", sorted(CASES) + sorted(OPERATOR_CASES))
def test_every_function_at_high_rank(xp: ModuleType, name: str, rank: int) -> None:
    if name in OPERATOR_CASES and ".native." in xp.__name__:
        pytest.skip("a native array's indexing and operators are the framework's own")
    call, dtypes = CASES[name] if name in CASES else OPERATOR_CASES[name]
    arrays = [_data(SHAPES[rank], d) if i == 0 else _data(SHAPES[rank], d)[..., ::-1].copy()
              for i, d in enumerate(dtypes)]  # fmt: skip
    want = _reference(call, arrays)
    got = values(call(xp, *[xp.asarray(a) for a in arrays]))
    _close(got, want)


@pytest.mark.parametrize("rank", sorted(SHAPES))
@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_at_high_rank(xp: ModuleType, name: str, rank: int) -> None:
    if ".native." in xp.__name__:
        pytest.skip("a native array's __setitem__ is the framework's own")
    data = _data(SHAPES[rank])
    expected = reference.asarray(data)
    WRITES[name](reference, expected)
    x = xp.asarray(data)
    WRITES[name](xp, x)
    _close(values(x), np.asarray(expected))


def test_capabilities_promise_the_rank(xp: ModuleType) -> None:
    """The rank these tests use is within what the namespace reports."""
    most = xp.__array_namespace_info__().capabilities()["max dimensions"]
    assert most is None or most >= max(SHAPES)
