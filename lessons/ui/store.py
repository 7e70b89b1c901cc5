"""The server-wide store of trained runs, as the pages use it (with a progress bar)."""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable, Hashable
from pathlib import Path

import streamlit as st

from subtok_core import batch, diskcache, shapes
from subtok_core.keys import fingerprint  # what every page cache is keyed by
from subtok_core.records import Trace
from subtok_core.store import TABLE, Expect, Store


class TraceStore(Store):
    """The server-wide store (subtok_core.store: single flight, a byte budget) with a
    progress bar: the session that trains a run and every session waiting for it see it.

    st.cache_data cannot hold a run that draws a progress bar while it trains (it would
    replay the bar on every hit), so runs are trained outside it and kept here instead.
    """

    def trained(self, key: Hashable, compute: Callable, label: str, expect: Expect = Trace):
        """The run under `key`, trained here or by another session, with a progress bar
        (or read from the disk cache, without one; `expect`: what a run read from disk must
        be, its trace's type: a file that holds anything else is removed and trained again)."""
        name = label.rstrip(": ")  # what the run is, in the server's log
        done = self.cached(key, name, expect)
        if done is not None:
            return done
        holder = st.empty()
        bar = holder.progress(0.0, text=label)

        def show(done: int = 0, total: int = 0, *more) -> None:
            bar.progress(min(1.0, done / max(total, 1)), text=bar_text(label, done, total))

        try:
            return self.get(key, compute, show, name, expect=expect)
        finally:
            holder.empty()

    def trained_all(self, runs: dict[Hashable, tuple[Callable, str]]) -> dict:
        """Several runs at once, {key: (compute, label)} -> {key: run}: those kept come at
        once, the others are trained together (a compute that calls parallel.run sends its
        run to a worker process, so they use every core), each with its own progress bar."""
        found = {key: self.cached(key, label.rstrip(": ")) for key, (_, label) in runs.items()}
        missing = {key: run for key, run in runs.items() if found[key] is None}
        if not missing:
            return found
        holder = st.empty()
        with holder.container():
            bars = {key: st.progress(0.0, text=label) for key, (_, label) in missing.items()}

        def show(key: Hashable, done: int = 0, total: int = 0, *more) -> None:
            text = bar_text(missing[key][1], done, total)
            bars[key].progress(min(1.0, done / max(total, 1)), text=text)

        computes = {key: compute for key, (compute, _) in missing.items()}
        names = {key: label.rstrip(": ") for key, (_, label) in missing.items()}
        try:
            found.update(batch.get_all(self, computes, show, names))
        finally:
            holder.empty()
        return found

    def key_of(self, run) -> str | None:
        """The key `run` is kept under, as a digest (what the page caches of lessons.ui.cached
        are keyed by); None when the store does not keep it. Found by identity: a page
        holds the run it got from here, so no other object can have taken its place."""
        with self.lock:
            key = next((k for k, (kept, _size) in self.runs.items() if kept is run), None)
        return key if key is None or isinstance(key, str) else fingerprint(key)


def derived(key: tuple, compute: Callable[[], object], shape):
    """A table a page derives from finished runs (measures, chart tables...), computed once
    per server and kept like a run: in the server-wide store and, as plain data, on disk,
    so a restarted server reads it instead of computing it. `key`: the kind of table (a
    name; the store counts it as "table: NAME", see Store.counted) then everything it
    depends on, as strings and numbers (the fingerprints of the runs it is drawn from, the
    measured lines...). What it returns is shared by every session as it is: nobody may
    change it. `shape` (subtok_core.shapes): what the table is, all the way down; a file
    whose table is not of it is removed, with a log line naming the table and why, and
    the table computed again. A table computed here that is not of its shape is a
    mistake in the page's declaration: logged as a page's error (logger subtok.pages)."""
    kind = TABLE + key[0]
    whole = (kind, pages_version(), *key[1:])
    wrong = shapes.expect(shape)

    def refused(value) -> str | None:
        why = wrong(value)
        return None if why is None else f"{kind}: {why}"

    def fresh(report):
        value = compute()
        why = refused(value)
        if why:
            PAGES_LOG.error("%s, computed here, is not of its declared shape", why)
        return value

    return trace_store().get(whole, fresh, name=kind, expect=refused)


PAGES_LOG = logging.getLogger("subtok.pages")  # a page's errors (lessons.ui.guard's log)


@functools.cache
def pages_version() -> str:
    """A digest of the pages' sources (every .py file under lessons/). A derived table
    is made by a page's code as well as the core's, and the disk copy is checked against
    the core's version only (subtok_core.diskcache.core_version): with this in its key, a
    page whose code changed never reads a table (or a chart's spec) its old code made."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def bar_text(label: str, done: int, total: int) -> str:
    """A progress bar's line: the run and how far it is (only the run before its first
    report, while it waits for a free processor or starts)."""
    return f"{label} {done:,} of {total:,}" if total else label


def run_key(run) -> str | None:
    """The key of `run` (a trace) in the server-wide store, None when it is not kept (then
    the pieces drawn from it are not cached, see lessons.ui.cached)."""
    return trace_store().key_of(run)


@st.cache_resource
def trace_store() -> TraceStore:
    """One store for the whole server, shared by every session and page, with a copy of
    each run on disk (SUBTOK_CACHE_DIR, see subtok_core.diskcache) for the next server;
    each training it does is logged on the server (logger subtok_core.store)."""
    log = logging.getLogger("subtok_core")
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    return TraceStore(disk=diskcache.from_env())
