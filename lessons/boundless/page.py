"""The BoundlessBPE lesson: ordinary merges and supermerges across spaces compete for one
budget of merges (Schmidt et al. 2025)."""

from __future__ import annotations

from dataclasses import dataclass

from lessons.superbpe.views import SuperLesson
from lessons.ui.corpus import Corpus
from lessons.ui.merge_lesson import merge_lesson
from subtok_core import superbpe

PAGE = "boundless"


@dataclass
class Boundless(SuperLesson):
    """The settings of /boundless and what the page shows with them."""

    page, algo = PAGE, superbpe
    title = "BoundlessBPE"
    intro = (
        "BoundlessBPE (Schmidt et al. 2025): ordinary BPE's merges are replayed in order, and "
        "at each step the best supermerge (two neighbouring pre-tokens, each one token) takes "
        "the step instead when it occurs more often: both compete for one budget. Merges and "
        "ties as the reference trainer (kensho-technologies/fastboundlessbpe) makes them."
    )
    encode_beside = False

    corpus: Corpus
    pattern: str
    ties: str
    merges: int

    @classmethod
    def choose(cls, row) -> Boundless:
        corpus, pattern, ties, merges, _ = cls.common(row, 0)
        row.note(corpus.name, f"pattern {pattern}", f"ties {ties}", f"{merges} merges in all")
        return cls(corpus, pattern, ties, merges)

    def settings(self) -> tuple:
        return (self.pattern, self.ties, self.merges)

    def trainer(self, lines, report):
        return superbpe.trace_boundless(
            lines, merges=self.merges, pattern=self.pattern, ties=self.ties, progress=report
        )


merge_lesson(Boundless)
