"""get_namespace / namespace: flavour choice, detection, and every error path."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import eagerpy_xp as ep
import eagerpy_xp.native.numpy as nnp
import eagerpy_xp.numpy as wnp


def test_import_imports_no_framework() -> None:
    code = (
        "import sys, eagerpy_xp, eagerpy_xp.native;"
        "bad = {'torch', 'jax', 'tensorflow', 'numpy', 'dask'} & set(sys.modules);"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_native_arrays_give_native_flavour() -> None:
    x = np.ones(3)
    assert ep.get_namespace(x) is nnp
    assert ep.namespace(x, 1.0, None, x) is nnp
    assert ep.get_namespace(np.float32(1.0)) is nnp


def test_any_array_gives_wrapped_flavour() -> None:
    x = np.ones(3)
    a = ep.astensor(x)
    assert ep.get_namespace(a) is wnp
    assert ep.get_namespace(x, a, 2) is wnp
    assert a.__array_namespace__() is wnp


@pytest.mark.parametrize("version", [None, "2025.12", "2024.12", "2023.12"])
def test_api_versions_accepted(version: str | None) -> None:
    assert ep.get_namespace(np.ones(1), api_version=version) is nnp
    assert ep.astensor(np.ones(1)).__array_namespace__(api_version=version) is wnp


@pytest.mark.parametrize("version", ["2021.12", "2026.12", "latest", ""])
def test_unknown_api_version(version: str) -> None:
    with pytest.raises(ValueError, match="api_version"):
        ep.get_namespace(np.ones(1), api_version=version)
    with pytest.raises(ValueError, match="api_version"):
        ep.astensor(np.ones(1)).__array_namespace__(api_version=version)


def test_no_array_raises() -> None:
    with pytest.raises(TypeError, match="no array"):
        ep.get_namespace()
    with pytest.raises(TypeError, match=r"no array.*int, float, NoneType"):
        ep.get_namespace(1, 2.0, None)


@pytest.mark.parametrize("value", [[1, 2], (1, 2), {"a": 1}, "text", b"bytes", object()])
def test_unsupported_types_raise(value: object) -> None:
    with pytest.raises(TypeError, match=f"unsupported array type .*{type(value).__qualname__}"):
        ep.get_namespace(np.ones(1), value)


def test_numpy_masked_array_is_unsupported() -> None:
    with pytest.raises(TypeError, match="MaskedArray"):
        ep.get_namespace(np.ma.masked_array([1, 2]))


def test_mixed_libraries_raise() -> None:
    torch = pytest.importorskip("torch", reason="torch not installed: the mix needs two backends")
    with pytest.raises(TypeError, match=r"several libraries.*numpy and torch"):
        ep.get_namespace(np.ones(1), torch.ones(1))
    with pytest.raises(TypeError, match="several libraries"):
        ep.get_namespace(ep.astensor(np.ones(1)), torch.ones(1))


def test_astensor_of_unsupported_type() -> None:
    with pytest.raises(TypeError, match=r"eagerpy_xp.astensor: expected a native array .*"
                                        r"torch.Tensor.*got builtins.list") as info:
        ep.astensor([1, 2, 3])
    assert "ignored" not in str(info.value)


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "tensorflow", "dask", "mlx"])
def test_wrapped_functions_are_found_where_they_live(backend: str) -> None:
    """Every function of a wrapped namespace names the namespace as its module and itself
    as its qualified name (``linalg.solve``): pickle finds it there (Dask's distributed
    scheduler pickles task functions), and Python's message for a bad call names it as
    the user called it (``asarray()`` was ``_keeping_arrays.<locals>.asarray()``)."""
    import importlib
    import pickle

    from eagerpy_xp._spec import FFT, FUNCTIONS, LINALG

    pytest.importorskip(backend)
    xp = importlib.import_module(f"eagerpy_xp.{backend}")
    for prefix, owner, names in (("", xp, FUNCTIONS), ("linalg.", xp.linalg, LINALG),
                                 ("fft.", xp.fft, FFT)):  # fmt: skip
        for name in names:
            f = getattr(owner, name)
            assert (f.__module__, f.__qualname__) == (xp.__name__, prefix + name)
            assert pickle.loads(pickle.dumps(f)) is f
    with pytest.raises(TypeError, match=r"^asarray\(\) missing 1 required positional"):
        xp.asarray()
    with pytest.raises(TypeError, match=r"^linalg\.solve\(\) missing 1 required positional"):
        xp.linalg.solve(xp.ones((2, 2)))
