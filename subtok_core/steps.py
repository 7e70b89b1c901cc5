"""Record types shared by every algorithm: Span, Trace, SegmentTrace.

Every record is a frozen dataclass of tuples, so traces pickle (``st.cache_data``) and
compare by value (two runs of a trainer give equal traces).

>>> Span("at", 1, 3).text
'at'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Markers and the unknown token, spelled the same by every algorithm.
SOW = "\u2581"  # ▁, SentencePiece's word-start symbol
EOW = "</w>"  # end of word, as the 003 slides and the 004 blog
UNK = "[UNK]"


@dataclass(frozen=True, slots=True)
class Span:
    """One token of an encoded text: its string and the characters [start, end) it covers.

    Markers such as ``</w>`` or ``▁`` cover no character, so a lone marker has start == end.
    """

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Trace:
    """A whole training run: the state before the first step, then one record per step.

    ``truncated`` is True when training stopped before the requested size, and
    ``stop_reason`` says why in a sentence; ``compact`` is True when steps keep only the
    step itself (real samples) rather than a full snapshot of the corpus.
    """

    algorithm: str
    params: tuple[tuple[str, Any], ...]
    start: Any
    steps: tuple[Any, ...]
    truncated: bool
    stop_reason: str
    compact: bool

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@dataclass(frozen=True, slots=True)
class SegmentTrace:
    """An encoded text: its tokens as spans, and per word the trace of how they were found."""

    text: str
    tokens: tuple[Span, ...]
    words: tuple[Any, ...]

    @property
    def pieces(self) -> list[str]:
        return [span.text for span in self.tokens]


# --- Unigram LM records (textbook and EM variants share them) --------------------------


@dataclass(frozen=True, slots=True)
class PieceRow:
    """One vocabulary entry: its frequency (textbook: substring frequency; EM: expected
    count) and its probability at that point of training."""

    piece: str
    freq: float
    prob: float


@dataclass(frozen=True, slots=True)
class WordBest:
    """A corpus word's best (Viterbi) segmentation under the current probabilities."""

    word: str
    count: int
    pieces: tuple[str, ...]
    logprob: float  # natural log of P(best segmentation)
    ties: int  # how many other segmentations have the same probability


@dataclass(frozen=True, slots=True)
class UnigramStart:
    """The seed vocabulary before the first step."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    alphabet: tuple[str, ...]
    vocab: tuple[PieceRow, ...]
    seed: str  # one sentence saying how the seed was made


@dataclass(frozen=True, slots=True)
class UnigramStep:
    """One step of a Unigram run: ``kind`` is "e", "m" or "prune".

    ``vocab`` is the vocabulary after the step (in compact traces only the most probable
    rows, except on the last step); ``loss`` the corpus loss after it, in the run's log
    base (always the natural log for EM); ``removal`` pairs each candidate piece with the
    corpus loss without it, smallest increase first; ``removed`` the pieces this step
    pruned.
    """

    number: int
    round: int
    kind: str
    vocab: tuple[PieceRow, ...]
    vocab_size: int
    loss: float
    segmentations: tuple[WordBest, ...] | None
    removal: tuple[tuple[str, float], ...]
    removed: tuple[str, ...]
    note: str
