"""Differential tables of the ``linalg`` and ``fft`` extensions (see `functions.Case`).

Linear algebra inputs are well conditioned (diagonally dominant, or symmetric positive
definite where the function needs it).  Factorisations that are unique only up to signs
or phases (``eigh``, ``qr``, ``svd``) are compared through what is unique: the values
and the reconstruction of the input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from .functions import CASES, Case
from .strategies import Call, arrays, axis_for, dtypes, promotable_pair, shapes

_FLOATS = "floating"


@st.composite
def _square(draw: Any, spd: bool = False, min_n: int = 1, spread: bool = False) -> np.ndarray:
    """A well-conditioned batch of square matrices (with ``spread``, eigenvalues near
    2n, 2n + 4, 2n + 8, ...: well separated, so the eigenvectors are well conditioned)."""
    name = draw(dtypes(_FLOATS))
    n = draw(st.integers(min_n, 4))
    batch = draw(st.sampled_from([(), (2,)]))
    a = draw(arrays(name, (*batch, n, n), "moderate")) / 100
    if spd:
        a = a @ np.conj(np.swapaxes(a, -1, -2))
    diagonal = 2 * n + (4 * np.arange(n) if spread else 0)
    return (a + np.diag(diagonal * np.ones(n))).astype(name)


@st.composite
def _general(draw: Any, min_dims: int = 2) -> np.ndarray:
    name = draw(dtypes(_FLOATS))
    return draw(arrays(name, shapes(min_dims, 3, 1, 4), "moderate"))


def _one(strategy: st.SearchStrategy[np.ndarray], **kwargs: st.SearchStrategy[Any]
         ) -> st.SearchStrategy[Call]:  # fmt: skip
    return st.builds(lambda x, **kw: Call((x,), kw), strategy, **kwargs)


@st.composite
def _solve(draw: Any) -> Call:
    a = draw(_square())
    k = draw(st.integers(1, 3))
    b = draw(arrays(a.dtype.name, (*a.shape[:-1], k), "moderate"))
    return Call((a, b))


@st.composite
def _cross(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("numeric"))
    shape = draw(st.sampled_from([(3,), (2, 3), (3, 2)]))
    axis = -1 if shape[-1] == 3 else 0
    return Call((draw(arrays(d1, shape, "moderate")), draw(arrays(d2, shape, "moderate"))),
                {"axis": axis})  # fmt: skip


@st.composite
def _outer(draw: Any) -> Call:
    d1, d2 = draw(promotable_pair("numeric"))
    return Call((draw(arrays(d1, shapes(1, 1), "moderate")),
                 draw(arrays(d2, shapes(1, 1), "moderate"))))  # fmt: skip


@st.composite
def _vector_norm(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes(_FLOATS)), shapes(1, 3, 1, 4), "moderate"))
    return Call((x,), {"axis": draw(axis_for(x.ndim)), "keepdims": draw(st.booleans()),
                       "ord": draw(st.sampled_from([1, 2, 3, np.inf, -np.inf, 0]))})  # fmt: skip


def _norm_out_of_range(call: Call) -> np.ndarray | None:
    """Norms of order 2 and 3 whose sum of powers leaves the dtype's normal range (below
    ``tiny / eps`` or above its largest value): there a sum of powers computed as it is
    (NumPy's, array_api_strict's) underflows or overflows where a scaled one (MLX's) is
    right: ``vector_norm([1.83e-31, 0])`` in float32 is 0.0 by the one and 1.83e-31 by
    the other."""
    order = call.kwargs.get("ord", 2)
    if order not in (2, 3):
        return None
    x = np.asarray(call.args[0])
    info = np.finfo(x.dtype)
    with np.errstate(all="ignore"):
        powers = np.abs(x.astype(np.complex128)) ** order
        total = np.sum(powers, axis=call.kwargs.get("axis"),
                       keepdims=bool(call.kwargs.get("keepdims")))  # fmt: skip
    return np.asarray(((total > 0) & (total < info.tiny / info.eps)) | (total > info.max))


def _to_np(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> list[np.ndarray]:
    parts = [np.asarray(to_numpy(r)) for r in result]
    precision = np.result_type(*parts, np.complex64)  # keep float32 inputs at their precision
    return [p.astype(precision) for p in parts]


def _eigh_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    w, v = _to_np(result, to_numpy)
    rebuilt = v @ (w[..., :, None] * np.conj(np.swapaxes(v, -1, -2)))
    return (w.real, rebuilt)


def _monic(w: np.ndarray) -> np.ndarray:
    """The coefficients of the monic polynomial with roots ``w`` (the last axis), which
    do not depend on the roots' order."""
    coefficients = np.ones((*w.shape[:-1], 1), w.dtype)
    for k in range(w.shape[-1]):
        shifted = np.concatenate([coefficients, np.zeros_like(coefficients[..., :1])], -1)
        scaled = np.concatenate([np.zeros_like(coefficients[..., :1]), coefficients], -1)
        coefficients = shifted - w[..., k : k + 1] * scaled
    return coefficients


def _eig_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    w, v = _to_np(result, to_numpy)
    return (_monic(w), v @ (w[..., :, None] * np.linalg.inv(v)))


def _eigvals_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> np.ndarray:
    return _monic(_to_np([result], to_numpy)[0])


def _qr_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    q, r = _to_np(result, to_numpy)
    return (q @ r, np.conj(np.swapaxes(q, -1, -2)) @ q, np.abs(np.tril(r, -1)))


def _svd_canonical(result: Any, to_numpy: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    u, s, vh = _to_np(result, to_numpy)
    k = s.shape[-1]
    return (s.real, (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :])


LINALG_CASES: dict[str, Case] = {
    "cholesky": Case(_one(_square(spd=True), upper=st.booleans()), "loose"),
    "cross": Case(_cross(), "loose"),
    "det": Case(_one(_square()), "loose"),
    "diagonal": Case(_one(_general(), offset=st.integers(-3, 3))),
    "eig": Case(_one(_square(spread=True)), "loose", post=_eig_canonical),
    "eigh": Case(_one(_square(spd=True)), "loose", post=_eigh_canonical),
    "eigvals": Case(_one(_square(spread=True)), "loose", post=_eigvals_canonical),
    "eigvalsh": Case(_one(_square(spd=True)), "loose"),
    "inv": Case(_one(_square()), "loose"),
    "matmul": CASES["matmul"],
    "matrix_norm": Case(_one(_general(), keepdims=st.booleans(),
                             ord=st.sampled_from(["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])),
                        "loose"),
    "matrix_power": Case(_one(_square()).flatmap(
        lambda c: st.integers(-2, 3).map(lambda n: Call((c.args[0], n)))), "loose"),
    "matrix_rank": Case(_one(_general()), "exact"),
    "matrix_transpose": CASES["matrix_transpose"],
    "outer": Case(_outer(), "loose"),
    "pinv": Case(_one(_square()), "loose"),
    "qr": Case(_one(_square()), "loose", post=_qr_canonical),
    "slogdet": Case(_one(_square()), "loose"),
    "solve": Case(_solve(), "loose"),
    "svd": Case(_one(_general(), full_matrices=st.just(False)), "loose", post=_svd_canonical),
    "svdvals": Case(_one(_general()), "loose"),
    "tensordot": CASES["tensordot"],
    "trace": Case(_one(_general(), offset=st.integers(-2, 2)), "loose"),
    "vecdot": CASES["vecdot"],
    "vector_norm": Case(_vector_norm(), "loose", mask=_norm_out_of_range),
}


# -- fft ---------------------------------------------------------------------------------------
_NORMS = st.sampled_from(["backward", "ortho", "forward"])


@st.composite
def _fft_1d(draw: Any, domain: str, min_side: int = 1) -> Call:
    x = draw(arrays(draw(dtypes(domain)), shapes(1, 3, min_side, 5), "moderate"))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    n = draw(st.none() | st.integers(2, 6))
    return Call((x,), {"n": n, "axis": axis, "norm": draw(_NORMS)})


@st.composite
def _fft_nd(draw: Any, domain: str) -> Call:
    x = draw(arrays(draw(dtypes(domain)), shapes(1, 3, 2, 4), "moderate"))
    axes = draw(st.none() | st.lists(st.integers(0, x.ndim - 1), min_size=1, max_size=x.ndim,
                                     unique=True).map(tuple))  # fmt: skip
    s = None
    if axes is not None and draw(st.booleans()):
        s = tuple(draw(st.integers(2, 5)) for _ in axes)
    return Call((x,), {"s": s, "axes": axes, "norm": draw(_NORMS)})


@st.composite
def _freq(draw: Any) -> Call:
    return Call((draw(st.integers(1, 8)),), {"d": draw(st.sampled_from([1.0, 0.5, 2.0]))})


@st.composite
def _shift(draw: Any) -> Call:
    x = draw(arrays(draw(dtypes("numeric")), shapes(1, 3), "moderate"))
    return Call((x,), {"axes": draw(axis_for(x.ndim))})


_C, _R = "complex floating", "real floating"
FFT_CASES: dict[str, Case] = {
    "fft": Case(_fft_1d(_C), "loose"), "ifft": Case(_fft_1d(_C), "loose"),
    "fftn": Case(_fft_nd(_C), "loose"), "ifftn": Case(_fft_nd(_C), "loose"),
    "rfft": Case(_fft_1d(_R), "loose"), "irfft": Case(_fft_1d(_C, 2), "loose"),
    "rfftn": Case(_fft_nd(_R), "loose"), "irfftn": Case(_fft_nd(_C), "loose"),
    "hfft": Case(_fft_1d(_C, 2), "loose"), "ihfft": Case(_fft_1d(_R), "loose"),
    "fftfreq": Case(_freq(), "close"), "rfftfreq": Case(_freq(), "close"),
    "fftshift": Case(_shift()), "ifftshift": Case(_shift()),
}  # fmt: skip
