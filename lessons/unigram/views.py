"""The Unigram page's tables and charts of one step: the vocabulary, the removal losses,
each word's best segmentation, the loss over the steps."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.store import fingerprint, run_key
from lessons.ui.tables import status_table
from subtok_core import notes
from subtok_core.charts import lessons as viz
from subtok_core.unigram.textbook import LOG_BASES, rounded_loss

KIND_LEGEND = {  # the loss curve's names of the steps, colored as in the chart module
    "textbook": {"e": "E-step", "m": "removal losses", "prune": "prune"},
    "em": {"e": "E-step", "m": "M-step", "prune": "prune"},
}
VOCAB_ROWS = 1000  # a bigger vocabulary shows its most probable pieces
REMOVAL_ROWS = 200  # removal-loss rows shown around the cut


def vocab_frame(record, removed: set[str], variant: str) -> pd.DataFrame:
    freq = "expected count" if variant == "em" else "frequency"
    rows = [
        {
            "piece": r.piece,
            freq: r.freq,
            "probability": r.prob,
            "status": "pruned" if r.piece in removed else "",
        }
        for r in record.vocab
    ]
    return pd.DataFrame(rows, columns=["piece", freq, "probability", "status"])


def removal_frame(step, before: float) -> pd.DataFrame:
    """The removal table of an M or prune step; `before` is the loss the increases are from."""
    removed = set(step.removed)
    rows = [
        {
            "piece": piece,
            "loss without it": loss,
            "increase": max(loss - before, 0.0),
            "status": "pruned" if piece in removed else "",
        }
        for piece, loss in step.removal
    ]
    return pd.DataFrame(rows, columns=["piece", "loss without it", "increase", "status"])


def loss_curve(trace, i: int, variant: str) -> None:
    """The loss after every step, step i ringed (the chart is built once per run)."""
    title = "-log-likelihood (nats)" if variant == "em" else f"loss (log base {base_of(trace)})"
    st.subheader("The loss over the steps")
    losses = [s.loss for s in trace.steps]
    jumps = len(losses) > 1 and max(losses) > 10 * min(losses) > 0

    def build():
        rows = [
            {
                "step": s.number,
                "loss": s.loss,
                "kind": KIND_LEGEND[variant][s.kind],
                "round": s.round,
                "pieces": s.vocab_size,
            }
            for s in trace.steps
        ]
        kinds = viz.EM_KINDS if variant == "em" else viz.TEXTBOOK_KINDS
        return viz.loss_curve_chart(pd.DataFrame(rows), i, title, jumps, kinds)

    cached.chart(run_key(trace), ("unigram loss",), build, i)
    if jumps and variant == "em":
        st.caption(
            "Log scale: the loss jumps after some prunes. EM had given nearly every occurrence "
            "to a longer piece, so the characters' probabilities fell close to 0; once that "
            "piece is pruned the words must use them, until the next M-step re-estimates."
        )


def base_of(trace) -> str:
    return trace.param("log_base")


def segmentations_panel(record, trace, i: int) -> None:
    """Each word's best segmentation, its probability and its share of the loss."""
    scale = 1 / math.log(LOG_BASES[base_of(trace)])
    st.subheader("Best segmentation of each word" + (f" after step {i}" if i else ""))
    if record.segmentations is None:
        st.caption("On a real sample the steps keep no segmentations; see the lattice below.")
        return
    rows = [
        {
            "word": s.word,
            "count": s.count,
            "segmentation": " ".join(s.pieces),
            "P(segmentation)": math.exp(s.logprob),
            "count x -log P": -s.count * s.logprob * scale,
            "tied": s.ties,
        }
        for s in record.segmentations
    ]
    status_table(
        pd.DataFrame(rows), "auto", _float_format(), precision=6, label="best segmentations"
    )
    if any(s.ties for s in record.segmentations):
        st.caption(
            "tied: other segmentations with exactly the same probability. The one whose last "
            "piece starts latest wins (ru n rather than r un), as the course material picks."
        )


def _float_format() -> dict:
    return {
        c: st.column_config.NumberColumn(format="%.6g")
        for c in ("P(segmentation)", "probability", "expected count")
    }


def rounding_note(trace, record, corpus: str) -> None:
    """Where the 001 slides round, say what exact arithmetic gives instead (both computed;
    `corpus`: the corpus's name, which says whether the slides printed this run)."""
    if trace.param("variant") != "textbook" or record.segmentations is None:
        return
    slides = rounded_loss(record, base_of(trace))
    if slides is not None and abs(slides - record.loss) >= 5e-4:  # 001 computes run/bug only
        st.caption(notes.rounding_caption(corpus, slides, record.loss))


def vocab_panel(trace, step, variant: str) -> None:
    record = step or trace.start
    removed = set(step.removed) if step else set()
    st.subheader(f"Vocabulary ({record.vocab_size if step else len(record.vocab):,} pieces)")
    table = vocab_frame(record, removed, variant)
    if len(table) > VOCAB_ROWS:
        table = table.sort_values("probability", ascending=False, kind="stable")
        table = table.head(VOCAB_ROWS)
    status_table(
        table, min(460, 38 + 35 * len(table)), _float_format(), precision=6, label="vocabulary"
    )
    size = record.vocab_size if step else len(record.vocab)
    if len(table) < size:
        st.caption(f"The {len(table):,} most probable of {size:,} pieces.")


def words_panel(trace, i: int, step, corpus: str) -> None:
    segmentations_panel(step, trace, i)
    rounding_note(trace, step, corpus)


def removal_panel(trace, step, corpus: str) -> None:
    st.subheader("Loss without each piece")
    before = step.loss if step.kind == "m" else trace.steps[step.number - 2].loss
    frame = removal_frame(step, before)
    if len(frame) > REMOVAL_ROWS:  # the last pruned pieces and the first kept ones
        cut = max(len(step.removed) - REMOVAL_ROWS // 2, 0)
        st.caption(
            f"Rows {cut + 1:,} to {cut + REMOVAL_ROWS:,} of {len(frame):,}, around the "
            "line between pruned and kept."
        )
        frame = frame.iloc[cut : cut + REMOVAL_ROWS]
    three = st.column_config.NumberColumn(format="%.3f")
    config = {"loss without it": three, "increase": three}
    status_table(
        frame, min(360, 38 + 35 * len(frame)), config, precision=3, label="loss without each piece"
    )
    if trace.param("variant") == "textbook":
        rounded = notes.removal_caption(corpus, step, base_of(trace))
        if rounded:
            st.caption(rounded)
    # drawn at +0.000 too: a dot and its value; its spec kept by the run and the rows it
    # shows, so a restarted server reads it from disk and imports no Altair for it
    shown = fingerprint(frame.to_csv(index=False))
    cached.figure(run_key(trace), ("removal", shown), lambda: viz.removal_chart(frame))
    if not frame["increase"].max() > 0:
        st.caption(
            "Every removal leaves the loss as it is: each word has another segmentation "
            "that is just as probable."
        )
