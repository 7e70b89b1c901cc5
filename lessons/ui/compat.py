"""Every use of Streamlit's private internals, in one place.

Streamlit has no public API for these few needs; everything else in the app, the tests and
the benchmarks goes through its public API (tests/test_public_streamlit.py fails on any
other import of `streamlit.runtime`, of Streamlit's internal modules or of a
`_`-prefixed Streamlit name). tests/test_compat.py checks each entry here against the
installed Streamlit, so a release that changes one fails that test by name, not a page at
run time.

For the app:
- `altair_spec`: Streamlit's Altair -> Vega-Lite conversion (what st.altair_chart sends:
  no theme defaults, the data as Arrow datasets), so a chart's spec can be kept in a cache
  and sent with st.vega_lite_chart (lessons/ui/cached.py).
- `history_navigation`: whether this run is the browser's Back or Forward
  (lessons/ui/view_memory.py).
- `stage_address`, `send_address`: change parameters bound to widgets in the server's copy
  of the address, then send the address once (lessons/ui/address.py, a new corpus's
  settings): Streamlit sends each bound widget's change on its own, and the browser pushes
  an entry into its history for each.
- `StopException`, `ScriptControlException`, `FragmentHandledException`: the exceptions of
  st.stop, st.rerun and a fragment that showed its own error, which the page guard lets
  through (lessons/ui/guard.py).
- `close_expired_sessions`: shut down the sessions whose tab went away more than
  `server.disconnectedSessionTTL` seconds ago, and drop the uploaded files of sessions the
  server no longer knows (lessons/ui/sessions.py). Streamlit 1.67 keeps a disconnected
  session in a TTL cache that forgets it when it expires without shutting it down, so
  its uploaded files stayed in memory for as long as the server ran.

For the tests and benchmarks only (AppTest internals):
- `element_tree`, `run_bare`, `key_of_element`: the element tree AppTest holds, a run with
  no widget states (as the browser's first request), a widget's user key from its id.
- `share_compiled_scripts`, `on_script_thread`: compile the scripts once for every
  AppTest run, as a server does; wrap the script thread of AppTest (CPU time, profiles).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from streamlit.elements.lib.utils import user_key_from_element_id
from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec
from streamlit.errors import FragmentHandledException
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import (
    ScriptControlException,
    StopException,
)
from streamlit.runtime.state import get_session_state

__all__ = [
    "FragmentHandledException",
    "ScriptControlException",
    "StopException",
    "altair_spec",
    "close_expired_sessions",
    "element_tree",
    "history_navigation",
    "key_of_element",
    "on_script_thread",
    "run_bare",
    "send_address",
    "share_compiled_scripts",
    "stage_address",
]


def altair_spec(chart: Any) -> dict:
    """The Vega-Lite spec st.altair_chart(chart) sends (`chart` has a `to_dict`)."""
    return _convert_altair_to_vega_lite_spec(chart)


def history_navigation() -> bool:
    """Whether this run is the browser's Back or Forward (False outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx is not None and bool(ctx.is_history_navigation)


def stage_address(key: str, value: str | None) -> None:
    """Put `key`=`value` (None: take `key` out) in the server's copy of the address, bound
    to a widget or not, without telling the browser. A bound widget made after this with
    that value sends nothing of its own (Streamlit compares with this copy)."""
    with get_session_state().query_params() as params:
        if value is None:
            params.discard_param_no_forward_msg(key)
        else:
            params.set_with_no_forward_msg(key, value)


def send_address() -> None:
    """Send the server's copy of the address to the browser, as one change."""
    with get_session_state().query_params() as params:
        params._send_query_param_msg()


def close_expired_sessions() -> Future | None:
    """On the server's event loop (where Streamlit keeps its sessions): shut down every
    disconnected session whose time to come back (server.disconnectedSessionTTL) is over,
    which removes its uploaded files, media and caches, then drop the uploaded files of
    any session the server no longer knows (one its storage forgot without a shutdown).
    A future of (sessions shut down, sessions whose files were dropped); None outside a
    running server."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    runtime = Runtime.instance()
    try:
        loop = runtime._get_async_objs().eventloop
    except Exception:  # the server is not started yet (or is stopping)
        return None
    if not isinstance(loop, asyncio.AbstractEventLoop) or not loop.is_running():
        # AppTest's runtime (a mock): no server loop, no tabs
        return None
    done: Future = Future()

    def close() -> None:
        try:
            done.set_result(_close_expired(runtime))
        except Exception as err:  # noqa: BLE001 - the caller's thread hears it
            done.set_exception(err)

    try:
        loop.call_soon_threadsafe(close)
    except RuntimeError:  # the loop is closed: the server stopped
        return None
    return done


def _close_expired(runtime: Any) -> tuple[int, int]:
    """close_expired_sessions's work, on the event loop."""
    sessions = runtime._session_mgr
    kept = getattr(getattr(sessions, "_session_storage", None), "_cache", None)
    expired = kept.expire() if kept is not None else []
    for _id, info in expired:
        info.session.shutdown()
        # Streamlit's runtime loop keeps the last session it flushed in a local variable
        # (Runtime._loop_coroutine's active_session_info) until another tab is flushed:
        # with every tab closed, that session, its widgets' values and the uploaded file
        # one of them holds (a 20 MB tokenizer.json) stayed alive. A session shut down
        # is never run again: its state goes now.
        info.session.session_state.clear()
    live = {info.session.id for info in sessions.list_sessions()}
    files = runtime.uploaded_file_mgr
    with files._lock:
        stray = [sid for sid in getattr(files, "file_storage", {}) if sid not in live]
    for sid in stray:
        files.remove_session_files(sid)
    return len(expired), len(stray)


def element_tree(at: Any) -> Any:
    """The root of the element tree an AppTest holds after a run (nodes with `children`)."""
    return at._tree


def run_bare(at: Any) -> Any:
    """Run an AppTest with no widget states, as a browser's first request (AppTest's public
    run sends the states of the widgets in the tree it holds)."""
    return at._run()


def key_of_element(element_id: str) -> str | None:
    """The key a widget was given (`key=`), from the id Streamlit made for it; None if none."""
    return user_key_from_element_id(element_id)


def share_compiled_scripts() -> Callable[[], None]:
    """Every AppTest run from now on reuses one cache of compiled scripts, as a server does
    (AppTest compiles app.py and the page again on every run). Returns the undo."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test

    original, scripts = app_test.ScriptCache, ScriptCache()
    app_test.ScriptCache = lambda: scripts

    def undo() -> None:
        app_test.ScriptCache = original

    return undo


def on_script_thread(wrap: Callable[[Callable[[], None]], None]) -> Callable[[], None]:
    """Every AppTest script run from now on goes through `wrap(run)`, called on the script
    thread with the run as a function of no arguments (to time or profile it there).
    Returns the undo."""
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    original = LocalScriptRunner._run_script_thread

    def wrapped(self) -> None:
        wrap(lambda: original(self))

    def undo() -> None:
        LocalScriptRunner._run_script_thread = original

    LocalScriptRunner._run_script_thread = wrapped
    return undo
