"""The WordPiece lesson: merges chosen by score, not count; longest-match encoding."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

from lessons.ui import cached
from lessons.ui.corpus import Corpus, corpus_label, corpus_select, corpus_setting
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import MergeLesson, merge_lesson, merges_input, ties_select
from lessons.ui.steps import corpus_trace
from lessons.ui.store import fingerprint, run_key, trace_store
from lessons.ui.tables import status_of, table_panel
from lessons.wordpiece.encode import encode_panel
from subtok_core import bpe, wordpiece
from subtok_core.charts import lessons as viz
from subtok_core.corpus import WordCounts
from subtok_core.explain import pair_text
from subtok_core.wordpiece import fraction_text
from subtok_core.wordpiece.explain import (
    explain_wordpiece_start,
    explain_wordpiece_step,
    judge_wordpiece_guess,
)

PAGE = "wordpiece"


def trained(wc, corpus_print: str, ties: str, merges: int, specials: bool):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint("wordpiece", corpus_print, ties, merges, specials),
        lambda report: wordpiece.trace_wordpiece(
            wc, merges=merges, ties=ties, special_tokens=specials, progress=report
        ),
        "Scoring and merging:",
    )


def bpe_twin(wc, corpus_print: str, merges: int):
    """BPE with as many merges on the same corpus, for the [UNK] contrast (the BPE page's
    run with marker none and tie rule first, under the same key)."""
    return trace_store().trained(
        fingerprint("bpe", corpus_print, "none", "first", merges),
        lambda report: bpe.trace_bpe(wc, merges=merges, progress=report),
        "Learning BPE merges for comparison:",
    )


def score_frame(table, chosen=None, tied=()) -> pd.DataFrame:
    rows = [
        {
            "pair": pair_text((r.left, r.right)),
            "pair count": r.pair_count,
            "left count": r.left_count,
            "right count": r.right_count,
            "fraction": fraction_text(r.score_fraction),
            "score": r.score,
            "status": status_of((r.left, r.right), chosen, tied),
        }
        for r in table
    ]
    columns = ["pair", "pair count", "left count", "right count", "fraction", "score", "status"]
    return pd.DataFrame(rows, columns=columns)


def contrast_line(step) -> None:
    """What BPE would merge at this step, beside what WordPiece merges."""
    left, right = st.columns(2)
    shown = {"delta_color": "off", "delta_arrow": "off", "border": True}
    left.metric(
        "BPE would merge (most frequent)",
        pair_text(step.bpe_pair),
        f"{step.bpe_count} times",
        **shown,
    )
    right.metric(
        "WordPiece merges (best score)",
        pair_text(step.pair),
        f"score {fraction_text(step.score_fraction)}",
        **shown,
    )


@dataclass
class WordPiece(MergeLesson):
    """The settings of /wordpiece and what the page shows with them (lessons.ui.merge_lesson)."""

    page, algo = PAGE, wordpiece
    title = "WordPiece"
    intro = (
        "WordPiece builds its vocabulary like BPE, but merges the pair with the highest score "
        "count(ab) / (count(a) × count(b)) instead of the most frequent one: a pair wins when "
        "its parts are rarely seen apart (Schuster & Nakajima, 2012; worked examples from 001 "
        "and 004 of the course material). Scores are exact fractions here, not the rounded "
        "decimals of the slides."
    )
    columns = (2, 1)  # the scores need the room: five numbers a pair, all in view at 1280

    corpus: Corpus
    ties: str
    merges: int
    specials: bool  # BERT's special tokens at the front of the vocabulary
    example: str  # the encoder's first words: the corpus's own
    # the word counts trained on and their fingerprint (kept by train), for BPE's run
    words: WordCounts | None = field(default=None, init=False)
    corpus_print: str = field(default="", init=False)

    @classmethod
    def choose(cls, row) -> WordPiece:
        """The corpus, the tie rule, the merges and BERT's special tokens, in the row."""
        c1, c2, c3, c4 = row.columns([3, 1, 1, 1.1])
        corpus = corpus_select(c1, default="toy:sunflower")  # 001's WordPiece example
        ties = ties_select(c2, bpe.TIE_RULES)
        merges = merges_input(c3, corpus_setting(corpus, "merges", 10))
        specials = c4.checkbox(
            "BERT's special tokens",
            key=widget_key(PAGE, "special"),
            help="[PAD] [UNK] [CLS] [SEP] [MASK] at the front of the vocabulary, as BERT has them.",
        )
        row.note(
            corpus_label(corpus.name),
            f"ties {ties}",
            f"{merges} merges",
            "BERT's special tokens" if specials else "",
        )
        if corpus.name == "toy:hug-pug":
            with st.expander("A slip in the Hugging Face course, computed exactly"):
                st.write(wordpiece.HF_COURSE_NOTE)
        example = corpus_setting(corpus, "encode", "fused funny", widget_key(PAGE, "encode"))
        return cls(corpus, ties, merges, specials, example)

    def train(self, row):
        run = corpus_trace(
            self.corpus.name,
            PAGE,
            lambda wc, corpus_print: trained(
                wc, corpus_print, self.ties, self.merges, self.specials
            ),
            algorithm="wordpiece",
            size=self.merges,  # close enough to the vocab size for the upload's time estimate
            row=row,
        )
        self.words, self.corpus_print, self.split_punct = (
            run.words,
            run.corpus_print,
            run.split_punct,
        )
        return run.trace

    def explain(self, trace, i: int, step) -> str:
        if step is None:
            return explain_wordpiece_start(trace.start, wordpiece.PREFIX)
        return explain_wordpiece_step(step, self.ties)

    def pairs(self, trace, i: int, step) -> None:  # drawn once per run and step
        cached.drawn(run_key(trace), ("wordpiece scores", i), lambda: score_panel(trace, i, step))

    def under_step(self, trace, step) -> None:  # BPE's choice against WordPiece's
        if step is not None:
            contrast_line(step)

    def judge(self, guess, nxt):
        return judge_wordpiece_guess(guess, nxt, self.ties)

    def encode(self, trace, i: int) -> None:
        def twin():  # BPE with as many merges on the same corpus, trained when first asked
            return bpe.model_from_trace(bpe_twin(self.words, self.corpus_print, self.merges), i)

        encode_panel(self.model(trace, i), twin, i, self.example)


def score_panel(trace, i: int, step) -> None:
    """The scores before merge i, table and chart."""
    if step is None:
        table = score_frame(trace.start.pair_table)
    else:
        table = score_frame(step.pair_table, step.pair, step.tied_with)
    title = "Scores" + (f" before merge {i}" if i else "")
    note = "On a real sample only the best-scoring pairs are kept per step."
    build = lambda: viz.pair_count_chart(table, value="score")  # noqa: E731
    table_panel(title, note, table, trace, build, column_config=SCORE_COLUMNS)


# The score pinned beside the pair and its status: a phone shows what the step is about.
# The counts are headed by the score's own formula, count(ab) / (count(a) × count(b)), each
# column as narrow as its header: at 1280 px every column, the fraction last, is in view.
SCORE_COLUMNS = {
    "score": st.column_config.NumberColumn(format="%.4f", pinned=True),
    "pair count": st.column_config.NumberColumn(
        "count(ab)", help="How often the pair occurs side by side.", width=78
    ),
    "left count": st.column_config.NumberColumn(
        "count(a)", help="How often the pair's left symbol occurs.", width=70
    ),
    "right count": st.column_config.NumberColumn(
        "count(b)", help="How often the pair's right symbol occurs.", width=70
    ),
    "fraction": st.column_config.TextColumn(
        "fraction",
        help="The score as an exact fraction: count(ab) / (count(a) × count(b)).",
        width=72,
    ),
}


merge_lesson(WordPiece)
