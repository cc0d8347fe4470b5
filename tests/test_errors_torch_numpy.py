"""The error contract (docs: errors) on the NumPy and torch backends, native flavour and the
wrapped flavour's indexing hooks: the contract's exception types, messages naming the
function and the backend, the framework's exception kept as ``__cause__``, and a failed
``__setitem__`` that writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the torch backend needs torch installed")

import eagerpy_xp.native.numpy as nn  # noqa: E402
import eagerpy_xp.native.torch as nt  # noqa: E402
import eagerpy_xp.numpy as wn  # noqa: E402
import eagerpy_xp.torch as wt  # noqa: E402

NATIVE = [pytest.param(nn, id="numpy"), pytest.param(nt, id="torch")]


def _array(xp: ModuleType, values: Any, dtype: str = "float64") -> Any:
    return xp.asarray(values, dtype=getattr(xp, dtype))


def _raises(kind: type[Exception], function: str, xp: ModuleType, call: Callable[[], Any],
            cause: type[BaseException] | None = None) -> BaseException:  # fmt: skip
    """``call()`` raises exactly ``kind`` (not a framework subclass), naming the function
    and the backend; ``cause``: the framework's exception is kept as ``__cause__``."""
    backend = xp.__backend__.name
    with pytest.raises(Exception) as info:
        call()
    exc = info.value
    assert isinstance(exc, kind), f"{type(exc).__name__}: {exc}"
    assert type(exc).__module__ in ("builtins", "eagerpy_xp.native._base.core"), type(exc)
    name = f"Array.{function}" if function.startswith("__") else function
    assert str(exc).startswith(f"eagerpy_xp.{backend}.{name}: "), str(exc)
    assert str(exc).count("eagerpy_xp.") == 1, str(exc)  # translated once
    if cause is not None:
        assert isinstance(exc.__cause__, cause), repr(exc.__cause__)
    return exc


@pytest.mark.parametrize("xp", NATIVE)
def test_framework_errors_are_translated(xp: ModuleType) -> None:
    x, y = _array(xp, np.ones((2, 3))), _array(xp, np.ones(4))
    _raises(ValueError, "add", xp, lambda: xp.add(x, y), Exception)  # shapes do not broadcast
    _raises(ValueError, "multiply", xp, lambda: xp.multiply(x, 2.0 * y), Exception)
    _raises(TypeError, "bitwise_and", xp, lambda: xp.bitwise_and(x, x))  # float: the category
    _raises(ValueError, "concat", xp, lambda: xp.concat([x, y]), Exception)
    _raises(ValueError, "stack", xp, lambda: xp.stack([x, y]), Exception)
    _raises(ValueError, "linalg.inv", xp, lambda: xp.linalg.inv(y), Exception)
    _raises(ValueError, "linalg.solve", xp, lambda: xp.linalg.solve(x, x), Exception)
    _raises(ValueError, "permute_dims", xp, lambda: xp.permute_dims(x, (0, 0)), Exception)
    _raises(ValueError, "moveaxis", xp, lambda: xp.moveaxis(x, (0, 1), (1, 1)), Exception)
    _raises(ValueError, "fft.fft", xp, lambda: xp.fft.fft(_array(xp, [1j, 2.0], "complex128"),
                                                          axis=2))  # fmt: skip
    _raises(ValueError, "roll", xp, lambda: xp.roll(x, 1, axis=7))
    _raises(IndexError, "take", xp, lambda: xp.take(y, _array(xp, [7], "int64")), IndexError)
    _raises(TypeError, "std", xp, lambda: xp.std(x, correction="a"))  # checked first
    _raises(ValueError, "linalg.matrix_rank", xp, lambda: xp.linalg.matrix_rank(y))  # 1-d
    _raises(ValueError, "arange", xp, lambda: xp.arange(3, device="cpu:3"))  # no such cpu
    _raises(TypeError, "linspace", xp, lambda: xp.linspace(0, 1, 2.5))  # checked first
    assert "step must not be zero" in str(_raises(ValueError, "arange", xp,
                                                  lambda: xp.arange(0, 10, 0)))  # fmt: skip
    # a dtype outside the category never reaches a fast path (torch: signbit of a complex
    # tensor, which has no kernel, is refused before torch sees it)
    _raises(TypeError, "signbit", xp, lambda: xp.signbit(_array(xp, [1j], "complex64")))
    _raises(MemoryError, "zeros", xp, lambda: xp.zeros((2**40,)), Exception)


@pytest.mark.parametrize("xp", NATIVE)
def test_non_arrays_are_type_errors(xp: ModuleType) -> None:
    x = _array(xp, np.ones((2, 3)))
    _raises(TypeError, "linalg.pinv", xp, lambda: xp.linalg.pinv("abc"))
    _raises(TypeError, "tril", xp, lambda: xp.tril("abc"))
    _raises(TypeError, "astype", xp, lambda: xp.astype("abc", xp.float32))
    exc = _raises(TypeError, "sum", xp, lambda: xp.sum(None))
    assert "expected a" in str(exc) and "NoneType" in str(exc)
    _raises(TypeError, "sum", xp, lambda: xp.sum([1.0, 2.0]))
    _raises(TypeError, "flip", xp, lambda: xp.flip(object()))
    _raises(TypeError, "logical_not", xp, lambda: xp.logical_not(None))
    _raises(TypeError, "tanh", xp, lambda: xp.tanh([1.0]))
    _raises(TypeError, "full", xp, lambda: xp.full((2,), "abc"))
    _raises(TypeError, "full_like", xp, lambda: xp.full_like(x, "abc"))
    _raises(TypeError, "zeros_like", xp, lambda: xp.zeros_like("abc"))
    _raises(TypeError, "where", xp, lambda: xp.where("abc", x, x))
    _raises(TypeError, "unique_values", xp, lambda: xp.unique_values("abc"))
    _raises(TypeError, "sort", xp, lambda: xp.sort("abc"))
    _raises(TypeError, "add", xp, lambda: xp.add(1, 2))  # at least one array
    _raises(TypeError, "add", xp, lambda: xp.add(x, "abc"))
    _raises(TypeError, "exp", xp, lambda: xp.exp(np.array(["a"])))
    _raises(TypeError, "floor", xp, lambda: xp.floor(_array(xp, [1 + 1j], "complex128")))
    _raises(TypeError, "ceil", xp, lambda: xp.ceil(_array(xp, [1 + 1j], "complex128")))
    _raises(TypeError, "trunc", xp, lambda: xp.trunc(_array(xp, [1 + 1j], "complex128")))
    _raises(TypeError, "repeat", xp, lambda: xp.repeat(x, _array(xp, [1.0, 2.0]), axis=0))
    assert xp.repeat(x, _array(xp, [1, 2], "int64"), axis=0).shape == (3, 3)  # still works
    assert xp.full((2,), 1.5).shape == (2,) and xp.add(x, 1.0).shape == (2, 3)


@pytest.mark.parametrize("xp", NATIVE)
def test_dtype_strings_get_a_hint(xp: ModuleType) -> None:
    exc = _raises(TypeError, "asarray", xp, lambda: xp.asarray([1.0], dtype="float32"))
    assert "dtype object such as xp.float32, got the string 'float32'" in str(exc)


def test_unavailable_device_is_a_value_error() -> None:
    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a cuda:7")
    _raises(ValueError, "asarray", nt, lambda: nt.asarray([1.0], device="cuda:7"))


@pytest.mark.parametrize("xp", [pytest.param(wn, id="numpy"), pytest.param(wt, id="torch")])
def test_indexing_errors_and_a_failed_setitem_writes_nothing(xp: ModuleType) -> None:
    x = xp.zeros((2, 3), dtype=xp.float64)
    _raises(IndexError, "__getitem__", xp, lambda: x[..., ...])
    _raises(IndexError, "__getitem__", xp, lambda: x[5])
    _raises(IndexError, "__getitem__", xp, lambda: x[0, 0, 0])

    def write(key: Any, value: Any) -> Callable[[], None]:
        def run() -> None:
            x[key] = value

        return run

    _raises(IndexError, "__setitem__", xp, write(xp.asarray([0, 9]), 1.0))
    _raises(ValueError, "__setitem__", xp, write((0, slice(None)), xp.ones(5, dtype=xp.float64)))
    _raises(ValueError, "__setitem__", xp, write(xp.asarray([0, 1]), xp.ones((2, 2), dtype=xp.float64)))
    assert float(xp.sum(xp.abs(x))) == 0.0  # nothing was written
    x[xp.asarray([1, 0])] = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float64)
    assert np.asarray(x).tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]


@pytest.mark.parametrize("xp", NATIVE)
def test_framework_exceptions_never_escape_the_fast_paths(xp: ModuleType) -> None:
    """Same-dtype operands take the fast path; its error is translated as the slow one's."""
    a, b = _array(xp, np.ones((2, 3))), _array(xp, np.ones((4,)))
    for name in ("add", "subtract", "multiply", "maximum", "equal", "less"):
        function = getattr(xp, name)
        _raises(ValueError, name, xp, lambda f=function: f(a, b), Exception)
    _raises(TypeError, "bitwise_or", xp, lambda: xp.bitwise_or(_array(xp, [1.0]), _array(xp, [1.0])))


def test_numpy_arrays_without_a_standard_dtype_are_type_errors() -> None:
    """NumPy would sort strings and flip object arrays; the standard has no such dtypes."""
    for bad in (np.array(["b", "a"]), np.array([None, 1], dtype=object)):
        _raises(TypeError, "unique_values", nn, lambda b=bad: nn.unique_values(b))
        _raises(TypeError, "flip", nn, lambda b=bad: nn.flip(b))
        _raises(TypeError, "sum", nn, lambda b=bad: nn.sum(b))


def test_torch_dtype_complaints_are_type_errors() -> None:
    """torch says "not supported" for a dtype in a `RuntimeError`: a TypeError here."""
    flags = nt.ones(2, dtype=nt.bool)
    # bool is outside these functions' categories: refused before torch sees it
    _raises(TypeError, "negative", nt, lambda: nt.negative(flags))
    _raises(TypeError, "subtract", nt, lambda: nt.subtract(flags, flags))
    _raises(TypeError, "linalg.cholesky", nt,
            lambda: nt.linalg.cholesky(nt.ones((3, 3), dtype=nt.bool)))  # fmt: skip
    # a dtype of the category that torch has no kernel for: torch's complaint, translated
    _raises(TypeError, "bitwise_left_shift", nt,
            lambda: nt.bitwise_left_shift(nt.ones(2, dtype=nt.int16), 1.5))
    _raises(TypeError, "argmax", nt, lambda: nt.argmax(nt.ones(2, dtype=nt.complex64)))
    x = nt.ones((2, 3))
    _raises(ValueError, "vecdot", nt, lambda: nt.vecdot(x, x, axis=-3))  # an axis, checked first


def test_numpy_refuses_non_arrays_in_sequences_and_other_libraries() -> None:
    x = np.ones(3)
    _raises(TypeError, "meshgrid", nn, lambda: nn.meshgrid(x, "abc"))
    _raises(TypeError, "broadcast_arrays", nn, lambda: nn.broadcast_arrays(x, [1.0, 2.0, 3.0]))
    _raises(TypeError, "floor_divide", nn, lambda: nn.floor_divide(torch.ones(3), x))
    _raises(TypeError, "pow", nn, lambda: nn.pow(x, torch.ones(3)))
    _raises(TypeError, "tril", nn, lambda: nn.tril(np.ones((2, 3)), k=1.5))
    assert nn.pow(x, 2).tolist() == [1.0] * 3 and nn.floor_divide(7, x + 1).tolist() == [3.0] * 3
