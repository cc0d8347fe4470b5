"""The TensorFlow backend (``_backend`` composes it).  This module describes it:
importing it imports no framework."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..._descriptor import Compiler, Descriptor, StubNames


def _gpus() -> list[Any]:
    import tensorflow as tf

    return list(tf.config.list_physical_devices("GPU"))


def _devices() -> list[str]:
    return ["cpu", *(f"cuda:{i}" for i in range(len(_gpus())))]


def _device_name(device: str) -> str:
    import tensorflow as tf

    details = tf.config.experimental.get_device_details(_gpus()[int(device.partition(":")[2] or 0)])
    return str(details.get("device_name", device))


def _from_numpy(a: Any, device: str) -> Any:
    import tensorflow as tf

    kind, _, index = device.partition(":")
    with tf.device(f"/{'GPU' if kind == 'cuda' else 'CPU'}:{int(index or 0)}"):
        return tf.identity(tf.constant(a))


def _to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x.numpy())


def _global_state() -> dict[str, Any]:
    import tensorflow as tf
    from tensorflow.python.ops.numpy_ops import np_dtypes

    return {"tf numpy methods": hasattr(tf.Tensor, "ravel"),
            "tf prefer float32": bool(np_dtypes.is_prefer_float32())}


def _trace_count(compiled: Any) -> int:
    return int(compiled.experimental_get_tracing_count())


_DATA = "a data-dependent shape: XLA compiles static shapes only"
_NO_KERNEL = "TensorFlow's XLA compiler for the CPU has no kernel for it"

DESCRIPTOR = Descriptor(
    name="tensorflow",
    packages=("tensorflow",),
    array_types="tf.Tensor/tf.Variable",
    framework="tensorflow",
    backend_module=f"{__name__}._backend",
    stub=StubNames("import tensorflow", "tensorflow.Tensor", "tensorflow.dtypes.DType"),
    differentiable=True,
    devices=_devices,
    device_name=_device_name,
    from_numpy=_from_numpy,
    to_numpy=_to_numpy,
    suite_environment_defaults=MappingProxyType({"TF_CPP_MIN_LOG_LEVEL": "2"}),
    global_state=_global_state,
    flushes_subnormals=True,
    # vectorized_map falls back to a loop where a shape depends on values
    compiler=Compiler(trace_count=_trace_count, data_dependent=_DATA,
                      limits=MappingProxyType(dict.fromkeys(
                          ["linalg.det", "linalg.slogdet", "linalg.eig", "linalg.eigvals"],
                          _NO_KERNEL))),
    eagerpy_class="TensorFlowTensor",
    in_eagerpy=True,
    compiler_modules=("tensorflow.python.autograph.impl",),
    benchmark_setup="import tensorflow as fw; x = fw.linspace(0.0, 1.0, 16)",
    benchmark_spellings=MappingProxyType({
        "xp.sum(x, axis=0)": "fw.reduce_sum(a, axis=0)",
        "xp.mean(x, axis=0)": "fw.reduce_mean(a, axis=0)",
        "x ** 2": "fw.pow(a, 2.0)", "2 - x": "2.0 - a", "x[::-1]": "fw.reverse(a, [0])"}),
    benchmark_array="constant",
)
