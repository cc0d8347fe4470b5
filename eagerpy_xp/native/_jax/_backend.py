"""The JAX backend: ``jax.numpy`` is close to the standard; this holds only what differs.

* **64-bit dtypes** follow ``jax_enable_x64``, read at every call (never set here).  With it
  off, the 64-bit dtypes are absent from ``__array_namespace_info__().dtypes()``, the
  default dtypes are 32-bit, and asking for a 64-bit dtype, or converting a 64-bit NumPy
  array without ``dtype=``, raises `ValueError` saying how to enable x64 (JAX would
  silently truncate).
* **Dtypes** are NumPy dtype objects (what ``jax.Array.dtype`` returns), so
  ``x.dtype == xp.float32`` holds; ``jax.numpy.float32``, ``numpy.float32`` and friends
  are accepted too.
* **Immutability**: `setitem` and in-place operators return a new array (``.at[...]``);
  the wrapped `Array` rebinds to it.  Views never alias: ``y = x[0]; x[0] = 1`` leaves
  ``y`` unchanged.
* **Weak types**: arrays made from Python scalars are "strongly" typed, as the standard's
  promotion rules require.
* **Transformations**: every function is traceable; only functions whose output shape
  depends on the data (boolean masks, `nonzero`, the ``unique_*`` functions) need concrete
  arrays.  `eagerpy_xp.Array` is a registered pytree, so ``jax.jit``, ``jax.grad`` and
  ``jax.vmap`` accept functions of Arrays (``jax.grad`` wants a JAX scalar back: return
  ``.raw``, or use ``eagerpy_xp.value_and_grad``).  Under tracing, ``device`` reports the
  default device.
* **Complex special cases** (signed zeros, infinities, NaNs) are patched to the standard's
  (C99's) values for the transcendental functions and ``abs``.
* **Errors** follow the contract (``docs/errors.md``).  Every function takes JAX arrays
  (and `Array`s of this backend) of its dtype category only: ``jax.numpy`` would also take
  NumPy arrays, lists and dtypes outside the category (``exp`` of integers, ``sum`` of
  bools); the check lives behind the fast paths, which take only in-category dtypes.
  JAX's errors are translated where raised (its `TypeError`s about shapes become
  `ValueError`), and after one the non-array arguments are checked again so that the
  message names the axis or size at fault (`_base.arguments`).  Where JAX would crash or
  answer wrongly, arguments are checked first: creation sizes
  are checked before XLA sees them (`ValueError` from 2**59 elements, where XLA aborts the
  process; `MemoryError` beyond the default device's memory), ``RESOURCE_EXHAUSTED``
  becomes `MemoryError`; indices out of range raise `IndexError` when they are concrete
  (Python ints and integer arrays in ``x[...]`` of the wrapped flavour, ``take``,
  ``take_along_axis``).  Under ``jax.jit`` traced indices cannot be checked: JAX then
  clamps them (``x[i]``) or fills with NaN (``take``).  Indexing a native ``jax.Array``
  is JAX's own operator.
* **eig / eigvals** have CPU kernels only in JAX: a concrete array on another device is
  computed on the CPU and the results are put back on its device; under ``jax.jit`` on an
  accelerator JAX reports the missing kernel.

The chapters are mixins over `_core.JaxCore`: `_elementwise`, `_creation` (and data
types), `_indexing`, `_functions` (the other chapters), `_subnamespaces` (``linalg``,
``fft``), `_autodiff` and `_compile` (the transforms' hooks).  `JaxBackend` composes them.
"""

from __future__ import annotations

from ._autodiff import _JaxAutodiff
from ._compile import JaxCompile
from ._creation import JaxCreation
from ._elementwise import JaxElementwise
from ._functions import JaxFunctions
from ._indexing import JaxIndexing
from ._subnamespaces import JaxFFT, JaxLinalg

__all__ = ["BACKEND", "JaxBackend"]


class JaxBackend(JaxFunctions, JaxIndexing, JaxCreation, JaxElementwise, JaxCompile):
    """Every function of the standard on JAX arrays."""

    autodiff = _JaxAutodiff()
    linalg_class = JaxLinalg
    fft_class = JaxFFT


#: The one JAX backend object (the native module exports it).
BACKEND = JaxBackend()
