"""Several runs of the server-wide store at once, so that their computations overlap.

A page that needs several independent runs (Compare's tokenizers, SaGe's controls) asks
for them together. Each run is asked of the store (subtok_core.store) on a helper thread of
its own, exactly as a single run is: kept, awaited from another session (single flight),
read from disk, or computed; a computation that calls subtok_core.parallel.run goes to a
worker process, so the runs share every core. The page's own thread waits for the runs it
needs and draws their progress; the helper threads never touch the page.

>>> from subtok_core.store import Store
>>> store = Store(budget_bytes=10_000)
>>> runs = Runs(store, {"a": lambda report: 1, "b": lambda report: 2})
>>> runs.wait(["b", "a"])
{'b': 2, 'a': 1}
>>> get_all(store, {"a": lambda report: "never called"})
{'a': 1}
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Mapping

from .parallel import POLL, Cancelled

ORDER_WAIT = 30  # seconds a run waits for the one before it to be queued (see Runs)


class Runs:
    """Runs of `store` under way together, {key: compute} as store.get takes them (`names`:
    what each is, for the log). ``wait`` follows some of them; ``cancel`` ends them all.
    A run no one waits for goes on to its end, and the store keeps it.

    The runs are asked for in the order of `computes`, each once the one before is queued
    (its first report) or done, so the pool's workers take them in that order: the run
    the page shows first goes first.

    ``progress`` holds only each run's latest report, which the page reads every poll; a
    report that must not be missed between two polls (a SaGe step just finished, which the
    next phase's report replaces at once) is kept in ``kept[key]`` when `keep(values)` says
    what to keep of it (not None), in the order the reports came."""

    def __init__(
        self,
        store,
        computes: Mapping[Hashable, Callable],
        names: Mapping[Hashable, str] | None = None,
        keep: Callable[[tuple], object] | None = None,
    ):
        self.keys = frozenset(computes)
        self.keep = keep
        self.kept: dict[Hashable, list] = {key: [] for key in computes}
        self.stop = threading.Event()  # set: every run ends at its next report
        self.changed = threading.Event()  # set whenever a run ends
        self.progress: dict[Hashable, tuple] = {key: (0, 0) for key in computes}
        self.results: dict[Hashable, object] = {}
        self.errors: dict[Hashable, BaseException] = {}  # in the order they happened
        self.asked = {key: threading.Event() for key in computes}  # queued, or done
        before = None  # the run asked for just before
        for key, compute in computes.items():
            args = (store, key, compute, (names or {}).get(key), before)
            threading.Thread(target=self._one, args=args, daemon=True, name="subtok run").start()
            before = self.asked[key]

    def _one(self, store, key: Hashable, compute: Callable, name: str | None, before) -> None:
        """One helper thread: the run of `key` once the one `before` it is queued, its
        progress noted for the page's thread."""

        def report(*values) -> None:
            self.progress[key] = values
            item = None if self.keep is None else self.keep(values)
            if item is not None:
                self.kept[key].append(item)
            self.asked[key].set()
            if self.stop.is_set():
                raise Cancelled("the page stopped, or another of its runs failed")

        try:
            if before is not None:
                before.wait(ORDER_WAIT)  # not set in time: a compute that does not report
            if self.stop.is_set():
                raise Cancelled("the page stopped, or another of its runs failed")
            self.results[key] = store.get(key, compute, report, name)
        except BaseException as err:  # raised in the page's thread by wait()
            self.errors[key] = err
            self.stop.set()  # the page shows the error: the other runs are of no use
        finally:
            self.asked[key].set()
            self.changed.set()

    @property
    def cancelled(self) -> bool:
        return self.stop.is_set()

    def cancel(self) -> None:
        """End every run at its next report (its worker process is free soon after)."""
        self.stop.set()

    def wait(
        self,
        keys: Iterable[Hashable],
        on_progress: Callable[..., None] | None = None,
        poll: float = POLL,
    ) -> dict:
        """The runs of `keys`, once they are all done. Meanwhile `on_progress(key, done,
        total, ...)` is called for each of them still under way at every poll (the page's
        progress bars). An exception there (Stop, a closed tab) cancels every run and is
        raised here; so is the error of one of these runs (a ValueError for the student),
        or the error of another run that cancelled them."""
        keys = list(keys)
        try:
            while True:
                if any(key in self.errors for key in keys):
                    raise self._first_error()
                if all(key in self.results for key in keys):
                    return {key: self.results[key] for key in keys}
                self.changed.wait(poll)
                self.changed.clear()
                for key in keys:
                    if on_progress and key not in self.results:
                        on_progress(key, *self.progress[key])
        except BaseException:
            self.cancel()
            raise

    def _first_error(self) -> BaseException:
        """The error that ended the runs: the first that was not a cancellation."""
        errors = list(self.errors.values())
        return next((e for e in errors if not isinstance(e, Cancelled)), errors[0])


def get_all(
    store,
    computes: Mapping[Hashable, Callable],
    on_progress: Callable[..., None] | None = None,
    names: Mapping[Hashable, str] | None = None,
    poll: float = POLL,
) -> dict:
    """Every run of `computes` (see Runs), started together and waited for together."""
    return Runs(store, computes, names).wait(list(computes), on_progress, poll)
