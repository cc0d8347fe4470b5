"""Dtype objects as a suite from outside sees them: the namespace used as it is.

The rest of the suite reaches a namespace through the harness: its arrays are made by
the harness's own conversions (`Target.asarray`), its dtypes found by name and compared
with the namespace's (`Target.dtype_name`), its values read back through the framework.
An independent suite (array-api-tests) and a client that draws its inputs with hypothesis'
``make_strategies_namespace`` do none of that: they take every dtype attribute the
namespace has, keep dtypes in mappings and tuples that compare them with ``==`` (to None
too: ``dtype in (None, xp.float32)``), make arrays with ``xp.zeros``/``xp.asarray``
and ``__setitem__``, and read values back with ``int()``/``float()``/``bool()``.  Every
check here does the same, for every column (eagerpy_xp's and the peers'):

- a dtype the namespace lists (``__array_namespace_info__().dtypes()``) holds values, and
  each place that hands a dtype out (an array's ``dtype``, ``info``, ``result_type``,
  ``finfo``/``iinfo``) gives one equal to the namespace's attribute (must: the standard's
  dtype ``__eq__`` and its functions' results);
- a dtype attribute the namespace has is one some device can hold (house: a client that
  finds dtypes by attribute draws it);
- comparing a dtype with something that is no dtype answers rather than raises, and
  dtypes hash alike across reads (house: the standard defines ``==`` between dtypes only;
  Python's containers compare and hash whatever they hold);
- arrays made and read back through the namespace alone have the values put in (must).
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np
import pytest

from eagerpy_xp._detect import REGISTRY
from eagerpy_xp._dtypes import ALL, KINDS, kind_of

from .harness import Target

AREA = "dtype objects"

#: Objects that are no dtype of any namespace, which clients compare dtypes with.
_NOT_DTYPES: tuple[Any, ...] = (None, "", "float32", "int8", float, int, bool, complex,
                                object, 0, 1.5, (), [])  # fmt: skip
_HOUSE_ANSWERS = ("house", "the standard defines == between dtypes only; Python's containers "
                  "(``in``, dict and set keys) compare and hash whatever they hold, so a "
                  "comparison with None or a string must answer, not raise")  # fmt: skip


#: Backends whose native flavour keeps framework dtype objects that raise where a
#: comparison should answer: the wrapped flavour has objects of its own (DESIGN.md).
_FRAMEWORK_OBJECTS = {name: d.raising_dtype_objects for name, d in REGISTRY.items()
                      if d.raising_dtype_objects}  # fmt: skip


def _info(target: Target) -> Any:
    return target.function("__array_namespace_info__")()


def _present(target: Target, name: str) -> Any:
    """The namespace's dtype attribute ``name``; the test is left where it has none."""
    dtype = getattr(target.xp, name, None)
    if dtype is None:
        pytest.skip(f"{target.module} has no {name} attribute")
    return dtype


def _listed(target: Target, name: str) -> Any:
    """The dtype ``name`` where the namespace lists it for the target's device."""
    dtype = _present(target, name)
    if name not in _info(target).dtypes(device=target.dev):
        pytest.skip(f"{target.module} lists no {name} on {target.device}")
    return dtype


def _where(target: Target) -> dict[str, Any]:
    """``device=`` for the creation functions: the column's device for eagerpy_xp; another
    namespace makes its arrays on its default device, as a suite from outside does (some
    creation functions take no ``device``: mlx.core's)."""
    return {"device": target.dev} if target.ours else {}


def _other_namespaces_dtypes(name: str) -> list[Any]:
    """Dtypes of the same name from namespaces other than the one tested: NumPy's, and
    array_api_strict's (each compared with the target's; neither may raise)."""
    found: list[Any] = [np.dtype(name)]
    try:
        import array_api_strict
    except ImportError:  # pragma: no cover - a dependency of the suite
        return found
    found.append(getattr(array_api_strict, name))
    return found


@pytest.mark.tier("house", "clients find dtypes by attribute (array-api-tests' dtype tables, "
                  "hypothesis' make_strategies_namespace); an attribute no device can "
                  "hold is drawn and fails every test that draws it")  # fmt: skip
@pytest.mark.parametrize("name", ALL)
def test_dtype_attribute_is_held_somewhere(target: Target, name: str) -> None:
    """A dtype attribute of the namespace is listed by ``info.dtypes(device=d)`` for some
    device ``d``, and ``zeros`` of it there holds a value; a dtype no device holds is no
    attribute (MLX: ``complex128``)."""
    dtype = _present(target, name)
    info = _info(target)
    holders = [d for d in info.devices() if name in info.dtypes(device=d)]
    assert holders, (f"{target.module}.{name} exists but no device lists it in "
                     f"__array_namespace_info__().dtypes(); a client drawing dtypes by "
                     f"name draws it")  # fmt: skip
    where = {"device": holders[0]} if target.ours else {}
    made = target.function("zeros")(1, dtype=dtype, **where)
    assert made.dtype == dtype


@pytest.mark.parametrize("name", ALL)
def test_listed_dtype_holds_values(target: Target, name: str) -> None:
    """Each dtype ``info.dtypes()`` lists for the device makes arrays of that dtype with
    ``zeros``, ``ones``, ``full``, ``empty`` and ``asarray`` of Python values, and the
    array's ``dtype`` equals the namespace's attribute and the listed object."""
    dtype = _listed(target, name)
    xp, where = target.xp, _where(target)
    listed = _info(target).dtypes(device=target.dev)[name]
    assert listed == dtype and dtype == listed
    value = _value_of(name)
    for made in (xp.zeros(2, dtype=dtype, **where), xp.ones(2, dtype=dtype, **where),
                 xp.full((2,), value, dtype=dtype, **where),
                 xp.empty((2,), dtype=dtype, **where),
                 xp.asarray([value, value], dtype=dtype, **where)):  # fmt: skip
        assert made.dtype == dtype, f"{made.dtype!r} is not {dtype!r}"
        assert made.shape == (2,)


@pytest.mark.parametrize("name", ALL)
def test_dtype_equality_across_reads(target: Target, name: str) -> None:
    """``x.dtype`` equals the namespace's dtype on every read, and only that one of the
    standard's dtypes; the functions that return a dtype return an equal one."""
    dtype = _listed(target, name)
    xp = target.xp
    x = xp.zeros(3, dtype=dtype, **_where(target))
    reads = [x.dtype, x.dtype, xp.asarray(x).dtype, xp.zeros_like(x).dtype]
    for read in reads:
        assert read == dtype and dtype == read and not (read != dtype)
    assert xp.result_type(dtype, dtype) == dtype and xp.result_type(x, x) == dtype
    for other in ALL:
        theirs = getattr(xp, other, None)
        if other != name and theirs is not None:
            assert not (dtype == theirs) and dtype != theirs, f"{name} == {other}"
            assert not (x.dtype == theirs), f"x.dtype ({name}) == {other}"
    kind = kind_of(name)
    if kind in ("signed integer", "unsigned integer"):
        assert xp.iinfo(dtype).dtype == dtype and xp.iinfo(x).dtype == dtype
    elif kind == "real floating":
        assert xp.finfo(dtype).dtype == dtype and xp.finfo(x).dtype == dtype
    elif kind == "complex floating":
        real = getattr(xp, {"complex64": "float32", "complex128": "float64"}[name])
        assert xp.finfo(dtype).dtype == real


@pytest.mark.tier(*_HOUSE_ANSWERS)
@pytest.mark.parametrize("name", ALL)
def test_dtype_compares_with_anything(target: Target, name: str) -> None:
    """``==`` and ``!=`` of a dtype and anything that is no dtype of the namespace (None,
    strings, Python types, another namespace's dtypes), either way round, answer; ``in``
    and mappings keyed by dtypes work, with ``x.dtype`` read anew each time."""
    dtype = _present(target, name)
    others = [*_NOT_DTYPES, *_other_namespaces_dtypes(name)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (array_api_strict warns on NumPy's dtypes)
        for other in others:
            if other is dtype:
                continue
            for left, op, right in ((dtype, operator.eq, other), (dtype, operator.ne, other),
                                    (other, operator.eq, dtype), (other, operator.ne, dtype)):
                try:
                    bool(op(left, right))
                except Exception as exc:
                    if target.ours and target.backend in _FRAMEWORK_OBJECTS \
                            and target.flavour == "native":  # fmt: skip
                        pytest.xfail(_FRAMEWORK_OBJECTS[target.backend])
                    pytest.fail(f"comparing {target.module}.{name} with {other!r} raised "
                                f"{type(exc).__name__}: {exc}")  # fmt: skip
        assert dtype in (None, dtype) and dtype in [None, "float32", dtype]


@pytest.mark.tier("house", "the standard does not say dtypes are hashable; clients key "
                  "mappings by them (array-api-tests keeps an equality-based mapping "
                  "because NumPy's scalar types and dtypes hash apart)")  # fmt: skip
@pytest.mark.parametrize("name", ALL)
def test_dtype_hashes_alike_across_reads(target: Target, name: str) -> None:
    """A dtype hashes, and an array's ``dtype`` (read anew each time) finds the namespace's
    attribute in a dict and a set keyed by the namespace's dtypes."""
    dtype = _listed(target, name)
    assert hash(dtype) == hash(dtype)
    x = target.xp.zeros(1, dtype=dtype, **_where(target))
    table = {getattr(target.xp, n): n for n in ALL if hasattr(target.xp, n)}
    assert table.get(x.dtype) == name and table.get(x.dtype) == name, (
        f"x.dtype {x.dtype!r} does not find {name} in a dict keyed by the namespace's dtypes")
    assert hash(x.dtype) == hash(dtype) and x.dtype in {dtype}


@pytest.mark.parametrize("name", ALL)
def test_values_through_the_namespace_alone(target: Target, name: str) -> None:
    """As hypothesis builds arrays: ``zeros``, then ``__setitem__`` of Python scalars,
    read back with ``x[i]`` and ``bool``/``int``/``float``/``complex``; and ``asarray``
    of a Python list read back the same way (no harness conversion on either side)."""
    if not target.operators:
        pytest.skip("the array object is the framework's, not the namespace's "
                    "(its operators and indexing are not checked here)")  # fmt: skip
    dtype = _listed(target, name)
    xp = target.xp
    values = _values_of(name)
    read = {"bool": bool, "signed integer": int, "unsigned integer": int,
            "real floating": float, "complex floating": complex}[kind_of(name)]  # fmt: skip
    where = _where(target)
    y = xp.asarray(values, dtype=dtype, **where)
    assert y.dtype == dtype and [read(y[i]) for i in range(len(values))] == values
    x = xp.zeros(len(values), dtype=dtype, **where)
    try:
        x[0] = values[0]
    except TypeError:  # immutable arrays (the standard allows them: JAX's)
        return
    for i, v in enumerate(values):
        x[i] = v
    assert [read(x[i]) for i in range(len(values))] == values
    assert bool(xp.all(x == y))


def _value_of(name: str) -> Any:
    return _values_of(name)[-1]


def _values_of(name: str) -> list[Any]:
    """Python scalars that ``name`` holds exactly, the extremes of its range among them."""
    kind = kind_of(name)
    if kind == "bool":
        return [False, True]
    if kind == "signed integer":
        bits = int(name[3:])
        return [-(2 ** (bits - 1)), -1, 0, 2 ** (bits - 1) - 1, 7]
    if kind == "unsigned integer":
        return [0, 2 ** int(name[4:]) - 1, 7]
    if kind == "real floating":
        return [0.0, -1.5, 2.0**-20, 1.5]
    assert name in KINDS["complex floating"]
    return [0j, -1.5 + 2j, 1.5 - 0.25j]
