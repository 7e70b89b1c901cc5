"""Stepping through a run: the step controls bound to the address, and the corpus, trace and
step a lesson page starts from."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from pages._corpus import corpus_editor, is_sample, punct_on, sample_print
from pages._keys import current_page, widget_key
from pages._store import fingerprint
from pages._url import url_int


def step_slider(
    last: int,
    key: str = "step",
    label: str = "step (0 = before the first merge)",
    page: str | None = None,
) -> int:
    """A step slider bound to the URL as ?`key`=i, with previous/next buttons beside it
    (keyed by `page`: the page running now unless given)."""
    # on the first run of a deep link the value is still only in the URL; later the
    # session's value, kept within the steps of a run that may have become shorter
    current = min(url_int(key, 0, max(last, 0), 0), max(last, 0))
    st.session_state[key] = current
    if last < 1:
        return 0

    def move(by: int) -> None:
        st.session_state[key] = max(0, min(last, st.session_state[key] + by))

    page = page or current_page()
    left, mid, right = st.columns([1, 8, 1], vertical_alignment="bottom")
    left.button(
        "◀ previous",
        on_click=move,
        args=(-1,),
        key=widget_key(page, f"{key}_prev"),
        disabled=current <= 0,
        width="stretch",
    )
    right.button(
        "next ▶",
        on_click=move,
        args=(1,),
        key=widget_key(page, f"{key}_next"),
        disabled=current >= last,
        width="stretch",
    )
    return mid.slider(label, 0, last, key=key, bind="query-params")


def corpus_trace_step(name: str, prefix: str, train: Callable, label: str | None = None):
    """The corpus panel, the trained trace and the step slider:
    (wc, corpus_print, trace, i, step), where corpus_print is the corpus's fingerprint,
    hashed once per run; `train(wc, corpus_print)` gives the trace.

    Stops the page (after an st.error) when the corpus or the settings cannot be used.
    """
    with st.expander("The corpus", expanded=not name.startswith("sample:")):
        wc = corpus_editor(name, prefix)
    if wc is None:
        st.stop()
    corpus_print = sample_print(name, punct_on(prefix)) if is_sample(name) else fingerprint(wc)
    try:
        trace = train(wc, corpus_print)
    except ValueError as err:
        st.error(str(err))
        st.stop()
    if trace.truncated:
        st.warning(trace.stop_reason)
    last = len(trace.steps)
    i = step_slider(last, label=label, page=prefix) if label else step_slider(last, page=prefix)
    return wc, corpus_print, trace, i, (trace.steps[i - 1] if i else None)


def lazy_expander(label: str, page: str, name: str):
    """A closed expander (keyed `name` on `page`) whose content the page runs only while it
    is open (opening it reruns the page): for a panel that costs more than the rest of the
    page. Use as ``with lazy_expander(...) as box:`` then ``if box.open:``. Its widgets are
    not drawn while it is closed, so they start again from their defaults when reopened."""
    return st.expander(label, key=widget_key(page, f"{name}_open"), on_change="rerun")
