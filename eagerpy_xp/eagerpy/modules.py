"""EagerPy's ``eagerpy.modules``: ``ep.torch``, ``ep.numpy``, ... are the framework modules,
imported on first use, whose functions return EagerPy tensors."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from .astensor import astensor

__all__ = ["ModuleWrapper", "jax", "numpy", "tensorflow", "torch", "wrap"]


def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` with its result made a tensor where it is an array."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = f(*args, **kwargs)
        try:
            return astensor(result)
        except ValueError:
            return result

    return wrapper


class ModuleWrapper(ModuleType):
    """A framework module, imported on first attribute access, with array results wrapped."""

    def __init__(self, name: str, doc: str | None = None) -> None:
        super().__init__(name, doc)
        if self.__doc__ is None:
            self.__doc__ = f"EagerPy wrapper of the '{self.__name__}' module"

    def __dir__(self) -> Iterable[str]:
        return dir(importlib.import_module(self.__name__))

    def __getattr__(self, name: str) -> Any:
        attr = getattr(importlib.import_module(self.__name__), name)
        if inspect.ismodule(attr):
            return ModuleWrapper(attr.__name__)
        if callable(attr):
            return wrap(attr)
        return attr


torch = ModuleWrapper("torch")
tensorflow = ModuleWrapper("tensorflow")
jax = ModuleWrapper("jax")
numpy = ModuleWrapper("numpy")
