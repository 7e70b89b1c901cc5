"""WordPiece's records: a scored pair, the start state, one merge, the model, one encoded word.

>>> initial_symbols("low"), fraction_text(Fraction(3, 9))
(['l', '##o', '##w'], '1/3')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, NamedTuple

from ..markers import PREFIX  # noqa: F401  (WordPiece's continuation mark, kept here too)
from ..records import UNK

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")  # BERT's, in BERT's order
MAX_WORD_CHARS = 100  # BERT encodes a longer word as [UNK] without trying

# The Hugging Face course (chapter 6.6) slips on its own hug/pug example; the page shows this.
HF_COURSE_NOTE = (
    "The Hugging Face course says that after the merges (##g, ##s) and (h, ##u) the pairs "
    "(hu, ##g) and (hu, ##gs) tie at 1/15, 'compared to 1/21 for all the other pairs', and "
    "merges hug. That is an arithmetic slip: ##g still occurs 15 times (hug 10 + pug 5) and "
    "hu 15 times, so (hu, ##g) scores 10 / (15 x 15) = 2/45, and (##u, ##g) scores "
    "5 / (21 x 15) = 1/63. (hu, ##gs) at 5 / (15 x 5) = 1/15 wins alone; (hu, ##g) comes "
    "next, at 10 / (10 x 15) = 1/15."
)

Pair = tuple[str, str]


class ScoredPair(NamedTuple):
    """One row of a pair table: the pair, its count, its symbols' counts and its score."""

    left: str
    right: str
    pair_count: int
    left_count: int
    right_count: int
    score: float
    score_fraction: Fraction


class Attempt(NamedTuple):
    """One longest-match try: the characters [start, end) of the word as `piece`."""

    start: int
    end: int
    piece: str
    found: bool


@dataclass(frozen=True, slots=True)
class WordPieceStart:
    """The corpus before the first merge; ``vocab`` has the special tokens (if any) first."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    vocab: tuple[str, ...]
    alphabet: tuple[str, ...]
    segmentations: tuple[tuple[str, ...], ...] | None
    pair_table: tuple[ScoredPair, ...]
    corpus_symbols: int


@dataclass(frozen=True, slots=True)
class WordPieceStep:
    """One merge: the scored pair table it chose from, the pair, and the corpus after it.

    ``bpe_pair`` is the most frequent pair at this step (what BPE would merge), with its
    count ``bpe_count``; the counts and scores are those before the merge.
    """

    number: int
    pair: Pair
    new_symbol: str
    pair_count: int
    left_count: int
    right_count: int
    score: float
    score_fraction: Fraction
    tied_with: tuple[Pair, ...]
    bpe_pair: Pair
    bpe_count: int
    pair_table: tuple[ScoredPair, ...]
    vocab_size: int
    corpus_symbols: int
    segmentations: tuple[tuple[str, ...], ...] | None
    new_in_vocab: bool


@dataclass(frozen=True, slots=True)
class WordPieceModel:
    """The vocabulary only (WordPiece keeps no merges), and how to read a word with it."""

    algorithm: ClassVar[str] = "wordpiece"
    vocab: tuple[str, ...]
    alphabet: tuple[str, ...]
    prefix: str = PREFIX
    special_tokens: tuple[str, ...] = ()
    split_punct: bool = False
    unk_token: str = UNK
    max_word_chars: int = MAX_WORD_CHARS


@dataclass(frozen=True, slots=True)
class WordPieceWordTrace:
    """How one word was encoded: every longest-match attempt in order, then the pieces.

    When some rest of the word matches nothing, ``unknown`` is True, the pieces are the
    single unknown token and ``note`` says why.
    """

    word: str
    start: int
    attempts: tuple[Attempt, ...]
    pieces: tuple[str, ...]
    widths: tuple[int, ...]  # characters of the word each piece covers
    unknown: bool
    note: str

    @property
    def final(self) -> tuple[str, ...]:
        return self.pieces


def fraction_text(value: Fraction) -> str:
    """A score as 'numerator/denominator', always with the slash.

    >>> fraction_text(Fraction(2, 6)), fraction_text(Fraction(1))
    ('1/3', '1/1')
    """
    return f"{value.numerator}/{value.denominator}"


def initial_symbols(word: str, prefix: str = PREFIX) -> list[str]:
    """The first character as is, every later one with the prefix.

    >>> initial_symbols("token")
    ['t', '##o', '##k', '##e', '##n']
    """
    return [word[0]] + [prefix + ch for ch in word[1:]]


def _check_prefix(prefix: str) -> None:
    if not isinstance(prefix, str) or any(ch.isspace() for ch in prefix):
        raise ValueError(f"The prefix {prefix!r} cannot contain spaces; BERT's is '##'.")
