"""Stepping through a run: the step controls bound to the address, and the corpus, trace and
step a lesson page starts from."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

import streamlit as st

from lessons.ui.a11y import PLAY_KEY, POLL_KEY, hidden_heading, keys_help
from lessons.ui.address import stage, url_int
from lessons.ui.corpus import TEXT, UPLOAD, corpus_editor, is_sample, sample_print
from lessons.ui.escape import plain
from lessons.ui.guard import guarded
from lessons.ui.keys import current_page, widget_key
from lessons.ui.store import fingerprint
from lessons.ui.view_memory import page_params

SPEEDS = {"slow (3 s)": 3.0, "normal (1.5 s)": 1.5, "fast (0.7 s)": 0.7}  # autoplay: s a step


def step_slider(
    last: int,
    key: str = "step",
    label: str | None = None,
    page: str | None = None,
    poll: bool = False,
) -> int:
    """The step controls in one row, bound to the URL as ?`key`=i: first, previous, the
    slider, next, last, and play/pause (keys on `page`: the page running now unless given),
    and on a lesson with a class poll (`poll`) the button that opens it (poll_button).

    Each button has its key on the keyboard through Streamlit's own `shortcut=` (Home, ←,
    →, End, Alt+P; Streamlit leaves them alone while the student types in a text box), so a
    teacher steps at the projector without aiming at a button. Play advances one step every
    few seconds until the last step (see autoplay)."""
    # on the first run of a deep link the value is still only in the URL; later the
    # session's value, kept within the steps of a run that may have become shorter
    current = min(url_int(key, 0, max(last, 0), 0), max(last, 0))
    st.session_state[key] = current
    if last < 1:
        return 0
    page = page or current_page()
    label = label or "step (0 = before the first merge)"
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

    # one row that wraps on a phone (columns would stack every button on its own line);
    # keyed "<page>_stepcontrols_<key>" for the phone's CSS (lessons/ui/present.py FRAME_CSS)
    row = st.container(
        horizontal=True,
        vertical_alignment="bottom",
        gap="small",
        key=widget_key(page, f"stepcontrols_{key}"),
    )
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
        help=f"Play the steps one after the other, or pause (key: {PLAY_KEY}).",
        on_click=toggle,
        key=widget_key(page, f"{key}_play"),
        shortcut=PLAY_KEY,
    )
    if poll:
        poll_button(row, page)
    keys_help(row, poll)
    if on:
        autoplay(key, last, playing, page)
    return value


POLL_GO = "poll_go"  # session (a page's key): the class poll was asked for by its button


def poll_button(row, page: str) -> None:
    """The "Class poll" button (key: POLL_KEY) in the step controls' `row`: it unfolds the
    page's class poll (the lazy_expander "class_poll" lessons.poll.panel draws under the
    step) and asks the panel to bring itself into view (lessons.poll.panel.go_to_panel)."""

    def go() -> None:
        st.session_state[widget_key(page, "class_poll_open")] = True
        st.session_state[widget_key(page, POLL_GO)] = True

    row.button(
        "Class poll",
        icon=":material/how_to_vote:",
        help=f"The class answers on their phones: open the poll and go to it (key: {POLL_KEY}).",
        key=widget_key(page, "poll_jump"),
        shortcut=POLL_KEY,
        on_click=go,
    )


def start_over(key: str = "step") -> None:
    """Move the step controls (`key`) back before the first step, for a corpus the student
    has just chosen (lessons.ui.corpus.Corpus.changed): step 5 of the last corpus would mean
    nothing on it. Call before the page stops or draws its steps (stepped); until the page
    has shown its step controls once, the address decides their first value."""
    if key in page_params():
        stage(key, 0, named=False)  # the slider's default: Streamlit keeps it out


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


class CorpusTrace(NamedTuple):
    """What corpus_trace gives a lesson page."""

    words: Any  # the corpus's word counts (subtok_core.corpus.WordCounts)
    corpus_print: str  # its fingerprint, hashed once per run
    trace: Any  # the run trained on it
    split_punct: bool  # its words split with punctuation off (lessons.ui.corpus.Edited)


def corpus_trace(
    name: str,
    prefix: str,
    train: Callable,
    algorithm: str | None = None,
    size: int = 0,
    row=None,
):
    """The corpus panel and the trained trace (a CorpusTrace: the word counts, their
    fingerprint, the trace, how the words were split); `train(wc, corpus_print)` gives the
    trace. An upload is timed beforehand for `algorithm` at `size` (see
    lessons.ui.estimate). The corpus panel goes into the settings popover of `row` (a
    lessons.ui.present.SettingsRow), except for a text to type or a file to upload.

    Stops the page (after an st.error) when the corpus or the settings cannot be used.
    """
    # in the settings (`row`'s popover): the lesson's own view shows the corpus step by
    # step; open on the page when the student has to type or upload it
    if row is not None and name not in (TEXT, UPLOAD):
        row.box.markdown("**The corpus: see or edit its words**")
        with row.box:
            edited = corpus_editor(name, prefix, algorithm, size)
    else:
        box = st.container(key=widget_key(prefix, "edit_corpus"))
        with box.expander("The corpus: see or edit its words", expanded=name in (TEXT, UPLOAD)):
            edited = corpus_editor(name, prefix, algorithm, size)
    if edited is None:
        st.stop()
    wc, split = edited.words, edited.split_punct
    corpus_print = sample_print(name, split) if is_sample(name) else fingerprint(wc)
    try:
        trace = train(wc, corpus_print)
    except ValueError as err:
        st.error(plain(str(err)))
        st.stop()
    return CorpusTrace(wc, corpus_print, trace, split)


RERUN_PAGE = "steps_rerun_page"  # session: a callback in the step view asks for the whole page


def rerun_page() -> None:
    """Call from the callback of a widget inside the step view (see stepped) whose change
    the rest of the page reads, such as a choice that changes the trace: the click then
    reruns the whole page, not only the step view (a callback cannot call st.rerun)."""
    st.session_state[RERUN_PAGE] = True


def stepped(
    trace,
    view: Callable[[int, object], None],
    page: str,
    label: str | None = None,
    poll: bool = False,
):
    """The step controls of `trace` and `view(i, step)`, the page's view of step i (step:
    the trace's step i, None at step 0), as one fragment: a step click, a key pressed or an
    autoplay tick reruns only these, not the page's title, settings and corpus (with thirty
    students stepping at once on two cores, the server's time per click is what they wait
    for; bench/load_ws.py). A widget inside `view` reruns the fragment too; anything that
    changes the trace (settings, corpus) sits outside it and reruns the whole page.
    `poll`: the view draws a class poll, and the step controls get its button."""

    def steps() -> None:
        if st.session_state.pop(RERUN_PAGE, False):
            st.rerun(scope="app")  # a choice made in the step view changes the trace
        last = len(trace.steps)
        hidden_heading("The run, step by step")  # over the step's panels (h3)
        i = step_slider(last, label=label, page=page, poll=poll)
        if trace.truncated:  # no pair left before the merges asked for: the run's natural end
            st.caption(trace.stop_reason)
        view(i, trace.steps[i - 1] if i else None)

    @st.fragment
    def step_fragment() -> None:
        guarded(steps, page)  # rerun alone, the fragment is outside the page's guard

    step_fragment()


def lazy_expander(label: str, page: str, name: str):
    """A closed expander (keyed `name` on `page`) whose content the page runs only while it
    is open (opening it reruns the page): for a panel that costs more than the rest of the
    page. Use as ``with lazy_expander(...) as box:`` then ``if box.open:``. Its widgets are
    not drawn while it is closed, so they start again from their defaults when reopened."""
    return st.expander(label, key=widget_key(page, f"{name}_open"), on_change="rerun")
