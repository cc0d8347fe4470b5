"""The same calls through the real EagerPy 0.30 and through `eagerpy_xp.eagerpy`, on NumPy,
PyTorch, JAX and TensorFlow: results must agree in class, raw type, dtype, shape and value.

Where EagerPy's frameworks disagreed, `eagerpy_xp.eagerpy` does what EagerPy did on PyTorch;
those cases are listed in `DEVIATIONS` with the reason, and there the test checks the
PyTorch-like result instead of the framework's own (nothing is skipped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _ep_frameworks import BACKENDS, data

import eagerpy_xp.eagerpy as xep

eagerpy = pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")

Case = Callable[[Any, dict[str, Any]], Any]

CASES: dict[str, Case] = {
    # operators
    "add": lambda ep, t: t["x"] + t["p"],
    "radd": lambda ep, t: 2 + t["x"],
    "sub_scalar": lambda ep, t: t["x"] - 1.5,
    "rsub": lambda ep, t: 1.5 - t["x"],
    "mul": lambda ep, t: t["x"] * t["p"],
    "rmul": lambda ep, t: 3 * t["x"],
    "truediv": lambda ep, t: t["x"] / t["p"],
    "rtruediv": lambda ep, t: 1.0 / t["p"],
    "floordiv": lambda ep, t: t["x"] // t["p"],
    "floordiv_int": lambda ep, t: t["i"] // 3,
    "mod": lambda ep, t: t["i"] % 3,
    "int_truediv": lambda ep, t: (t["i"] / 2, t["i"] * 2, 3 - t["i"]),
    "pow": lambda ep, t: t["p"] ** 2,
    "pow_tensor": lambda ep, t: t["p"] ** t["x"],
    "neg_abs": lambda ep, t: abs(-t["x"]),
    "lt": lambda ep, t: t["x"] < 0,
    "le": lambda ep, t: t["x"] <= t["p"],
    "eq": lambda ep, t: t["i"] == 3,
    "ne": lambda ep, t: t["i"] != 3,
    "gt": lambda ep, t: t["x"] > 0.1,
    "ge": lambda ep, t: t["x"] >= 0.1,
    "matmul": lambda ep, t: t["x"] @ t["p"].T,
    "matmul_fn": lambda ep, t: ep.matmul(t["x"], t["p"].transpose()),
    "getitem_int": lambda ep, t: t["x"][1],
    "getitem_slices": lambda ep, t: t["x"][1:, ::2],
    "getitem_none": lambda ep, t: t["x"][:, ep.newaxis, 1],
    "getitem_tensor": lambda ep, t: t["x"][t["idx"]],
    "getitem_pairs": lambda ep, t: t["x"][ep.arange(t["x"], 3), t["labels"]],
    "getitem_ellipsis": lambda ep, t: t["x"][..., 0],
    "getitem_ndarray": lambda ep, t: t["x"][np.arange(2)],  # EagerPy's test_getitem_ndarray
    "getitem_index": lambda ep, t: t["x"][ep.index[:2, 1]],
    "len_iter": lambda ep, t: [len(t["x"]), *list(t["x"])],
    "bool_item": lambda ep, t: (bool(t["x"][0, 0] > 0), t["x"].sum().item(), t["i"][0, 1].item()),
    "shape_ndim": lambda ep, t: (tuple(t["x"].shape), t["x"].ndim, len(t["x"].T)),
    "numpy": lambda ep, t: t["x"].numpy(),
    # element-wise
    "sign": lambda ep, t: ep.sign(t["x"]),
    "sqrt": lambda ep, t: ep.sqrt(t["p"]),
    "square": lambda ep, t: ep.square(t["x"]),
    "tanh": lambda ep, t: ep.tanh(t["x"]),
    "arctanh": lambda ep, t: ep.arctanh(t["x"]),
    "exp": lambda ep, t: ep.exp(t["x"]),
    "log": lambda ep, t: ep.log(t["p"]),
    "log2": lambda ep, t: ep.log2(t["p"]),
    "log10": lambda ep, t: ep.log10(t["p"]),
    "log1p": lambda ep, t: ep.log1p(t["p"]),
    "abs": lambda ep, t: ep.abs(t["i"]),
    "pow_fn": lambda ep, t: ep.pow(t["p"], 0.5),
    "isnan_isinf": lambda ep, t: (ep.isnan(t["x"] / 0 * 0), ep.isinf(t["p"] / 0)),
    "clip": lambda ep, t: ep.clip(t["x"], -0.3, 0.4),
    "clip_int": lambda ep, t: t["i"].clip(-2, 3),
    "minimum": lambda ep, t: ep.minimum(t["x"], t["p"]),
    "minimum_scalar": lambda ep, t: ep.minimum(0.2, t["x"]),
    "maximum": lambda ep, t: ep.maximum(t["x"], 0.0),
    "maximum_int": lambda ep, t: t["i"].maximum(t["i"] * 0),
    "logical": lambda ep, t: (
        ep.logical_and(t["b"], t["x"] > 0),
        ep.logical_or(t["x"] > 0, t["b"]),
        ep.logical_not(t["b"]),
    ),
    "where": lambda ep, t: ep.where(t["b"], t["x"], t["p"]),
    "where_scalar": lambda ep, t: ep.where(t["b"], t["x"], 0.0),
    "where_scalar_first": lambda ep, t: ep.where(t["b"], 1.0, t["x"]),
    "where_scalars": lambda ep, t: ep.where(t["b"], 1.0, -1.0),
    "astype": lambda ep, t: (t["i"].astype(t["x"].dtype), t["x"].float32(), t["x"].bool()),
    # reductions
    "sum": lambda ep, t: (ep.sum(t["x"]), t["x"].sum(axis=1), t["x"].sum(axis=(0, 1), keepdims=True)),
    "sum_int": lambda ep, t: ep.sum(t["i"], axis=0),
    "sum_bool": lambda ep, t: t["b"].sum(),
    "prod": lambda ep, t: (ep.prod(t["p"]), t["p"].prod(axis=0, keepdims=True)),
    "mean": lambda ep, t: (ep.mean(t["x"]), t["x"].mean(axis=-1), t["x"].mean(axis=0, keepdims=True)),
    "min_max": lambda ep, t: (ep.min(t["x"]), ep.max(t["x"], axis=1), t["i"].min(axis=(0, 1), keepdims=True)),
    "all_any": lambda ep, t: (ep.all(t["b"]), ep.any(t["b"], axis=1), t["b"].all(axis=0, keepdims=True)),
    "argmin_argmax": lambda ep, t: (ep.argmin(t["x"]), ep.argmax(t["x"], axis=1), t["x"].argmin(axis=0)),
    "sort": lambda ep, t: (ep.sort(t["x"]), ep.argsort(t["x"], axis=0)),
    "topk": lambda ep, t: ep.topk(t["x"], 2),
    "cumsum": lambda ep, t: (ep.cumsum(t["x"]), t["x"].cumsum(axis=1)),
    "slogdet": lambda ep, t: ep.slogdet(t["sq"]),
    "norms": lambda ep, t: (
        ep.norms.l0(t["x"]), ep.norms.l1(t["x"], axis=1), ep.norms.l2(t["x"], axis=-1, keepdims=True),
        ep.norms.linf(t["x"]), ep.norms.lp(t["x"], 3, axis=0), ep.norms.lp(t["x"], 2),
        t["x"].norms.l2(axis=1), t["x"].norms.lp(ep.inf),
    ),
    # creation
    "ones_zeros_full": lambda ep, t: (
        ep.ones(t["x"], (2, 3)), ep.zeros(t["x"], 4), ep.full(t["x"], (2,), 7.0),
        t["i"].ones(2), t["i"].full((1, 2), 3),
    ),
    "like": lambda ep, t: (ep.ones_like(t["i"]), ep.zeros_like(t["x"]), ep.full_like(t["x"], 2.5)),
    "arange": lambda ep, t: (ep.arange(t["x"], 5), ep.arange(t["x"], 1, 7, 2), t["x"].arange(2, 5)),
    "from_numpy": lambda ep, t: ep.from_numpy(t["x"], np.arange(3, dtype=np.float32)),
    "onehot_like": lambda ep, t: (
        ep.onehot_like(t["x"], t["labels"]), ep.onehot_like(t["x"], t["labels"], value=-2),
    ),
    # shapes
    "reshape": lambda ep, t: (ep.reshape(t["x"], (4, 3)), t["x"].reshape(-1), t["x"].reshape((2, -1))),
    "flatten": lambda ep, t: (ep.flatten(t["x"]), ep.flatten(t["x"][None], start=1)),
    "transpose": lambda ep, t: (ep.transpose(t["x"]), t["x"][None].transpose((2, 0, 1)), t["x"].T),
    "squeeze_expand": lambda ep, t: (
        ep.expand_dims(t["x"], 1), ep.squeeze(t["x"][None, :, None]), t["x"][None].squeeze(axis=0),
        t["x"][None, :, None].squeeze(axis=(0, 2)),
    ),
    "flip": lambda ep, t: (ep.flip(t["x"]), ep.flip(t["x"], axis=1), t["x"].flip(axis=(0, 1))),
    "tile": lambda ep, t: ep.tile(t["x"], (2, 1)),
    "concat_stack": lambda ep, t: (
        ep.concatenate([t["x"], t["p"]]), ep.concatenate([t["x"], t["p"]], axis=1),
        ep.stack([t["x"], t["p"]]), ep.stack([t["x"], t["p"]], axis=-1),
    ),
    "meshgrid": lambda ep, t: (
        ep.meshgrid(t["v"], t["v"][:2]), ep.meshgrid(t["v"], t["v"][:2], indexing="ij"),
    ),
    "pad": lambda ep, t: (
        ep.pad(t["x"], ((1, 0), (0, 2))), ep.pad(t["x"], ((0, 1), (2, 0)), value=-1.0),
    ),
    "pad_reflect": lambda ep, t: ep.pad(t["x"][None], ((0, 0), (1, 1), (2, 1)), mode="reflect"),
    "take_along_axis": lambda ep, t: ep.take_along_axis(t["x"], ep.argsort(t["x"]), axis=-1),
    "index_update": lambda ep, t: (
        ep.index_update(t["x"], ep.index[:, 1], 0.0),
        ep.index_update(t["x"], (ep.arange(t["x"], 3), t["labels"]), t["v"]),
        t["x"].index_update(ep.index[0], t["p"][1]),
    ),
    # helpers
    "softmax": lambda ep, t: (ep.softmax(t["x"]), ep.log_softmax(t["x"], axis=0)),
    "crossentropy": lambda ep, t: ep.crossentropy(t["x"], t["labels"]),
    "kl_div": lambda ep, t: ep.kl_div_with_logits(t["x"], t["p"]),
    "astensor_": lambda ep, t: _astensor_roundtrip(ep, t["x"].raw),
    "istensor": lambda ep, t: (ep.istensor(t["x"]), ep.istensor(t["x"].raw), ep.istensor(1.0)),
}


def _astensor_roundtrip(ep: Any, raw: Any) -> Any:
    x, restore = ep.astensor_(raw)
    (a, b), restore2 = ep.astensors_(raw, raw)
    return restore(x * 2), restore2(a + b, a - b), restore(x.sum(), x.mean())


_TF_INT = "EagerPy on TensorFlow gave int32 indices/sums/aranges; PyTorch (and eagerpy_xp) int64"

#: (case, backend) -> why eagerpy_xp.eagerpy differs from EagerPy on that framework (each
#: is listed in docs/eagerpy.md).  There the result must equal EagerPy's result on PyTorch
#: for the same data, compared as NumPy arrays (values, dtype, shape).
DEVIATIONS: dict[tuple[str, str], str] = {
    ("where_scalars", "numpy"): "two Python scalars: NumPy/JAX gave float64, PyTorch float32",
    ("where_scalars", "jax"): "two Python scalars: NumPy/JAX gave float64, PyTorch float32",
    ("sum_int", "tensorflow"): _TF_INT,
    ("sort", "tensorflow"): _TF_INT,
    ("topk", "tensorflow"): _TF_INT,
    ("arange", "tensorflow"): _TF_INT,
    ("argmin_argmax", "tensorflow"): "argmin(axis=None): TensorFlow reduced axis 0, PyTorch "
    "the flattened array (and int64, as " + _TF_INT + ")",
    ("onehot_like", "jax"): "JAX gave an integer array, PyTorch one of x's dtype",
    ("index_update", "jax"): "EagerPy 0.30 on JAX calls jax.ops.index_update, removed from JAX",
}


def _as_numpy(x: Any) -> np.ndarray:
    return np.asarray(x.raw if isinstance(x, (xep.Tensor, eagerpy.Tensor)) else x)


def _compare_as_numpy(mine: Any, torch_result: Any, backend: str, where: str) -> None:
    if isinstance(torch_result, (tuple, list)):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(torch_result), where
        for k, (m, r) in enumerate(zip(mine, torch_result)):
            _compare_as_numpy(m, r, backend, f"{where}[{k}]")
        return
    assert type(mine) is xep.tensor.NATIVE_CLASSES[backend], where
    a, b = _as_numpy(mine), _as_numpy(torch_result)
    assert (a.dtype, a.shape) == (b.dtype, b.shape), where
    np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6, err_msg=where)


def _compare(mine: Any, real: Any, where: str) -> None:
    if isinstance(real, (tuple, list)):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(real), where
        for k, (m, r) in enumerate(zip(mine, real)):
            _compare(m, r, f"{where}[{k}]")
        return
    if isinstance(real, eagerpy.Tensor):
        assert isinstance(mine, xep.Tensor), f"{where}: {type(mine)}"
        assert type(mine).__name__ == type(real).__name__, where
        mine, real = mine.raw, real.raw
    if isinstance(real, np.generic) or isinstance(mine, np.generic):
        # NumPy itself gives NumPy scalars for some 0-d results and 0-d arrays for others
        # (``scalar.astype``): both count as 0-d NumPy arrays
        assert isinstance(mine, (np.generic, np.ndarray)) and np.ndim(mine) == 0, where
        mine, real = np.asarray(mine), np.asarray(real)
    assert type(mine) is type(real), f"{where}: {type(mine)} vs {type(real)}"
    if isinstance(real, (bool, int, float)):
        assert mine == pytest.approx(real, rel=1e-6), where
        return
    assert mine.dtype == real.dtype, f"{where}: dtype {mine.dtype} vs {real.dtype}"
    a, b = np.asarray(mine), np.asarray(real)
    assert a.shape == b.shape, f"{where}: shape {a.shape} vs {b.shape}"
    np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6, err_msg=where)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(CASES))
def test_same_as_eagerpy(case: str, backend: str) -> None:
    raws = data(backend)
    mine = CASES[case](xep, {k: xep.astensor(v) for k, v in raws.items()})
    if (case, backend) in DEVIATIONS:
        torch_tensors = {k: eagerpy.astensor(v) for k, v in data("torch").items()}
        _compare_as_numpy(mine, CASES[case](eagerpy, torch_tensors), backend, case)
        return
    real = CASES[case](eagerpy, {k: eagerpy.astensor(v) for k, v in raws.items()})
    _compare(mine, real, f"{case} on {backend}")


def test_int_tensor_with_float_scalar_on_tensorflow() -> None:
    """EagerPy on TensorFlow raised for ``int_tensor * 1.5``; eagerpy_xp.eagerpy gives the
    framework's default floating dtype, as EagerPy did on NumPy, PyTorch and JAX."""
    raws = data("tensorflow")
    with pytest.raises(TypeError):
        eagerpy.astensor(raws["i"]) * 1.5
    mine = xep.astensor(raws["i"]) * 1.5
    expected = eagerpy.astensor(data("numpy")["i"]) * 1.5
    assert mine.dtype.as_numpy_dtype == expected.dtype == np.float64
    np.testing.assert_array_equal(mine.numpy(), expected.numpy())


def test_deviations_are_real() -> None:
    """Every listed deviation still differs from EagerPy on its own framework (else the
    entry and its line in docs/eagerpy.md should go)."""
    for case, backend in DEVIATIONS:
        raws = data(backend)
        mine = CASES[case](xep, {k: xep.astensor(v) for k, v in raws.items()})
        try:
            real = CASES[case](eagerpy, {k: eagerpy.astensor(v) for k, v in raws.items()})
        except AttributeError:
            assert (case, backend) == ("index_update", "jax")
            continue
        with pytest.raises(AssertionError):
            _compare(mine, real, f"{case} on {backend}")
