"""Shared by the backend tests that run on several backends and both flavours: the
namespace fixture (JAX with x64 on, through the thread-local switch) and NumPy copies."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import eagerpy_xp as ep


@contextlib.contextmanager
def x64(backend: str) -> Iterator[None]:
    """JAX's 64-bit mode on for the block (nothing for other backends)."""
    if backend != "jax":
        yield
        return
    import jax

    with jax.enable_x64(True):
        yield


def namespaces(*backends: str) -> Any:
    """A fixture giving each backend's native and wrapped namespace in turn."""

    @pytest.fixture(params=[(b, f) for b in backends for f in ("native", "wrapped")],
                    ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
    def xp(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
        backend, flavour = request.param
        pytest.importorskip(backend, reason=f"{backend} is not installed")
        prefix = "eagerpy_xp.native." if flavour == "native" else "eagerpy_xp."
        with x64(backend):
            yield importlib.import_module(prefix + backend)

    return xp


def values(x: Any) -> np.ndarray:
    """A NumPy copy of a native array or an `Array`."""
    return np.asarray(x.raw if isinstance(x, ep.Array) else x)
