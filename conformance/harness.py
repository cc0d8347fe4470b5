"""The test targets (backend x flavour x device) and the conversions every test uses.

A `Target` is one cell column of the conformance matrix.  Inputs are built as NumPy
arrays, handed to a target as its own native arrays (wrapped into `eagerpy_xp.Array`
for the wrapped flavour) and results come back as NumPy arrays for comparison.  The
conversions here use the frameworks directly, not the library under test.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from eagerpy_xp import _detect

BACKENDS = _detect.BACKENDS  # every registered backend
FLAVOURS = ("wrapped", "native")
DEVICE_KINDS = ("cpu", "cuda")

#: Spec chapters, in the order of eagerpy_xp._spec.FUNCTIONS, each with its first function.
_CHAPTER_STARTS = (
    ("arange", "creation"),
    ("astype", "data types"),
    ("abs", "elementwise"),
    ("take", "indexing"),
    ("matmul", "linear algebra"),
    ("broadcast_arrays", "manipulation"),
    ("argmax", "searching"),
    ("isin", "sets"),
    ("argsort", "sorting"),
    ("cumulative_prod", "statistics"),
    ("all", "utility"),
)

#: The rows of the matrix, in display order.
AREAS = (
    "creation", "data types", "elementwise", "indexing", "linear algebra", "manipulation",
    "searching", "sets", "sorting", "statistics", "utility", "array object",
    "special cases", "promotion", "signatures", "info", "errors", "linalg", "fft",
    "compiled",
)  # fmt: skip


def _chapters() -> dict[str, str]:
    from eagerpy_xp import _spec

    starts = dict(_CHAPTER_STARTS)
    result: dict[str, str] = {}
    area = "creation"
    for name in _spec.FUNCTIONS:
        area = starts.get(name, area)
        result[name] = area
    return result


#: Spec function name -> chapter (matrix row).
AREA_OF: dict[str, str] = _chapters()


def enable_jax_x64() -> None:
    """The harness runs JAX with 64-bit types (must happen before jax is imported).

    It also quiets TensorFlow's C++ start-up logging (unless the caller chose a level).
    """
    os.environ["JAX_ENABLE_X64"] = "1"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


@dataclass
class Target:
    """One backend x flavour x device under test."""

    backend: str
    flavour: str
    device: str
    unavailable: str | None = None  # why this target cannot run, or None
    _xp: ModuleType | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return f"{self.backend}-{self.flavour}-{self.device}"

    @property
    def xp(self) -> ModuleType:
        """The namespace under test (``eagerpy_xp.<b>`` or ``eagerpy_xp.native.<b>``)."""
        if self._xp is None:
            prefix = "eagerpy_xp.native." if self.flavour == "native" else "eagerpy_xp."
            self._xp = importlib.import_module(prefix + self.backend)
        return self._xp

    @property
    def wrapped(self) -> bool:
        return self.flavour == "wrapped"

    @property
    def unheld(self) -> frozenset[str]:
        """The standard dtypes this target cannot hold (MLX: complex128; float64 on its
        GPU): inputs of them are not drawn, results of them not expected (`holds`)."""
        absent = _UNHELD.get(self.backend, {})
        return absent.get(self.device.partition(":")[0], absent.get("*", frozenset()))

    def holdable(self, a: np.ndarray) -> np.ndarray:
        """``a`` in the nearest dtype this target holds (complex128 as complex64, float64
        as float32): for the invalid-call fuzzer, whose inputs only need their kind."""
        if a.dtype.name in self.unheld:
            return a.astype({"complex128": "complex64", "float64": "float32"}[a.dtype.name])
        return a

    def check_holds(self, *names: str) -> None:
        """Leave the test (hypothesis: reject the example) when one of the dtype
        ``names`` is one this target cannot hold."""
        lacking = sorted(set(names) & self.unheld)
        if lacking:
            from hypothesis import currently_in_test_context, reject

            if currently_in_test_context():
                reject()
            pytest.skip(f"{self.backend} cannot hold {', '.join(lacking)} on {self.device}")

    @property
    def flushes_subnormals(self) -> bool:
        """TensorFlow and XLA kernels treat subnormal inputs as zero (flush-to-zero); no
        API turns that off, so results may be those of the flushed inputs."""
        return self.backend in ("tensorflow", "jax")

    # -- conversions ------------------------------------------------------------------
    def native(self, a: np.ndarray) -> Any:
        """A NumPy array as this target's native array on its device."""
        a = np.asarray(a)
        self.check_holds(a.dtype.name)
        return _FROM_NUMPY[self.backend](a, self.device)

    def asarray(self, a: Any) -> Any:
        """A NumPy array (or a Python scalar, kept as it is) as an input of this target."""
        if isinstance(a, (bool, int, float, complex)):
            return a
        raw = self.native(a)
        if self.wrapped:
            import eagerpy_xp

            return eagerpy_xp.astensor(raw)
        return raw

    def is_array(self, obj: Any) -> bool:
        """Whether ``obj`` is an array of this target's flavour."""
        import eagerpy_xp

        if self.wrapped:
            return type(obj) is eagerpy_xp.Array and obj.backend == self.backend
        backend = self.xp.__backend__
        return bool(backend.is_native(obj))

    def to_numpy(self, obj: Any) -> np.ndarray:
        """An array result of this target as a NumPy array (copied to the host)."""
        import eagerpy_xp

        if type(obj) is eagerpy_xp.Array:
            obj = obj.raw
        if isinstance(obj, (np.ndarray, np.generic)):
            return np.asarray(obj)
        return _TO_NUMPY[self.backend](obj)

    def dtype_name(self, dtype: Any) -> str:
        """The standard name of one of this namespace's dtypes (by identity/equality)."""
        from eagerpy_xp._dtypes import ALL

        for name in ALL:
            if dtype == getattr(self.xp, name):
                return name
        raise AssertionError(f"{self.id}: {dtype!r} is none of the namespace's dtypes")


# -- framework conversions (harness side, independent of the library) -----------------------
def _numpy_from(a: np.ndarray, device: str) -> Any:
    return a.copy()


def _torch_from(a: np.ndarray, device: str) -> Any:
    import torch

    return torch.from_numpy(np.array(a, copy=True, order="C")).to(device)


def _jax_from(a: np.ndarray, device: str) -> Any:
    import jax

    return jax.device_put(a, _jax_device(device))


def _tf_from(a: np.ndarray, device: str) -> Any:
    import tensorflow as tf

    with tf.device(_tf_device(device)):
        return tf.identity(tf.constant(a))


def _dask_from(a: np.ndarray, device: str) -> Any:
    """Several chunks along the first axis (two halves), so that chunk boundaries are
    exercised; matrices (2-D) stay whole, as the linalg decompositions need them."""
    import dask.array as da

    chunks = tuple(max(1, (n + 1) // 2) if i == 0 and a.ndim != 2 else max(1, n)
                   for i, n in enumerate(a.shape))  # fmt: skip
    return da.from_array(np.array(a, copy=True), chunks=chunks)


def _mlx_from(a: np.ndarray, device: str) -> Any:
    """MLX keeps the dtype only when told (it reads float64 as float32)."""
    import mlx.core as mx

    name = "bool_" if a.dtype == np.bool_ else a.dtype.name
    return mx.array(np.asarray(a, order="C"), dtype=getattr(mx, name))


def _mlx_to(x: Any) -> np.ndarray:
    return np.array(x)


def _torch_to(x: Any) -> np.ndarray:
    return np.asarray(x.detach().cpu().resolve_conj().resolve_neg().numpy())


def _dask_to(x: Any) -> np.ndarray:
    return np.asarray(x.compute(scheduler="synchronous"))


def _jax_to(x: Any) -> np.ndarray:
    import jax

    return np.asarray(jax.device_get(x))


def _tf_to(x: Any) -> np.ndarray:
    return np.asarray(x.numpy())


_FROM_NUMPY = {"numpy": _numpy_from, "torch": _torch_from, "jax": _jax_from,
               "tensorflow": _tf_from, "dask": _dask_from, "mlx": _mlx_from}  # fmt: skip
_TO_NUMPY = {"numpy": np.asarray, "torch": _torch_to, "jax": _jax_to, "tensorflow": _tf_to,
             "dask": _dask_to, "mlx": _mlx_to}  # fmt: skip
#: backend -> device kind ("*": every other) -> the standard dtypes it cannot hold there.
_UNHELD: dict[str, dict[str, frozenset[str]]] = {
    "mlx": {"cpu": frozenset({"complex128"}), "*": frozenset({"complex128", "float64"})},
}


def _jax_device(device: str) -> Any:
    import jax

    kind, _, index = device.partition(":")
    platform = "gpu" if kind == "cuda" else kind
    return jax.devices(platform)[int(index or 0)]


def _tf_device(device: str) -> str:
    kind, _, index = device.partition(":")
    return f"/{'GPU' if kind == 'cuda' else 'CPU'}:{int(index or 0)}"


# -- discovery ------------------------------------------------------------------------------
def _framework_devices(backend: str) -> list[str]:
    """The devices a framework sees (CPU always; CUDA when it has one)."""
    devices = ["cpu"]
    if backend == "torch":
        import torch

        devices += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    elif backend == "jax":
        import jax

        try:
            devices += [f"cuda:{i}" for i in range(len(jax.devices("gpu")))]
        except RuntimeError:
            pass
    elif backend == "tensorflow":
        import tensorflow as tf

        devices += [f"cuda:{i}" for i in range(len(tf.config.list_physical_devices("GPU")))]
    elif backend == "mlx":
        import mlx.core as mx

        if mx.is_available(mx.gpu):  # Metal on Apple silicon ("mps"), else CUDA
            metal = getattr(mx, "metal", None)
            devices.append("mps:0" if metal is not None and metal.is_available() else "cuda:0")
    return devices


def _import_problem(backend: str, flavour: str) -> str | None:
    prefix = "eagerpy_xp.native." if flavour == "native" else "eagerpy_xp."
    try:
        importlib.import_module(prefix + backend)
    except Exception as exc:  # a backend being written may fail in any way
        return f"not available: import {prefix}{backend} failed ({type(exc).__name__}: {exc})"
    if backend == "jax":
        import jax

        if not jax.config.read("jax_enable_x64"):
            return "not available: jax was imported before the harness enabled x64"
    return None


def _wanted(option: str | None, known: tuple[str, ...]) -> list[str]:
    if not option or option == "all":
        return list(known)
    values = [v.strip() for v in option.split(",") if v.strip()]
    return values


def discover(backends: str | None, flavours: str | None, devices: str | None) -> list[Target]:
    """The requested targets; those that cannot run carry the reason in ``unavailable``."""
    targets: list[Target] = []
    device_filter = _wanted(devices, ())
    for backend in _wanted(backends, BACKENDS):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        for flavour in _wanted(flavours, FLAVOURS):
            if flavour not in FLAVOURS:
                raise ValueError(f"unknown flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
            problem = _import_problem(backend, flavour)
            seen = ["cpu"] if problem else _framework_devices(backend)
            chosen = [d for d in seen if _device_selected(d, device_filter)]
            for wanted in device_filter:  # requested but not seen: show as not available
                if not any(_device_selected(d, [wanted]) for d in seen):
                    chosen.append(wanted)
                    targets.append(Target(backend, flavour, wanted,
                                          f"not available: {backend} sees no {wanted} device"))
            for device in chosen:
                if device in seen:
                    targets.append(Target(backend, flavour, device, problem))
    return targets


def _device_selected(device: str, wanted: list[str]) -> bool:
    if not wanted:
        return True
    kind = device.partition(":")[0]
    return device in wanted or kind in wanted
