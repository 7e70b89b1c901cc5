"""One store for a whole server: finished runs by key, trained once, kept within a budget.

Thirty students open the same deep link within a minute. The first request for a key
trains (the *leader*); every other request for it while it trains waits for that run and
sees its progress, instead of training it again (*single flight*). If the leader stops
(Stop pressed, tab closed), the run is dropped and the next waiter takes over.

What is kept is bounded in bytes, measured as each value's pickled size (Python objects
take about 2 to 4 times that in memory), and the least recently used runs go first.
The budget is ``SUBTOK_STORE_MB`` (default 400: about 1-1.5 GB resident, for a
two-core 4 GB classroom server).

>>> store = Store(budget_bytes=10_000)
>>> store.get("k", lambda report: "trained")
'trained'
>>> store.get("k", lambda report: "never called")
'trained'
"""

from __future__ import annotations

import logging
import os
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_BUDGET_MB = 400
Report = Callable[[int, int], None]


def budget_from_env() -> int:
    """The byte budget from ``SUBTOK_STORE_MB`` (a positive number of megabytes)."""
    raw = os.environ.get("SUBTOK_STORE_MB", "")
    try:
        megabytes = float(raw) if raw else DEFAULT_BUDGET_MB
    except ValueError:
        log.warning("SUBTOK_STORE_MB=%r is not a number; using %s", raw, DEFAULT_BUDGET_MB)
        megabytes = DEFAULT_BUDGET_MB
    if not megabytes > 0:
        megabytes = DEFAULT_BUDGET_MB
    return int(megabytes * 1024 * 1024)


def _label(key: Hashable) -> str:
    """A short name for a key in the server's log."""
    text = repr(key)
    return text if len(text) <= 120 else text[:117] + "..."


def pickled_size(value: Any) -> int:
    """A value's size in bytes, as pickle writes it."""
    return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


@dataclass
class _Flight:
    """A run under way: waiters watch its progress and wait for its end."""

    done: threading.Event = field(default_factory=threading.Event)
    progress: tuple[int, int] | None = None
    value: Any = None
    failed: bool = False


class Store:
    """Finished runs by key (LRU within `budget_bytes`), each computed once at a time."""

    def __init__(self, budget_bytes: int | None = None, size_of=pickled_size, poll: float = 0.1):
        self.budget = budget_from_env() if budget_bytes is None else budget_bytes
        self.size_of, self.poll = size_of, poll
        self.lock = threading.Lock()
        self.runs: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.flights: dict[Hashable, _Flight] = {}
        self.used = 0
        self.computed = 0  # how many runs were computed (not taken from the store)

    def cached(self, key: Hashable):
        """The run kept under `key` (now the most recently used), or None."""
        with self.lock:
            if key not in self.runs:
                return None
            self.runs.move_to_end(key)
            return self.runs[key][0]

    def keep(self, key: Hashable, value):
        """Keep a finished run, dropping the least recently used past the budget; a run
        bigger than the whole budget is given back but not kept."""
        size = self.size_of(value)
        with self.lock:
            self._drop(key)
            if size > self.budget:
                log.warning("a run of %s bytes is over the store's budget; not kept", size)
                return value
            self.runs[key] = (value, size)
            self.used += size
            while self.used > self.budget:
                oldest = next(iter(self.runs))
                self._drop(oldest)
        return value

    def _drop(self, key: Hashable) -> None:
        if key in self.runs:
            self.used -= self.runs.pop(key)[1]

    def clear(self) -> None:
        with self.lock:
            self.runs.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self.runs)

    def get(
        self, key: Hashable, compute: Callable[[Report], Any], on_progress: Report | None = None
    ):
        """The run under `key`: kept, or awaited from another session, or computed here.

        `compute(report)` calls `report(done, total)` as it goes; `on_progress(done, total)`
        shows it (to the leader and every waiter alike). An exception in the leader,
        Streamlit's stop included, reaches the leader only: its waiters start again.
        """
        while True:
            with self.lock:
                if key in self.runs:
                    self.runs.move_to_end(key)
                    return self.runs[key][0]
                flight = self.flights.get(key)
                leader = flight is None
                if leader:
                    flight = self.flights[key] = _Flight()
            if leader:
                return self._lead(key, flight, compute, on_progress)
            # another session trains this run: follow its progress until it ends
            while not flight.done.wait(self.poll):
                if on_progress and flight.progress:
                    on_progress(*flight.progress)
            if not flight.failed:
                return flight.value

    def _lead(self, key, flight: _Flight, compute, on_progress):
        def report(done: int, total: int) -> None:
            flight.progress = (done, total)
            if on_progress:
                on_progress(done, total)

        began = time.perf_counter()
        try:
            value = compute(report)
        except BaseException:
            with self.lock:
                self.flights.pop(key, None)
            flight.failed = True
            flight.done.set()
            raise
        self.computed += 1
        log.info("trained %s in %.1f s", _label(key), time.perf_counter() - began)
        self.keep(key, value)
        with self.lock:
            self.flights.pop(key, None)
        flight.value = value
        flight.done.set()
        return value
