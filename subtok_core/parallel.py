"""Independent trainings in worker processes, so that a page's runs use every core.

Compare trains three or four tokenizers and SaGe six control runs beside its own; each is
pure Python and holds the GIL, so threads would take turns on one core. ``run(fn, *args,
report=...)`` calls ``fn(*args, report)`` in a worker process instead and waits for it in
the calling thread, which keeps the page's part of the work:

- **progress**: the child's ``report(done, total, ...)`` calls travel back through a
  queue; the waiting thread hands them to its own ``report`` (the page's progress bar),
  and repeats the last one every ``poll`` seconds when nothing new came, so a page that
  draws it notices Stop or a closed tab within ``poll`` seconds even in a long phase.
  The first call, ``report(0, 0)``, comes as soon as the run is queued;
- **cancellation**: when the waiting thread's ``report`` raises (Streamlit's stop, or the
  store's cancel), a flag is set that the child's ``report`` checks at its next call: it
  raises :class:`Cancelled` and the worker is free again;
- **errors**: an exception of the child (a ValueError with its sentence for the student)
  is raised again in the waiting thread, as the same type with the same message.

The store (subtok_core.store) stays in the calling process: single flight, the byte
budget and the disk copy are the same whoever computes a run.

One pool per server, made at the first run, with ``SUBTOK_WORKERS`` processes (default:
one per core; ``0`` runs everything in the calling thread, as tests that replace a core
function need). The workers run at a lower priority (NICE) than the server, whose own
work (a click, Stop, another student's page) must not wait for a training.

Workers start by **forkserver** (spawn where there is none): the Streamlit server runs
threads, and forking a process with threads can copy a lock some other thread holds, which
then never opens in the child; the fork server is a fresh single-threaded process that
imports the core once and forks each worker from there.

>>> def count(n, report):
...     for i in range(n):
...         report(i + 1, n)
...     return n
>>> seen = []
>>> run(count, 3, report=lambda done, total: seen.append(done), workers=0)
3
>>> seen
[0, 1, 2, 3]
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.managers import SyncManager
from typing import Any

log = logging.getLogger(__name__)

POLL = 0.2  # seconds between two looks at a child's progress (and at the page's Stop)
WATCH = 2.0  # seconds between a worker's looks at whether its server is still there
PR_SET_PDEATHSIG = 1  # prctl's option (linux/prctl.h): a signal when the parent dies
NICE = 5  # workers run at a lower priority than the server, which answers the clicks
PRELOAD = ["subtok_core.registry"]  # imported once in the fork server, not in each worker
DIED = (
    "The computation ended unexpectedly: the process running it stopped (perhaps out of "
    "memory). Try smaller settings."
)

_lock = threading.Lock()  # making the pool
_main_lock = threading.Lock()  # swapping __main__ (see without_main)
_pool: ProcessPoolExecutor | None = None
_manager = None  # a multiprocessing manager: the progress queues and cancel flags


class Cancelled(Exception):
    """Raised in a child at its first report after its run was cancelled."""


def worker_count() -> int:
    """How many worker processes the pool has: ``SUBTOK_WORKERS`` (0: none, work in the
    calling thread), at most one per core; one per core by default."""
    cores = os.cpu_count() or 1
    raw = os.environ.get("SUBTOK_WORKERS", "").strip()
    try:
        wanted = int(raw) if raw else cores
    except ValueError:
        log.warning("SUBTOK_WORKERS=%r is not a whole number; using %s", raw, cores)
        wanted = cores
    return max(0, min(wanted, cores))


@contextlib.contextmanager
def without_main():
    """A new process of spawn or forkserver first runs the parent's ``__main__`` module
    again. Under Streamlit that is the app's script (Streamlit installs each script run as
    ``__main__``), which must not run in a worker: while a process starts, a bare module
    stands in for it. (So `fn` cannot come from ``__main__`` either.)"""
    with _main_lock:
        real = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = real


# forkserver where the system has it (Linux, macOS), else spawn: see the module doc
_BASE = multiprocessing.get_context(
    "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
)


class _Process(_BASE.Process):
    """A process of the pool (or its manager), started without the parent's __main__."""

    def start(self) -> None:
        with without_main():
            super().start()


class _Context(type(_BASE)):
    """The start method of _BASE, with _Process for every process it starts."""

    Process = _Process


def _pool_and_manager(count: int):
    """The server's pool of `count` workers and its manager, made at the first call."""
    global _pool, _manager
    with _lock:
        if _pool is None:
            context = _Context()
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(PRELOAD)
            server = os.getpid()
            if _manager is None:
                _manager = SyncManager(ctx=context)
                _manager.start(die_with_parent, (server,))
            _pool = ProcessPoolExecutor(count, context, _start_worker, (NICE, server))
            log.info("started a pool of %s worker processes", count)
        return _pool, _manager


def _start_worker(nice: int, server: int) -> None:
    """In each worker as it starts: a lower priority, and an end with the server."""
    _lower_priority(nice)
    die_with_parent(server)


def die_with_parent(server: int) -> None:
    """End this process when its parent ends, even by kill -9 (an out-of-memory kill):
    a worker left behind finished its run at full CPU, then waited forever holding its
    memory. On Linux the kernel sends SIGKILL when the parent (the fork server, which
    itself ends when the server does) dies (PR_SET_PDEATHSIG); everywhere, a thread looks
    every WATCH seconds whether the parent changed or `server` is gone, and ends it."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the kernel was told
        os._exit(1)
    watch = threading.Thread(target=_watch, args=(parent, server), name="subtok-watch", daemon=True)
    watch.start()


def _watch(parent: int, server: int) -> None:
    while True:
        time.sleep(WATCH)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(1)
        except OSError:
            pass  # there, but not ours to signal
        if os.getppid() != parent:
            os._exit(1)


def _lower_priority(nice: int) -> None:
    """In each worker as it starts: a lower priority (NICE), so that a training never slows
    the server's own work: a click, a step, another student's page."""
    if hasattr(os, "nice"):
        os.nice(nice)


def _drop_pool(broken: ProcessPoolExecutor) -> None:
    """Forget a pool whose worker died, so that the next run starts a new one."""
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def _in_child(fn: Callable, args: tuple, progress, cancel):
    """What a worker runs: `fn(*args, report)`, where report checks the cancel flag and
    sends the progress home."""

    def report(*values) -> None:
        if cancel.is_set():
            raise Cancelled("the run was cancelled")
        progress.put(values)

    return fn(*args, report)


def _ignore(*values) -> None:
    pass


def run(
    fn: Callable[..., Any],
    *args,
    report: Callable[..., None] | None = None,
    poll: float = POLL,
    workers: int | None = None,
) -> Any:
    """`fn(*args, report)` computed in a worker process (in this thread when there are no
    workers), with its progress given to `report` here; see the module doc. `fn` and
    `args` travel by pickle: `fn` must be a module-level function of an importable module.
    """
    report = report or _ignore
    count = worker_count() if workers is None else workers
    if count == 0:
        report(0, 0)  # as from the pool: the first report at once
        return fn(*args, report)
    pool, manager = _pool_and_manager(count)
    progress, cancel = manager.Queue(), manager.Event()
    try:
        future = pool.submit(_in_child, fn, args, progress, cancel)
    except BrokenProcessPool:  # a worker died since the last run: start a new pool
        _drop_pool(pool)
        pool, _ = _pool_and_manager(count)
        future = pool.submit(_in_child, fn, args, progress, cancel)
    last: tuple = (0, 0)  # (0, 0): queued for a free worker, or no report yet
    try:
        while True:  # the first report comes at once: (0, 0), the run is queued
            news = _drain(progress)
            for values in news or [last]:
                report(*values)
            last = news[-1] if news else last
            try:
                result = future.result(timeout=poll)
            except TimeoutError:  # still running: show what it reports meanwhile
                continue
            for values in _drain(progress):  # its last reports, every one in order
                report(*values)
            return result
    except BrokenProcessPool:
        _drop_pool(pool)
        raise ValueError(DIED) from None
    except BaseException:  # Stop, a closed tab, the child's own error: free the worker
        cancel.set()
        future.cancel()
        raise


def _drain(progress) -> list[tuple]:
    """Every report waiting in the queue, oldest first."""
    found = []
    while True:
        try:
            found.append(progress.get_nowait())
        except queue.Empty:
            return found
