"""einops on `Array`s of every backend: ``einops.rearrange``, ``reduce``, ``repeat``,
``pack``/``unpack`` and ``einsum`` (einops finds a tensor's backend by its type, and had
none for `Array`: "Tensor type unknown to einops"), and ``einops.array_api`` beside them.

Each case runs einops on NumPy arrays (the reference) and on `Array`s of one backend; the
results must be `Array`s of that backend with NumPy's values, from both entry points.
"""

from __future__ import annotations

from typing import Any

import einops
import einops.array_api as einops_xp
import numpy as np
import pytest
from _integration import Target, prints_ok, registers_in_either_order

from eagerpy_xp import Array
from eagerpy_xp.interop import CLIENTS

#: (pattern, input shape, axes lengths): rearrangements of every kind einops parses
REARRANGE: list[tuple[str, tuple[int, ...], dict[str, int]]] = [
    ("a b c -> c b a", (2, 3, 4), {}),
    ("a b c -> a (b c)", (2, 3, 4), {}),
    ("a b c -> (a b c)", (2, 3, 4), {}),
    ("a (b c) -> a b c", (2, 6), {"b": 2}),
    ("(a b) c -> b (c a)", (6, 4), {"a": 3}),
    ("a b c -> a 1 b c ()", (2, 3, 4), {}),
    ("a 1 c -> c a", (2, 1, 4), {}),
    ("a ... -> ... a", (2, 3, 4, 5), {}),
    ("... c -> c ...", (3, 4), {}),
    ("b (h1 h2) (w1 w2) c -> b (h1 w1) (h2 w2 c)", (2, 4, 6, 3), {"h2": 2, "w2": 3}),
    ("a b -> b a", (0, 3), {}),
    (" -> ", (), {}),
]
#: (pattern, input shape, axes lengths) reduced with every reduction einops has
REDUCE: list[tuple[str, tuple[int, ...], dict[str, int]]] = [
    ("a b c -> a", (2, 3, 4), {}),
    ("a b c -> c a", (2, 3, 4), {}),
    ("a (b c) -> a c", (2, 6), {"c": 3}),
    ("a b c -> ()", (2, 3, 4), {}),
    ("a b c -> a () c", (2, 3, 4), {}),
    ("(a2 a) (b2 b) -> a b", (4, 6), {"a2": 2, "b2": 3}),  # max-pooling
    ("a ... -> a", (2, 3, 4), {}),
]
#: (pattern, input shape, axes lengths) that repeat
REPEAT: list[tuple[str, tuple[int, ...], dict[str, int]]] = [
    ("a b -> a b r", (2, 3), {"r": 3}),
    ("a b -> r a b", (2, 3), {"r": 2}),
    ("a b -> a (b r)", (2, 3), {"r": 2}),
    ("a b -> (r a) b", (2, 3), {"r": 2}),
    ("a -> a r s", (3,), {"r": 2, "s": 4}),
    ("a b -> (a h) (b w)", (2, 3), {"h": 2, "w": 3}),  # upsampling
    ("a b -> a r b s", (2, 0), {"r": 2, "s": 1}),
    (" -> r", (), {"r": 3}),
]

REDUCTIONS = ("min", "max", "sum", "mean", "prod")


def _values(target: Target, shape: tuple[int, ...], kind: str = "f") -> np.ndarray:
    rng = np.random.default_rng(len(shape) * 7 + sum(shape))
    if kind == "b":
        return rng.random(shape) < 0.5
    values = rng.integers(-5, 6, shape) if kind == "i" else rng.standard_normal(shape)
    return target.cast(values)


def _check(target: Target, actual: Any, expected: np.ndarray, where: str) -> None:
    assert type(actual) is Array, f"{where}: {type(actual)!r}"
    target.check(actual, np.asarray(expected), where=where)


@pytest.mark.parametrize(("pattern", "shape", "lengths"), REARRANGE, ids=[c[0] for c in REARRANGE])
def test_rearrange(target: Target, pattern: str, shape: tuple[int, ...],
                   lengths: dict[str, int]) -> None:  # fmt: skip
    values = _values(target, shape)
    x = target.asarray(values)
    expected = einops.rearrange(values, pattern, **lengths)
    _check(target, einops.rearrange(x, pattern, **lengths), expected, pattern)
    _check(target, einops_xp.rearrange(x, pattern, **lengths), expected, f"array_api {pattern}")


@pytest.mark.parametrize(("pattern", "shape", "lengths"), REDUCE, ids=[c[0] for c in REDUCE])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_reduce(target: Target, pattern: str, shape: tuple[int, ...], lengths: dict[str, int],
                reduction: str) -> None:  # fmt: skip
    values = _values(target, shape)
    x = target.asarray(values)
    expected = einops.reduce(values, pattern, reduction, **lengths)
    _check(target, einops.reduce(x, pattern, reduction, **lengths), expected, pattern)
    _check(target, einops_xp.reduce(x, pattern, reduction, **lengths), expected,
           f"array_api {pattern}")  # fmt: skip


@pytest.mark.parametrize("reduction", ["min", "max", "sum", "prod"])
def test_reduce_integers(target: Target, reduction: str) -> None:
    values = _values(target, (2, 3, 4), "i")
    x = target.asarray(values)
    expected = einops.reduce(values, "a b c -> b", reduction)
    actual = einops.reduce(x, "a b c -> b", reduction)
    assert type(actual) is Array and np.asarray(actual.numpy()).tolist() == expected.tolist()


def test_mean_of_integers_is_refused_as_einops_refuses_it(target: Target) -> None:
    x = target.asarray(_values(target, (2, 3), "i"))
    with pytest.raises(NotImplementedError, match="non-floating"):
        einops.reduce(x, "a b -> a", "mean")


@pytest.mark.parametrize("reduction", ["any", "all"])
def test_reduce_booleans(target: Target, reduction: str) -> None:
    values = _values(target, (3, 2, 4), "b")
    x = target.xp.asarray(values)
    expected = einops.reduce(values, "a b c -> a c", reduction)
    actual = einops.reduce(x, "a b c -> a c", reduction)
    assert type(actual) is Array and actual.dtype == target.xp.bool
    assert np.asarray(actual.numpy()).tolist() == expected.tolist()


def test_reduce_with_a_callable(target: Target) -> None:
    values = _values(target, (2, 3, 4))
    x = target.asarray(values)

    def spread(v: Any, axes: tuple[int, ...]) -> Any:
        xp = v.__array_namespace__() if type(v) is Array else np
        if xp is np:
            return np.max(v, axis=axes) - np.min(v, axis=axes)
        return xp.max(v, axis=axes) - xp.min(v, axis=axes)

    _check(target, einops.reduce(x, "a b c -> b", spread), einops.reduce(values, "a b c -> b", spread),
           "callable")  # fmt: skip


@pytest.mark.parametrize(("pattern", "shape", "lengths"), REPEAT, ids=[c[0] for c in REPEAT])
def test_repeat(target: Target, pattern: str, shape: tuple[int, ...],
                lengths: dict[str, int]) -> None:  # fmt: skip
    values = _values(target, shape)
    x = target.asarray(values)
    expected = einops.repeat(values, pattern, **lengths)
    _check(target, einops.repeat(x, pattern, **lengths), expected, pattern)
    _check(target, einops_xp.repeat(x, pattern, **lengths), expected, f"array_api {pattern}")


def test_a_list_of_arrays_is_stacked(target: Target) -> None:
    values = [_values(target, (2, 3)) + i for i in range(4)]
    arrays = [target.asarray(v) for v in values]
    _check(target, einops.rearrange(arrays, "n a b -> a (n b)"),
           einops.rearrange(values, "n a b -> a (n b)"), "list")  # fmt: skip
    _check(target, einops.reduce(arrays, "n a b -> a", "sum"),
           einops.reduce(values, "n a b -> a", "sum"), "list reduce")  # fmt: skip


def test_pack_and_unpack(target: Target) -> None:
    a, b, c = (_values(target, s) for s in [(2, 3, 5), (2, 5), (2, 4, 1, 5)])
    expected, expected_shapes = einops.pack([a, b, c], "i * j")
    packed, shapes = einops.pack([target.asarray(v) for v in (a, b, c)], "i * j")
    _check(target, packed, expected, "pack")
    assert shapes == expected_shapes
    parts = einops.unpack(packed, shapes, "i * j")
    for part, reference in zip(parts, (a, b, c), strict=True):
        _check(target, part, reference, "unpack")


@pytest.mark.parametrize(("pattern", "shapes"), [
    ("a b, b c -> a c", [(2, 3), (3, 4)]),
    ("a b c, a d c -> b d", [(2, 3, 4), (2, 5, 4)]),
    ("a b, a b -> ", [(3, 4), (3, 4)]),
    ("i j k -> k j", [(2, 3, 4)]),
])  # fmt: skip
def test_einsum(target: Target, pattern: str, shapes: list[tuple[int, ...]]) -> None:
    values = [_values(target, s) + i for i, s in enumerate(shapes)]
    expected = einops.einsum(*values, pattern)
    _check(target, einops.einsum(*[target.asarray(v) for v in values], pattern), expected, pattern)


def test_einops_errors_are_its_own(target: Target) -> None:
    x = target.asarray(_values(target, (2, 3)))
    with pytest.raises(einops.EinopsError, match=r"Shape mismatch|shape"):
        einops.rearrange(x, "a (b c) -> a b c", b=2)
    with pytest.raises(einops.EinopsError):
        einops.rearrange(x, "a b c -> a b c")


def test_backend_conversions(target: Target) -> None:
    from einops._backends import get_backend

    x = target.asarray(_values(target, (2, 3)))
    backend = get_backend(x)
    assert backend.framework_name == "eagerpy_xp"
    assert type(backend.to_numpy(x)) is np.ndarray
    np.testing.assert_array_equal(backend.to_numpy(x), np.asarray(x.numpy()))
    converted = backend.from_numpy(np.arange(3.0))
    assert type(converted) is Array and converted.backend == "numpy"
    assert np.asarray(backend.arange(2, 5).numpy()).tolist() == [2, 3, 4]


@pytest.mark.parametrize("first", ["einops", "eagerpy_xp"])
def test_einops_finds_arrays_in_either_import_order(first: str) -> None:
    registers_in_either_order(first, "einops", "y = einops.rearrange(x, 'a b -> b a')\n"
                              "assert type(y) is ep.Array and y.shape == (3, 2), y")  # fmt: skip


def test_the_hook_leaves_once_every_client_is_imported() -> None:
    code = (
        "import sys, eagerpy_xp\n"
        "from eagerpy_xp.interop import _ClientHook\n"
        "assert [f.waiting for f in sys.meta_path if isinstance(f, _ClientHook)] == "
        f"[{set(CLIENTS)!r}]\n"
        "import einops\n"
        "assert [f.waiting for f in sys.meta_path if isinstance(f, _ClientHook)] == [{'autoray'}]\n"
        "import autoray\n"
        "assert not [f for f in sys.meta_path if isinstance(f, _ClientHook)]\n"
        "print('ok')\n"
    )
    prints_ok(code)

