"""What a rerun does not compute again: page pieces drawn once per trace and step, then
replayed; the chart of a whole run built once, the current step set on each run.

Streamlit runs a page from top to bottom on every click, so a page whose trace was
trained long ago still rebuilt every table and chart on each run: 0.15 to 0.65 s of the
server's CPU on the Lee sample (bench/rerun.py), most of it Altair building and validating
chart specs and pandas styling tables. Two caches avoid that; both are shared by every
session, so each is keyed by everything its output depends on: the key the server-wide
store keeps the trace under (lessons.ui.store.run_key), and what else the piece shows (the
step, a word typed).

- ``drawn(run, what, draw)``: st.cache_data records the elements ``draw()`` makes and, on a
  hit, sends them again as they were, without running ``draw``. Display elements only: a
  widget inside ``draw`` would be drawn once and never again.
- ``chart(run, what, build, current)``: the Vega-Lite spec of the Altair chart ``build()``
  makes, built once per run; the step is the chart's ``current`` parameter
  (charts.lessons.set_current), so moving the step does not rebuild the whole run's chart.
  ``figure(run, what, build)``: the same for a chart with no step. Both specs are plain
  data (the chart's tables as Arrow bytes), kept like a derived table in the server-wide
  store and on disk (lessons.ui.store.derived): a restarted server sends them without
  building a chart, so it never even imports Altair for a page whose charts are kept.

A chart of a single step is kept with ``figure`` too, keyed by the rows it shows (the
pair counts or scores of the merge lessons, lessons.ui.tables.table_panel; Unigram's
removal losses, the lattice of the word a link opens), so a restarted server opening a
warmed step imports no Altair. A chart of what a student types (another word's lattice) is
drawn with ``altair(chart)``: st.altair_chart
without Altair checking the spec against its schema on every run (the tests check every
builder's).

Both are keyed by the run, not by the code that draws: a page edited while the server
runs shows its old pieces until the cache is cleared or the server restarts (a chart's
spec kept on disk, until the core's or the pages' sources change: lessons.ui.store.derived).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from importlib.metadata import version

import streamlit as st

from lessons.ui.a11y import say_under

# Streamlit's own Altair -> Vega-Lite conversion (private, so kept in lessons/ui/compat.py;
# tests/test_app_cached.py checks that a chart drawn from a spec kept here sends exactly
# what st.altair_chart sends)
from lessons.ui.compat import altair_spec
from lessons.ui.present import presenting
from lessons.ui.store import derived
from subtok_core.shapes import said_by

CHART = "chart"  # the kind of a chart's spec in the store (counted as "table: chart")
CHART_FORMAT = 1  # bump when what a kept spec holds changes: older ones are then not read
# a kept spec is what Streamlit's converter made of an Altair chart: made again after
# either library is upgraded (read from the installed metadata, without importing Altair)
MADE_BY = (version("streamlit"), version("altair"))

# What is kept, in pieces and in pickled bytes (whichever is reached first); measured on
# the Lee sample, a piece is 2-110 KB (20 KB on average). A whole-run chart (10-50 KB) is
# kept in the store, within its budget.
DRAWN_ENTRIES, DRAWN_BYTES = 1024, "64MB"


@st.cache_data(max_entries=DRAWN_ENTRIES, max_size=DRAWN_BYTES, show_spinner=False)
def _drawn(run: str, what: tuple, _draw: Callable[[], None]) -> None:
    _draw()


def drawn(run: str | None, what: tuple[Hashable, ...], draw: Callable[[], None]) -> None:
    """Draw with `draw()`, or send again what it drew before for the same `run` and `what`
    (a name for the piece, then every other value it shows: the step, a word typed).

    `draw` makes display elements only (no widgets); it may open columns and containers of
    its own, and it is drawn wherever the call is (inside a `with column:` block too)."""
    if run is None:
        draw()
    else:  # a piece may be drawn otherwise at the projector (lessons.ui.tables.status_table)
        _drawn(run, (*what, presenting()), draw)


def _spec(run: str, what: tuple, build: Callable) -> dict:
    """The spec of the chart `build()` makes, built once per `run` and `what` and kept
    (shared by every session as it is: nobody may change it)."""
    key = (CHART, CHART_FORMAT, MADE_BY, run, *what)
    return derived(key, lambda: altair_spec(build()), said_by(spec_refused))


SCHEMA = "https://vega.github.io/schema/"  # the one address a spec may hold (never fetched)
FETCHING = ("url", "href")  # what makes the browser fetch an address (data, image, link)


def spec_refused(spec) -> str | None:
    """Why a chart's spec read from disk is not sent to the browsers (None when it may be):
    not a dict, or it names an address (a `url` or `href` anywhere, a string holding
    "://" or starting "//"), which every visitor's browser would fetch.

    >>> spec_refused({"data": {"url": "http://e/x.json"}})
    'it names an address to fetch (data.url)'
    """
    if not isinstance(spec, dict):
        return f"it holds a {type(spec).__name__}, not a chart's spec"
    stack: list[tuple[str, object]] = [("", spec)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            for name, item in value.items():
                here = f"{where}.{name}" if where else str(name)
                if name in FETCHING:
                    return f"it names an address to fetch ({here})"
                if not (here == "$schema" and isinstance(item, str) and item.startswith(SCHEMA)):
                    stack.append((here, item))
        elif isinstance(value, list | tuple):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
        elif isinstance(value, str) and ("://" in value or value.startswith("//")):
            return f"it names an address to fetch ({where})"
    return None


class _Checked:
    """An Altair chart as Streamlit's converter takes it, its dict made without Altair's
    schema check: the builders of subtok_core.charts are checked by the tests (through
    chart.to_dict()), and the data, the only part that changes, is not in what is checked
    (it goes out as a named dataset). The check is some 20 ms for a word's lattice."""

    def __init__(self, chart) -> None:
        self.chart = chart

    def to_dict(self) -> dict:
        return self.chart.to_dict(validate=False)


def altair(chart) -> None:
    """What st.altair_chart(chart, width="stretch") draws, without the schema check."""
    spec = altair_spec(_Checked(chart))
    st.vega_lite_chart(spec, width="stretch")
    say_under(spec)


def figure(run: str | None, what: tuple[Hashable, ...], build: Callable) -> None:
    """The chart `build()` makes (an Altair chart), its spec built once per `run` and
    `what` (the chart's name, and whatever else it shows) and sent again on every run."""
    spec = altair_spec(build()) if run is None else _spec(run, what, build)
    st.vega_lite_chart(spec, width="stretch")
    say_under(spec)


def chart(run: str | None, what: tuple[Hashable, ...], build: Callable, current: int) -> None:
    """The chart `build()` makes (an Altair chart with a `current` parameter, see
    charts.lessons.set_current), built once per `run` and `what`, step `current` marked.

    A chart's spec kept here is shared: the step is set on a copy of its top level and
    its parameters (all that set_current changes), so another session never sees it."""
    from subtok_core.charts.lessons import set_current  # here: it imports Altair

    spec = altair_spec(build()) if run is None else _spec(run, what, build)
    mine = dict(spec)
    if "params" in spec:
        mine["params"] = [dict(param) for param in spec["params"]]
    st.vega_lite_chart(set_current(mine, current), width="stretch")
    say_under(spec)
