"""Defects that the client libraries' own suites found (issue 37), each widened into the
family it belongs to, on both flavours of every backend (JAX with x64 on):

1. reductions over zero-size arrays whose reduced axes are not empty (Dask's ``min`` of a
   ``(0, 2)`` array along its last axis raised), judged against NumPy's answer; ``min``,
   ``max``, ``argmin``, ``argmax`` over an empty reduced axis raise the contract's
   `ValueError`;
2. ``searchsorted`` in ``sort``'s order (torch walked past NaNs) with NaN, infinities and
   signed zeros, both sides, with and without ``sorter``;
3. ``result_type`` with Python scalars (a complex with a real floating dtype was refused):
   the standard's dtype, and everywhere the dtype ``add`` computes;
4. NumPy's ufuncs take an `Array` through ``__array__`` (``__array_ufunc__ = None``
   refused them), while ``ndarray <op> Array`` still runs the Array's operator;
5. every function with a shape parameter takes the framework's own ``x.shape``
   (TensorShape was refused by ``broadcast_to``);
6. float32 ``exp`` accurate over its whole range (MLX's was 60 ulp off and overflowed
   early).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask", "mlx")
xp = namespaces(*BACKENDS)


def _backend(xp: ModuleType) -> str:
    return str(xp.__backend__.name)


# -- 1. reductions over zero-size arrays --------------------------------------------------------
# name -> (NumPy's function, the dtypes it is tried with, whether axis may be a tuple)
REDUCTIONS: dict[str, tuple[Callable[..., Any], tuple[str, ...], bool]] = {
    "min": (np.min, ("float32", "int32"), True),
    "max": (np.max, ("float32", "int32"), True),
    "sum": (np.sum, ("float32", "int32"), True),
    "prod": (np.prod, ("float32", "int32"), True),
    "mean": (np.mean, ("float32",), True),
    "std": (np.std, ("float32",), True),
    "var": (np.var, ("float32",), True),
    "argmin": (np.argmin, ("float32", "int32"), False),
    "argmax": (np.argmax, ("float32", "int32"), False),
    "any": (np.any, ("bool",), True),
    "all": (np.all, ("bool",), True),
    "count_nonzero": (np.count_nonzero, ("float32",), True),
    "cumulative_sum": (np.cumsum, ("float32", "int32"), False),
    "cumulative_prod": (np.cumprod, ("float32", "int32"), False),
}
ZERO_SIZE_SHAPES = ((0,), (0, 2), (2, 0), (0, 0), (0, 3, 2), (3, 0, 2), (2, 3, 0))
# functions that have no identity: over an empty reduced axis they raise ValueError
NO_IDENTITY = {"min", "max", "argmin", "argmax"}


def _axes(ndim: int, tuples: bool) -> Iterator[Any]:
    """None, every axis (non-negative and negative) and, where allowed, every pair."""
    yield None
    for axis in range(ndim):
        yield axis
        yield axis - ndim
    if tuples:
        yield from itertools.combinations(range(ndim), 2)
        yield tuple(range(ndim))


def _numpy_reduction(name: str, x: np.ndarray, axis: Any, keepdims: bool,
                     correction: float) -> np.ndarray:  # fmt: skip
    fn = REDUCTIONS[name][0]
    if name.startswith("cumulative"):
        flat = x.reshape(-1) if axis is None else x
        return np.asarray(fn(flat, axis=0 if axis is None else axis))
    if name in ("std", "var"):
        with warnings.catch_warnings():  # NumPy warns of an empty reduction; NaN is the answer
            warnings.simplefilter("ignore")
            return np.asarray(fn(x, axis=axis, keepdims=keepdims, ddof=correction))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(fn(x, axis=axis, keepdims=keepdims))


def _empty_reduced(shape: tuple[int, ...], axis: Any) -> bool:
    axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    return any(shape[a] == 0 for a in axes)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's "Mean of empty slice"
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions_of_zero_size_arrays(xp: ModuleType, name: str) -> None:
    """Every reduction over every zero-size shape and axis, keepdims both ways, equals
    NumPy's answer; where the reduced axes are empty a reduction without an identity raises
    `ValueError` naming the function (NumPy raises too; the standard leaves it open)."""
    fn = getattr(xp, name)
    dtypes, tuples = REDUCTIONS[name][1], REDUCTIONS[name][2]
    cumulative = name.startswith("cumulative")
    failures = []
    for shape, dtype in itertools.product(ZERO_SIZE_SHAPES, dtypes):
        x = xp.zeros(shape, dtype=getattr(xp, dtype))
        host = np.zeros(shape, dtype=dtype)
        for axis in _axes(len(shape), tuples):
            if cumulative and axis is None and len(shape) > 1:
                continue  # the standard requires an axis for an array of more than one axis
            for keepdims, correction in itertools.product((False, True), (0.0, 1.0)):
                if correction and name not in ("std", "var"):
                    continue
                kwargs: dict[str, Any] = {"axis": axis}
                if name in ("std", "var"):
                    kwargs["correction"] = correction
                if not cumulative:
                    kwargs["keepdims"] = keepdims
                elif keepdims:
                    continue
                case = f"{name}({shape} {dtype}, {kwargs})"
                if name in NO_IDENTITY and _empty_reduced(shape, axis):
                    try:
                        fn(x, **kwargs)
                    except ValueError as exc:
                        prefix = f"eagerpy_xp.{_backend(xp)}.{name}: "
                        if not str(exc).startswith(prefix):
                            failures.append(f"{case}: message {exc}")
                    except Exception as exc:  # collected and reported
                        failures.append(f"{case}: {type(exc).__name__} {exc}")
                    else:
                        failures.append(f"{case}: no ValueError")
                    continue
                expected = _numpy_reduction(name, host, axis, keepdims, correction)
                try:
                    got = values(fn(x, **kwargs))
                except Exception as exc:  # collected and reported
                    failures.append(f"{case}: {type(exc).__name__} {str(exc)[:120]}")
                    continue
                if got.shape != expected.shape:
                    failures.append(f"{case}: shape {got.shape}, NumPy {expected.shape}")
                elif not np.array_equal(got.astype(np.float64), expected.astype(np.float64),
                                        equal_nan=True):  # fmt: skip
                    failures.append(f"{case}: {got!r}, NumPy {expected!r}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:40])


# -- 2. searchsorted agrees with sort's order ---------------------------------------------------
SPECIAL_VALUES = (float("nan"), float("-inf"), -1.5, -0.0, 0.0, 1.0, float("inf"))


def _sorted_inputs() -> Iterator[tuple[float, ...]]:
    """Sequences of special values (NaN, infinities, signed zeros, repeats): every pair and
    triple drawn with repetition, and the whole set twice."""
    for n in (1, 2, 3):
        yield from itertools.combinations_with_replacement(SPECIAL_VALUES, n)
    yield SPECIAL_VALUES + SPECIAL_VALUES


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_searchsorted_follows_sort(xp: ModuleType, dtype: str) -> None:
    """``searchsorted(sort(x1), x2)`` equals NumPy's (NaN sorts last, ``-0.0 == 0.0``), for
    every sequence of special values, every special query, both sides, with and without a
    ``sorter``; the order ``sort`` itself gives is NumPy's too."""
    if dtype not in xp.__array_namespace_info__().dtypes():
        pytest.skip(f"{dtype} is not a dtype of {xp.__name__}")  # MLX on GPU has no float64
    queries = np.asarray(SPECIAL_VALUES, dtype=dtype)
    x2 = xp.asarray(queries)
    # every result is read back in one piece (a stack, a concat): one computation on the
    # lazy backends, not 1,320 (Dask took 13 s a dtype that way)
    inputs = list(_sorted_inputs())
    sorted_parts, searched, searched_scalar = [], [], []
    wanted, wanted_scalar = [], []  # (description, NumPy's answer), in the same order
    for data in inputs:
        host = np.asarray(data, dtype=dtype)
        x1 = xp.asarray(host)
        ordered = xp.sort(x1)
        sorted_parts.append(ordered)
        expected_sorted = np.sort(host)
        sorter = xp.argsort(x1)
        for side in ("left", "right"):
            expected = np.searchsorted(expected_sorted, queries, side=side)
            searched.append(xp.searchsorted(ordered, x2, side=side))
            wanted.append((f"searchsorted(sort({data}), side={side})", expected))
            searched.append(xp.searchsorted(x1, x2, side=side, sorter=sorter))
            wanted.append((f"searchsorted({data}, sorter, side={side})", expected))
            for q in (float("nan"), float("inf"), -0.0):  # a Python float as the query
                want = np.searchsorted(expected_sorted, np.asarray(q, dtype=dtype), side=side)
                searched_scalar.append(xp.searchsorted(
                    ordered, xp.asarray(q, dtype=getattr(xp, dtype)), side=side))  # fmt: skip
                wanted_scalar.append((f"searchsorted(sort({data}), {q}, side={side})", want))
    failures = []
    got_all_sorted = values(xp.concat(sorted_parts))
    start = 0
    for data in inputs:
        got_sorted = got_all_sorted[start:start + len(data)]
        start += len(data)
        expected_sorted = np.sort(np.asarray(data, dtype=dtype))
        if not np.array_equal(got_sorted, expected_sorted, equal_nan=True):
            failures.append(
                f"sort({data}): {got_sorted.tolist()}, NumPy {expected_sorted.tolist()}"
            )
    for (what, expected), got in zip(wanted, values(xp.stack(searched)), strict=True):
        if not np.array_equal(got, expected):
            failures.append(f"{what}: {got.tolist()}, NumPy {expected.tolist()}")
    for (what, want), got_q in zip(wanted_scalar, values(xp.stack(searched_scalar)),
                                   strict=True):  # fmt: skip
        if int(got_q) != int(want):
            failures.append(f"{what}: {int(got_q)}, NumPy {int(want)}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:40])


# -- 3. result_type with Python scalars ---------------------------------------------------------
SCALARS = (True, 1, 1.5, 1j)


def _dtype_names(xp: ModuleType) -> list[str]:
    return list(xp.__array_namespace_info__().dtypes())


def _spec_scalar_result(name: str, scalar: object) -> str | None:
    """What the standard requires of ``result_type(dtype, scalar)`` (type promotion,
    "Mixing arrays with Python scalars", 2024.12): the dtype itself for a scalar of its
    kind (a bool with bool, an int with a numeric dtype, a float with a floating one, a
    complex with a complex one), and a complex with a real floating dtype gives the complex
    dtype of its precision; None where the standard leaves it open."""
    floating = name.startswith(("float", "complex"))
    if isinstance(scalar, bool):
        return name if name == "bool" else None
    if isinstance(scalar, int):
        return name if name != "bool" else None
    if isinstance(scalar, float):
        return name if floating else None
    if name.startswith("complex"):
        return name
    return {"float32": "complex64", "float64": "complex128"}.get(name)


def _outcome(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, or the type of the exception it raised."""
    try:
        return call(*args)
    except Exception as exc:  # the kind of failure is the outcome
        return type(exc)


def test_result_type_with_python_scalars(xp: ModuleType) -> None:
    """``result_type`` of every dtype (as a dtype and as an array, before and after the
    scalar) with every kind of Python scalar: the standard's dtype where it names one, and
    everywhere the dtype ``add`` gives the same operands (or the same exception type), so
    that ``result_type`` predicts the namespace's own arithmetic; a number with bool is a
    `TypeError`."""
    failures = []
    for name in _dtype_names(xp):
        dtype = getattr(xp, name)
        array = xp.ones((), dtype=dtype)
        for scalar in SCALARS:
            if name == "bool":  # numbers with bool: no promotion (add refuses bool arrays,
                # bitwise_xor gives int64): TypeError, as array_api_strict's
                operation = xp.bool if isinstance(scalar, bool) else TypeError
            else:
                operation = _outcome(lambda a, v: xp.add(a, v).dtype, array, scalar)
            required = _spec_scalar_result(name, scalar)
            for args in ((dtype, scalar), (scalar, dtype), (array, scalar), (scalar, array)):
                got = _outcome(xp.result_type, *args)
                kind = "array" if any(a is array for a in args) else "dtype"
                case = f"result_type({name} {kind}, {scalar!r})"
                # (MLX holds no complex128: float64 with 1j raises NotImplementedError)
                if required is not None and hasattr(xp, required) and got != getattr(xp, required):
                    failures.append(f"{case}: {got}, the standard: {required}")
                if isinstance(operation, type):
                    if got is not operation and not (
                        isinstance(got, type) and issubclass(got, operation)
                    ):
                        failures.append(f"{case}: {got}, add raises {operation.__name__}")
                elif got != operation:
                    failures.append(f"{case}: {got}, add gives {operation}")
    # several scalars apply in turn, as chained operations do
    if "float32" in _dtype_names(xp):
        float32 = xp.float32
        assert xp.result_type(float32, 1.0, 1j) == xp.complex64
        assert xp.result_type(1j, float32, 2) == xp.complex64
        assert xp.result_type(xp.ones(2, dtype=float32), 1j, 1.0) == xp.complex64
    with pytest.raises(ValueError, match=f"eagerpy_xp.{_backend(xp)}.result_type: "):
        xp.result_type(1.0, 1j)  # at least one array or dtype
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:40])


# -- 4. NumPy's functions on an Array -----------------------------------------------------------
def _float_ufuncs(nin: int) -> list[np.ufunc]:
    """NumPy's ufuncs of ``nin`` inputs that take float64 (``np.sin``, ``np.isnan``,
    ``np.add``, ``np.maximum``, ...)."""
    found = []
    for name in sorted(dir(np)):
        ufunc = getattr(np, name)
        if (
            isinstance(ufunc, np.ufunc)
            and ufunc.nin == nin
            and ufunc.nout == 1
            and (
                ufunc.signature is None  # not a gufunc (matmul's operands are not scalars)
                and any(t.startswith("d" * nin + "->") for t in ufunc.types)
            )
        ):
            found.append(ufunc)
    return found


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_ufuncs_convert_an_array(backend: str) -> None:
    """Every float ufunc of NumPy, unary and binary (with the Array first, second, and
    with a Python scalar), takes a wrapped `Array` of every backend through ``__array__``
    and answers as on the NumPy copy, a NumPy array (array_api_strict's arrays convert
    the same way; SciPy's filters call ``np.<ufunc>(x)``)."""
    pytest.importorskip(backend)
    import importlib

    xp = importlib.import_module(f"eagerpy_xp.{backend}")
    x = xp.asarray([0.25, 0.5, 2.0], dtype=xp.float32)
    host = np.asarray(x)
    failures = []
    calls: list[tuple[str, Callable[[Any], Any]]] = []
    for ufunc in _float_ufuncs(1):
        calls.append((f"np.{ufunc.__name__}(x)", lambda a, u=ufunc: u(a)))
    for ufunc in _float_ufuncs(2):
        calls.append((f"np.{ufunc.__name__}(x, x)", lambda a, u=ufunc: u(a, a)))
        calls.append((f"np.{ufunc.__name__}(x, 1.5)", lambda a, u=ufunc: u(a, 1.5)))
        calls.append((f"np.{ufunc.__name__}(2.0, x)", lambda a, u=ufunc: u(2.0, a)))
    assert len(calls) > 100
    with np.errstate(all="ignore"):
        for text, call in calls:
            expected = call(host)
            try:
                got = call(x)
            except Exception as exc:  # collected and reported
                failures.append(f"{text}: {type(exc).__name__} {exc}")
                continue
            if type(got) is not np.ndarray or not np.array_equal(got, expected, equal_nan=True):
                failures.append(f"{text}: {got!r}, on the NumPy copy {expected!r}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("backend", BACKENDS)
def test_operators_with_a_numpy_array_on_the_left(backend: str) -> None:
    """``ndarray <op> Array`` still runs the Array's reflected operator (NumPy defers to it):
    an `Array` of the NumPy backend with NumPy's values; on another backend the contract's
    `TypeError` naming the reflected operator (docs/errors.md).  ``np.float64`` on the left
    is a Python float (its subclass): an `Array` on every backend."""
    pytest.importorskip(backend)
    import importlib
    import operator

    import eagerpy_xp as ep

    xp = importlib.import_module(f"eagerpy_xp.{backend}")
    x = xp.asarray([0.25, 0.5, 2.0], dtype=xp.float32)
    host = np.asarray(x)
    left = np.asarray([1.0, 2.0, 3.0], dtype=np.float32)
    for op, reflected in [(operator.add, "__radd__"), (operator.sub, "__rsub__"),
                          (operator.mul, "__rmul__"), (operator.truediv, "__rtruediv__"),
                          (operator.pow, "__rpow__"), (operator.lt, "__gt__"),
                          (operator.eq, "__eq__"), (operator.matmul, "__rmatmul__")]:  # fmt: skip
        if backend == "numpy":
            got = op(left, x)
            assert type(got) is ep.Array, (op, type(got))
            np.testing.assert_array_equal(np.asarray(got), op(left, host))
        else:
            with pytest.raises(TypeError, match=f"eagerpy_xp.{backend}.Array.{reflected}: "):
                op(left, x)
    got = np.float64(2.0) * x
    assert type(got) is ep.Array
    np.testing.assert_array_equal(np.asarray(got), 2.0 * host)


# -- 5. the framework's own shape objects wherever a shape goes ---------------------------------
#: Parameters of the standard's functions that take a shape.
SHAPE_PARAMETERS = ("shape", "*shapes", "s", "repetitions")
#: function -> a call with the shape ``s`` (of (2, 3)), and the shape of its result.
SHAPE_CALLS: dict[str, tuple[Callable[[ModuleType, Any], Any], tuple[int, ...]]] = {
    "empty": (lambda xp, s: xp.empty(s), (2, 3)),
    "zeros": (lambda xp, s: xp.zeros(s), (2, 3)),
    "ones": (lambda xp, s: xp.ones(s), (2, 3)),
    "full": (lambda xp, s: xp.full(s, 1.5), (2, 3)),
    "broadcast_to": (lambda xp, s: xp.broadcast_to(xp.ones(3), s), (2, 3)),
    "broadcast_shapes": (lambda xp, s: xp.broadcast_shapes(s, (1, 3)), (2, 3)),
    "reshape": (lambda xp, s: xp.reshape(xp.ones((3, 2)), s), (2, 3)),
    "tile": (lambda xp, s: xp.tile(xp.ones((1, 1)), s), (2, 3)),
    "fft.fftn": (lambda xp, s: xp.fft.fftn(xp.ones((2, 3), dtype=xp.complex64), s=s), (2, 3)),
    "fft.ifftn": (lambda xp, s: xp.fft.ifftn(xp.ones((2, 3), dtype=xp.complex64), s=s), (2, 3)),
    "fft.rfftn": (lambda xp, s: xp.fft.rfftn(xp.ones((2, 3)), s=s), (2, 2)),
    "fft.irfftn": (lambda xp, s: xp.fft.irfftn(xp.ones((2, 2), dtype=xp.complex64), s=s),
                   (2, 3)),
}  # fmt: skip


def _functions_with_shapes() -> list[str]:
    """Every function of the standard (``linalg`` and ``fft`` too) with a shape parameter,
    read from the spec's signatures."""
    import re

    from eagerpy_xp import _spec

    found = []
    for prefix, table in (("", _spec.FUNCTIONS), ("linalg.", _spec.LINALG), ("fft.", _spec.FFT)):
        for name, signature in table.items():
            parameters = re.split(r"[(,)]\s*", signature)
            if any(p.split("=")[0].strip() in SHAPE_PARAMETERS for p in parameters):
                found.append(prefix + name)
    return found


def test_every_shape_parameter_is_covered() -> None:
    assert sorted(_functions_with_shapes()) == sorted(SHAPE_CALLS)


def _shape_objects(xp: ModuleType) -> dict[str, Any]:
    """The shape (2, 3) as the framework's own arrays report it (TensorShape, torch.Size,
    tuples), as the flavour's arrays report it, as NumPy integers and as a list."""
    x = xp.ones((2, 3))
    native = x.raw if hasattr(x, "raw") else x
    return {"the framework's x.shape": native.shape, "the namespace's x.shape": x.shape,
            "NumPy ints": (np.int64(2), np.intp(3)), "a list": [2, 3]}  # fmt: skip


@pytest.mark.parametrize("function", sorted(SHAPE_CALLS))
def test_shape_arguments_take_the_frameworks_shapes(xp: ModuleType, function: str) -> None:
    """Portable code hands ``x.shape`` on (``broadcast_to(y, x.shape)``): every function
    with a shape parameter takes the framework's own shape object, in both flavours."""
    call, expected = SHAPE_CALLS[function]
    for what, shape in _shape_objects(xp).items():
        result = call(xp, shape)
        got = tuple(result) if function == "broadcast_shapes" else tuple(result.shape)
        assert got == expected, (what, type(shape), got)


# -- 6. float32 exp across its whole range -------------------------------------------------------
def test_float32_exp_over_its_range(xp: ModuleType) -> None:
    """``exp`` in float32 from the subnormal results to overflow (10**6 points and the
    special values), against the float64 reference: relative error at most 4e-7 (about 3
    ulp; NumPy's own is 2.0e-7, MLX's kernel was 3.9e-6) wherever the result is normal,
    inf exactly where the result overflows, the special values of the standard.  (Below
    the normal range XLA, under JAX and TensorFlow, flushes subnormal results to 0: only
    their range is checked there.)"""
    grid = np.linspace(-104.0, 89.0, 600_001, dtype=np.float32)
    rng = np.random.default_rng(37)
    x = np.concatenate([grid, rng.uniform(-104.0, 89.0, 400_000).astype(np.float32),
                        np.float32([88.72283, 88.72284, -87.33654, -87.33655])])  # fmt: skip
    reference = np.exp(x.astype(np.float64))
    got = values(xp.exp(xp.asarray(x))).astype(np.float64)
    largest = float(np.finfo(np.float32).max)
    normal = (reference >= float(np.finfo(np.float32).smallest_normal)) & (reference <= largest)
    error = np.abs(got[normal] - reference[normal]) / reference[normal]
    worst = int(np.argmax(error))
    assert error[worst] <= 4e-7, (float(x[normal][worst]), float(error[worst]))
    overflow = reference > largest
    np.testing.assert_array_equal(np.isposinf(got), overflow)
    below = ~normal & ~overflow
    assert np.all((got[below] >= 0) & (got[below] < float(np.finfo(np.float32).smallest_normal)))
    special = np.float32([np.inf, -np.inf, np.nan, 0.0, -0.0, 1000.0, -1000.0])
    np.testing.assert_array_equal(
        values(xp.exp(xp.asarray(special))),
        np.float32([np.inf, 0.0, np.nan, 1.0, 1.0, np.inf, 0.0]),
    )


# -- findings: errors raised when a Dask graph computes name the Dask backend -----------------
def _singular() -> np.ndarray:
    return np.array([[1.0, 2.0], [2.0, 4.0]])


def _indefinite() -> np.ndarray:
    return np.array([[1.0, 2.0], [2.0, 1.0]])


#: function -> a call whose graph fails when computed (NumPy's LAPACK on the chunks, or the
#: NumPy backend's function run as one task on data of unknown size).
LAZY_FAILURES: dict[str, Callable[[ModuleType], Any]] = {
    "linalg.cholesky": lambda xp: xp.linalg.cholesky(xp.asarray(_indefinite())),
    "linalg.inv": lambda xp: xp.linalg.inv(xp.asarray(_singular())),
    "linalg.solve": lambda xp: xp.linalg.solve(xp.asarray(_singular()), xp.ones((2, 1))),
    "linalg.matrix_power": lambda xp: xp.linalg.matrix_power(xp.asarray(_singular()), -1),
    # a stack of matrices of unknown count (boolean mask): one task runs the NumPy function
    "linalg.inv ": lambda xp: xp.linalg.inv(
        xp.asarray(np.stack([_singular()] * 2))[xp.asarray([True, False])]
    ),
}


@pytest.mark.parametrize("function", sorted(LAZY_FAILURES))
def test_dask_errors_at_compute_name_dask(function: str) -> None:
    """scikit-learn's run found ``eagerpy_xp.numpy.linalg.cholesky: ...`` raised for
    a Dask array: the Dask backend runs the NumPy backend's functions on chunks, and an
    error raised when the graph computes kept NumPy's name.  Every such error names Dask."""
    pytest.importorskip("dask")
    import importlib

    for module in ("eagerpy_xp.native.dask", "eagerpy_xp.dask"):
        xp = importlib.import_module(module)
        with pytest.raises(ValueError) as info:
            values(LAZY_FAILURES[function](xp))
        name = function.strip()
        assert str(info.value).startswith(f"eagerpy_xp.dask.{name}: "), (module, info.value)


# -- findings: NaN propagates through min and max of long arrays -------------------------------
@pytest.mark.parametrize("function", ["min", "max"])
def test_min_max_propagate_nan_at_every_length(xp: ModuleType, function: str) -> None:
    """array-api-extra's searchsorted found JAX's ``min`` of 10,001 values with NaNs giving a
    number (XLA's CPU reduction drops NaNs from 4,096 elements on): NaN propagates (the
    standard's special case) at every length and position, over every axis and one."""
    failures = []
    for n, position, dtype in itertools.product(
        (1, 7, 4095, 4096, 10001, 100_000), (0, "middle", -1), ("float32", "float64")
    ):
        if dtype not in xp.__array_namespace_info__().dtypes():
            continue
        host = np.linspace(-1.0, 1.0, n).astype(dtype)
        host[n // 2 if position == "middle" else position] = np.nan
        x = xp.asarray(host)
        for kwargs in ({}, {"axis": -1, "keepdims": True}, {"axis": 0}):
            got = values(getattr(xp, function)(x, **kwargs))
            if not np.all(np.isnan(got)):
                failures.append(f"{function}({n} {dtype}, NaN at {position}, {kwargs}): {got}")
        rows = xp.asarray(np.stack([host, np.zeros(n, dtype)]))
        got = values(getattr(xp, function)(rows, axis=1))
        if not (np.isnan(got[0]) and got[1] == 0):
            failures.append(f"{function}(2 rows of {n} {dtype}, axis=1): {got}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:40])
