"""Testing helpers and a pytest plugin for code written against the array API standard.

The plugin (registered under the ``pytest11`` entry point, or enabled with
``-p eagerpy_xp.testing``) gives tests two fixtures:

``xp``
    an array namespace; every test requesting it runs once per installed backend,
    flavour (``native``: ``eagerpy_xp.native.<backend>``, ``wrapped``:
    ``eagerpy_xp.<backend>``) and device, with ids such as ``torch-wrapped-cpu``.
``xp_device``
    the `eagerpy_xp.Device` of the current parameter (pass it as ``device=``).

Command-line options ``--xp-backend``, ``--xp-flavour`` and ``--xp-device`` (each
repeatable) narrow the selection; the markers ``@pytest.mark.xp_backends("torch", ...)``
and ``@pytest.mark.xp_flavours("wrapped")`` narrow it for one test.

`assert_allclose` and `assert_equal` compare arrays of any backend, native or `Array`,
with each other, with NumPy arrays and with Python scalars.

Importing this module imports no framework: backends are found with
`importlib.util.find_spec` and imported only when a test requests ``xp``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._array import Array
from ._detect import BACKENDS, IGNORED, UNSUPPORTED, backend_of_type
from ._devices import Device

if TYPE_CHECKING:
    import pytest

__all__ = [
    "FLAVOURS",
    "XPCase",
    "assert_allclose",
    "assert_equal",
    "installed_backends",
    "namespace_for",
    "xp_cases",
]

FLAVOURS = ("native", "wrapped")

#: The framework package each backend needs.
_FRAMEWORK = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow",
              "dask": "dask"}

_CASE_FIXTURE = "_eagerpy_xp_case"


# -- backends, flavours, devices ----------------------------------------------------------------
def installed_backends() -> tuple[str, ...]:
    """Backends whose framework is installed and which eagerpy_xp provides (nothing imported)."""
    found = []
    for name in BACKENDS:
        if importlib.util.find_spec(_FRAMEWORK[name]) is None:
            continue
        if importlib.util.find_spec(f"eagerpy_xp.native.{name}") is None:
            continue
        found.append(name)
    return tuple(found)


def namespace_for(backend: str, flavour: str = "wrapped") -> ModuleType:
    """``eagerpy_xp.<backend>`` (``wrapped``) or ``eagerpy_xp.native.<backend>`` (``native``)."""
    if backend not in BACKENDS:
        raise ValueError(f"namespace_for: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if flavour not in FLAVOURS:
        raise ValueError(f"namespace_for: unknown flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
    prefix = "eagerpy_xp." if flavour == "wrapped" else "eagerpy_xp.native."
    return importlib.import_module(prefix + backend)


@dataclass(frozen=True)
class XPCase:
    """One parameter of the ``xp`` fixture.

    ``error`` holds the message of a backend that is installed but failed to import;
    requesting ``xp`` for such a case fails the test with that message.
    """

    backend: str
    flavour: str
    device: Device | None
    error: str | None = None

    @property
    def id(self) -> str:
        return f"{self.backend}-{self.flavour}-{self.device if self.device else 'broken'}"

    def namespace(self) -> ModuleType:
        if self.error is not None:
            raise RuntimeError(f"eagerpy_xp.testing: backend {self.backend!r} is installed but "
                               f"eagerpy_xp cannot load it: {self.error}")  # fmt: skip
        return namespace_for(self.backend, self.flavour)


@functools.cache
def _devices(backend: str) -> tuple[list[Device], str | None]:
    """The devices of a backend (imports it, once), or the import error's text."""
    try:
        module = namespace_for(backend, "native")
        devices = [Device(str(d)) for d in module.__array_namespace_info__().devices()]
    except Exception as exc:  # any failure to load a backend is reported, not hidden
        return [], f"{type(exc).__name__}: {exc}"
    return devices, None


def _select(values: Iterable[str], wanted: Iterable[str] | None) -> list[str]:
    """``values`` that are ``wanted`` (all of them for ``None``)."""
    if wanted is None:
        return list(values)
    wanted = list(wanted)
    return [v for v in values if v in wanted]


def xp_cases(
    backends: Iterable[str] | None = None,
    flavours: Iterable[str] | None = None,
    devices: Iterable[str] | None = None,
) -> list[XPCase]:
    """Every (backend, flavour, device) of the installed backends, filtered by the arguments.

    ``None`` selects everything; ``devices`` holds device strings (``"cpu"``,
    ``"cuda:0"``) or kinds (``"cuda"``).
    """
    for what, given, known in (("backend", backends, BACKENDS), ("flavour", flavours, FLAVOURS)):
        for name in given or ():
            if name not in known:
                raise ValueError(f"xp_cases: unknown {what} {name!r}; known: {', '.join(known)}")
    wanted_devices = None if devices is None else list(devices)
    cases = []
    for name in _select(installed_backends(), backends):
        found, error = _devices(name)
        for flavour in _select(FLAVOURS, flavours):
            if error is not None:
                cases.append(XPCase(name, flavour, None, error))
                continue
            cases.extend(
                XPCase(name, flavour, device)
                for device in found
                if wanted_devices is None or str(device) in wanted_devices
                or device.kind in wanted_devices
            )
    return cases


# -- the pytest plugin -------------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("eagerpy_xp", "eagerpy_xp: the xp fixture")
    group.addoption("--xp-backend", action="append", default=[], metavar="NAME",
                    help=f"run xp tests on this backend only (repeatable; {', '.join(BACKENDS)})")
    group.addoption("--xp-flavour", action="append", default=[], metavar="FLAVOUR",
                    help="run xp tests in this flavour only (repeatable; native, wrapped)")
    group.addoption("--xp-device", action="append", default=[], metavar="DEVICE",
                    help="run xp tests on this device or device kind only (repeatable)")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "xp_backends(*names): run this test's xp fixture on these backends only"
    )
    config.addinivalue_line(
        "markers", "xp_flavours(*names): run this test's xp fixture in these flavours only"
    )


def _wanted(metafunc: pytest.Metafunc, option: str, marker: str) -> list[str] | None:
    """What the command-line option and the test's marker both allow (``None``: all)."""
    chosen: list[str] = metafunc.config.getoption(option, None) or []
    found = metafunc.definition.get_closest_marker(marker)
    if found is None:
        return chosen or None
    return [str(name) for name in found.args if not chosen or name in chosen]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise tests requesting ``xp`` (unless they parametrise ``xp`` themselves)."""
    if _CASE_FIXTURE not in metafunc.fixturenames or _parametrises_xp(metafunc):
        return
    import pytest

    cases = xp_cases(
        _wanted(metafunc, "xp_backend", "xp_backends"),
        _wanted(metafunc, "xp_flavour", "xp_flavours"),
        metafunc.config.getoption("xp_device", None) or None,
    )
    params: list[Any] = [pytest.param(c, id=c.id) for c in cases]
    if not params:
        reason = "eagerpy_xp.testing: no installed backend/flavour/device matches the selection"
        params = [pytest.param(None, id="no-backend", marks=pytest.mark.skip(reason=reason))]
    metafunc.parametrize(_CASE_FIXTURE, params, indirect=True)


def _parametrises_xp(metafunc: pytest.Metafunc) -> bool:
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0] if marker.args else marker.kwargs.get("argnames", ())
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]
        if "xp" in names or "xp_device" in names:
            return True
    return False


def _case_fixture(request: pytest.FixtureRequest) -> XPCase:
    """The current (backend, flavour, device) parameter."""
    case: XPCase = request.param
    return case


def _xp_fixture(_eagerpy_xp_case: XPCase) -> ModuleType:
    """The array namespace under test (see the module docstring)."""
    return _eagerpy_xp_case.namespace()


def _xp_device_fixture(_eagerpy_xp_case: XPCase) -> Device:
    """The device under test, for ``device=`` arguments."""
    _eagerpy_xp_case.namespace()  # a broken backend fails here too
    assert _eagerpy_xp_case.device is not None
    return _eagerpy_xp_case.device


def _register_fixtures() -> None:
    """Define the fixtures when pytest is importable, without importing it for library users."""
    if importlib.util.find_spec("pytest") is None:
        return
    import pytest

    globals()[_CASE_FIXTURE] = pytest.fixture(name=_CASE_FIXTURE)(_case_fixture)
    globals()["xp"] = pytest.fixture(name="xp")(_xp_fixture)
    globals()["xp_device"] = pytest.fixture(name="xp_device")(_xp_device_fixture)


_register_fixtures()


# -- assertions --------------------------------------------------------------------------------
def _describe(x: Any) -> str:
    """A short description of what was compared: ``'torch Array'``, ``'numpy array'``."""
    if type(x) is Array:
        return f"{x.backend} Array"
    name = backend_of_type(type(x))
    if name == IGNORED:
        return f"Python {type(x).__name__}"
    if name == UNSUPPORTED:
        return type(x).__name__
    return f"{name} array"


def _host(x: Any, where: str) -> tuple[Any, str | None]:
    """``x`` as a NumPy array on the host, and its standard dtype name (None for scalars)."""
    import numpy as np

    if type(x) is Array:
        backend, raw = x._b, x._raw
    else:
        name = backend_of_type(type(x))
        if name == IGNORED or isinstance(x, (list, tuple)):
            return np.asarray(x), None
        if name == UNSUPPORTED:
            raise TypeError(f"{where}: cannot compare a {type(x).__module__}."
                            f"{type(x).__qualname__}; expected an array of "
                            f"{', '.join(BACKENDS)}, an eagerpy_xp.Array or a Python scalar")  # fmt: skip
        from ._namespace import backend_named

        backend, raw = backend_named(name), x
    if backend.device_of(raw) != "cpu":
        raw = backend.to_device(raw, "cpu")
    if hasattr(raw, "detach"):  # torch tensors that require grad
        raw = raw.detach()
    try:
        dtype_name: str | None = backend.dtype_name(raw.dtype)
    except TypeError:
        dtype_name = str(raw.dtype)
    return np.asarray(backend.to_numpy(raw)), dtype_name


def _prepare(actual: Any, desired: Any, where: str, check_dtype: bool,
             err_msg: str) -> tuple[Any, Any, str]:  # fmt: skip
    """Host copies of both sides after the shape and dtype checks; the message header."""
    a, a_dtype = _host(actual, where)
    d, d_dtype = _host(desired, where)
    header = f"{where}: actual ({_describe(actual)}) vs desired ({_describe(desired)})"
    if err_msg:
        header += f": {err_msg}"
    if a_dtype is not None and d_dtype is not None:
        if a.shape != d.shape:
            raise AssertionError(f"{header}\nshape mismatch: {a.shape} != {d.shape}")
        if check_dtype and a_dtype != d_dtype:
            raise AssertionError(f"{header}\ndtype mismatch: {a_dtype} != {d_dtype}")
    return a, d, header


def assert_allclose(
    actual: Any,
    desired: Any,
    *,
    rtol: float = 1e-7,
    atol: float = 0.0,
    equal_nan: bool = True,
    check_dtype: bool = True,
    err_msg: str = "",
) -> None:
    """Assert that two arrays of any backends are element-wise close.

    When both sides are arrays their shapes must be equal, and so must their standard
    dtype names unless ``check_dtype=False``.  A Python scalar side broadcasts.
    """
    import numpy as np

    a, d, header = _prepare(actual, desired, "assert_allclose", check_dtype, err_msg)
    np.testing.assert_allclose(a, d, rtol=rtol, atol=atol, equal_nan=equal_nan,
                               err_msg=header)  # fmt: skip


def assert_equal(actual: Any, desired: Any, *, check_dtype: bool = True, err_msg: str = "") -> None:
    """Assert that two arrays of any backends are equal (NaNs in the same places count equal).

    Shapes and standard dtype names must match as in `assert_allclose`.
    """
    import numpy as np

    a, d, header = _prepare(actual, desired, "assert_equal", check_dtype, err_msg)
    np.testing.assert_array_equal(a, d, err_msg=header)
