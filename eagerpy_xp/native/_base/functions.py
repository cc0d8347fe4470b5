"""The remaining chapters of the standard, NumPy-like defaults delegating to ``self._f``.

Indexing, linear algebra, manipulation, searching, sets, sorting, statistics and
utilities.  Each default names the framework call it relies on; backends override what
their framework does differently.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from ..._dtypes import COMPLEX_FLOATING, INTEGRAL, REAL_FLOATING
from .core import int_beyond_dtype, translated

#: The standard's real-valued dtypes (integer and real floating; not bool), by name.
REAL_VALUED = frozenset(INTEGRAL + REAL_FLOATING)

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


class IndexingFunctions:
    _f: Any

    @translated
    def take(self, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        """``axis`` may be omitted for 1-d ``x`` only (frameworks flatten instead)."""
        if axis is None:
            if len(x.shape) != 1:
                raise self.error("take", f"axis is required for a {len(x.shape)}-d array")  # type: ignore[attr-defined]
            axis = 0
        return self._f.take(x, indices, axis=axis)

    @translated
    def take_along_axis(self, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        return self._f.take_along_axis(x, indices, axis=axis)


class LinearAlgebraFunctions:
    _f: Any

    @translated
    def matmul(self, x1: Any, x2: Any, /) -> Any:
        return self._f.matmul(x1, x2)

    @translated
    def matrix_transpose(self, x: Any, /) -> Any:
        return self._f.matrix_transpose(x)

    @translated
    def tensordot(self, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        if not isinstance(axes, (tuple, list)):
            self.check_int(axes, "axes", "tensordot", 0)  # type: ignore[attr-defined]
        return self._f.tensordot(x1, x2, axes=axes)

    @translated
    def vecdot(self, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        return self._f.vecdot(x1, x2, axis=axis)


class ManipulationFunctions:
    _f: Any

    @translated
    def broadcast_arrays(self, *arrays: Any) -> tuple[Any, ...]:
        for x in arrays:
            self.check_array(x, "broadcast_arrays")  # type: ignore[attr-defined]
        return tuple(self._f.broadcast_arrays(*arrays))

    @translated
    def broadcast_shapes(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        """The standard's broadcasting of ``shapes`` (no framework needed): entries are
        ints, at least 0 (`TypeError`, `ValueError`)."""
        checked = [self.check_sizes(s, "shape", "broadcast_shapes") for s in shapes]  # type: ignore[attr-defined]
        ndim = max([0, *[len(s) for s in checked]])  # a list: Dynamo takes no max(generator)
        result = [1] * ndim
        for shape in checked:
            for i, size in enumerate(shape, start=ndim - len(shape)):
                if size != result[i] and 1 not in (size, result[i]):
                    raise self.error("broadcast_shapes", f"shapes {tuple(checked)} do not "  # type: ignore[attr-defined]
                                     "broadcast")  # fmt: skip
                result[i] = size if result[i] == 1 else result[i]
        return tuple(result)

    @translated
    def broadcast_to(self, x: Any, /, shape: tuple[int, ...]) -> Any:
        shape = self.check_sizes(shape, "shape", "broadcast_to")  # type: ignore[attr-defined]
        return self._f.broadcast_to(x, shape)

    @translated
    def concat(self, arrays: Any, /, *, axis: int | None = 0) -> Any:
        return self._f.concat(arrays, axis=axis)

    @translated
    def expand_dims(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        count = len(axis) if isinstance(axis, tuple) else 1
        self.normalize_axes(axis, len(x.shape) + count, "expand_dims")  # type: ignore[attr-defined]
        return self._f.expand_dims(x, axis)

    @translated
    def flip(self, x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
        return self._f.flip(x, axis=axis)

    @translated
    def moveaxis(self, x: Any, source: Any, destination: Any, /) -> Any:
        return self._f.moveaxis(x, source, destination)

    @translated
    def permute_dims(self, x: Any, /, axes: tuple[int, ...]) -> Any:
        return self._f.permute_dims(x, axes)

    @translated
    def repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        check_repeats(self, repeats)
        return self._f.repeat(x, repeats, axis=axis)

    @translated
    def reshape(self, x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
        """Entries are ints, at least 0, one -1 at most (NumPy reads any negative as -1)."""
        shape = self.check_sizes(shape, "shape", "reshape", unknown=True)  # type: ignore[attr-defined]
        return self._f.reshape(x, shape, copy=copy)

    @translated
    def roll(self, x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        check_roll(self, shift, axis)
        return self._f.roll(x, shift, axis=axis)

    @translated
    def squeeze(self, x: Any, /, axis: int | tuple[int, ...]) -> Any:
        shape = tuple(x.shape)
        for a in self.normalize_axes(axis, len(shape), "squeeze"):  # type: ignore[attr-defined]
            if shape[a] != 1 and shape[a] == shape[a] and shape[a] is not None:  # (known)
                raise self.error("squeeze", f"axis {a} has size {shape[a]}, not 1 (shape "  # type: ignore[attr-defined]
                                 f"{shape})")  # fmt: skip
        return self._f.squeeze(x, axis=axis)

    @translated
    def stack(self, arrays: Any, /, *, axis: int = 0) -> Any:
        return self._f.stack(arrays, axis=axis)

    @translated
    def tile(self, x: Any, repetitions: tuple[int, ...], /) -> Any:
        self.check_sizes(repetitions, "repetitions", "tile")  # type: ignore[attr-defined]
        return self._f.tile(x, repetitions)

    @translated
    def unstack(self, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
        return tuple(self._f.unstack(x, axis=axis))


class SearchingFunctions:
    _f: Any

    @translated
    def argmax(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._f.argmax(x, axis=axis, keepdims=keepdims)

    @translated
    def argmin(self, x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        return self._f.argmin(x, axis=axis, keepdims=keepdims)

    @translated
    def count_nonzero(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.count_nonzero(x, axis=axis, keepdims=keepdims)

    @translated
    def nonzero(self, x: Any, /) -> tuple[Any, ...]:
        return tuple(self._f.nonzero(x))

    @translated
    def searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        check_sorter(self, sorter, x1.shape[0] if len(x1.shape) == 1 else None)
        return self._f.searchsorted(x1, x2, side=side, sorter=sorter)

    @translated
    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        int_beyond_dtype(self, "where", x1, x2)  # a Python int the array's dtype cannot hold
        return self._f.where(condition, x1, x2)


class SetFunctions:
    _f: Any

    @translated
    def isin(self, x1: Any, x2: Any, /, *, invert: bool = False) -> Any:
        return self._f.isin(x1, x2, invert=invert)

    def _unique(self, x: Any, function: str) -> tuple[Any, Any, Any, Any]:
        """Values, first indices, inverse indices (shaped like ``x``) and counts.

        The one hook behind the four ``unique_*`` functions; each NaN is its own value.
        """
        return tuple(self._f.unique_all(x))  # type: ignore[return-value]

    @translated
    def unique_all(self, x: Any, /) -> UniqueAllResult:
        return UniqueAllResult(*self._unique(x, "unique_all"))

    @translated
    def unique_counts(self, x: Any, /) -> UniqueCountsResult:
        values, _, _, counts = self._unique(x, "unique_counts")
        return UniqueCountsResult(values, counts)

    @translated
    def unique_inverse(self, x: Any, /) -> UniqueInverseResult:
        values, _, inverse, _ = self._unique(x, "unique_inverse")
        return UniqueInverseResult(values, inverse)

    @translated
    def unique_values(self, x: Any, /) -> Any:
        return self._unique(x, "unique_values")[0]


class SortingFunctions:
    _f: Any

    @translated
    def argsort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        return self._f.argsort(x, axis=axis, descending=descending, stable=stable)

    @translated
    def sort(
        self, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
    ) -> Any:
        return self._f.sort(x, axis=axis, descending=descending, stable=stable)


class StatisticalFunctions:
    _f: Any

    @translated
    def cumulative_prod(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        axis = _cumulative_axis(self, x, axis, "cumulative_prod")
        dtype = accumulation_dtype(self, x, dtype, "cumulative_prod")
        if accumulates_in_bool(self, dtype):
            return bool_accumulation(self, "cumulative_prod", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        return self._f.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial)

    @translated
    def cumulative_sum(
        self, x: Any, /, *, axis: int | None = None, dtype: Any = None,
        include_initial: bool = False,
    ) -> Any:  # fmt: skip
        axis = _cumulative_axis(self, x, axis, "cumulative_sum")
        dtype = accumulation_dtype(self, x, dtype, "cumulative_sum")
        if accumulates_in_bool(self, dtype):
            return bool_accumulation(self, "cumulative_sum", x, axis,
                                     include_initial=include_initial)  # fmt: skip
        return self._f.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)

    @translated
    def max(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.max(x, axis=axis, keepdims=keepdims)

    @translated
    def mean(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.mean(x, axis=axis, keepdims=keepdims)

    @translated
    def min(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.min(x, axis=axis, keepdims=keepdims)

    @translated
    def prod(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        dtype = accumulation_dtype(self, x, dtype, "prod")
        if accumulates_in_bool(self, dtype):
            return bool_accumulation(self, "prod", x, axis, keepdims)
        return self._f.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    @translated
    def std(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        check_correction(self, correction, "std")
        return self._f.std(x, axis=axis, correction=correction, keepdims=keepdims)

    @translated
    def sum(self, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        dtype = accumulation_dtype(self, x, dtype, "sum")
        if accumulates_in_bool(self, dtype):
            return bool_accumulation(self, "sum", x, axis, keepdims)
        return self._f.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)

    @translated
    def var(
        self, x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
    ) -> Any:
        check_correction(self, correction, "var")
        return self._f.var(x, axis=axis, correction=correction, keepdims=keepdims)


def accumulation_dtype(backend: Any, x: Any, dtype: Any, function: str) -> Any:
    """The ``dtype`` argument of ``sum``, ``prod``, ``cumulative_sum``, ``cumulative_prod``
    and ``linalg.trace`` (``function``) as the backend's dtype object, None for None
    (`check_dtype`'s errors for what is no dtype).

    The standard casts ``x`` (a native array whose dtype is checked) to ``dtype`` before
    it accumulates, and `astype` refuses to cast a complex array to a real-valued dtype,
    so a complex ``x`` with an integer or real floating ``dtype`` is a `TypeError` on
    every backend (the frameworks would drop the imaginary part, or refuse in their own
    words).  Bool is no real-valued dtype: `astype` casts a complex array to it (0 is
    False), and `bool_accumulation` accumulates in it."""
    if dtype is None:
        return None
    target = backend.check_dtype(dtype, function)
    names = backend._names_by_dtype
    try:
        source = names.get(x.dtype)
    except (AttributeError, TypeError):  # no array: the operand check says so
        return target
    if source in COMPLEX_FLOATING and names.get(target) in REAL_VALUED:
        raise backend.error(function, f"cannot accumulate {source} in {names[target]}: x is "
                            "cast to dtype first, and casting a complex array to a "
                            "real-valued dtype would drop the imaginary part; pass a complex "
                            "dtype, or take real(x), imag(x) or abs(x) first", TypeError)  # fmt: skip
    return target


def accumulates_in_bool(backend: Any, dtype: Any) -> bool:
    """Whether ``dtype`` (an `accumulation_dtype` result) is bool: the function then returns
    `bool_accumulation`."""
    return dtype is not None and backend._names_by_dtype.get(dtype) == "bool"


def bool_accumulation(backend: Any, function: str, x: Any, axis: Any = None,
                      keepdims: bool = False, include_initial: bool = False) -> Any:  # fmt: skip
    """``sum``, ``prod``, ``cumulative_sum`` or ``cumulative_prod`` (``function``) of ``x``
    with ``dtype=bool``, the same on every backend: ``x`` cast to bool as `astype` casts (0
    and -0 are False; any other value, NaN and a complex value with one nonzero part
    included, is True), then accumulated in bool, where adding is a logical or and
    multiplying a logical and (NumPy's add and multiply of bools): a sum is ``any``, a
    product ``all``, and a running sum (product) is True from the first True (while no
    False has come).  ``linalg.trace`` is the sum of the diagonal.  The backend's own
    functions check ``axis``; their errors name ``function`` when it translates them."""
    truth = backend.astype(x, backend.dtypes_by_name["bool"])
    if function == "sum":
        return backend.any(truth, axis=axis, keepdims=keepdims)
    if function == "prod":
        return backend.all(truth, axis=axis, keepdims=keepdims)
    if function == "cumulative_prod":  # True while the count of False so far is 0
        truth = backend.logical_not(truth)
    count = backend.dtypes_by_name[backend.default_dtype_names()["integral"]]
    seen = backend.astype(backend.cumulative_sum(backend.astype(truth, count), axis=axis,
                                                 include_initial=include_initial), truth.dtype)  # fmt: skip
    return seen if function == "cumulative_sum" else backend.logical_not(seen)


def check_repeats(backend: Any, repeats: Any) -> None:
    """``repeat``'s ``repeats``: a non-negative int, or an integer array."""
    if backend.is_native(repeats):
        if repeats.dtype not in backend.category_dtypes["integer"]:
            raise backend.error("repeat", f"repeats must be an int or an integer array, got an "
                                f"array of {repeats.dtype}", TypeError)  # fmt: skip
        return
    backend.check_int(repeats, "repeats", "repeat", 0)


def check_roll(backend: Any, shift: Any, axis: Any) -> None:
    """``roll``'s ``shift`` (an int, or a tuple of ints as long as the tuple ``axis``)."""
    if isinstance(shift, (tuple, list)):
        for s in shift:
            backend.check_int(s, "each shift", "roll")
        count = len(axis) if isinstance(axis, (tuple, list)) else None
        if count != len(shift):
            raise backend.error("roll", f"shift {tuple(shift)!r} needs an axis tuple of the same "
                                f"length, got axis={axis!r}")  # fmt: skip
    else:
        backend.check_int(shift, "shift", "roll")


def check_sorter(backend: Any, sorter: Any, size: int | None) -> None:
    """``searchsorted``'s ``sorter``: None, or a 1-d integer array of ``x1``'s length
    (frameworks truncate a float one, or read past the end of a short one)."""
    if sorter is None:
        return
    if not backend.is_native(sorter):
        raise backend.error("searchsorted", f"sorter must be an array, got "
                                            f"{type(sorter).__name__}", TypeError)  # fmt: skip
    name = backend.dtype_name(sorter.dtype)
    if name not in INTEGRAL:
        raise backend.error("searchsorted", f"sorter must have an integer dtype, got {name}",
                            TypeError)  # fmt: skip
    if tuple(sorter.shape) != (size,):
        raise backend.error("searchsorted", f"sorter must have shape ({size},), like x1, got "
                                            f"{tuple(sorter.shape)}")  # fmt: skip


def check_reduced_elements(backend: Any, shape: Any, axis: Any, function: str) -> None:
    """A reduction without an identity (``min``, ``max``, ``argmin``, ``argmax``) over axes
    that hold no element raises `ValueError`, on every backend (NumPy's answer; the
    standard leaves the value open).  Only the reduced axes count: ``min`` of a ``(0, 2)``
    array along its last axis is a ``(0,)`` array.  A size Dask does not know yet (NaN)
    is not zero."""
    if 0 not in shape:
        return
    ndim = len(shape)
    axes = range(ndim) if axis is None else backend.normalize_axes(axis, ndim, function)
    empty = [a for a in axes if shape[a] == 0]
    if empty:
        raise backend.error(function, f"cannot take the {function} over axis {empty[0]} of "
                            f"a zero-size array of shape {tuple(shape)}: it holds no elements and "
                            f"{function} has no identity")  # fmt: skip


def check_correction(backend: Any, correction: Any, function: str) -> None:
    """``std``/``var``'s ``correction``: a real number, at least 0."""
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        raise backend.error(function, f"correction must be a real number, got {correction!r}",
                            TypeError)  # fmt: skip
    if not correction >= 0:
        raise backend.error(function, f"correction must be at least 0, got {correction!r}")


def _cumulative_axis(backend: Any, x: Any, axis: int | None, function: str) -> int | None:
    """``axis`` may be omitted for 1-d ``x`` only; given, it is in range."""
    if axis is None:
        if len(x.shape) > 1:
            raise backend.error(function, f"axis is required for a {len(x.shape)}-d array")
        return axis
    return backend.normalize_axis(axis, len(x.shape), function)  # type: ignore[no-any-return]


def check_diff(backend: Any, x: Any, axis: Any, n: Any) -> None:
    """``diff``'s ``axis`` (in range) and ``n`` (a non-negative int)."""
    backend.normalize_axis(axis, len(backend.shape_of(x)), "diff")
    backend.check_int(n, "n", "diff", 0)


class UtilityFunctions:
    _f: Any

    @translated
    def all(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.all(x, axis=axis, keepdims=keepdims)

    @translated
    def any(self, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return self._f.any(x, axis=axis, keepdims=keepdims)

    @translated
    def diff(
        self, x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
    ) -> Any:
        check_diff(self, x, axis, n)
        kwargs = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
        return self._f.diff(x, n=n, axis=axis, **kwargs)
