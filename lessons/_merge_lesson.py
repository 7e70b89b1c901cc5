"""The pieces every merge lesson (BPE, byte-level BPE, WordPiece) shows the same way: the
tie rule and merges boxes, the pair counts, the corpus and vocabulary after a step, the
growth chart and the prediction."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from lessons import _cached as cached
from lessons._chips import show_corpus, show_vocab
from lessons._keys import widget_key
from lessons._store import run_key
from lessons._tables import status_of, table_panel
from lessons._url import choice_box, limit_help, number_box
from subtok_core import limits
from subtok_core.charts import lessons as viz

TIES_HELP = (
    "first: the pair seen first in the corpus (reproduces the course material). "
    "lex: the alphabetically smallest pair. tokenizers: the pair with the oldest symbols, "
    "as Hugging Face tokenizers."
)


def ties_select(col, rules: tuple[str, ...], default: str | None = None) -> str:
    """The tie rule box (`default`: the corpus's own rule, see corpus_setting)."""
    return choice_box(col, "tie rule", rules, "ties", default or rules[0], help=TIES_HELP)


def merges_input(col, default: int = 10) -> int:
    """The merges box (`default`: the corpus's own count, see corpus_setting)."""
    top = limits.limit("merges", "web")
    return int(number_box(col, "merges", "merges", 0, top, default, 1, limit_help("merges")))


def growth_frame(trace) -> pd.DataFrame:
    """Vocabulary size and corpus length before the first step and after each one."""
    rows = [
        {
            "step": 0,
            "vocab_size": len(trace.start.vocab),
            "corpus_symbols": trace.start.corpus_symbols,
        }
    ]
    rows += [
        {"step": s.number, "vocab_size": s.vocab_size, "corpus_symbols": s.corpus_symbols}
        for s in trace.steps
    ]
    return pd.DataFrame(rows)


def growth_chart(trace, i: int) -> None:
    """Vocabulary size against corpus length over the whole run, step i marked."""
    st.subheader("Vocabulary grows, the corpus shrinks")
    cached.chart(
        run_key(trace), ("growth",), lambda: viz.vocab_growth_chart(growth_frame(trace), i), i
    )


def predict_panel(trace, i: int, judge: Callable, pair_text: Callable, prefix: str) -> None:
    """The student picks the pair merged next; `judge(guess, step)` says right or wrong."""
    st.subheader("Predict the next merge")
    if i >= len(trace.steps):
        st.write("This was the last merge: nothing left to predict.")
        return
    nxt = trace.steps[i]
    options = sorted({(row[0], row[1]) for row in nxt.pair_table})
    guess = st.selectbox(
        f"Look at the corpus after merge {i}: which pair will merge next?",
        options,
        index=None,
        format_func=pair_text,
        key=widget_key(prefix, f"guess_{i}"),
        placeholder="pick a pair",
    )
    if guess is not None:
        right, why = judge(guess, nxt)
        (st.success if right else st.warning)(why)


def pair_counts_panel(trace, i: int, step, label: Callable[[tuple[str, str]], str]) -> None:
    """The pair counts before merge i (BPE, byte-level BPE), each pair written by `label`:
    the merged pair red, the pairs tied with it orange, then the chart."""
    record = trace.start if step is None else step
    chosen, tied = (None, ()) if step is None else (step.pair, step.tied_with)
    rows = [
        {"pair": label((a, b)), "count": count, "status": status_of((a, b), chosen, tied)}
        for a, b, count in record.pair_table
    ]
    table = pd.DataFrame(rows, columns=["pair", "count", "status"])
    table_panel(
        "Pair counts" + (f" before merge {i}" if i else ""),
        "On a real sample only the most frequent pairs are kept per step.",
        table,
        trace,
        viz.pair_count_chart(table),
    )


def corpus_and_vocab(trace, i: int, highlight: set[str], algo) -> None:
    """The corpus after step i and the vocabulary, read from `algo` (bpe or wordpiece);
    drawn once per run and step (`highlight` is the step's new symbol)."""

    def draw() -> None:
        st.subheader("Corpus" + (f" after merge {i}" if i else ""))
        show_corpus(algo.corpus_at(trace, i), len(trace.start.words), highlight)
        vocab = algo.model_from_trace(trace, i).vocab
        st.subheader(f"Vocabulary ({len(vocab):,} symbols)")
        show_vocab(vocab, highlight)

    cached.drawn(run_key(trace), (algo.__name__, "corpus", i, tuple(sorted(highlight))), draw)
