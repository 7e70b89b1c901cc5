"""A step's table: the merged (or pruned) rows red, the tied ones orange, its key column
pinned; at a desk the whole table scrolling, at the projector its first rows in large
type."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.present import presenting
from lessons.ui.store import fingerprint, run_key


def status_of(pair: tuple[str, str], chosen, tied) -> str:
    return "merged" if pair == chosen else "tied" if pair in tied else ""


# the status column wide enough for "merged" and "pruned" in bold, however narrow the
# table, and pinned at the left beside the key column: a phone shows both (issue 25)
STATUS_COLUMN = {"status": st.column_config.TextColumn("status", width=90, pinned=True)}
STATUS_CSS = {
    "merged": "background-color: #ffd6d6; font-weight: bold",
    "pruned": "background-color: #ffd6d6; font-weight: bold",
    "removed": "background-color: #ffd6d6; font-weight: bold",  # Picky BPE's parts
    "tied": "background-color: #ffe8cc",
}


def style_status(df: pd.DataFrame):
    """Merged (or pruned) rows red, tied rows orange (the whole table styled at once: a
    function per row costs some 0.3 ms a row, a third of a second for a big vocabulary)."""

    def paint(table: pd.DataFrame) -> pd.DataFrame:
        css = table["status"].map(STATUS_CSS).fillna("").astype(object)
        return pd.DataFrame({column: css for column in table.columns}, index=table.index)

    return df.style.apply(paint, axis=None)


PRESENT_ROWS = 12  # the rows of a step's table shown at the projector


def status_table(
    frame: pd.DataFrame, height, column_config=None, precision: int = 4, label: str = ""
):
    """A step's table, merged (or pruned) rows red and tied rows orange: at a desk all of
    it, scrolling (st.dataframe); at the projector (presenter mode) its first rows as a
    plain table in the page's large type, floats to `precision` places (st.dataframe
    draws on a canvas in a small type of its own, deaf to the page's font size).
    `label` names the table for a screen reader (default: "the step's table")."""
    status = "status" in frame.columns  # a table without one is drawn the same way, plain
    config = {**pinned_key(frame), **(column_config or {}), **(STATUS_COLUMN if status else {})}
    if presenting():
        shown = desk_order(frame.head(PRESENT_ROWS), config)
        styled = style_status(shown) if status else shown.style
        present_table(styled.format(precision=precision, escape="html"), label)
        if len(frame) > PRESENT_ROWS:
            st.caption(f"The first {PRESENT_ROWS} of {len(frame):,} rows.")
        return
    shown = style_status(frame) if status else frame
    st.dataframe(shown, hide_index=True, height=height, column_config=config)


def desk_order(frame: pd.DataFrame, config: dict) -> pd.DataFrame:
    """The columns as st.dataframe draws them at a desk with `config`: the pinned ones
    first, in the config's order, then the others as they come, each under its config's
    label (the status keeps its name): the projector shows the same table."""
    pinned = [c for c, options in config.items() if options.get("pinned") and c in frame]
    order = pinned + [c for c in frame.columns if c not in pinned]
    labels = {
        c: config[c]["label"] for c in order if c != "status" and config.get(c, {}).get("label")
    }
    return frame[order].rename(columns=labels)


def present_table(styled, label: str = "") -> None:
    """A styled table as our own HTML, in a region that scrolls sideways when the table is
    wider than the screen (presenter mode's large type on a phone) and that the keyboard
    can reach (tabindex: axe's scrollable-region-focusable; st.table's scrolling box is
    not focusable). Every cell and header is escaped (a piece may be "</w>")."""
    body = styled.format_index(escape="html", axis=1).hide(axis="index").to_html()
    name = html.escape(label or "the step's table", quote=True)
    st.markdown(
        f'<div class="present-table" role="region" tabindex="0" aria-label="{name}">{body}</div>',
        unsafe_allow_html=True,
    )


def pinned_key(frame: pd.DataFrame) -> dict:
    """The column config that pins a table's first column, its key (the pair, the piece,
    the word): it stays in sight while the other columns scroll, as on a 390 px phone."""
    if frame.columns.empty:
        return {}
    first = frame.columns[0]
    return {first: st.column_config.Column(pinned=True)}


def table_panel(title: str, note: str, table: pd.DataFrame, trace, build, **options) -> None:
    """The pair table of a step (merged and tied rows colored) and its bar chart (`build()`
    makes it): its spec kept by the run and the table it shows (cached.figure), so a
    restarted server reads it from disk and imports no Altair for it."""
    st.subheader(title)
    if trace.compact:
        st.caption(note)
    status_table(table, min(420, 38 + 35 * len(table)), label=title, **options)
    if len(table):
        shown = fingerprint(table.to_csv(index=False))  # the bars, their labels and status
        cached.figure(run_key(trace), ("step chart", title, shown), build)
