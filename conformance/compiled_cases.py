"""One representative call of every function of the standard, for the ``compiled`` area.

Each case is a portable function of the same seven arrays (`INPUTS`, made on the target
as its own arrays) that finds its namespace with ``eagerpy_xp.namespace`` and calls one
function of the standard (``linalg`` and ``fft`` included), one operator or indexing
form, or one EagerPy helper.  `conformance/test_compiled.py` runs each under the
target framework's compiler (`eagerpy_xp.jit`) and compares with the eager call.

``DATA_DEPENDENT`` are the functions whose result's shape depends on the values
(``nonzero``, ``unique_*``, a boolean-mask index, ``repeat`` with array repeats): XLA
(``jax.jit``, TensorFlow's ``jit_compile``) and ``torch.compile(fullgraph=True)`` cannot
compile them, so under a compiler they must raise the error contract's
`NotImplementedError` or compute the right answer, never crash or give a wrong one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import eagerpy_xp as ep
from eagerpy_xp._detect import REGISTRY


def _inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(2512)
    x = rng.uniform(-0.9, 0.9, (3, 4))
    a = rng.uniform(-1.0, 1.0, (3, 3))
    return {
        "x": x,  # float64 (3, 4) in (-0.9, 0.9)
        "y": rng.uniform(0.5, 2.0, (3, 4)),  # float64 (3, 4), positive
        "s": a @ a.T + 3.0 * np.eye(3),  # float64 (3, 3), symmetric positive definite
        "i": np.array([2, 0, 1], dtype=np.int64),  # int64 (3,), indices into axis 0
        "m": x > 0.0,  # bool (3, 4)
        "c": (rng.uniform(-1, 1, 8) + 1j * rng.uniform(-1, 1, 8)),  # complex128 (8,)
        "v": rng.uniform(-2.0, 2.0, 4),  # float64 (4,)
    }


#: The inputs every case takes, by name (NumPy arrays; the test makes them the target's).
INPUTS: dict[str, np.ndarray] = _inputs()

Case = Callable[..., Any]


def _xp(x: Any) -> Any:
    return ep.namespace(x)


def _setitem(x: Any, y: Any, s: Any, i: Any, m: Any, c: Any, v: Any) -> Any:
    xp = _xp(x)
    z = xp.asarray(x, copy=True)
    z[..., 0] = 0.0
    z[1, 1:3] = y[0, :2]
    return z


def _setitem_mask(x: Any, y: Any, s: Any, i: Any, m: Any, c: Any, v: Any) -> Any:
    xp = _xp(x)
    z = xp.asarray(x, copy=True)
    z[m] = 0.0
    return z


def _inplace(x: Any, y: Any, s: Any, i: Any, m: Any, c: Any, v: Any) -> Any:
    xp = _xp(x)
    z = xp.asarray(x, copy=True)
    z += y
    z *= 2.0
    return z


#: name -> case; names are the standard's (``linalg.solve``), an operator or indexing
#: form (``__matmul__``, ``__setitem__``), or an EagerPy helper (``ep.softmax``).
CASES: dict[str, Case] = {
    # -- creation -------------------------------------------------------------------------
    "arange": lambda x, y, s, i, m, c, v: _xp(x).arange(1, 7, 2, dtype=x.dtype) * x[0, 0],
    "asarray": lambda x, y, s, i, m, c, v: _xp(x).asarray(x, dtype=_xp(x).float32),
    "empty": lambda x, y, s, i, m, c, v: _xp(x).empty((2, 3), dtype=x.dtype).shape,
    "empty_like": lambda x, y, s, i, m, c, v: _xp(x).empty_like(x).shape,
    "eye": lambda x, y, s, i, m, c, v: _xp(x).eye(3, 4, k=1, dtype=x.dtype) + x,
    "from_dlpack": lambda x, y, s, i, m, c, v: _xp(x).from_dlpack(x) + 1.0,
    "full": lambda x, y, s, i, m, c, v: _xp(x).full((3, 4), 2.5, dtype=x.dtype) * x,
    "full_like": lambda x, y, s, i, m, c, v: _xp(x).full_like(x, -1.0) + x,
    "linspace": lambda x, y, s, i, m, c, v: _xp(x).linspace(0.0, 1.0, 4, dtype=x.dtype) * x,
    "meshgrid": lambda x, y, s, i, m, c, v: _xp(x).meshgrid(v, x[0], indexing="ij"),
    "ones": lambda x, y, s, i, m, c, v: _xp(x).ones((3, 4), dtype=x.dtype) - x,
    "ones_like": lambda x, y, s, i, m, c, v: _xp(x).ones_like(x) - x,
    "tril": lambda x, y, s, i, m, c, v: _xp(x).tril(x, k=-1),
    "triu": lambda x, y, s, i, m, c, v: _xp(x).triu(x, k=1),
    "zeros": lambda x, y, s, i, m, c, v: _xp(x).zeros((3, 4), dtype=x.dtype) + x,
    "zeros_like": lambda x, y, s, i, m, c, v: _xp(x).zeros_like(x) + x,
    # -- data types -----------------------------------------------------------------------
    "astype": lambda x, y, s, i, m, c, v: _xp(x).astype(x * 10.0, _xp(x).int32),
    "can_cast": lambda x, y, s, i, m, c, v: x * float(_xp(x).can_cast(x.dtype, _xp(x).float32)),
    "finfo": lambda x, y, s, i, m, c, v: x * _xp(x).finfo(x.dtype).eps,
    "iinfo": lambda x, y, s, i, m, c, v: i + _xp(x).iinfo(i.dtype).bits,
    "isdtype": lambda x, y, s, i, m, c, v: x * float(_xp(x).isdtype(x.dtype, "real floating")),
    "result_type": lambda x, y, s, i, m, c, v: _xp(x).astype(i, _xp(x).result_type(x, y, 1.0)),
    # -- element-wise ---------------------------------------------------------------------
    "abs": lambda x, y, s, i, m, c, v: _xp(x).abs(x),
    "acos": lambda x, y, s, i, m, c, v: _xp(x).acos(x),
    "acosh": lambda x, y, s, i, m, c, v: _xp(x).acosh(y + 1.0),
    "add": lambda x, y, s, i, m, c, v: _xp(x).add(x, y),
    "asin": lambda x, y, s, i, m, c, v: _xp(x).asin(x),
    "asinh": lambda x, y, s, i, m, c, v: _xp(x).asinh(x),
    "atan": lambda x, y, s, i, m, c, v: _xp(x).atan(x),
    "atan2": lambda x, y, s, i, m, c, v: _xp(x).atan2(x, y),
    "atanh": lambda x, y, s, i, m, c, v: _xp(x).atanh(x),
    "bitwise_and": lambda x, y, s, i, m, c, v: _xp(x).bitwise_and(i, 3),
    "bitwise_left_shift": lambda x, y, s, i, m, c, v: _xp(x).bitwise_left_shift(i, i),
    "bitwise_invert": lambda x, y, s, i, m, c, v: _xp(x).bitwise_invert(i),
    "bitwise_or": lambda x, y, s, i, m, c, v: _xp(x).bitwise_or(i, 4),
    "bitwise_right_shift": lambda x, y, s, i, m, c, v: _xp(x).bitwise_right_shift(i * 8, i),
    "bitwise_xor": lambda x, y, s, i, m, c, v: _xp(x).bitwise_xor(i, 5),
    "ceil": lambda x, y, s, i, m, c, v: _xp(x).ceil(x * 3.0),
    "clip": lambda x, y, s, i, m, c, v: _xp(x).clip(x, -0.5, 0.25),
    "conj": lambda x, y, s, i, m, c, v: _xp(x).conj(c),
    "copysign": lambda x, y, s, i, m, c, v: _xp(x).copysign(y, x),
    "cos": lambda x, y, s, i, m, c, v: _xp(x).cos(x),
    "cosh": lambda x, y, s, i, m, c, v: _xp(x).cosh(x),
    "divide": lambda x, y, s, i, m, c, v: _xp(x).divide(x, y),
    "equal": lambda x, y, s, i, m, c, v: _xp(x).equal(x, x[0]),
    "exp": lambda x, y, s, i, m, c, v: _xp(x).exp(x),
    "expm1": lambda x, y, s, i, m, c, v: _xp(x).expm1(x),
    "floor": lambda x, y, s, i, m, c, v: _xp(x).floor(x * 3.0),
    "floor_divide": lambda x, y, s, i, m, c, v: _xp(x).floor_divide(x * 5.0, y),
    "greater": lambda x, y, s, i, m, c, v: _xp(x).greater(x, 0.1),
    "greater_equal": lambda x, y, s, i, m, c, v: _xp(x).greater_equal(x, x[1]),
    "hypot": lambda x, y, s, i, m, c, v: _xp(x).hypot(x, y),
    "imag": lambda x, y, s, i, m, c, v: _xp(x).imag(c),
    "isfinite": lambda x, y, s, i, m, c, v: _xp(x).isfinite(x / (x - x[0])),
    "isinf": lambda x, y, s, i, m, c, v: _xp(x).isinf(x / (x - x[0])),
    "isnan": lambda x, y, s, i, m, c, v: _xp(x).isnan(_xp(x).log(x)),
    "less": lambda x, y, s, i, m, c, v: _xp(x).less(x, y),
    "less_equal": lambda x, y, s, i, m, c, v: _xp(x).less_equal(x, 0.0),
    "log": lambda x, y, s, i, m, c, v: _xp(x).log(y),
    "log1p": lambda x, y, s, i, m, c, v: _xp(x).log1p(x),
    "log2": lambda x, y, s, i, m, c, v: _xp(x).log2(y),
    "log10": lambda x, y, s, i, m, c, v: _xp(x).log10(y),
    "logaddexp": lambda x, y, s, i, m, c, v: _xp(x).logaddexp(x, y),
    "logical_and": lambda x, y, s, i, m, c, v: _xp(x).logical_and(m, x < 0.5),
    "logical_not": lambda x, y, s, i, m, c, v: _xp(x).logical_not(m),
    "logical_or": lambda x, y, s, i, m, c, v: _xp(x).logical_or(m, x < -0.5),
    "logical_xor": lambda x, y, s, i, m, c, v: _xp(x).logical_xor(m, x < 0.5),
    "maximum": lambda x, y, s, i, m, c, v: _xp(x).maximum(x, -x[0]),
    "minimum": lambda x, y, s, i, m, c, v: _xp(x).minimum(x, 0.0),
    "multiply": lambda x, y, s, i, m, c, v: _xp(x).multiply(x, y),
    "negative": lambda x, y, s, i, m, c, v: _xp(x).negative(x),
    "nextafter": lambda x, y, s, i, m, c, v: _xp(x).nextafter(x, y),
    "not_equal": lambda x, y, s, i, m, c, v: _xp(x).not_equal(i, 0),
    "positive": lambda x, y, s, i, m, c, v: _xp(x).positive(x),
    "pow": lambda x, y, s, i, m, c, v: _xp(x).pow(y, x),
    "real": lambda x, y, s, i, m, c, v: _xp(x).real(c),
    "reciprocal": lambda x, y, s, i, m, c, v: _xp(x).reciprocal(y),
    "remainder": lambda x, y, s, i, m, c, v: _xp(x).remainder(x * 5.0, y),
    "round": lambda x, y, s, i, m, c, v: _xp(x).round(x * 5.0),
    "sign": lambda x, y, s, i, m, c, v: _xp(x).sign(x),
    "signbit": lambda x, y, s, i, m, c, v: _xp(x).signbit(x),
    "sin": lambda x, y, s, i, m, c, v: _xp(x).sin(x),
    "sinh": lambda x, y, s, i, m, c, v: _xp(x).sinh(x),
    "square": lambda x, y, s, i, m, c, v: _xp(x).square(x),
    "sqrt": lambda x, y, s, i, m, c, v: _xp(x).sqrt(y),
    "subtract": lambda x, y, s, i, m, c, v: _xp(x).subtract(x, y),
    "tan": lambda x, y, s, i, m, c, v: _xp(x).tan(x),
    "tanh": lambda x, y, s, i, m, c, v: _xp(x).tanh(x),
    "trunc": lambda x, y, s, i, m, c, v: _xp(x).trunc(x * 3.0),
    # -- indexing -------------------------------------------------------------------------
    "take": lambda x, y, s, i, m, c, v: _xp(x).take(x, i, axis=0),
    "take_along_axis": lambda x, y, s, i, m, c, v: _xp(x).take_along_axis(
        x, _xp(x).argsort(x, axis=1), axis=1),
    # -- linear algebra -------------------------------------------------------------------
    "matmul": lambda x, y, s, i, m, c, v: _xp(x).matmul(s, x),
    "matrix_transpose": lambda x, y, s, i, m, c, v: _xp(x).matrix_transpose(x),
    "tensordot": lambda x, y, s, i, m, c, v: _xp(x).tensordot(x, y, axes=([1], [1])),
    "vecdot": lambda x, y, s, i, m, c, v: _xp(x).vecdot(x, y),
    # -- manipulation ---------------------------------------------------------------------
    "broadcast_arrays": lambda x, y, s, i, m, c, v: _xp(x).broadcast_arrays(x, v),
    "broadcast_shapes": lambda x, y, s, i, m, c, v: _xp(x).broadcast_shapes(x.shape, (1, 4)),
    "broadcast_to": lambda x, y, s, i, m, c, v: _xp(x).broadcast_to(v, (3, 4)),
    "concat": lambda x, y, s, i, m, c, v: _xp(x).concat([x, y], axis=1),
    "expand_dims": lambda x, y, s, i, m, c, v: _xp(x).expand_dims(x, axis=(0, -1)),
    "flip": lambda x, y, s, i, m, c, v: _xp(x).flip(x, axis=1),
    "moveaxis": lambda x, y, s, i, m, c, v: _xp(x).moveaxis(x, 0, 1),
    "permute_dims": lambda x, y, s, i, m, c, v: _xp(x).permute_dims(x, (1, 0)),
    "repeat": lambda x, y, s, i, m, c, v: _xp(x).repeat(x, 2, axis=1),
    "reshape": lambda x, y, s, i, m, c, v: _xp(x).reshape(x, (2, -1)),
    "roll": lambda x, y, s, i, m, c, v: _xp(x).roll(x, 1, axis=1),
    "squeeze": lambda x, y, s, i, m, c, v: _xp(x).squeeze(x[:1], axis=0),
    "stack": lambda x, y, s, i, m, c, v: _xp(x).stack([x, y], axis=1),
    "tile": lambda x, y, s, i, m, c, v: _xp(x).tile(x, (2, 1)),
    "unstack": lambda x, y, s, i, m, c, v: _xp(x).unstack(x, axis=1),
    # -- searching ------------------------------------------------------------------------
    "argmax": lambda x, y, s, i, m, c, v: _xp(x).argmax(x, axis=1),
    "argmin": lambda x, y, s, i, m, c, v: _xp(x).argmin(x, axis=0, keepdims=True),
    "count_nonzero": lambda x, y, s, i, m, c, v: _xp(x).count_nonzero(m, axis=1),
    "nonzero": lambda x, y, s, i, m, c, v: _xp(x).nonzero(m),
    "searchsorted": lambda x, y, s, i, m, c, v: _xp(x).searchsorted(
        _xp(x).sort(v), x[0], side="right"),
    "where": lambda x, y, s, i, m, c, v: _xp(x).where(m, x, y),
    # -- sets -----------------------------------------------------------------------------
    "isin": lambda x, y, s, i, m, c, v: _xp(x).isin(i, i[:2]),
    "unique_all": lambda x, y, s, i, m, c, v: _xp(x).unique_all(i % 2),
    "unique_counts": lambda x, y, s, i, m, c, v: _xp(x).unique_counts(i % 2),
    "unique_inverse": lambda x, y, s, i, m, c, v: _xp(x).unique_inverse(i % 2),
    "unique_values": lambda x, y, s, i, m, c, v: _xp(x).unique_values(i % 2),
    # -- sorting --------------------------------------------------------------------------
    "argsort": lambda x, y, s, i, m, c, v: _xp(x).argsort(x, axis=1, descending=True),
    "sort": lambda x, y, s, i, m, c, v: _xp(x).sort(x, axis=0),
    # -- statistics -----------------------------------------------------------------------
    "cumulative_prod": lambda x, y, s, i, m, c, v: _xp(x).cumulative_prod(y, axis=1),
    "cumulative_sum": lambda x, y, s, i, m, c, v: _xp(x).cumulative_sum(
        x, axis=1, include_initial=True),
    "max": lambda x, y, s, i, m, c, v: _xp(x).max(x, axis=1, keepdims=True),
    "mean": lambda x, y, s, i, m, c, v: _xp(x).mean(x, axis=0),
    "min": lambda x, y, s, i, m, c, v: _xp(x).min(x),
    "prod": lambda x, y, s, i, m, c, v: _xp(x).prod(y, axis=1),
    "std": lambda x, y, s, i, m, c, v: _xp(x).std(x, axis=1, correction=1),
    "sum": lambda x, y, s, i, m, c, v: _xp(x).sum(x, axis=(0, 1), keepdims=True),
    "var": lambda x, y, s, i, m, c, v: _xp(x).var(x, axis=0),
    # -- utility --------------------------------------------------------------------------
    "all": lambda x, y, s, i, m, c, v: _xp(x).all(m, axis=1),
    "any": lambda x, y, s, i, m, c, v: _xp(x).any(m, axis=0),
    "diff": lambda x, y, s, i, m, c, v: _xp(x).diff(x, axis=1, n=2),
    # -- linalg ---------------------------------------------------------------------------
    "linalg.cholesky": lambda x, y, s, i, m, c, v: _xp(x).linalg.cholesky(s),
    "linalg.cross": lambda x, y, s, i, m, c, v: _xp(x).linalg.cross(x[:, :3], y[:, :3]),
    "linalg.det": lambda x, y, s, i, m, c, v: _xp(x).linalg.det(s),
    "linalg.diagonal": lambda x, y, s, i, m, c, v: _xp(x).linalg.diagonal(x, offset=1),
    "linalg.eig": lambda x, y, s, i, m, c, v: _xp(x).sort(_xp(x).abs(
        _xp(x).linalg.eig(s).eigenvalues)),
    "linalg.eigh": lambda x, y, s, i, m, c, v: _xp(x).linalg.eigh(s).eigenvalues,
    "linalg.eigvals": lambda x, y, s, i, m, c, v: _xp(x).sort(_xp(x).real(
        _xp(x).linalg.eigvals(s))),
    "linalg.eigvalsh": lambda x, y, s, i, m, c, v: _xp(x).linalg.eigvalsh(s),
    "linalg.inv": lambda x, y, s, i, m, c, v: _xp(x).linalg.inv(s),
    "linalg.matmul": lambda x, y, s, i, m, c, v: _xp(x).linalg.matmul(
        x, _xp(x).matrix_transpose(y)),
    "linalg.matrix_norm": lambda x, y, s, i, m, c, v: _xp(x).linalg.matrix_norm(x, ord="fro"),
    "linalg.matrix_power": lambda x, y, s, i, m, c, v: _xp(x).linalg.matrix_power(s, 3),
    "linalg.matrix_rank": lambda x, y, s, i, m, c, v: _xp(x).linalg.matrix_rank(x),
    "linalg.matrix_transpose": lambda x, y, s, i, m, c, v: _xp(x).linalg.matrix_transpose(x),
    "linalg.outer": lambda x, y, s, i, m, c, v: _xp(x).linalg.outer(v, x[0]),
    "linalg.pinv": lambda x, y, s, i, m, c, v: _xp(x).linalg.pinv(x),
    "linalg.qr": lambda x, y, s, i, m, c, v: _xp(x).abs(_xp(x).linalg.qr(s).R),
    "linalg.slogdet": lambda x, y, s, i, m, c, v: _xp(x).linalg.slogdet(s).logabsdet,
    "linalg.solve": lambda x, y, s, i, m, c, v: _xp(x).linalg.solve(s, x),
    "linalg.svd": lambda x, y, s, i, m, c, v: _xp(x).linalg.svd(x, full_matrices=False).S,
    "linalg.svdvals": lambda x, y, s, i, m, c, v: _xp(x).linalg.svdvals(x),
    "linalg.tensordot": lambda x, y, s, i, m, c, v: _xp(x).linalg.tensordot(
        x, _xp(x).matrix_transpose(y), axes=1),
    "linalg.trace": lambda x, y, s, i, m, c, v: _xp(x).linalg.trace(s, offset=-1),
    "linalg.vecdot": lambda x, y, s, i, m, c, v: _xp(x).linalg.vecdot(x, y, axis=0),
    "linalg.vector_norm": lambda x, y, s, i, m, c, v: _xp(x).linalg.vector_norm(
        x, axis=-1, ord=3, keepdims=True),
    # -- fft ------------------------------------------------------------------------------
    "fft.fft": lambda x, y, s, i, m, c, v: _xp(x).fft.fft(c),
    "fft.ifft": lambda x, y, s, i, m, c, v: _xp(x).fft.ifft(c, n=6),
    "fft.fftn": lambda x, y, s, i, m, c, v: _xp(x).fft.fftn(_xp(x).reshape(c, (2, 4))),
    "fft.ifftn": lambda x, y, s, i, m, c, v: _xp(x).fft.ifftn(_xp(x).reshape(c, (2, 4)),
                                                              norm="ortho"),
    "fft.rfft": lambda x, y, s, i, m, c, v: _xp(x).fft.rfft(x, axis=1),
    "fft.irfft": lambda x, y, s, i, m, c, v: _xp(x).fft.irfft(c, n=8),
    "fft.rfftn": lambda x, y, s, i, m, c, v: _xp(x).fft.rfftn(x),
    "fft.irfftn": lambda x, y, s, i, m, c, v: _xp(x).fft.irfftn(_xp(x).reshape(c, (2, 4)),
                                                                s=(2, 6)),
    "fft.hfft": lambda x, y, s, i, m, c, v: _xp(x).fft.hfft(c[:5]),
    "fft.ihfft": lambda x, y, s, i, m, c, v: _xp(x).fft.ihfft(v),
    "fft.fftfreq": lambda x, y, s, i, m, c, v: _xp(x).fft.fftfreq(4, d=0.5, dtype=x.dtype) * x,
    "fft.rfftfreq": lambda x, y, s, i, m, c, v: _xp(x).fft.rfftfreq(6, dtype=x.dtype) + 1.0,
    "fft.fftshift": lambda x, y, s, i, m, c, v: _xp(x).fft.fftshift(x, axes=1),
    "fft.ifftshift": lambda x, y, s, i, m, c, v: _xp(x).fft.ifftshift(x),
    # -- the array object: operators, attributes, indexing ---------------------------------
    "__add__": lambda x, y, s, i, m, c, v: x + y + 1.0,
    "__sub__": lambda x, y, s, i, m, c, v: 2.0 - x - y,
    "__mul__": lambda x, y, s, i, m, c, v: x * y * 3,
    "__truediv__": lambda x, y, s, i, m, c, v: x / y / 2.0,
    "__floordiv__": lambda x, y, s, i, m, c, v: (x * 5.0) // y,
    "__mod__": lambda x, y, s, i, m, c, v: (x * 5.0) % y,
    "__pow__": lambda x, y, s, i, m, c, v: y ** x + x ** 2,
    "__matmul__": lambda x, y, s, i, m, c, v: s @ x @ y.mT,
    "__neg__": lambda x, y, s, i, m, c, v: -x,
    "__abs__": lambda x, y, s, i, m, c, v: abs(x),
    "__invert__": lambda x, y, s, i, m, c, v: ~m,
    "__and__": lambda x, y, s, i, m, c, v: (i & 1) | (i ^ 2),
    "__lshift__": lambda x, y, s, i, m, c, v: (i << 2) >> 1,
    "__lt__": lambda x, y, s, i, m, c, v: (x < y) == (x <= 0.0),
    "__gt__": lambda x, y, s, i, m, c, v: (x > 0.1) != (y >= 1.0),
    "T": lambda x, y, s, i, m, c, v: x.T + y.T,
    "mT": lambda x, y, s, i, m, c, v: x.mT,
    "shape": lambda x, y, s, i, m, c, v: _xp(x).zeros(x.shape[1], dtype=x.dtype) + x.ndim,
    "__getitem__": lambda x, y, s, i, m, c, v: x[1:, ::-1][..., None, 0] + x[-1, 2],
    "__getitem__ array": lambda x, y, s, i, m, c, v: x[i, :],
    "__getitem__ mask": lambda x, y, s, i, m, c, v: x[m],
    "__setitem__": _setitem,
    "__setitem__ mask": _setitem_mask,
    "__iadd__": _inplace,
    # -- EagerPy helpers ------------------------------------------------------------------
    "ep.norms.l2": lambda x, y, s, i, m, c, v: ep.norms.l2(x, axis=1),
    "ep.norms.lp": lambda x, y, s, i, m, c, v: ep.norms.lp(x, p=3, axis=0),
    "ep.softmax": lambda x, y, s, i, m, c, v: ep.softmax(x, axis=1),
    "ep.log_softmax": lambda x, y, s, i, m, c, v: ep.log_softmax(x),
    "ep.logsumexp": lambda x, y, s, i, m, c, v: ep.logsumexp(x, axis=0),
    "ep.crossentropy": lambda x, y, s, i, m, c, v: ep.crossentropy(x, i),
    "ep.onehot_like": lambda x, y, s, i, m, c, v: ep.onehot_like(x, i, value=2.0),
    "ep.topk": lambda x, y, s, i, m, c, v: ep.topk(x, 2),
    "ep.pad": lambda x, y, s, i, m, c, v: ep.pad(x, ((1, 0), (0, 2)), value=0.5),
    "ep.clip": lambda x, y, s, i, m, c, v: ep.namespace(x).clip(x, min=-0.2),
    "ep.index_update": lambda x, y, s, i, m, c, v: ep.index_update(x, (slice(None), 1), 0.0),
}

#: Functions whose result's shape depends on the values (see the module's docstring).
DATA_DEPENDENT = frozenset({
    "nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    "__getitem__ mask",
})  # fmt: skip

#: What a framework's compiler cannot do: backend -> case -> why (its descriptor's
#: ``compiler``: data-dependent shapes, and its other limits).  There the case must
#: raise the error contract's `NotImplementedError` naming the function (where the
#: library's own function refuses it; the native flavour's operators are the
#: framework's own) or give the eager result.  A compiler that traces data-dependent
#: shapes (torch.compile: unbacked sizes) and has no other limit has no entry.
COMPILER_LIMITS: dict[str, dict[str, str]] = {
    name: {**dict.fromkeys(DATA_DEPENDENT if d.compiler.data_dependent else (),
                           d.compiler.data_dependent), **d.compiler.limits}
    for name, d in REGISTRY.items() if d.compiler.data_dependent or d.compiler.limits
}  # fmt: skip

#: Functions returning non-array Python values (shapes) under every compiler.
NOT_ARRAYS = frozenset({"empty", "empty_like", "broadcast_shapes"})


def flatten(result: Any) -> list[Any]:
    """The leaves of a case's result (arrays, Python values) in order."""
    if isinstance(result, (tuple, list)):
        return [leaf for r in result for leaf in flatten(r)]
    return [result]


#: Relative and absolute tolerance for compiled against eager results: a compiler may
#: fuse and reorder floating-point work (XLA, inductor), so last-bit agreement is not
#: promised; 1e-9 relative on float64 values of order one is some 10**7 ulps below what
#: a float32 would show.  Decompositions and transforms (``linalg.``, ``fft.``) may take
#: other kernels under a compiler (XLA's own SVD, QR and LU): 1e-7 relative, which
#: their inputs' condition numbers (below 10) allow.
TOLERANCE = {"rtol": 1e-9, "atol": 1e-12}
TOLERANCE_DECOMPOSITIONS = {"rtol": 1e-7, "atol": 1e-10}
#: Single precision (the inputs of a target that holds no complex128: MLX).
TOLERANCE_SINGLE = {"rtol": 1e-5, "atol": 1e-6}


def close(a: np.ndarray, b: np.ndarray, name: str = "") -> bool:
    """Whether a compiled result equals the eager one (dtype, shape and values)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        tolerance = TOLERANCE_DECOMPOSITIONS if name.startswith(("linalg.", "fft.")) else TOLERANCE
        if a.dtype.itemsize * (2 if a.dtype.kind == "f" else 1) <= 8:  # single precision
            tolerance = TOLERANCE_SINGLE
        return bool(np.allclose(a, b, equal_nan=True, **tolerance))
    return bool(np.array_equal(a, b))


def describe(value: Any) -> str:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"array(shape={tuple(value.shape)}, dtype={value.dtype})"
    return repr(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
