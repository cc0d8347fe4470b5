"""Creation functions (spec chapter "Creation Functions"), NumPy-like defaults."""

from __future__ import annotations

import math
import sys
from typing import Any

from ..._detect import SCALAR_TYPES
from ..._devices import Device
from ..._dtypes import INT_RANGE
from .core import translated

#: The most elements an array may have: extents are int64 in every framework.
_MAX_ELEMENTS = 2**63 - 1


class CreationFunctions:
    """Defaults delegate to the framework's NumPy-like namespace ``self._f``."""

    _f: Any
    #: Whether ``linspace`` is computed here in steps (`_stepped_linspace`) rather than by
    #: the framework's own, which interpolates in the dtype and rounds the points.
    linspace_in_steps: bool = False

    # helpers the backend provides (see hooks.BackendCore)
    check_dtype: Any
    dtype_name: Any
    native_dtype: Any
    native_device: Any
    error: Any
    is_native: Any
    check_array: Any
    device_of: Any
    default_device: Any
    default_dtype_names: Any
    dtypes_by_name: dict[str, Any]
    _names_by_dtype: dict[Any, str]

    def _device_kwargs(self, device: Any, function: str) -> dict[str, Any]:
        """Keyword arguments placing a new array on ``device`` (none for the default)."""
        if device is None:
            return {}
        return {"device": self.native_device(device, function)}

    def _dtype_kwargs(self, dtype: Any, function: str) -> dict[str, Any]:
        return {} if dtype is None else {"dtype": self.check_dtype(dtype, function)}

    def _check_fill(self, fill_value: Any, function: str) -> None:
        """The standard's ``fill_value``: a Python scalar (or a 0-d array of the backend);
        whether a Python int fits the result is `_check_fill_fits`."""
        if not isinstance(fill_value, SCALAR_TYPES) and not self.is_native(fill_value):
            raise self.error(function, f"fill_value must be a Python scalar, got "
                             f"{type(fill_value).__name__} {fill_value!r:.60}", TypeError)  # fmt: skip

    def _check_fill_fits(self, fill_value: Any, function: str, dtype: Any = None,
                         like: Any = None) -> Any:  # fmt: skip
        """``fill_value`` as the result stores it: a Python int must fit the result's
        integer dtype (``dtype``, else ``like``'s dtype for ``full_like``, else the default
        integer dtype: `OverflowError`); a Python float given an integer result dtype is
        truncated toward zero, as ``asarray`` makes it (`_truncated_floats`: NumPy and
        Dask wrapped ``full(2, -1.5, dtype=uint8)`` to 255, JAX saturated it to 0, torch
        refused -0.5 for uint8).  Other values as they are."""
        if isinstance(fill_value, float):
            if dtype is not None:
                name = self._name_of(dtype, function)
            elif like is not None:
                name = self._names_by_dtype.get(like.dtype)
            else:
                return fill_value  # the default floating dtype
            if name not in INT_RANGE:
                return fill_value  # a floating (or complex, bool) result
            fill_value = self._truncated_floats(fill_value, name, function)
        elif not isinstance(fill_value, int) or isinstance(fill_value, bool):
            return fill_value
        elif dtype is not None:
            name = self._name_of(dtype, function)
        elif like is not None:
            name = self._names_by_dtype.get(like.dtype)
        else:
            name = self.default_dtype_names()["integral"]
        if name is not None:
            check_python_int(self, fill_value, name, function)
        return fill_value

    def _name_of(self, dtype: Any, function: str) -> str | None:
        """The standard's name of the dtype ``dtype`` (a dict lookup for a dtype object of
        the backend; `check_dtype`'s error for anything else)."""
        try:
            name = self._names_by_dtype.get(dtype)
        except TypeError:  # unhashable: check_dtype says what it is
            name = None
        return name if name is not None else self.dtype_name(self.check_dtype(dtype, function))

    def _check_python_ints(self, obj: Any, name: str | None, function: str) -> None:
        """`OverflowError` naming the first Python int in ``obj`` (nested lists and tuples)
        beyond the integer dtype ``name`` (the default integer dtype for None); a scan in
        Python, so called where a framework wraps such ints silently or has failed
        (its message names no value)."""
        name = self.default_dtype_names()["integral"] if name is None else name
        if name in INT_RANGE:
            big = int_beyond(obj, name)
            if big is not None:
                check_python_int(self, big, name, function)

    def _truncated_floats(self, obj: Any, name: str, function: str) -> Any:
        """``obj`` (a Python scalar or nested lists and tuples) as ``asarray`` stores it in
        an array of the integer dtype ``name``: each Python float truncated toward zero to
        a Python int, as NumPy makes ``asarray([-0.5, 2.7], dtype=uint8)`` ``[0, 2]``
        (the standard leaves the conversion to the library; torch refuses -0.5 for an
        unsigned dtype and every float for uint64, MLX wraps -1.5 to 255).  NaN is a
        `ValueError` and an infinity an `OverflowError`, as Python's ``int()`` and NumPy
        raise; ``obj`` itself where it holds no float.  Whether the ints fit ``name`` is
        `_check_python_ints`."""
        if name not in INT_RANGE:
            return obj
        return _floats_to_ints(self, obj, name, function)

    def _check_arange_ints(self, start: Any, stop: Any, step: Any, dtype: Any,
                           function: str = "arange") -> bool:  # fmt: skip
        """Each value ``arange`` makes from Python ints must fit the integer result dtype
        (``dtype``, or the default integer dtype): its first and last (`OverflowError`).
        Whether ``start``, ``stop`` and ``step`` are all Python ints."""
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop, step)):
            return False
        if step == 0:
            return False  # the caller's ValueError
        name = self.default_dtype_names()["integral"] if dtype is None else \
            self.dtype_name(self.check_dtype(dtype, function))  # fmt: skip
        count = max(0, -((start - stop) // step))
        if count:
            check_python_int(self, start, name, function)
            check_python_int(self, start + (count - 1) * step, name, function)
        return True

    def _linspace_ends(self, start: Any, stop: Any, dtype: Any = None) -> tuple[Any, Any]:
        """Python ints among ``linspace``'s ends as floats (the result is floating: NumPy
        and JAX read ``2**64`` as an integer, which no int64 holds); `OverflowError` beyond
        float64.  A complex end with a real ``dtype`` is a `TypeError`: the standard leaves
        that conversion to the library (NumPy drops the imaginary part, torch refuses), and
        a value silently dropped is not an answer (docs/errors.md)."""
        if dtype is not None and _any_complex(start, stop):
            name = self.dtype_name(self.check_dtype(dtype, "linspace"))
            if not name.startswith("complex"):
                raise self.error("linspace", f"a complex start or stop ({start!r}, {stop!r}) "
                                 f"cannot make an array of dtype {name}", TypeError)  # fmt: skip
        ends = []
        for value in (start, stop):
            if isinstance(value, int) and not isinstance(value, bool):
                try:
                    value = float(value)
                except OverflowError as exc:
                    raise self.error("linspace", f"the Python int {value} is too large for "
                                     "a floating-point dtype", OverflowError) from exc  # fmt: skip
            ends.append(value)
        return ends[0], ends[1]

    def _check_shape(self, shape: Any, function: str) -> tuple[int, ...]:
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        try:
            dims = tuple(operator_index(s) for s in shape)
        except TypeError:
            raise self.error(function, f"shape must be an int or a tuple of ints, got {shape!r}",
                             TypeError) from None  # fmt: skip
        if any(d < 0 for d in dims):
            raise self.error(function, f"negative dimension in shape {shape!r}")
        if math.prod(dims) > _MAX_ELEMENTS:  # beyond every framework's (int64) extents
            raise self.error(function, f"shape {shape!r} has {math.prod(dims)} elements, more "
                             f"than an array can index (2**63 - 1)")  # fmt: skip
        return dims

    def _python_bounds(self, *values: Any) -> tuple[Any, ...]:
        """``arange``'s and ``linspace``'s bounds with each 0-d array (of any framework,
        a wrapped `Array`, a NumPy scalar) as the Python number of its value: an int for
        an integer dtype, a float for a real floating one, a complex for a complex one.
        The standard's bounds are Python numbers; libraries pass 0-d arrays (SciPy's
        ``xp.linspace(t[k], t[n], 50)``, ``xp.arange(n_obs + 1)`` of a NumPy int), and
        the frameworks differed (NumPy and torch read their values; TensorFlow's
        ``arange(0, asarray(8.))`` gave int64; MLX, Dask and JAX refused some).  Anything
        else (a boolean or an n-d array, a string) is left for the checks to refuse."""
        out = []
        for value in values:
            if value is None or type(value) in SCALAR_TYPES or getattr(value, "shape", None) != ():
                out.append(value)
                continue
            name = str(getattr(value, "dtype", ""))
            if "complex" in name:
                out.append(complex(value))
            elif "bool" in name:
                out.append(value)
            elif "int" in name:
                out.append(int(value))
            elif "float" in name:
                out.append(float(value))
            else:
                out.append(value)
        return tuple(out)

    def _check_arange(self, start: Any, stop: Any, step: Any) -> None:
        """``arange``'s bounds and step: real numbers (`TypeError`; NumPy takes a complex
        one), a step other than zero (`ValueError`)."""
        for value in (start, step) if stop is None else (start, stop, step):
            if isinstance(value, complex) or not hasattr(type(value), "__float__"):
                raise self.error("arange", f"start, stop and step must be real numbers, got "
                                 f"{value!r}", TypeError)  # fmt: skip
        if step == 0:
            raise self.error("arange", f"step must not be zero, got {step!r}")

    @translated
    def arange(
        self, start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        start, stop, step = self._python_bounds(start, stop, step)
        self._check_arange(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        if self._check_arange_ints(low, high, step, dtype) and dtype is None:
            dtype = self.dtypes_by_name[self.default_dtype_names()["integral"]]
        return self._f.arange(start, stop, step, **self._dtype_kwargs(dtype, "arange"),
                              **self._device_kwargs(device, "arange"))  # fmt: skip

    @translated
    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        return self._f.asarray(obj, **self._dtype_kwargs(dtype, "asarray"),
                               **self._device_kwargs(device, "asarray"), copy=copy)  # fmt: skip

    @translated
    def empty(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.empty(self._check_shape(shape, "empty"),
                             **self._dtype_kwargs(dtype, "empty"),
                             **self._device_kwargs(device, "empty"))  # fmt: skip

    @translated
    def empty_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.empty_like(x, **self._dtype_kwargs(dtype, "empty_like"),
                                  **self._device_kwargs(device, "empty_like"))  # fmt: skip

    @translated
    def eye(
        self, n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None,
    ) -> Any:  # fmt: skip
        k = self._check_eye(n_rows, n_cols, k)
        return self._f.eye(n_rows, n_cols, k=k, **self._dtype_kwargs(dtype, "eye"),
                           **self._device_kwargs(device, "eye"))  # fmt: skip

    def _check_eye(self, n_rows: Any, n_cols: Any, k: Any) -> int:
        """``eye``'s sizes (non-negative ints) and diagonal offset (an int), which comes
        back `clamped` to the matrix."""
        check_int = self.check_int  # type: ignore[attr-defined]
        rows = check_int(n_rows, "n_rows", "eye", 0)
        cols = rows if n_cols is None else check_int(n_cols, "n_cols", "eye", 0)
        return clamped(check_int(k, "k", "eye"), rows, cols)

    @translated
    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        check_dlpack(self, x)
        kwargs: dict[str, Any] = {"copy": copy}
        if device is not None:
            kwargs["device"] = self.native_device(device, "from_dlpack")
        return self._f.from_dlpack(x, **kwargs)

    @translated
    def full(self, shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        self._check_fill(fill_value, "full")
        fill_value = self._check_fill_fits(fill_value, "full", dtype)
        return self._f.full(self._check_shape(shape, "full"), fill_value,
                            **self._dtype_kwargs(dtype, "full"),
                            **self._device_kwargs(device, "full"))  # fmt: skip

    @translated
    def full_like(
        self, x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None
    ) -> Any:
        self._check_fill(fill_value, "full_like")
        fill_value = self._check_fill_fits(fill_value, "full_like", dtype, x)
        return self._f.full_like(x, fill_value, **self._dtype_kwargs(dtype, "full_like"),
                                 **self._device_kwargs(device, "full_like"))  # fmt: skip

    @translated
    def linspace(
        self, start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
        endpoint: bool = True,
    ) -> Any:  # fmt: skip
        self.check_int(num, "num", "linspace", 0)  # type: ignore[attr-defined]
        start, stop = self._python_bounds(start, stop)
        start, stop = self._linspace_ends(start, stop, dtype)
        name = None if dtype is None else self.dtype_name(self.check_dtype(dtype, "linspace"))
        if name is None and _any_complex(start, stop):
            name = self.default_dtype_names()["complex floating"]
        if name is not None and name.startswith("complex"):
            return self._complex_linspace(start, stop, num, name, device, endpoint)
        if self.linspace_in_steps and (name is None or name.startswith("float")):
            return self._stepped_linspace(start, stop, num, dtype, device, endpoint)
        return self._f.linspace(start, stop, num, endpoint=endpoint,
                                **self._dtype_kwargs(dtype, "linspace"),
                                **self._device_kwargs(device, "linspace"))  # fmt: skip

    def _stepped_linspace(self, start: Any, stop: Any, num: int, dtype: Any, device: Any,
                          endpoint: bool) -> Any:  # fmt: skip
        """A real ``linspace`` as ``start + i * step`` (``step`` from float64 ends), its
        last value ``stop`` itself: exact wherever the points are (integers, halves, ...),
        as NumPy's is; for a backend whose own ``linspace`` interpolates in the dtype
        (JAX's float32 ``linspace(-4, 7, 12)`` gives -1.0000001, and -2.4e-07 for a 0)."""
        divisions = (num - 1 if endpoint else num) if num > 1 else 1
        step = (float(stop) - float(start)) / divisions
        target = self.native_dtype(self.default_dtype_names()["real floating"]) \
            if dtype is None else self.check_dtype(dtype, "linspace")
        index = self.arange(num, dtype=target, device=device)  # type: ignore[attr-defined]
        values = self.add(self.multiply(index, step), start)  # type: ignore[attr-defined]
        if endpoint and num > 1:
            last = self.full((1,), stop, dtype=target, device=device)
            values = self.concat([values[:-1], last])  # type: ignore[attr-defined]
        return values

    def _complex_linspace(self, start: Any, stop: Any, num: int, name: str, device: Any,
                          endpoint: bool) -> Any:  # fmt: skip
        """A complex ``linspace`` as the standard spaces it: the real and imaginary parts
        each a real ``linspace`` of the matching precision, joined exactly (``re + im * 1j``
        adds and multiplies by zero only).  Frameworks that space in complex arithmetic
        round where the real one does not (JAX's complex64 ``linspace(0, 11, 12)`` gives
        9.000001), and Dask takes no complex ends."""
        real = self.native_dtype("float32" if name == "complex64" else "float64")
        target = self.native_dtype(name)
        first, last = complex(start), complex(stop)
        parts = [self.linspace(a, b, num, dtype=real, device=device, endpoint=endpoint)
                 for a, b in ((first.real, last.real), (first.imag, last.imag))]  # fmt: skip
        re, im = (self.astype(p, target) for p in parts)  # type: ignore[attr-defined]
        return self.add(re, self.multiply(im, 1j))  # type: ignore[attr-defined]

    @translated
    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...]:
        if indexing not in ("xy", "ij"):
            raise self.error("meshgrid", f"indexing must be 'xy' or 'ij', got {indexing!r}")
        for x in arrays:
            self.check_array(x, "meshgrid")
            if len(x.shape) != 1:
                raise self.error("meshgrid", f"expected 1-d arrays, got shape {tuple(x.shape)}")
        return tuple(self._f.meshgrid(*arrays, indexing=indexing))

    @translated
    def ones(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.ones(self._check_shape(shape, "ones"),
                            **self._dtype_kwargs(dtype, "ones"),
                            **self._device_kwargs(device, "ones"))  # fmt: skip

    @translated
    def ones_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.ones_like(x, **self._dtype_kwargs(dtype, "ones_like"),
                                 **self._device_kwargs(device, "ones_like"))  # fmt: skip

    @translated
    def tril(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix); any int ``k``
        works (beyond int64 too: NumPy raised `OverflowError`)."""
        x = self._matrices(x, "tril")
        return self._f.tril(x, k=self._diagonal(x, k, "tril"))

    @translated
    def triu(self, x: Any, /, *, k: int = 0) -> Any:
        """A 1-d ``x`` raises (NumPy would broadcast it to a square matrix); any int ``k``
        works (beyond int64 too: NumPy raised `OverflowError`)."""
        x = self._matrices(x, "triu")
        return self._f.triu(x, k=self._diagonal(x, k, "triu"))

    def _diagonal(self, x: Any, k: Any, function: str) -> int:
        """``tril``/``triu``'s ``k`` checked to be an int and `clamped` to ``x``'s matrices."""
        shape = tuple(x.shape)
        return clamped(self.check_int(k, "k", function), shape[-2], shape[-1])  # type: ignore[attr-defined]

    def _matrices(self, x: Any, function: str) -> Any:
        """``x`` checked to be a (stack of) matrices."""
        if len(x.shape) < 2:
            raise self.error(function, f"expected an array of at least 2 dimensions, got "
                                       f"shape {tuple(x.shape)}")  # fmt: skip
        return x

    @translated
    def zeros(self, shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.zeros(self._check_shape(shape, "zeros"),
                             **self._dtype_kwargs(dtype, "zeros"),
                             **self._device_kwargs(device, "zeros"))  # fmt: skip

    @translated
    def zeros_like(self, x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return self._f.zeros_like(x, **self._dtype_kwargs(dtype, "zeros_like"),
                                  **self._device_kwargs(device, "zeros_like"))  # fmt: skip


def clamped(k: int, rows: Any, cols: Any) -> int:
    """A diagonal offset ``k`` of a ``rows`` x ``cols`` matrix moved into ``[-rows,
    cols]``, which selects the same diagonals (``k >= cols`` or ``k <= -rows``: none), so
    that any Python int works where frameworks take int64 (torch: "Overflow when
    unpacking long long") or int32 (JAX without x64); an unknown size (None, NaN) counts
    as ``2**31``."""
    def size(n: Any) -> int:
        return 2**31 if n is None or n != n else int(n)

    return max(-size(rows), min(k, size(cols)))


def int64_bits(value: Any) -> Any:
    """A Python int as the int64 holding its low 64 bits (``2**64 - 1`` is -1), for
    counting uint64 values beyond 2**63 in int64, which wraps alike; other values as
    they are."""
    if isinstance(value, int) and value >= 2**63:
        return value - 2**64
    return value


def check_python_int(backend: Any, value: Any, name: str, function: str) -> None:
    """`OverflowError` where the Python int ``value`` lies outside the integer dtype ``name``
    (NumPy's rule, which the standard's test suite expects; frameworks would wrap it
    silently); other dtypes and values pass."""
    bounds = INT_RANGE.get(name)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise backend.error(function, f"the Python int {value} does not fit {name} (the "
                            f"values of {name} are {bounds[0]} to {bounds[1]})", OverflowError)  # fmt: skip


def int_beyond(obj: Any, name: str) -> int | None:
    """The first Python int in ``obj`` (a scalar or nested lists and tuples) outside the
    integer dtype ``name``, or None."""
    low, high = INT_RANGE[name]
    if isinstance(obj, int) and not isinstance(obj, bool):
        return None if low <= obj <= high else obj
    if isinstance(obj, (list, tuple)):
        for item in obj:
            found = int_beyond(item, name)
            if found is not None:
                return found
    return None


def _floats_to_ints(backend: Any, obj: Any, name: str, function: str) -> Any:
    """`CreationFunctions._truncated_floats` on one entry or nested sequence: the same
    object where nothing in it changes (a list is copied only around a float)."""
    if isinstance(obj, float):
        if obj != obj:
            raise backend.error(function, f"cannot make an array of dtype {name} of the Python "
                                f"float nan (NaN has no integer value)", ValueError)  # fmt: skip
        if obj in (math.inf, -math.inf):
            raise backend.error(function, f"cannot make an array of dtype {name} of the Python "
                                f"float {obj} (an infinity has no integer value)",
                                OverflowError)  # fmt: skip
        return int(obj)  # toward zero, as NumPy stores it
    if isinstance(obj, (list, tuple)):
        items = [_floats_to_ints(backend, item, name, function) for item in obj]
        if any(new is not old for new, old in zip(items, obj)):
            return type(obj)(items) if type(obj) in (list, tuple) else items
    return obj


def _only_ints(obj: Any) -> bool:
    """Whether every entry of the nested lists and tuples ``obj`` is a Python int."""
    if isinstance(obj, (list, tuple)):
        return all(_only_ints(o) for o in obj)
    return isinstance(obj, int)


def check_inferred(backend: Any, obj: Any, inferred: Any, function: str) -> None:
    """The NumPy array ``inferred`` that ``numpy.asarray(obj)`` made without a dtype holds
    a dtype of the standard: Python ints alone, one of them beyond the default integer
    dtype (NumPy makes ``uint64``, ``float64`` or ``object`` of them), raise
    `OverflowError`; other ``object`` or string results `TypeError`."""
    kind = inferred.dtype.kind
    if kind in "uOf" and isinstance(obj, (int, list, tuple)) and (
            kind != "f" or (abs(inferred) >= 2.0**63).any()) and _only_ints(obj):  # fmt: skip
        default = backend.default_dtype_names()["integral"]
        big = int_beyond(obj, default)
        if big is not None:
            check_python_int(backend, big, default, function)
    if kind in "OSUV":
        raise backend.error(function, f"{obj!r:.80} has no dtype of the standard (NumPy "
                            f"makes {inferred.dtype})", TypeError)  # fmt: skip


def native_order(backend: Any, x: Any, copy: bool | None, function: str) -> Any:
    """The NumPy array ``x`` in the machine's byte order: ``x`` itself, or a copy of it when
    it is byte-swapped (``arr.astype('>f4')``, read from a file: the standard's dtypes are
    the native ones, and torch and JAX refuse swapped arrays); `ValueError` where
    ``copy=False`` forbids that copy."""
    if x.dtype.isnative:
        return x
    if copy is False:
        raise backend.error(function, f"copy=False, but an array of byte order "
                            f"{x.dtype.str!r} needs a copy in the native order")  # fmt: skip
    return x.astype(x.dtype.newbyteorder("="))


def compact_numpy(backend: Any, x: Any, copy: bool | None, function: str,
                  negative_only: bool = False) -> tuple[Any, bool | None]:  # fmt: skip
    """A NumPy producer for ``from_dlpack`` whose strides the framework imports: a
    C-contiguous copy of an array with other strides (JAX imports compact strides only;
    torch, ``negative_only``, aborts the process on negative ones), and the ``copy`` left
    to ask of the framework; `ValueError` where ``copy=False`` forbids the copy.  Other
    producers pass as they are."""
    np = sys.modules.get("numpy")  # (not loaded: ``x`` is no NumPy array)
    if np is None or not isinstance(x, np.ndarray):
        return x, copy
    if negative_only:
        if not any(s < 0 for s in x.strides):
            return x, copy
    elif x.flags.c_contiguous:
        return x, copy
    if copy is False:
        raise backend.error(function, f"copy=False, but a NumPy array of strides {x.strides} "
                            "cannot be shared: it needs a copy")  # fmt: skip
    return x.copy(order="C"), None


def check_dlpack(backend: Any, x: Any) -> None:
    """``from_dlpack``'s ``x``: an object with ``__dlpack__`` (`TypeError` otherwise)."""
    if not hasattr(x, "__dlpack__"):
        raise backend.error("from_dlpack", f"expected an object with __dlpack__ (an array), "
                            f"got {type(x).__name__}", TypeError)  # fmt: skip


def operator_index(value: Any) -> int:
    """``operator.index`` that also names the offending value."""
    import operator

    return operator.index(value)


__all__ = ["CreationFunctions", "Device"]


def _any_complex(*values: Any) -> bool:
    """Whether a Python complex is among ``linspace``'s ends."""
    return any(isinstance(v, complex) for v in values)
