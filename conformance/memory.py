"""Bounded memory for the suite's long test processes.

JAX keeps every kernel it compiles (one per operation, dtype, weak type and shape) for the
process's life, and glibc keeps what Python frees; a pytest worker of the repository's
suite grew to 13 GB that way, on a 24 GB machine with two workers. After each test, a
process above `LIMIT` resident drops the frameworks' kernel caches (each backend's
``release_caches``, for the frameworks imported already), collects, and hands freed memory
back to the system (about 1 s); the next release waits until it has grown by another
`STEP`. A dropped kernel is compiled again when a later test needs it (JAX's persistent
cache, `conformance.plugin`, reads most back instead). Measured on the repository's suite
(2 workers): the largest worker 12.5 GB before, about 5 GB after.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys

from eagerpy_xp._detect import REGISTRY

#: Resident bytes above which a test process releases what it can (4 GiB), and the growth
#: after a release that starts the next (2 GiB: what stays, the frameworks themselves,
#: is 2-4 GB in a worker of the repository's suite).
LIMIT = 4 << 30
STEP = 2 << 30

_state = {"next": LIMIT}


def resident_bytes() -> int:
    """The process's resident memory in bytes (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _return_freed_memory() -> None:
    """glibc's ``malloc_trim(0)``: free pages of its arenas back to the system."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # another C library: nothing to ask
        pass


def release() -> None:
    """Drop the loaded frameworks' kernel caches, collect, return freed memory."""
    for descriptor in REGISTRY.values():
        if descriptor.release_caches is not None and descriptor.packages[0] in sys.modules:
            descriptor.release_caches()
    gc.collect()
    _return_freed_memory()


def bound() -> bool:
    """`release` when the process holds more than its current bound; whether it did."""
    if resident_bytes() <= _state["next"]:
        return False
    release()
    _state["next"] = max(LIMIT, resident_bytes() + STEP)
    return True
