"""NumPy arrays of every layout as inputs to ``asarray`` and ``from_dlpack``, on every
backend and both flavours (issue 23: ``eagerpy_xp.torch.asarray(a[::-1])`` raised "At
least one stride in the given numpy array is negative", which SciPy's ``filtfilt`` hits).

Reversed (negative strides), strided, transposed, Fortran-ordered, broadcast (zero
strides), read-only, byte-swapped (``a.astype('>f4')``), unaligned, 0-d and zero-size
arrays of every dtype of the standard: the values and the (native-order) dtype are
NumPy's; ``copy=True`` never shares; ``copy=None`` shares or copies, and a write to the
source after a copy does not show; ``copy=False`` shares or raises `ValueError`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

from eagerpy_xp._dtypes import ALL
from tests._flavours import namespaces, values

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "dask")
#: Backends whose ``asarray(numpy_array)`` copies (``copy=False`` may still share).
ALWAYS_COPY = ("jax", "tensorflow", "dask")

xp = namespaces(*BACKENDS)


def _base(dtype: str) -> np.ndarray:
    raw = np.arange(24).reshape(4, 6)
    if dtype == "bool":
        return raw % 3 == 0
    if dtype.startswith("complex"):
        return (raw - 11.5 + 1j * raw[::-1]).astype(dtype)
    return (raw - (0 if dtype.startswith("uint") else 11)).astype(dtype)


def _read_only(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.setflags(write=False)
    return a


def _unaligned(a: np.ndarray) -> np.ndarray:
    if a.dtype.itemsize == 1:
        return a.copy()
    raw = np.zeros(a.nbytes + 1, np.uint8)
    out = np.frombuffer(raw.data, dtype=a.dtype, count=a.size, offset=1).reshape(a.shape)
    out[...] = a
    return out


#: name -> how to make the source from a C-ordered 4x6 array
LAYOUTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "contiguous": lambda a: a.copy(),
    "reversed": lambda a: a[::-1].copy()[::-1],
    "reversed-1d": lambda a: a.reshape(-1)[::-1],
    "reversed-both": lambda a: a[::-1, ::-2],
    "reversed-rows": lambda a: a[::-1],
    "strided": lambda a: a[:, ::2],
    "transposed": lambda a: a.T,
    "fortran": lambda a: np.asfortranarray(a),
    "broadcast": lambda a: np.broadcast_to(a[0], (3, 6)),
    "read-only": _read_only,
    "byte-swapped": lambda a: a.astype(a.dtype.newbyteorder("S")),
    "byte-swapped-reversed": lambda a: a.astype(a.dtype.newbyteorder("S"))[::-1],
    "unaligned": _unaligned,
    "0-d": lambda a: np.array(a[1, 2]),
    "0-d-byte-swapped": lambda a: np.array(a[1, 2]).astype(a.dtype.newbyteorder("S")),
    "numpy-scalar": lambda a: a[1, 2],
    "zero-size": lambda a: a[:0],
    "zero-size-reversed": lambda a: a[:, :0][::-1],
}


def _expected(source: np.ndarray) -> np.ndarray:
    return np.array(source, copy=True).astype(source.dtype.newbyteorder("="))


def _overwrite(source: np.ndarray) -> bool:
    """Write new values into ``source`` where it is writable; whether it was."""
    if not source.flags.writeable or source.size == 0:
        return False
    source[...] = np.zeros((), source.dtype) if source.dtype.kind != "b" else True
    return True


def _unshareable(backend: str, source: np.ndarray) -> bool:
    """Whether ``asarray(source)`` needs a copy on ``backend``: byte-swapped data (the
    standard's dtypes are native), torch with negative strides."""
    return not source.dtype.isnative or (
        backend == "torch" and any(s < 0 for s in np.asarray(source).strides))


def _copies(backend: str, source: np.ndarray) -> bool:
    """Whether ``asarray(source)`` (``copy=None``) copies on ``backend``: those, immutable
    backends, and torch for read-only memory (a tensor is writable)."""
    return backend in ALWAYS_COPY or _unshareable(backend, source) or (
        backend == "torch" and not source.flags.writeable)


def _backend(xp: ModuleType) -> str:
    return xp.__name__.rpartition(".")[2]


@pytest.mark.filterwarnings("ignore:The given NumPy array is not writable")
@pytest.mark.parametrize("dtype", ALL)
def test_asarray_of_numpy_layouts(xp: ModuleType, dtype: str) -> None:
    backend = _backend(xp)
    for layout, make in LAYOUTS.items():
        for copy in (None, True, False):
            source = make(_base(dtype))
            expected = _expected(source)
            what = f"asarray({layout} {source.dtype.str}, copy={copy})"
            try:
                result = xp.asarray(source, copy=copy)
            except ValueError as exc:
                assert copy is False, f"{what} raised {exc!r}"
                assert str(exc).startswith(f"eagerpy_xp.{backend}.asarray: "), str(exc)
                continue
            got = values(result)
            assert got.dtype == expected.dtype and got.dtype.isnative, f"{what}: {got.dtype}"
            assert got.shape == expected.shape, f"{what}: shape {got.shape}"
            np.testing.assert_array_equal(got, expected, err_msg=what)
            if copy is False:
                assert not _unshareable(backend, source), f"{what} did not raise"
            if not _overwrite(source):
                continue
            after = values(result)
            if copy or (copy is None and _copies(backend, source)):
                np.testing.assert_array_equal(after, expected, err_msg=f"{what}: shares memory")
            elif copy is False:
                np.testing.assert_array_equal(after, source, err_msg=f"{what}: copied")
            else:  # shared or copied, never a mix
                assert np.array_equal(after, expected) or np.array_equal(after, source), what


def test_asarray_of_a_reversed_array_then_computes(xp: ModuleType) -> None:
    """SciPy's ``filtfilt`` reverses the signal with ``x[::-1]`` and hands it back."""
    signal = np.linspace(0.0, 1.0, 7)
    y = xp.asarray(signal[::-1])
    np.testing.assert_allclose(values(xp.cumulative_sum(y)), np.cumsum(signal[::-1]))
    np.testing.assert_allclose(values(xp.flip(y)), signal)


@pytest.mark.parametrize("layout", ["reversed-1d", "reversed-both", "strided", "transposed",
                                    "fortran", "0-d", "zero-size", "contiguous"])  # fmt: skip
def test_from_dlpack_of_numpy_layouts(xp: ModuleType, layout: str) -> None:
    """Any strides NumPy exports (torch aborted the process on negative ones; JAX refused
    non-compact ones): the values, copying where the framework cannot share."""
    for dtype in ("float64", "int32", "complex64", "bool", "uint16"):
        source = LAYOUTS[layout](_base(dtype))
        for copy in (None, True):
            got = values(xp.from_dlpack(source, copy=copy))
            np.testing.assert_array_equal(got, source, err_msg=f"{layout} {dtype} copy={copy}")
            assert got.dtype == source.dtype


@pytest.mark.parametrize("layout", ["byte-swapped", "read-only", "reversed-1d", "strided"])
def test_from_dlpack_refusals_keep_the_contract(xp: ModuleType, layout: str) -> None:
    """What cannot be imported raises the contract's error (never a crash or wrong
    values): byte-swapped arrays have no DLPack dtype; ``copy=False`` may refuse."""
    source = LAYOUTS[layout](_base("float32"))
    for copy in (None, False):
        try:
            got = values(xp.from_dlpack(source, copy=copy))
        except (ValueError, BufferError, TypeError) as exc:
            assert str(exc).startswith(f"eagerpy_xp.{_backend(xp)}.from_dlpack: "), str(exc)
            continue
        np.testing.assert_array_equal(got, _expected(source))
