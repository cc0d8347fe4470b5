"""The error contract (docs/errors.md, issue 15) on NumPy, PyTorch and Dask, both flavours,
and on the generic layers (`core.translated`, `BackendCore.translate`, the array object,
the EagerPy layer, the extensions).

Every function with a dtype category (`_dtypes.CATEGORY_OF`) refuses every dtype outside
it with a `TypeError` naming the function, the backend and the dtype, and takes a dtype
inside it; the fast paths never see a dtype outside it; the messages of functions that
fail inside another function, and of the array object's operators, name the function
called; the wrong answers the census found raise now.
"""

from __future__ import annotations

import importlib
import math
import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep
from eagerpy_xp._dtypes import ALL, CATEGORIES, CATEGORY_OF
from tests._flavours import namespaces

xp = namespaces("numpy", "torch", "dask")

_SQUARE = np.eye(3) * 3 + 1  # symmetric positive definite: every decomposition works


def _array(xp: ModuleType, values: Any, dtype: str) -> Any:
    a = np.asarray(values)
    if dtype.startswith("complex"):
        a = a + 0.5j
    return xp.asarray(a.astype(dtype))


#: function (as CATEGORY_OF names it) -> (where it lives, its call on arrays made by ``make``)
Make = Callable[[Any], Any]  # values -> array of the dtype under test
_CALLS: dict[str, tuple[str, Callable[[Any, Make], Any]]] = {
    "matmul": ("", lambda f, a: f(a(_SQUARE), a(_SQUARE))),
    "tensordot": ("", lambda f, a: f(a(_SQUARE), a(_SQUARE), axes=1)),
    "vecdot": ("", lambda f, a: f(a(_SQUARE), a(_SQUARE))),
    "cross": ("linalg.", lambda f, a: f(a(_SQUARE), a(_SQUARE))),
    "outer": ("linalg.", lambda f, a: f(a([1, 2]), a([2, 3]))),
    "trace": ("linalg.", lambda f, a: f(a(_SQUARE))),
    "solve": ("linalg.", lambda f, a: f(a(_SQUARE), a(_SQUARE))),
    "matrix_power": ("linalg.", lambda f, a: f(a(_SQUARE), 2)),
    "searchsorted": ("", lambda f, a: f(a([1, 2, 3]), a([2, 3]))),
    "clip": ("", lambda f, a: f(a([1, 2, 3]))),
    "cumulative_sum": ("", lambda f, a: f(a([1, 2, 3]))),
    "cumulative_prod": ("", lambda f, a: f(a([1, 2, 3]))),
}
_LINALG = ("cholesky det eig eigh eigvals eigvalsh inv matrix_norm matrix_rank pinv qr "
           "slogdet svd svdvals vector_norm").split()  # fmt: skip
_FFT = "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft".split()
_BINARY = ("add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift "
           "bitwise_xor copysign divide floor_divide greater greater_equal hypot less "
           "less_equal logaddexp logical_and logical_or logical_xor maximum minimum multiply "
           "nextafter pow remainder subtract").split()  # fmt: skip


def _call(name: str) -> tuple[str, Callable[[Any, Make], Any]]:
    if name in _CALLS:
        return _CALLS[name]
    if name in _LINALG:
        return "linalg.", lambda f, a: f(a(_SQUARE))
    if name in _FFT:
        return "fft.", lambda f, a: f(a([1, 2, 0, 1]))
    if name in _BINARY:
        return "", lambda f, a: f(a([1, 2, 3]), a([2, 1, 1]))
    return "", lambda f, a: f(a([[1, 2, 3], [3, 1, 2]]))  # unary, statistics, sorting


def _function(xp: ModuleType, qualified: str) -> Any:
    function: Any = xp
    for part in qualified.split("."):
        function = getattr(function, part)
    return function


def _run(xp: ModuleType, name: str, dtype: str) -> Any:
    where, call = _call(name)
    result = call(_function(xp, where + name), lambda v: _array(xp, v, dtype))
    if xp.__name__.endswith("dask"):  # lazy: make the chunks run too
        for r in result if isinstance(result, tuple) else (result,):
            np.asarray(r)
    return result


@pytest.mark.parametrize("name", sorted(CATEGORY_OF))
def test_every_dtype_outside_the_category_is_a_type_error(xp: ModuleType, name: str) -> None:
    """Element-wise, statistics, searching, sorting, linalg and fft alike: each dtype
    outside the function's category raises the contract's TypeError before the framework
    computes (no framework exception as its cause), naming the dtype."""
    backend = xp.__backend__.name
    where, _ = _call(name)
    category = CATEGORY_OF[name]
    for dtype in ALL:
        if dtype in CATEGORIES[category]:
            continue
        with pytest.raises(TypeError) as info:
            _run(xp, name, dtype)
        message = str(info.value)
        assert message.startswith(f"eagerpy_xp.{backend}.{where}{name}: "), message
        assert f"expected an array of a {category} dtype, got {dtype}" in message, message
        assert info.value.__cause__ is None, repr(info.value.__cause__)


@pytest.mark.parametrize("name", sorted(set(_BINARY) & set(CATEGORY_OF)))
def test_each_operand_of_a_binary_function_is_checked(xp: ModuleType, name: str) -> None:
    """One operand inside the category and the other outside: the TypeError names the
    one outside, whichever side it is on (the fast paths test both)."""
    backend = xp.__backend__.name
    allowed = CATEGORIES[CATEGORY_OF[name]]
    good = "float64" if "float64" in allowed else allowed[-1]
    function = getattr(xp, name)
    for bad in (d for d in ALL if d not in allowed):
        for first, second in ((good, bad), (bad, good)):
            with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.{name}: .*got {bad}$"):
                function(_array(xp, [1, 2], first), _array(xp, [2, 1], second))


@pytest.mark.parametrize("name", sorted(CATEGORY_OF))
def test_a_dtype_inside_the_category_computes(xp: ModuleType, name: str) -> None:
    """The check refuses nothing the category allows (one dtype of each kind in it)."""
    allowed = CATEGORIES[CATEGORY_OF[name]]
    kinds = {"b": "bool", "i": "int64", "u": "uint8", "f": "float64", "c": "complex128"}
    for dtype in dict.fromkeys(kinds[d[0]] for d in allowed if kinds[d[0]] in allowed):
        _run(xp, name, dtype)


def test_torch_half_floats_stay_in_the_floating_categories() -> None:
    torch = pytest.importorskip("torch")
    import eagerpy_xp.native.torch as nt

    for dtype in (torch.float16, torch.bfloat16):
        x = torch.tensor([0.5, 1.0], dtype=dtype)
        assert nt.sin(x).dtype == dtype and nt.add(x, x).dtype == dtype
        assert nt.mean(x).dtype == dtype and nt.sum(x).dtype == dtype
        assert nt.divide(x, x).dtype == dtype and nt.argsort(x).tolist() == [0, 1]
    members = nt.__backend__.category_dtypes
    assert torch.float16 in members["real floating-point"]
    assert torch.bfloat16 in members["numeric"] and torch.float16 not in members["integer"]


def test_torch_fast_paths_never_take_a_dtype_outside_the_category(monkeypatch: Any) -> None:
    """A plain tensor of a dtype outside the category must not reach torch: the unary and
    binary fast paths would hand it straight to torch.sin / torch.add."""
    torch = pytest.importorskip("torch")
    import eagerpy_xp.native.torch as nt

    for name, args, torch_name in (("sin", (torch.ones(2, dtype=torch.int32),), "sin"),
                                   ("add", (torch.ones(2, dtype=torch.bool),) * 2, "add"),
                                   ("tanh", (torch.ones(2, dtype=torch.int64),), "tanh"),
                                   ("sum", (torch.ones(2, dtype=torch.bool),), "sum")):  # fmt: skip
        called: list[str] = []
        real = getattr(torch, torch_name)

        def spy(*a: Any, _real: Any = real, _called: list[str] = called, **k: Any) -> Any:
            _called.append(_real.__name__)
            return _real(*a, **k)

        monkeypatch.setattr(torch, torch_name, spy)
        with pytest.raises(TypeError, match=rf"eagerpy_xp\.torch\.{name}: "):
            getattr(nt, name)(*args)
        monkeypatch.undo()
        assert not called, f"{name} handed a dtype outside its category to torch"


# -- messages: one name per function, whoever raises ------------------------------------------
def test_errors_raised_inside_another_function_name_the_one_called(xp: ModuleType) -> None:
    backend = xp.__backend__.name
    m = _array(xp, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.linalg\.matmul: ") as info:
        np.asarray(xp.linalg.matmul(m, m))
    assert info.value.__cause__ is not None  # matmul's own error, kept
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.linalg\.trace: .*bool"):
        xp.linalg.trace(_array(xp, _SQUARE, "bool"))
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.fft\.fftfreq: .*positive"):
        xp.fft.fftfreq(0)
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.fft\.fftfreq: .*real floating"):
        xp.fft.fftfreq(4, dtype=xp.complex64)
    assert str(info.value).count("eagerpy_xp.") == 1


@pytest.mark.parametrize("backend", ["numpy", "torch", "dask"])
def test_the_array_object_names_its_member(backend: str) -> None:
    pytest.importorskip(backend)
    wx = importlib.import_module(f"eagerpy_xp.{backend}")
    x, y = wx.ones((2, 3), dtype=wx.float64), wx.ones(4, dtype=wx.float64)
    for call, member, kind in (
        (lambda: x + y, "__add__", ValueError), (lambda: x @ x, "__matmul__", ValueError),
        (lambda: x < wx.ones(3, dtype=wx.complex128), "__lt__", TypeError),
        (lambda: x & x, "__and__", TypeError), (lambda: -wx.ones(2, dtype=wx.bool), "__neg__",
                                                 TypeError),
        (lambda: wx.ones(3).mT, "mT", ValueError), (lambda: x.to_device("tpu:7"), "to_device",
                                                    ValueError),
    ):  # fmt: skip
        with pytest.raises(kind) as info:
            r = call()
            np.asarray(r)
        assert str(info.value).startswith(f"eagerpy_xp.{backend}.Array.{member}: "), str(info.value)
    z = wx.ones((2, 3), dtype=wx.int64)
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.Array\.__iadd__: .*float64"):
        z += x  # a dtype change: TypeError
    with pytest.raises(ValueError, match=rf"^eagerpy_xp\.{backend}\.Array\.__iadd__: "):
        x += y  # shapes that do not broadcast: ValueError
    assert np.asarray(z).tolist() == [[1, 1, 1]] * 2 and np.asarray(x).tolist() == [[1.0] * 3] * 2
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+"):
        x + "abc"  # Python's own refusal after NotImplemented (docs/errors.md)


# -- non-arrays and other libraries ---------------------------------------------------------------
def test_non_arrays_and_other_libraries_are_type_errors(xp: ModuleType) -> None:
    backend = xp.__backend__.name
    m = _array(xp, _SQUARE, "float64")
    other = np.ones((3, 3)) if backend != "numpy" else pytest.importorskip("torch").ones((3, 3))
    for name, call in (
        ("matmul", lambda: xp.matmul(m, "abc")), ("tensordot", lambda: xp.tensordot(m, None)),
        ("vecdot", lambda: xp.vecdot([1.0, 2.0, 3.0], m)),
        ("linalg.solve", lambda: xp.linalg.solve(m, object())),
        ("linalg.outer", lambda: xp.linalg.outer("abc", m[0])),
        ("concat", lambda: xp.concat([m, "abc"])), ("stack", lambda: xp.stack([m, None])),
        ("searchsorted", lambda: xp.searchsorted(m[0], "abc")),
        ("take", lambda: xp.take(m[0], None, axis=0)),
        ("add", lambda: xp.add(m, [1.0, 2.0, 3.0])),
        ("from_dlpack", lambda: xp.from_dlpack("abc")),
    ):  # fmt: skip
        with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.{name}: "):
            call()
    if not xp.__name__.startswith("eagerpy_xp.native"):
        return  # the wrapped flavour takes native arrays of its own backend only
    for name, call in (("add", lambda: xp.add(m, other)), ("matmul", lambda: xp.matmul(other, m)),
                       ("where", lambda: xp.where(m > 0, other, m)),
                       ("sin", lambda: xp.sin(other))):  # fmt: skip
        with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.{name}: "):
            call()


# -- the wrong answers of the census --------------------------------------------------------------
def test_invalid_arguments_raise_naming_the_value(xp: ModuleType) -> None:
    backend = xp.__backend__.name
    f = _array(xp, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    v = _array(xp, [1.0, 2.0, 3.0, 4.0], "float64")
    c = _array(xp, [1.0, 2.0, 3.0, 4.0], "complex128")
    cases: list[tuple[type[Exception], str, str, Callable[[], Any]]] = [
        (ValueError, "std", "-1", lambda: xp.std(f, correction=-1)),
        (TypeError, "var", "'a'", lambda: xp.var(f, correction="a")),
        (ValueError, "roll", "(1, 2)", lambda: xp.roll(f, (1, 2), axis=0)),
        (TypeError, "cumulative_sum", "'bool'", lambda: xp.cumulative_sum(f, axis=0, dtype="bool")),
        (TypeError, "linalg.trace", "'float32'",
         lambda: xp.linalg.trace(_array(xp, _SQUARE, "float64"), dtype="float32")),
        (ValueError, "meshgrid", "(2, 3)", lambda: xp.meshgrid(f, v)),
        (TypeError, "repeat", "1.5", lambda: xp.repeat(v, 1.5)),
        (ValueError, "repeat", "-1", lambda: xp.repeat(v, -1)),
        (ValueError, "result_type", "at least one", lambda: xp.result_type()),
        (TypeError, "finfo", "int32", lambda: xp.finfo(xp.int32)),
        (TypeError, "iinfo", "float64", lambda: xp.iinfo(xp.float64)),
        (TypeError, "eye", "1.5", lambda: xp.eye(3, k=1.5)),
        (ValueError, "eye", "-1", lambda: xp.eye(-1)),
        (TypeError, "tril", "1.5", lambda: xp.tril(f, k=1.5)),
        (TypeError, "linspace", "2.5", lambda: xp.linspace(0, 1, 2.5)),
        (TypeError, "reshape", "2.5", lambda: xp.reshape(f, (2.5, 2))),
        (ValueError, "tile", "-1", lambda: xp.tile(f, (-1,))),
        (TypeError, "tensordot", "1.5", lambda: xp.tensordot(f, f, axes=1.5)),
        (ValueError, "squeeze", "axis 0", lambda: xp.squeeze(f, axis=0)),
        (ValueError, "arange", "0", lambda: xp.arange(0, 10, 0)),
        (TypeError, "full", "'abc'", lambda: xp.full((2,), "abc")),
        (TypeError, "linalg.matrix_power", "1.5",
         lambda: xp.linalg.matrix_power(_array(xp, _SQUARE, "float64"), 1.5)),
        (ValueError, "linalg.vector_norm", "'fro'", lambda: xp.linalg.vector_norm(f, ord="fro")),
        (TypeError, "linalg.vector_norm", "'0'", lambda: xp.linalg.vector_norm(f, axis="0")),
        (ValueError, "linalg.cross", "-4", lambda: xp.linalg.cross(f, f, axis=-4)),
        (TypeError, "linalg.diagonal", "1.5",
         lambda: xp.linalg.diagonal(_array(xp, _SQUARE, "float64"), offset=1.5)),
        (ValueError, "linalg.outer", "(2, 3)", lambda: xp.linalg.outer(f, v)),
        (TypeError, "fft.fft", "2.5", lambda: xp.fft.fft(c, n=2.5)),
        (ValueError, "fft.fft", "-3", lambda: xp.fft.fft(c, axis=-3)),
        (ValueError, "fft.ifft", "0", lambda: xp.fft.ifft(c, n=0)),
        (ValueError, "fft.fftn", "axis 4", lambda: xp.fft.fftn(c, axes=(4,))),
        (ValueError, "fft.rfftn", "(0,)", lambda: xp.fft.rfftn(v, s=(0,))),
        (ValueError, "fft.fftshift", "2", lambda: xp.fft.fftshift(v, axes=(2,))),
        (TypeError, "fft.rfftfreq", "2.5", lambda: xp.fft.rfftfreq(2.5)),
        (ValueError, "vecdot", "4", lambda: xp.vecdot(f, f, axis=4)),
        (ValueError, "diff", "4", lambda: xp.diff(f, axis=4)),
        (ValueError, "zeros", "2147483648", lambda: xp.zeros((2**31,) * 3)),
    ]
    if backend == "dask":  # Dask reduced a repeated axis twice
        cases += [(ValueError, n, "(0, -2)", lambda n=n: getattr(xp, n)(f, axis=(0, -2)))
                  for n in ("sum", "max", "min", "all", "any", "count_nonzero", "flip", "mean")]
    for kind, name, needle, call in cases:
        with pytest.raises(kind) as info:
            call()
        message = str(info.value)
        assert message.startswith(f"eagerpy_xp.{backend}.{name}: "), (name, message)
        assert needle in message, (name, needle, message)
        assert type(info.value).__module__ in ("builtins", "eagerpy_xp.native._base.core")


def test_indices_out_of_range_raise(xp: ModuleType) -> None:
    """Eager backends raise at the call; Dask, lazy, when the result is computed (Dask
    itself would clamp or wrap the entries), but checks a ``__setitem__`` key first."""
    backend = xp.__backend__.name
    v = _array(xp, [1.0, 2.0, 3.0], "float64")
    bad = _array(xp, [0, 9], "int64")
    for name, call in (("take", lambda: xp.take(v, bad, axis=0)),
                       ("take_along_axis", lambda: xp.take_along_axis(v, bad, axis=0))):  # fmt: skip
        with pytest.raises(IndexError, match=rf"^eagerpy_xp\.{backend}\.{name}: .*9"):
            np.asarray(call())
    if xp.__name__.startswith("eagerpy_xp.native"):
        return
    with pytest.raises(IndexError, match=rf"^eagerpy_xp\.{backend}\.Array\.__getitem__: .*9"):
        np.asarray(v[bad])
    before = v.raw
    with pytest.raises(IndexError, match=rf"^eagerpy_xp\.{backend}\.Array\.__setitem__: .*9"):
        v[bad] = 0.0
    assert v.raw is before and np.asarray(v).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.{backend}\.Array\.__setitem__: .*complex128"):
        v[0] = _array(xp, [1.0], "complex128")[0]  # a downcast (NumPy wrote the real part)
    with pytest.raises(IndexError, match=rf"^eagerpy_xp\.{backend}\.Array\.__getitem__: .*'a'"):
        v["a"]
    assert np.asarray(v).tolist() == [1.0, 2.0, 3.0]


def test_dask_stays_lazy_for_huge_sizes_within_int64() -> None:
    pytest.importorskip("dask")
    import eagerpy_xp.native.dask as nd

    big = nd.linspace(0, 1, 2**40)  # a graph of chunks, not 8 TiB of memory
    assert big.shape == (2**40,)
    with pytest.raises(ValueError, match=r"^eagerpy_xp\.dask\.eye: .*2\*\*63"):
        nd.eye(2**40)  # 2**80 elements: beyond what any array can index


# -- the EagerPy layer and the extensions keep their results ------------------------------------
@pytest.mark.parametrize("backend", ["numpy", "torch", "dask"])
def test_eagerpy_layer_casts_where_eagerpy_computed(backend: str) -> None:
    pytest.importorskip(backend)
    from eagerpy_xp import eagerpy as eagerpy_layer

    native = importlib.import_module(f"eagerpy_xp.native.{backend}")
    i = eagerpy_layer.astensor(native.asarray([1, 2, 4], dtype=native.int32))
    floating = native.__array_namespace_info__().default_dtypes()["real floating"]
    integral = native.__array_namespace_info__().default_dtypes()["integral"]
    half = i / 2
    assert half.dtype == floating and np.asarray(half.raw).tolist() == [0.5, 1.0, 2.0]
    assert (2 / i).dtype == floating and (i / i.float32()).dtype == native.float32
    assert i.sqrt().dtype == floating and np.allclose(np.asarray(i.sqrt().raw), [1, math.sqrt(2), 2])
    count = (i > 1).sum()
    assert count.dtype == integral and int(np.asarray(count.raw)) == 2
    assert np.asarray((i > 1).cumsum().raw).tolist() == [0, 1, 2]
    with pytest.raises(TypeError):
        native.sum(native.asarray([True]))  # the standard layer stays strict


def test_topk_of_bool_sorts_false_before_true(xp: ModuleType) -> None:
    values, indices = ep.topk(_array(xp, [False, True, False, True], "bool"), 3)
    assert np.asarray(values.raw if isinstance(values, ep.Array) else values).tolist() == [
        True, True, False]  # fmt: skip
    assert np.asarray(indices.raw if isinstance(indices, ep.Array) else indices).tolist() == [1, 3, 0]


# -- another framework's array beside an Array in an operator ------------------------------------
_FOREIGN = {
    "numpy": lambda: np.ones(3),
    "numpy scalar": lambda: np.float32(2.0),
    "torch": lambda: pytest.importorskip("torch").ones(3, dtype=pytest.importorskip("torch").float64),
    "jax": lambda: pytest.importorskip("jax.numpy").ones(3),
    "tensorflow": lambda: pytest.importorskip("tensorflow").ones(3, dtype="float64"),
    "dask": lambda: pytest.importorskip("dask.array").ones(3),
    "mlx": lambda: pytest.importorskip("mlx.core").ones(3),
}
_OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor", "lshift", "rshift", "lt", "le", "gt", "ge", "eq", "ne"]  # fmt: skip


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "tensorflow", "dask", "mlx"])
def test_another_frameworks_array_in_an_operator_is_a_type_error(backend: str) -> None:
    """Every operator, forward, reflected and in place, refuses another framework's array
    (or a NumPy scalar that is no Python scalar) with the contract's `TypeError` naming the
    member: before, TensorFlow and MLX arrays were converted and their own array came
    back, ``==`` fell back to identity (``False``), the others gave messages of NumPy's or
    Python's that name no backend.  The in-place operators change nothing."""
    pytest.importorskip(backend)
    wx = importlib.import_module(f"eagerpy_xp.{backend}")
    dtype = wx.float32 if backend == "mlx" else wx.float64
    for other_name, make in _FOREIGN.items():
        if other_name == backend or (backend == "numpy" and other_name == "numpy scalar"):
            continue  # a NumPy array or scalar is the numpy backend's own
        other = make()
        for op in _OPERATORS:
            x = wx.asarray([1.0, 2.0, 3.0], dtype=dtype)
            members = [f"__{op}__"]
            if op not in ("lt", "le", "gt", "ge", "eq", "ne"):
                members += [f"__i{op}__", f"__r{op}__"]
            forms = [(m, lambda x=x, m=m, o=other: getattr(x, m)(o)) for m in members]
            forms += [("__add__", lambda x=x, o=other: x + o), ("__eq__", lambda x=x, o=other: x == o),
                      ("__iadd__", lambda x=x, o=other: operator.iadd(x, o))]
            for member, call in forms:
                with pytest.raises(TypeError) as info:
                    call()
                message = str(info.value)
                assert message.startswith(f"eagerpy_xp.{backend}.Array.{member}: cannot mix a "
                                          f"{backend} Array with a "), message  # fmt: skip
                assert type(other).__name__ in message, message
                assert np.asarray(x).tolist() == [1.0, 2.0, 3.0]


def test_objects_of_no_framework_get_their_reflected_operator() -> None:
    """An object of no framework still gets Python's protocol: `NotImplemented`, then its
    own reflected operator (xarray's ``DataArray`` relies on it); ``==`` with ``None`` or
    a string is Python's identity fallback."""
    wx = importlib.import_module("eagerpy_xp.numpy")

    class Other:
        def __radd__(self, left: Any) -> str:
            return "reflected"

        def __rmatmul__(self, left: Any) -> str:
            return "reflected @"

    x = wx.asarray([1.0, 2.0])
    assert x + Other() == "reflected" and x @ Other() == "reflected @"
    assert (x == None) is False and (x != "a") is True  # noqa: E711
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*"):
        x * Other()


@pytest.mark.parametrize("call", [
    ("exp", lambda xp, a: xp.exp(a)),
    ("add", lambda xp, a: xp.add(a, a)),
    ("concat", lambda xp, a: xp.concat([a, a])),
    ("linalg.matmul", lambda xp, a: xp.linalg.matmul(a, a)),
    ("fft.rfft", lambda xp, a: xp.fft.rfft(a)),
], ids=lambda c: c[0])  # fmt: skip
def test_a_wrapped_function_given_another_backends_array_names_itself(call: Any) -> None:
    """An `Array` of another backend given to a wrapped function (alone, twice, inside a
    list; at the top level and in an extension) is the contract's `TypeError` naming the
    backend, the function with its extension and the other backend."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    import numpy as np

    import eagerpy_xp as ep

    name, f = call
    other = ep.astensor(np.ones((2, 2), dtype=np.float32))
    with pytest.raises(TypeError, match=rf"^eagerpy_xp\.torch\.{name}: got a numpy Array; "
                       "convert it first"):  # fmt: skip
        f(ep.torch, other)
    assert torch.is_tensor(f(ep.torch, ep.astensor(torch.ones(2, 2))).raw)  # its own: fine
