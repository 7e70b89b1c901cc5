"""The byte-level BPE lesson: a regular expression cuts the text into chunks, then BPE
merges UTF-8 bytes, step by step; the encoder replays merges rank by rank, also with
GPT-4's cl100k_base."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from lessons.bytebpe import replay, views
from lessons.ui import cached
from lessons.ui.address import choice_box
from lessons.ui.corpus import TEXT, UPLOAD, Corpus, corpus_select
from lessons.ui.escape import plain
from lessons.ui.export import downloads
from lessons.ui.merge_lesson import MergeLesson, merge_lesson, merges_input, ties_select
from lessons.ui.present import presenting
from lessons.ui.store import fingerprint, run_key, trace_store
from subtok_core import bytebpe
from subtok_core.bytebpe import io as bytebpe_io
from subtok_core.merging import TIE_RULES

PAGE = views.PAGE
PATTERN_HELP = (
    "gpt2: GPT-2's regular expression (a space stays with the word after it). cl100k: "
    "GPT-4's (numbers in groups of three). none: words split at whitespace, which is dropped."
)
PRESPLIT = "The pre-split"


def trained(lines, corpus_print: str, pattern: str, ties: str, merges: int):
    """The whole trace for these choices: trained once with a progress bar, then kept."""
    return trace_store().trained(
        fingerprint(PAGE, corpus_print, pattern, ties, merges),
        lambda report: bytebpe.trace_bytebpe(
            lines, merges=merges, pattern=pattern, ties=ties, progress=report
        ),
        "Learning merges:",
    )


@dataclass
class ByteBpe(MergeLesson):
    """The settings of /bytebpe and what the page shows with them (lessons.ui.merge_lesson)."""

    page, algo = PAGE, bytebpe
    title = "Byte-level BPE"
    intro = (
        "GPT-2, GPT-4 and most models since train BPE on bytes, not characters: a regular "
        "expression first cuts the text into chunks, each chunk becomes its UTF-8 bytes (256 "
        "base symbols, so no character is ever unknown), and merges are learned on the chunks. "
        "An emoji is 4 bytes and a Chinese character 3, so they may take several tokens."
    )
    popovers = {PRESPLIT: ":material/content_cut:"}  # the pre-split, beside the settings
    encode_beside = False  # the encoder replays a whole text: it needs the width

    corpus: Corpus
    pattern: str  # the pre-split's regular expression
    ties: str
    merges: int
    style: str  # how bytes are written: "hex" or "gpt2"

    @classmethod
    def choose(cls, row) -> ByteBpe:
        """The corpus, the pre-split pattern, the tie rule, the merges and how bytes are shown."""
        c1, c2, c3, c4, c5 = row.columns([3, 1.2, 1, 1, 1.3])
        corpus = corpus_select(c1, default="toy:emoji-cjk")
        pattern = choice_box(
            c2, "pre-split pattern", bytebpe.PATTERNS, "pattern", "gpt2", help=PATTERN_HELP
        )
        ties = ties_select(c3, TIE_RULES)
        merges = merges_input(c4)
        style = choice_box(
            c5,
            "bytes shown as",
            bytebpe.STYLES,
            "bytes",
            "hex",
            format_func=views.DISPLAY_LABELS.get,
            help="text + <hex>: whole characters as themselves, any other byte as its hex value "
            "(<F0 9F> is half an emoji). GPT-2 letters: one letter per byte, as Hugging Face "
            "tokenizers writes merges (Ġ is a space, Ċ a line break).",
        )
        name = corpus.name
        row.note(  # short: one line beside two buttons (the corpus's title is in the popover)
            name.split(":", 1)[-1] if name in (TEXT, UPLOAD) else name,
            f"pattern {pattern}",
            f"ties {ties}",
            f"{merges} merges",
            f"bytes as {views.DISPLAY_LABELS[style]}",
        )
        return cls(corpus, pattern, ties, merges, style)

    def train(self, row):
        found = views.corpus_lines(self.corpus.name, row)
        if found is None:
            st.stop()
        lines, corpus_print = found
        try:
            trace = trained(lines, corpus_print, self.pattern, self.ties, self.merges)
        except ValueError as err:
            st.error(plain(str(err)))
            st.stop()
        if not presenting():  # at the projector: the merges only; here one button
            with row.views[PRESPLIT]:
                views.presplit_panel(lines, self.pattern, self.style)
        return trace

    def explain(self, trace, i: int, step) -> str:
        return bytebpe.explain(trace, i)

    def pairs(self, trace, i: int, step) -> None:  # drawn once per run, step and display
        cached.drawn(
            run_key(trace), ("bytebpe pairs", i, self.style),
            lambda: views.pair_panel(trace, i, step, self.style),
        )  # fmt: skip

    def corpus_view(self, trace, i: int, new: set[str]) -> None:
        views.chunks_and_vocab(trace, i, new, self.style)

    def pair_label(self, pair) -> str:
        return views.pair_label(pair, self.style)

    def judge(self, guess, nxt):
        return bytebpe.judge_guess(guess, nxt, self.ties)

    def encode(self, trace, i: int) -> None:
        replay.replay_panel(trace, i, self.style)

    def extras(self, trace, i: int) -> None:
        model = bytebpe.model_from_trace(trace, i)
        with st.expander("BPE-dropout on bytes: the same text cut differently"):
            replay.dropout_panel(model, self.style)

    def downloads(self, trace) -> None:
        # the CSV writes bytes in the display chosen here; the JSON always in GPT-2 letters
        csv = ("merges (CSV)", lambda run: bytebpe_io.steps_csv(run, self.style))
        downloads(trace, PAGE, csv=csv)


merge_lesson(ByteBpe)
