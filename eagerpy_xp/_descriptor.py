"""What eagerpy_xp knows about a backend, in one object (no framework import).

Each backend package (``eagerpy_xp.native._<name>``) defines one `Descriptor` in its
``__init__`` as ``DESCRIPTOR``; `eagerpy_xp._detect.REGISTRY` lists them.  Everything
outside the backend's package that needs a fact about a framework asks its descriptor:
detection (the packages owning its types), error messages, the stub generator, the
EagerPy layer, the conformance suite (conversions, devices, dtypes it cannot hold, known
failures, what its compiler and vectorizer refuse) and the benchmarks.  A fact that
needs the framework is a function, which imports it when called: building a descriptor
imports nothing but this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["Compiler", "Descriptor", "Limitation", "StubNames", "cpu_only", "no_problem"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class _Facts:
    """Facts given in the order the class annotates them or by name, read as attributes,
    never changed (a class attribute is a fact's default; one without is required).  (A
    plain class: a dataclass or named tuple of this many fields costs a millisecond at
    import.)"""

    def __init__(self, *values: Any, **facts: Any) -> None:
        known = self._fields()
        if len(values) > len(known) or facts.keys() & set(known[: len(values)]):
            raise TypeError(f"{type(self).__name__}: {len(values)} facts in order, then {sorted(facts)}")
        facts.update(zip(known, values))
        unknown = sorted(facts.keys() - known)
        missing = sorted(k for k in known if k not in facts and not hasattr(type(self), k))
        if unknown or missing:
            raise TypeError(f"{type(self).__name__}: unknown facts {unknown}, missing {missing}")
        # every fact in the instance: a default that is a function stays a plain function
        cls = type(self)
        self.__dict__.update({k: facts[k] if k in facts else getattr(cls, k) for k in known})

    @classmethod
    def _fields(cls) -> list[str]:
        return [k for klass in reversed(cls.__mro__) for k in vars(klass).get("__annotations__", {})]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __repr__(self) -> str:
        given = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({given})"


def cpu_only() -> list[str]:
    """The devices of a framework that computes on the CPU only."""
    return ["cpu"]


def no_problem() -> str | None:
    """Nothing keeps this framework's targets from running."""
    return None


class Limitation(_Facts):
    """A failure of the conformance suite that is known, with its reason: test items of
    the backend in ``flavour`` ("*": both) of spec function ``function`` ("*": any) whose
    id holds ``test`` are expected to fail.  A list of these must only shrink."""

    flavour: str
    function: str
    reason: str
    test: str = ""


class StubNames(_Facts):
    """How a type stub names the backend's types."""

    imports: str  #: the import lines of its framework
    array: str  #: its native array type
    dtype: str  #: the type of its dtype objects


class Compiler(_Facts):
    """What the backend's compile and vectorize hooks (``Backend.compile``,
    ``Backend.vectorize``) do, as the conformance suite checks them."""

    #: Options the suite's broad sweep compiles with (torch: a backend that compiles fast).
    suite_options: Mapping[str, Any] = _EMPTY
    #: Whether a trace runs the function's Python body once (so the suite counts traces
    #: by counting runs of the body).
    traces_run_the_body: bool = False
    #: How many times a compiled object traced, where the framework says it; else None.
    trace_count: Callable[[Any], int] | None = None
    #: Call a compiled object again, failing if it would compile again; None: a plain call.
    call_again: Callable[[Any, list[Any]], Any] | None = None
    #: Why the compiler refuses results whose shape depends on values ("": it traces them).
    data_dependent: str = ""
    #: Other cases (compiled-case names) the compiler cannot do -> why.
    limits: Mapping[str, str] = _EMPTY
    #: Whether the vectorizer refuses results whose shape depends on values.
    vmap_refuses_data_dependent: bool = False


class Descriptor(_Facts):
    """Every fact about one backend that code outside its package asks for."""

    #: The backend's name: ``eagerpy_xp.<name>``, ``eagerpy_xp.native.<name>``.
    name: str
    #: Top-level packages whose types belong to the backend (``type(x).__module__``).
    packages: tuple[str, ...]
    #: The array types users pass, as named in error messages.
    array_types: str
    #: The module holding the framework's functions (``jax.numpy``, ``mlx.core``).
    framework: str
    #: The module that exports the backend object as ``BACKEND`` (imports the framework).
    backend_module: str
    #: How type stubs name its types.
    stub: StubNames
    #: Whether the backend differentiates (its ``autodiff`` hook).
    differentiable: bool = False
    #: The standard's dtypes its namespaces have no attribute for (it holds them nowhere).
    absent: tuple[str, ...] = ()
    #: Device kind ("*": any other) -> the standard's dtypes it cannot hold there.
    unheld: Mapping[str, frozenset[str]] = _EMPTY
    #: Whether its dtype objects are NumPy's.
    numpy_dtypes: bool = False
    #: Whether its arrays are lazy graphs, computed on demand (errors that depend on
    #: values appear when the result is computed).
    lazy: bool = False
    #: The devices the framework sees, as ``"cpu"``, ``"cuda:0"``, ... (imports it).
    devices: Callable[[], list[str]] = cpu_only
    #: What the framework calls one of its CUDA devices (the GPU's model name), or None.
    device_name: Callable[[str], str] | None = None
    #: A NumPy array as one of its arrays on a device (the suite's inputs); None: the
    #: native namespace's ``asarray``.
    from_numpy: Callable[[Any, str], Any] | None = None
    #: One of its arrays as a NumPy array (copied to the host); None: over DLPack.
    to_numpy: Callable[[Any], Any] | None = None
    #: Several of its arrays as NumPy arrays, in one computation where that is cheaper;
    #: None: `to_numpy` of each.
    to_numpy_all: Callable[[list[Any]], list[Any]] | None = None
    #: Why its targets cannot run in this process (None: they can).
    problem: Callable[[], str | None] = no_problem
    #: Environment variables the suite's processes set before the framework is imported,
    #: and those they set only where the caller has not.
    suite_environment: Mapping[str, str] = _EMPTY
    suite_environment_defaults: Mapping[str, str] = _EMPTY
    #: Environment variables giving the suite's processes a persistent compilation cache
    #: (``{cache}``: the backend's cache folder in the report).
    suite_cache: Mapping[str, str] = _EMPTY
    #: Drops the caches that grow with use and are kept for the process's life (the
    #: framework's compiled kernels: JAX; the values a backend keeps: Dask's `_kept`),
    #: called by the suite's processes when they hold too much memory; None: nothing to drop.
    release_caches: Callable[[], None] | None = None
    #: The framework's global switches the library must never flip, read when the
    #: framework is imported already (name -> value).
    global_state: Callable[[], dict[str, Any]] | None = None
    #: Whether its CPU kernels flush subnormal numbers to zero (no API turns it off).
    flushes_subnormals: bool = False
    #: Other namespaces that claim the standard on its arrays (``--peers``).
    peers: tuple[str, ...] = ()
    #: The conformance suite's known failures, each with its reason.
    limitations: tuple[Limitation, ...] = ()
    #: Why the suite runs its columns only when asked (``--backend <name>``), "" where
    #: they are among the default ones (the main job and the repository's tests).
    opt_in: str = ""
    #: Why the client libraries' own test suites (``python -m conformance.clients``) leave
    #: it out unless asked (``--backend <name>``), "" where they run it by default.
    not_a_client_target: str = ""
    #: Why its native flavour keeps dtype objects whose ``==`` raises ("": it does not).
    raising_dtype_objects: str = ""
    #: Its compile and vectorize hooks, as the suite checks them.
    compiler: Compiler = Compiler()
    #: A function waiting until an array's value is computed (asynchronous dispatch,
    #: JAX), or None.
    wait: Callable[[Any], None] | None = None
    #: The EagerPy layer's tensor class name for its native arrays (`eagerpy_xp.eagerpy`).
    eagerpy_class: str = ""
    #: Random draws for that class where it has none of its own: ``(kind, shape, a, b,
    #: like)`` gives an array of ``shape`` in ``like``'s dtype from the framework's own
    #: generator, ``kind`` ``"uniform"`` (``a`` low, ``b`` high) or ``"normal"`` (mean,
    #: standard deviation).
    eagerpy_random: Callable[[str, tuple[int, ...], float, float, Any], Any] | None = None
    #: Whether EagerPy 0.30 and array-api-compat support the framework (benchmark columns).
    in_eagerpy: bool = False
    in_array_api_compat: bool = False
    #: Modules of the framework's compilers and transforms, which eager use never imports.
    compiler_modules: tuple[str, ...] = ()
    #: The benchmarks' setup: a statement importing the framework as ``fw`` and making a
    #: 16-element float32 array ``x``.
    benchmark_setup: str = ""
    #: The framework's plain spelling of a benchmarked operation, where it is not
    #: ``fw.<name>(a, ...)`` with the standard's arguments (``a``, ``b``: its arrays).
    benchmark_spellings: Mapping[str, str] = _EMPTY
    #: The framework function making one of its arrays of a NumPy array (``fw.<it>(a)``).
    benchmark_array: str = "asarray"
    #: Whether a call costs little enough that the per-operation benchmark times the full
    #: number of calls (else a tenth).
    benchmark_fast: bool = False

    def backend(self) -> Any:
        """The backend object (imports the framework)."""
        import importlib

        return importlib.import_module(self.backend_module).BACKEND
