"""Hypothesis strategies: dtypes by domain, arrays with special values, calls.

Inputs are NumPy arrays; a `Call` holds them (and dtype names) and runs the same call on
any namespace, converting its inputs on the way in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from eagerpy_xp._dtypes import ALL, KINDS, promote

#: Dtype domains used by the tables, by the names the spec uses for them.
DOMAINS: dict[str, tuple[str, ...]] = {
    "all": ALL,
    "bool": KINDS["bool"],
    "integral": KINDS["integral"],
    "integral|bool": KINDS["bool"] + KINDS["integral"],
    "real floating": KINDS["real floating"],
    "complex floating": KINDS["complex floating"],
    "floating": KINDS["real floating"] + KINDS["complex floating"],
    "real": KINDS["integral"] + KINDS["real floating"],
    "numeric": KINDS["numeric"],
}


@dataclass(frozen=True)
class DType:
    """A dtype argument, by standard name; converted to each namespace's dtype object."""

    name: str


@dataclass
class Call:
    """One call of a spec function: NumPy arrays and `DType`s stand for namespace values."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def run(self, fn: Callable[..., Any], array: Callable[[Any], Any],
            dtype: Callable[[str], Any]) -> Any:  # fmt: skip
        """``fn`` on this call's arguments: arrays through ``array``, dtype names through
        ``dtype`` (the namespace's dtype objects)."""

        def convert(v: Any) -> Any:
            if isinstance(v, np.ndarray):
                return array(v)
            if isinstance(v, DType):
                return dtype(v.name)
            if isinstance(v, list):
                return [convert(e) for e in v]
            if isinstance(v, tuple) and any(isinstance(e, (np.ndarray, DType)) for e in v):
                return tuple(convert(e) for e in v)
            return v

        return fn(*[convert(a) for a in self.args],
                  **{k: convert(v) for k, v in self.kwargs.items()})  # fmt: skip

    def flushed_variants(self) -> list[Call]:
        """`flushed`, then (with several array arguments holding subnormals) the call with
        only one of them flushed: a kernel may flush one operand and not another (XLA's
        and TensorFlow's ``atan2(2e-313, 2e-313)`` is ``atan2(2e-313, 0) = pi/2``)."""
        whole = self.flushed()
        if whole is None:
            return []
        variants = [whole]
        positions = [i for i, a in enumerate(self.args)
                     if Call((a,)).flushed() is not None]  # fmt: skip
        if len(positions) > 1:
            for i in positions:
                one = Call((self.args[i],)).flushed()
                assert one is not None
                args = (*self.args[:i], one.args[0], *self.args[i + 1:])
                variants.append(Call(args, dict(self.kwargs)))
        return variants

    def flushed(self) -> Call | None:
        """This call with subnormal inputs replaced by zeros of their sign (what a
        flush-to-zero framework computes with), or None when there are none."""
        changed = False
        # a Python float or complex takes the precision of the arrays beside it
        precisions = {np.finfo(a.dtype).bits for a in self.arrays() if a.dtype.kind in "fc"}
        scalar_tiny = np.finfo(np.float32 if precisions == {32} else np.float64).tiny

        def flush_part(p: np.ndarray) -> np.ndarray:
            nonlocal changed
            subnormal = (np.abs(p) < np.finfo(p.dtype).tiny) & (p != 0)
            changed |= bool(subnormal.any())
            return np.where(subnormal, np.copysign(0.0, p), p).astype(p.dtype)

        def flush(v: Any) -> Any:
            nonlocal changed
            if isinstance(v, np.ndarray) and v.dtype.kind == "f":
                return flush_part(v)
            if isinstance(v, np.ndarray) and v.dtype.kind == "c":
                out = np.empty_like(v)  # not re + 1j * im: 1j * inf is NaN + inf j
                out.real, out.imag = flush_part(v.real), flush_part(v.imag)
                return out
            if isinstance(v, float) and 0 < abs(v) < scalar_tiny:
                changed = True
                return math.copysign(0.0, v)
            if isinstance(v, complex) and (0 < abs(v.real) < scalar_tiny
                                           or 0 < abs(v.imag) < scalar_tiny):  # fmt: skip
                changed = True
                return complex(*(math.copysign(0.0, p) if abs(p) < scalar_tiny else p
                                 for p in (v.real, v.imag)))  # fmt: skip
            if isinstance(v, (list, tuple)):
                return type(v)(flush(e) for e in v)
            return v

        args, kwargs = flush(self.args), {k: flush(v) for k, v in self.kwargs.items()}
        return Call(args, kwargs) if changed else None

    def arrays(self) -> list[np.ndarray]:
        """The array inputs, positional first."""
        found: list[np.ndarray] = []
        for v in (*self.args, *self.kwargs.values()):
            if isinstance(v, np.ndarray):
                found.append(v)
            elif isinstance(v, (list, tuple)):
                found.extend(e for e in v if isinstance(e, np.ndarray))
        return found

    def __repr__(self) -> str:
        def show(v: Any) -> str:
            if isinstance(v, np.ndarray):
                return f"array({v.tolist()!r}, dtype={v.dtype}, shape={v.shape})"
            if isinstance(v, list):
                return "[" + ", ".join(show(e) for e in v) + "]"
            return repr(v)

        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        return f"Call({', '.join(parts)})"


def dtypes(domain: str) -> st.SearchStrategy[str]:
    return st.sampled_from(DOMAINS[domain])


def _edge_shapes(min_dims: int, max_dims: int, min_side: int,
                 max_side: int) -> list[tuple[int, ...]]:  # fmt: skip
    """Shapes generation reaches rarely: a zero-size dimension in each position, size-1
    dimensions, and the smallest and largest number of dimensions."""
    out: list[tuple[int, ...]] = []
    for ndim in range(min_dims, max_dims + 1):
        full = tuple(min(2, max_side) for _ in range(ndim))
        ones = tuple(min(max(1, min_side), max_side) for _ in range(ndim))
        out += [full, ones]
        if min_side == 0:
            out += [(*full[:i], 0, *full[i + 1:]) for i in range(ndim)]
    return [s for s in dict.fromkeys(out) if all(min_side <= d <= max_side for d in s)]


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 0,
           max_side: int = 4) -> st.SearchStrategy[tuple[int, ...]]:  # fmt: skip
    """Array shapes; about half of them edge shapes (zero-size, size-1 dimensions)."""
    edges = _edge_shapes(min_dims, max_dims, min_side, max_side)
    general = hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                               max_side=max_side)  # fmt: skip
    return st.one_of(st.sampled_from(edges), general) if edges else general


#: Special real values: signed zeros, infinities, NaN, and ones.
SPECIAL_REALS = (0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0)


def broadcast_pair(max_dims: int = 3, max_side: int = 3) -> st.SearchStrategy[Any]:
    """Two broadcast-compatible shapes: size-1, missing and zero-size dimensions included."""
    edges = [((0,), (1,)), ((2, 0), (0,)), ((1, 3), (2, 1)), ((), (0, 2)), ((2, 1, 3), (4, 3)),
             ((3,), (2, 1)), ((1,), (0, 3)), ((0, 1), (1, 2))]  # fmt: skip
    general = hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=max_dims, min_side=0,
                                                max_side=max_side).map(
        lambda b: b.input_shapes)  # fmt: skip
    return st.one_of(st.sampled_from(edges), general)


def _moderate(dtype: np.dtype[Any]) -> st.SearchStrategy[Any]:
    """Finite values of moderate size (for reductions, linear algebra, fft)."""
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(max(info.min, -20), min(info.max, 20))
    # float32-representable normal numbers (flush-to-zero frameworks are checked elsewhere)
    real = st.floats(-100, 100, width=32, allow_subnormal=False)
    if dtype.kind == "c":
        return st.builds(complex, real, real)
    return real


def elements(dtype_name: str, kind: str = "special") -> st.SearchStrategy[Any]:
    """Element values: ``special`` (everything incl. NaN, inf, -0, extremes) or ``moderate``."""
    dtype = np.dtype(dtype_name)
    if kind == "moderate":
        return _moderate(dtype)
    if kind == "nonneg":
        return _moderate(dtype).map(abs)
    if dtype.kind == "f":  # the special values at a fixed share, not by chance
        return st.one_of(st.sampled_from(SPECIAL_REALS), hnp.from_dtype(dtype, allow_subnormal=True))
    if dtype.kind == "c":  # signed zeros, infinities and NaN in either part, or both
        part = st.sampled_from((*SPECIAL_REALS, 2.5, -0.5))
        return st.one_of(st.builds(complex, part, part),
                         hnp.from_dtype(dtype, allow_subnormal=True))  # fmt: skip
    return hnp.from_dtype(dtype, allow_subnormal=True)


def arrays(dtype_name: str, shape: Any = None, kind: str = "special") -> st.SearchStrategy[Any]:
    """NumPy arrays of a dtype (name), shape (strategy, tuple or None for any small one)."""
    if shape is None:
        shape = shapes()
    return hnp.arrays(np.dtype(dtype_name), shape, elements=elements(dtype_name, kind))


def promotable_pair(domain: str) -> st.SearchStrategy[tuple[str, str]]:
    """Two dtype names of a domain that the standard promotes."""
    names = DOMAINS[domain]
    pairs = [(a, b) for a in names for b in names if promote(a, b) is not None]
    return st.sampled_from(pairs)


def python_scalar(dtype_name: str, kind: str = "special") -> st.SearchStrategy[Any]:
    """A Python scalar that may meet an array of this dtype (the spec's scalar rules)."""
    dtype = np.dtype(dtype_name)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = (max(info.min, -20), min(info.max, 20)) if kind != "special" else (info.min,
                                                                                  info.max)
        return st.integers(int(lo), int(hi))
    # a float scalar must be representable in the array's precision to avoid ambiguity
    width = 32 if dtype_name in ("float32", "complex64") else 64
    if kind == "special":
        real = st.one_of(st.sampled_from(SPECIAL_REALS), st.floats(width=width))
    else:
        real = _moderate(np.dtype("float32"))
    if dtype.kind == "c":
        return st.one_of(real, st.builds(complex, real, real), st.integers(-20, 20))
    return st.one_of(real, st.integers(-20, 20))


@st.composite
def unary_call(draw: Any, domain: str, kind: str = "special") -> Call:
    return Call((draw(arrays(draw(dtypes(domain)), kind=kind)),))


@st.composite
def binary_call(draw: Any, domain: str, kind: str = "special", scalars: bool = True) -> Call:
    """Two arrays of promotable dtypes and broadcastable shapes (one may be a scalar)."""
    d1, d2 = draw(promotable_pair(domain))
    s1, s2 = draw(broadcast_pair())
    x1 = draw(arrays(d1, s1, kind))
    x2 = draw(arrays(d2, s2, kind))
    which = draw(st.sampled_from((0, 0, 0, 1, 2))) if scalars else 0
    if which == 1:
        x1 = draw(python_scalar(d2, kind))
    elif which == 2:
        x2 = draw(python_scalar(d1, kind))
    return Call((x1, x2))


def axis_for(ndim: int, allow_none: bool = True, tuple_ok: bool = True) -> st.SearchStrategy[Any]:
    """An ``axis`` argument valid for ``ndim`` dimensions (negative indices included)."""
    options: list[st.SearchStrategy[Any]] = []
    if allow_none:
        options.append(st.none())
    if ndim > 0:
        options.append(st.integers(-ndim, ndim - 1))
        if tuple_ok:
            options.append(
                st.lists(st.integers(0, ndim - 1), unique=True, min_size=0, max_size=ndim).map(
                    tuple))
    return st.one_of(options) if options else st.none()


def sequences(values: Sequence[Any]) -> st.SearchStrategy[Any]:
    return st.sampled_from(list(values))
