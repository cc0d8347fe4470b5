"""The wrapped flavour: any backend lifted to take `Array`s and return `Array`s.

`build` fills a module (``eagerpy_xp.<backend>``) with the backend's functions, each
lifted once: arguments are unwrapped, the native function runs, results are wrapped.
Every lifted function carries the spec's signature.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import _spec
from ._array import Array, _new_object, new_array, permuting_view
from ._detect import GENERATED_SCOPE
from ._dtypes import ALL, LANE_MAX, LANE_MIN
from .native._base import Backend, fastpath
from .native._base.fastpath import NO_TABLE, table_of


def _spec_signature(text: str) -> inspect.Signature:
    """An `inspect.Signature` from the spec's ``name(params)`` text."""
    name, _, params = text.partition("(")
    scope: dict[str, Any] = {}
    exec(f"def {name}({params}: pass", scope)  # the spec's own parameter list
    return inspect.signature(scope[name])


def _unwrapper(backend: Backend, name: str) -> Callable[[Any], Any]:
    """The native values of function ``name``'s arguments: `Array`s of ``backend`` (also
    inside lists and tuples) as their arrays; one of another backend is the contract's
    `TypeError`."""

    def unwrap(value: Any) -> Any:
        t = type(value)
        if t is Array:
            if value._b is not backend:
                raise TypeError(
                    f"eagerpy_xp.{backend.name}.{name}: got a {value._b.name} Array; convert "
                    f"it first (eagerpy_xp.convert, or xp.asarray)"
                )
            return value._raw
        if t is list or t is tuple:
            return t(unwrap(v) for v in value)
        return value

    return unwrap


#: Results that are returned as they are (``isdtype``, ``can_cast``, ``finfo`` fields).
_PLAIN_RESULTS = frozenset({bool, int, float, complex, str, type(None)})


def _wrapper(backend: Backend) -> Callable[[Any], Any]:
    is_native = backend.is_native
    normalize = backend.normalize
    array_type: Any = backend.canonical_type or backend.array_type
    objects = backend.wrapped_dtypes  # (dtypes of the wrapped flavour's own: MLX)

    def wrap(result: Any) -> Any:
        t = type(result)
        if t is array_type:
            return new_array(backend, result, result.dtype)
        if t is list:
            return [wrap(r) for r in result]
        if t is tuple:
            return tuple(wrap(r) for r in result)
        if t in _PLAIN_RESULTS:
            return result
        # NumPy scalars from reductions, framework subclasses: an `isinstance` test (no
        # cache keyed by types, which a tracing compiler would guard on as it grows)
        if is_native(result):
            raw = normalize(result)
            return new_array(backend, raw, raw.dtype)
        if isinstance(result, tuple) and hasattr(result, "_fields"):  # named tuple
            return t(*(wrap(r) for r in result))
        return result if objects is None else backend.wrapped_result(result)

    return wrap


def _lift(fn: Callable[..., Any], signature: str, backend: Backend,
          prefix: str = "") -> Callable[..., Any]:  # fmt: skip
    """``fn`` taking and returning `Array`s, with the spec's signature; ``prefix`` is its
    extension's (``linalg.``), for messages."""
    name = signature.partition("(")[0]
    unwrap = _unwrapper(backend, prefix + name)
    wrap = _wrapper(backend)
    sig = _spec_signature(signature)
    params = list(sig.parameters.values())
    positional_only = all(p.kind is p.POSITIONAL_ONLY for p in params)

    array_type: Any = backend.canonical_type or backend.array_type
    tables = _tables_of(backend, array_type)
    lifted: Callable[..., Any]
    fast_reduction = getattr(fn, "fast_reduction", None)
    # an element-wise function of the backend itself (not of linalg or fft) may have a
    # fast case (`BackendCore.fast_case`), which its lift tests as `Array`'s operators do
    fast_case = (backend.fast_case(name) if positional_only and len(params) in (1, 2)
                 and fn == getattr(backend, name, None) else None)  # fmt: skip
    if fast_case is not None:
        result = fastpath.result_dtypes(name, fast_case, backend.dtypes_by_name)
    # Hot paths inline the unwrap/wrap of the common case (an Array of this backend in, a
    # native array of the canonical type out); anything else takes the general helpers.
    if fast_reduction is not None and [p.name for p in params] in _REDUCTION_PARAMETERS:
        lifted = _lifted_reduction(fn, fast_reduction, backend, unwrap, wrap)

    elif fast_case is not None and len(params) == 1:
        lifted = _lifted_unary(fn, fast_case, result, backend, unwrap, wrap)

    elif fast_case is not None:
        lifted = _lifted_binary(fn, fast_case, result, backend, unwrap, wrap)

    elif positional_only and len(params) == 1:

        def lifted(x: Any, /) -> Any:
            r = fn(x._raw if type(x) is Array and x._b is backend else unwrap(x))
            if type(r) is array_type:
                out = _new_object(Array)  # (`new_array`, written out: see there)
                out._raw = r
                out._b = backend
                out._dt = dtype = r.dtype
                out._ops = tables.get(dtype, NO_TABLE)  # (`fastpath.table_of`: of its type)
                return out
            return wrap(r)

    elif positional_only and len(params) == 2:

        def lifted(x1: Any, x2: Any, /) -> Any:
            r = fn(x1._raw if type(x1) is Array and x1._b is backend else unwrap(x1),
                   x2._raw if type(x2) is Array and x2._b is backend else unwrap(x2))
            if type(r) is array_type:
                out = _new_object(Array)  # (`new_array`, written out: see there)
                out._raw = r
                out._b = backend
                out._dt = dtype = r.dtype
                out._ops = tables.get(dtype, NO_TABLE)  # (`fastpath.table_of`: of its type)
                return out
            return wrap(r)

    elif not any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params) and \
            _same_parameters(fn, sig):  # fmt: skip
        lifted = _compiled_lift(fn, signature, backend, unwrap, wrap)

    else:

        def lifted(*args: Any, **kwargs: Any) -> Any:
            return wrap(fn(*[unwrap(a) for a in args],
                           **{k: unwrap(v) for k, v in kwargs.items()}))

    lifted.__signature__ = sig  # type: ignore[attr-defined,union-attr]
    lifted.__name__ = lifted.__qualname__ = name
    lifted.__doc__ = getattr(fn, "__doc__", None)
    lifted.__wrapped_native__ = fn  # type: ignore[attr-defined,union-attr]
    backend.mark_glue(lifted)
    return lifted


#: Parameters that never hold arrays (flags, strings, dtypes, devices): passed through as
#: they are.  Any other argument is unwrapped if it is an `Array`, a list or a tuple.
_PLAIN_PARAMETERS = frozenset({
    "keepdims", "copy", "descending", "stable", "include_initial", "endpoint", "invert",
    "upper", "full_matrices", "norm", "mode", "side", "indexing", "dtype", "device",
})  # fmt: skip


#: Parameters that take a sequence of arrays (``stack``, ``concat``) or of values
#: (``asarray``): a subclass of list or tuple (a named tuple such as SciPy's
#: ``ConfidenceInterval``) is unwrapped as the plain list or tuple of its items (its items'
#: own subclasses are not looked into: `_unwrapper` reads exact types, per element).
_SEQUENCE_PARAMETERS = frozenset({"arrays", "obj"})


def _plain_sequence(value: Any) -> Any:
    """A list or tuple subclass (a named tuple) as a plain list or tuple of its items."""
    return list(value) if isinstance(value, list) else tuple(value)


def _same_parameters(fn: Callable[..., Any], sig: inspect.Signature) -> bool:
    """Whether ``fn`` takes exactly the spec's parameters (names, kinds and defaults), so
    a lifted function may pass every argument on explicitly."""
    try:
        own = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature (NumPy ufuncs)
        return False
    spec = sig.parameters.values()
    return [(p.name, p.kind, p.default) for p in own] == \
        [(p.name, p.kind, p.default) for p in spec]  # fmt: skip


def _compiled_lift(fn: Callable[..., Any], signature: str, backend: Backend,
                   unwrap: Callable[[Any], Any], wrap: Callable[[Any], Any]) -> Callable[..., Any]:  # fmt: skip
    """``fn`` lifted by a function compiled with the spec's own parameter list.

    Each argument is unwrapped inline (an `Array` of this backend to its ``.raw``; other
    `Array`s, lists and tuples through ``unwrap``) and handed on explicitly, with the
    spec's defaults, which ``fn`` shares (`_same_parameters`); no ``**kwargs`` dict is
    built and nothing is looked up per call.
    """
    name = signature.partition("(")[0]
    sig = _spec_signature(signature)
    scope: dict[str, Any] = {
        "fn": fn, "backend": backend, "Array": Array, "new": _new_object, "unwrap": unwrap,
        "wrap": wrap, "array_type": backend.canonical_type or backend.array_type,
        "containers": frozenset({Array, list, tuple}), "sequences": (list, tuple),
        "plain": _plain_sequence, "no_table": NO_TABLE,
        "tables": _tables_of(backend, backend.canonical_type or backend.array_type),
        GENERATED_SCOPE: True,
    }  # fmt: skip
    passed = []
    for p in sig.parameters.values():
        if p.name in _PLAIN_PARAMETERS:
            value = p.name
        elif p.name in _SEQUENCE_PARAMETERS:  # a list or tuple subclass as a plain one
            value = (f"({p.name}._raw if type({p.name}) is Array and {p.name}._b is backend "
                     f"else unwrap({p.name}) if type({p.name}) in containers "
                     f"else unwrap(plain({p.name})) if isinstance({p.name}, sequences) "
                     f"else {p.name})")
        else:
            value = (f"({p.name}._raw if type({p.name}) is Array and {p.name}._b is backend "
                     f"else {p.name} if type({p.name}) not in containers else unwrap({p.name}))")
        passed.append(f"{p.name}={value}" if p.kind is p.KEYWORD_ONLY else value)
    source = (
        f"def {signature}:\n"  # the spec's own parameter list and defaults
        f"    r = fn({', '.join(passed)})\n"
        f"    if type(r) is array_type:\n"
        f"        out = new(Array)  # (`new_array`, written out: see there)\n"
        f"        out._raw = r\n"
        f"        out._b = backend\n"
        f"        out._dt = dt = r.dtype\n"
        f"        out._ops = tables.get(dt, no_table)\n"
        f"        return out\n"
        f"    return wrap(r)\n"
    )
    exec(compile(source, f"<eagerpy_xp lifted {name}>", "exec"), scope)
    lifted: Callable[..., Any] = scope[name]
    return lifted


def _tables_of(backend: Backend, array_type: Any) -> dict[Any, fastpath.OperatorTable]:
    """``backend``'s operator tables by dtype, for results of exactly ``array_type``:
    none where its tables are another type's (`fastpath.table_type`)."""
    return backend.operator_tables if fastpath.table_type(backend) is array_type else {}


def _lifted_unary(fn: Callable[..., Any], case: fastpath.UnaryCase,
                  result: dict[Any, Any] | None, backend: Backend, unwrap: Callable[[Any], Any],
                  wrap: Callable[[Any], Any]) -> Callable[..., Any]:  # fmt: skip
    """An element-wise ``fn(x)`` whose fast case (`BackendCore.fast_case`) is ``case``,
    lifted with the case tested here, as `Array`'s unary operators do: the result is
    ``fn``'s own (its dtype ``result``'s, `fastpath.result_dtypes`); other calls, and a
    fast call that raises, go through ``fn``."""
    fast_type, dtypes, op, _ = case  # (a checked op tests the dtype too: None outside)
    slow = _behind_fast_path(fn, backend)
    fast, results = _fast_tables(backend, fast_type, dtypes, result)

    def lifted(x: Any, /) -> Any:
        if type(x) is not Array:
            return wrap(fn(unwrap(x)))
        table = x._ops
        if table not in fast:  # (another backend's, a dtype or type outside the case)
            return wrap(slow(x._raw) if x._b is backend else fn(unwrap(x)))
        dtype = x._dt
        x = x._raw
        try:
            r = op(x)
        except Exception:
            return wrap(fn(x))  # (the fast path's error, as the function raises it)
        if r is None:  # (a checked op's dtype is not the case's)
            return wrap(slow(x))
        if results is not None:
            dtype = result[dtype]  # type: ignore[index]
            table = results[table]
        if type(r) is not fast_type:
            r = backend.normalize(r)
            table = table_of(backend, r, dtype)
        out = _new_object(Array)  # (`new_array`, written out: see there)
        out._raw = r
        out._b = backend
        out._dt = dtype
        out._ops = table
        return out

    return lifted


def _fast_tables(backend: Backend, fast_type: Any, dtypes: Any, result: dict[Any, Any] | None
                 ) -> tuple[frozenset[Any], dict[Any, Any] | None]:  # fmt: skip
    """The operator tables (`fastpath.OperatorTable`) of the arrays a lift's fast case
    takes (its dtypes, where its type is the tables'), which the lift tests in one set
    membership (this backend, a dtype of the case, exactly its type), and where the
    case's results change the dtype (``result``), each one's result table (its dtype's)."""
    tables = backend.operator_tables
    if fast_type is not fastpath.table_type(backend):
        return frozenset(), None
    fast = frozenset(table for dtype, table in tables.items() if dtype in dtypes)
    if result is None:
        return fast, None
    return fast, {t: tables.get(result[t.dtype], fastpath.NO_TABLE) for t in fast}


def _behind_fast_path(fn: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """What the backend's ``fn`` runs when its fast path (`fastpath.describe`) does not
    take a call: the full implementation (its ``full_path``, with the operand checks and
    the error contract), bound to ``backend``; ``fn`` where it has none.  A lift that has
    tested the fast case itself calls it, so that a miss tests the operand's type and
    dtype once, not again in ``fn``'s fast path."""
    full = getattr(getattr(fn, "__func__", None), "full_path", None)
    return fn if full is None else full.__get__(backend)  # type: ignore[no-any-return]


#: No value (`_lifted_binary`'s scalar operand before it is found).
_NONE: Any = object()


def _lifted_binary(fn: Callable[..., Any], case: fastpath.BinaryCase,
                   result: dict[Any, Any] | None, backend: Backend, unwrap: Callable[[Any], Any],
                   wrap: Callable[[Any], Any]) -> Callable[..., Any]:  # fmt: skip
    """An element-wise ``fn(x1, x2)`` whose fast case (`fastpath.BinaryCase`) is ``case``,
    lifted with the case tested here, as `Array`'s binary operators do (two arrays of one
    dtype, or an array and a Python scalar of the case's types, in either order where the
    case allows it): the result is ``fn``'s own (on two arrays its dtype is ``result``'s,
    `fastpath.result_dtypes`; beside a scalar it is read); other calls, and a fast call
    that raises, go through ``fn``."""
    fast_type, dtypes, op, scalar, scalar_op, first, scalars, floats, ints = case
    slow = _behind_fast_path(fn, backend)
    fast, results = _fast_tables(backend, fast_type, dtypes, result)

    def lifted(x1: Any, x2: Any, /) -> Any:
        r: Any
        dtype: Any
        # two arrays of this backend, of the case's type and one of its dtypes: first,
        # and returned from here (the common call, with nothing set up for the others)
        if type(x1) is Array and type(x2) is Array:
            table = x1._ops
            if x2._ops is table and table in fast:  # (one dtype of the case, of its type)
                a1, a2 = x1._raw, x2._raw
                try:
                    r = op(a1, a2)
                except Exception:
                    return wrap(fn(a1, a2))  # (the fast path's error, as ``fn`` raises it)
                out = _new_object(Array)  # (`new_array`, written out: see there)
                if type(r) is fast_type:
                    if results is None:
                        out._dt = x1._dt
                        out._ops = table
                    else:
                        out._dt = result[x1._dt]  # type: ignore[index]
                        out._ops = results[table]
                else:
                    r = backend.normalize(r)
                    out._dt = dtype = r.dtype
                    out._ops = table_of(backend, r, dtype)
                out._raw = r
                out._b = backend
                return out
        r = None
        full = slow  # (the case was tested here; after a fast call raised: ``fn``'s error)
        dtype = None
        value: Any = _NONE  # (a Python scalar beside an array: ``array``, ``kind``, ...)
        t1, t2 = type(x1), type(x2)
        try:
            if t1 is Array and x1._b is backend:
                dtype = x1._dt
                x1 = x1._raw
                if t2 is Array and x2._b is backend:
                    other_dtype = x2._dt
                    x2 = x2._raw
                    if type(x1) is fast_type and type(x2) is fast_type:
                        # (MLX makes a new dtype object per read: equal, not the same)
                        if (dtype is other_dtype or dtype == other_dtype) and dtype in dtypes:
                            r = op(x1, x2)
                            if result is not None:
                                dtype = result[dtype]
                elif t2 in scalars and type(x1) is fast_type and dtype in dtypes:
                    array, value, kind, swapped = x1, x2, t2, False
            elif t1 in scalars and t2 is Array and x2._b is backend:
                dtype = x2._dt
                x2 = x2._raw
                if type(x2) is fast_type and dtype in first:
                    array, value, kind, swapped = x2, x1, t1, True
            if value is not _NONE:  # an array and a Python scalar: the case's operand
                if scalar is None or (dtype in floats if kind is float else kind is int
                                      and dtype in ints and LANE_MIN <= value <= LANE_MAX):
                    operand = value
                else:
                    operand = scalar(value, dtype)
                if operand is not None:
                    r = scalar_op(operand, array) if swapped else scalar_op(array, operand)
                dtype = None  # (a scalar may change the dtype, NumPy's: read)
        except Exception:
            r = None
            full = fn
        if r is not None:
            if type(r) is not fast_type:
                r = backend.normalize(r)
                dtype = None
            if dtype is None:
                dtype = r.dtype
        else:
            return wrap(full(x1 if type(x1) is not Array and type(x1) is not list
                           and type(x1) is not tuple else unwrap(x1),
                           x2 if type(x2) is not Array and type(x2) is not list
                           and type(x2) is not tuple else unwrap(x2)))  # fmt: skip
        out = _new_object(Array)  # (`new_array`, written out: see there)
        out._raw = r
        out._b = backend
        out._dt = dtype
        out._ops = table_of(backend, r, dtype)
        return out

    return lifted


#: The parameters of the reductions `fastpath.reduction` makes: ``sum(x, /, *, axis=None,
#: dtype=None, keepdims=False)`` (it accumulates) and ``mean(x, /, *, axis=None,
#: keepdims=False)``.
_REDUCTION_PARAMETERS = (["x", "axis", "dtype", "keepdims"], ["x", "axis", "keepdims"])


#: The lift of a reduction with a fast path (`_lifted_reduction`), one source for both
#: signatures, filled in as the native one's (`fastpath.reduction_source`).
_REDUCTION_SOURCE = """
def {name}(x, /, *, axis=None, {dtype_parameter}keepdims=False):
    r = None
    if type(x) is Array and x._b is backend:
        x_dtype = x._dt
        table = x._ops
        x = x._raw
        if type(x) is fast_type{no_dtype} and type(keepdims) is bool and x_dtype in dtypes:
            try:
                if axis is None:
                    if not keepdims:
                        r = op(x)
                elif type(axis) is int and -(n := x.ndim) <= axis < n:  # (one read)
                    r = op(x, axis, keepdims)
            except Exception:
                r = None
            if r is not None:
                if type(r) is not fast_type:
                    r = normalize(r)  # (a NumPy scalar: its 0-d array; `wrap` would ask more)
                out = new(Array)  # (`new_array`, written out: see there)
                out._raw = r
                out._b = backend
                if x_dtype in widens:  # (else ``x``'s dtype: not read, a property costing time)
                    out._dt = dt = r.dtype
                    table = tables.get(dt, no_table)
                else:
                    out._dt = x_dtype
                out._ops = table if type(r) is table.array_type else no_table
                return out
    elif type(x) in containers:
        x = unwrap(x)
    if r is None:
        axis = axis if type(axis) not in containers else unwrap(axis)
        r = fn(x, axis=axis, {dtype_argument}keepdims=keepdims)
        if type(r) is not array_type:
            return wrap(r)
    out = new(Array)  # (`new_array`, written out: see there)
    out._raw = r
    out._b = backend
    out._dt = dt = r.dtype
    table = tables.get(dt, no_table)  # (`fastpath.table_of`, written out)
    out._ops = table if type(r) is table.array_type else no_table
    return out
"""


def _lifted_reduction(fn: Callable[..., Any], case: fastpath.ReductionCase, backend: Backend,
                      unwrap: Callable[[Any], Any], wrap: Callable[[Any], Any]
                      ) -> Callable[..., Any]:  # fmt: skip
    """A reduction with a fast path (`fastpath.reduction`, whose case is ``case``) lifted
    with that case tested here: an `Array` of this backend holding an array of the case's
    type and dtypes, reduced over every axis or one int axis, calls the op itself, without
    ``fn``'s frame; the result is ``fn``'s own.  Other calls, and a fast call that raises
    (``fn`` raises the contract's error), go through ``fn``."""
    name = fn.__name__
    source = fastpath.reduction_source(_REDUCTION_SOURCE, case.accumulates, name=name)
    scope: dict[str, Any] = {
        "fn": fn, "backend": backend, "Array": Array, "new": _new_object, "unwrap": unwrap,
        "wrap": wrap, "array_type": backend.canonical_type or backend.array_type,
        "fast_type": case.array_type, "dtypes": case.dtypes, "op": case.op,
        "widens": case.widens, "normalize": backend.normalize, "containers": frozenset({Array, list, tuple}),
        "tables": backend.operator_tables, "no_table": NO_TABLE, GENERATED_SCOPE: True,
    }  # fmt: skip
    exec(compile(source, f"<eagerpy_xp lifted reduction {name}>", "exec"), scope)
    lifted: Callable[..., Any] = scope[name]
    return lifted


def _keeping_arrays(lifted: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """``asarray`` that returns an `Array` of this backend itself when nothing asks for a
    copy or a change: the result then sees later writes, which on immutable frameworks
    rebind the `Array` (``copy=False`` means never copy; a snapshot would be one)."""

    def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None,
                copy: bool | None = None) -> Any:  # fmt: skip
        if (type(obj) is Array and obj._b is backend and copy is not True
                and (dtype is None or dtype == obj.dtype)
                and (device is None or device == obj.device)):  # fmt: skip
            return obj
        return lifted(obj, dtype=dtype, device=device, copy=copy)

    asarray.__signature__ = lifted.__signature__  # type: ignore[attr-defined]
    asarray.__qualname__ = "asarray"  # (Python's messages of a bad call show it)
    asarray.__doc__ = lifted.__doc__
    asarray.__wrapped_native__ = lifted.__wrapped_native__  # type: ignore[attr-defined]
    backend.mark_glue(asarray)
    return asarray


def _keeping_astype(lifted: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """``astype`` with ``copy=False`` to the array's own dtype (and device) returns that
    `Array` itself: the standard says "the input array must be returned", and on immutable
    frameworks a new `Array` around the same data would not see later writes."""

    def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        if (copy is False and type(x) is Array and x._b is backend and dtype == x.dtype
                and (device is None or device == x.device)):  # fmt: skip
            return x
        return lifted(x, dtype, copy=copy, device=device)

    astype.__signature__ = lifted.__signature__  # type: ignore[attr-defined]
    astype.__qualname__ = "astype"
    astype.__doc__ = lifted.__doc__
    astype.__wrapped_native__ = lifted.__wrapped_native__  # type: ignore[attr-defined]
    backend.mark_glue(astype)
    return astype


def _lifted_module(parent: str, name: str, source: Any, names: dict[str, str],
                   backend: Backend) -> ModuleType:  # fmt: skip
    module = ModuleType(f"{parent}.{name}", f"The standard's ``{name}`` extension.")
    for function, signature in names.items():
        lifted = _lift(getattr(source, function), signature, backend, f"{name}.")
        # found by name from the namespace (pickle: ``eagerpy_xp.torch`` -> linalg.solve)
        lifted.__module__, lifted.__qualname__ = parent, f"{name}.{function}"
        setattr(module, function, lifted)
    module.__all__ = list(names)  # type: ignore[attr-defined,union-attr]
    return module


def build(native: ModuleType, namespace: dict[str, Any]) -> None:
    """Fill the wrapped module's globals from the native module of the same backend."""
    backend: Backend = native.__backend__
    module_name = namespace["__name__"]
    for name, signature in _spec.FUNCTIONS.items():
        namespace[name] = _lift(getattr(backend, name), signature, backend)
    namespace["asarray"] = _keeping_arrays(namespace["asarray"], backend)
    namespace["astype"] = _keeping_astype(namespace["astype"], backend)
    if not backend.writes_in_place:  # a transpose writes through, as NumPy's (`_VIEW`)
        for name in ("permute_dims", "moveaxis"):
            namespace[name] = permuting_view(namespace[name], name)
            backend.mark_glue(namespace[name])
    for name in _spec.FUNCTIONS:  # found by name where they live (pickle, help, repr)
        namespace[name].__module__ = module_name
    for name in ALL:
        if name not in backend.absent_dtypes:
            namespace[name] = backend.wrapped_dtypes_by_name[name]
    namespace.update(e=math.e, inf=math.inf, nan=math.nan, pi=math.pi, newaxis=None)
    namespace["linalg"] = _lifted_module(module_name, "linalg", backend.linalg, _spec.LINALG,
                                         backend)  # fmt: skip
    namespace["fft"] = _lifted_module(module_name, "fft", backend.fft, _spec.FFT, backend)
    namespace["__array_namespace_info__"] = backend.__array_namespace_info__
    namespace["__array_api_version__"] = _spec.API_VERSION
    namespace["__backend__"] = backend
    namespace["__all__"] = list(native.__all__)
