"""The BPE lesson: step through merges on a corpus, then replay them on a new word."""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import streamlit as st

from lessons.ui import regularize
from lessons.ui.address import choice_box
from lessons.ui.chips import MARKERS, chips, show_chips
from lessons.ui.corpus import Corpus, corpus_label, corpus_select, corpus_setting, settings_caption
from lessons.ui.escape import as_text, inline_code, plain
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import MergeLesson, merge_lesson, merges_input, ties_select
from lessons.ui.steps import corpus_trace, lazy_expander
from lessons.ui.store import fingerprint, trace_store
from subtok_core import bpe
from subtok_core.bpe import explain_bpe_start, explain_bpe_step, judge_guess, reference
from subtok_core.explain import pair_text

PAGE = "bpe"
MARKER_HELP = (
    "none: plain characters (001). eow: a separate </w> after each word (003, 004). "
    "suffix: </w> glued to the last character (Hugging Face tokenizers). "
    "sow: a ▁ before each word (SentencePiece)."
)


@st.cache_data(show_spinner=False)
def reference_source() -> str:
    """The textbook loop the property tests hold the fast trainer to, as source text."""
    parts = (reference.count_pairs, reference.merge_pair, reference.learn_merges)
    return "\n\n".join(inspect.getsource(part) for part in parts)


def trained(wc, corpus_print: str, marker: str, ties: str, merges: int):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint("bpe", corpus_print, marker, ties, merges),
        lambda report: bpe.trace_bpe(wc, merges=merges, marker=marker, ties=ties, progress=report),
        "Learning merges:",
    )


@dataclass
class Bpe(MergeLesson):
    """The settings of /bpe and what the page shows with them (lessons.ui.merge_lesson)."""

    page, algo = PAGE, bpe
    title = "Byte-pair encoding"
    intro = (
        "BPE starts from single characters and, step by step, merges the pair of adjacent "
        "symbols that occurs most often in the corpus (Sennrich et al., 2016; the worked "
        "examples are from 001, 003 and 004 of the course material)."
    )

    corpus: Corpus
    marker: str
    ties: str
    merges: int
    example: str  # the encoder's first word: the corpus's own

    @classmethod
    def choose(cls, row) -> Bpe:
        """The corpus, the word-boundary marker, the tie rule and the merges, in the row."""
        c1, c2, c3, c4 = row.columns([3, 1, 1, 1])
        corpus = corpus_select(c1)
        marker = choice_box(
            c2,
            "word-boundary marker",
            bpe.MARKERS,
            "marker",
            corpus_setting(corpus, "marker", bpe.MARKERS[0]),  # the corpus's source's, else none
            help=MARKER_HELP,
        )
        ties = ties_select(c3, bpe.TIE_RULES, corpus_setting(corpus, "ties", bpe.TIE_RULES[0]))
        merges = merges_input(c4, corpus_setting(corpus, "merges", 10))
        settings_caption(c1, corpus.name, marker=marker, ties=ties)
        row.note(corpus_label(corpus.name), f"marker {marker}", f"ties {ties}", f"{merges} merges")
        example = corpus_setting(corpus, "encode", "lowest", widget_key(PAGE, "encode"))
        return cls(corpus, marker, ties, merges, example)

    def train(self, row):
        run = corpus_trace(
            self.corpus.name,
            PAGE,
            lambda wc, corpus_print: trained(wc, corpus_print, self.marker, self.ties, self.merges),
            algorithm="bpe",
            size=self.merges,  # close enough to the vocab size for the upload's time estimate
            row=row,
        )
        self.split_punct = run.split_punct
        return run.trace

    def explain(self, trace, i: int, step) -> str:
        if step is None:
            return explain_bpe_start(trace.start, self.marker)
        return explain_bpe_step(step, self.ties)

    def judge(self, guess, nxt):
        return judge_guess(guess, nxt, self.ties)

    def encode(self, trace, i: int) -> None:
        encode_panel(self.model(trace, i), self.example)

    def extras(self, trace, i: int) -> None:
        with lazy_expander("BPE-dropout: the same word cut differently", PAGE, "dropout") as box:
            if box.open:
                regularize.dropout_panel(self.model(trace, i), PAGE)

    def downloads(self, trace) -> None:
        super().downloads(trace)
        with st.expander("Read the code: BPE as a textbook loop"):
            st.caption(
                "The loop below recounts every pair before every merge. The page's trainer "
                "keeps the counts up to date instead (much faster on real samples); the tests "
                "check on thousands of random corpora that both make the same merges with the "
                "same counts, under every tie rule and marker."
            )
            st.code(reference_source(), language="python")


def encode_panel(model, example: str) -> None:
    st.subheader("Encode a word")
    st.caption("The merges learned so far are replayed in the order they were learned.")
    text = st.text_input("word or words to encode", example, key=widget_key(PAGE, "encode"))
    try:
        seg = bpe.segment(model, text)
    except ValueError as err:
        st.error(plain(str(err)))
        return
    for word in seg.words:
        lines = [
            f"<div><b>{as_text(word.word)}</b>: start {chips(word.initial, (), MARKERS)}</div>"
        ]
        for number, pair, symbols in word.applied:
            lines.append(
                f"<div>merge {number} {as_text(pair_text(pair))} → "
                f"{chips(symbols, {pair[0] + pair[1]}, MARKERS)}</div>"
            )
        if not word.applied:
            lines.append("<div>no learned merge applies</div>")
        show_chips("".join(lines))
    if any(t.text == bpe.UNK for t in seg.tokens):
        st.info(
            "[UNK] stands for a character never seen in training: BPE cannot build it "
            "from the vocabulary, so each such character becomes one unknown token."
        )
    st.write(f"**{len(seg.tokens)} tokens:** " + " ".join(inline_code(t.text) for t in seg.tokens))


merge_lesson(Bpe)
