"""What only the parity-aware BPE page shows: the serving language's pair table, the dev
tokens per language over the steps (the paper's "why"), ordinary BPE beside it, and the
encoder."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.a11y import altair_chart
from lessons.ui.keys import widget_key
from lessons.ui.store import run_key
from lessons.ui.tables import status_of, status_table
from subtok_core import parity
from subtok_core.explain import pair_text

PAGE = "parity"


def pair_frame(record, step) -> pd.DataFrame:
    """The serving counts' top pairs; `step` (the merge shown, or None) marks its pair
    "merged" and its ties "tied" in words."""
    chosen, tied = (None, ()) if step is None else (step.pair, step.tied_with)
    rows = [
        {"pair": pair_text((a, b)), "count": n, "status": status_of((a, b), chosen, tied)}
        for a, b, n in record.pair_table
    ]
    return pd.DataFrame(rows, columns=["pair", "count", "status"])


def pair_panel(trace, i: int, step) -> None:
    """Merge i's table: the pairs of the language it served, before it. At step 0 the
    table merge 1 chooses from, nothing marked yet."""

    def draw() -> None:
        record = step if step is not None else (trace.steps[0] if trace.steps else None)
        if record is None:
            st.caption("No merge was made: there is no pair table to show.")
            return
        who = record.language or "all languages together"
        title = f"Pair counts in {who}" + (
            f" before merge {i}" if i else " (the language merge 1 serves)"
        )
        st.subheader(title)
        table = pair_frame(record, step)
        status_table(table, min(420, 38 + 35 * len(table)), label=title)
        st.caption(
            f"The {len(table)} most frequent pairs of {who}'s training words, most frequent "
            f"first; status says which pair merged and which tied with it "
            f"({parity.TIE_REASON})."
        )

    cached.drawn(run_key(trace), (PAGE, "pairs", i), draw)


def dev_frame(trace) -> pd.DataFrame:
    """Dev tokens per language before the first merge and after each one, and their sum."""
    languages = trace.start.languages
    rows = [(0, "", *trace.start.dev_lengths)]
    rows += [(s.number, s.language or "(all)", *s.dev_after) for s in trace.steps]
    frame = pd.DataFrame(rows, columns=["after merge", "served", *languages])
    frame["total"] = frame[list(languages)].sum(axis=1)
    return frame


def dev_chart(frame: pd.DataFrame, languages, i: int):
    """Dev tokens per language over the steps, one line (and point shape) per language,
    the step shown marked by a rule; its description says the numbers at step i."""
    long = frame.melt(id_vars=["after merge"], value_vars=list(languages),
                      var_name="language", value_name="dev tokens")  # fmt: skip
    now = frame[frame["after merge"] == i].iloc[0]
    said = ", ".join(f"{lang} {int(now[lang])}" for lang in languages)
    description = f"Dev tokens per language after merge {i}: {said}."
    lines = (
        alt.Chart(long)
        .mark_line(point=True)
        .encode(
            x=alt.X("after merge:Q", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("dev tokens:Q", scale=alt.Scale(zero=False)),
            color=alt.Color("language:N"),
            shape=alt.Shape("language:N"),
            strokeDash=alt.StrokeDash("language:N"),
            tooltip=["language", "after merge", "dev tokens"],
        )
    )
    rule = alt.Chart(pd.DataFrame({"after merge": [i]})).mark_rule().encode(x="after merge:Q")
    return (lines + rule).properties(height=220, description=description)


def dev_panel(trace, plain, i: int) -> None:
    """The paper's why: each language's dev length after every merge (chart and table),
    and what ordinary BPE (every merge global) gives with the same merges."""

    def draw() -> None:
        languages = trace.start.languages
        st.subheader("Dev tokens per language")
        frame = dev_frame(trace)
        altair_chart(dev_chart(frame, languages, i))
        with st.expander("The numbers of the chart, merge by merge"):
            status_table(frame, min(420, 38 + 35 * len(frame)), label="Dev tokens per language")
        if plain is None:
            return
        st.subheader("Beside ordinary BPE")
        ours, base = (
            trace.steps[-1].dev_after if trace.steps else trace.start.dev_lengths,
            (plain.steps[-1].dev_after if plain.steps else plain.start.dev_lengths),
        )
        table = pd.DataFrame(
            [("parity-aware", *ours, sum(ours)), ("ordinary BPE", *base, sum(base))],
            columns=["after all merges", *languages, "total"],
        )
        status_table(table, 38 + 35 * 2, label="Parity-aware against ordinary BPE")
        st.caption(
            f"Ordinary BPE: {len(plain.steps)} merges, each chosen on every language's "
            "counts together (`--global-merges` = `--merges`). Parity-aware BPE spends its "
            "merges on the language that is longest at the time."
        )

    cached.drawn(run_key(trace), (PAGE, "dev", i, plain is not None), draw)


def encode_panel(model, example: str) -> None:
    """A text the student types, cut with the merges so far (BPE's encoder)."""
    st.subheader("Encode with these merges")
    text = st.text_input("Words to encode", example, key=widget_key(PAGE, "encode"))
    try:
        pieces = parity.ALGORITHM.segment(model, text).pieces
    except ValueError as err:
        st.warning(str(err))
        return
    st.code(" ".join(pieces) or " ", language=None, wrap_lines=True)
    st.caption(f"{len(pieces)} tokens with {len(model.merges)} merges.")
