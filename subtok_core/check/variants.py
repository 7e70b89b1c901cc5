"""A small BPE trainer of our own, written to be read, with each way a student's trainer
may go wrong as an option; the checker re-trains under each and sees how far it follows
the student's list (``follow``).

A unit is a word (or byte-level chunk) as its symbols, with its count in the corpus. The
options, each off by default (then the trainer is the textbook's and agrees with our
reference trainers under the tie rules they share):

- ``count``: ``every`` adjacent occurrence; ``once`` per unit; ``taken`` (a run a a a
  holds (a, a) once: only what one merge could take);
- ``weights``: False counts each distinct unit once, its frequency ignored;
- ``merge``: ``all`` occurrences left to right; ``first`` occurrence only; ``rtl``, right
  to left (a run a a a becomes a aa, not aa a);
- ``lower``: False never lowers a count after a merge (stale counts): only a pair met
  for the first time is added, at its count then.

Ties (``RULES``): ``first`` seen in the corpus; ``lex`` the smallest pair; ``greatest``
the greatest pair (byte-level pairs compared as bytes, as CS336 does); ``tokenizers`` the
pair of the smallest ids (symbols numbered in the order they were made).

>>> units = {("a", "a", "a"): 2, ("a", "b"): 3}
>>> follow(units, [("a", "a"), ("a", "b")]), follow(units, [("a", "b")], count="taken")
(2, 1)
>>> train({("a", "a", "a"): 5, ("a", "b"): 3}, 2, merge="rtl")
[('a', 'a'), ('a', 'aa')]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import pairwise

from ..bytebpe.symbols import to_bytes

RULES = ("first", "lex", "greatest", "tokenizers")
Pair = tuple[str, str]


def pair_counts(seg: tuple[str, ...], how: str) -> Counter:
    """The pairs of one unit as a trainer counting `how` counts them."""
    pairs = list(pairwise(seg))
    if how == "once":
        return Counter(set(pairs))
    if how == "taken":
        table: Counter = Counter()
        free: dict[Pair, int] = {}  # from where the pair may be taken again
        for i, pair in enumerate(pairs):
            if i >= free.get(pair, 0):
                table[pair] += 1
                free[pair] = i + 2
        return table
    return Counter(pairs)


def merged(seg: tuple[str, ...], pair: Pair, how: str) -> tuple[str, ...]:
    """The unit with `pair` merged: every occurrence from the left, the `first` only, or
    every occurrence from the right (``rtl``)."""
    if how == "rtl":
        out, i = [], len(seg) - 1
        while i >= 0:
            if i > 0 and (seg[i - 1], seg[i]) == pair:
                out.append(seg[i - 1] + seg[i])
                i -= 2
            else:
                out.append(seg[i])
                i -= 1
        return tuple(reversed(out))
    out, i = [], 0
    done = False
    while i < len(seg):
        if not done and i + 1 < len(seg) and (seg[i], seg[i + 1]) == pair:
            out.append(seg[i] + seg[i + 1])
            i += 2
            done = how == "first"
        else:
            out.append(seg[i])
            i += 1
    return tuple(out)


class Trainer:
    """The trainer, one merge at a time (`step`), counts kept up to date per unit."""

    def __init__(self, units: dict[tuple[str, ...], int], ties: str = "first",
                 bytelevel: bool = False, count: str = "every", weights: bool = True,
                 merge: str = "all", lower: bool = True):  # fmt: skip
        if ties not in RULES:
            raise ValueError(f"Unknown tie rule {ties!r}; choose one of {', '.join(RULES)}.")
        self.segs = [tuple(u) for u in units]
        self.weight = [n if weights else 1 for n in units.values()]
        self.ties, self.bytelevel = ties, bytelevel
        self.count, self.merge, self.lower = count, merge, lower
        self.table: dict[Pair, int] = {}
        self.where: dict[Pair, set[int]] = defaultdict(set)  # pair -> units holding it
        for i, seg in enumerate(self.segs):
            self._add(i, seg, 1)
        initial = sorted({s for seg in self.segs for s in seg}, key=lambda s: (len(s) > 1, s))
        self.ids = {s: n for n, s in enumerate(initial)}

    def _add(self, i: int, seg: tuple[str, ...], sign: int) -> None:
        pairs = pairwise(seg) if self.count == "every" else pair_counts(seg, self.count).elements()
        table, weight = self.table, sign * self.weight[i]
        for pair in pairs:
            table[pair] = left = table.get(pair, 0) + weight
            if sign > 0:
                self.where[pair].add(i)
            elif not left:
                del table[pair]  # no unit holds it any more

    def best(self) -> Pair | None:
        top = max(self.table.values(), default=0)
        if top <= 0:
            return None
        tied = [p for p, c in self.table.items() if c == top]
        if self.ties == "first":
            return min(tied, key=self._first_seen)
        if self.ties == "tokenizers":
            return min(tied, key=lambda p: (self.ids[p[0]], self.ids[p[1]]))
        key = (lambda p: tuple(map(to_bytes, p))) if self.bytelevel else None
        return (max if self.ties == "greatest" else min)(tied, key=key)

    def _first_seen(self, pair: Pair) -> tuple[int, int]:
        for i in sorted(self.where[pair]):
            seg = self.segs[i]
            for j, found in enumerate(pairwise(seg)):
                if found == pair:
                    return i, j
        # a pair no unit holds now (its count never lowered): the order it was met in
        return -1, list(self.table).index(pair)

    def step(self) -> Pair | None:
        pair = self.best()
        if pair is None:
            return None
        self.apply(pair)
        return pair

    def apply(self, pair: Pair) -> None:
        """Merge `pair` in every unit that holds it, and update the counts (a trainer that
        never lowers them adds each pair it has not met before, at its count, and leaves
        the rest as they were)."""
        self.ids.setdefault(pair[0] + pair[1], len(self.ids))
        met: dict[Pair, int] = defaultdict(int)
        for i in sorted(self.where.pop(pair, ())):
            old = self.segs[i]
            new = merged(old, pair, self.merge)
            if new == old:
                continue
            self.segs[i] = new
            if self.lower:
                self._add(i, old, -1)
                self._add(i, new, 1)
            else:
                for p, n in pair_counts(new, self.count).items():
                    met[p] += n * self.weight[i]
                    self.where[p].add(i)
            if pair in pairwise(new):  # a first-occurrence trainer leaves some behind
                self.where[pair].add(i)
        if not self.lower:
            self.table.pop(pair, None)
            for p, n in met.items():
                self.table.setdefault(p, n)


def train(units, n: int, **options) -> list[Pair]:
    trainer, out = Trainer(units, **options), []
    while len(out) < n and (pair := trainer.step()) is not None:
        out.append(pair)
    return out


def follow(units, merges: list[Pair], **options) -> int:
    """How many of `merges`, from the first, this trainer makes too (it stops at the first
    it would not make)."""
    trainer = Trainer(units, **options)
    for k, pair in enumerate(merges):
        if trainer.step() != pair:
            return k
    return len(merges)


def counts_after(units, merges: list[Pair], **options) -> dict[Pair, int]:
    """The pair counts of this trainer once it has made `merges`."""
    trainer = Trainer(units, **options)
    for pair in merges:
        trainer.apply(pair)
    return dict(trainer.table)
