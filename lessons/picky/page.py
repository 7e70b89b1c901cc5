"""The Picky BPE lesson (Chizhov et al., EMNLP 2024): step through merges and the splits
that remove a merge's part when its IoS exceeds τ; then replay the events on a word."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from lessons.picky import views
from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.corpus import Corpus, corpus_label, corpus_select, corpus_setting
from lessons.ui.export import downloads
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import MergeLesson, merge_lesson
from lessons.ui.steps import corpus_trace
from lessons.ui.store import fingerprint, trace_store
from subtok_core import limits, picky
from subtok_core.corpus import is_toy

PAGE = views.PAGE
TIES = ("first seen",)  # the reference's rule, the only one here
TIES_HELP = (
    "first seen: among pairs of equal count, the one that entered the pair table first (at "
    "the start word by word, left to right; later as merges and splits make them), as the "
    "authors' trainer breaks ties."
)
SIZE_HELP = (
    "Counted as the authors' trainer counts it: its 4 special tokens, the characters (▁ "
    "included), one more per merge, one less per split. The run stops there or when no "
    "pair is left."
)
THRESHOLD_HELP = (
    "τ: after a merge, a part whose IoS (the share of its occurrences the merge took) "
    "exceeds τ is removed. 1 removes nothing (plain BPE); the paper tries 0.6 to 0.9."
)


def start_size(corpus: Corpus) -> int:
    """The vocabulary size a corpus starts from on this page: the issue's 25 on the course's
    low-lower (4 special tokens, 11 characters, 10 more), room for merges on the other toys
    (up to 41 characters and specials) and on real text (the Lee sample starts at 84)."""
    if corpus.name == "toy:low-lower":
        return 25
    return 60 if is_toy(corpus.name) else 500


def trained(wc, corpus_print: str, vocab_size: int, threshold: float):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint(PAGE, corpus_print, vocab_size, threshold),
        lambda report: picky.trace_picky(
            wc, vocab_size=vocab_size, threshold=threshold, progress=report
        ),
        "Merging and removing:",
    )


@dataclass
class Picky(MergeLesson):
    """The settings of /picky and what the page shows with them (lessons.ui.merge_lesson)."""

    page, algo = PAGE, picky
    title = "Picky BPE"
    intro = (
        "Picky BPE (Chizhov et al., EMNLP 2024) is BPE that tidies up as it goes: after each "
        "merge x1 + x2 → x1x2 it asks of each part x how much of it the merge took, "
        "IoS = f(x1x2) / f(x). A part above the threshold τ is now mostly inside the new "
        "token, an intermediate token: it is removed, and its occurrences left fall back "
        "to the tokens it was made of. A removed token can come back with a later merge."
    )

    corpus: Corpus
    vocab_size: int
    threshold: float
    ties: str
    example: str  # the encoder's first word: the corpus's own

    @classmethod
    def choose(cls, row) -> Picky:
        """The corpus, the vocabulary size, τ and the tie rule, in the settings row."""
        c1, c2, c3, c4 = row.columns([3, 1, 1, 1])
        corpus = corpus_select(c1, default="toy:low-lower")
        top = int(limits.limit("vocab_size", "web"))
        default = corpus_setting(corpus, "size", start_size(corpus))
        size_help = limit_help("vocab_size", SIZE_HELP)
        size = int(number_box(c2, "vocab size", "size", 2, top, default, 1, size_help))
        threshold = float(
            number_box(c3, "threshold τ", "threshold", 0.05, 1.0, 0.9, 0.05, THRESHOLD_HELP)
        )
        ties = choice_box(c4, "tie rule", TIES, "ties", TIES[0], help=TIES_HELP)
        row.note(corpus_label(corpus.name), f"vocab size {size}", f"τ {threshold:g}", ties)
        example = corpus_setting(corpus, "encode", "lowest", widget_key(PAGE, "encode"))
        return cls(corpus, size, threshold, ties, example)

    def train(self, row):
        run = corpus_trace(
            self.corpus.name,
            PAGE,
            lambda wc, corpus_print: trained(wc, corpus_print, self.vocab_size, self.threshold),
            algorithm="picky",
            size=self.vocab_size,
            row=row,
        )
        self.split_punct = run.split_punct
        return run.trace

    def explain(self, trace, i: int, step) -> str:
        return picky.explain(trace, i)

    def pairs(self, trace, i: int, step) -> None:
        views.pair_panel(trace, i, step)

    def corpus_view(self, trace, i: int, new: set[str]) -> None:
        views.corpus_view(trace, i, trace.steps[i - 1] if i else None)

    def under_step(self, trace, step) -> None:
        views.ios_panel(trace, 0 if step is None else step.number, step)

    def judge(self, guess, nxt):
        return picky.judge_guess(guess, nxt)

    def predict(self, trace, i: int) -> None:
        views.predict(trace, i)

    def encode(self, trace, i: int) -> None:
        views.encode_panel(self.model(trace, i), self.example)

    def downloads(self, trace) -> None:
        downloads(trace, PAGE)  # no tokenizer.json: no tokenizers model holds splits
        st.caption(
            "The same run on the command line: `subtok train picky --corpus "
            f"{self.corpus.name} --vocab-size {self.vocab_size} --threshold "
            f"{self.threshold:g} --json`."
        )


merge_lesson(Picky)
