"""``eagerpy_xp``'s module attributes: the backends load lazily, and every EagerPy name used
on eagerpy_xp says where it went (issue 17, item 5; issue 16, item 7)."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest

import eagerpy_xp

eagerpy = pytest.importorskip("eagerpy", reason="the test extra installs eagerpy>=0.30")


def _eagerpy_public_names() -> list[str]:
    typing_names = set(dir(typing))
    return sorted(n for n in dir(eagerpy) if not n.startswith("_") and n not in typing_names)


def test_backends_are_lazy_attributes() -> None:
    code = (
        "import sys, eagerpy_xp\n"
        "frameworks = ('torch', 'jax', 'tensorflow', 'dask')\n"
        "assert not [m for m in frameworks if m in sys.modules], 'import eagerpy_xp'\n"
        "assert 'torch' in dir(eagerpy_xp) and 'native' in dir(eagerpy_xp)\n"
        "assert [m for m in frameworks if m in sys.modules] == []\n"
        "xp = eagerpy_xp.torch\n"
        "assert xp.__name__ == 'eagerpy_xp.torch' and 'torch' in sys.modules\n"
        "assert 'jax' not in sys.modules and 'tensorflow' not in sys.modules\n"
        "assert eagerpy_xp.native.torch.__name__ == 'eagerpy_xp.native.torch'\n"
        "assert eagerpy_xp.numpy.__name__ == 'eagerpy_xp.numpy'\n"
        "assert eagerpy_xp.eagerpy.__name__ == 'eagerpy_xp.eagerpy'\n"
        "assert 'jax' not in sys.modules and 'tensorflow' not in sys.modules\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


@pytest.mark.parametrize("name", _eagerpy_public_names())
def test_eagerpy_names_say_where_they_went(name: str) -> None:
    if name in ("torch", "jax", "tensorflow", "numpy"):
        assert getattr(eagerpy_xp, name).__name__ == f"eagerpy_xp.{name}"  # the backends
        return
    if name in eagerpy_xp.__all__:
        assert callable(getattr(eagerpy_xp, name)) or name == "norms"  # kept as is
        return
    with pytest.raises(AttributeError, match=rf"eagerpy_xp\.{name} does not exist") as info:
        getattr(eagerpy_xp, name)
    message = str(info.value)
    assert "eagerpy_xp.eagerpy" in message or "math." in message or "None" in message
    assert not hasattr(eagerpy_xp, name)


def test_hints_name_the_replacements() -> None:
    with pytest.raises(AttributeError) as info:
        eagerpy_xp.clip  # noqa: B018
    assert str(info.value) == (
        "eagerpy_xp.clip does not exist (it is EagerPy's): use x.clip(...), xp.clip(...) with "
        "xp = eagerpy_xp.namespace(x), or eagerpy_xp.eagerpy.clip"
    )
    with pytest.raises(AttributeError, match=r"xp\.concat\(\.\.\.\)"):
        eagerpy_xp.concatenate  # noqa: B018
    with pytest.raises(AttributeError, match=r"isinstance\(x, eagerpy_xp\.Array\)"):
        eagerpy_xp.istensor  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        eagerpy_xp.no_such_name  # noqa: B018


def test_dir_lists_public_names_only() -> None:
    names = dir(eagerpy_xp)
    assert {"Array", "namespace", "torch", "native", "eagerpy", "value_and_grad"} <= set(names)
    assert not {"Any", "importlib", "annotations", "clip", "Tensor"} & set(names)
    for name in names:  # everything dir() lists can be reached
        if name not in ("dask",):
            getattr(eagerpy_xp, name)
