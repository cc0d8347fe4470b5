"""Issue 23, item 3: the EagerPy layer's autodiff with aliased arguments, the module
wrappers' rule for scalar results, and the functions EagerPy gained after 0.30.

EagerPy's repository (after the 0.30 release) added ``sin``, ``cos``, ``tan``, ``sinh``,
``cosh``, ``arcsin``, ``arccos``, ``arctan``, ``arcsinh``, ``arccosh``, ``inv`` (the matrix
inverse: ``torch.linalg.inv``), ``round``, ``ceil`` and ``floor`` as functions and tensor
methods; the references here are NumPy's functions of the same meaning (``round``: half to
even, as torch, TensorFlow and NumPy round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _ep_frameworks import BACKENDS, to_framework

import eagerpy_xp
import eagerpy_xp.eagerpy as ep

ALL = (*BACKENDS, "dask", "array")
GRAD_BACKENDS = ("torch", "jax", "tensorflow")


def _tensor(kind: str, a: np.ndarray) -> Any:
    """An EagerPy tensor of ``kind``: a framework's, Dask's, or an `eagerpy_xp.Array`'s."""
    if kind == "dask":
        import dask.array as da

        # chunked along the first axis; a matrix stays in one chunk (Dask's linalg needs it)
        return ep.astensor(da.from_array(a, chunks={0: 1} if a.ndim != 2 else -1))
    if kind == "array":
        return ep.astensor(eagerpy_xp.numpy.asarray(a))
    return ep.astensor(to_framework(kind, a))


def _values(t: Any) -> np.ndarray:
    raw = t.raw.raw if isinstance(t.raw, eagerpy_xp.Array) else t.raw
    if hasattr(raw, "compute"):
        raw = raw.compute()
    return np.asarray(raw.detach() if hasattr(raw, "detach") else raw)


X = np.array([[0.25, -0.5, 0.75], [1.5, -2.5, 0.5], [2.5, -1.5, 3.5]], dtype=np.float32)
ROUNDING = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -0.51, 3.0], dtype=np.float32)

#: name -> (NumPy's function, the values it is checked on)
NEWER: dict[str, tuple[Callable[[np.ndarray], np.ndarray], np.ndarray]] = {
    "sin": (np.sin, X), "cos": (np.cos, X), "tan": (np.tan, X), "sinh": (np.sinh, X),
    "cosh": (np.cosh, X), "arcsin": (np.arcsin, X / 4), "arccos": (np.arccos, X / 4),
    "arctan": (np.arctan, X), "arcsinh": (np.arcsinh, X), "arccosh": (np.arccosh, 1 + X * X),
    "inv": (np.linalg.inv, X), "round": (np.round, ROUNDING), "ceil": (np.ceil, ROUNDING),
    "floor": (np.floor, ROUNDING),
}  # fmt: skip


@pytest.mark.parametrize("name", list(NEWER))
@pytest.mark.parametrize("kind", ALL)
def test_newer_functions_and_methods(kind: str, name: str) -> None:
    reference, values = NEWER[name]
    t = _tensor(kind, values)
    expected = reference(values)
    for result in (getattr(ep, name)(t), getattr(t, name)(), getattr(ep.framework, name)(t)):
        assert type(result) is type(t) and result.dtype == t.dtype and result.shape == t.shape
        np.testing.assert_allclose(_values(result), expected, rtol=2e-6, atol=1e-6, err_msg=name)
    assert name in ep.__all__ and name in ep.framework.__all__


@pytest.mark.parametrize("kind", ALL)
def test_newer_functions_on_integer_tensors(kind: str) -> None:
    """Integers: trigonometry in floating point (as ``sqrt``/``tanh`` here and torch
    there), rounding unchanged and still integer."""
    ints = np.array([-3, 0, 2, 7], dtype=np.int32)
    t = _tensor(kind, ints)
    for name in ("round", "ceil", "floor"):
        result = getattr(t, name)()
        assert result.dtype == t.dtype
        np.testing.assert_array_equal(_values(result), ints)
    sin = ep.sin(t)
    assert np.asarray(_values(sin)).dtype.kind == "f"
    np.testing.assert_allclose(_values(sin), np.sin(ints), rtol=1e-6)
    with pytest.raises(TypeError):  # a matrix inverse needs floats (torch refuses too)
        _tensor(kind, np.eye(2, dtype=np.int32)).inv()


@pytest.mark.parametrize("kind", ALL)
def test_inv_is_the_matrix_inverse_of_batches(kind: str) -> None:
    batch = np.stack([X, X.T + 3 * np.eye(3, dtype=np.float32)])
    np.testing.assert_allclose(_values(_tensor(kind, batch).inv()), np.linalg.inv(batch),
                               rtol=1e-5, atol=1e-6)  # fmt: skip
    with pytest.raises(ValueError):
        _tensor(kind, np.ones((2, 3), dtype=np.float32)).inv()


def test_module_wrappers_leave_scalars_alone() -> None:
    """EagerPy's ``modules.wrap`` makes a result a tensor only if its ``astensor`` takes
    it, and that takes framework arrays, not scalars: ``ep.numpy.tanh(3)`` is a NumPy
    float64, ``ep.numpy.float32(2)`` a NumPy float32, ``ep.numpy.array(3.0)`` a tensor."""
    import torch

    for call, scalar in [
        (lambda: ep.numpy.tanh(3), np.float64), (lambda: ep.numpy.tanh(np.float32(3)), np.float32),
        (lambda: ep.numpy.float32(2), np.float32), (lambda: ep.numpy.int64(5), np.int64),
        (lambda: ep.numpy.sum(np.ones(3)), np.float64), (lambda: ep.numpy.pi, float),
        (lambda: ep.numpy.linalg.norm(np.ones(4)), np.float64),
        (lambda: ep.torch.tensor(2.0).item(), float),
    ]:  # fmt: skip
        result = call()
        assert type(result) is scalar, (result, scalar)
    for call, cls in [(lambda: ep.numpy.array(3.0), ep.NumPyTensor),
                      (lambda: ep.numpy.arange(3), ep.NumPyTensor),
                      (lambda: ep.torch.tanh(torch.tensor(3.0)), ep.PyTorchTensor)]:  # fmt: skip
        assert type(call()) is cls
    assert ep.numpy.tanh(3) == pytest.approx(np.tanh(3))
    with pytest.raises(ValueError, match="NumPy scalar"):  # EagerPy: ValueError too
        ep.astensor(np.float64(1.0))
    eagerpy = pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")
    assert type(eagerpy.numpy.tanh(3)) is type(ep.numpy.tanh(3))
    with pytest.raises(ValueError):
        eagerpy.astensor(np.float64(1.0))


#: How the second argument aliases the first: (id, function of the tensor)
ALIASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("same tensor", lambda t: t),
    ("same raw", lambda t: ep.astensor(t.raw)),
    ("raw itself", lambda t: t.raw),
    ("slice", lambda t: t[:]),
    ("reshape", lambda t: t.reshape((2, 2)).reshape((4,))),
]


@pytest.mark.parametrize("alias", [a[0] for a in ALIASES])
@pytest.mark.parametrize("backend", GRAD_BACKENDS)
def test_value_and_grad_with_aliased_arguments(backend: str, alias: str) -> None:
    """``ep.value_and_grad(f, t, t)`` differentiates through the first argument only
    (TensorFlow gave ``2 t``), for every way the second argument can alias the first; the
    same as EagerPy for the aliases EagerPy's functions take."""
    values = np.array([0.5, -1.0, 2.0, 3.0], dtype=np.float32)
    make = dict(ALIASES)[alias]

    def f(x: Any, y: Any) -> Any:
        y = y if isinstance(y, ep.Tensor) else ep.astensor(y)
        return (x * y).sum()

    t = ep.astensor(to_framework(backend, values))
    value, g = ep.value_and_grad(f, t, make(t))
    np.testing.assert_allclose(_values(g), values, rtol=1e-6)
    assert float(value.item()) == pytest.approx(float(values @ values))
    value, _, g = ep.value_aux_and_grad(lambda x, y: (f(x, y), None), t, make(t))
    np.testing.assert_allclose(_values(g), values, rtol=1e-6)
    fn = ep.value_and_grad_fn(t, f)
    np.testing.assert_allclose(_values(fn(t, make(t))[1]), values, rtol=1e-6)
    np.testing.assert_allclose(_values(t), values)  # unchanged
    if alias in ("same tensor", "same raw", "slice"):
        eagerpy = pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")
        real = eagerpy.astensor(to_framework(backend, values))
        other = {"same tensor": real, "same raw": eagerpy.astensor(real.raw), "slice": real[:]}
        _, expected = eagerpy.value_and_grad(lambda x, y: (x * y).sum(), real, other[alias])
        np.testing.assert_allclose(_values(g), np.asarray(expected.numpy()), rtol=1e-6)
