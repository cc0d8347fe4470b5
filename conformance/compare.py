"""Comparison of a target's result with the reference (array_api_strict) result.

Values are compared NaN-aware; exact results also signed-zero-aware; inexact ones within a
tolerance in units of the dtype's epsilon.  Complex values compare part by part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from eagerpy_xp._dtypes import ALL

from .harness import Target
from .strategies import Call

#: Tolerances: name -> (relative, in eps; absolute, in eps times the largest |expected|).
TOLERANCES: dict[str, tuple[float, float]] = {
    "exact": (0.0, 0.0),
    "close": (8.0, 0.0),
    "spaced": (8.0, 8.0),  # close, and absolute errors of the inputs' size (linspace)
    "transcendental": (64.0, 4.0),
    "loose": (256.0, 256.0),
}


def is_strict_array(obj: Any) -> bool:
    from array_api_strict._array_object import Array

    return isinstance(obj, Array)


#: The spec functions whose result dtype, without a ``dtype=`` argument, is a default dtype.
DEFAULT_DTYPE_FUNCTIONS = frozenset({
    "arange", "asarray", "empty", "eye", "full", "linspace", "ones", "zeros", "fftfreq",
    "rfftfreq",
})  # fmt: skip
_STRICT_DEFAULTS = {"real floating": "float64", "complex floating": "complex128",
                    "integral": "int64", "indexing": "int64"}  # fmt: skip


def default_dtype_map(target: Target) -> dict[str, str]:
    """Reference default dtype -> the target's default dtype, where they differ."""
    defaults = target.function("__array_namespace_info__")().default_dtypes(device=target.dev)
    mapping = {}
    for kind, name in _STRICT_DEFAULTS.items():
        if kind == "complex floating" and {"complex64", "complex128"} <= target.unheld:
            continue  # no complex dtype at all (ndonnx): no complex result to map
        mine = target.dtype_name(defaults[kind])
        if mine != name:
            mapping[name] = mine
    return mapping


def strict_dtype_name(dtype: Any) -> str:
    import array_api_strict as xs

    for name in ALL:
        if dtype == getattr(xs, name):
            return name
    raise AssertionError(f"not a dtype of array_api_strict: {dtype!r}")


def _parts(a: np.ndarray) -> list[np.ndarray]:
    if a.dtype.kind == "c":
        return [a.real, a.imag]
    return [a]


def values_mismatch(actual: np.ndarray, expected: np.ndarray, tol: str,
                    mask: np.ndarray | None = None, scale: float = 0.0,
                    flushes: bool = False) -> str | None:  # fmt: skip
    """A description of where ``actual`` and ``expected`` differ, or None.  ``scale``
    raises the magnitude the absolute tolerance is relative to (for results that cancel,
    such as the spread of constant data, the inputs' magnitude).  ``flushes``: a
    flush-to-zero target, whose exact results below the smallest normal number are not
    told apart either (XLA's and TensorFlow's ``nextafter(0, 2e-313)`` compares the
    operands as equal and returns ``2e-313``; the exact result is ``5e-324``)."""
    if mask is not None:
        keep = ~np.broadcast_to(mask, expected.shape)
        actual, expected = actual[keep], expected[keep]
    if expected.dtype.kind in "biu" or expected.dtype.kind == "O":
        bad = actual != expected
    else:
        rel, absolute = TOLERANCES[tol]
        real = np.finfo(expected.dtype).eps if expected.size else 0.0
        bad = np.zeros(expected.shape, dtype=bool)
        # complex values: errors relative to the magnitude, not to each part
        magnitude = np.abs(expected.astype(np.complex128)) if expected.dtype.kind == "c" else None
        everything = np.abs(expected.astype(np.complex128))
        scale = max(scale, np.max(everything[np.isfinite(everything)], initial=0.0))
        for a, e in zip(_parts(actual), _parts(expected)):
            a64, e64 = a.astype(np.float64), e.astype(np.float64)
            nan_a, nan_e = np.isnan(a64), np.isnan(e64)
            bad |= nan_a != nan_e
            both = ~(nan_a | nan_e)
            if tol == "exact":
                differ = both & ((a64 != e64) | (np.signbit(a64) != np.signbit(e64)))
                if flushes:
                    tiny = np.finfo(e.dtype).tiny
                    differ &= ~((np.abs(a64) < tiny) & (np.abs(e64) < tiny)
                                & (np.signbit(a64) == np.signbit(e64)))  # fmt: skip
                bad |= differ
                continue
            finite = np.isfinite(e64) & np.isfinite(a64)
            # at the overflow threshold, within the tolerance of the largest finite value,
            # inf and that value are the same answer rounded (TensorFlow's square(1.34e154
            # + 1e146j) has an infinite real part where the exact one is 1.79769e308)
            top = float(np.finfo(e.dtype).max) * (1 - rel * real)
            with np.errstate(invalid="ignore"):
                edge = (np.sign(a64) == np.sign(e64)) & (np.abs(a64) >= top) & (np.abs(e64) >= top)
            bad |= both & ~finite & (a64 != e64) & ~edge
            # a finite part beside an infinite one (the magnitude overflowed): relative to
            # the largest finite magnitude (``square(9.5e153 * (1 + 1j))`` cancels in its
            # real part ``a*a - b*b``, of the order of eps * 1e308)
            beside = np.where(np.isfinite(e64), float(np.finfo(e.dtype).max), np.abs(e64))
            size = np.abs(e64) if magnitude is None else np.where(np.isfinite(magnitude),
                                                                   magnitude, beside)
            limit = rel * real * size + absolute * real * scale
            with np.errstate(invalid="ignore", over="ignore"):
                diff = np.abs(a64 - e64)
            # below the smallest normal number nothing counts: TensorFlow and XLA flush
            # subnormal results to zero on the CPU
            bad |= finite & (diff > np.maximum(limit, np.finfo(e.dtype).tiny))
    if not np.any(bad):
        return None
    where = np.argwhere(bad)[:5]
    shown = ", ".join(f"{tuple(int(i) for i in w)}: got {actual[tuple(w)]!r}, "
                      f"expected {expected[tuple(w)]!r}" for w in where)  # fmt: skip
    return f"{int(np.sum(bad))} of {expected.size} values differ ({shown})"


def assert_matches(target: Target, result: Any, reference: Any, *, tol: str = "exact",
                   mask: np.ndarray | None = None, what: str = "result",
                   dtype_map: dict[str, str] | None = None, scale: float = 0.0) -> None:  # fmt: skip
    """Assert a target's result equals the array_api_strict result (recursively);
    ``scale``: see `values_mismatch`.

    ``dtype_map`` maps a reference dtype to the one the target must give instead (a
    namespace whose default floating dtype is float32 creates float32 where
    array_api_strict creates float64); values are then compared in the target's dtype.
    """
    if is_strict_array(reference):
        assert target.is_array(result), (
            f"{what}: expected an array of {target.id}, got {type(result).__module__}."
            f"{type(result).__qualname__}"
        )
        expected_dtype = strict_dtype_name(reference.dtype)
        expected_dtype = (dtype_map or {}).get(expected_dtype, expected_dtype)
        got_dtype = target.dtype_name(result.dtype)
        assert got_dtype == expected_dtype, f"{what}: dtype {got_dtype}, expected {expected_dtype}"
        # a size the target does not know yet (a data-dependent shape: None, or Dask's NaN)
        # matches any size; the computed values' shape is checked below
        got_shape = tuple(None if d is None or d != d else d for d in result.shape)
        assert len(got_shape) == len(reference.shape) and all(
            g is None or g == e for g, e in zip(got_shape, reference.shape)), (
            f"{what}: shape {got_shape}, expected {tuple(reference.shape)}")
        expected = np.asarray(reference).astype(expected_dtype, copy=False)
        actual = target.to_numpy(result)
        assert actual.shape == expected.shape, (
            f"{what}: computed shape {actual.shape}, expected {expected.shape}")
        problem = values_mismatch(actual, expected, tol, mask, scale, target.flushes_subnormals)
        assert problem is None, f"{what}: {problem}"
    elif isinstance(reference, (tuple, list)):
        assert isinstance(result, (tuple, list)), f"{what}: expected a sequence, got {result!r}"
        assert len(result) == len(reference), (
            f"{what}: {len(result)} items, expected {len(reference)}")
        fields = getattr(reference, "_fields", None)
        if fields is not None:
            got = getattr(result, "_fields", None)
            assert got == fields, f"{what}: named fields {got}, expected {fields}"
        for i, (r, e) in enumerate(zip(result, reference)):
            label = fields[i] if fields else str(i)
            assert_matches(target, r, e, tol=tol, mask=mask, what=f"{what}[{label}]",
                           dtype_map=dtype_map)
    else:
        assert result == reference and type(result) is type(reference), (
            f"{what}: got {result!r}, expected {reference!r}")


def assert_or_flushed(target: Target, call: Call, compare: Callable[[Call], None]) -> None:
    """``compare(call)``; a flush-to-zero target (`Target.flushes_subnormals`) may instead
    match the call with its subnormal inputs flushed to zero."""
    try:
        compare(call)
    except AssertionError:
        variants = call.flushed_variants() if target.flushes_subnormals else []
        if not variants:
            raise
        for variant in variants[:-1]:
            try:
                compare(variant)
                return
            except AssertionError:
                pass
        compare(variants[-1])
