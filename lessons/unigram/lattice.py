"""The Unigram page's lattice of a word: its chart, sentence and edge table under the
model of a step, and every segmentation of a short word."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint, run_key
from lessons.unigram.views import base_of
from subtok_core import lattice, unigram
from subtok_core.charts import lessons as viz
from subtok_core.unigram.textbook import LOG_BASES

PAGE = "unigram"
LIST_MAX_CHARS = 10  # every segmentation is listed only for words this short


def all_segmentations_panel(record, word: str) -> None:
    logp = {r.piece: math.log(r.prob) for r in record.vocab if r.prob > 0}
    if len(word) > LIST_MAX_CHARS:
        st.caption(f"Words longer than {LIST_MAX_CHARS} characters have too many to list.")
        return
    segs = lattice.all_segmentations(word, logp, limit=200)
    rows = sorted(
        (
            {"segmentation": " ".join(s), "P": math.exp(lattice.segmentation_logp(s, logp))}
            for s in segs
        ),
        key=lambda r: -r["P"],
    )
    st.markdown(f"**Every segmentation of {as_text(word)}** ({len(rows)}), most probable first:")
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        column_config={"P": st.column_config.NumberColumn(format="%.8f")},
    )


def lattice_panel(trace, i: int, record, variant: str) -> None:
    st.subheader("The lattice of a word")
    words = list(trace.start.words)
    word = st.text_input("word", words[0], key=widget_key(PAGE, "word"))
    cached.drawn(
        run_key(trace),
        ("unigram lattice", i, word),
        lambda: lattice_view(trace, i, record, variant, word.strip() or words[0]),
    )


def lattice_view(trace, i: int, record, variant: str, word: str) -> None:
    """The lattice of `word` under the model of step i: chart, sentence, table."""
    try:
        model = unigram.model_from_trace(trace, i)
    except ValueError:  # compact steps keep only the top rows: show the final model
        model = unigram.model_from_trace(trace)
        st.caption(
            "This step keeps only its most probable pieces: the lattice uses the final model."
        )
    try:
        lat = unigram.encode_word(model, word)
    except ValueError as err:
        st.error(plain(str(err)))
        return
    base = base_of(trace)
    log = f"log P (base {base})"  # the loss's base: the lattice speaks the same logarithm
    scale = 1 / math.log(LOG_BASES[base])
    frame = lattice_frame(lat, scale)
    chart = lambda: viz.lattice_chart(frame, variant == "em", log)  # noqa: E731
    if word == next(iter(trace.start.words), None):  # the word a link opens: kept (warm)
        shown = fingerprint(frame.to_csv(index=False))
        cached.figure(run_key(trace), ("unigram lattice", shown, variant, log), chart)
    else:  # a word the student typed: drawn, not kept on disk
        cached.altair(chart())
    best = " ".join(lat.pieces)
    st.write(
        f"Positions 0 to {len(lat.word)} are the nodes; each bar is a piece of the vocabulary "
        f"with its {log}, as the loss above. The best path (red, Viterbi): **{plain(best)}**, "
        f"{log} = {lat.best_logp * scale:.4f}; all segmentations together: "
        f"{log} = {lat.total_logp * scale:.4f}."
    )
    table = frame.rename(columns={"logp": log, "best": viz.BEST_PATH})
    columns = ["piece", "start", "end", log, viz.BEST_PATH]
    columns += ["posterior"] if variant == "em" else []
    four = st.column_config.NumberColumn(format="%.4f")
    st.dataframe(table[columns], hide_index=True, column_config={log: four, "posterior": four})
    if variant == "em":
        st.caption(
            "posterior: the expected number of times the piece is used in one occurrence "
            "of the word, summed over every segmentation weighted by its probability."
        )
    if model.marker == "none":
        all_segmentations_panel(record, lat.word)


def lattice_frame(lat, scale: float = 1.0) -> pd.DataFrame:
    """The edges of a lattice; `scale` turns natural-log probabilities into the page's base."""
    on_path = set(lat.best)
    rows = [
        {
            "piece": e.piece,
            "start": e.start,
            "end": e.end,
            "logp": e.logp * scale,
            "posterior": e.posterior,
            "best": k in on_path,
            "row": k,
        }
        for k, e in enumerate(lat.edges)
    ]
    return pd.DataFrame(rows)
