"""Edge inputs that random generation reaches rarely, as named items on every target.

Zero-size and broadcasting batch dimensions in the linear-algebra functions (against
array_api_strict), ``linalg.eig``/``eigvals``, mixed integer dtypes, floating ``arange``,
``from_dlpack(device=)``, ``asarray(copy=False)`` after a write, ``__dlpack__`` with
a ``max_version`` below 1.0, and the library's one sign where the spec leaves a zero's
sign open.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import array_api_strict as xs
import numpy as np
import pytest

from .functions import Case
from .harness import Missing, Target
from .strategies import Call
from .test_differential import check_call

# each item names its matrix row (``area``): the rows are those of `harness.AREAS`
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

#: ``linalg`` functions of 2025.12 that the signature list of the library may lack: the
#: suite asks for them by name so that their absence fails here.
LINALG_2025 = ("eig", "eigvals")


def _a(shape: tuple[int, ...], dtype: str = "float64", seed: int = 0) -> np.ndarray:
    """A well-conditioned array: a diagonal-dominant stack for square trailing dims."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, shape)
    if len(shape) >= 2 and shape[-1] == shape[-2] and shape[-1] > 0:
        x = x + 4 * shape[-1] * np.eye(shape[-1])
    if np.dtype(dtype).kind in "iu":
        x = np.abs(x) * 3
    return x.astype(dtype)


def _spd(shape: tuple[int, ...]) -> np.ndarray:
    x = _a(shape)
    return (x @ np.swapaxes(x, -1, -2)).astype("float64") if shape[-1] else x


#: (namespace, function, call): zero-size dimensions and batch dimensions of size 1 or
#: missing, which the standard broadcasts.
EDGE_CALLS: list[tuple[str, str, Call]] = [
    ("linalg", "cross", Call((_a((0, 3)), _a((3,))))),
    ("linalg", "cross", Call((_a((2, 1, 3)), _a((4, 3), seed=1)))),
    ("linalg", "cross", Call((_a((1, 3)), _a((0, 3))))),
    ("linalg", "cross", Call((_a((2, 3), "float32"), _a((3,), "float64")))),
    ("main", "tensordot", Call((_a((0, 3)), _a((3, 2))), {"axes": 1})),
    ("main", "tensordot", Call((_a((2, 0)), _a((0, 3))), {"axes": 1})),
    ("main", "tensordot", Call((_a((2, 3)), _a((0,))), {"axes": 0})),
    ("main", "tensordot", Call((_a((0, 2, 3)), _a((2, 3, 4))), {"axes": 2})),
    ("main", "matmul", Call((_a((0, 2, 3)), _a((3, 4))))),
    ("main", "matmul", Call((_a((2, 1, 2, 3)), _a((5, 3, 4))))),
    ("main", "matmul", Call((_a((2, 0)), _a((0, 3))))),
    ("main", "matmul", Call((_a((3,)), _a((1, 3, 2))))),
    ("main", "matmul", Call((_a((2, 3), "uint8"), _a((3, 2), "uint16")))),
    ("main", "vecdot", Call((_a((2, 1, 3)), _a((4, 3))))),
    ("main", "vecdot", Call((_a((0, 3)), _a((3,))))),
    ("main", "vecdot", Call((_a((3,), "int8"), _a((2, 3), "uint8")))),
    ("linalg", "vecdot", Call((_a((1, 4)), _a((3, 4))))),
    ("linalg", "matmul", Call((_a((1, 2, 2)), _a((3, 2, 2))))),
    ("linalg", "outer", Call((_a((3,), "uint8"), _a((2,), "uint16")))),
    ("linalg", "outer", Call((_a((0,)), _a((2,))))),
    ("linalg", "tensordot", Call((_a((0, 3)), _a((3, 2))), {"axes": 1})),
    ("linalg", "solve", Call((_a((2, 1, 3, 3)), _a((4, 3, 2))))),
    ("linalg", "solve", Call((_a((0, 3, 3)), _a((3, 1))))),
    ("linalg", "det", Call((_a((0, 2, 2)),))),
    ("linalg", "det", Call((_a((0, 0)),))),
    ("linalg", "inv", Call((_a((0, 3, 3)),))),
    ("linalg", "cholesky", Call((_spd((0, 3, 3)),))),
    ("linalg", "matrix_norm", Call((_a((0, 2, 2)),))),
    ("linalg", "vector_norm", Call((_a((0, 3)),), {"axis": -1})),
    ("linalg", "matrix_rank", Call((_a((0, 2, 2)),))),
    ("linalg", "slogdet", Call((_a((0, 2, 2)),))),
    ("linalg", "diagonal", Call((_a((0, 2, 2)),))),
    ("linalg", "trace", Call((_a((2, 0, 0)),))),
    ("linalg", "matrix_power", Call((_a((0, 2, 2)), 3))),
    ("linalg", "pinv", Call((_a((0, 2, 3)),))),
    ("linalg", "eigvalsh", Call((_spd((0, 2, 2)),))),
    ("linalg", "svdvals", Call((_a((0, 2, 3)),))),
]  # fmt: skip

def _call_id(where: str, name: str, call: Call) -> str:
    shown = [f"{a.dtype}{list(a.shape)}" if isinstance(a, np.ndarray) else repr(a)
             for a in call.args]  # fmt: skip
    shown += [f"{k}={v!r}" for k, v in call.kwargs.items()]
    return f"{where}.{name}(" + ",".join(shown) + ")"


_CASE = Case(calls=None, tol="loose")  # type: ignore[arg-type]


def _fn(target: Target, where: str, name: str) -> Any:
    return target.function(f"linalg.{name}" if where == "linalg" else name)


@pytest.mark.parametrize(("area", "name", "where", "call"),
                         [pytest.param("linalg" if w == "linalg" else "linear algebra", n, w, c,
                                       id=_call_id(w, n, c)) for w, n, c in EDGE_CALLS])
def test_edge_matches_reference(target: Target, area: str, name: str, where: str,
                                call: Call) -> None:  # fmt: skip
    reference = xs.linalg if where == "linalg" else xs
    check_call(target, name, _CASE, call, _fn(target, where, name), reference)


@pytest.mark.parametrize("name", LINALG_2025)
@pytest.mark.parametrize("area", ["linalg"])
def test_linalg_2025_present(target: Target, area: str, name: str) -> None:
    target.function(f"linalg.{name}")  # `Missing` where it is absent


@pytest.mark.parametrize(("dtype", "result"), [("float32", "complex64"),
                                               ("float64", "complex128"),
                                               ("complex64", "complex64")])  # fmt: skip
@pytest.mark.parametrize("name", LINALG_2025)
@pytest.mark.parametrize("area", ["linalg"])
def test_linalg_eig(target: Target, area: str, name: str, dtype: str, result: str) -> None:
    """Eigenvalues of a stack of triangular matrices (their diagonals), complex results."""
    target.check_holds(dtype, result)
    a = np.array([[[2.0, 1.0], [0.0, 3.0]], [[-1.0, 0.0], [5.0, 4.0]]]).astype(dtype)
    out = target.function(f"linalg.{name}")(target.asarray(a))
    values = out.eigenvalues if name == "eig" else out
    assert target.dtype_name(values.dtype) == result
    got = target.to_numpy(values)
    np.testing.assert_allclose(np.sort(got.real, axis=-1), [[2, 3], [-1, 4]], rtol=1e-5)
    np.testing.assert_allclose(got.imag, 0, atol=1e-5)
    if name == "eig":
        vectors = target.to_numpy(out.eigenvectors)
        assert target.dtype_name(out.eigenvectors.dtype) == result
        av = a.astype(result) @ vectors
        np.testing.assert_allclose(av, vectors * target.to_numpy(values)[..., None, :],
                                   rtol=1e-4, atol=1e-4)  # fmt: skip
        assert len(tuple(out)) == 2


#: Binary functions taking integers, each with a Python int at a bound of the array's
#: dtype on either side: a framework that reads Python ints as its default integer type
#: (JAX: a weak int32/int64) overflows for ``uint64`` with ``2**63`` or ``int32`` beside
#: ``2**31 - 1`` where the standard converts the scalar to the array's dtype.
BOUND_FUNCTIONS = ("add", "subtract", "multiply", "maximum", "minimum", "equal", "not_equal",
                   "less", "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor",
                   "floor_divide", "remainder")  # fmt: skip
BOUND_DTYPES = ("int32", "uint32", "int64", "uint64")


def _bound_calls(dtype: str) -> list[Call]:
    info = np.iinfo(dtype)
    x = np.array([1, 2, 3], dtype)
    bounds = [int(info.max), int(info.max) // 2 + 1] + ([int(info.min)] if info.min else [])
    return [c for b in bounds for c in (Call((x, b)), Call((b, x)))]


@pytest.mark.parametrize("dtype", BOUND_DTYPES)
@pytest.mark.parametrize("name", BOUND_FUNCTIONS)
@pytest.mark.parametrize("area", ["elementwise"])
def test_python_int_at_the_dtype_bounds(target: Target, area: str, name: str,
                                        dtype: str) -> None:  # fmt: skip
    """Each call against array_api_strict; integer overflow wraps on every framework (and
    in the reference), so the results are compared exactly."""
    for call in _bound_calls(dtype):
        check_call(target, name, _CASE, call, target.function(name))


@pytest.mark.parametrize("dtype", BOUND_DTYPES)
@pytest.mark.parametrize("area", ["searching"])
def test_where_with_a_python_int_at_the_dtype_bounds(target: Target, area: str,
                                                     dtype: str) -> None:  # fmt: skip
    info = np.iinfo(dtype)
    x = np.array([1, 2, 3], dtype)
    condition = np.array([True, False, True])
    where = target.function("where")
    for bound in (int(info.max), int(info.min)):
        check_call(target, "where", _CASE, Call((condition, x, bound)), where)
        check_call(target, "where", _CASE, Call((condition, bound, x)), where)


@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("area", ["sets"])
def test_isin_invert(target: Target, area: str, invert: bool) -> None:
    """``invert``: "If True, the function must test whether each element in x1 is not in
    x2", also for an empty ``x2`` (array_api_strict 2.6.1 ignores ``invert``:
    `conformance.calibration`)."""
    isin = target.function("isin")
    x1 = np.array([[5, 15, 11], [2, 18, 5]], "int64")
    for x2 in (np.array([5, 2, 7], "int64"), np.zeros((0, 2), "int64")):
        want = np.isin(x1, x2, invert=invert)
        got = target.to_numpy(isin(target.asarray(x1), target.asarray(x2), invert=invert))
        assert got.tolist() == want.tolist(), f"isin({x1.tolist()}, {x2.tolist()}, invert={invert})"


@pytest.mark.parametrize("area", ["special cases"])
def test_tanh_inf_large_imaginary(target: Target, area: str) -> None:
    """tanh(+inf + yj) for finite y > 0 is 1 + 0j (the +0, whatever sin(2y)'s sign): the
    standard's text, which C99's ctanh (1 + 0 sin(2y) j) disputes upstream
    (data-apis/array-api#1006, open); `conformance.calibration` records it."""
    for dtype, ys in (("complex128", (4.5e152, 2.5, 1e300)), ("complex64", (2.5, 3e38))):
        if dtype in target.unheld:  # MLX has no complex128
            continue
        for y in ys:
            got = complex(target.to_numpy(target.function("tanh")(target.asarray(
                np.array([complex(math.inf, y)], dtype)))).item())  # fmt: skip
            assert got.real == 1.0 and got.imag == 0 and math.copysign(1, got.imag) == 1, (
                f"tanh(inf + {y}j) in {dtype} gave {got!r}")


#: Where the standard leaves the sign of a zero part open ("0 + 0j" for ``expm1(-0 ± 0j)``
#: and ``sign(-0 ± 0j)``), the library picks the result that the ``+0`` input gets, on every
#: backend (docs/tensorflow.md; the backends' docstrings): input -> expected result.
LIBRARY_ZERO_SIGNS: list[tuple[str, complex, complex]] = [
    ("expm1", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ("expm1", complex(-0.0, -0.0), complex(0.0, -0.0)),
    ("sign", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("sign", complex(0.0, -0.0), complex(0.0, 0.0)),
    ("sign", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ("sign", complex(-0.0, -0.0), complex(0.0, 0.0)),
]


@pytest.mark.ours_only
@pytest.mark.tier("house", "the standard leaves the sign of these zeros open")
@pytest.mark.parametrize(("name", "x", "expected"), LIBRARY_ZERO_SIGNS,
                         ids=[f"{n}({x})" for n, x, _ in LIBRARY_ZERO_SIGNS])  # fmt: skip
@pytest.mark.parametrize("area", ["special cases"])
def test_library_zero_signs(target: Target, area: str, name: str, x: complex,
                            expected: complex) -> None:  # fmt: skip
    """The library's one choice where the spec allows either zero (not a spec statement:
    a backend that drifts from the others fails here)."""
    for dtype in ("complex64", "complex128"):
        if dtype in target.unheld:
            continue
        got = complex(target.to_numpy(target.function(name)(
            target.asarray(np.array([x], dtype)))).item())  # fmt: skip
        signs = [math.copysign(1, p) for p in (got.real, got.imag)]
        want = [math.copysign(1, p) for p in (expected.real, expected.imag)]
        assert got == expected and signs == want, f"{name}({x!r}) in {dtype} gave {got!r}"


@pytest.mark.parametrize(("args", "kwargs"), [((0.0,), {"step": -1}), ((0.0, 3), {}),
                                              ((0, 3.0), {}), ((5, 0.0, -1), {}),
                                              ((0, 3), {"step": 0.5})])  # fmt: skip
@pytest.mark.parametrize("area", ["creation"])
def test_arange_floating_arguments(target: Target, area: str, args: tuple[Any, ...],
                                   kwargs: dict[str, Any]) -> None:  # fmt: skip
    """A floating start, stop or step makes a floating result (the default float dtype)."""
    got = target.function("arange")(*args, **kwargs)
    default = target.function("__array_namespace_info__")().default_dtypes()["real floating"]
    assert got.dtype == default, f"arange{args}{kwargs} gave {got.dtype}, expected {default}"
    expected = np.arange(*args, **kwargs)
    assert tuple(got.shape) == expected.shape
    np.testing.assert_allclose(target.to_numpy(got), expected)


@pytest.mark.parametrize("area", ["creation"])
def test_from_dlpack_device(target: Target, area: str) -> None:
    """``from_dlpack(x, device=d)`` for each ``d`` of ``devices()`` gives an array on ``d``,
    in a dtype that ``info.dtypes(device=d)`` lists (a device may lack float64).  The
    standard asks this of the device x is on and of memory the interpreter can read; on
    any other device kind "the function must raise BufferError" where the library cannot
    (torch's meta device): a BufferError there passes (eagerpy_xp's columns never raise:
    `test_from_dlpack_to_every_device`)."""
    _from_dlpack_devices(target, refusals_pass=True)


@pytest.mark.ours_only
@pytest.mark.tier("house", "eagerpy_xp's from_dlpack reaches every device it lists")
@pytest.mark.parametrize("area", ["creation"])
def test_from_dlpack_to_every_device(target: Target, area: str) -> None:
    _from_dlpack_devices(target, refusals_pass=False)


def _from_dlpack_devices(target: Target, refusals_pass: bool) -> None:
    from_dlpack = target.function("from_dlpack")
    info = target.function("__array_namespace_info__")()
    for d in info.devices():
        listed = info.dtypes(device=d, kind="real floating")
        name = next((n for n in ("float64", "float32") if n in listed and n in target.dtypes),
                    None)  # fmt: skip
        if name is None:
            continue  # a device without a floating dtype: nothing to carry over
        x = target.asarray(np.arange(3.0, dtype=name))
        here = _device_of(target, x)
        try:
            y = from_dlpack(x, device=d)
        except BufferError:
            if refusals_pass and d is not None and d != here:
                continue
            raise
        got = _device_of(target, y)
        if d is None:  # a devices() entry None (JAX): "the same device as x"
            d = here
        assert got == d, f"from_dlpack(x, device={d!r}) is on {got!r}"
        np.testing.assert_array_equal(target.to_numpy(y), [0.0, 1.0, 2.0])


def _device_of(target: Target, x: Any) -> Any:
    """``x.device``; eagerpy_xp's native Dask arrays have none and answer through its own
    ``xp.device`` (no name of the standard: another namespace's array lacks the attribute)."""
    if hasattr(x, "device"):
        return x.device
    if target.ours:
        return target.function("device")(x)
    raise Missing(f"missing: {type(x).__qualname__}.device", name="array.device")


@pytest.mark.array_object
@pytest.mark.parametrize("area", ["creation"])
def test_asarray_copy_false_sees_writes(target: Target, area: str) -> None:
    """``asarray(x, copy=False)`` never copies: it sees later writes to ``x`` or raises."""
    x = target.asarray(np.zeros(3))
    try:
        y = target.function("asarray")(x, copy=False)
    except ValueError:
        return
    try:
        x[0] = 1.0
    except TypeError:  # immutable arrays (JAX): no write to see; __setitem__'s row says so
        pytest.skip(f"{target.id}: its arrays take no writes")
    assert target.to_numpy(y)[0] == 1.0, "asarray(x, copy=False) returned a copy"


def _capsule_name(capsule: Any) -> str | None:
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    name = get_name(capsule)
    return name.decode() if name is not None else None


@pytest.mark.array_object
@pytest.mark.parametrize("max_version", [(0, 0), (0, 8), None, (1, 0)])
@pytest.mark.parametrize("area", ["array object"])
def test_dlpack_max_version(target: Target, area: str, max_version: tuple[int, int] | None) -> None:
    """Below 1.0 (or None) the producer exports the legacy ``dltensor`` capsule; at 1.0
    either kind; never an error (every backend can export a legacy capsule)."""
    x = target.asarray(np.arange(3.0))
    kwargs = {} if max_version is None else {"max_version": max_version}
    if not target.ours and max_version is not None and max_version < (0, 5):
        try:  # the standard lets a producer refuse what it cannot export ("should raise
            capsule = x.__dlpack__(**kwargs)  # BufferError"); eagerpy_xp never refuses
        except BufferError:
            return
    capsule = x.__dlpack__(**kwargs)
    name = _capsule_name(capsule)
    allowed = ("dltensor", "dltensor_versioned")
    if max_version is None or max_version[0] < 1:
        allowed = ("dltensor",)
    assert name in allowed, f"__dlpack__({kwargs}) gave a capsule named {name!r}"


# -- issue 23: what client code passes (Python ints at the bounds, NumPy keys and layouts) ----
#: The integer dtypes, with the bounds a Python int may take in each.
INT_BOUNDS = {name: (int(np.iinfo(name).min), int(np.iinfo(name).max))
              for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                           "uint64")}  # fmt: skip


def _exact(target: Target, result: Any, want: Any, dtype: str, what: str) -> None:
    got = target.to_numpy(result)
    assert target.dtype_name(result.dtype) == dtype, f"{what}: dtype {result.dtype}"
    assert got.tolist() == want, f"{what}: {got.tolist()} != {want}"


@pytest.mark.parametrize("dtype", list(INT_BOUNDS))
@pytest.mark.parametrize("area", ["creation"])
def test_python_ints_at_the_dtype_bounds_in_creation(target: Target, area: str,
                                                     dtype: str) -> None:  # fmt: skip
    """Exact values from the lowest to the highest value of the dtype through ``asarray``
    (scalars, nested lists), ``full``, ``full_like`` and ``arange`` (TensorFlow turned
    ``[2**64 - 1, 5]`` with ``dtype=uint64`` into ``[0, 5]``: the list went through
    float64).  A list of 0-d arrays and a value beyond the dtype are left unspecified by
    the standard: `test_python_ints_beyond_the_dtype_bounds` (house)."""
    xp, d = target.xp, target.dtype(dtype)
    low, high = INT_BOUNDS[dtype]
    ends = [low, low + 1, high - 1, high]
    _exact(target, xp.asarray(ends, dtype=d), ends, dtype, "asarray(list)")
    _exact(target, xp.asarray([ends[:2], ends[2:]], dtype=d), [ends[:2], ends[2:]], dtype,
           "asarray(nested)")  # fmt: skip
    like = xp.asarray([0, 0], dtype=d)
    for v in (low, high):
        _exact(target, xp.asarray(v, dtype=d), v, dtype, f"asarray({v})")
        _exact(target, xp.full((2,), v, dtype=d), [v, v], dtype, f"full({v})")
        _exact(target, xp.full_like(like, v), [v, v], dtype, f"full_like({v})")
    # arange's stop one beyond the last value: within the dtype here (the bound itself as
    # the last value needs a stop beyond it, which the house test asks for)
    _exact(target, xp.arange(high - 2, high, dtype=d), [high - 2, high - 1], dtype, "arange")
    _exact(target, xp.arange(low + 2, low, -1, dtype=d), [low + 2, low + 1], dtype, "arange")


@pytest.mark.tier("house", "the standard leaves sequences of arrays and Python ints beyond "
                  "a dtype unspecified; docs/errors.md: OverflowError naming the function")
@pytest.mark.parametrize("dtype", list(INT_BOUNDS))
@pytest.mark.parametrize("area", ["creation"])
def test_python_ints_beyond_the_dtype_bounds(target: Target, area: str, dtype: str) -> None:
    """eagerpy_xp's contract: ``asarray`` of a list of 0-d arrays keeps their exact values,
    and a Python int one beyond the dtype raises `OverflowError` in ``asarray``, ``full``,
    ``full_like`` and ``arange`` (with eagerpy_xp's message prefix; another namespace is
    held to the exception type only)."""
    xp, d = target.xp, target.dtype(dtype)
    low, high = INT_BOUNDS[dtype]
    ends = [low, low + 1, high - 1, high]
    _exact(target, xp.asarray([xp.asarray(v, dtype=d) for v in ends], dtype=d), ends, dtype,
           "asarray(0-d arrays)")  # fmt: skip
    _exact(target, xp.arange(high - 1, high + 1, dtype=d), [high - 1, high], dtype, "arange")
    _exact(target, xp.arange(low + 1, low - 1, -1, dtype=d), [low + 1, low], dtype, "arange")
    like = xp.asarray([0, 0], dtype=d)
    for v in (low - 1, high + 1):
        for name, args, kwargs in (("asarray", ([1, v],), {"dtype": d}),
                                   ("full", ((2,), v), {"dtype": d}), ("full_like", (like, v), {}),
                                   ("arange", (v, v + 1), {"dtype": d})):  # fmt: skip
            prefix = rf"eagerpy_xp\.{target.backend}\.{name}: " if target.ours else None
            with pytest.raises(OverflowError, match=prefix):
                getattr(xp, name)(*args, **kwargs)


#: Keys holding NumPy index arrays, masks and integers (xarray's ``isel`` builds
#: ``x[np.array([0, 2]), :]``), for an array of shape (3, 4, 5).
NUMPY_KEYS: list[tuple[str, Any]] = [
    ("np[0,2]", np.array([0, 2])), ("np[0,2],:", (np.array([0, 2]), slice(None))),
    (":,np[1]", (slice(None), np.array([1]))), ("np uint8", np.array([2, 0], np.uint8)),
    ("np 2-d", np.array([[0, 1], [2, -1]])), ("np,np", (np.array([0, 2]), np.array([1, 3]))),
    ("0,:,np", (0, slice(None), np.array([4, 0]))), ("np,0", (np.array([1, 2]), 0)),
    ("np mask", np.array([True, False, True])), ("np mask 2-d", np.arange(12).reshape(3, 4) > 5),
    (":,np mask", (slice(None), np.array([True, False, False, True]))),
    ("np.int64", np.int64(1)), ("0-d np", np.array(2)), ("np.bool_", np.True_),
    ("list", [0, 2]), ("np slice bounds", slice(np.int64(1), np.int32(3))),
]  # fmt: skip


@pytest.mark.ours_only  # NumPy keys are eagerpy_xp's promise beyond the standard
@pytest.mark.tier("house", "NumPy arrays as keys: eagerpy_xp's promise beyond the standard")
@pytest.mark.array_object  # the wrapped flavour: native arrays index as their framework does
@pytest.mark.parametrize(("name", "key"), NUMPY_KEYS, ids=[n for n, _ in NUMPY_KEYS])
@pytest.mark.parametrize("area", ["array object"])
def test_numpy_keys(target: Target, area: str, name: str, key: Any) -> None:
    """``x[key]`` and ``x[key] = v`` with NumPy's meaning (TensorFlow raised IndexError for
    all of them; Dask refused several and multi-dimensional index arrays)."""
    base = np.arange(60.0).reshape(3, 4, 5)
    x = target.asarray(base)
    want = base[key]
    got = target.to_numpy(x[key])
    assert got.shape == want.shape and np.array_equal(got, want), f"x[{name}]"
    written = base.copy()
    written[key] = -1.0
    x[key] = -1.0
    assert np.array_equal(target.to_numpy(x), written), f"x[{name}] = -1.0"


def _layouts(dtype: str) -> dict[str, np.ndarray]:
    raw = np.arange(24).reshape(4, 6)
    a = (raw % 2 == 0) if dtype == "bool" else (raw + (0 if dtype[0] == "u" else -11)).astype(dtype)
    read_only = a.copy()
    read_only.setflags(write=False)
    return {"reversed": a[::-1, ::-2], "strided": a[:, ::3], "transposed": a.T,
            "broadcast": np.broadcast_to(a[0], (2, 6)), "read-only": read_only,
            "0-d": np.array(a[1, 1]), "zero-size": a[:, :0][::-1],
            "fortran": np.asfortranarray(a)}  # fmt: skip


def _byte_swapped(dtype: str) -> dict[str, np.ndarray]:
    raw = np.arange(24).reshape(4, 6)
    a = (raw % 2 == 0) if dtype == "bool" else (raw + (0 if dtype[0] == "u" else -11)).astype(dtype)
    return {"byte-swapped": a.astype(a.dtype.newbyteorder("S"))[::-1]}


LAYOUT_DTYPES = ["bool", "int16", "uint64", "float32", "complex128"]


@pytest.mark.parametrize("dtype", LAYOUT_DTYPES)
@pytest.mark.parametrize("area", ["creation"])
def test_asarray_of_numpy_layouts(target: Target, area: str, dtype: str) -> None:
    """NumPy arrays (the buffer protocol, DLPack) with negative, zero or other strides or
    read-only: NumPy's values in the native dtype (torch refused negative strides, which
    SciPy's ``filtfilt`` hands it); ``copy=True`` never shares memory with the source."""
    _check_layouts(target, dtype, _layouts(dtype))


@pytest.mark.parametrize("dtype", [d for d in LAYOUT_DTYPES if d != "bool"])
@pytest.mark.parametrize("area", ["creation"])
def test_asarray_of_byte_swapped_numpy_arrays(target: Target, area: str, dtype: str) -> None:
    """A byte-swapped NumPy array (non-native byte order, a buffer of the dtype's values):
    its values in the native dtype (array_api_strict refuses it: `conformance.calibration`)."""
    _check_layouts(target, dtype, _byte_swapped(dtype))


@pytest.mark.ours_only
@pytest.mark.tier("house", "docs/errors.md: NotImplementedError naming the function for a "
                  "dtype the backend cannot hold")
@pytest.mark.parametrize("dtype", LAYOUT_DTYPES)
@pytest.mark.parametrize("area", ["creation"])
def test_asarray_of_an_unheld_dtype(target: Target, area: str, dtype: str) -> None:
    """A dtype the target cannot hold (MLX: complex128) is the contract's
    `NotImplementedError`."""
    if dtype not in target.unheld:
        pytest.skip(f"{target.id} holds {dtype}")
    with pytest.raises(NotImplementedError, match=rf"eagerpy_xp\.{target.backend}\.asarray: "):
        target.xp.asarray(_layouts(dtype)["reversed"])


def _check_layouts(target: Target, dtype: str, layouts: dict[str, np.ndarray]) -> None:
    if dtype not in target.dtypes:
        target.refuse(dtype)
    target.check_holds(dtype)
    for name, source in layouts.items():
        want = np.array(source, copy=True)
        for copy in (None, True):
            result = target.xp.asarray(source, copy=copy)
            got = target.to_numpy(result)
            assert target.dtype_name(result.dtype) == dtype, f"{name}: {result.dtype}"
            assert got.shape == want.shape and np.array_equal(got, want), f"{name} copy={copy}"
        if source.flags.writeable and source.size:
            result = target.xp.asarray(source, copy=True)
            source[...] = want.flat[0]
            assert np.array_equal(target.to_numpy(result), want), f"{name}: copy shares memory"
