"""The SuperBPE lesson: ordinary byte-level BPE up to the transition point, then
supermerges that join neighbouring words (Liu et al., COLM 2025)."""

from __future__ import annotations

from dataclasses import dataclass

from lessons.superbpe.views import SuperLesson
from lessons.ui.address import number_box
from lessons.ui.corpus import Corpus
from lessons.ui.merge_lesson import merge_lesson
from subtok_core import superbpe

PAGE = "superbpe"


@dataclass
class SuperBpe(SuperLesson):
    """The settings of /superbpe and what the page shows with them."""

    page, algo = PAGE, superbpe
    title = "SuperBPE"
    intro = (
        "SuperBPE (Liu et al., COLM 2025): byte-level BPE inside pre-tokens up to a "
        "transition point, then supermerges join neighbouring pre-tokens that are each one "
        'token and hold a letter, so " of the people" can become one token. Merges and ties '
        "as the reference trainer (kensho-technologies/fastboundlessbpe) makes them."
    )
    encode_beside = False

    corpus: Corpus
    pattern: str
    ties: str
    merges: int
    supermerges: int
    max_words: int  # the most words one token may join (0: no limit)

    @classmethod
    def choose(cls, row) -> SuperBpe:
        corpus, pattern, ties, merges, (extra, cap) = cls.common(row, 2)
        supers = int(number_box(
            extra, "supermerges", "supermerges", 0, 2000, 8, 1,
            "merges after the transition point: each joins neighbouring pre-tokens",
        ))  # fmt: skip
        most = int(number_box(
            cap, "most words per token", "max_words", 0, 64, 0, 1,
            "0: no limit, as the reference trainer; the SuperBPE paper allows 4 words",
        ))  # fmt: skip
        said = f"at most {most} words" if most else "any number of words"
        row.note(corpus.name, f"pattern {pattern}", f"ties {ties}",
                 f"transition after {merges} merges", f"{supers} supermerges", said)  # fmt: skip
        return cls(corpus, pattern, ties, merges, supers, most)

    def settings(self) -> tuple:
        return (self.pattern, self.ties, self.merges, self.supermerges, self.max_words)

    def trainer(self, lines, report):
        return superbpe.trace_superbpe(
            lines, merges=self.merges, supermerges=self.supermerges, pattern=self.pattern,
            ties=self.ties, max_words=self.max_words, progress=report,
        )  # fmt: skip


merge_lesson(SuperBpe)
