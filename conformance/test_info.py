"""``__array_namespace_info__``: capabilities, devices, default dtypes, dtypes by kind."""

from __future__ import annotations

from typing import Any

import pytest

from eagerpy_xp._dtypes import ALL, KINDS

from .harness import Target

AREA = "info"

_KIND_FILTERS: list[Any] = [None, *KINDS, ("bool", "real floating"),
                            ("signed integer", "complex floating")]  # fmt: skip


@pytest.mark.all_targets
@pytest.mark.parametrize("name", ["available"])
def test_available(target: Target, name: str) -> None:
    """The namespace imports, makes arrays and claims a version of the standard (a target
    that cannot run says why here; the version itself is checked with the constants)."""
    if target.unavailable is not None:
        pytest.skip(target.unavailable)
    version = target.function("__array_api_version__")
    assert isinstance(version, str), f"__array_api_version__ is {version!r}"


@pytest.mark.parametrize("name", ["capabilities"])
def test_capabilities(target: Target, name: str) -> None:
    caps = _info(target).capabilities()
    assert isinstance(caps, dict)
    for key in ("boolean indexing", "data-dependent shapes", "max dimensions"):
        assert key in caps, f"capabilities() lacks {key!r}"
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    # "the corresponding dictionary value must be None; otherwise, the value must be a
    # finite integer" (no minimum is named)
    assert caps["max dimensions"] is None or isinstance(caps["max dimensions"], int)


@pytest.mark.parametrize("name", ["devices"])
def test_devices(target: Target, name: str) -> None:
    info = _info(target)
    devices = info.devices()
    # the standard: "out (List[device]) - a list of supported devices"; eagerpy_xp gives a
    # tuple, which the standard's "list" does not forbid (a sequence either way)
    assert isinstance(devices, (list, tuple)) and devices, f"devices() is {devices!r}"
    assert info.default_device() in devices
    if target.ours:
        assert any(str(d) == target.device for d in devices), f"{target.device} not in {devices}"
    else:
        assert target.dev in devices, f"{target.dev!r} not in {devices}"


@pytest.mark.parametrize("name", ["default_dtypes"])
def test_default_dtypes(target: Target, name: str) -> None:
    info = _info(target)
    defaults = info.default_dtypes()
    assert set(defaults) == {"real floating", "complex floating", "integral", "indexing"}
    names = {k: target.dtype_name(v) for k, v in defaults.items()}
    assert names["real floating"] in KINDS["real floating"]
    assert names["complex floating"] in KINDS["complex floating"]
    assert names["integral"] in KINDS["signed integer"]
    assert names["indexing"] in KINDS["signed integer"]
    assert info.default_dtypes(device=target.dev) == defaults
    # the defaults are what dtype-less creation gives
    asarray, argmax = target.function("asarray"), target.function("argmax")
    assert target.dtype_name(asarray(1.0, device=target.dev).dtype) == names["real floating"]
    assert target.dtype_name(asarray(1, device=target.dev).dtype) == names["integral"]
    assert target.dtype_name(argmax(asarray([1, 2], device=target.dev)).dtype) == (
        names["indexing"])


@pytest.mark.parametrize("name", ["dtypes"])
@pytest.mark.parametrize("kind", _KIND_FILTERS, ids=str)
def test_dtypes(target: Target, name: str, kind: Any) -> None:
    info = _info(target)
    got = info.dtypes(kind=kind, device=target.dev)
    assert isinstance(got, dict)
    if kind is None:
        wanted = set(ALL)
    elif isinstance(kind, tuple):
        wanted = {n for k in kind for n in KINDS[k]}
    else:
        wanted = set(KINDS[kind])
    wanted -= target.unheld  # the dtypes a framework cannot hold there (MLX: complex128)
    assert set(got) == wanted, f"dtypes(kind={kind!r}): {sorted(got)}"
    for key, dtype in got.items():
        assert dtype == target.function(key)


def _info(target: Target) -> Any:
    return target.function("__array_namespace_info__")()
