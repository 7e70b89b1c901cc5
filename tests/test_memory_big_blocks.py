"""Big blocks go back to the system when freed (subtok_core.memory.big_blocks_apart).

Each case runs in a fresh Python process, so this test's own heap is no part of it: a
30 MB block is mapped and freed (glibc then raises its mapping threshold to 30 MB), and a
thread (a script run's thread, with its own arena) fills and frees a 20 MB block, the size
of an uploaded file's copy. What the process still holds after malloc_trim is measured.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from subtok_core import memory

ROOT = Path(__file__).parents[1]
MB = 2**20
CASE = """
import ctypes, sys, threading
from subtok_core import memory
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
if sys.argv[1] == "apart":
    assert memory.big_blocks_apart()
MB = 2**20

def block(size):
    p = libc.malloc(size)
    ctypes.memset(p, 1, size)
    return p

libc.free(block(30 * MB))
before = memory.resident_bytes()

def script_run():
    p = block(20 * MB)
    libc.free(p)

thread = threading.Thread(target=script_run)
thread.start()
thread.join()
memory.give_back()
print(memory.resident_bytes() - before)
"""


def kept_after_a_thread_freed_20_mb(how: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", CASE, how], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip())


@pytest.mark.skipif(memory._libc() is None or memory.resident_bytes() == 0,
                    reason="not glibc on Linux")  # fmt: skip
def test_a_big_block_freed_by_a_script_thread_goes_back_to_the_system():
    kept = kept_after_a_thread_freed_20_mb("apart")
    assert kept < 5 * MB, f"{kept / MB:.1f} MB still held"


@pytest.mark.skipif(memory._libc() is None or memory.resident_bytes() == 0,
                    reason="not glibc on Linux")  # fmt: skip
def test_without_it_glibc_keeps_the_block_even_after_malloc_trim():
    """The cause, as glibc 2.36 behaves: the block went into the thread's arena, whose
    free top malloc_trim does not hand back. If a C library stops doing so, this test
    says that big_blocks_apart is no longer needed (it does no harm)."""
    kept = kept_after_a_thread_freed_20_mb("default")
    assert kept > 15 * MB, f"only {kept / MB:.1f} MB held: glibc gives big blocks back itself"
