"""Fast paths: the common case of a function, straight to the framework op.

A backend's full implementation of a function handles promotion, Python scalars, dtypes
without kernels and special cases.  Most calls need none of that: plain arrays of one
dtype the framework already gets right.  `unary` and `binary` put a test for exactly
that case in front of the full implementation of an element-wise function and call the
op directly when it holds, so the result is the same either way, only sooner;
`reduction` does the same for a reduction over every axis or one int axis.  They are
decorators of the full implementation (``@fastpath.unary(Tensor, FLOATS, torch.exp)``
above ``def exp``).  A framework exception of the fast call is translated as
`core.translated` does.

Each method made here records its case (``method.fast_case``, `FastCase`;
``method.fast_reduction``) for callers that test the case themselves and then call the
op without the method's own frame: `Array`'s operators (through
`BackendCore.fast_case`) and the wrapped flavour's lifted reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from .core import raise_translated

Method = Callable[..., Any]
#: ``scalar(value, dtype)``: a Python scalar as an operand of an array of ``dtype``, or
#: None when the full implementation must decide (out of range, another kind, ...).  A
#: hook may state where it hands the scalar on as it is (`as_is`), which callers then test
#: without calling it: the most common operands (``x * 2.0``, ``x > 0.5``, ``2 - x``) skip
#: a Python call.
ScalarOperand = Callable[[Any, Any], Any]
#: The case a fast path takes: ``(array_type, dtypes, op, checked)`` for a unary function
#: (``op(x)`` for an ``array_type`` array of one of ``dtypes``; where ``checked``, ``op``
#: tests the dtype itself, once per dtype, and returns None outside ``dtypes``: JAX's
#: jitted ops, where reading ``x.dtype`` costs as much as the rest of the test); for a
#: binary one ``(array_type, dtypes, op, scalar, scalar_op, first_dtypes, scalar_types,
#: float_dtypes, int_dtypes)``: two ``array_type`` arrays of one dtype among ``dtypes``
#: give ``op(x1, x2)``; such an array ``x`` and a Python scalar ``s`` whose type is among
#: ``scalar_types`` give ``scalar_op(x, operand)``, and ``scalar_op(operand, x)`` for ``s``
#: first where ``x``'s dtype is among ``first_dtypes`` (the operand: ``s`` itself where
#: ``scalar`` is None, where ``s`` is a float and the dtype among ``float_dtypes``, or an
#: int within `LANE_INTS` and the dtype among ``int_dtypes``; else ``scalar(s, dtype)``,
#: no fast case when that is None).  A result of ``array_type`` computed from arrays
#: `Array` stores needs no `BackendCore.normalize`.
FastCase = tuple[Any, ...]
#: The Python scalar types a binary fast case takes unless it names its own.
INTS_AND_FLOATS = (float, int)
#: Every Python scalar type, most common first (`Array`'s operators test membership).
SCALARS = (float, int, bool, complex)
#: The Python ints an ``int_dtypes`` lane passes as they are (``int32``'s range; callers
#: write the bounds as literals, which cost no lookup).
LANE_INTS = (-(2**31), 2**31 - 1)
_NO_LANE: tuple[frozenset[Any], frozenset[Any]] = (frozenset(), frozenset())


#: The element-wise functions whose results are bool arrays whatever their input's dtype.
BOOL_RESULTS = frozenset({
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "isfinite",
    "isinf", "isnan", "signbit", "logical_and", "logical_or", "logical_xor", "logical_not",
})  # fmt: skip
#: The element-wise functions whose complex inputs give real results of their precision.
REAL_RESULTS = frozenset({"abs", "real", "imag"})


def result_dtypes(function: str, case: FastCase, dtypes_by_name: dict[str, Any]
                  ) -> dict[Any, Any] | None:  # fmt: skip
    """The dtype of the result of ``function``'s fast ``case`` (in its full form) on arrays
    of one dtype, keyed by that dtype (the case's ``dtypes``), or None where it is always
    that dtype itself.  Callers that wrap the result (`Array`'s operators, the wrapped
    flavour's lifts) store it without asking the framework (`Array._dt`); a result with
    a Python scalar operand may have another (NumPy: a float beside an int array gives
    float64), and they read that one's.  ``tests/test_fastpaths.py`` checks it against
    every op's results."""
    if function not in BOOL_RESULTS and function not in REAL_RESULTS:
        return None
    if function in BOOL_RESULTS:
        return {d: dtypes_by_name["bool"] for d in case[1]}
    real = {dtypes_by_name.get(f"complex{2 * bits}"): dtypes_by_name.get(f"float{bits}")
            for bits in (32, 64)}  # (JAX without x64 has no 64-bit dtypes: None, unused)
    return {d: real.get(d, d) for d in case[1]}


def as_is(hook: ScalarOperand, float_dtypes: frozenset[Any], int_dtypes: frozenset[Any]
          ) -> ScalarOperand:  # fmt: skip
    """Record on ``hook`` the dtypes beside which it returns a Python float, or an int
    within `LANE_INTS`, unchanged (`FastCase`'s lanes); returns ``hook``.  A lane is a
    promise that the op keeps the array's dtype there (the standard's rule for a Python
    scalar operand; a comparison's result is bool): `Array`'s operators store that dtype
    without reading the result's."""
    hook.as_is = (frozenset(float_dtypes), frozenset(int_dtypes))  # type: ignore[attr-defined]
    return hook


def unary_case(case: FastCase | None) -> FastCase | None:
    """A unary `FastCase` in its full form (the earlier one without ``checked``: False)."""
    if case is None or len(case) == 4:
        return case
    return (*case, False)


def binary_case(case: FastCase | None) -> FastCase | None:
    """A binary `FastCase` in its full form; the earlier form without ``scalar_types``,
    ``(array_type, dtypes, op, scalar, scalar_op, scalar_first)`` with a bool
    ``scalar_first``, takes Python ints and floats through its ``scalar`` hook (none
    without one), first where ``scalar_first``; a form without the lanes has those its
    hook states (`as_is`), none without."""
    if case is None or len(case) == 9:
        return case
    if len(case) == 6:
        array_type, dtypes, op, scalar, scalar_op, scalar_first = case
        case = (array_type, dtypes, op, scalar, scalar_op, dtypes if scalar_first else (),
                INTS_AND_FLOATS if scalar is not None else ())  # fmt: skip
    return (*case, *getattr(case[3], "as_is", _NO_LANE))


def unary(array_type: type, dtypes: Container[Any], op: Callable[[Any], Any],
          checked: bool = False) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated ``slow``: ``op(x)`` for an ``array_type`` array
    of one of ``dtypes``; where ``checked``, ``op`` tests the dtype itself and returns None
    outside ``dtypes`` (`FastCase`), and ``slow`` then takes the call."""

    def decorate(slow: Method) -> Method:
        name = slow.__name__

        def method(self: Any, x: Any, /) -> Any:
            if type(x) is array_type and (checked or x.dtype in dtypes):  # type: ignore[attr-defined]
                try:
                    result = op(x)
                except Exception as exc:
                    raise_translated(self, exc, name)
                if result is not None:
                    return result
            return slow(self, x)

        describe(method, slow)
        method.fast_case = (array_type, dtypes, op, checked)  # type: ignore[attr-defined]
        return method

    return decorate


def binary(array_type: type, dtypes: Container[Any], op: Callable[[Any, Any], Any],
           scalar: ScalarOperand | None = None, scalar_op: Callable[..., Any] | None = None,
           scalar_first: bool | Container[Any] = True,
           scalar_types: tuple[type, ...] | None = None) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated ``slow``: ``op(x1, x2)`` for two
    ``array_type`` arrays of the same dtype among ``dtypes``, or ``scalar_op`` (default
    ``op``) of one such array and a Python scalar: of ``scalar_types`` (default: ints and
    floats where there is a ``scalar`` hook, none without one), turned into an operand by
    ``scalar`` (the scalar itself where it is None), placed before the array too where
    ``scalar_first`` (True: for every dtype of ``dtypes``; or the dtypes for which it
    may be)."""
    with_scalar = op if scalar_op is None else scalar_op
    if scalar_types is None:
        scalar_types = INTS_AND_FLOATS if scalar is not None else ()
    first = dtypes if scalar_first is True else scalar_first or frozenset()

    def decorate(slow: Method) -> Method:
        return _binary_method(array_type, dtypes, op, slow, scalar, with_scalar, first,
                              tuple(scalar_types))  # fmt: skip

    return decorate


def _binary_method(array_type: type, dtypes: Container[Any], op: Callable[[Any, Any], Any],
                   slow: Method, scalar: ScalarOperand | None, with_scalar: Callable[..., Any],
                   first: Container[Any], scalar_types: tuple[type, ...]) -> Method:  # fmt: skip
    floats, ints = getattr(scalar, "as_is", _NO_LANE)

    def method(self: Any, x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        try:
            if t1 is array_type:
                dtype = x1.dtype
                if dtype in dtypes:
                    if t2 is array_type:
                        if x2.dtype is dtype:
                            return op(x1, x2)
                    elif t2 in scalar_types:
                        if scalar is None or (dtype in floats if t2 is float else t2 is int
                                              and dtype in ints
                                              and -2147483648 <= x2 <= 2147483647):  # fmt: skip
                            operand = x2
                        else:
                            operand = scalar(x2, dtype)
                        if operand is not None:
                            return with_scalar(x1, operand)
            elif t2 is array_type and t1 in scalar_types:
                dtype = x2.dtype
                if dtype in first:
                    if scalar is None or (dtype in floats if t1 is float else t1 is int
                                          and dtype in ints
                                          and -2147483648 <= x1 <= 2147483647):  # fmt: skip
                        operand = x1
                    else:
                        operand = scalar(x1, dtype)
                    if operand is not None:
                        return with_scalar(operand, x2)
        except Exception as exc:
            raise_translated(self, exc, slow.__name__)
        return slow(self, x1, x2)

    describe(method, slow)
    method.fast_case = (array_type, dtypes, op, scalar, with_scalar, first,  # type: ignore[attr-defined]
                        scalar_types, floats, ints)
    return method


def reduction(array_type: type, dtypes: Container[Any], op: Callable[..., Any],
              accumulates: bool = False) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated reduction ``slow`` (``x, /, *, axis=None,
    keepdims=False``; ``dtype=None`` before ``keepdims`` when it ``accumulates``): for an
    ``array_type`` array of one of ``dtypes`` (and no ``dtype`` asked for), ``op(x)`` over
    every axis and ``op(x, axis, keepdims)`` over one int axis in range.  The case is
    recorded as ``method.fast_reduction``, ``(array_type, dtypes, op)``, for the wrapped
    flavour's lift, which tests it itself."""

    def decorate(slow: Method) -> Method:
        name = slow.__name__

        def accumulation(self: Any, x: Any, /, *, axis: Any = None, dtype: Any = None,
                         keepdims: bool = False) -> Any:  # fmt: skip
            if type(x) is array_type and dtype is None and type(keepdims) is bool \
                    and x.dtype in dtypes:  # type: ignore[attr-defined]  # fmt: skip
                try:
                    if axis is None:
                        if not keepdims:
                            return op(x)
                    elif type(axis) is int and -(n := x.ndim) <= axis < n:  # type: ignore[attr-defined]
                        return op(x, axis, keepdims)
                except Exception as exc:
                    raise_translated(self, exc, name)
            return slow(self, x, axis=axis, dtype=dtype, keepdims=keepdims)

        def statistic(self: Any, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
            if type(x) is array_type and type(keepdims) is bool \
                    and x.dtype in dtypes:  # type: ignore[attr-defined]  # fmt: skip
                try:
                    if axis is None:
                        if not keepdims:
                            return op(x)
                    elif type(axis) is int and -(n := x.ndim) <= axis < n:  # type: ignore[attr-defined]
                        return op(x, axis, keepdims)
                except Exception as exc:
                    raise_translated(self, exc, name)
            return slow(self, x, axis=axis, keepdims=keepdims)

        method: Method = accumulation if accumulates else statistic
        describe(method, slow)
        method.fast_reduction = (array_type, dtypes, op)  # type: ignore[attr-defined]
        return method

    return decorate


def describe(method: Method, slow: Method) -> Method:
    """``method``, a fast path in front of ``slow``, named and documented as it (and
    ``slow`` as its ``__wrapped__``, the full implementation); backends use it for their
    own fast paths too."""
    method.__name__ = method.__qualname__ = slow.__name__
    method.__doc__ = slow.__doc__
    method.__wrapped__ = slow  # type: ignore[attr-defined]
    return method
