"""The differential table: every spec function -> how to call it, compare it, and what to mask.

Each `Case` gives a strategy of `Call`s (argument kinds and dtype domain), a tolerance
name (see `compare.TOLERANCES`), an optional ``mask`` (elements where the reference,
array_api_strict, is known to disagree with the spec, or where the spec leaves the
result unspecified: those are covered by the special-case tables instead), and an
optional ``post`` turning results into a canonical form before comparison.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from eagerpy_xp._dtypes import promote

from .strategies import (
    Call,
    DType,
    arrays,
    axis_for,
    binary_call,
    dtypes,
    promotable_pair,
    python_scalar,
    shapes,
    unary_call,
)

Mask = Callable[[Call], "np.ndarray | None"]


@dataclass(frozen=True)
class Case:
    calls: st.SearchStrategy[Call]
    tol: str = "exact"
    mask: Mask | None = None
    post: Callable[[Any, Callable[[Any], np.ndarray]], Any] | None = None
    meta_only: bool = False  # compare dtype and shape only (``empty``)
    #: the reference result computed differently where array_api_strict is not the spec
    reference: Callable[[Call], Any] | None = None


# -- masks: inputs where the spec leaves the result open or array_api_strict is not the spec ---
def _operands(call: Call) -> list[np.ndarray]:
    ops = [np.asarray(a) for a in call.args[:2]]
    return list(np.broadcast_arrays(*ops)) if len(ops) > 1 else ops


def _result_dtype(call: Call) -> np.dtype[Any]:
    names = [a.dtype.name for a in call.args[:2] if isinstance(a, np.ndarray)]
    name = names[0]
    for other in names[1:]:
        name = promote(name, other) or name
    return np.dtype(name)


def _int_overflow(op: Callable[..., Any]) -> Mask:
    """Integer results outside the result dtype's range (wrap-around is unspecified)."""

    def mask(call: Call) -> np.ndarray | None:
        dtype = _result_dtype(call)
        if dtype.kind not in "iu":
            return None
        ops = [o.astype(object) for o in _operands(call)]
        exact = np.vectorize(lambda *v: _safe(op, *v), otypes=[object])(*ops)
        info = np.iinfo(dtype)
        return np.asarray((exact < info.min) | (exact > info.max), dtype=bool)

    return mask


def _safe(op: Callable[..., Any], *values: Any) -> Any:
    """The exact integer result, or infinity where there is none (masked as overflow)."""
    try:
        result = op(*[int(v) for v in values])
    except (ZeroDivisionError, ValueError, OverflowError):
        return math.inf
    return math.inf if result is None else result


def _int_zero_divisor(call: Call) -> np.ndarray | None:
    if _result_dtype(call).kind not in "iu":
        return _nonfinite_any(call)
    _x1, x2 = _operands(call)
    return (x2 == 0) | _int_overflow(lambda a, b: a // b)(call)  # type: ignore[operator]


def _nonfinite_any(call: Call) -> np.ndarray:
    """Elements where an operand is infinite (numpy's floor division rounds like Python)."""
    out: np.ndarray | None = None
    for o in _operands(call):
        bad = ~np.isfinite(o) & ~np.isnan(o) if o.dtype.kind in "fc" else np.zeros(o.shape, bool)
        out = bad if out is None else out | bad
    assert out is not None
    return out


def _complex_nonfinite(call: Call) -> np.ndarray | None:
    """Complex inputs with a non-finite part (NumPy is not C99 there; see special cases)."""
    (x,) = _operands(call)
    if x.dtype.kind != "c":
        return None
    return ~np.isfinite(x.real) | ~np.isfinite(x.imag)


def _complex_zero_or_special(call: Call) -> np.ndarray | None:
    """1 / (0+0j): C99 gives an infinity, NumPy NaN+NaNj; the spec leaves it to the library."""
    (x,) = _operands(call)
    bad = _complex_nonfinite(call)
    return None if bad is None else bad | (x == 0)


def _sign_mask(call: Call) -> np.ndarray | None:
    """Zeros (the sign of a zero result is not fixed) and complex special values."""
    (x,) = _operands(call)
    zero = (x == 0)
    complex_bad = _complex_nonfinite(call)
    return zero if complex_bad is None else zero | complex_bad


def _zero_pairs(call: Call) -> np.ndarray | None:
    """maximum/minimum of two zeros of different sign: which one is unspecified."""
    x1, x2 = _operands(call)
    return (x1 == 0) & (x2 == 0)


def _zero_extremes(call: Call) -> np.ndarray | None:
    """max/min of a slice holding both +0 and -0: which zero is the extreme is unspecified
    (as for maximum/minimum of two zeros); NumPy gives the later one, torch the first, JAX
    +0 for max and -0 for min."""
    x = np.asarray(call.args[0])
    if x.dtype.kind != "f":
        return None
    axis, keepdims = call.kwargs.get("axis"), call.kwargs.get("keepdims", False)
    zero = x == 0
    negative = np.any(zero & np.signbit(x), axis=axis, keepdims=keepdims)
    positive = np.any(zero & ~np.signbit(x), axis=axis, keepdims=keepdims)
    return np.asarray(negative & positive)


def _shift_mask(call: Call) -> np.ndarray | None:
    bits = _result_dtype(call).itemsize * 8
    _x1, x2 = _operands(call)
    return (x2 < 0) | (x2 >= bits)


def _pow_mask(call: Call) -> np.ndarray | None:
    if _result_dtype(call).kind == "c":  # also 0 ** b with real(b) <= 0: C99 and NumPy differ
        x1, x2 = _operands(call)
        special = _complex_special(call)
        zero_base = (x1 == 0) & (np.real(x2) <= 0)
        # an overflowing exp(w), w = x2 log x1: only that it is infinite is determined.
        # Its phase's rounding may leave the signs of its infinite parts unknown (JAX's
        # (1 + 2.5j) ** (-2e14 - 3.9e14j) is -inf - inf j, NumPy's inf - inf j); a part
        # that is exactly 0 is 0 times inf, -0 by NumPy's multiplying and inf by torch's,
        # TensorFlow's and MLX's exp(3 log x) ((3.06e15j) ** 3 in complex64); and the
        # reference's multiplying overflows inside to inf - inf, NaN
        # ((1.09e12 + 1.42e14j) ** 3 in complex64: NumPy -inf + nan j, the true value
        # -inf - inf j)
        with np.errstate(all="ignore"):
            w = x2.astype(np.complex128) * np.log(x1.astype(np.complex128))
            info = np.finfo(_result_dtype(call))
            unknown = np.real(w) > np.log(info.max)
            # a result below the smallest normal number (|exp(w)| underflows): the
            # reference computes an integer power by multiplying, overflows inside and
            # gives NaN (complex64 (-2.3e16 - 7.1e16j) ** -16: NumPy nan+nanj, the true
            # value about 1e-270, torch and TensorFlow -0j)
            unknown |= np.real(w) < np.log(info.smallest_normal)
        zero_base = zero_base | unknown
        return zero_base if special is None else special | zero_base
    if _result_dtype(call).kind not in "iu":
        return _complex_special(call)
    _x1, x2 = _operands(call)
    return (x2 < 0) | _int_overflow(lambda a, b: a**b if b < 200 else None)(call)  # type: ignore[operator]


def _complex_special(call: Call) -> np.ndarray | None:
    """Complex operands with a non-finite part (C99 Annex G vs NumPy)."""
    ops = _operands(call)
    if not any(o.dtype.kind == "c" for o in ops):
        return None
    out = np.zeros(np.broadcast_shapes(*[o.shape for o in ops]), bool)
    for o in ops:
        if o.dtype.kind in "fc":
            out = out | ~np.isfinite(o)
    return out


def _complex_division(call: Call) -> np.ndarray | None:
    """Complex division by zero or with special values (C99 and NumPy differ), or by a
    divisor whose reciprocal overflows (its larger part below ``1 / max`` of the
    result's part dtype: NumPy's quotient, torch's, JAX's, TF's are NaN there where a
    scaled division, MLX's, is finite: ``0j / 5.76e-40j``)."""
    special = _complex_special(call)
    if special is None:
        return None
    divisor = _operands(call)[1]
    larger = np.maximum(np.abs(np.real(divisor)), np.abs(np.imag(divisor))).astype(np.float64)
    part = np.finfo(_result_dtype(call)).dtype
    return special | (larger < 1 / float(np.finfo(part).max))


def _either(*masks: Mask) -> Mask:
    def mask(call: Call) -> np.ndarray | None:
        found = [m(call) for m in masks]
        found = [f for f in found if f is not None]
        if not found:
            return None
        out = found[0]
        for f in found[1:]:
            out = out | f
        return out

    return mask


# -- composite call strategies ---------------------------------------------------------------
@st.composite
def _reduction(draw: Any, domain: str, dtype_kw: bool = False, min_side: int = 0,
               correction: bool = False, kind: str = "moderate") -> Call:  # fmt: skip
    x = draw(arrays(draw(dtypes(domain)), shapes(min_side=min_side), kind))
    kwargs: dict[str, Any] = {"axis": draw(axis_for(x.ndim)), "keepdims": draw(st.booleans())}
    if correction:
        kwargs["correction"] = draw(st.sampled_from([0.0, 1.0, 0]))
    return Call((x,), kwargs)


@st.composite
def _nonempty_reduction(draw: Any, domain: str) -> Call:
    """max/min/argmax/argmin: reduced axes must not be empty."""
    x = draw(arrays(draw(dtypes(domain)), shapes(min_side=1), "moderate"))
    return Call((x,), {"axis": draw(axis_for(x.ndim, tuple_ok=False)),
                       "keepdims": draw(st.booleans())})  # fmt: skip


@st.composite
def _cumulative(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("numeric")), shapes(min_dims=1, max_dims=2), "moderate"))
    axis = draw(axis_for(x.ndim, allow_none=x.ndim == 1, tuple_ok=False))
    return Call((x,), {"axis": axis, "include_initial": draw(st.booleans())})


@st.composite
def _shape_only(draw: Any, with_fill: bool = False, like: bool = False) -> Call:
    name = draw(dtypes("all"))
    kwargs: dict[str, Any] = {"dtype": DType(name)}
    if like:
        x = draw(arrays(draw(dtypes("all")), kind="moderate"))
        first: Any = x
        if draw(st.booleans()):
            kwargs.pop("dtype")
            name = x.dtype.name
    else:
        first = draw(shapes())
    args: tuple[Any, ...] = (first,)
    if with_fill:  # "special": floats of the dtype's full width (float64: every bit)
        args += (draw(python_scalar(name, draw(st.sampled_from(["moderate", "special"])))),)
    return Call(args, kwargs)


@st.composite
def _arange(draw: Any) -> Call:
    if draw(st.booleans()):
        start, stop = draw(st.integers(-10, 10)), draw(st.integers(-10, 10) | st.none())
        step = draw(st.integers(-3, 3).filter(bool))
        name = draw(st.sampled_from([None, "int8", "int32", "int64", "float64"]))
    else:
        start = draw(st.sampled_from([-2.5, 0.0, 1.0, 3.25]))
        stop = draw(st.sampled_from([-1.0, 2.0, 5.5]))
        step = draw(st.sampled_from([0.5, 1.0, -0.75]))
        name = draw(st.sampled_from([None, "float64"]))
    kwargs = {} if name is None else {"dtype": DType(name)}
    return Call((start,), {"stop": stop, "step": step, **kwargs})


@st.composite
def _asarray(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("all")), kind="moderate"))
    obj = x.tolist() if draw(st.booleans()) else x
    kwargs = {} if draw(st.booleans()) else {"dtype": DType(x.dtype.name)}
    return Call((obj,), kwargs)


@st.composite
def _eye(draw: Any) -> Call:
    args: tuple[Any, ...] = (draw(st.integers(0, 4)),)
    if draw(st.booleans()):
        args += (draw(st.integers(0, 4)),)
    return Call(args, {"k": draw(st.integers(-4, 4)), "dtype": DType(draw(dtypes("all")))})


@st.composite
def _linspace(draw: Any) -> Call:
    start, stop = draw(st.integers(-10, 10)), draw(st.floats(-10, 10))
    return Call((start, stop), {"num": draw(st.integers(0, 6)),
                                "endpoint": draw(st.booleans())})  # fmt: skip


@st.composite
def _meshgrid(draw: Any) -> Call:
    name = draw(dtypes("numeric"))
    count = draw(st.integers(1, 3))
    xs = [draw(arrays(name, shapes(1, 1), "moderate")) for _ in range(count)]
    return Call(tuple(xs), {"indexing": draw(st.sampled_from(["xy", "ij"]))})


@st.composite
def _matrix_and_k(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("all")), shapes(min_dims=2), "moderate"))
    return Call((x,), {"k": draw(st.integers(-3, 3))})


@st.composite
def _astype(draw: Any) -> Call:
    source = draw(dtypes("all"))
    target = draw(dtypes("all"))
    if source.startswith("complex") and not target.startswith("complex"):
        target = "complex128"  # complex -> real is not defined by the standard
    return Call((draw(arrays(source, kind="moderate")), DType(target)))


def _astype_out_of_range(call: Call) -> np.ndarray | None:
    """Real floating values whose integer part is outside an integer target's range: the
    standard states no result (it names NaN and infinities implementation-dependent; C
    and NumPy leave out-of-range casts undefined): NumPy gives 255 for -1.0 in uint8 on
    x86, JAX saturates to 0."""
    x, target = call.args
    if x.dtype.kind != "f" or np.dtype(target.name).kind not in "iu":
        return None
    info = np.iinfo(target.name)
    with np.errstate(invalid="ignore"):
        whole = np.trunc(x.astype(np.float64))
    return ~np.isfinite(whole) | (whole < info.min) | (whole > info.max)


@st.composite
def _dtype_pair(draw: Any) -> Call:
    return Call((DType(draw(dtypes("all"))), DType(draw(dtypes("all")))))


@st.composite
def _isdtype(draw: Any) -> Call:
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric"]  # fmt: skip
    kind: Any = draw(st.sampled_from(kinds))
    if draw(st.booleans()):
        kind = (kind, DType(draw(dtypes("all"))))
    return Call((DType(draw(dtypes("all"))), kind))


@st.composite
def _info_of(draw: Any, domain: str) -> Call:
    return Call((DType(draw(dtypes(domain))),))


@st.composite
def _result_type(draw: Any) -> Call:
    first = draw(dtypes("all"))
    names = [first]
    for _ in range(draw(st.integers(0, 2))):
        name = draw(dtypes("all"))
        if promote(names[-1], name) is not None:
            names.append(name)
    args: list[Any] = [DType(n) if i % 2 == 0 else np.zeros(1, n) for i, n in enumerate(names)]
    return Call(tuple(args))


@st.composite
def _take(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("all")), shapes(min_dims=1, min_side=1), "moderate"))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    idx = draw(hnp.arrays(np.dtype(draw(st.sampled_from(["int32", "int64"]))),
                          shapes(1, 1), elements=st.integers(0, n - 1)))  # fmt: skip
    return Call((x, idx), {"axis": axis} if x.ndim > 1 or draw(st.booleans()) else {})


@st.composite
def _take_along_axis(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("all")), shapes(min_dims=1, min_side=1), "moderate"))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    shape = list(x.shape)
    shape[axis] = draw(st.integers(0, 4))
    idx = draw(hnp.arrays(np.dtype("int64"), tuple(shape),
                          elements=st.integers(0, x.shape[axis] - 1)))  # fmt: skip
    return Call((x, idx), {"axis": axis})


#: Batch shapes of two operands that broadcast: equal, size 1, missing, zero-size.
_BATCHES = [((), ()), ((2,), ()), ((), (2,)), ((1,), (3,)), ((2, 1), (3,)), ((0,), ()),
            ((0,), (1,)), ((1, 2), (2,))]  # fmt: skip


@st.composite
def _matmul(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("numeric"))
    m, k, n = (draw(st.sampled_from((0, 1, 2, 3))) for _ in range(3))
    b1, b2 = draw(st.sampled_from(_BATCHES))
    s1 = draw(st.sampled_from([(k,), (*b1, m, k)]))
    s2 = draw(st.sampled_from([(k,), (*b2, k, n)]))
    return Call((draw(arrays(d1, s1, "moderate")), draw(arrays(d2, s2, "moderate"))))


@st.composite
def _tensordot(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("numeric"))
    axes = draw(st.integers(0, 2))
    shared = tuple(draw(st.integers(0, 3)) for _ in range(axes))
    s1 = draw(shapes(0, 2, 0, 3)) + shared
    s2 = shared + draw(shapes(0, 2, 0, 3))
    return Call((draw(arrays(d1, s1, "moderate")), draw(arrays(d2, s2, "moderate"))),
                {"axes": axes})  # fmt: skip


@st.composite
def _vecdot(draw: Any) -> Call:
    """Batch dimensions that broadcast (size 1, missing, zero-size), the axis among the
    last ones (the spec leaves a broadcast contracted axis unspecified)."""
    d1, d2 = draw(promotable_pair("numeric"))
    if draw(st.booleans()):  # equal shapes, any axis
        shape = draw(shapes(1, 3, 1, 3))
        axis = draw(st.integers(-len(shape), -1))
        return Call((draw(arrays(d1, shape, "moderate")), draw(arrays(d2, shape, "moderate"))),
                    {"axis": axis})  # fmt: skip
    n = draw(st.sampled_from((0, 1, 3)))
    b1, b2 = draw(st.sampled_from(_BATCHES))
    return Call((draw(arrays(d1, (*b1, n), "moderate")), draw(arrays(d2, (*b2, n), "moderate"))),
                {"axis": -1})  # fmt: skip


@st.composite
def _x_any(draw: Any, min_dims: int = 0, domain: str = "all", min_side: int = 0) -> np.ndarray:
    return draw(arrays(draw(dtypes(domain)), shapes(min_dims=min_dims, min_side=min_side),
                       "moderate"))  # fmt: skip


@st.composite
def _broadcast_arrays(draw: Any) -> Call:
    name = draw(dtypes("all"))
    count = draw(st.integers(1, 3))
    ss = draw(hnp.mutually_broadcastable_shapes(num_shapes=count, max_dims=3)).input_shapes
    return Call(tuple(draw(arrays(name, s, "moderate")) for s in ss))


@st.composite
def _broadcast_shapes(draw: Any) -> Call:
    count = draw(st.integers(1, 3))
    return Call(tuple(draw(hnp.mutually_broadcastable_shapes(num_shapes=count,
                                                             max_dims=3)).input_shapes))


@st.composite
def _broadcast_to(draw: Any) -> Call:
    shape = draw(shapes())
    src = draw(hnp.broadcastable_shapes(shape, min_side=0))
    return Call((draw(arrays(draw(dtypes("all")), src, "moderate")),), {"shape": shape})


@st.composite
def _concat(draw: Any, stack: bool = False) -> Call:
    d1, d2 = draw(promotable_pair("all"))
    shape = draw(shapes(0 if stack else 1, 3))
    if stack:
        axis: Any = draw(st.integers(-len(shape) - 1, len(shape)))
        xs = [draw(arrays(d, shape, "moderate")) for d in (d1, d1)]
        return Call((xs,), {"axis": axis})
    axis = draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    other = list(shape)
    if axis is not None:
        other[axis] = draw(st.integers(0, 3))
    else:
        other = list(draw(shapes(1, 3)))
    xs = [draw(arrays(d1, shape, "moderate")), draw(arrays(d2, tuple(other), "moderate"))]
    return Call((xs,), {"axis": axis})


@st.composite
def _one_axis(draw: Any, fn: str) -> Call:
    x = draw(_x_any(min_dims=0 if fn == "expand_dims" else 1))
    if fn == "expand_dims":
        return Call((x,), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))})
    if fn == "squeeze":
        x = x.reshape((*x.shape, 1))
        return Call((x,), {"axis": draw(st.sampled_from([-1, x.ndim - 1]))})
    if fn == "unstack":
        return Call((x,), {"axis": draw(st.integers(-x.ndim, x.ndim - 1))})
    if fn == "flip":
        return Call((x,), {"axis": draw(axis_for(x.ndim))})
    if fn == "moveaxis":
        return Call((x, draw(st.integers(-x.ndim, x.ndim - 1)),
                     draw(st.integers(-x.ndim, x.ndim - 1))))  # fmt: skip
    if fn == "permute_dims":
        return Call((x,), {"axes": tuple(draw(st.permutations(range(x.ndim))))})
    if fn == "roll":
        if draw(st.booleans()):
            return Call((x,), {"shift": draw(st.integers(-5, 5))})
        return Call((x,), {"shift": draw(st.integers(-5, 5)),
                           "axis": draw(st.integers(-x.ndim, x.ndim - 1))})  # fmt: skip
    if fn == "tile":
        return Call((x, tuple(draw(st.lists(st.integers(0, 3), max_size=3)))))
    if fn == "reshape":
        flat = [x.size] if x.size else [0]
        shape = draw(st.sampled_from([tuple(flat), (-1,), (1, -1), x.shape[::-1]]))
        if x.size == 0 and -1 in shape:
            shape = (0,)
        return Call((x,), {"shape": shape})
    if fn == "repeat":
        if draw(st.booleans()):
            return Call((x, draw(st.integers(0, 3))), {"axis": draw(axis_for(x.ndim, tuple_ok=False))})
        axis = draw(st.integers(0, x.ndim - 1))
        reps = draw(hnp.arrays(np.dtype("int64"), (x.shape[axis],), elements=st.integers(0, 3)))
        return Call((x, reps), {"axis": axis})
    raise AssertionError(fn)


@st.composite
def _count_nonzero(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("all")), shapes()))
    return Call((x,), {"axis": draw(axis_for(x.ndim)), "keepdims": draw(st.booleans())})


@st.composite
def _searchsorted(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("real"))
    x1 = np.sort(draw(arrays(d1, shapes(1, 1), "moderate")))
    x2 = draw(arrays(d2, shapes(), "moderate"))
    return Call((x1, x2), {"side": draw(st.sampled_from(["left", "right"]))})


@st.composite
def _where(draw: Any) -> Call:
    call = draw(binary_call("all", "moderate"))
    s = draw(hnp.broadcastable_shapes(np.broadcast_shapes(*[np.shape(a) for a in call.args]),
                                      min_side=0))
    cond = draw(arrays("bool", s))
    return Call((cond, *call.args))


@st.composite
def _isin(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("real"))
    x1, x2 = draw(arrays(d1, kind="moderate")), draw(arrays(d2, kind="moderate"))
    return Call((x1, x2), {"invert": draw(st.booleans())})


@st.composite
def _sort(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("real")), shapes(min_dims=1), "moderate"))
    return Call((x,), {"axis": draw(st.integers(-x.ndim, x.ndim - 1)),
                       "descending": draw(st.booleans()), "stable": True})  # fmt: skip


@st.composite
def _diff(draw: Any) -> Call:
    x = draw(_x_any(min_dims=1, domain="numeric"))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    kwargs: dict[str, Any] = {"axis": axis, "n": draw(st.integers(0, 2))}
    for side in ("prepend", "append"):
        if draw(st.booleans()):
            shape = list(x.shape)
            shape[axis] = draw(st.integers(1, 2))
            kwargs[side] = draw(arrays(x.dtype.name, tuple(shape), "moderate"))
    return Call((x,), kwargs)


@st.composite
def _clip(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("real")), kind="moderate"))
    bounds = [draw(st.none() | python_scalar(x.dtype.name, "moderate")
                   | arrays(x.dtype.name, hnp.broadcastable_shapes(x.shape, min_side=0), "moderate"))
              for _ in range(2)]  # fmt: skip
    return Call((x,), {"min": bounds[0], "max": bounds[1]})


# -- post-processing into canonical forms ----------------------------------------------------
def _info_fields(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    fields = ("bits", "eps", "max", "min", "smallest_normal")
    return tuple(float(getattr(result, f)) for f in fields if hasattr(result, f))


def _unique_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]
                      ) -> tuple[np.ndarray, ...]:  # fmt: skip
    """unique_* results in sorted order (the spec leaves the order open)."""
    parts = result if isinstance(result, tuple) else (result,)
    arrays_ = [to_numpy(p) for p in parts]
    fields = getattr(result, "_fields", ("values",))
    values = arrays_[0]
    order = np.argsort(values, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    out = []
    for f, a in zip(fields, arrays_):
        if f == "inverse_indices":
            out.append(rank[a].astype(a.dtype))
        else:
            out.append(a[order])
    return tuple(out)


def _isin_reference(call: Call) -> Any:
    """NumPy's ``isin`` (array_api_strict 2.6.1 refuses floats and ignores ``invert``)."""
    import array_api_strict as xs

    x1, x2 = (np.asarray(a) for a in call.args)
    return xs.asarray(np.isin(x1, x2, invert=bool(call.kwargs.get("invert"))))


def _complex_expm1(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    imag = np.where(b == 0, b, np.exp(a) * np.sin(b))  # exp(a) may overflow even here
    return np.expm1(a) * np.cos(b) - 2 * np.sin(b / 2) ** 2, imag


def _complex_log1p(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # log|1 + z|: through log1p where |1 + z| is near 1, else through log (no cancellation)
    square = (1 + a) ** 2 + b * b
    near_one = (square > 0.5) & (square < 2)
    real = np.where(near_one, 0.5 * np.log1p(a * (2 + a) + b * b), 0.5 * np.log(square))
    return real, np.arctan2(b, 1 + a)


def _extended(name: str, parts: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
              ) -> Callable[[Call], Any]:  # fmt: skip
    """The reference for complex inputs from ``parts`` (real and imaginary parts) in
    extended precision, rounded once: NumPy's complex ``expm1``/``log1p`` compute
    ``exp(z) - 1``/``log(1 + z)`` in the input's precision, losing all digits near 0 and
    overflowing where the result does not.  Real inputs use array_api_strict."""

    def reference(call: Call) -> Any:
        import array_api_strict as xs

        (x,) = call.args
        if x.dtype.kind != "c":
            return getattr(xs, name)(xs.asarray(x))
        wide = x.astype(np.clongdouble)
        with np.errstate(all="ignore"):
            re, im = parts(wide.real, wide.imag)
            out = np.empty(x.shape, dtype=x.dtype)  # not re + 1j * im: 1j * inf is NaN + inf j
            out.real, out.imag = re, im
        return xs.asarray(out)

    return reference


def _square_intermediate_overflow(call: Call) -> np.ndarray | None:
    """Complex ``x * x`` whose textbook product overflows inside (``a*a`` or ``b*b`` past
    the dtype's maximum, ``|a|`` or ``|b|`` above its square root): ``a*a - b*b`` is then
    ``inf`` where NumPy's finite result is right at the maximum (TensorFlow's
    ``square(1.3407807929942597e154 + 5.9e146j)``); either is the product rounded."""
    (x,) = _operands(call)
    if x.dtype.kind != "c":
        return None
    root = math.sqrt(float(np.finfo(x.dtype).max))
    with np.errstate(invalid="ignore"):
        return (np.abs(x.real) > root) | (np.abs(x.imag) > root)


def _sign_reference(call: Call) -> Any:
    """array_api_strict's ``sign`` on ``x / 2`` where a complex ``|x|`` would overflow: it
    computes ``x / |x|`` literally, which gives 0 there (``sign(x / 2)`` is ``sign(x)``, and
    halving a part above half the dtype's maximum is exact)."""
    import array_api_strict as xs

    (x,) = call.args
    if x.dtype.kind == "c":
        half_max = np.finfo(x.dtype).max / 2
        with np.errstate(all="ignore"):
            huge = np.isfinite(x) & ((np.abs(x.real) > half_max) | (np.abs(x.imag) > half_max))
            x = np.where(huge, x * 0.5, x).astype(x.dtype)
    return xs.sign(xs.asarray(x))


# -- the table -------------------------------------------------------------------------------
def _u(domain: str, tol: str = "exact", mask: Mask | None = None) -> Case:
    return Case(unary_call(domain), tol, mask)


def _b(domain: str, tol: str = "exact", mask: Mask | None = None) -> Case:
    return Case(binary_call(domain), tol, mask)


_T = "transcendental"
_CX = _complex_nonfinite
_CASES: dict[str, Case] = {
    # creation
    "arange": Case(_arange(), "close"),
    "asarray": Case(_asarray()),
    "empty": Case(_shape_only(), meta_only=True),
    "empty_like": Case(_shape_only(like=True), meta_only=True),
    "eye": Case(_eye()),
    "full": Case(_shape_only(with_fill=True)),
    "full_like": Case(_shape_only(with_fill=True, like=True)),
    "linspace": Case(_linspace(), "spaced"),
    "meshgrid": Case(_meshgrid()),
    "ones": Case(_shape_only()),
    "ones_like": Case(_shape_only(like=True)),
    "tril": Case(_matrix_and_k()),
    "triu": Case(_matrix_and_k()),
    "zeros": Case(_shape_only()),
    "zeros_like": Case(_shape_only(like=True)),
    # data types
    "astype": Case(_astype(), mask=_astype_out_of_range),
    "can_cast": Case(_dtype_pair()),
    "finfo": Case(_info_of("floating"), post=_info_fields),
    "iinfo": Case(_info_of("integral"), post=_info_fields),
    "isdtype": Case(_isdtype()),
    "result_type": Case(_result_type()),
    # elementwise
    "abs": _u("numeric", "close", _either(_int_overflow(abs), _CX)),
    "acos": _u("floating", _T, _CX), "acosh": _u("floating", _T, _CX),
    "add": _b("numeric", "close", _either(_int_overflow(lambda a, b: a + b), _complex_special)),
    "asin": _u("floating", _T, _CX), "asinh": _u("floating", _T, _CX),
    "atan": _u("floating", _T, _CX), "atan2": _b("real floating", _T),
    "atanh": _u("floating", _T, _CX),
    "bitwise_and": _b("integral|bool"), "bitwise_left_shift": _b("integral", mask=_shift_mask),
    "bitwise_invert": _u("integral|bool"), "bitwise_or": _b("integral|bool"),
    "bitwise_right_shift": _b("integral", mask=_shift_mask), "bitwise_xor": _b("integral|bool"),
    "ceil": _u("real"), "clip": Case(_clip()), "conj": _u("numeric"),
    "copysign": _b("real floating"), "cos": _u("floating", _T, _CX),
    "cosh": _u("floating", _T, _CX), "divide": _b("floating", "close", _complex_division),
    "equal": _b("all"), "exp": _u("floating", _T, _CX), "expm1": Case(unary_call("floating"), _T, _CX,
                  reference=_extended("expm1", _complex_expm1)),
    "floor": _u("real"), "floor_divide": _b("real", "close", _int_zero_divisor),
    "greater": _b("real"), "greater_equal": _b("real"), "hypot": _b("real floating", "close"),
    "imag": _u("complex floating"), "isfinite": _u("numeric"), "isinf": _u("numeric"),
    "isnan": _u("numeric"), "less": _b("real"), "less_equal": _b("real"),
    "log": _u("floating", _T, _CX), "log1p": Case(unary_call("floating"), _T, _CX,
                  reference=_extended("log1p", _complex_log1p)),
    "log2": _u("floating", _T, _CX), "log10": _u("floating", _T, _CX),
    "logaddexp": _b("real floating", _T), "logical_and": _b("bool"), "logical_not": _u("bool"),
    "logical_or": _b("bool"), "logical_xor": _b("bool"),
    "maximum": _b("real", mask=_zero_pairs), "minimum": _b("real", mask=_zero_pairs),
    "multiply": _b("numeric", "close",
                   _either(_int_overflow(lambda a, b: a * b), _complex_special)),
    "negative": _u("numeric", mask=_int_overflow(lambda a: -a)), "nextafter": _b("real floating"),
    "not_equal": _b("all"), "positive": _u("numeric"), "pow": _b("numeric", _T, _pow_mask),
    "real": _u("numeric"), "reciprocal": _u("floating", "close", _complex_zero_or_special),
    "remainder": _b("real", "close", _int_zero_divisor), "round": _u("numeric", mask=_CX),
    "sign": Case(unary_call("numeric"), "close", _sign_mask, reference=_sign_reference),
    "signbit": _u("real floating"),
    "sin": _u("floating", _T, _CX), "sinh": _u("floating", _T, _CX),
    "square": _u("numeric", "close", _either(_int_overflow(lambda a: a * a), _CX,
                                             _square_intermediate_overflow)),
    "sqrt": _u("floating", _T, _CX),
    "subtract": _b("numeric", "close",
                   _either(_int_overflow(lambda a, b: a - b), _complex_special)),
    "tan": _u("floating", _T, _CX), "tanh": _u("floating", _T, _CX), "trunc": _u("real"),
    # indexing
    "take": Case(_take()), "take_along_axis": Case(_take_along_axis()),
    # linear algebra
    "matmul": Case(_matmul(), "loose"),
    "matrix_transpose": Case(st.builds(lambda x: Call((x,)), _x_any(min_dims=2))),
    "tensordot": Case(_tensordot(), "loose"), "vecdot": Case(_vecdot(), "loose"),
    # manipulation
    "broadcast_arrays": Case(_broadcast_arrays()), "broadcast_shapes": Case(_broadcast_shapes()),
    "broadcast_to": Case(_broadcast_to()), "concat": Case(_concat()),
    "stack": Case(_concat(stack=True)),
    **{fn: Case(_one_axis(fn)) for fn in ("expand_dims", "flip", "moveaxis", "permute_dims",
                                          "repeat", "reshape", "roll", "squeeze", "tile",
                                          "unstack")},
    # searching
    "argmax": Case(_nonempty_reduction("real")), "argmin": Case(_nonempty_reduction("real")),
    "count_nonzero": Case(_count_nonzero()),
    "nonzero": Case(st.builds(lambda x: Call((x,)), _x_any(min_dims=1))),
    "searchsorted": Case(_searchsorted()), "where": Case(_where()),
    # sets
    "isin": Case(_isin(), reference=_isin_reference),
    **{fn: Case(st.builds(lambda x: Call((x,)), _x_any(domain="real")), post=_unique_canonical)
       for fn in ("unique_all", "unique_counts", "unique_inverse", "unique_values")},
    # sorting
    "argsort": Case(_sort()), "sort": Case(_sort()),
    # statistics
    "cumulative_prod": Case(_cumulative(), "loose"), "cumulative_sum": Case(_cumulative(), "loose"),
    "max": Case(_nonempty_reduction("real"), mask=_zero_extremes),
    "min": Case(_nonempty_reduction("real"), mask=_zero_extremes),
    "mean": Case(_reduction("floating", min_side=1), "loose"),
    "prod": Case(_reduction("numeric"), "loose"), "sum": Case(_reduction("numeric"), "loose"),
    "std": Case(_reduction("real floating", min_side=2, correction=True), "loose"),
    "var": Case(_reduction("real floating", min_side=2, correction=True), "loose"),
    # utility
    "all": Case(_reduction("all", kind="special")), "any": Case(_reduction("all", kind="special")),
    "diff": Case(_diff()),
}

#: Functions checked elsewhere rather than differentially, with the reason.
NOT_DIFFERENTIAL = {
    "from_dlpack": "needs a producer of the same library; covered in test_array_object",
}

CASES: dict[str, Case] = _CASES
