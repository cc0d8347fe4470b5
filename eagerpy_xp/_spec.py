"""Names and signatures of the Array API standard, revision 2025.12 (facts of the spec).

Used to build and check every namespace; the signature strings are the spec's own.
"""

from __future__ import annotations

API_VERSION = "2025.12"
SUPPORTED_API_VERSIONS = ("2023.12", "2024.12", "2025.12")

FUNCTIONS: dict[str, str] = {
    "arange": "arange(start, /, stop=None, step=1, *, dtype=None, device=None)",
    "asarray": "asarray(obj, /, *, dtype=None, device=None, copy=None)",
    "empty": "empty(shape, *, dtype=None, device=None)",
    "empty_like": "empty_like(x, /, *, dtype=None, device=None)",
    "eye": "eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)",
    "from_dlpack": "from_dlpack(x, /, *, device=None, copy=None)",
    "full": "full(shape, fill_value, *, dtype=None, device=None)",
    "full_like": "full_like(x, /, fill_value, *, dtype=None, device=None)",
    "linspace": "linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True)",
    "meshgrid": "meshgrid(*arrays, indexing='xy')",
    "ones": "ones(shape, *, dtype=None, device=None)",
    "ones_like": "ones_like(x, /, *, dtype=None, device=None)",
    "tril": "tril(x, /, *, k=0)",
    "triu": "triu(x, /, *, k=0)",
    "zeros": "zeros(shape, *, dtype=None, device=None)",
    "zeros_like": "zeros_like(x, /, *, dtype=None, device=None)",
    "astype": "astype(x, dtype, /, *, copy=True, device=None)",
    "can_cast": "can_cast(from_, to, /)",
    "finfo": "finfo(type, /)",
    "iinfo": "iinfo(type, /)",
    "isdtype": "isdtype(dtype, kind)",
    "result_type": "result_type(*arrays_and_dtypes)",
    "abs": "abs(x, /)",
    "acos": "acos(x, /)",
    "acosh": "acosh(x, /)",
    "add": "add(x1, x2, /)",
    "asin": "asin(x, /)",
    "asinh": "asinh(x, /)",
    "atan": "atan(x, /)",
    "atan2": "atan2(x1, x2, /)",
    "atanh": "atanh(x, /)",
    "bitwise_and": "bitwise_and(x1, x2, /)",
    "bitwise_left_shift": "bitwise_left_shift(x1, x2, /)",
    "bitwise_invert": "bitwise_invert(x, /)",
    "bitwise_or": "bitwise_or(x1, x2, /)",
    "bitwise_right_shift": "bitwise_right_shift(x1, x2, /)",
    "bitwise_xor": "bitwise_xor(x1, x2, /)",
    "ceil": "ceil(x, /)",
    "clip": "clip(x, /, min=None, max=None)",
    "conj": "conj(x, /)",
    "copysign": "copysign(x1, x2, /)",
    "cos": "cos(x, /)",
    "cosh": "cosh(x, /)",
    "divide": "divide(x1, x2, /)",
    "equal": "equal(x1, x2, /)",
    "exp": "exp(x, /)",
    "expm1": "expm1(x, /)",
    "floor": "floor(x, /)",
    "floor_divide": "floor_divide(x1, x2, /)",
    "greater": "greater(x1, x2, /)",
    "greater_equal": "greater_equal(x1, x2, /)",
    "hypot": "hypot(x1, x2, /)",
    "imag": "imag(x, /)",
    "isfinite": "isfinite(x, /)",
    "isinf": "isinf(x, /)",
    "isnan": "isnan(x, /)",
    "less": "less(x1, x2, /)",
    "less_equal": "less_equal(x1, x2, /)",
    "log": "log(x, /)",
    "log1p": "log1p(x, /)",
    "log2": "log2(x, /)",
    "log10": "log10(x, /)",
    "logaddexp": "logaddexp(x1, x2, /)",
    "logical_and": "logical_and(x1, x2, /)",
    "logical_not": "logical_not(x, /)",
    "logical_or": "logical_or(x1, x2, /)",
    "logical_xor": "logical_xor(x1, x2, /)",
    "maximum": "maximum(x1, x2, /)",
    "minimum": "minimum(x1, x2, /)",
    "multiply": "multiply(x1, x2, /)",
    "negative": "negative(x, /)",
    "nextafter": "nextafter(x1, x2, /)",
    "not_equal": "not_equal(x1, x2, /)",
    "positive": "positive(x, /)",
    "pow": "pow(x1, x2, /)",
    "real": "real(x, /)",
    "reciprocal": "reciprocal(x, /)",
    "remainder": "remainder(x1, x2, /)",
    "round": "round(x, /)",
    "sign": "sign(x, /)",
    "signbit": "signbit(x, /)",
    "sin": "sin(x, /)",
    "sinh": "sinh(x, /)",
    "square": "square(x, /)",
    "sqrt": "sqrt(x, /)",
    "subtract": "subtract(x1, x2, /)",
    "tan": "tan(x, /)",
    "tanh": "tanh(x, /)",
    "trunc": "trunc(x, /)",
    "take": "take(x, indices, /, *, axis=None)",
    "take_along_axis": "take_along_axis(x, indices, /, *, axis=-1)",
    "matmul": "matmul(x1, x2, /)",
    "matrix_transpose": "matrix_transpose(x, /)",
    "tensordot": "tensordot(x1, x2, /, *, axes=2)",
    "vecdot": "vecdot(x1, x2, /, *, axis=-1)",
    "broadcast_arrays": "broadcast_arrays(*arrays)",
    "broadcast_shapes": "broadcast_shapes(*shapes)",
    "broadcast_to": "broadcast_to(x, /, shape)",
    "concat": "concat(arrays, /, *, axis=0)",
    "expand_dims": "expand_dims(x, /, axis)",
    "flip": "flip(x, /, *, axis=None)",
    "moveaxis": "moveaxis(x, source, destination, /)",
    "permute_dims": "permute_dims(x, /, axes)",
    "repeat": "repeat(x, repeats, /, *, axis=None)",
    "reshape": "reshape(x, /, shape, *, copy=None)",
    "roll": "roll(x, /, shift, *, axis=None)",
    "squeeze": "squeeze(x, /, axis)",
    "stack": "stack(arrays, /, *, axis=0)",
    "tile": "tile(x, repetitions, /)",
    "unstack": "unstack(x, /, *, axis=0)",
    "argmax": "argmax(x, /, *, axis=None, keepdims=False)",
    "argmin": "argmin(x, /, *, axis=None, keepdims=False)",
    "count_nonzero": "count_nonzero(x, /, *, axis=None, keepdims=False)",
    "nonzero": "nonzero(x, /)",
    "searchsorted": "searchsorted(x1, x2, /, *, side='left', sorter=None)",
    "where": "where(condition, x1, x2, /)",
    "isin": "isin(x1, x2, /, *, invert=False)",
    "unique_all": "unique_all(x, /)",
    "unique_counts": "unique_counts(x, /)",
    "unique_inverse": "unique_inverse(x, /)",
    "unique_values": "unique_values(x, /)",
    "argsort": "argsort(x, /, *, axis=-1, descending=False, stable=True)",
    "sort": "sort(x, /, *, axis=-1, descending=False, stable=True)",
    "cumulative_prod": "cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False)",
    "cumulative_sum": "cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False)",
    "max": "max(x, /, *, axis=None, keepdims=False)",
    "mean": "mean(x, /, *, axis=None, keepdims=False)",
    "min": "min(x, /, *, axis=None, keepdims=False)",
    "prod": "prod(x, /, *, axis=None, dtype=None, keepdims=False)",
    "std": "std(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "sum": "sum(x, /, *, axis=None, dtype=None, keepdims=False)",
    "var": "var(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "all": "all(x, /, *, axis=None, keepdims=False)",
    "any": "any(x, /, *, axis=None, keepdims=False)",
    "diff": "diff(x, /, *, axis=-1, n=1, prepend=None, append=None)",
}

LINALG: dict[str, str] = {
    "cholesky": "cholesky(x, /, *, upper=False)",
    "cross": "cross(x1, x2, /, *, axis=-1)",
    "det": "det(x, /)",
    "diagonal": "diagonal(x, /, *, offset=0)",
    "eig": "eig(x, /)",
    "eigh": "eigh(x, /)",
    "eigvals": "eigvals(x, /)",
    "eigvalsh": "eigvalsh(x, /)",
    "inv": "inv(x, /)",
    "matmul": "matmul(x1, x2, /)",
    "matrix_norm": "matrix_norm(x, /, *, keepdims=False, ord='fro')",
    "matrix_power": "matrix_power(x, n, /)",
    "matrix_rank": "matrix_rank(x, /, *, rtol=None)",
    "matrix_transpose": "matrix_transpose(x, /)",
    "outer": "outer(x1, x2, /)",
    "pinv": "pinv(x, /, *, rtol=None)",
    "qr": "qr(x, /, *, mode='reduced')",
    "slogdet": "slogdet(x, /)",
    "solve": "solve(x1, x2, /)",
    "svd": "svd(x, /, *, full_matrices=True)",
    "svdvals": "svdvals(x, /)",
    "tensordot": "tensordot(x1, x2, /, *, axes=2)",
    "trace": "trace(x, /, *, offset=0, dtype=None)",
    "vecdot": "vecdot(x1, x2, /, *, axis=-1)",
    "vector_norm": "vector_norm(x, /, *, axis=None, keepdims=False, ord=2)",
}

FFT: dict[str, str] = {
    "fft": "fft(x, /, *, n=None, axis=-1, norm='backward')",
    "ifft": "ifft(x, /, *, n=None, axis=-1, norm='backward')",
    "fftn": "fftn(x, /, *, s=None, axes=None, norm='backward')",
    "ifftn": "ifftn(x, /, *, s=None, axes=None, norm='backward')",
    "rfft": "rfft(x, /, *, n=None, axis=-1, norm='backward')",
    "irfft": "irfft(x, /, *, n=None, axis=-1, norm='backward')",
    "rfftn": "rfftn(x, /, *, s=None, axes=None, norm='backward')",
    "irfftn": "irfftn(x, /, *, s=None, axes=None, norm='backward')",
    "hfft": "hfft(x, /, *, n=None, axis=-1, norm='backward')",
    "ihfft": "ihfft(x, /, *, n=None, axis=-1, norm='backward')",
    "fftfreq": "fftfreq(n, /, *, d=1.0, dtype=None, device=None)",
    "rfftfreq": "rfftfreq(n, /, *, d=1.0, dtype=None, device=None)",
    "fftshift": "fftshift(x, /, *, axes=None)",
    "ifftshift": "ifftshift(x, /, *, axes=None)",
}

ARRAY_PROPERTIES: tuple[str, ...] = (
    "dtype",
    "device",
    "mT",
    "ndim",
    "shape",
    "size",
    "T",
)

ARRAY_METHODS: dict[str, str] = {
    "__abs__": "__abs__(self, /)",
    "__add__": "__add__(self, other, /)",
    "__and__": "__and__(self, other, /)",
    "__array_namespace__": "__array_namespace__(self, /, *, api_version=None)",
    "__bool__": "__bool__(self, /)",
    "__complex__": "__complex__(self, /)",
    "__dlpack__": "__dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None)",
    "__dlpack_device__": "__dlpack_device__(self, /)",
    "__eq__": "__eq__(self, other, /)",
    "__float__": "__float__(self, /)",
    "__floordiv__": "__floordiv__(self, other, /)",
    "__ge__": "__ge__(self, other, /)",
    "__getitem__": "__getitem__(self, key, /)",
    "__gt__": "__gt__(self, other, /)",
    "__index__": "__index__(self, /)",
    "__int__": "__int__(self, /)",
    "__invert__": "__invert__(self, /)",
    "__le__": "__le__(self, other, /)",
    "__lshift__": "__lshift__(self, other, /)",
    "__lt__": "__lt__(self, other, /)",
    "__matmul__": "__matmul__(self, other, /)",
    "__mod__": "__mod__(self, other, /)",
    "__mul__": "__mul__(self, other, /)",
    "__ne__": "__ne__(self, other, /)",
    "__neg__": "__neg__(self, /)",
    "__or__": "__or__(self, other, /)",
    "__pos__": "__pos__(self, /)",
    "__pow__": "__pow__(self, other, /)",
    "__rshift__": "__rshift__(self, other, /)",
    "__setitem__": "__setitem__(self, key, value, /)",
    "__sub__": "__sub__(self, other, /)",
    "__truediv__": "__truediv__(self, other, /)",
    "__xor__": "__xor__(self, other, /)",
    "to_device": "to_device(self, device, /, *, stream=None)",
}

#: The array object's binary operators with reflected (``__radd__``) and in-place
#: (``__iadd__``) forms -> the element-wise function each calls (``x + y`` is ``add``;
#: ``2 + x`` and ``x += 2`` are ``add`` too).  With `COMPARISON_OPERATORS` and
#: `UNARY_OPERATORS`, the one map from operators to functions.
ARITHMETIC_OPERATORS: dict[str, str] = {
    "__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow",
    "__matmul__": "matmul", "__and__": "bitwise_and", "__or__": "bitwise_or",
    "__xor__": "bitwise_xor", "__lshift__": "bitwise_left_shift",
    "__rshift__": "bitwise_right_shift",
}  # fmt: skip
#: The comparison operators (no reflected or in-place forms) -> their functions.
COMPARISON_OPERATORS: dict[str, str] = {
    "__eq__": "equal", "__ne__": "not_equal", "__lt__": "less", "__le__": "less_equal",
    "__gt__": "greater", "__ge__": "greater_equal",
}  # fmt: skip
#: The unary operators -> their functions.
UNARY_OPERATORS: dict[str, str] = {
    "__abs__": "abs", "__neg__": "negative", "__pos__": "positive", "__invert__": "bitwise_invert",
}  # fmt: skip


#: The binary operators an `Array` runs from its operator table, by position
#: (`fastpath.OperatorTable`): forward, reflected (``__radd__``), then comparisons.
BINARY_DUNDERS: tuple[str, ...] = (
    *ARITHMETIC_OPERATORS,
    *("__r" + d[2:] for d in ARITHMETIC_OPERATORS),
    *COMPARISON_OPERATORS,
)
#: The unary operators, by position in `fastpath.OperatorTable.unary`.
UNARY_DUNDERS: tuple[str, ...] = tuple(UNARY_OPERATORS)


def operator_function(dunder: str) -> str:
    """The function an operator calls: ``add`` for ``__add__``, ``__radd__`` and
    ``__iadd__``."""
    for table in (ARITHMETIC_OPERATORS, COMPARISON_OPERATORS, UNARY_OPERATORS):
        if dunder in table:
            return table[dunder]
    forward = "__" + dunder[3:]  # __radd__, __iadd__ -> __add__
    if dunder[2] in "ri" and forward in ARITHMETIC_OPERATORS:
        return ARITHMETIC_OPERATORS[forward]
    raise KeyError(dunder)


#: The element-wise functions behind the array object's operators -> how many arrays they
#: take.
OPERATOR_FUNCTIONS: dict[str, int] = {
    **{f: 2 for f in (*ARITHMETIC_OPERATORS.values(), *COMPARISON_OPERATORS.values())},
    **{f: 1 for f in UNARY_OPERATORS.values()},
}

CONSTANTS: tuple[str, ...] = ("e", "inf", "nan", "newaxis", "pi")
DTYPES: tuple[str, ...] = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
INFO_METHODS: dict[str, str] = {
    "capabilities": "capabilities()",
    "default_device": "default_device()",
    "default_dtypes": "default_dtypes(*, device=None)",
    "dtypes": "dtypes(*, device=None, kind=None)",
    "devices": "devices()",
}
