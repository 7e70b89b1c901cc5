"""Stepping through a run: the step controls bound to the address, and the corpus, trace and
step a lesson page starts from."""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from pages._corpus import TEXT, UPLOAD, corpus_editor, is_sample, punct_on, sample_print
from pages._keys import current_page, widget_key
from pages._store import fingerprint
from pages._url import url_int

SPEEDS = {"slow (3 s)": 3.0, "normal (1.5 s)": 1.5, "fast (0.7 s)": 0.7}  # autoplay: s a step


def step_slider(
    last: int,
    key: str = "step",
    label: str = "step (0 = before the first merge)",
    page: str | None = None,
) -> int:
    """The step controls in one row, bound to the URL as ?`key`=i: first, previous, the
    slider, next, last, and play/pause (keys on `page`: the page running now unless given).

    Each button has its key on the keyboard through Streamlit's own `shortcut=` (Home, ←,
    →, End, Space; Streamlit leaves them alone while the student types in a text box), so a
    teacher steps at the projector without aiming at a button. Play advances one step every
    few seconds until the last step (see autoplay)."""
    # on the first run of a deep link the value is still only in the URL; later the
    # session's value, kept within the steps of a run that may have become shorter
    current = min(url_int(key, 0, max(last, 0), 0), max(last, 0))
    st.session_state[key] = current
    if last < 1:
        return 0
    page = page or current_page()
    playing = widget_key(page, f"{key}_playing")

    def go(to: int) -> None:
        st.session_state[key] = max(0, min(last, to))
        if st.session_state[key] >= last:
            st.session_state[playing] = False

    def toggle() -> None:
        st.session_state[playing] = not st.session_state.get(playing, False)
        st.session_state.pop(widget_key(page, f"{key}_due"), None)  # the first step: in full
        if st.session_state[playing] and st.session_state[key] >= last:
            st.session_state[key] = 0  # play from the start once the end was reached

    # one row that wraps on a phone (columns would stack every button on its own line)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    on = st.session_state.get(playing, False)

    # each key written out whole: tests/test_app_keys.py reads them in the source
    at_start, at_end = current <= 0, current >= last
    row.button("", icon=":material/first_page:", help="first step (key: Home)",
               key=widget_key(page, f"{key}_first"), shortcut="Home",
               on_click=go, args=(0,), disabled=at_start)  # fmt: skip
    row.button("", icon=":material/chevron_left:", help="previous step (key: ←)",
               key=widget_key(page, f"{key}_prev"), shortcut="Left",
               on_click=go, args=(current - 1,), disabled=at_start)  # fmt: skip
    value = row.slider(label, 0, last, key=key, bind="query-params", width="stretch")
    row.button("", icon=":material/chevron_right:", help="next step (key: →)",
               key=widget_key(page, f"{key}_next"), shortcut="Right",
               on_click=go, args=(current + 1,), disabled=at_end)  # fmt: skip
    row.button("", icon=":material/last_page:", help="last step (key: End)",
               key=widget_key(page, f"{key}_last"), shortcut="End",
               on_click=go, args=(last,), disabled=at_end)  # fmt: skip
    row.button(
        "",
        icon=":material/pause:" if on else ":material/play_arrow:",
        help="Play the steps one after the other, or pause (key: Space).",
        on_click=toggle,
        key=widget_key(page, f"{key}_play"),
        shortcut="Space",
    )
    if on:
        autoplay(key, last, playing, page)
    return value


def autoplay(key: str, last: int, playing: str, page: str) -> None:
    """While playing: a fragment that reruns on a timer and moves the step on by one (the
    address follows, as for a click), until the last step; its speed is chosen beside it."""
    speed = st.radio(
        "speed",
        list(SPEEDS),
        index=1,
        horizontal=True,
        key=widget_key(page, f"{key}_speed"),
        label_visibility="collapsed",
    )
    seconds = SPEEDS[speed]
    due = widget_key(page, f"{key}_due")
    st.session_state.setdefault(due, time.monotonic() + seconds)

    @st.fragment(run_every=seconds)
    def tick() -> None:
        # the fragment also runs with the whole page: move on only when a step is due
        if time.monotonic() < st.session_state[due] - 0.1:
            return
        st.session_state[due] = time.monotonic() + seconds
        st.session_state[key] = min(last, st.session_state[key] + 1)
        if st.session_state[key] >= last:
            st.session_state[playing] = False
        st.rerun(scope="app")

    tick()


def corpus_trace_step(
    name: str,
    prefix: str,
    train: Callable,
    label: str | None = None,
    algorithm: str | None = None,
    size: int = 0,
):
    """The corpus panel, the trained trace and the step slider:
    (wc, corpus_print, trace, i, step), where corpus_print is the corpus's fingerprint,
    hashed once per run; `train(wc, corpus_print)` gives the trace. An upload is timed
    beforehand for `algorithm` at `size` (see pages._estimate).

    Stops the page (after an st.error) when the corpus or the settings cannot be used.
    """
    # closed: the lesson's own view shows the corpus step by step; opened to edit it, and
    # open when the student has to type or upload it
    box = st.container(key=widget_key(prefix, "edit_corpus"))
    with box.expander("The corpus: see or edit its words", expanded=name in (TEXT, UPLOAD)):
        wc = corpus_editor(name, prefix, algorithm, size)
    if wc is None:
        st.stop()
    corpus_print = sample_print(name, punct_on(prefix)) if is_sample(name) else fingerprint(wc)
    try:
        trace = train(wc, corpus_print)
    except ValueError as err:
        st.error(str(err))
        st.stop()
    last = len(trace.steps)
    i = step_slider(last, label=label, page=prefix) if label else step_slider(last, page=prefix)
    if trace.truncated:  # no pair left before the merges asked for: the run's natural end
        st.caption(trace.stop_reason)
    return wc, corpus_print, trace, i, (trace.steps[i - 1] if i else None)


def lazy_expander(label: str, page: str, name: str):
    """A closed expander (keyed `name` on `page`) whose content the page runs only while it
    is open (opening it reruns the page): for a panel that costs more than the rest of the
    page. Use as ``with lazy_expander(...) as box:`` then ``if box.open:``. Its widgets are
    not drawn while it is closed, so they start again from their defaults when reopened."""
    return st.expander(label, key=widget_key(page, f"{name}_open"), on_change="rerun")
