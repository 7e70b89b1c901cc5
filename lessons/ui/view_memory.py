"""Each page keeps its own view: the values of its address parameters are remembered when
a run completes, and brought back when the student comes back to the page.

What Streamlit 1.67 does on its own (runtime/state/session_state.py, query_params.py and
scriptrunner/script_runner.py):

- A widget bound to the address (bind="query-params") keeps its value in the session under
  its key after its page is left, and a widget with the same key on the next page takes
  it: the lesson pages all bind `corpus` and `step`, so /wordpiece opened on /bpe's corpus
  at /bpe's step.
- On a page switch the browser sends the old page's bound parameters and the server drops
  them (they belong to another page): the new page starts from a bare address, and that
  correction pushes a bare entry of the *old* page into the browser's history.
- The browser rewrites the current history entry when the student moves a widget
  (replaceState) and pushes a new one when the server changes the address (pushState).
  Back reruns the page of the entry with its address, flagged as a history navigation:
  the address then decides every bound widget, a missing parameter its default.

So, before a page runs (open_view, from app.py): on a switch, the other pages' bound values
are cleared; on a bare address, the page's own last view comes back, into the session and
the address. A history navigation onto a bare address (the entry Streamlit pushed, or a
page left at its defaults) brings back the page's last view the same way, with one rerun,
since in that run the address decides. A page opened with its parameters in the address
(a deep link, a link from the notes) shows what the address says.
"""

from __future__ import annotations

import contextlib

import streamlit as st
from streamlit.errors import StreamlitAPIException

from lessons.ui import compat
from lessons.ui.keys import current_page

PARAMS = "url_params"  # session: page -> {parameter: session key keeping it, None if bound}
REPLACED = "url_replaced"  # session: page -> {address the browser rewrote: the view it held}
PENDING = "url_rewritten"  # session: (page, address, view) noted this run, kept at its end
VIEWS = "url_views"  # session: page -> (bound values, address) as its last run left them
SHOWN = "url_shown"  # session: the page the last completed run showed


def note_param(key: str, state_key: str | None) -> None:
    """Record that the page running now reads the address's `key`, kept in the session
    under `state_key` (None: a widget bound to the address under the key itself)."""
    params = st.session_state.setdefault(PARAMS, {}).setdefault(current_page(), {})
    params[key] = state_key


def page_params(page: str | None = None) -> dict[str, str | None]:
    """The address parameters `page` (the page running now) has read in this session."""
    return st.session_state.get(PARAMS, {}).get(page or current_page(), {})


def remember_view() -> None:
    """After a page's run (settle_url): its bound values and its parameters in the address."""
    page = current_page()
    params = page_params(page)
    bound = {
        k: st.session_state[k] for k, s in params.items() if s is None and k in st.session_state
    }
    address = {k: st.query_params[k] for k in params if k in st.query_params}
    st.session_state.setdefault(VIEWS, {})[page] = (bound, address)
    st.session_state[SHOWN] = page
    # the rewritten entries (note_rewritten): one is kept only when this run's corrections
    # pushed the new view after it; when they did not (nothing but the widget changed), the
    # rewritten entry is the new view itself. An address shown for real is no longer one.
    rewritten = st.session_state.setdefault(REPLACED, {}).setdefault(page, {})
    now = address_now()
    if not history_navigation():
        rewritten.pop(now, None)
    pending = st.session_state.pop(PENDING, None)
    if pending is not None and pending[0] == page and pending[1] != now:
        rewritten[pending[1]] = pending[2]


def last_shown(key: str):
    """The value bound parameter `key` had when the last run of this same page completed
    (None after a switch from another page, or on a history navigation: then the address,
    not a change of the student's, decides the view)."""
    page = current_page()
    if st.session_state.get(SHOWN) != page or history_navigation():
        return None
    return st.session_state.get(VIEWS, {}).get(page, ({}, {}))[0].get(key)


def address_now() -> tuple[tuple[str, str], ...]:
    """The address's parameters as this run sees them, in a fixed order."""
    return tuple(sorted(st.query_params.to_dict().items()))


def note_rewritten() -> None:
    """Call when a change the student made to a bound widget changes other parameters too
    (a new corpus starts at step 0). Before this run the browser rewrote the history entry
    of the last view with the widget's new value alone (replaceState), and this run's
    corrections push the new view after it: Back would land on that rewritten entry, a
    view never shown (the new corpus at the old step). Remember which view it held, for
    open_view to show on Back or Forward."""
    page = current_page()
    before = st.session_state.get(VIEWS, {}).get(page)
    if before is not None:  # kept if the run ends on another address (remember_view)
        st.session_state[PENDING] = (page, address_now(), before)


def history_navigation() -> bool:
    """Whether this run is the browser's Back or Forward (Streamlit's run context flag)."""
    return compat.history_navigation()


def drop_stray_params(page: str) -> None:
    """Take out of the address the parameters only other pages read (?remove= of /unigram
    on /bpe: an entry Streamlit pushed into the history while the path was the old page's,
    reached with Back), in one change of the address."""
    mine = page_params(page)
    theirs = {k for params in st.session_state.get(PARAMS, {}).values() for k in params}
    stray = (theirs - set(mine)) & set(st.query_params)
    if stray:
        with contextlib.suppress(StreamlitAPIException):  # none is bound on a page switch
            kept = {k: v for k, v in st.query_params.to_dict().items() if k not in stray}
            st.query_params.from_dict(kept)


def open_view() -> None:
    """Before the page runs (app.py): the page's own view, not the last page's."""
    page, shown = current_page(), st.session_state.get(SHOWN)
    history = history_navigation()
    if shown == page and not history:
        return  # a rerun of the same page: its widgets hold the view
    views = st.session_state.setdefault(VIEWS, {})
    if shown != page:  # the values another page left under the keys both bind go
        for other, (bound, _address) in views.items():
            for key in bound if other != page else ():
                st.session_state.pop(key, None)
        drop_stray_params(page)
    rewritten = st.session_state.get(REPLACED, {}).get(page, {}).get(address_now())
    if history and rewritten is not None:  # an entry the browser rewrote (note_rewritten)
        views[page] = rewritten  # the view shown last, for the corpus's change test
        _restore(page, *rewritten, history)
        return
    if page not in views or any(key in st.query_params for key in page_params(page)):
        return  # the first visit (the defaults), or the address says what to show
    bound, address = views[page]
    if shown == page and not address:
        return  # Back onto this page's defaults, which it shows
    _restore(page, bound, address, history)


UNNAMED = {"step": 0}  # bound values Streamlit keeps out of the address: the slider's default


def _restore(page: str, bound: dict, address: dict, history: bool) -> None:
    """Show the view (`bound` values, `address`) again: into the session, and into the
    address as one change (each is an entry in the browser's history; on Back or Forward
    the entry itself is rewritten). The address names every bound value (see
    lessons.ui.address.hold), so the widgets made next send no change of their own."""
    st.session_state.update(bound)
    named = {k: str(v) for k, v in bound.items() if v is not None and UNNAMED.get(k) != v}
    for key, value in {**named, **address}.items():
        compat.stage_address(key, value)
    for key in bound.keys() - named.keys() - address.keys():
        compat.stage_address(key, None)
    compat.send_address()
    if history:  # in this run the address decides the widgets: run again, now as ours
        st.session_state[SHOWN] = page
        st.rerun()
