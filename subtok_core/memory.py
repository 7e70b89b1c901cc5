"""What building a value costs the process in memory: its resident size before and after.

An uploaded tokenizer.json lives mostly inside the tokenizers library (Rust), where neither
pickle nor tracemalloc sees it; the process's resident size does. The store builds one
upload at a time (subtok_core.store.Store.hold), so the growth is that build's, give or
take what other threads allocated meanwhile (counted too: the safe side). Growth can also
be less than the value holds, when the build reuses memory freed before it: the store
counts at least the caller's estimate.

>>> value, grown = grown_by(lambda: bytearray(50 * 2**20))
>>> len(value), grown >= 40 * 2**20 or resident_bytes() == 0
(52428800, True)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def resident_bytes() -> int:
    """The process's resident memory in bytes (Linux: /proc/self/statm); 0 where unknown."""
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def grown_by(build: Callable[[], T]) -> tuple[T, int]:
    """`build()` and how many bytes the process's resident memory grew while it ran."""
    before = resident_bytes()
    value = build()
    return value, max(0, resident_bytes() - before)


@functools.cache
def _libc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
BIG_BLOCK = 1 << 20  # blocks from 1 MiB up each get their own mapping (big_blocks_apart)


def big_blocks_apart(threshold: int = BIG_BLOCK) -> bool:
    """From now on every block of `threshold` bytes or more is mapped on its own and goes
    back to the system when freed, and a heap's free top past 128 KiB is trimmed at once.

    glibc raises its mapping threshold to the biggest mapped block freed (up to 32 MiB):
    after one 20 MB upload came and went, the next uploads' copies (the file's bytes, its
    text, the tokenizers library's tables) were carved out of the thread arenas of the
    script threads instead. Freed, they were merged into an arena's top, which malloc_trim
    does not hand back outside the main arena (glibc 2.36's mtrim trims the main arena's
    top only): 10 tabs of a 19.9 MB tokenizer.json on /vocab kept the server about 100 MB
    over its start after every tab closed. Setting the threshold (mallopt) turns that
    adjustment off. False where the C library has no mallopt (not glibc)."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, threshold)) and bool(
        libc.mallopt(M_TRIM_THRESHOLD, 128 * 1024)
    )


def give_back() -> bool:
    """Hand the memory freed by dropped values back to the system (glibc's malloc_trim:
    a big freed block otherwise stays in the process's heap, and its resident size with
    it); False where the C library has no such call."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
