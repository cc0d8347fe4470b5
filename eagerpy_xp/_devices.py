"""One device model for every backend.

A `Device` has a kind (``"cpu"``, ``"cuda"``, ``"mps"``, ``"tpu"``) and an index.  It
compares equal to its string form (``"cpu"``, ``"cuda:0"``) and hashes like it, so it can
be used wherever a device string is expected.  Backends translate it to and from their
own device objects.
"""

from __future__ import annotations

from typing import Any

KINDS = ("cpu", "cuda", "mps", "tpu")


class Device:
    """A device: ``Device("cuda:1")``, ``Device("cuda", 1)``, ``Device("cpu")``."""

    __slots__ = ("kind", "index")
    kind: str
    index: int

    def __init__(self, spec: str | Device, index: int | None = None) -> None:
        if isinstance(spec, Device):
            kind, parsed_index = spec.kind, spec.index
        elif isinstance(spec, str):
            text = spec.strip().lower()
            if text.startswith("/"):  # a TensorFlow device: "/job:.../device:GPU:1", "/CPU:0"
                text = text.rsplit("device:", 1)[-1].lstrip("/")
            kind, _, rest = text.partition(":")
            if kind in ("gpu", "rocm"):
                kind = "cuda"
            if kind not in KINDS:
                raise ValueError(
                    f"Device: unknown device {spec!r}; expected one of "
                    f"{', '.join(KINDS)}, optionally with ':<index>'"
                )
            if rest and not rest.isdigit():
                raise ValueError(f"Device: bad device index in {spec!r}")
            parsed_index = int(rest) if rest else 0
        else:
            raise TypeError(f"Device: expected a str or Device, got {type(spec).__name__}")
        if index is not None:
            if not isinstance(index, int) or index < 0:
                raise ValueError(f"Device: index must be a non-negative int, got {index!r}")
            parsed_index = index
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "index", parsed_index)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Device is immutable")

    def __str__(self) -> str:
        return "cpu" if self.kind == "cpu" else f"{self.kind}:{self.index}"

    def __repr__(self) -> str:
        return f"Device({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Device):
            return self.kind == other.kind and self.index == other.index
        if isinstance(other, str):
            try:
                return self == Device(other)
            except ValueError:
                return False
        named = _UNNAMED.get(type(other))
        if named is not None:
            return self == named
        platform, index = getattr(other, "platform", None), getattr(other, "id", None)
        if isinstance(platform, str) and isinstance(index, int):  # a JAX device
            try:
                return self == Device(platform, index)
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Device, (str(self),))


CPU = Device("cpu")

#: Device object types without a name or an equality of their own (ndonnx's), each with
#: the `Device` its objects stand for: ``Device("cpu") == native_array.device`` holds.
_UNNAMED: dict[type, Device] = {}


def register_unnamed_device(cls: type, device: Device) -> None:
    """Make ``device`` equal to every object of the device type ``cls`` (a backend calls
    it once, when it is built, for a framework whose device objects have no name)."""
    _UNNAMED[cls] = device
