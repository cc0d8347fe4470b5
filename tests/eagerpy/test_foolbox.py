"""Foolbox 3 on `eagerpy_xp.eagerpy` (through `install`) gives the adversarials it gives on
the real EagerPy 0.30, for PyTorch, TensorFlow and JAX models made here (nothing is
downloaded): FGSM, LinfPGD, DeepFool, Carlini-Wagner and the Boundary attack, few steps."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from _ep_frameworks import seed

import eagerpy_xp.eagerpy as xep

pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")
pytest.importorskip("foolbox", reason="the test extra installs foolbox>=3.3")

FRAMEWORKS = ("torch", "tensorflow", "jax")

#: name -> (the attack, made from the foolbox module; epsilons)
ATTACKS: dict[str, tuple[Callable[[Any], Any], float | None]] = {
    "fgsm": (lambda fb: fb.attacks.FGSM(), 0.3),
    "pgd": (lambda fb: fb.attacks.LinfPGD(steps=5), 0.3),
    "deepfool": (lambda fb: fb.attacks.L2DeepFoolAttack(steps=5), None),
    "carlini_wagner": (
        lambda fb: fb.attacks.L2CarliniWagnerAttack(binary_search_steps=2, steps=10, initial_const=1.0),
        None,
    ),
    "boundary": (
        lambda fb: fb.attacks.BoundaryAttack(
            steps=20,
            init_attack=fb.attacks.LinearSearchBlendedUniformNoiseAttack(directions=20, steps=20),
        ),
        None,
    ),
}


def _problem() -> tuple[np.ndarray, np.ndarray]:
    """A linear classifier centred at 0.5 (so its classes vary over the input box) and 6
    inputs in [0.2, 0.8]."""
    rng = np.random.default_rng(0)
    weights = (rng.normal(size=(12, 3)) * 3).astype(np.float32)
    inputs = rng.uniform(0.2, 0.8, size=(6, 1, 3, 4)).astype(np.float32)
    return weights, inputs


def _model(fb: ModuleType, framework: str, weights: np.ndarray) -> Any:
    """The Foolbox model of ``framework`` for ``logits = (flatten(x) - 0.5) @ weights``."""
    if framework == "torch":
        torch = importlib.import_module("torch")
        w = torch.from_numpy(weights)
        net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(12, 3)).eval()
        with torch.no_grad():
            net[1].weight.copy_(w.T)
            net[1].bias.copy_(-0.5 * w.sum(0))
        return fb.PyTorchModel(net, bounds=(0, 1), device="cpu")
    if framework == "tensorflow":
        tf = importlib.import_module("tensorflow")
        w = tf.constant(weights)
        return fb.TensorFlowModel(
            lambda x: tf.matmul(tf.reshape(x, (-1, 12)) - 0.5, w), bounds=(0, 1), device="/CPU:0"
        )
    jnp = importlib.import_module("jax.numpy")
    wj = jnp.asarray(weights)
    return fb.JAXModel(lambda x: (x.reshape(-1, 12) - 0.5) @ wj, bounds=(0, 1))


@contextmanager
def _foolbox(on_eagerpy_xp: bool) -> Iterator[ModuleType]:
    """A fresh ``import foolbox`` on the real EagerPy or on eagerpy_xp.eagerpy; every
    ``foolbox*``/``eagerpy*`` module entry is restored afterwards."""

    def ours(name: str) -> bool:
        return name.split(".")[0] in ("foolbox", "eagerpy")

    saved = {n: m for n, m in sys.modules.items() if ours(n)}
    for name in [n for n in saved if n.split(".")[0] == "foolbox"]:
        del sys.modules[name]
    if on_eagerpy_xp:
        xep.install()
    else:
        importlib.import_module("eagerpy")
    try:
        yield importlib.import_module("foolbox")
    finally:
        xep.uninstall()
        for name in [n for n in sys.modules if ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)


def _jax_x64_off(framework: str) -> Any:
    """JAX runs with x64 off (JAX's default; the test session turns it on): EagerPy on JAX
    with x64 on draws float64 random numbers for float32 tensors, eagerpy_xp.eagerpy draws in
    the tensor's dtype (as EagerPy on PyTorch did), so PGD's random start and the Boundary
    attack would differ there (listed in docs/eagerpy.md)."""
    if framework != "jax":
        return nullcontext()
    return importlib.import_module("jax").enable_x64(False)


def _run_attacks(framework: str, on_eagerpy_xp: bool) -> dict[str, Any]:
    weights, inputs = _problem()
    results: dict[str, Any] = {}
    with _foolbox(on_eagerpy_xp) as fb, _jax_x64_off(framework):
        model = _model(fb, framework, weights)
        ep = sys.modules["eagerpy"]
        assert (ep is xep) == on_eagerpy_xp
        x = ep.astensor(model.dummy).from_numpy(inputs).raw
        labels = ep.astensor(model(x)).argmax(axis=-1).raw
        for name, (make, epsilons) in ATTACKS.items():
            seed(framework)
            try:
                _, clipped, success = make(fb)(model, x, labels, epsilons=epsilons)
                results[name] = (np.asarray(clipped), np.asarray(success), type(clipped))
            except Exception as e:  # reported by the test of this attack
                results[name] = e
    return results


@pytest.fixture(scope="module", params=FRAMEWORKS)
def attack_results(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], dict[str, Any]]:
    framework = request.param
    pytest.importorskip({"torch": "torch", "tensorflow": "tensorflow", "jax": "jax"}[framework])
    return framework, _run_attacks(framework, False), _run_attacks(framework, True)


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_same_adversarials(attack: str, attack_results: tuple[str, dict[str, Any], dict[str, Any]]) -> None:
    framework, real, mine = attack_results
    if isinstance(real[attack], Exception):
        raise AssertionError(f"{attack} on {framework} failed on the real EagerPy") from real[attack]
    if isinstance(mine[attack], Exception):
        raise mine[attack]
    (a, success_a, type_a), (b, success_b, type_b) = mine[attack], real[attack]
    assert type_a is type_b, f"{attack} on {framework}: returns {type_a}, EagerPy {type_b}"
    np.testing.assert_array_equal(success_a, success_b)
    assert success_b.any(), f"{attack} on {framework}: the problem is too hard to show anything"
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5, err_msg=f"{attack} on {framework}")
