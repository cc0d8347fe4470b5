"""EagerPy 0.30's tensor classes, implemented on eagerpy_xp's namespaces.

`Tensor` (`._base`) holds every method once, written against the namespace of its ``raw``
array.  The per-framework classes here only say which namespace that is (the native
flavour ``eagerpy_xp.native.<backend>`` for framework arrays, the wrapped one for
`eagerpy_xp.Array`s: `ArrayTensor`) and how random numbers are drawn (with the
framework's own generator, as EagerPy did, so that seeded programs draw the same numbers).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, cast

import eagerpy_xp

from .._detect import REGISTRY
from ._base import EagerPyTypeError, Tensor, TensorOrScalar, TensorType, istensor
from .norms import NormsMethods

if TYPE_CHECKING:
    import torch

__all__ = [
    "ArrayTensor", "DaskTensor", "EagerPyTypeError", "JAXTensor", "NormsMethods", "NumPyTensor",
    "PyTorchTensor", "Tensor", "TensorFlowTensor", "TensorOrScalar", "TensorType", "istensor",
]  # fmt: skip


# ---------------------------------------------------------------------- the frameworks

#: the native namespace of each tensor class, from `eagerpy_xp.get_namespace` on first use
_NAMESPACES: dict[type, ModuleType] = {}


class _NativeTensor(Tensor):
    """A tensor over a framework array: the namespace is ``eagerpy_xp.native.<backend>``.

    A subclass is the class a backend's descriptor names (``eagerpy_class``), which gives
    it its backend; its random draws are the descriptor's (``eagerpy_random``) unless it
    has its own (EagerPy's frameworks)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_backend" not in cls.__dict__:
            cls._backend = next(n for n, d in REGISTRY.items() if d.eagerpy_class == cls.__name__)

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        draw = REGISTRY[self._backend].eagerpy_random
        if draw is None:
            raise NotImplementedError(f"{kind} ({self._backend}): no random generator")
        return draw(kind, shape, a, b, self._raw)

    @property
    def _xp(self) -> ModuleType:
        xp = _NAMESPACES.get(type(self))
        if xp is None:
            xp = _NAMESPACES[type(self)] = eagerpy_xp.get_namespace(self._raw)
        return xp


class PyTorchTensor(_NativeTensor):
    __slots__ = ()

    def __init__(self, raw: torch.Tensor) -> None:
        super().__init__(raw)

    @property
    def raw(self) -> torch.Tensor:
        return cast("torch.Tensor", self._raw)

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        torch = importlib.import_module("torch")
        draw = torch.rand if kind == "uniform" else torch.randn
        r = draw(shape, dtype=self._raw.dtype, device=self._raw.device)
        return r * (b - a) + a if kind == "uniform" else r * b + a


class TensorFlowTensor(_NativeTensor):
    __slots__ = ()

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        tf = importlib.import_module("tensorflow")
        with tf.device(self._raw.device):
            if kind == "uniform":
                return tf.random.uniform(shape, minval=a, maxval=b, dtype=self._raw.dtype)
            return tf.random.normal(shape, mean=a, stddev=b, dtype=self._raw.dtype)


class JAXTensor(_NativeTensor):
    __slots__ = ()

    #: the global PRNG key, split at every draw (as EagerPy; starts at ``PRNGKey(0)``)
    key: ClassVar[Any] = None

    @classmethod
    def _get_subkey(cls) -> Any:
        jax = importlib.import_module("jax")
        if cls.key is None:
            cls.key = jax.random.PRNGKey(0)
        cls.key, subkey = jax.random.split(cls.key)
        return subkey

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        jax = importlib.import_module("jax")
        subkey = self._get_subkey()
        if kind == "uniform":
            return jax.random.uniform(subkey, shape, minval=a, maxval=b, dtype=self._raw.dtype)
        return jax.random.normal(subkey, shape, dtype=self._raw.dtype) * b + a


class NumPyTensor(_NativeTensor):
    __slots__ = ()

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        np = importlib.import_module("numpy")
        draw = np.random.uniform if kind == "uniform" else np.random.normal
        return draw(a, b, size=shape).astype(self._raw.dtype, copy=False)


class DaskTensor(_NativeTensor):
    """Dask arrays (beyond EagerPy), on ``eagerpy_xp.native.dask`` (no autodiff)."""

    __slots__ = ()


class MLXTensor(_NativeTensor):
    """MLX arrays (beyond EagerPy), on ``eagerpy_xp.native.mlx``; random draws from MLX's
    global generator (``mx.random.seed`` seeds it)."""

    __slots__ = ()


#: the tensor class of each backend's native arrays
_CLASSES: dict[str, type[Tensor]] = {c.__name__: c for c in (PyTorchTensor, TensorFlowTensor, JAXTensor, NumPyTensor,
                                     DaskTensor, MLXTensor)}  # fmt: skip


def _native_class(name: str) -> type[Tensor]:
    """The class its descriptor names, or for a backend without one a plain subclass."""
    known = _CLASSES.get(REGISTRY[name].eagerpy_class)
    if known is not None:
        return known
    title = REGISTRY[name].eagerpy_class or f"{name.capitalize()}Tensor"
    made: type[Tensor] = type(title, (_NativeTensor,), {"__slots__": (), "_backend": name})
    return made


NATIVE_CLASSES: dict[str, type[Tensor]] = {name: _native_class(name) for name in REGISTRY}


class ArrayTensor(Tensor):
    """A tensor over an `eagerpy_xp.Array` (beyond EagerPy): the namespace is the wrapped
    one, results stay `Array`s, so `astensor_`'s ``restore_type`` gives `Array`s back."""

    __slots__ = ()
    _backend = "array"

    def __init__(self, raw: eagerpy_xp.Array) -> None:
        super().__init__(raw)

    @property
    def raw(self) -> eagerpy_xp.Array:
        return cast(eagerpy_xp.Array, self._raw)

    @property
    def _xp(self) -> ModuleType:
        return cast(ModuleType, self._raw.__array_namespace__())

    def _from_array(self, a: eagerpy_xp.Array) -> ArrayTensor:
        return ArrayTensor(a)

    def _random(self, kind: str, shape: tuple[int, ...], a: float, b: float) -> Any:
        native = NATIVE_CLASSES[self._raw.backend](self._raw.raw)
        return eagerpy_xp.astensor(native._random(kind, shape, a, b))

    def _framework(self) -> str:
        return cast(str, self._raw.backend)
