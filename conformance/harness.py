"""The test targets and the conversions every test uses.

A `Target` is one column of the conformance matrix: one of eagerpy_xp's backends in one
flavour on one device, or any other namespace that claims the standard (``--namespace``,
``--peers``: ``array_api_strict``, ``array_api_compat.torch``, ``jax.numpy``, ...) with
its own arrays and operators.  Inputs are built as NumPy arrays, handed to a target as
its own arrays (wrapped into `eagerpy_xp.Array` for the wrapped flavour) and results come
back as NumPy arrays for comparison.  The conversions use the frameworks directly, not
the namespace under test, wherever the target's arrays are a framework's own type.

What the suite needs from a namespace it does not know is probed once from the module
alone (`probe`): how to make its arrays (``asarray``), its default device, its dtypes
(``__array_namespace_info__().dtypes()`` where present, else the names it defines),
whether its arrays' operators are its own (``x.__array_namespace__()`` is the
namespace), and which framework's conversions apply.  A namespace that cannot even make
an array from a list of floats is a target that cannot run, and says why.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from eagerpy_xp import _detect
from eagerpy_xp._detect import REGISTRY
from eagerpy_xp._dtypes import ALL

BACKENDS = _detect.BACKENDS  # every registered backend
#: The backends whose columns run when none are named (``--backend all``: every one).
DEFAULT_BACKENDS = tuple(name for name in BACKENDS if not REGISTRY[name].opt_in)
FLAVOURS = ("wrapped", "native")
DEVICE_KINDS = ("cpu", "cuda")

#: Other namespaces that claim the standard, by the framework whose arrays they take
#: (the column group they join in the report): ``--peers`` runs those installed beside
#: the targets of each installed framework (each backend's descriptor lists them).
PEERS: dict[str, tuple[str, ...]] = {name: d.peers for name, d in REGISTRY.items() if d.peers}

#: Frameworks whose kernels flush subnormal numbers to zero on the CPU (no API turns it
#: off); a namespace not listed is probed (`Target.flushes_subnormals`).
FLUSHING = frozenset(name for name, d in REGISTRY.items() if d.flushes_subnormals)

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
    "creation", "data types", "dtype objects", "elementwise", "indexing", "linear algebra",
    "manipulation", "searching", "sets", "sorting", "statistics", "utility", "array object",
    "special cases", "promotion", "signatures", "info", "errors", "linalg", "fft", "compiled",
    "exported",
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


#: Set (to "1") in the environment of a suite process that must compile every kernel
#: afresh (``python -m conformance --no-cache``): no persistent compilation cache at all.
NO_KERNEL_CACHE = "EAGERPY_XP_SUITE_NO_KERNEL_CACHE"


def cache_environment(root: str) -> dict[str, str]:
    """Each backend's ``suite_cache`` variables, its cache folder ``<root>/<backend>``."""
    return {key: value.format(cache=os.path.join(root, d.name))
            for d in REGISTRY.values() for key, value in d.suite_cache.items()}  # fmt: skip


def prepare_environment() -> None:
    """The environment the suite's frameworks run in (before any of them is imported):
    each backend's ``suite_environment`` (JAX with its 64-bit types), and its
    ``suite_environment_defaults`` unless the caller chose otherwise (TensorFlow's C++
    start-up logging quiet, JAX's traceback filtering off).
    Only the suite's own processes call this (`conformance.plugin`, the runner's
    subprocesses): never a user's process.
    """
    for descriptor in REGISTRY.values():
        os.environ.update(descriptor.suite_environment)
        for key, value in descriptor.suite_environment_defaults.items():
            os.environ.setdefault(key, value)


class Missing(AttributeError):
    """A name the standard requires that the namespace under test lacks: the matrix
    records the item as "missing", not as a wrong answer."""


class Unsupported(pytest.skip.Exception, Exception):  # type: ignore[misc]
    """An input of a dtype the namespace does not list (`Target.dtypes`): hypothesis
    rejects such an example; a test without hypothesis is skipped with this reason.  A
    skip to pytest itself (its report costs no traceback: formatting one parsed the
    source of every frame, some 40 ms, for each of the 832 compiled-area items ndonnx
    skips) and still an `Exception` to ``except`` clauses."""


class CannotRun(Exception):
    """A namespace the suite cannot test at all (it cannot make an array)."""


@dataclass(frozen=True)
class Probe:
    """What the suite found out about a namespace it does not know (see `probe`)."""

    array_type: type
    device: Any  # the device object its arrays are made on (None: it names none)
    label: str  # the column's device label ("cpu", "cuda:0")
    dtypes: frozenset[str]
    operators: bool  # its arrays' __array_namespace__() is this namespace
    framework: str | None  # whose conversions apply to its arrays (its descriptor's ``from_numpy``), if any
    make: Callable[[np.ndarray], Any]  # a NumPy array as one of its arrays


@dataclass
class Target:
    """One column of the matrix: a backend x flavour x device of eagerpy_xp, or another
    namespace (``namespace`` set; ``flavour`` is then its module path and ``backend`` the
    framework group it is shown with) on one of its devices."""

    backend: str
    flavour: str
    device: str  # a label: "cpu", "cuda:0", ...
    unavailable: str | None = None  # why this target cannot run, or None
    namespace: str = ""  # another namespace's module path; "" for eagerpy_xp's own
    _xp: Any = field(default=None, repr=False)
    _probe: Probe | None = field(default=None, repr=False)
    _flushes: bool | None = field(default=None, repr=False)
    #: For `check_holds`: the hypothesis test whose examples are counted, its examples so far,
    #: those rejected for a dtype of a kind this target holds none of, and the current
    #: example's data (and whether it was such a rejection).
    _kindless: list[Any] = field(default_factory=lambda: [None, 0, 0, None, False], repr=False)

    @property
    def id(self) -> str:
        if self.namespace:
            return f"{self.namespace}-{self.device}"
        return f"{self.backend}-{self.flavour}-{self.device}"

    @property
    def ours(self) -> bool:
        """An eagerpy_xp namespace: judged by the project's own contracts as well (the
        error messages of docs/errors.md, its choices where the standard leaves one)."""
        return not self.namespace

    @property
    def module(self) -> str:
        """The namespace's module path."""
        if self.namespace:
            return self.namespace
        prefix = "eagerpy_xp.native." if self.flavour == "native" else "eagerpy_xp."
        return prefix + self.backend

    def key(self) -> tuple[str, str, str, str]:
        """What `from_key` rebuilds this target from (in a worker process)."""
        return (self.backend, self.flavour, self.device, self.namespace)

    @classmethod
    def from_key(cls, key: tuple[str, ...]) -> Target:
        backend, flavour, device, *rest = key
        return cls(backend, flavour, device, namespace=rest[0] if rest else "")

    @property
    def xp(self) -> Any:
        """The namespace under test (``eagerpy_xp.<b>``, ``eagerpy_xp.native.<b>`` or
        another namespace's module)."""
        if self._xp is None:
            self._xp = importlib.import_module(self.module)
        return self._xp

    @property
    def probe(self) -> Probe:
        if self._probe is None:
            self._probe = probe(self.xp, self.device)
        return self._probe

    @property
    def wrapped(self) -> bool:
        """eagerpy_xp's wrapped flavour (its `Array` class must match the spec exactly)."""
        return self.ours and self.flavour == "wrapped"

    @property
    def operators(self) -> bool:
        """Whether the array object is the namespace's own, so that its operators,
        indexing and methods are checked (the "array object" row): eagerpy_xp's wrapped
        flavour, and another namespace whose arrays name it as theirs.  The native
        flavour's arrays are the frameworks' objects, with the frameworks' operators."""
        return self.wrapped if self.ours else self.probe.operators

    @property
    def dev(self) -> Any:
        """The ``device=`` argument for this target: eagerpy_xp takes the label; another
        namespace gets its own device object (None where it names none)."""
        return self.device if self.ours else self.probe.device

    @property
    def dtypes(self) -> frozenset[str]:
        """The standard dtypes the namespace lists for this device."""
        return _ALL_DTYPES - self.unheld if self.ours else self.probe.dtypes

    @property
    def unheld(self) -> frozenset[str]:
        """The standard dtypes this target cannot hold (MLX: complex128; float64 on its
        GPU; another namespace: those it does not list): inputs of them are not drawn,
        results of them not expected (`check_holds`)."""
        if not self.ours:
            return _ALL_DTYPES - self.probe.dtypes
        absent = REGISTRY[self.backend].unheld
        return absent.get(self.device.partition(":")[0], absent.get("*", frozenset()))

    def holdable(self, a: np.ndarray) -> np.ndarray:
        """``a`` in the nearest dtype this target holds (complex128 as complex64, float64
        as float32): for the invalid-call fuzzer, whose inputs only need their kind.
        `Unsupported` (the call is not made) where the target holds no dtype of that kind
        (ndonnx: no complex dtype at all)."""
        if a.dtype.name in self.unheld:
            nearest = {"complex128": "complex64", "float64": "float32"}.get(a.dtype.name)
            if nearest is None or nearest in self.unheld:
                raise Unsupported(f"{self.id}: it holds no dtype of {a.dtype.name}'s kind")
            return a.astype(nearest)
        return a

    def check_holds(self, *names: str) -> None:
        """Leave the test (hypothesis: reject the example) when one of the dtype
        ``names`` is one this target cannot hold.  Where the examples keep needing a
        kind of dtype it holds none of (ndonnx: complex) -- every one of the first
        `_KINDLESS` examples of the test, as a function whose inputs or results are all
        complex makes them -- the test is skipped at once: hypothesis would draw some 450
        examples before giving up (about 2 CPU seconds a test)."""
        lacking = sorted(set(names) & self.unheld)
        from hypothesis import currently_in_test_context, reject

        if not currently_in_test_context():
            if lacking:
                pytest.skip(f"{self.backend} cannot hold {', '.join(lacking)} on {self.device}")
            return
        from hypothesis.control import current_build_context

        count, context = self._kindless, current_build_context()
        test, data = context.wrapped_test, context.data  # (one hypothesis test's examples)
        if count[0] is not test:
            count[:] = [test, 0, 0, None, False]
        if count[3] is not data:  # a new example
            count[1], count[3], count[4] = count[1] + 1, data, False
        if lacking:
            if all(_KIND_OF_DTYPE[n] <= self.unheld for n in lacking) and not count[4]:
                count[2], count[4] = count[2] + 1, True
                if count[2] == count[1] >= _KINDLESS:
                    pytest.skip(f"{self.backend} holds no dtype of the kind of "
                                f"{', '.join(lacking)} on {self.device}, which every example "
                                "needs")  # fmt: skip
            reject()

    @property
    def flushes_subnormals(self) -> bool:
        """TensorFlow and XLA kernels treat subnormal inputs as zero (flush-to-zero); no
        API turns that off, so results may be those of the flushed inputs.  A framework
        not in `FLUSHING` is asked once: does ``2**-1060 * 1.0`` give zero?"""
        if self._flushes is None:
            self._flushes = self.backend in FLUSHING or self._probe_flushing()
        return self._flushes

    def _probe_flushing(self) -> bool:
        name = "float64" if "float64" in self.dtypes else "float32"
        tiny = np.array([2.0**-1060 if name == "float64" else 2.0**-140], dtype=name)
        try:
            product = self.xp.multiply(self.asarray(tiny), self.asarray(np.ones(1, name)))
            return bool(self.to_numpy(product)[0] == 0)
        except Exception:  # a namespace that cannot multiply fails elsewhere, by name
            return False

    # -- names ------------------------------------------------------------------------
    def function(self, path: str) -> Any:
        """``xp.<path>`` (``"add"``, ``"linalg.eig"``); `Missing` where it is absent."""
        obj = self.xp
        for part in path.split("."):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise Missing(f"missing: {self.module} has no {path}", name=path,
                              obj=self.xp) from None  # fmt: skip
        return obj

    def dtype(self, name: str) -> Any:
        """The namespace's dtype of a standard name (an input of the test)."""
        if name not in self.dtypes:
            self.refuse(name)
        return self.function(name)

    def refuse(self, name: str) -> None:
        """An input dtype the namespace does not list: rejected inside hypothesis,
        `Unsupported` elsewhere."""
        from hypothesis import reject
        from hypothesis.control import currently_in_test_context

        if currently_in_test_context():
            reject()
        raise Unsupported(f"{self.id}: the namespace lists no {name} dtype")

    # -- conversions ------------------------------------------------------------------
    def native(self, a: np.ndarray) -> Any:
        """A NumPy array as this target's own (unwrapped) array on its device."""
        a = np.asarray(a)
        if self.ours:
            self.check_holds(a.dtype.name)
            convert = REGISTRY[self.backend].from_numpy
            if convert is None:  # a backend that states no conversion
                return importlib.import_module(f"eagerpy_xp.native.{self.backend}").asarray(
                    a, device=self.device)  # fmt: skip
            return convert(a, self.device)
        facts = self.probe
        if facts.framework is not None:
            return _from_numpy(facts.framework)(a, self.device)
        return facts.make(a)

    def asarray(self, a: Any) -> Any:
        """A NumPy array (or a Python scalar, kept as it is) as an input of this target."""
        if isinstance(a, (bool, int, float, complex)):
            return a
        if not self.ours and np.asarray(a).dtype.name not in self.dtypes:
            self.refuse(np.asarray(a).dtype.name)
        raw = self.native(a)
        if self.wrapped:
            import eagerpy_xp

            return eagerpy_xp.astensor(raw)
        return raw

    def is_array(self, obj: Any) -> bool:
        """Whether ``obj`` is an array of this target's flavour."""
        if not self.ours:
            return isinstance(obj, self.probe.array_type)
        import eagerpy_xp

        if self.wrapped:
            return type(obj) is eagerpy_xp.Array and obj.backend == self.backend
        return bool(self.xp.__backend__.is_native(obj))

    def to_numpy(self, obj: Any) -> np.ndarray:
        """An array result of this target as a NumPy array (copied to the host)."""
        import eagerpy_xp

        if type(obj) is eagerpy_xp.Array:
            obj = obj.raw
        if isinstance(obj, (np.ndarray, np.generic)):
            return np.asarray(obj)
        framework = self.backend if self.ours else self.probe.framework
        convert = REGISTRY[framework].to_numpy if framework else None
        return (convert or _any_to_numpy)(obj)

    def to_numpy_all(self, objs: list[Any]) -> list[np.ndarray]:
        """`to_numpy` of each of ``objs``; a lazy framework's (Dask's) in one computation."""
        import eagerpy_xp

        framework = self.backend if self.ours else self.probe.framework
        batch = REGISTRY[framework].to_numpy_all if framework else None
        if batch is None:
            return [self.to_numpy(o) for o in objs]
        return batch([o.raw if type(o) is eagerpy_xp.Array else o for o in objs])

    def dtype_name(self, dtype: Any) -> str:
        """The standard name of one of this namespace's dtypes (by identity/equality)."""
        for name in ALL:
            mine = getattr(self.xp, name, None)
            if mine is not None and dtype == mine:
                return name
        raise AssertionError(f"{self.id}: {dtype!r} is none of the namespace's dtypes")


_ALL_DTYPES = frozenset(ALL)
#: Each dtype name -> the names of its kind's dtypes (complex64 -> both complex ones).
_KIND_OF_DTYPE = {n: frozenset(m for m in ALL if m.rstrip("0123456789") == n.rstrip("0123456789"))
                  for n in ALL}  # fmt: skip
#: Examples, each rejected for a dtype of a kind the target holds none of, after which
#: `Target.check_holds` skips a test none of whose examples ran.
_KINDLESS = 25


# -- framework conversions (each backend's descriptor states its own) ----------------------
def _from_numpy(framework: str) -> Callable[[np.ndarray, str], Any]:
    convert = REGISTRY[framework].from_numpy
    assert convert is not None, f"{framework}: its descriptor states no conversion"
    return convert


def _any_to_numpy(x: Any) -> np.ndarray:
    """An array of a library the harness has no conversion for: DLPack (the standard's
    interchange), else ``np.asarray``."""
    try:
        return np.array(np.from_dlpack(x), copy=True)
    except Exception:  # not every library exports every dtype over DLPack
        return np.asarray(x)


# -- other namespaces -----------------------------------------------------------------------
def device_label(device: Any) -> str:
    """A column label for a namespace's device object: ``cpu``, ``cuda:<i>``, else its
    text (``None``, a namespace that names no device: ``default``)."""
    if device is None:
        return "default"
    text = str(device).lower()
    digits = "".join(c for c in text.rpartition(",")[2] if c.isdigit()) or "0"
    if "cpu" in text:
        return "cpu"
    if "cuda" in text or "gpu" in text:
        return f"cuda:{int(digits.lstrip('0') or 0)}"
    if " object at 0x" in text:  # a device object without a name (ndonnx's): its repr
        return "default"
    return str(device)


def _framework_of(array_type: type) -> str | None:
    """The framework whose harness conversions apply to arrays of this type, if any."""
    owner = _detect.backend_of_type(array_type)
    if owner in REGISTRY and REGISTRY[owner].from_numpy is not None:
        return owner
    top = array_type.__module__.partition(".")[0]
    return top if top in REGISTRY and REGISTRY[top].from_numpy is not None else None


def probe(xp: Any, label: str | None) -> Probe:
    """What the suite needs from a namespace it does not know, found from the module.

    The device is the namespace's default (``__array_namespace_info__``), or the one of
    its ``devices()`` whose label is ``label``; its arrays come from ``asarray`` of a NumPy
    array (or of the nested list with the dtype, for a namespace that refuses NumPy);
    `CannotRun` when neither makes an array.
    """
    device: Any = None
    info: Any = None
    maker = getattr(xp, "__array_namespace_info__", None)
    if maker is not None:
        try:
            info = maker()
            device = info.default_device()
            if label not in (None, "default") and not _device_selected(device_label(device),
                                                                       [label]):  # fmt: skip
                device = next(d for d in info.devices()
                              if _device_selected(device_label(d), [label]))  # fmt: skip
        except StopIteration:
            raise CannotRun(f"it has no {label} device") from None
        except Exception:  # a broken info object fails its own rows, not the probe
            info = None
    asarray = getattr(xp, "asarray", None)
    if asarray is None:
        raise CannotRun("it has no asarray")
    where = {} if device is None else {"device": device}

    def from_numpy(a: np.ndarray) -> Any:
        return asarray(a, **where)

    def from_numpy_default(a: np.ndarray) -> Any:  # a namespace without device=
        return asarray(a)

    def from_list(a: np.ndarray) -> Any:  # a namespace that refuses NumPy arrays
        return asarray(a.tolist(), dtype=getattr(xp, a.dtype.name), **where)

    sample = np.asarray([1.0, 2.0])
    first: Exception | None = None
    for make in (from_numpy, from_numpy_default, from_list):
        try:
            made = make(sample)
            break
        except Exception as exc:  # any failure: the next way, then CannotRun
            first = first or exc
    else:
        raise CannotRun(f"asarray(numpy.array([1.0, 2.0])) raised "
                        f"{type(first).__name__}: {first}") from first  # fmt: skip
    dtypes = frozenset(n for n in ALL if hasattr(xp, n))
    if info is not None:
        try:
            dtypes = frozenset(n for n in info.dtypes(device=device) if n in _ALL_DTYPES)
        except Exception:  # the dtypes row says what is wrong with it
            pass
    try:
        claimed = made.__array_namespace__()
        operators = claimed is xp or getattr(claimed, "__name__", None) == xp.__name__
    except Exception:
        operators = False
    label = device_label(device if device is not None else getattr(made, "device", None))
    return Probe(type(made), device, label, dtypes, operators, _framework_of(type(made)), make)


def group_of(namespace: str, probe_result: Probe | None = None) -> str:
    """The framework group a namespace's column is shown with: the one `PEERS` lists it
    under, else the framework of its arrays, else its top-level package."""
    for framework, names in PEERS.items():
        if namespace in names:
            return framework
    if probe_result is not None:
        if probe_result.framework is not None:
            return probe_result.framework
        return probe_result.array_type.__module__.partition(".")[0]
    return namespace.partition(".")[0]


def installed(module: str) -> bool:
    """Whether a module can be found (its parents are imported, nothing else is)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def peers(backends: list[str] | None = None) -> list[str]:
    """The installed peers of the installed frameworks (of ``backends`` only, if given),
    in `PEERS` order."""
    found = []
    for framework, names in PEERS.items():
        if backends is not None and framework not in backends:
            continue
        if not installed(framework):
            continue
        found += [n for n in names if installed(n.partition(".")[0]) and n not in found]
    return found


def _other(namespace: str, devices: list[str]) -> list[Target]:
    """The target(s) of another namespace: its default device, or each requested one."""
    group = group_of(namespace)
    try:
        xp = importlib.import_module(namespace)
    except Exception as exc:  # a namespace may fail to import in any way
        reason = f"not available: import {namespace} failed ({type(exc).__name__}: {exc})"
        return [Target(group, namespace, d, reason, namespace) for d in (devices or ["cpu"])]
    found = []
    chosen: list[str | None] = list(devices) if devices else [None]
    for wanted in chosen:
        try:
            facts = probe(xp, wanted)
        except CannotRun as exc:
            found.append(Target(group, namespace, wanted or "cpu",
                                f"cannot run: {namespace}: {exc}", namespace))  # fmt: skip
            continue
        group = group_of(namespace, facts)
        label = facts.label
        problem = REGISTRY[group].problem() if group in REGISTRY else None
        found.append(Target(group, namespace, label, problem, namespace, xp, facts))
    return found


def _import_problem(backend: str, flavour: str) -> str | None:
    prefix = "eagerpy_xp.native." if flavour == "native" else "eagerpy_xp."
    try:
        importlib.import_module(prefix + backend)
    except Exception as exc:  # a backend being written may fail in any way
        return f"not available: import {prefix}{backend} failed ({type(exc).__name__}: {exc})"
    return REGISTRY[backend].problem()


def _wanted(option: str | None, known: tuple[str, ...],
            default: tuple[str, ...] | None = None) -> list[str]:  # fmt: skip
    if not option:
        return list(known if default is None else default)
    if option == "all":
        return list(known)
    if option == "none":
        return []
    values = [v.strip() for v in option.split(",") if v.strip()]
    return values


def discover(backends: str | None, flavours: str | None, devices: str | None,
             namespaces: list[str] | None = None) -> list[Target]:  # fmt: skip
    """The requested targets; those that cannot run carry the reason in ``unavailable``.

    ``backends`` ``"none"`` leaves eagerpy_xp's own out; ``namespaces`` are other
    namespaces, each a column of its own.
    """
    targets: list[Target] = []
    device_filter = _wanted(devices, ())
    for backend in _wanted(backends, BACKENDS, DEFAULT_BACKENDS):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        for flavour in _wanted(flavours, FLAVOURS):
            if flavour not in FLAVOURS:
                raise ValueError(f"unknown flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
            problem = _import_problem(backend, flavour)
            seen = ["cpu"] if problem else REGISTRY[backend].devices()
            chosen = [d for d in seen if _device_selected(d, device_filter)]
            for wanted in device_filter:  # requested but not seen: show as not available
                if not any(_device_selected(d, [wanted]) for d in seen):
                    chosen.append(wanted)
                    targets.append(Target(backend, flavour, wanted,
                                          f"not available: {backend} sees no {wanted} device"))
            for device in chosen:
                if device in seen:
                    targets.append(Target(backend, flavour, device, problem))
    for namespace in namespaces or []:
        targets += _other(namespace, device_filter)
    return targets


def _device_selected(device: str, wanted: list[str]) -> bool:
    if not wanted:
        return True
    kind = device.partition(":")[0]
    return device in wanted or kind in wanted
