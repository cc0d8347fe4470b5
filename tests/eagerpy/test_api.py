"""`eagerpy_xp.eagerpy` beyond the per-call comparison: autodiff and random numbers against
EagerPy, `install`/`uninstall`, `eagerpy_xp.Array` inputs, errors, modules, typing, layers."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import typing
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _ep_frameworks import BACKENDS, data, eagerpy_modules, seed

import eagerpy_xp
import eagerpy_xp.eagerpy as xep

eagerpy = pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")

GRAD_BACKENDS = ("torch", "jax", "tensorflow")


def _loss(ep: Any, x: Any) -> Any:
    return (ep.tanh(x) * x).sum() + x.square().mean()


def _loss_aux(ep: Any, x: Any, scale: float) -> Any:
    y = x * scale
    return ep.norms.l2(y), (y, ep.softmax(y), "tag")


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.raw)


@pytest.mark.parametrize("backend", GRAD_BACKENDS)
def test_autodiff_as_eagerpy(backend: str) -> None:
    raw = data(backend)["x"]
    for ep in (eagerpy, xep):
        x = ep.astensor(raw)
        v, g = ep.value_and_grad(lambda t, ep=ep: _loss(ep, t), x)
        v2, aux, g2 = ep.value_aux_and_grad(lambda t, s, ep=ep: _loss_aux(ep, t, s), x, 2.0)
        fn = ep.value_and_grad_fn(x, lambda t, s, ep=ep: _loss_aux(ep, t, s), has_aux=True)
        v3, aux3, g3 = fn(x, 3.0)
        v4, g4 = x.value_and_grad(lambda t, ep=ep: _loss(ep, t))
        results = (v, g, v2, aux[0], aux[1], g2, v3, aux3[1], g3, v4, g4)
        if ep is eagerpy:
            expected = results
            continue
        assert isinstance(aux, tuple) and aux[2] == "tag" and isinstance(aux[0], xep.Tensor)
        for mine, real in zip(results, expected):
            assert type(mine).__name__ == type(real).__name__
            assert type(mine.raw) is type(real.raw) and mine.dtype == real.dtype
            assert mine.shape == real.shape
            np.testing.assert_allclose(_np(mine), _np(real), rtol=1e-5, atol=1e-6)
    if backend == "torch":
        assert not v.raw.requires_grad and not aux[0].raw.requires_grad


def test_autodiff_on_numpy_raises_like_eagerpy() -> None:
    x = xep.astensor(data("numpy")["x"])
    with pytest.raises(NotImplementedError, match="NumPy"):
        xep.value_and_grad_fn(x, lambda t: t.sum())
    with pytest.raises(NotImplementedError):
        eagerpy.value_and_grad_fn(eagerpy.astensor(x.raw), lambda t: t.sum())


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_numbers_as_eagerpy(backend: str) -> None:
    """The framework's own generator, as EagerPy: seeded programs draw the same numbers."""
    raw = data(backend)["x"]
    draws = []
    # EagerPy on JAX with x64 on (as in this test session) drew float64 numbers for float32
    # tensors; eagerpy_xp.eagerpy draws in x's dtype (PyTorch's behaviour), which equals
    # EagerPy's stream with JAX's default x64 off
    x64_off = importlib.import_module("jax").enable_x64(False) if backend == "jax" else nullcontext()
    with x64_off:
        for ep in (eagerpy, xep):
            seed(backend)
            x = ep.astensor(raw)
            draws.append((ep.uniform(x, (2, 3)), ep.normal(x, 4, mean=1.0, stddev=2.0),
                          x.uniform(5, -1.0, 1.0)))  # fmt: skip
    for real, mine in zip(*draws):
        assert type(mine.raw) is type(real.raw) and mine.shape == real.shape
        assert mine.dtype == raw.dtype  # x's dtype, as on PyTorch (EagerPy on NumPy: float64)
        np.testing.assert_allclose(_np(mine), _np(real), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_arrays_of_eagerpy_xp(backend: str) -> None:
    """`ep.astensor` accepts `eagerpy_xp.Array`s; results stay `Array`s and agree with the
    same calls on the native array."""
    raws = data(backend)
    native = {k: xep.astensor(v) for k, v in raws.items()}
    arrays = {k: xep.astensor(eagerpy_xp.astensor(v)) for k, v in raws.items()}
    assert type(arrays["x"]) is xep.ArrayTensor and isinstance(arrays["x"].raw, eagerpy_xp.Array)

    def calls(ep: Any, t: dict[str, Any]) -> list[Any]:
        x = t["x"]
        return [
            ep.clip(x + 0.1, -0.5, 0.5), x.sum(axis=1), x[t["idx"]], x[range(3), t["labels"]],
            ep.where(t["b"], x, 0.0), ep.concatenate([x, t["p"]], axis=1), ep.onehot_like(x, t["labels"]),
            ep.index_update(x, ep.index[:, 1], 0.0), x.norms.l2(axis=-1), ep.crossentropy(x, t["labels"]),
            ep.zeros(x, (2,)), ep.arange(x, 3), x.argsort(), ep.topk(x, 2)[1], x @ t["p"].T,
        ]  # fmt: skip

    for a, n in zip(calls(xep, arrays), calls(xep, native)):
        assert type(a) is xep.ArrayTensor and type(a.raw) is eagerpy_xp.Array
        assert a.raw.backend == backend and a.dtype == n.dtype and a.shape == n.shape
        np.testing.assert_allclose(np.asarray(a.raw.raw), np.asarray(n.raw), rtol=1e-6)
    x, restore = xep.astensor_(eagerpy_xp.astensor(raws["x"]))
    assert type(restore(x * 2)) is eagerpy_xp.Array
    if backend != "numpy":
        _, g = xep.value_and_grad(lambda t: (t * t).sum(), arrays["x"])
        assert type(g.raw) is eagerpy_xp.Array
        np.testing.assert_allclose(np.asarray(g.raw.raw), 2 * np.asarray(raws["x"]), rtol=1e-6)


def _parameters(f: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


def test_signatures_as_eagerpy() -> None:
    """Every method of EagerPy's tensors and every module-level name (but the typing names
    EagerPy's star imports leak) exists with EagerPy's parameters."""
    for name in dir(eagerpy.Tensor):
        real = getattr(eagerpy.PyTorchTensor, name)
        if name in ("_norms", "norms") or (name.startswith("__") and not callable(real)):
            continue
        mine = getattr(xep.PyTorchTensor, name)
        if inspect.isfunction(real):
            assert _parameters(mine) == _parameters(real), name
    assert isinstance(xep.astensor(data("torch")["x"]).norms, xep.tensor.NormsMethods)
    typing_names = set(dir(typing))
    for name in (n for n in dir(eagerpy) if not n.startswith("_") and n not in typing_names):
        real, mine = getattr(eagerpy, name), getattr(xep, name)
        if inspect.isfunction(real):
            assert _parameters(mine) == _parameters(real), name


def test_install_and_uninstall() -> None:
    before = eagerpy_modules()
    xep.install()
    try:
        xep.install()  # twice: no effect
        import eagerpy as ep
        from eagerpy.astensor import T  # noqa: F401
        from eagerpy.tensor import PyTorchTensor, TensorFlowTensor

        assert ep is xep and xep.installed()
        assert PyTorchTensor is xep.PyTorchTensor and TensorFlowTensor is xep.TensorFlowTensor
        assert importlib.import_module("eagerpy.types").Shape is xep.types.Shape
        assert importlib.import_module("eagerpy.tensor.pytorch").PyTorchTensor is xep.PyTorchTensor
        assert ep.norms.l2 is xep.norms.l2 and ep.utils.get_dummy is xep.utils.get_dummy
    finally:
        xep.uninstall()
    xep.uninstall()  # twice: no effect
    assert not xep.installed() and eagerpy_modules() == before
    assert importlib.import_module("eagerpy") is eagerpy


def test_get_dummy_and_module_wrappers() -> None:
    for name, cls in (("pytorch", xep.PyTorchTensor), ("numpy", xep.NumPyTensor),
                      ("jax", xep.JAXTensor), ("tensorflow", xep.TensorFlowTensor)):  # fmt: skip
        dummy = xep.utils.get_dummy(name)
        real = eagerpy.utils.get_dummy(name)
        assert type(dummy) is cls and dummy.shape == (0,) and dummy.dtype == real.dtype
    with pytest.raises(ValueError, match="unknown framework 'mxnet'"):
        xep.utils.get_dummy("mxnet")
    z = xep.torch.zeros(3)
    assert type(z) is xep.PyTorchTensor and z.shape == (3,)
    assert xep.numpy.pi == np.pi and xep.torch.nn.Linear.__wrapped__ is sys.modules["torch"].nn.Linear
    assert xep.index[1:, None] == (slice(1, None), None) and xep.inf == float("inf")


def test_errors_like_eagerpy_on_pytorch() -> None:
    t = data("torch")
    x, i, b = xep.astensor(t["x"]), xep.astensor(t["i"]), xep.astensor(t["b"])
    real_i = eagerpy.astensor(t["i"])
    for mine, real in ((lambda: i.mean(), lambda: real_i.mean()),
                       (lambda: i.all(), lambda: real_i.all()),
                       (lambda: x.logical_and(b), lambda: eagerpy.astensor(t["x"]).logical_and(b.raw))):  # fmt: skip
        with pytest.raises(ValueError):
            real()
        with pytest.raises(ValueError) as info:  # also a TypeError (eagerpy_xp's contract)
            mine()
        assert isinstance(info.value, TypeError) and "torch" in str(info.value)
    with pytest.raises(ValueError, match="2D"):
        x[None] @ x.T
    with pytest.raises(ValueError, match="one entry for each dimension"):
        x.tile((2,))
    with pytest.raises(ValueError, match="unknown type"):
        xep.astensor([1, 2])
    with pytest.raises(TypeError):
        xep.Tensor(t["x"])  # abstract, as in EagerPy


_MYPY_SNIPPET = '''
import eagerpy_xp.eagerpy as ep
from eagerpy_xp.eagerpy import Tensor, TensorType
import numpy

def normalize(x: TensorType) -> TensorType:
    return x / ep.norms.l2(x, axis=-1, keepdims=True).clip(1e-12, ep.inf)

def fgsm(x: ep.Tensor, grad: ep.Tensor, eps: float) -> ep.Tensor:
    return ep.clip(x + eps * grad.sign(), 0, 1)

t = ep.NumPyTensor(numpy.zeros(3))
y: ep.NumPyTensor = normalize(t)
u: ep.Tensor = ep.astensor(numpy.zeros(3))
values, indices = ep.topk(y, 2)
v, g = ep.value_and_grad(lambda a: a.sum(), t)
z: Tensor = fgsm(t, g, 0.1)
n: float = z.sum().item()
'''


def test_mypy_on_eagerpy_style_code(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="the test extra installs mypy")
    (tmp_path / "snippet.py").write_text(_MYPY_SNIPPET)
    (tmp_path / "bad.py").write_text(_MYPY_SNIPPET + "w: ep.PyTorchTensor = normalize(t)\n")
    config = tmp_path / "mypy.ini"
    config.write_text(  # eagerpy_xp is checked, the frameworks are not read (Any): fast
        "[mypy]\npython_version = 3.10\nignore_missing_imports = True\n"
        "follow_imports = skip\n[mypy-eagerpy_xp.*]\nfollow_imports = silent\n"
    )
    args = ["--no-incremental", "--config-file", str(config)]
    out, err, status = api.run([*args, str(tmp_path / "snippet.py")])
    assert status == 0, out + err
    out, err, status = api.run([*args, str(tmp_path / "bad.py")])
    assert status == 1 and "incompatible types in assignment" in out.lower(), out  # the check can fail


def test_uses_only_the_public_surface() -> None:
    """eagerpy_xp.eagerpy imports eagerpy_xp's public names only (no ``_`` modules, no
    backend modules), so the backend layer can change beneath it."""
    package = Path(xep.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("eagerpy_xp"):
                    assert name == "eagerpy_xp", f"{path.name} imports {name}"
        text = path.read_text()
        assert "eagerpy_xp._" not in text and "eagerpy_xp.native._" not in text, path.name
