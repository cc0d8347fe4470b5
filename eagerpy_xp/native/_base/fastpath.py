"""Fast paths: the common case of a function, straight to the framework op.

A backend's full implementation of a function handles promotion, Python scalars, dtypes
without kernels and special cases.  Most calls need none of that: plain arrays of one
dtype the framework already gets right.  `unary` and `binary` put a test for exactly
that case in front of the full implementation of an element-wise function and call the
op directly when it holds, so the result is the same either way, only sooner;
`reduction` does the same for a reduction over every axis or one int axis.  They are
decorators of the full implementation (``@fastpath.unary(Tensor, FLOATS, torch.exp)``
above ``def exp``).  A framework exception of the fast call is translated as
`core.translated` does (an `OverflowError` of a Python int beyond the array's dtype
names both, `core.explain_overflow`).

Each method made here records its case (``method.fast_case``, a `UnaryCase` or
`BinaryCase`; ``method.fast_reduction``, a `ReductionCase`) for callers that test the case themselves and then call the
op without the method's own frame: `Array`'s operators (through
`BackendCore.fast_case`) and the wrapped flavour's lifted reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, NamedTuple

from ..._detect import GENERATED_SCOPE
from ..._dtypes import LANE_MAX, LANE_MIN
from ..._spec import (
    ARITHMETIC_OPERATORS,
    BINARY_DUNDERS,
    COMPARISON_OPERATORS,
    UNARY_DUNDERS,
    operator_function,
)
from .core import explain_overflow, raise_translated

Method = Callable[..., Any]
#: ``scalar(value, dtype)``: a Python scalar as an operand of an array of ``dtype``, or
#: None when the full implementation must decide (out of range, another kind, ...).  A
#: hook may state where it hands the scalar on as it is (`as_is`), which callers then test
#: without calling it: the most common operands (``x * 2.0``, ``x > 0.5``, ``2 - x``) skip
#: a Python call.
ScalarOperand = Callable[[Any, Any], Any]
#: The Python scalar types a binary fast case takes unless it names its own.
INTS_AND_FLOATS = (float, int)
#: Every Python scalar type, most common first (`Array`'s operators test membership).
SCALARS = (float, int, bool, complex)
_NO_LANE: tuple[frozenset[Any], frozenset[Any]] = (frozenset(), frozenset())


class UnaryCase(NamedTuple):
    """The case of a unary function's fast path: ``op(x)`` for an ``array_type`` array of
    one of ``dtypes``.  Where ``checked``, ``op`` tests the dtype itself, once per dtype,
    and returns None outside ``dtypes`` (JAX's jitted ops, where reading ``x.dtype`` costs
    as much as the rest of the test)."""

    array_type: Any
    dtypes: Collection[Any]
    op: Any  # Callable[[Any], Any]; None in a plan without a case
    checked: bool = False


class BinaryCase(NamedTuple):
    """The case of a binary function's fast path (made by `binary_case`, which fills the
    defaults).  Two ``array_type`` arrays of one dtype among ``dtypes`` give ``op(x1,
    x2)``; such an array ``x`` and a Python scalar ``s`` whose type is among
    ``scalar_types`` give ``scalar_op(x, operand)``, and ``scalar_op(operand, x)`` for
    ``s`` first where ``x``'s dtype is among ``first``.  The operand is ``s`` itself where
    ``scalar`` is None, or in a lane: ``s`` a float and the dtype among ``floats``, or an
    int within `_dtypes.LANE_MIN`..`LANE_MAX` and the dtype among ``ints`` (`as_is`); else
    ``scalar(s, dtype)``, and no fast case when that is None.  A result of
    ``array_type`` computed from arrays `Array` stores needs no `BackendCore.normalize`."""

    array_type: Any
    dtypes: Collection[Any]
    op: Any  # Callable[[Any, Any], Any]; None in a plan without a case
    scalar: ScalarOperand | None
    scalar_op: Any  # Callable[..., Any]
    first: Collection[Any]
    scalar_types: tuple[type, ...]
    floats: frozenset[Any]
    ints: frozenset[Any]


#: A fast case of an element-wise function (`BackendCore.fast_case`).
FastCase = UnaryCase | BinaryCase


def binary_case(array_type: Any, dtypes: Collection[Any], op: Callable[[Any, Any], Any],
                scalar: ScalarOperand | None = None, scalar_op: Callable[..., Any] | None = None,
                scalar_first: bool | Collection[Any] = True,
                scalar_types: tuple[type, ...] | None = None) -> BinaryCase:  # fmt: skip
    """A `BinaryCase`: ``scalar_op`` defaults to ``op``; ``scalar_types`` to ints and
    floats where there is a ``scalar`` hook, none without one; a scalar may come first
    for every dtype of ``dtypes`` where ``scalar_first`` is True, for none where it is
    False, else for the dtypes it names; the lanes are those the hook states (`as_is`)."""
    if scalar_types is None:
        scalar_types = INTS_AND_FLOATS if scalar is not None else ()
    first = dtypes if scalar_first is True else scalar_first or frozenset()
    floats, ints = getattr(scalar, "as_is", _NO_LANE)
    return BinaryCase(array_type, dtypes, op, scalar, op if scalar_op is None else scalar_op,
                      first, tuple(scalar_types), floats, ints)  # fmt: skip


class ReductionCase(NamedTuple):
    """The case of a reduction's fast path (`reduction`): for an ``array_type`` array of
    one of ``dtypes`` (and, where the reduction ``accumulates``, no ``dtype`` asked for),
    ``op(x)`` over every axis and ``op(x, axis, keepdims)`` over one int axis in range.
    Its result has ``x``'s dtype, except for the dtypes among ``widens`` (torch's sum of
    an int32 array is int64), whose result the wrapped flavour's lift reads."""

    array_type: Any
    dtypes: Collection[Any]
    op: Callable[..., Any]
    accumulates: bool = False
    widens: frozenset[Any] = frozenset()


#: The element-wise functions whose results are bool arrays whatever their input's dtype.
BOOL_RESULTS = frozenset({
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "isfinite",
    "isinf", "isnan", "signbit", "logical_and", "logical_or", "logical_xor", "logical_not",
})  # fmt: skip
#: The element-wise functions whose complex inputs give real results of their precision.
REAL_RESULTS = frozenset({"abs", "real", "imag"})


def result_dtypes(function: str, case: FastCase, dtypes_by_name: dict[str, Any]
                  ) -> dict[Any, Any] | None:  # fmt: skip
    """The dtype of the result of ``function``'s fast ``case`` on arrays
    of one dtype, keyed by that dtype (the case's ``dtypes``), or None where it is always
    that dtype itself.  Callers that wrap the result (`Array`'s operators, the wrapped
    flavour's lifts) store it without asking the framework (`Array._dt`); a result with
    a Python scalar operand may have another (NumPy: a float beside an int array gives
    float64), and they read that one's.  ``tests/test_fastpaths.py`` checks it against
    every op's results."""
    if function not in BOOL_RESULTS and function not in REAL_RESULTS:
        return None
    if function in BOOL_RESULTS:
        return {d: dtypes_by_name["bool"] for d in case.dtypes}
    real = {dtypes_by_name.get(f"complex{2 * bits}"): dtypes_by_name.get(f"float{bits}")
            for bits in (32, 64)}  # (JAX without x64 has no 64-bit dtypes: None, unused)
    return {d: real.get(d, d) for d in case.dtypes}


def as_is(hook: ScalarOperand, float_dtypes: frozenset[Any], int_dtypes: frozenset[Any]
          ) -> ScalarOperand:  # fmt: skip
    """Record on ``hook`` the dtypes beside which it returns a Python float, or an int
    within `_dtypes.LANE_MIN`..`LANE_MAX`, unchanged (`BinaryCase`'s lanes); returns
    ``hook``.  A lane is a promise that the op keeps the array's dtype there (the
    standard's rule for a Python scalar operand; a comparison's result is bool): `Array`'s
    operators store that dtype without reading the result's."""
    hook.as_is = (frozenset(float_dtypes), frozenset(int_dtypes))  # type: ignore[attr-defined]
    return hook


def unary(array_type: type, dtypes: Collection[Any], op: Callable[[Any], Any],
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
        method.fast_case = UnaryCase(array_type, dtypes, op, checked)  # type: ignore[attr-defined]
        return method

    return decorate


def binary(array_type: type, dtypes: Collection[Any], op: Callable[[Any, Any], Any],
           scalar: ScalarOperand | None = None, scalar_op: Callable[..., Any] | None = None,
           scalar_first: bool | Collection[Any] = True,
           scalar_types: tuple[type, ...] | None = None) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated ``slow``: ``op(x1, x2)`` for two
    ``array_type`` arrays of the same dtype among ``dtypes``, or ``scalar_op`` (default
    ``op``) of one such array and a Python scalar: of ``scalar_types`` (default: ints and
    floats where there is a ``scalar`` hook, none without one), turned into an operand by
    ``scalar`` (the scalar itself where it is None), placed before the array too where
    ``scalar_first`` (True: for every dtype of ``dtypes``; or the dtypes for which it
    may be)."""

    def decorate(slow: Method) -> Method:
        case = binary_case(array_type, dtypes, op, scalar, scalar_op, scalar_first, scalar_types)
        return _binary_method(case, slow)

    return decorate


def _binary_method(case: BinaryCase, slow: Method) -> Method:
    """``slow`` behind the fast path of ``case``."""
    array_type, dtypes, op, scalar, with_scalar, first, scalar_types, floats, ints = case

    def method(self: Any, x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        try:
            if t1 is array_type:
                dtype = x1.dtype
                if dtype in dtypes:
                    if t2 is array_type:
                        other = x2.dtype  # (MLX makes a new dtype object per read: equal)
                        if other is dtype or other == dtype:
                            return op(x1, x2)
                    elif t2 in scalar_types:
                        if scalar is None or (dtype in floats if t2 is float else t2 is int
                                              and dtype in ints
                                              and LANE_MIN <= x2 <= LANE_MAX):  # fmt: skip
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
                                          and LANE_MIN <= x1 <= LANE_MAX):  # fmt: skip
                        operand = x1
                    else:
                        operand = scalar(x1, dtype)
                    if operand is not None:
                        return with_scalar(operand, x2)
        except Exception as exc:
            if isinstance(exc, OverflowError):  # a Python int beyond the dtype: name both
                explain_overflow(self, slow.__name__, x1, x2, exc)
            raise_translated(self, exc, slow.__name__)
        return slow(self, x1, x2)

    describe(method, slow)
    method.fast_case = case  # type: ignore[attr-defined]
    return method


#: A reduction's fast path (`reduction`), one source for both signatures: where it
#: accumulates (``sum``), its ``dtype`` parameter, the test that none is asked for and
#: the argument passed on; none of them for a statistic (``mean``).
_REDUCTION_SOURCE = """
def {name}(self, x, /, *, axis=None, {dtype_parameter}keepdims=False):
    if type(x) is array_type{no_dtype} and type(keepdims) is bool and x.dtype in dtypes:
        try:
            if axis is None:
                if not keepdims:
                    return op(x)
            elif type(axis) is int and -(n := x.ndim) <= axis < n:
                return op(x, axis, keepdims)
        except Exception as exc:
            raise_translated(self, exc, name)
    return slow(self, x, axis=axis, {dtype_argument}keepdims=keepdims)
"""


def reduction_source(source: str, accumulates: bool, **names: str) -> str:
    """``source`` (`_REDUCTION_SOURCE`, or the wrapped flavour's lift of one) for a
    reduction that ``accumulates`` or not, with ``names`` filled in."""
    return source.format(dtype_parameter="dtype=None, " if accumulates else "",
                         no_dtype=" and dtype is None" if accumulates else "",
                         dtype_argument="dtype=dtype, " if accumulates else "",
                         **names)  # fmt: skip


def reduction(array_type: type, dtypes: Collection[Any], op: Callable[..., Any],
              accumulates: bool = False, widens: Collection[Any] = ()
              ) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated reduction ``slow`` (``x, /, *, axis=None,
    keepdims=False``; ``dtype=None`` before ``keepdims`` when it ``accumulates``): for an
    ``array_type`` array of one of ``dtypes`` (and no ``dtype`` asked for), ``op(x)`` over
    every axis and ``op(x, axis, keepdims)`` over one int axis in range, whose result has
    ``x``'s dtype but for those of ``widens``.  The case is recorded as
    ``method.fast_reduction`` (`ReductionCase`) for the wrapped flavour's lift, which
    tests it itself (and reads the result's dtype only for ``widens``)."""

    def decorate(slow: Method) -> Method:
        name = slow.__name__
        scope: dict[str, Any] = {
            "array_type": array_type, "dtypes": dtypes, "op": op, "slow": slow, "name": name,
            "raise_translated": raise_translated, GENERATED_SCOPE: True,
        }  # fmt: skip
        source = reduction_source(_REDUCTION_SOURCE, accumulates, name=name)
        exec(compile(source, f"<eagerpy_xp fast {name}>", "exec"), scope)
        method: Method = scope[name]
        describe(method, slow)
        method.fast_reduction = ReductionCase(  # type: ignore[attr-defined]
            array_type, dtypes, op, accumulates, frozenset(widens))
        return method

    return decorate


def describe(method: Method, slow: Method) -> Method:
    """``method``, a fast path in front of ``slow``, named and documented as it (and
    ``slow`` as its ``__wrapped__`` and its ``full_path``, the full implementation, which
    a caller that has tested the fast case itself calls on a miss); backends use it for
    their own fast paths too."""
    method.__name__ = method.__qualname__ = slow.__name__
    method.__doc__ = slow.__doc__
    method.__wrapped__ = slow  # type: ignore[attr-defined]
    method.full_path = slow  # type: ignore[attr-defined]
    return method


# -- plans: how `Array`'s operators run the functions behind them ------------------------------
class UnaryPlan:
    """How a unary operator (``-x``) runs ``function``, fixed when the backend is built
    (`operator_plan`): its `UnaryCase`'s fields (none: ``array_type`` None), the backend's
    bound ``function`` for any other call, the ``canonical`` type of its results that need
    no `BackendCore.normalize`, and ``result``: the dtypes of the case's results where
    they are not the array's (`result_dtypes`), else None.  Read by attribute, each only
    where a path needs it (a slot read costs less than unpacking the whole plan)."""

    __slots__ = ("function", "canonical", "array_type", "dtypes", "op", "checked", "result")

    def __init__(self, function: Method, canonical: Any, case: UnaryCase | None,
                 result: dict[Any, Any] | None) -> None:  # fmt: skip
        self.function, self.canonical, self.result = function, canonical, result
        self.array_type, self.dtypes, self.op, self.checked = case or _NO_UNARY_CASE


class BinaryPlan:
    """How a binary operator (``x + y``, ``2 - x``) runs ``function``: as `UnaryPlan`,
    with a `BinaryCase`'s fields."""

    __slots__ = ("function", "canonical", "array_type", "dtypes", "op", "scalar", "scalar_op",
                 "first", "scalar_types", "floats", "ints", "result")  # fmt: skip

    def __init__(self, function: Method, canonical: Any, case: BinaryCase | None,
                 result: dict[Any, Any] | None) -> None:  # fmt: skip
        self.function, self.canonical, self.result = function, canonical, result
        (self.array_type, self.dtypes, self.op, self.scalar, self.scalar_op, self.first,
         self.scalar_types, self.floats, self.ints) = case or _NO_BINARY_CASE


_NO_UNARY_CASE = UnaryCase(None, (), None, False)
_NO_BINARY_CASE = BinaryCase(None, (), None, None, None, (), (), frozenset(), frozenset())


def operator_plan(backend: Any, function: str, arity: int) -> UnaryPlan | BinaryPlan:
    """The plan of the operators that call ``backend``'s ``function`` (of ``arity``
    arrays): its fast case (`BackendCore.fast_case`), if any."""
    case = backend.fast_case(function)
    result = None if case is None else result_dtypes(function, case, backend.dtypes_by_name)
    canonical = backend.canonical_type or backend.array_type
    plan = UnaryPlan if arity == 1 else BinaryPlan
    return plan(getattr(backend, function), canonical, case, result)


# -- operator tables: the plans' cases for one dtype, which each `Array` carries -----------------
#: An operator's case in an `OperatorTable`: the op, and its result's table and dtype.
TableCase = tuple[Any, "OperatorTable", Any]


class OperatorTable:
    """The fast cases of `Array`'s operators on arrays of one ``backend`` and one
    ``dtype`` whose native array is exactly of ``array_type`` (`table_type`), made once
    per dtype when the backend is built (`operator_tables`).
    Each `Array` holds its own (``Array._ops``; `NO_TABLE` for any other array: another
    dtype, a subclass, a tracer), so that an operator on two arrays tests one identity,
    ``x._ops is y._ops`` (one backend, one dtype, both of that exact type), where a plan
    asks for the backend's map, both types and both dtypes, and then reads its case by
    position: ``arrays[i]``, ``floats[i]`` and ``ints[i]`` for the operator at position
    ``i`` of `_spec.BINARY_DUNDERS` with another array of this table, a Python float, or
    a Python int within `_dtypes.LANE_MIN`..`LANE_MAX` (a lane of its `BinaryCase`);
    ``unary[i]`` for `_spec.UNARY_DUNDERS`.  A case is ``(op, table, dtype)``: the op,
    and its result's table and dtype (`result_dtypes`); None where the plan has no fast
    case for this dtype.  A checked unary op (`UnaryCase`) still tests the dtype itself
    and may return None."""

    __slots__ = ("backend", "dtype", "array_type", "arrays", "floats", "ints", "unary")

    def __init__(self, backend: Any, dtype: Any, array_type: Any) -> None:
        self.backend, self.dtype, self.array_type = backend, dtype, array_type
        self.arrays: tuple[TableCase | None, ...] = (None,) * len(BINARY_DUNDERS)
        self.floats: tuple[TableCase | None, ...] = self.arrays
        self.ints: tuple[TableCase | None, ...] = self.arrays
        self.unary: tuple[TableCase | None, ...] = (None,) * len(UNARY_DUNDERS)


#: The table of every array without one: no fast case, every operator takes its plan.
NO_TABLE = OperatorTable(None, None, None)


def operator_tables(backend: Any) -> dict[Any, OperatorTable]:
    """``backend``'s `OperatorTable` per dtype, from its operators' plans
    (``backend.operator_plans``): an operator's case is its plan's where the plan's array
    type is the tables' (`table_type`) and the dtype is among the case's (for a scalar: among
    those it may come first for where the operator is reflected, and in the lane)."""
    canonical = _cases_type(backend)
    tables = {d: OperatorTable(backend, d, canonical)
              for d in backend.dtypes_by_name.values() if d is not None}  # fmt: skip

    def case(plan: Any, dtype: Any, op: Any, allowed: Any) -> TableCase | None:
        if op is None or plan.array_type is not canonical or dtype not in allowed:
            return None
        result = dtype if plan.result is None else plan.result[dtype]
        table = tables.get(result)
        return None if table is None else (op, table, result)

    for dtype, table in tables.items():
        arrays, floats, ints = [], [], []
        for dunder in BINARY_DUNDERS:
            plan = backend.operator_plans[operator_function(dunder)]
            forward = dunder in ARITHMETIC_OPERATORS or dunder in COMPARISON_OPERATORS
            scalars = plan.dtypes if forward else plan.first
            arrays.append(case(plan, dtype, plan.op, plan.dtypes))
            floats.append(case(plan, dtype, plan.scalar_op, plan.floats)
                          if float in plan.scalar_types and dtype in scalars else None)
            ints.append(case(plan, dtype, plan.scalar_op, plan.ints)
                        if int in plan.scalar_types and dtype in scalars else None)
        table.arrays, table.floats, table.ints = tuple(arrays), tuple(floats), tuple(ints)
        table.unary = tuple(
            case(plan, dtype, plan.op, plan.dtypes)
            for plan in (backend.operator_plans[operator_function(d)] for d in UNARY_DUNDERS)
        )  # fmt: skip
    return tables


class IndexCase(NamedTuple):
    """How `Array.__getitem__` runs a basic key without `BackendCore.getitem`
    (`BackendCore.index_case`): for an array of exactly ``array_type`` and a basic key
    (slices with a negative step only where ``negative_steps``), ``raw[key]``, or
    ``take(raw, key)`` where ``take`` is given (an int key ``i`` as ``(i, ...)`` where
    ``int_ellipsis``); a key with a negative step where they are not: ``reverse(raw,
    key)`` where it is given, and for the key ``[::-1]`` (``slice(None, None, -1)``)
    ``flip(raw)`` where that is given: the first axis reversed, in one framework call
    without a frame of ours, raising for a 0-d array (torch's ``Tensor.flipud``).  A None
    from ``take`` or ``reverse``, any other key and any exception go to ``getitem``."""

    array_type: Any
    negative_steps: bool = True
    take: Callable[[Any, Any], Any] | None = None
    reverse: Callable[[Any, Any], Any] | None = None
    int_ellipsis: bool = False
    flip: Callable[[Any], Any] | None = None


class IndexPlan:
    """`IndexCase`'s fields (none: ``array_type`` None), and ``views``: whether a
    basic-indexing result remembers its parent to write through to it (where writes
    rebind: not `BackendCore.writes_in_place`).  Read by attribute, as `UnaryPlan`."""

    __slots__ = ("array_type", "negative_steps", "take", "reverse", "int_ellipsis", "flip",
                 "views")  # fmt: skip

    def __init__(self, case: IndexCase, views: bool) -> None:
        (self.array_type, self.negative_steps, self.take, self.reverse, self.int_ellipsis,
         self.flip) = case  # fmt: skip
        self.views = views


def index_plan(backend: Any) -> IndexPlan:
    """``backend``'s `IndexPlan`."""
    case = backend.index_case() or IndexCase(None, False)
    return IndexPlan(IndexCase(*case), not backend.writes_in_place)


def _cases_type(backend: Any) -> Any:
    """The type of the native arrays that carry ``backend``'s tables: that of its
    operators' fast cases where they name one (JAX's concrete array type, whose results
    are still normalized elsewhere: `BackendCore.canonical_type`), else its canonical
    type."""
    named = {plan.array_type for plan in backend.operator_plans.values()} - {None}
    return named.pop() if len(named) == 1 else backend.canonical_type or backend.array_type


def table_type(backend: Any) -> Any:
    """The type of the native arrays that carry an `OperatorTable` of ``backend`` (its
    tables' ``array_type``, found once when they were made: `_cases_type`)."""
    for table in backend.operator_tables.values():
        return table.array_type
    return None


def table_of(backend: Any, raw: Any, dtype: Any) -> OperatorTable:
    """The `OperatorTable` of an `Array` of ``backend`` holding ``raw`` (of ``dtype``):
    its dtype's, where ``raw`` is exactly of the tables' type; else `NO_TABLE`."""
    table = backend.operator_tables.get(dtype, NO_TABLE)
    return table if type(raw) is table.array_type else NO_TABLE
