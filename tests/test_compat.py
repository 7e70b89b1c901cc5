"""lessons/ui/compat.py against the installed Streamlit: each private internal the app, the
tests or the benchmarks reach is still there and still does what we use it for. A Streamlit
release that changes one fails here, by name (the pin in pyproject.toml is a lower bound)."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))  # lessons/, as the app imports it
from lessons.ui import compat  # noqa: E402

HEADER = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
from lessons.ui import compat
"""


def script(body: str) -> AppTest:
    return AppTest.from_string(HEADER + body, default_timeout=30)


def test_a_spec_converted_here_is_what_st_altair_chart_sends():
    at = script(
        """
import altair as alt
import pandas as pd
chart = alt.Chart(pd.DataFrame({"x": [1, 2, 3], "y": [4, 5, 9]})).mark_line().encode(x="x", y="y")
st.altair_chart(chart)
st.vega_lite_chart(compat.altair_spec(chart))
"""
    ).run()
    direct, kept = (chart.proto for chart in at.get("vega_lite_chart"))
    assert not at.exception, at.exception
    assert kept.spec == direct.spec and kept.datasets == direct.datasets
    assert len(kept.datasets) == 1  # the data went out as an Arrow dataset, not inline


def test_the_run_context_still_says_whether_a_run_is_a_history_navigation():
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    fields = {f.name: f for f in dataclasses.fields(ScriptRunContext)}
    assert fields["is_history_navigation"].default is False
    assert compat.history_navigation() is False  # outside a run: no context
    at = script("st.write(f'history {compat.history_navigation()}')").run()
    assert at.markdown[0].value == "history False"  # a plain run is not Back or Forward


def test_stop_and_rerun_raise_control_exceptions_that_except_exception_does_not_catch():
    assert not issubclass(compat.ScriptControlException, Exception)
    assert issubclass(compat.StopException, compat.ScriptControlException)
    at = script(
        """
seen = st.session_state.setdefault("seen", [])
for command in (st.rerun, st.stop):
    if command.__name__ not in [name for name, _ in seen]:
        try:
            command()
        except compat.ScriptControlException as err:
            seen.append((command.__name__, isinstance(err, compat.StopException)))
"""
    ).run()
    assert not at.exception, at.exception
    assert at.session_state["seen"] == [("rerun", False), ("stop", True)]


def test_a_fragment_that_raised_signals_it_has_shown_its_error():
    at = script(
        """
@st.fragment
def part():
    raise KeyError("the fragment's own error")
try:
    part()
except compat.FragmentHandledException as err:
    st.write(f"handled {type(err.args[0]).__name__}")
"""
    ).run()
    assert [m.value for m in at.markdown] == ["handled KeyError"]
    assert at.exception  # and the error itself was shown, as the fragment does


def test_the_element_tree_its_widget_keys_and_a_bare_run():
    at = script('st.text_input("name", key="who")').run()
    at.text_input(key="who").set_value("Ada")
    compat.run_bare(at)  # the value set is not sent: no widget states in a bare run
    assert at.text_input(key="who").value == ""
    at.text_input(key="who").set_value("Ada").run()  # AppTest's public run sends it
    assert at.text_input(key="who").value == "Ada"

    def walk(node):
        yield node
        for child in getattr(node, "children", {}).values():
            yield from walk(child)

    ids = [getattr(getattr(n, "proto", None), "id", "") for n in walk(compat.element_tree(at))]
    assert "who" in [compat.key_of_element(i) for i in ids if i]


def test_the_script_thread_hook_wraps_each_run_and_the_compiled_scripts_are_shared():
    runs: list[float] = []

    def timed(run) -> None:
        start = time.thread_time()
        run()
        runs.append(time.thread_time() - start)

    undo_thread, undo_scripts = compat.on_script_thread(timed), compat.share_compiled_scripts()
    try:
        at = script("st.write('hi')").run()
        at.run()
    finally:
        undo_thread()
        undo_scripts()
    assert len(runs) == 2 and at.markdown[0].value == "hi"
    script("st.write('again')").run()
    assert len(runs) == 2  # undone


def test_expired_sessions_are_shut_down_and_stray_files_dropped():
    """close_expired_sessions's work against Streamlit's own session storage, session
    manager and uploaded-file manager: a session whose time to come back is over is shut
    down (its files go with it in AppSession.shutdown), the files of a session the server
    no longer knows go, a stored session's files stay."""
    import types

    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.runtime.session_manager import SessionInfo
    from streamlit.runtime.state.session_state import SessionState
    from streamlit.runtime.uploaded_file_manager import UploadedFileRec
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    now = [0.0]
    storage = MemorySessionStorage(ttl_seconds=10)
    storage._cache._timer = lambda: now[0]
    files = MemoryUploadedFileManager("/upload")
    sessions = WebsocketSessionManager(storage, files, ScriptCache(), None)
    shut = []

    class Session:  # what the sweep calls of an AppSession
        def __init__(self, sid: str):
            self.id = sid
            self.session_state = SessionState()
            self.session_state["upload"] = f"{sid}'s uploaded file"

        def shutdown(self) -> None:
            shut.append(self.id)
            files.remove_session_files(self.id)

    for sid in ("gone", "stored", "forgotten"):
        files.add_file(sid, UploadedFileRec(f"{sid}-file", "f.txt", "text/plain", b"x" * 10))
    gone, stored = Session("gone"), Session("stored")
    storage.save(SessionInfo(client=None, session=gone))
    now[0] = 8.0
    storage.save(SessionInfo(client=None, session=stored))
    now[0] = 12.0  # "gone" disconnected 12 s ago: past its 10 s; "stored" 4 s ago
    runtime = types.SimpleNamespace(_session_mgr=sessions, uploaded_file_mgr=files)
    assert compat._close_expired(runtime) == (1, 1)
    assert shut == ["gone"] and list(files.file_storage) == ["stored"]
    # the session shut down keeps no widget value (an uploaded file) for whoever still
    # refers to it; the stored one keeps its state
    assert "upload" not in gone.session_state and "upload" in stored.session_state
    assert compat.close_expired_sessions() is None  # outside a running server


def test_the_runtime_loop_still_keeps_the_last_session_it_flushed():
    """Why the sweep clears a shut-down session's state (compat._close_expired): the
    runtime's loop names the sessions it flushes in a local variable, which keeps the last
    one alive once every tab is gone (issue 40: its uploaded 20 MB file with it). When
    Streamlit no longer does, the clearing can go."""
    from streamlit.runtime.runtime import Runtime

    assert "active_session_info" in Runtime._loop_coroutine.__code__.co_varnames
