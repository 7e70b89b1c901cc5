"""The pair counts of a corpus after some merges, counted the reference's way and the
ways a student's trainer may count them instead.

Replaying merges visits only the units that hold both symbols of a pair (``Replay``);
the reference's own count (``reference.count_pairs``, the textbook loop) counts every
adjacent occurrence, so the run "a a a" holds (a, a) twice though one merge takes one.

>>> replay = Replay({("a", "a", "a"): 2, ("a", "b"): 3})
>>> counted(replay.segs, replay.count), without_overlap(replay.segs, replay.count)
({('a', 'a'): 4, ('a', 'b'): 3}, {('a', 'a'): 2, ('a', 'b'): 3})
>>> replay.merge(("a", "a")); replay.table(), replay.stale
({('aa', 'a'): 2, ('a', 'b'): 3}, {('a', 'b'): 3, ('aa', 'a'): 2})
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from ..bpe.reference import count_pairs, merge_pair
from .setup import Unit

Pair = tuple[str, str]
Table = dict[Pair, int]


class Replay:
    """Units segmented as the merges so far leave them. `stale` keeps each pair at the
    count it had when it first appeared, minus the pairs merged: the table of a trainer
    that adds new pairs but never lowers the count of the pairs a merge breaks up."""

    def __init__(self, units: dict[Unit, int]):
        self.segs: dict[Unit, tuple[str, ...]] = {u: u for u in units}
        self.count = dict(units)
        self.holding: dict[str, set[Unit]] = defaultdict(set)  # symbol -> units holding it
        for unit in units:
            for symbol in unit:
                self.holding[symbol].add(unit)
        self.initial: Table = counted(self.segs, self.count)
        self.stale: Table = dict(self.initial)
        self.merged: list[Pair] = []

    def merge(self, pair: Pair) -> None:
        """Merge the pair in every unit that has it, noting the pairs that appear."""
        new_pairs: Table = defaultdict(int)
        for unit in self.holding[pair[0]] & self.holding[pair[1]]:
            old = self.segs[unit]
            seg = merge_pair(old, pair)
            if seg == old:
                continue
            self.segs[unit] = seg
            self.holding[pair[0] + pair[1]].add(unit)
            for p in pairwise(seg):
                if p not in self.stale:
                    new_pairs[p] += self.count[unit]
        self.stale.update(new_pairs)
        self.stale.pop(pair, None)
        self.merged.append(pair)

    def never_updated(self) -> Table:
        """The first table with the merged pairs taken out, nothing else changed."""
        table = dict(self.initial)
        for pair in self.merged:
            table.pop(pair, None)
        return table

    def table(self) -> Table:
        return counted(self.segs, self.count)


def replayed(units: dict[Unit, int], merges) -> Replay:
    replay = Replay(units)
    for pair in merges:
        replay.merge(pair)
    return replay


def counted(segs: dict[Unit, tuple[str, ...]], count: dict[Unit, int]) -> Table:
    """The reference's count: every adjacent occurrence, weighted by the unit's count."""
    return count_pairs(list(segs.values()), [count[unit] for unit in segs])


def without_overlap(segs: dict[Unit, tuple[str, ...]], count: dict[Unit, int]) -> Table:
    """Occurrences a merge could take together: in a run like a a a, (a, a) once."""
    table: Table = defaultdict(int)
    for unit, seg in segs.items():
        weight = count[unit]
        free: dict[Pair, int] = {}  # the position from which the pair may be taken again
        for i, pair in enumerate(pairwise(seg)):
            if i >= free.get(pair, 0):
                table[pair] += weight
                free[pair] = i + 2
    return dict(table)


def overlapping(segs: dict[Unit, tuple[str, ...]], pair: Pair) -> tuple[str, int, int] | None:
    """The shortest unit where `pair` overlaps itself: its text, and how many times it
    holds the pair counted with and without overlap (None if nowhere).

    >>> overlapping({("a", "a", "a", "a"): ("a",) * 4, ("a", "a", "a"): ("a",) * 3}, ("a", "a"))
    ('aaa', 2, 1)
    """
    for seg in sorted(segs.values(), key=len):
        every = sum(1 for p in pairwise(seg) if p == pair)
        taken = without_overlap({seg: seg}, {seg: 1}).get(pair, 0)
        if every > taken:
            return "".join(seg), every, taken
    return None
