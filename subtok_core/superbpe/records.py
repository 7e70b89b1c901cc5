"""The records of SuperBPE and BoundlessBPE: the start, one step per merge, the model.

Symbols are strings of GPT-2 byte letters (Ġ is a space), as byte-level BPE writes them,
so " the people" is "ĠtheĠpeople". A step says its ``stage``: "ordinary" (a merge inside a
pre-token) or "super" (a supermerge: two neighbouring pre-tokens, each one token already,
become one).
"""

from __future__ import annotations

from dataclasses import dataclass

Pair = tuple[str, str]
PairRow = tuple[str, str, int]  # left, right, count
ORDINARY, SUPER = "ordinary", "super"


@dataclass(frozen=True, slots=True)
class SuperStart:
    """Before the first merge: the corpus's distinct lines and how often each occurs, the
    first lines' tokens (single bytes), the 256 bytes, the ordinary pairs and the corpus's
    length in tokens."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    segmentations: tuple[tuple[str, ...], ...]
    vocab: tuple[str, ...]
    pair_table: tuple[PairRow, ...]
    corpus_symbols: int


@dataclass(frozen=True, slots=True)
class SuperStep:
    """One merge. ``pair_table`` holds the pairs of its stage before it (the most frequent
    first), ``tied_with`` those with its count that the tie rule put after it, ``words``
    the pre-tokens the new token spans (1 for an ordinary merge) and ``rival`` (BoundlessBPE)
    the best candidate of the other stage with its count, which lost. ``segmentations``
    are the first lines' tokens after the merge, ``corpus_symbols`` the corpus's tokens."""

    number: int
    stage: str
    pair: Pair
    count: int
    new_symbol: str
    new_in_vocab: bool
    tied_with: tuple[Pair, ...]
    pair_table: tuple[PairRow, ...]
    words: int
    rival: tuple[Pair, int] | None
    vocab_size: int
    corpus_symbols: int
    segmentations: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class SuperModel:
    """Every merge in the order it was learned, which of them are supermerges, the
    vocabulary (the 256 bytes, then each new token) and the pre-split pattern."""

    algorithm: str  # "superbpe" or "boundless": the registry entry that reads it
    merges: tuple[Pair, ...]
    supers: tuple[bool, ...]
    vocab: tuple[str, ...]
    pattern: str
    byte_level = True  # tokens are bytes: two may share a character
