"""A closed tab's session and its files go: a sweep of the server, every few seconds.

Streamlit keeps a session whose tab disconnected for `server.disconnectedSessionTTL`
seconds (default 120), so a tab that comes back finds its state. Streamlit 1.67 then
forgets the session without shutting it down, and its uploaded files (up to 20 MB each)
stayed in the server's memory for good (issue 40: ten closed tabs' uploads held 476 MB
after 260 s). The sweep shuts such sessions down (lessons/ui/compat.py's
close_expired_sessions), then collects the freed objects and hands the memory back to the
system (subtok_core.memory.give_back). What a session held in the server-wide store is let
go sooner, when its tab disconnects (lessons/ui/upload.py's holder).
"""

from __future__ import annotations

import gc
import logging
import threading
import time

import streamlit as st

from lessons.ui import compat
from subtok_core import memory

log = logging.getLogger("subtok_core.sessions")


def period() -> float:
    """Seconds between sweeps: a quarter of the time a session may come back, 1 to 30."""
    ttl = float(st.get_option("server.disconnectedSessionTTL"))
    return min(30.0, max(1.0, ttl / 4))


def sweep_once(wait: float = 10.0) -> tuple[int, int]:
    """One sweep: (sessions shut down, sessions whose files were dropped); the memory
    freed is handed back when there was any. (0, 0) outside a running server."""
    done = compat.close_expired_sessions()
    if done is None:
        return 0, 0
    closed, stray = done.result(timeout=wait)
    if closed or stray:
        gc.collect()  # a session's state holds cycles (runner.postScriptGC is off)
        memory.give_back()
        log.info("sessions: %d closed after their tabs went, files of %d dropped", closed, stray)
    return closed, stray


def _sweep_forever(every: float) -> None:
    while True:
        time.sleep(every)
        try:
            sweep_once()
        except Exception:  # the next sweep tries again; the server goes on
            log.exception("the sweep of closed sessions failed")


@st.cache_resource(show_spinner=False)
def start_sweeper() -> threading.Thread:
    """The one sweeper of the server (started by the first run, app.py); from then on
    big blocks go back to the system when freed (subtok_core.memory.big_blocks_apart)."""
    memory.big_blocks_apart()
    thread = threading.Thread(
        target=_sweep_forever, args=(period(),), name="subtok-session-sweep", daemon=True
    )
    thread.start()
    return thread
