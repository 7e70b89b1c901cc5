"""A merge lesson (BPE, WordPiece, byte-level BPE): one page shape, and the pieces they
show the same way.

merge_lesson draws the page from top to bottom: the title, the settings row, the corpus and
the run, then the steps (the step's sentence, its pairs beside the corpus and vocabulary,
the class poll, the growth chart, the prediction and the encoder), then the downloads. What
each algorithm has of its own (its settings, its trainer, its sentence, its table, how it
writes a pair and judges a guess, its encoder) is a MergeLesson its page writes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType

import pandas as pd
import streamlit as st

from lessons.poll import panel
from lessons.ui import cached, export
from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.chips import show_corpus, show_vocab
from lessons.ui.corpus import Corpus
from lessons.ui.escape import plain
from lessons.ui.export import downloads
from lessons.ui.keys import widget_key
from lessons.ui.present import SettingsRow, end_of_step_view, page_head, settings_row
from lessons.ui.steps import start_over, stepped
from lessons.ui.store import run_key
from lessons.ui.tables import status_of, table_panel
from subtok_core import limits
from subtok_core.charts import lessons as viz
from subtok_core.explain import pair_text

TIES_HELP = (
    "first: the pair seen first in the corpus (reproduces the course material). "
    "lex: the alphabetically smallest pair. tokenizers: the pair with the oldest symbols, "
    "as Hugging Face tokenizers."
)


# --- the page --------------------------------------------------------------------------


class MergeLesson:
    """What one merge lesson has of its own. Each page writes one as a dataclass of its
    settings (with at least `corpus` and `ties`), made by `choose` from the settings row,
    and the functions below, which show what those settings give; merge_lesson calls them.
    `trace` is the run, `i` the step shown and `step` the run's step i (None at step 0,
    before the first merge)."""

    page: str  # its address and its keys' prefix ("bpe")
    title: str  # the page's title
    intro: str  # its one-paragraph introduction
    algo: ModuleType  # the core's module of the algorithm: its model_from_trace, corpus_at
    popovers: dict[str, str] | None = None  # the settings row's views: {label: icon}
    columns = (2, 3)  # the step's two columns: its pairs | the corpus and the vocabulary
    poll = True  # the class poll under the step
    encode_beside = True  # the encoder beside the prediction (else under it)

    corpus: Corpus  # the corpus chosen, and whether the student has just chosen it
    split_punct = False  # its words split with punctuation off (train sets it: corpus_trace)
    ties: str  # the tie rule

    @classmethod
    def choose(cls, row: SettingsRow) -> MergeLesson:
        """The page's settings, drawn in the settings row; the lesson they make."""
        raise NotImplementedError

    def train(self, row: SettingsRow):
        """The corpus panel (in `row`'s popover, or on the page for a text to type or a
        file to upload), then the trace trained on it, with a progress bar; stops the page
        (after saying why) when there is nothing to train."""
        raise NotImplementedError

    def explain(self, trace, i: int, step) -> str:
        """The step's sentence: what was merged and why (or where the run starts)."""
        raise NotImplementedError

    def pairs(self, trace, i: int, step) -> None:
        """The pairs before merge i with their counts (or scores), the merged pair and
        those tied with it marked; drawn once per run and step."""
        draw = functools.partial(pair_counts_panel, trace, i, step, self.pair_label)
        cached.drawn(run_key(trace), (f"{self.page} pairs", i), draw)

    def corpus_view(self, trace, i: int, new: set[str]) -> None:
        """The corpus after step i and the vocabulary, the step's `new` symbol marked."""
        corpus_and_vocab(trace, i, new, self.algo)

    def pair_label(self, pair: tuple[str, str]) -> str:
        """A pair as the student reads it in the prediction's list."""
        return pair_text(pair)

    def judge(self, guess: tuple[str, str], nxt) -> tuple[bool, str]:
        """Whether `guess` is the pair merged at step `nxt`, and why (a sentence)."""
        raise NotImplementedError

    def encode(self, trace, i: int) -> None:
        """A word typed by the student, encoded with the merges (or vocabulary) of step i."""
        raise NotImplementedError

    def under_step(self, trace, step) -> None:
        """Anything more under the step's two columns (nothing by default)."""

    def predict(self, trace, i: int) -> None:
        """The student's prediction of step i + 1 (by default: which pair merges next)."""
        predict_panel(trace, i, self.judge, self.pair_label, self.page)

    def extras(self, trace, i: int) -> None:
        """Panels under the encoder (nothing by default)."""

    def model(self, trace, i: int | None = None):
        """The model after the first i merges (all of them by default)."""
        return self.algo.model_from_trace(trace, i, split_punct=self.split_punct)

    def downloads(self, trace) -> None:
        """The run's downloads and the whole model's tokenizer.json, under the steps."""
        downloads(trace, self.page)
        export.hf_download(lambda: self.model(trace), self.page, "hf", export.run_ident(trace))


def merge_lesson(kind: type[MergeLesson]) -> None:
    """The page of a merge lesson (`kind`: Bpe, WordPiece, ByteBpe), from top to bottom."""
    page = kind.page
    page_head(kind.title, kind.intro)
    row = settings_row(page, views=kind.popovers)
    lesson = kind.choose(row)
    if lesson.corpus.changed:  # a new corpus starts before its first merge
        start_over()
    trace = lesson.train(row)

    def step_view(i: int, step) -> None:
        """Everything that shows step i (rerun alone when the step changes: stepped)."""
        st.info(plain(lesson.explain(trace, i, step)))
        new = set() if step is None else {step.new_symbol}
        left, right = st.columns(lesson.columns)
        with left:
            lesson.pairs(trace, i, step)
        with right:
            lesson.corpus_view(trace, i, new)
        lesson.under_step(trace, step)

        poll = None
        if lesson.poll:
            question = "everyone predicts the next merge"
            poll = panel.class_poll(page, trace, i, lesson.corpus.name, question)
        end_of_step_view(poll)  # the poll just under the step; at the projector, the end
        growth_chart(trace, i)

        if lesson.encode_beside:
            left, right = st.columns(2)
            with left:
                lesson.predict(trace, i)
            with right:
                lesson.encode(trace, i)
        else:
            lesson.predict(trace, i)
            lesson.encode(trace, i)
        lesson.extras(trace, i)

    stepped(trace, step_view, page, poll=lesson.poll)
    lesson.downloads(trace)


# --- the pieces ----------------------------------------------------------------------------


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
        lambda: viz.pair_count_chart(table),
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
