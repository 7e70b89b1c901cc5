"""Picky BPE's records: the start, one event (a merge or a split), the model.

A merge checks each of its two parts by IoS (Chizhov et al., 2024, "intersection over
self"): how much of the part's frequency went into the merge. ``PartCheck`` keeps the
numbers of that check; a part whose IoS exceeds the threshold τ is removed, and its
removal is the next step, a split.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

Pair = tuple[str, str]
MERGE, SPLIT = "merge", "split"


@dataclass(frozen=True, slots=True)
class PartCheck:
    """One part x of a merge x1 + x2 -> x1x2, judged by IoS = f(x1x2) / f(x).

    ``merged`` is f(x1x2), the occurrences this merge made; ``before`` is f(x) just before
    the merge; ``ios`` their ratio. A single character is never removed (``atomic``).
    """

    part: str
    merged: int
    before: int
    ios: float
    removed: bool
    atomic: bool


@dataclass(frozen=True, slots=True)
class PickyStart:
    """The corpus before the first event: words with ▁ before each, the characters, the
    pair table in its order (the order ties are broken in)."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    vocab: tuple[str, ...]
    segmentations: tuple[tuple[str, ...], ...] | None
    pair_table: tuple[tuple[str, str, int], ...]
    corpus_symbols: int


@dataclass(frozen=True, slots=True)
class PickyStep:
    """One event. A merge: ``parts`` -> ``symbol``, chosen from ``pair_table`` (the pairs
    before it, in tie order) with ``count``, its parts judged in ``checks``. A split:
    ``symbol`` removed and cut back into ``parts`` (its walk down the merges that made it),
    ``count`` the occurrences it still had, ``checks`` the check that removed it and
    ``after`` the number of the merge that did.

    ``vocab_size`` counts the tokens after the event (characters included, no special
    tokens); ``size`` is the reference's count, which the run stops on.
    """

    number: int
    kind: str
    symbol: str
    parts: tuple[str, ...]
    count: int
    tied_with: tuple[Pair, ...]
    pair_table: tuple[tuple[str, str, int], ...]
    checks: tuple[PartCheck, ...]
    after: int
    restored: bool
    vocab_size: int
    size: int
    corpus_symbols: int
    segmentations: tuple[tuple[str, ...], ...] | None

    @property
    def pair(self) -> Pair:
        """A merge's pair (what the merge lessons' panels read); a split has none."""
        return (self.parts[0], self.parts[1]) if self.kind == MERGE else ("", "")

    @property
    def new_symbol(self) -> str:
        """The symbol the step is about: the one made by a merge, or the one removed."""
        return self.symbol


@dataclass(frozen=True, slots=True)
class PickyModel:
    """The events in order ((kind, symbol, parts)), the final vocabulary and the alphabet.
    Words start with ▁, as the reference marks them."""

    algorithm: ClassVar[str] = "picky"
    events: tuple[tuple[str, str, tuple[str, ...]], ...]
    vocab: tuple[str, ...]
    alphabet: tuple[str, ...]
    marker: str = "sow"
    split_punct: bool = False

    @property
    def merges(self) -> tuple[Pair, ...]:
        """The merges in order (splits left out)."""
        return tuple((p[0], p[1]) for kind, _, p in self.events if kind == MERGE)
