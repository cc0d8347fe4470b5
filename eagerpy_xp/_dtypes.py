"""Dtype facts of the standard, by dtype name, shared by every backend.

Backends map their own dtype objects to these names (``"float32"``, ...); the type
promotion table, the kind groups of `isdtype` and the default dtypes live here once.
"""

from __future__ import annotations

BOOL = ("bool",)
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGRAL = SIGNED + UNSIGNED
REAL_FLOATING = ("float32", "float64")
COMPLEX_FLOATING = ("complex64", "complex128")
NUMERIC = INTEGRAL + REAL_FLOATING + COMPLEX_FLOATING
ALL = BOOL + NUMERIC

#: The kind names accepted by `isdtype` and `__array_namespace_info__().dtypes(kind=...)`.
KINDS: dict[str, tuple[str, ...]] = {
    "bool": BOOL,
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integral": INTEGRAL,
    "real floating": REAL_FLOATING,
    "complex floating": COMPLEX_FLOATING,
    "numeric": NUMERIC,
}

#: The dtype categories that the standard's signatures name ("x: Should have a
#: floating-point data type"), as dtype names.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "numeric": NUMERIC,
    "real numeric": INTEGRAL + REAL_FLOATING,
    "floating-point": REAL_FLOATING + COMPLEX_FLOATING,
    "real floating-point": REAL_FLOATING,
    "complex floating-point": COMPLEX_FLOATING,
    "integer": INTEGRAL,
    "integer or boolean": BOOL + INTEGRAL,
    "boolean": BOOL,
}


def _category_table() -> dict[str, str]:
    by_category = {
        "numeric": "abs add conj cumulative_prod cumulative_sum divide isfinite isinf isnan multiply "
                   "negative positive pow prod real round sign square subtract sum "
                   "matmul tensordot vecdot cross outer trace",
        "real numeric": "argmax argmin argsort ceil clip floor floor_divide greater "
                        "greater_equal less less_equal max maximum min minimum remainder "
                        "searchsorted sort trunc",
        "floating-point": "acos acosh asin asinh atan atanh cos cosh exp expm1 log "
                          "log1p log2 log10 mean reciprocal sin sinh sqrt tan tanh "
                          "cholesky det eig eigh eigvals eigvalsh inv matrix_norm "
                          "matrix_power matrix_rank pinv qr slogdet solve svd svdvals "
                          "vector_norm",
        "real floating-point": "atan2 copysign hypot logaddexp nextafter signbit std var "
                               "rfft rfftn ihfft",
        "complex floating-point": "imag fft ifft fftn ifftn irfft irfftn hfft",
        "integer or boolean": "bitwise_and bitwise_invert bitwise_or bitwise_xor",
        "integer": "bitwise_left_shift bitwise_right_shift",
        "boolean": "logical_and logical_not logical_or logical_xor",
    }  # fmt: skip
    return {name: category for category, names in by_category.items() for name in names.split()}


#: Function name (bare: ``cholesky`` for ``linalg.cholesky``, ``fft`` for ``fft.fft``; the
#: names shared by the main namespace and ``linalg`` have one category) -> the category
#: every array argument must have; absent: any dtype.  A dtype outside it is a
#: `TypeError` (docs/errors.md), as in ``array_api_strict``.
CATEGORY_OF: dict[str, str] = _category_table()
#: Functions whose fast cases (the lanes of `native/_base/elementwise.py`) hold a narrower
#: category than the function: ``divide`` takes integer arrays, whose true division gives
#: the namespace's default floating dtype as every framework's does (DESIGN.md, "Spec
#: first"; the standard leaves integer operands to the implementation), through each
#: backend's full path; its lanes hold the floating-point dtypes, whose results keep theirs.
LANE_CATEGORY_OF: dict[str, str] = {"divide": "floating-point"}

BITS = {
    "bool": 8,
    "int8": 8, "int16": 16, "int32": 32, "int64": 64,
    "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
    "float32": 32, "float64": 64, "complex64": 64, "complex128": 128,
}  # fmt: skip

#: The lowest and highest value of each integer dtype.
INT_RANGE: dict[str, tuple[int, int]] = {
    **{n: (-(2 ** (BITS[n] - 1)), 2 ** (BITS[n] - 1) - 1) for n in SIGNED},
    **{n: (0, 2 ** BITS[n] - 1) for n in UNSIGNED},
}

#: The Python ints the fast cases' int lanes pass to the framework as they are
#: (`fastpath.BinaryCase`): ``int32``'s range.  Hot paths read these two names (a global
#: read, as cheap as a literal once the interpreter has specialised it).
LANE_MIN, LANE_MAX = INT_RANGE["int32"]

#: Real dtype of a complex one and back.
REAL_OF_COMPLEX = {"complex64": "float32", "complex128": "float64"}
COMPLEX_OF_REAL = {"float32": "complex64", "float64": "complex128"}


def kind_of(name: str) -> str:
    """The kind group of a dtype name: bool, signed/unsigned integer, real/complex floating."""
    for kind in ("bool", "signed integer", "unsigned integer", "real floating", "complex floating"):
        if name in KINDS[kind]:
            return kind
    raise ValueError(f"not a standard dtype name: {name!r}")


def _build_promotion_table() -> dict[tuple[str, str], str]:
    table: dict[tuple[str, str], str] = {("bool", "bool"): "bool"}
    for group in (SIGNED, UNSIGNED, REAL_FLOATING, COMPLEX_FLOATING):
        for a in group:
            for b in group:
                table[a, b] = a if BITS[a] >= BITS[b] else b
    # mixed signed/unsigned: the smallest signed type holding both (none for uint64)
    for u in UNSIGNED[:-1]:
        for s in SIGNED:
            bits = max(BITS[s], 2 * BITS[u])
            table[u, s] = table[s, u] = f"int{bits}"
    # mixed real/complex floating: the complex type with the larger precision
    for f in REAL_FLOATING:
        for c in COMPLEX_FLOATING:
            bits = max(BITS[f], BITS[REAL_OF_COMPLEX[c]])
            table[f, c] = table[c, f] = COMPLEX_OF_REAL[f"float{bits}"]
    return table


#: The standard's promotion table for two array dtypes (names); absent pairs have no
#: defined result (mixed kinds, uint64 with a signed integer).
PROMOTION_TABLE: dict[tuple[str, str], str] = _build_promotion_table()


def promote(a: str, b: str) -> str | None:
    """The promoted dtype name of two dtype names, or ``None`` where the standard has none."""
    return PROMOTION_TABLE.get((a, b))


def scalar_kind_ok(dtype_name: str, scalar: object) -> bool:
    """Whether a Python scalar may meet an array of this dtype (the spec's scalar rules)."""
    kind = kind_of(dtype_name)
    if isinstance(scalar, bool):
        return kind == "bool"
    if isinstance(scalar, int):
        return kind != "bool"
    if isinstance(scalar, float):
        return kind in ("real floating", "complex floating")
    if isinstance(scalar, complex):
        return kind == "complex floating"
    return False
