"""What the SuperBPE and BoundlessBPE pages share: their MergeLesson (the settings, the
corpus panel, the step's stage, the encoder), on the merge-lesson skeleton."""

from __future__ import annotations

import html

import streamlit as st

from lessons.ui import cached
from lessons.ui.address import choice_box
from lessons.ui.chips import show_chips
from lessons.ui.corpus import TEXT, UPLOAD, Corpus, corpus_select
from lessons.ui.export import downloads
from lessons.ui.keys import widget_key
from lessons.ui.merge_lesson import MergeLesson, merges_input
from lessons.ui.shipped import shipped_lines
from lessons.ui.store import fingerprint, run_key, trace_store
from subtok_core import superbpe
from subtok_core.bytebpe.symbols import show, to_bytes
from subtok_core.superbpe import io as super_io
from subtok_core.superbpe.encode import encoder

DEFAULT_CORPUS = "toy:by-the-way"
FIRST_SENTENCE = "by the way, of the people, by the people, for the people."
PATTERN_HELP = (
    "o200k: GPT-4o's pattern, as the reference trainers use (a space stays with the word "
    "after it). gpt2: GPT-2's. cl100k: GPT-4's."
)
TIES_HELP = (
    "smallest: of the pairs with the highest count, the smallest comparing bytes (a space "
    "comes before letters), as BoundlessBPE's reference trainer breaks ties. first: the pair "
    "seen first in the corpus."
)


CSS = (
    "<style>.sb .chip {white-space: pre;}"
    " .sb .word {display: inline-block; white-space: normal; margin-right: .8em;}</style>"
)


def token_chips(symbols, new: set[str]) -> str:
    """Tokens (GPT-2 letters) as chips showing their text (a space stays a space, other
    bytes as <hex>); the step's new token red with "new token" for a screen reader."""
    said = '<span class="sr-only"> (new token)</span>'
    return "".join(
        f'<span class="chip{" new" if s in new else ""}">{html.escape(show(s, "hex"))}</span>'
        + (said if s in new else "")
        for s in symbols
    )


def lines_and_vocab(trace, i: int, new: set[str]) -> None:
    """The corpus's lines after step i as chips with their counts, and the tokens learned."""
    st.subheader("Corpus" + (f" after merge {i}" if i else ""))
    rows = superbpe.corpus_at(trace, i)
    show_chips(
        "".join(
            f'<div class="word">{token_chips(tokens, new)} '
            f'<small aria-hidden="true">× {n}</small>'
            f'<span class="sr-only">, {len(tokens)} tokens, {n} times</span></div>'
            for _line, n, tokens in rows
        ),
        css=CSS,
        kind="sb",
    )
    if len(trace.start.words) > len(rows):
        st.caption(f"The first {len(rows)} of {len(trace.start.words):,} distinct lines.")
    learned = superbpe.model_from_trace(trace, i).vocab[256:]
    st.subheader(f"Vocabulary: 256 bytes + {len(learned):,} learned")
    none = "<small>nothing learned yet</small>"
    show_chips(token_chips(learned, new) or none, css=CSS, kind="sb")


class SuperLesson(MergeLesson):
    """What the two pages share; each page says its trainer and its own settings."""

    corpus: Corpus
    pattern: str
    ties: str
    merges: int

    @staticmethod
    def common(row, extra: int):
        """The corpus, pattern, tie rule and merges boxes, and `extra` more columns."""
        cols = row.columns([3, 1.2, 1.4, 1] + [1] * extra)
        corpus = corpus_select(cols[0], default=DEFAULT_CORPUS)
        pattern = choice_box(
            cols[1], "pre-split pattern", superbpe.PATTERNS, "pattern", "o200k", help=PATTERN_HELP
        )
        ties = choice_box(
            cols[2], "tie rule", superbpe.TIE_RULES, "ties", "smallest",
            format_func=superbpe.TIE_TITLES.get, help=TIES_HELP,
        )  # fmt: skip
        merges = merges_input(cols[3], 32)
        return corpus, pattern, ties, merges, cols[4:]

    def corpus_lines(self, row):
        """The lines to train on and their fingerprint (None: nothing to train on yet)."""
        name, page = self.corpus.name, self.page
        if name == UPLOAD:
            st.info("This lesson trains on a toy corpus or a text you type (one line each).")
            return None
        if name == TEXT:
            text = st.text_area(
                "Your text, one document per line", "\n".join([FIRST_SENTENCE] * 3),
                key=widget_key(page, "text"),
            )  # fmt: skip
            lines = tuple(line for line in text.splitlines() if line.strip())
            return lines, fingerprint(lines)
        lines, key = shipped_lines(name)
        return lines, key

    def train(self, row):
        found = self.corpus_lines(row)
        if found is None:
            st.stop()
        lines, corpus_print = found
        try:
            return trace_store().trained(
                fingerprint(self.page, corpus_print, *self.settings()),
                lambda report: self.trainer(lines, report),
                "Learning merges:",
            )
        except ValueError as err:
            st.error(str(err))
            st.stop()

    def settings(self) -> tuple:
        raise NotImplementedError

    def trainer(self, lines, report):
        raise NotImplementedError

    def explain(self, trace, i: int, step) -> str:
        return superbpe.explain(trace, i)

    def corpus_view(self, trace, i: int, new: set[str]) -> None:
        draw = lambda: lines_and_vocab(trace, i, new)  # noqa: E731
        cached.drawn(run_key(trace), (f"{self.page} corpus", i, tuple(sorted(new))), draw)

    def pair_label(self, pair) -> str:
        return superbpe.pair_label(pair)

    def judge(self, guess, nxt):
        return superbpe.judge_guess(guess, nxt, self.ties)

    def model(self, trace, i: int | None = None):
        return superbpe.model_from_trace(trace, i)

    def under_step(self, trace, step) -> None:
        """The step's stage in words (never by colour alone)."""
        if step is None:
            return
        if step.stage == superbpe.SUPER:
            said = f"Stage: supermerge. The new token joins {step.words} pre-tokens (words)."
        else:
            said = "Stage: ordinary merge, inside one pre-token."
        supers = sum(s.stage == superbpe.SUPER for s in trace.steps[: step.number])
        st.caption(f"{said} Supermerges so far: {supers} of {step.number} merges.")

    def encode(self, trace, i: int) -> None:
        """A text typed by the student, cut by the model after merge i."""
        st.subheader("Encode a text")
        page = self.page
        text = st.text_input(
            f"A text to cut with the model after merge {i}", FIRST_SENTENCE,
            key=widget_key(page, "encode"),
        )  # fmt: skip
        if not text.strip():
            st.warning("Type a word or a text to encode.")
            return
        cut = encoder(self.model(trace, i))
        groups = cut.groups(text)
        tokens = [token for _, group in groups for token in group]
        st.write(f"{len(tokens)} tokens:")
        st.code(" | ".join(show(t, "hex") for t in tokens), language=None, wrap_lines=True)
        pattern = trace.param("pattern")
        joined = list(dict.fromkeys(t for t in tokens if len(superbpe_split(t, pattern)) > 1))
        if joined:
            st.caption(
                "Tokens that cross a space: " + ", ".join(f'"{show(t, "hex")}"' for t in joined)
            )

    def downloads(self, trace) -> None:
        downloads(trace, self.page, csv=("merges (CSV)", super_io.steps_csv))


def superbpe_split(token: bytes, pattern: str) -> list[str]:
    return superbpe.presplit.split(token.decode("utf-8", errors="replace"), pattern)


def text_of(symbol: str) -> str:
    return to_bytes(symbol).decode("utf-8", errors="replace")
