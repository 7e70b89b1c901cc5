"""BPE's records: the state before the first merge, one merge, the model, one encoded word.

A word's first symbols under each marker (``MARKERS``) come from ``subtok_core.markers``,
the one place that knows the markers:

>>> initial_symbols("low", "eow"), initial_symbols("low", "suffix")
(['l', 'o', 'w', '</w>'], ['l', 'o', 'w</w>'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..markers import BPE_MARKERS as MARKERS
from ..markers import initial_symbols

__all__ = ["MARKERS", "BpeModel", "BpeStart", "BpeStep", "BpeWordTrace", "Pair", "initial_symbols"]

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class BpeStart:
    """The corpus before the first merge."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    vocab: tuple[str, ...]
    segmentations: tuple[tuple[str, ...], ...] | None
    pair_table: tuple[tuple[str, str, int], ...]
    corpus_symbols: int


@dataclass(frozen=True, slots=True)
class BpeStep:
    """One merge: the pair table it chose from, the pair, and the corpus after it."""

    number: int
    pair: Pair
    count: int
    new_symbol: str
    tied_with: tuple[Pair, ...]
    pair_table: tuple[tuple[str, str, int], ...]
    vocab_size: int
    corpus_symbols: int
    segmentations: tuple[tuple[str, ...], ...] | None
    new_in_vocab: bool


@dataclass(frozen=True, slots=True)
class BpeModel:
    """Merges in the order they were learned, the vocabulary, the alphabet seen in training."""

    algorithm: ClassVar[str] = "bpe"
    merges: tuple[Pair, ...]
    vocab: tuple[str, ...]
    alphabet: tuple[str, ...]
    marker: str
    split_punct: bool = False


@dataclass(frozen=True, slots=True)
class BpeWordTrace:
    """How one word was encoded: its first symbols, then (merge number, pair, symbols after)."""

    word: str
    start: int
    initial: tuple[str, ...]
    applied: tuple[tuple[int, Pair, tuple[str, ...]], ...]
    widths: tuple[int, ...]  # characters of the word each final symbol covers

    @property
    def final(self) -> tuple[str, ...]:
        return self.applied[-1][2] if self.applied else self.initial
