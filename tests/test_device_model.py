"""`Device` compares equal to the device objects and strings native arrays report, so the
native flavour's ``x.device == d`` holds for ``d`` from ``__array_namespace_info__``."""

from __future__ import annotations

import pytest

from eagerpy_xp import Device


@pytest.mark.parametrize(("text", "expected"), [
    ("/job:localhost/replica:0/task:0/device:CPU:0", "cpu"),
    ("/job:localhost/replica:0/task:0/device:GPU:1", "cuda:1"),
    ("/GPU:2", "cuda:2"),
    ("/CPU:0", "cpu"),
    ("rocm:1", "cuda:1"),
])  # fmt: skip
def test_framework_device_strings(text: str, expected: str) -> None:
    assert Device(text) == Device(expected) and text == Device(expected)
    assert Device(text) != Device("cuda:7")


def test_jax_devices_compare_equal() -> None:
    jax = pytest.importorskip("jax")
    cpu = jax.devices("cpu")[0]
    assert Device("cpu") == cpu and cpu == Device("cpu")
    assert Device("cuda:0") != cpu


def test_other_objects_are_not_devices() -> None:
    class Fake:
        platform, id = "quantum", 0

    assert Device("cpu") != Fake() and Device("cpu") != 0 and Device("cpu") != "/QPU:0"
