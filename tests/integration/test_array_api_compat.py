"""array_api_compat's helpers on eagerpy_xp Arrays of every backend."""

from __future__ import annotations

import array_api_compat as aac
import numpy as np
import pytest
from _integration import Target

import eagerpy_xp as ep
from eagerpy_xp.testing import assert_equal


def test_array_namespace_is_the_wrapped_namespace(target: Target) -> None:
    x = target.asarray(np.arange(6.0).reshape(2, 3))
    assert aac.array_namespace(x) is target.xp
    assert aac.array_namespace(x, x[0]) is target.xp
    assert aac.array_namespace(x, 1.0, None) is target.xp
    assert aac.array_namespace(x, api_version="2024.12") is target.xp


def test_helpers(target: Target) -> None:
    x = target.asarray(np.arange(6.0).reshape(2, 3))
    assert aac.is_array_api_obj(x)
    assert aac.size(x) == 6
    assert aac.device(x) == "cpu"
    assert aac.device(x) == x.device
    moved = aac.to_device(x, aac.device(x))
    assert type(moved) is ep.Array
    assert moved.backend == target.name
    assert_equal(moved, x)
    assert not aac.is_numpy_array(x)
    assert aac.is_writeable_array(x)  # Arrays take __setitem__ on every backend, JAX included


def test_mixing_with_plain_numpy_is_refused(target: Target) -> None:
    """An Array and a plain ndarray belong to two namespaces, even on the numpy backend."""
    x = target.asarray(np.ones(2))
    with pytest.raises(TypeError, match="Multiple namespaces"):
        aac.array_namespace(x, np.ones(2))
