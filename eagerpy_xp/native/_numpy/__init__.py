"""The NumPy backend (``_backend``: NumPy 2 is close to the standard; it holds only what
differs).  This module describes it: importing it imports no framework."""

from __future__ import annotations

from typing import Any

from ..._descriptor import Descriptor, StubNames


def _from_numpy(a: Any, device: str) -> Any:
    return a.copy()


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x)


def _global_state() -> dict[str, Any]:
    import numpy as np

    return {"numpy errstate": tuple(sorted(np.geterr().items()))}


DESCRIPTOR = Descriptor(
    name="numpy",
    packages=("numpy",),
    array_types="numpy.ndarray",
    framework="numpy",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import numpy", "numpy.ndarray[Any, Any]", "numpy.dtype[Any]"),
    numpy_dtypes=True,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    global_state=_global_state,
    peers=("array_api_compat.numpy", "array_api_strict"),
    eagerpy_class="NumPyTensor",
    in_eagerpy=True,
    in_array_api_compat=True,
    benchmark_setup="import numpy as fw; x = fw.linspace(0.0, 1.0, 16, dtype=fw.float32)",
    benchmark_fast=True,
)
