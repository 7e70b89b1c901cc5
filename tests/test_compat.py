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
