"""Subword regularization panels: BPE-dropout (on /bpe) and Unigram n-best and sampling (on
/unigram). Each takes the model the page shows and the page's key prefix; the numbers come
from subtok_core (bpe/dropout.py, unigram/nbest.py), cached by the model's fingerprint."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui.a11y import altair_chart  # the chart and its sentence
from lessons.ui.chips import MARKERS, chips, show_chips
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint
from subtok_core import bpe, sampling, unigram
from subtok_core.bpe import dropout
from subtok_core.charts import regularize as charts
from subtok_core.unigram import nbest

PANEL_MAX_CHARS = 60  # a word or a few: the spread chart encodes the text 2,200 times
SIDE_BY_SIDE = 12  # samples shown at once
SPREAD_SAMPLES = 200  # samples per p in the spread chart
CONVERGE_SAMPLES = 1000  # samples set against the exact probabilities
CONVERGE_ROWS = 10  # segmentations in that chart, the rest as one row
NBEST_MAX = 50  # segmentations listed in the table
SEED_MAX = 2**31 - 1


@st.cache_data(show_spinner=False, max_entries=64)
def _spread(model_print: str, _model, text: str, seed: int) -> pd.DataFrame:
    return pd.DataFrame(dropout.count_spread(_model, text, SPREAD_SAMPLES, seed))


@st.cache_data(show_spinner=False, max_entries=64)
def _nbest(model_print: str, _model, word: str, n: int) -> list[nbest.Scored]:
    return nbest.nbest(_model, word, n)


@st.cache_data(show_spinner=False, max_entries=64)
def _converge(model_print: str, _model, word: str, alpha: float, seed: int) -> pd.DataFrame:
    rows = nbest.sampled_vs_exact(_model, word, alpha, CONVERGE_SAMPLES, seed, CONVERGE_ROWS)
    return pd.DataFrame(rows)


def _text(key_prefix: str, default: str, label: str) -> str | None:
    """The typed word(s); None after an st.error when they cannot be used."""
    text = st.text_input(
        label, default, max_chars=PANEL_MAX_CHARS, key=widget_key(key_prefix, "reg_text")
    )
    if len(text) > PANEL_MAX_CHARS:  # the box keeps to it; an address or a test may not
        st.error(f"Type at most {PANEL_MAX_CHARS} characters here.")
        return None
    return text


def _seed(col, key_prefix: str) -> int:
    seed = col.number_input("random seed", 0, SEED_MAX, 0, key=widget_key(key_prefix, "reg_seed"))
    return int(seed)


def dropout_panel(model, key_prefix: str, default: str = "lowest") -> None:
    """Several BPE-dropout samples of a typed word side by side, and how the token count
    spreads as p grows (Provilkov et al. 2020)."""
    st.caption(
        "At every merge step each possible merge is skipped with probability p; of those "
        "left, the one learned first is made. Encoding stops when every merge left was "
        "skipped. p = 0 is plain BPE; p = 1 keeps the first symbols. Training on such "
        "samples shows the model many segmentations of the same word."
    )
    c1, c2, c3, c4 = st.columns([3, 2, 1, 1])
    with c1:
        text = _text(key_prefix, default, "word or words")
    p = c2.slider("dropout probability p", 0.0, 1.0, 0.1, 0.05, key=widget_key(key_prefix, "reg_p"))
    n = int(c3.number_input("samples", 1, SIDE_BY_SIDE, 5, key=widget_key(key_prefix, "reg_n")))
    seed = _seed(c4, key_prefix)
    if text is None:
        return
    try:
        drawn = dropout.samples(model, text, p, n, seed)
        unsampled = tuple(bpe.segment(model, text).pieces)  # plain BPE's pieces
    except ValueError as err:
        st.error(plain(str(err)))
        return
    rows = [_chip_row("plain BPE", unsampled, ())]
    rows += [_chip_row(f"sample {k}", pieces, unsampled) for k, pieces in enumerate(drawn, 1)]
    show_chips("".join(rows))
    st.caption("Red: a piece plain BPE does not use for this text.")
    print_ = fingerprint("bpe-model", model)
    spread = _spread(print_, model, text, seed)
    altair_chart(charts.count_spread_chart(spread))
    first, last = spread.iloc[0], spread.iloc[-1]
    st.caption(
        f"Tokens per sample over {SPREAD_SAMPLES} samples at each p: the band holds the "
        f"middle half, the grey line runs from the fewest to the most, the red line is the "
        f"mean. At p = 0 every sample has {first['mean']:g} tokens; at p = 1, "
        f"{last['mean']:g} (the first symbols)."
    )


def _chip_row(label: str, pieces, plain) -> str:
    odd = set(pieces) - set(plain) if plain else set()
    return (
        f"<div>{as_text(label)} <small>({len(pieces)} tokens)</small>: "
        f"{chips(pieces, odd, MARKERS)}</div>"
    )


def nbest_panel(model, key_prefix: str, default: str = "hugs") -> None:
    """A typed word's n best segmentations with their probabilities, and 1,000 samples
    with temperature alpha set against the exact probabilities (Kudo 2018)."""
    st.caption(
        "Every path through the word's lattice is a segmentation. The n best come from a "
        "search backwards from the end, guided by the best score up to each position; the "
        "samples pick the last piece, then the one before, ... in proportion to the "
        "probability of all the paths through it, each raised to the power alpha."
    )
    c1, c2, c3, c4 = st.columns([3, 1, 1, 1])
    with c1:
        text = _text(key_prefix, default, "word")
    n = int(c2.number_input("n best", 1, NBEST_MAX, 5, key=widget_key(key_prefix, "reg_nbest")))
    alpha = c3.number_input(
        "alpha", 0.01, 10.0, 1.0, 0.1, key=widget_key(key_prefix, "reg_alpha"),
        help="1: the model's probabilities; below 1 flatter (more variety), above 1 sharper.",
    )  # fmt: skip
    seed = _seed(c4, key_prefix)
    if text is None:
        return
    word = text.strip()
    print_ = fingerprint("unigram-model", model)
    try:
        sampling.check_alpha(alpha)
        best = _nbest(print_, model, word, n)
        converge = _converge(print_, model, word, float(alpha), seed)
    except ValueError as err:
        st.error(plain(str(err)))
        return
    table = pd.DataFrame(
        [
            {"segmentation": " ".join(s.pieces), "log P": s.logp, "P(x | word)": s.probability}
            for s in best
        ]
    )
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            "log P": st.column_config.NumberColumn(format="%.4f"),
            "P(x | word)": st.column_config.NumberColumn(format="%.6f"),
        },
    )
    st.caption(
        "P(x | word): the segmentation's probability over the sum of every segmentation's "
        "(the forward algorithm)" + (f"; the word has only {len(best)}." if len(best) < n else ".")
    )
    st.write(
        f"**{CONVERGE_SAMPLES:,} samples with alpha = {alpha:g}** against P^alpha, normalised:"
    )
    altair_chart(charts.sampling_chart(converge))
    gap = ((converge["observed"] - converge["exact"]).abs() / converge["standard error"]).where(
        converge["standard error"] > 0
    )
    st.caption(
        f"Standard error of a frequency: sqrt(p (1 - p) / {CONVERGE_SAMPLES:,}). The largest "
        f"gap here is {gap.max():.1f} standard errors; with more samples the frequencies "
        "close in on the probabilities."
        if gap.notna().any()
        else "The word has one segmentation: every sample is that one."
    )


def unigram_model(trace, i: int):
    """The model after step i, or the final one when step i keeps only its top pieces (as
    the page's lattice does)."""
    try:
        return unigram.model_from_trace(trace, i)
    except ValueError:
        return unigram.model_from_trace(trace)
