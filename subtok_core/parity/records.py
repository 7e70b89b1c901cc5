"""Parity-aware BPE's records as the lab steps through them: the start, one merge with
the dev lengths before and after it, and the model (plain BPE merges: the paper's encoder
is ordinary BPE; only the choice of merges differs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..bpe.records import BpeModel

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class ParityStart:
    """Before the first merge: the languages in order, each dev set as given (text), their
    lengths in characters, the characters of every training corpus (the vocabulary), and
    the training corpora's length in symbols."""

    languages: tuple[str, ...]
    dev_texts: tuple[str, ...]
    dev_lengths: tuple[int, ...]
    vocab: tuple[str, ...]
    corpus_symbols: int
    pair_table: tuple[tuple[str, str, int], ...] = ()
    words: tuple[str, ...] = ()  # every language's training words, language by language
    counts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ParityRecord:
    """One merge: the language it served (None: a global merge, chosen on every language's
    counts), the dev tokens per language before and after it, the pair and its count in
    each training corpus, the pairs tied with it and the serving counts' top pairs
    (``pair_table``, most frequent first, a tie greater first)."""

    number: int
    language: str | None
    dev_before: tuple[int, ...]
    dev_after: tuple[int, ...]
    pair: Pair
    counts: tuple[int, ...]
    tied_with: tuple[Pair, ...]
    pair_table: tuple[tuple[str, str, int], ...]
    vocab_size: int
    corpus_symbols: int

    @property
    def new_symbol(self) -> str:
        return self.pair[0] + self.pair[1]

    @property
    def count(self) -> int:
        """The pair's count in the counts that chose it."""
        return self.pair_table[0][2] if self.pair_table else sum(self.counts)


@dataclass(frozen=True, slots=True)
class ParityModel(BpeModel):
    """BPE merges in the order learned (no word marker, as the reference reads words),
    named as parity-aware BPE's: saved, loaded and encoded as BPE's."""

    algorithm: ClassVar[str] = "parity"
