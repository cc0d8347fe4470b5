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
#: None when the full implementation must decide (out of range, another kind, ...).
ScalarOperand = Callable[[Any, Any], Any]
#: The case a fast path takes: ``(array_type, dtypes, op)`` for a unary function;
#: ``(array_type, dtypes, op, scalar, scalar_op, scalar_first)`` for a binary one (the
#: arguments of `unary` and `binary`, ``scalar_op`` defaulting to ``op``).
FastCase = tuple[Any, ...]


def unary(array_type: type, dtypes: Container[Any], op: Callable[[Any], Any]
          ) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated ``slow``: ``op(x)`` for an ``array_type`` array
    of one of ``dtypes``."""

    def decorate(slow: Method) -> Method:
        name = slow.__name__

        def method(self: Any, x: Any, /) -> Any:
            if type(x) is array_type and x.dtype in dtypes:  # type: ignore[attr-defined]
                try:
                    return op(x)
                except Exception as exc:
                    raise_translated(self, exc, name)
            return slow(self, x)

        describe(method, slow)
        method.fast_case = (array_type, dtypes, op)  # type: ignore[attr-defined]
        return method

    return decorate


def binary(array_type: type, dtypes: Container[Any], op: Callable[[Any, Any], Any],
           scalar: ScalarOperand | None = None, scalar_op: Callable[..., Any] | None = None,
           scalar_first: bool = True) -> Callable[[Method], Method]:  # fmt: skip
    """A fast path in front of the decorated ``slow``: ``op(x1, x2)`` for two
    ``array_type`` arrays of the same dtype among ``dtypes``, or ``scalar_op`` (default
    ``op``) of one such array and a Python int or float that ``scalar`` turns into an
    operand, placed before the array too when ``scalar_first``."""
    with_scalar = op if scalar_op is None else scalar_op

    def decorate(slow: Method) -> Method:
        return _binary_method(array_type, dtypes, op, slow, scalar, with_scalar, scalar_first)

    return decorate


def _binary_method(array_type: type, dtypes: Container[Any], op: Callable[[Any, Any], Any],
                   slow: Method, scalar: ScalarOperand | None, with_scalar: Callable[..., Any],
                   scalar_first: bool) -> Method:  # fmt: skip
    def method(self: Any, x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        try:
            if t1 is array_type:
                dtype = x1.dtype
                if dtype in dtypes:
                    if t2 is array_type:
                        if x2.dtype is dtype:
                            return op(x1, x2)
                    elif (t2 is float or t2 is int) and scalar is not None:
                        operand = scalar(x2, dtype)
                        if operand is not None:
                            return with_scalar(x1, operand)
            elif t2 is array_type and (t1 is float or t1 is int) and scalar_first \
                    and scalar is not None:  # fmt: skip
                dtype = x2.dtype
                if dtype in dtypes:
                    operand = scalar(x1, dtype)
                    if operand is not None:
                        return with_scalar(operand, x2)
        except Exception as exc:
            raise_translated(self, exc, slow.__name__)
        return slow(self, x1, x2)

    describe(method, slow)
    method.fast_case = (array_type, dtypes, op, scalar, with_scalar, scalar_first)  # type: ignore[attr-defined]
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
