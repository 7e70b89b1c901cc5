"""One store for a whole server: finished runs by key, trained once, kept within a budget.

Thirty students open the same deep link within a minute. The first request for a key
trains (the *leader*); every other request for it while it trains waits for that run and
sees its progress, instead of training it again (*single flight*). If the leader stops
(Stop pressed, tab closed), the run is dropped and the next waiter takes over.

What is kept is bounded in bytes, measured as each value's pickled size (Python objects
take about 2 to 4 times that in memory), and the least recently used runs go first.
The budget is ``SUBTOK_STORE_MB`` (default 400: about 1-1.5 GB resident, for a
two-core 4 GB classroom server).

Given a disk cache (subtok_core.diskcache), the store also keeps a copy of every finished
run on disk and, on a miss, looks there before computing: a restarted server opens a deep
link without training. Reading a file goes through the same single flight as training.
The disk holds plain data (subtok_core.plaindata), never a pickle.

An upload (a tokenizer.json, a corpus file) and what a page makes of it are kept here too,
once per server for the file's content and in memory only, *held* by the sessions that use
it (Store.hold): counted against the same budget at the process's measured growth while it
was built (never less than the caller's estimate), refused before it is built when the
estimate does not fit, never dropped while held, and dropped as soon as its last holder lets
go (Store.release: the app calls it when a session ends).

>>> store = Store(budget_bytes=10_000)
>>> store.get("k", lambda report: "trained")
'trained'
>>> store.get("k", lambda report: "never called")
'trained'
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from . import memory, plaindata
from .diskcache import DiskCache, megabytes_from_env

log = logging.getLogger(__name__)

DEFAULT_BUDGET_MB = 400
Report = Callable[..., None]  # report(done, total, *more): what a run has done so far
# the store's log lines for a run computed and a run read from disk (`subtok warm` counts them)
TRAINED, READ = "trained %s in %.1f s", "read %s from the disk cache in %.1f s"
HELD = "uploads: %s; %d bytes held in %d values by %d sessions"  # Store.hold, Store.release
REFUSED_BUILT = "refused %s after building it: it grew the server by %.0f MB"  # Store.hold


# what a run read from disk must be (Store.get): a type, types, or why(value) -> str | None
Expect = type | tuple[type, ...] | Callable[[Any], "str | None"] | None


def refused(value, expect: Expect) -> str | None:
    """Why `value`, read from disk, is not what `expect` asks for (None when it is).

    >>> refused("a run", tuple), refused((1,), tuple)
    ('it holds a str, not a tuple', None)
    """
    if expect is None:
        return None
    if isinstance(expect, type | tuple):
        if isinstance(value, expect):
            return None
        kinds = expect if isinstance(expect, tuple) else (expect,)
        wanted = " or ".join(kind.__name__ for kind in kinds)
        return f"it holds a {type(value).__name__}, not a {wanted}"
    return expect(value)


def budget_from_env() -> int:
    """The byte budget from ``SUBTOK_STORE_MB`` (a positive number of megabytes)."""
    return megabytes_from_env("SUBTOK_STORE_MB", DEFAULT_BUDGET_MB)


TABLE = "table: "  # how the kind of a table derived from runs starts (lessons.ui.store.derived)


def kind_of(key: Hashable) -> str:
    """What kind of run `key` holds, for the counters: its first part when that is a name
    (("tokenized", ...), ("sage", ...), a derived table's ("table: compare measures",
    ...)), else "run"."""
    if isinstance(key, tuple) and key and isinstance(key[0], str):
        return key[0]
    return "run"


def _kind(key: Hashable) -> dict[str, str]:
    """The `extra` of a log line about `key`: its record's `run_kind` (`subtok warm` counts
    by it)."""
    return {"run_kind": kind_of(key)}


def _label(key: Hashable, name: str | None = None) -> str:
    """A short name for a key in the server's log (`name`: what the run is, if given)."""
    text = repr(key)
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{name} ({text})" if name else text


class _NotOnDisk(Exception):
    """Raised by Store.cached's stand-in computation: the file could not be used."""


def _not_on_disk(report: Report):
    raise _NotOnDisk


def pickled_size(value: Any) -> int:
    """A value's size in bytes, as pickle writes it."""
    return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


@dataclass
class _Flight:
    """A run under way: waiters watch its progress and wait for its end."""

    done: threading.Event = field(default_factory=threading.Event)
    progress: tuple | None = None  # the last report(done, total, *more) of the leader
    value: Any = None
    failed: bool = False


class Store:
    """Finished runs by key (LRU within `budget_bytes`), each computed once at a time, and
    copied to `disk` (None: kept in memory only); uploads held (hold), their size taken by
    `grown_by` (memory.grown_by: the process's growth while one is built)."""

    def __init__(
        self,
        budget_bytes: int | None = None,
        size_of=pickled_size,
        poll: float = 0.1,
        disk: DiskCache | None = None,
        grown_by=memory.grown_by,
    ):
        self.budget = budget_from_env() if budget_bytes is None else budget_bytes
        self.grown_by = grown_by  # (value, bytes the process grew by) of a build (hold)
        self.size_of, self.poll, self.disk = size_of, poll, disk
        self.lock = threading.Lock()
        self.runs: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.flights: dict[Hashable, _Flight] = {}
        self.holders: dict[Hashable, set[Hashable]] = {}  # key -> who holds it (Store.hold)
        self.building = threading.Lock()  # one upload built at a time (its growth measured)
        self.used = 0
        self.computed = 0  # how many runs were computed (not taken from the store)
        # per kind of run (kind_of): how many were computed, read from disk, found in memory
        self.counts: Counter[tuple[str, str]] = Counter()

    def cached(self, key: Hashable, name: str | None = None, expect: Expect = None):
        """The run kept under `key` (now the most recently used), in memory or on disk;
        else None. Nothing is computed (`name` says what the run is in the log; `expect`,
        what a run read from disk must be, as in get)."""
        with self.lock:
            if key in self.runs:
                self.runs.move_to_end(key)
                self.counts[kind_of(key), "kept"] += 1
                return self.runs[key][0]
            if key in self.flights:  # under way: the caller's get() waits with its progress
                return None
        if self.disk is None or not self.disk.has(key):
            return None
        try:  # one session reads the file, the others wait for it
            return self.get(key, _not_on_disk, name=name, expect=expect)
        except _NotOnDisk:
            return None

    def keep(self, key: Hashable, value, size: int | None = None):
        """Keep a finished run (of `size` bytes, measured if not given), dropping the least
        recently used past the budget (never a held one, see hold); a run bigger than
        the budget left by the held ones is given back but not kept."""
        size = self.size_of(value) if size is None else size
        with self.lock:
            self._keep(key, value, size)
        return value

    def _keep(self, key: Hashable, value, size: int) -> bool:
        """keep, under the lock; whether the run is kept."""
        self._drop(key)
        if size > self.budget - self.held_bytes():
            log.warning("a run of %s bytes is over the store's budget; not kept", size)
            return False
        self.runs[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            oldest = next(k for k in self.runs if k not in self.holders)
            self._drop(oldest)
        return True

    def held_bytes(self) -> int:
        """The bytes of the held values (uploads, see hold): never dropped while held."""
        return sum(self.runs[k][1] for k in self.holders if k in self.runs)

    def hold(self, key: Hashable, build: Callable[[], Any], size: int, holder: Hashable) -> Any:
        """The value under `key` (an upload, or what a page makes of one), built once per
        server and held by `holder` (a session) until release(holder): kept in memory
        only, never dropped while held. Built only when its estimated `size` fits in the
        budget the held values leave (a ValueError with a sentence, `build` not called);
        counted at the process's growth while it was built (memory.grown_by: one build at a
        time), never less than `size`, and refused after all when that does not fit."""
        found = self.held_value(key, holder)
        if found is not None:
            return found[0]
        with self.building:  # one upload built at a time: its growth is its own
            found = self.held_value(key, holder)  # built by another session meanwhile
            if found is not None:
                return found[0]
            with self.lock:
                self._refuse_unless_room(size)
            began = time.perf_counter()
            value, grown = self.grown_by(build)
            size = max(size, grown)
            log.info(TRAINED, _label(key, "an upload"), time.perf_counter() - began,
                     extra=_kind(key))  # fmt: skip
            with self.lock:
                try:
                    self._refuse_unless_room(size)
                except ValueError:  # its estimate fitted, what it really took does not
                    log.info(REFUSED_BUILT, _label(key, "an upload"), size / 2**20)
                    raise
                self._keep(key, value, size)
                self.holders[key] = {holder}
        self._log_held(f"held {_label(key)}")
        return value

    def held_value(self, key: Hashable, holder: Hashable) -> tuple[Any] | None:
        """(value,) when `key` is kept and held: `holder` holds it now too; else None."""
        with self.lock:
            if key not in self.holders or key not in self.runs:
                return None
            fresh = holder not in self.holders[key]
            self.holders[key].add(holder)
            self.runs.move_to_end(key)
            self.counts[kind_of(key), "kept"] += 1
            value = self.runs[key][0]
        if fresh:
            self._log_held(f"held {_label(key)}")
        return (value,)

    def _refuse_unless_room(self, size: int) -> None:
        """ValueError with a sentence when `size` bytes do not fit beside the held values."""
        held = self.held_bytes()
        if size > self.budget - held:
            raise ValueError(
                f"There is no room for this in the server's memory now: it needs about "
                f"{size / 2**20:,.0f} MB, and open tabs hold {held / 2**20:,.0f} MB of "
                f"the {self.budget / 2**20:,.0f} MB budget (SUBTOK_STORE_MB). Close "
                "tabs that use an uploaded file, or try a smaller file."
            )

    def release(self, holder: Hashable, key: Hashable | None = None) -> int:
        """`holder` lets go of `key` (None: of everything it holds); a value nobody holds
        any more is dropped at once. How many values were dropped."""
        gone = []
        with self.lock:
            for k in [key] if key is not None else list(self.holders):
                held = self.holders.get(k, set())
                if holder in held:
                    held.discard(holder)
                    if not held:
                        del self.holders[k]
                        self._drop(k)
                        gone.append(k)
        if gone:
            self._log_held(f"dropped {len(gone)}")
        return len(gone)

    def _log_held(self, what: str) -> None:
        """The server's log line about the held uploads (a test of the server reads it)."""
        with self.lock:
            count, size = len(self.holders), self.held_bytes()
            sessions = len(set().union(*self.holders.values())) if self.holders else 0
        log.info(HELD, what, size, count, sessions)

    def _drop(self, key: Hashable) -> None:
        if key in self.runs:
            self.used -= self.runs.pop(key)[1]

    def clear(self) -> None:
        with self.lock:
            self.runs.clear()
            self.holders.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self.runs)

    def get(
        self,
        key: Hashable,
        compute: Callable[[Report], Any],
        on_progress: Report | None = None,
        name: str | None = None,
        size: int | None = None,
        on_disk: bool = True,
        expect: Expect = None,
    ):
        """The run under `key`: kept, or awaited from another session, or read from disk,
        or computed here (`name` says what it is in the log).

        `compute(report)` calls `report(done, total)` (and any more values) as it goes;
        `on_progress(done, total, ...)` shows it (to the leader and every waiter alike). An
        exception in the leader, Streamlit's stop included, reaches the leader only: its
        waiters start again. `size`: the value's size in bytes when it cannot be measured;
        `on_disk` False keeps it in memory only (an upload: not written, not looked for).
        `expect`: what a run read from disk must be, a type (or a tuple of types) or a
        function that says why a value is refused (None when it is not); a file whose run
        is not that is removed, with a log line, and the run computed here.
        """
        while True:
            with self.lock:
                if key in self.runs:
                    self.runs.move_to_end(key)
                    self.counts[kind_of(key), "kept"] += 1
                    return self.runs[key][0]
                flight = self.flights.get(key)
                leader = flight is None
                if leader:
                    flight = self.flights[key] = _Flight()
            if leader:
                disk = self.disk if on_disk else None
                how = (size, disk, expect)
                return self._lead(key, flight, compute, on_progress, name, how)
            # another session trains this run: follow its progress until it ends
            while not flight.done.wait(self.poll):
                if on_progress and flight.progress:
                    on_progress(*flight.progress)
            if not flight.failed:
                return flight.value

    def _lead(self, key, flight: _Flight, compute, on_progress, name, how):
        def report(*progress) -> None:
            flight.progress = progress
            if on_progress:
                on_progress(*progress)

        size, disk, expect = how
        began = time.perf_counter()
        try:
            found = None if disk is None else disk.read(key, max_bytes=self.budget)
            why = None if found is None else refused(found[0], expect)
            if why:
                disk.forget(key, why)
                found = None
            data = None
            if found is not None:
                value, size = found
                log.info(READ, _label(key, name), time.perf_counter() - began, extra=_kind(key))
                self._count(key, "read")
                self.keep(key, value)
            else:
                value = compute(report)
                self.computed += 1
                self._count(key, "computed")
                log.info(TRAINED, _label(key, name), time.perf_counter() - began, extra=_kind(key))
                data = None if disk is None else self._encoded(value)
                self.keep(key, value, size)
        except BaseException:
            with self.lock:
                self.flights.pop(key, None)
            flight.failed = True
            flight.done.set()
            raise
        with self.lock:
            self.flights.pop(key, None)
        flight.value = value
        flight.done.set()
        if data is not None and len(data) <= self.budget:  # the waiters have it already
            self.disk.save(key, data)
        return value

    def _count(self, key: Hashable, how: str) -> None:
        with self.lock:
            self.counts[kind_of(key), how] += 1

    def counted(self, how: str) -> dict[str, int]:
        """{kind: how many runs of that kind were `how` ("computed", "read" from disk,
        "kept": found in memory)} since the store began."""
        with self.lock:
            return {kind: n for (kind, seen), n in sorted(self.counts.items()) if seen == how}

    def _encoded(self, value) -> bytes | None:
        """The run as the disk keeps it, plain data (None without a disk, or for a run that
        is not plain data: then it is kept in memory only)."""
        if self.disk is None:
            return None
        try:
            return plaindata.encode(value)
        except (TypeError, ValueError) as err:  # kept in memory all the same
            log.warning("a run of type %s is not kept on disk: %s", type(value).__name__, err)
            return None
