"""What a rerun does not compute again: page pieces drawn once per trace and step, then
replayed; the chart of a whole run built once, the current step set on each run.

Streamlit runs a page from top to bottom on every click, so a page whose trace was
trained long ago still rebuilt every table and chart on each run: 0.15 to 0.65 s of the
server's CPU on the Lee sample (bench/rerun.py), most of it Altair building and validating
chart specs and pandas styling tables. Two caches avoid that; both are shared by every
session, so each is keyed by everything its output depends on: the key the server-wide
store keeps the trace under (lessons._store.run_key), and what else the piece shows (the
step, a word typed).

- ``drawn(run, what, draw)``: st.cache_data records the elements ``draw()`` makes and, on a
  hit, sends them again as they were, without running ``draw``. Display elements only: a
  widget inside ``draw`` would be drawn once and never again.
- ``chart(run, what, build, current)``: the Vega-Lite spec of the Altair chart ``build()``
  makes, built once per run; the step is the chart's ``current`` parameter
  (charts.lessons.set_current), so moving the step does not rebuild the whole run's chart.

A chart of a single step is drawn with ``altair(chart)``: st.altair_chart without Altair
checking the spec against its schema on every run (the tests check every builder's).

Both are keyed by the run, not by the code that draws: a page edited while the server
runs shows its old pieces until the cache is cleared or the server restarts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import streamlit as st

from lessons._a11y import say_under

# Streamlit's own Altair -> Vega-Lite conversion (private, so kept in lessons/_compat.py;
# tests/test_app_cached.py checks that a chart drawn from a spec kept here sends exactly
# what st.altair_chart sends)
from lessons._compat import altair_spec
from lessons._present import presenting
from subtok_core.charts import lessons as viz

# What is kept, in pieces and in pickled bytes (whichever is reached first); measured on
# the Lee sample, a piece is 2-110 KB (20 KB on average) and a whole-run chart 10-50 KB.
DRAWN_ENTRIES, DRAWN_BYTES = 1024, "64MB"
CHART_ENTRIES, CHART_BYTES = 128, "16MB"


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
    else:  # a piece may be drawn otherwise at the projector (lessons._tables.status_table)
        _drawn(run, (*what, presenting()), draw)


@st.cache_data(max_entries=CHART_ENTRIES, max_size=CHART_BYTES, show_spinner=False)
def _spec(run: str, what: tuple, _build: Callable) -> dict:
    return altair_spec(_build())


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

    A chart's spec kept here is copied on every call (st.cache_data unpickles it), so
    setting the step does not change what another session gets."""
    spec = altair_spec(build()) if run is None else _spec(run, what, build)
    st.vega_lite_chart(viz.set_current(spec, current), width="stretch")
    say_under(spec)
