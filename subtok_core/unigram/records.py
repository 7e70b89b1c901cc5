"""Unigram LM records: the seed, one step (shared by the textbook and EM variants), the model.

>>> PieceRow("ru", 20, 20 / 155).piece
'ru'
>>> UnigramModel(("a", "b", "ab"), (-2.0, -2.0, -1.0), ("a", "b")).vocab
('a', 'b', 'ab')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


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


@dataclass(frozen=True, slots=True)
class UnigramModel:
    """Pieces with their log-probabilities (natural log); ``marker`` is "none" or "sow"."""

    algorithm: ClassVar[str] = "unigram"
    pieces: tuple[str, ...]
    logprobs: tuple[float, ...]
    alphabet: tuple[str, ...]
    marker: str = "none"
    split_punct: bool = False

    @property
    def vocab(self) -> tuple[str, ...]:
        return self.pieces
