"""Helpers of the EagerPy-compatibility tests: raw arrays of every framework made from the
same NumPy data."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

import numpy as np

BACKENDS = ("numpy", "torch", "jax", "tensorflow")


def to_framework(backend: str, a: np.ndarray) -> Any:
    """``a`` as a ``backend`` array (the framework's own constructor, as a user would)."""
    if backend == "numpy":
        return a
    if backend == "torch":
        return importlib.import_module("torch").from_numpy(a.copy())
    if backend == "jax":
        return importlib.import_module("jax.numpy").asarray(a)
    if backend == "tensorflow":
        return importlib.import_module("tensorflow").convert_to_tensor(a)
    raise ValueError(backend)


def data(backend: str) -> dict[str, Any]:
    """The raw arrays every comparison starts from."""
    rng = np.random.default_rng(0)
    label_dtype = np.int64 if backend == "torch" else np.int32
    arrays = {
        "x": rng.uniform(-0.9, 0.9, (3, 4)).astype(np.float32),
        "p": rng.uniform(0.5, 2.0, (3, 4)).astype(np.float32),
        "i": np.arange(12, dtype=np.int32).reshape(3, 4) - 5,
        "b": rng.uniform(size=(3, 4)) > 0.5,
        "labels": np.array([0, 3, 1], dtype=label_dtype),
        "idx": np.array([2, 0], dtype=label_dtype),
        "sq": rng.normal(size=(3, 3)).astype(np.float32),
        "v": np.array([1.0, 2.0, 3.0], dtype=np.float32),
    }
    return {k: to_framework(backend, a) for k, a in arrays.items()}


def eagerpy_modules() -> dict[str, ModuleType]:
    return {n: m for n, m in sys.modules.items() if n == "eagerpy" or n.startswith("eagerpy.")}


def seed(backend: str) -> None:
    """The same random streams for EagerPy and eagerpy_xp.eagerpy: the framework's global
    generator seeded, JAX's global EagerPy keys reset (both start at ``PRNGKey(0)``)."""
    np.random.seed(0)
    if backend == "torch":
        importlib.import_module("torch").manual_seed(0)
    elif backend == "tensorflow":
        importlib.import_module("tensorflow").random.set_seed(0)
    elif backend == "jax":
        importlib.import_module("eagerpy_xp.eagerpy").JAXTensor.key = None
        real = sys.modules.get("eagerpy")
        if real is not None:
            real.JAXTensor.key = None
