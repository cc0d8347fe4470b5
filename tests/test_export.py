"""`eagerpy_xp.export` and `eagerpy_xp.onnx_function`: a portable function traced into an
ONNX model from examples of each framework (the same graph from each), run by
onnxruntime equal to the function on the examples' own framework, dynamic axes, both
flavours, several outputs, and the errors for what cannot be traced."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ndonnx", reason="ndonnx is not installed (pip install 'eagerpy-xp[all]')")
pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")

import eagerpy_xp as ep

RNG = np.random.default_rng(5)
FRAMEWORKS = ("numpy", "torch", "jax", "tensorflow", "mlx")


def scores(x: Any, w: Any) -> Any:
    """A portable scoring function: clipped affine map, softmax over the last axis."""
    xp = ep.namespace(x)
    z = xp.clip(xp.matmul(x, w), -5.0, 5.0)
    e = xp.exp(z - xp.max(z, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def examples_of(framework: str) -> tuple[Any, Any]:
    pytest.importorskip({"mlx": "mlx.core"}.get(framework, framework))
    x = RNG.normal(size=(4, 3)).astype(np.float32)
    w = RNG.normal(size=(3, 2)).astype(np.float32)
    if framework == "numpy":
        return x, w
    return ep.convert(x, framework), ep.convert(w, framework)


def host(a: Any) -> np.ndarray:
    return np.asarray(ep.convert(a, "numpy"))


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_export_from_each_framework_runs_equal_to_the_framework(framework: str) -> None:
    x, w = examples_of(framework)
    model = ep.export(scores, x, w)
    assert [i.name for i in model.graph.input] == ["x", "w"]
    result = ep.onnx_function(model)(x, w)
    assert ep.namespace(result) is ep.namespace(x)  # back in the examples' own framework
    np.testing.assert_allclose(host(result), host(scores(x, w)), rtol=1e-5, atol=1e-6)


def test_the_same_function_gives_the_same_graph_from_every_framework() -> None:
    graphs = {}
    for framework in FRAMEWORKS:
        try:
            importlib.import_module({"mlx": "mlx.core"}.get(framework, framework))
        except ImportError:
            continue
        x, w = examples_of(framework)
        graphs[framework] = ep.export(scores, x, w, dynamic_axes={"x": {0: "batch"}}
                                      ).SerializeToString()  # fmt: skip
        wrapped = ep.export(scores, ep.astensor(x), ep.astensor(w), dynamic_axes={"x": {0: "batch"}})
        assert wrapped.SerializeToString() == graphs[framework]
    assert len(graphs) >= 2
    assert len(set(graphs.values())) == 1, sorted(graphs)


def test_dynamic_axes_take_other_sizes() -> None:
    x, w = examples_of("numpy")
    model = ep.export(scores, x, w, dynamic_axes={0: {0: "batch"}})
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "batch" and dims[1].dim_value == 3
    run = ep.onnx_function(model)
    bigger = RNG.normal(size=(9, 3)).astype(np.float32)
    np.testing.assert_allclose(run(bigger, w), scores(bigger, w), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"onnx_function: onnxruntime refused"):
        run(RNG.normal(size=(2, 4)).astype(np.float32), w)
    listed = ep.export(scores, x, w, dynamic_axes=[[0], None])
    assert listed.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "x_0"


def test_data_dependent_shapes_and_several_outputs() -> None:
    def positives(x: Any) -> Any:
        xp = ep.namespace(x)
        kept = x[x > 0]
        return {"kept": kept, "count": xp.sum(xp.astype(x > 0, xp.int64))}

    x = np.array([1.5, -2.0, 0.0, 3.0])
    model = ep.export(positives, x, dynamic_axes=[[0]])
    assert [o.name for o in model.graph.output] == ["kept", "count"]
    kept, count = ep.onnx_function(model)(np.array([-1.0, 4.0, 5.0, -6.0, 7.0]))
    np.testing.assert_array_equal(kept, [4.0, 5.0, 7.0])
    assert count == 3


def test_wrapped_examples_trace_the_wrapped_flavour_with_writes() -> None:
    def zero_first(x: Any) -> Any:
        assert isinstance(x, ep.Array)
        x[0] = 0
        return x * 2

    a = np.arange(6, dtype=np.int32).reshape(3, 2)
    model = ep.export(zero_first, ep.astensor(a))
    result = ep.onnx_function(model)(ep.astensor(a))
    assert isinstance(result, ep.Array)
    np.testing.assert_array_equal(host(result), [[0, 0], [4, 6], [8, 10]])


def test_python_control_flow_on_values_is_refused_with_where() -> None:
    def branchy(x: Any) -> Any:
        xp = ep.namespace(x)
        if xp.sum(x) > 0:
            return x
        return -x

    for example in (np.ones(3), ep.astensor(np.ones(3))):
        with pytest.raises(ValueError, match=r"eagerpy_xp\.export: .*branchy: Python control "
                                             r"flow .*xp\.where .*test_export\.py"):  # fmt: skip
            ep.export(branchy, example)


def test_functions_onnx_lacks_are_refused_naming_them() -> None:
    def spectrum(x: Any) -> Any:
        return ep.namespace(x).linalg.svdvals(x)

    with pytest.raises(NotImplementedError, match=r"eagerpy_xp\.export: .*spectrum cannot be "
                                                  r"exported: eagerpy_xp\.ndonnx\.linalg\.svdvals: "
                                                  r"ONNX has no singular value"):  # fmt: skip
        ep.export(spectrum, np.eye(3))
    with pytest.raises(NotImplementedError, match=r"complex"):
        ep.export(lambda x: x, np.ones(2, dtype=np.complex64))


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match=r"example 0 must be an array"):
        ep.export(scores, [1.0, 2.0])
    with pytest.raises(ValueError, match=r"dynamic_axes names the input 'z'"):
        ep.export(scores, *examples_of("numpy"), dynamic_axes={"z": [0]})
    with pytest.raises(ValueError, match=r"dynamic axis 2 of input 'x' is out of range"):
        ep.export(scores, *examples_of("numpy"), dynamic_axes={"x": [2]})
    with pytest.raises(TypeError, match=r"must return arrays"):
        ep.export(lambda x: 1.0, np.ones(2))
    run = ep.onnx_function(ep.export(scores, *examples_of("numpy")))
    with pytest.raises(TypeError, match=r"missing inputs w"):
        run(np.ones((4, 3), np.float32))


def test_import_eagerpy_xp_imports_no_onnx_package() -> None:
    code = ("import sys, eagerpy_xp as ep; assert callable(ep.export); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('onnx', 'ndonnx', 'onnxruntime', 'spox')))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
