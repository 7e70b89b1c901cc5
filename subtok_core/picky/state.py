"""Picky BPE's working state: the words as symbols, each token's frequency, and the pair
table kept in the order pairs entered it.

The order of the table is the tie rule, "first pair seen", as the authors' trainer has it
(a Python Counter, whose first largest count wins): at the start, pairs enter word by word
(in first-appearance order), left to right; afterwards a pair enters at the end of the
table when a merge or a split first makes it. A pair leaves when it is merged, when a
merge takes its last occurrence, or when a split removes a token it holds, and enters
again at the end if it comes back. A split's inner pairs (e, s for es) enter even when
the removed token has no occurrence left, with count 0: they keep that place.

Each entry gets a serial number as it enters; a heap of (−count, serial, pair) finds the
highest count and, among equals, the smallest serial: the first pair in the table, as
``max`` over the table would, without reading the whole table at every merge (an entry
whose pair has changed since is skipped when it comes up).

Where the reference has no rule: the pairs one merge makes enter its table in the order
Python walks a set of its word objects, which follows their memory addresses; ours take
the words in first-appearance order, left to right. The two agree on the course's toy and
on the Lee lines the tests use; on longer corpora a tie between two pairs made by the same
merge can go the other way, and the reference itself then varies from process to process
(the first 50 Lee lines, size 300, τ 0.7: two of its runs part at event 226; ours gives
all 250 events of a third run, and parts from the first at event 130).

Counts follow the reference too: a pair counts every position it stands at in a word, so
``0 0 0`` counts (0, 0) twice, though a merge makes only one 00 there.
"""

from __future__ import annotations

from heapq import heappop, heappush

from ..corpus import WordCounts
from ..markers import initial_symbols
from .records import Pair, PartCheck


def _pairs_of(symbols: list[str]) -> dict[Pair, int]:
    """A word's pairs, each once per position, in the order they first stand in it."""
    found: dict[Pair, int] = {}
    for pair in zip(symbols, symbols[1:]):
        found[pair] = found.get(pair, 0) + 1
    return found


def _merged(symbols: list[str], a: str, b: str) -> tuple[list[str], int]:
    """Every (a, b) merged, left to right without overlap; how many were made."""
    out, i, made = [], 0, 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
            out.append(a + b)
            i, made = i + 2, made + 1
        else:
            out.append(symbols[i])
            i += 1
    return out, made


class PickyState:
    """The corpus under merges and splits (see the module docstring for the table)."""

    def __init__(self, wc: WordCounts):
        self.words = [initial_symbols(word, "sow") for word in wc.words]
        self.counts = list(wc.counts)
        self.freq: dict[str, int] = {}  # f(x): occurrences now, for every token of the vocab
        self.holders: dict[str, set[int]] = {}  # token -> the words (indices) holding it
        self.pairs: dict[Pair, int] = {}  # the pair table, in the order pairs entered it
        self.entered: dict[Pair, int] = {}  # each pair's serial number in the table
        self._serial = 0
        self._heap: list[tuple[int, int, Pair]] = []
        self.symbols = 0  # the corpus's length in tokens
        for i, (symbols, count) in enumerate(zip(self.words, self.counts)):
            self.symbols += len(symbols) * count
            for symbol in symbols:
                self.freq[symbol] = self.freq.get(symbol, 0) + count
                self.holders.setdefault(symbol, set()).add(i)
            for pair, n in _pairs_of(symbols).items():
                self._add(pair, n * count)
        self.alphabet = tuple(self.freq)  # characters in first-appearance order
        self.order = {symbol: n for n, symbol in enumerate(self.alphabet)}  # id order
        self.made_from: dict[str, Pair] = {}  # a token -> the pair that first made it
        self.present = set(self.alphabet)

    # --- the pair table ---------------------------------------------------------------

    def _add(self, pair: Pair, delta: int) -> None:
        """Add `delta` to the pair's count; a pair not in the table enters at its end."""
        if pair not in self.pairs:
            self.pairs[pair] = 0
            self.entered[pair] = self._serial
            self._serial += 1
        self.pairs[pair] += delta
        heappush(self._heap, (-self.pairs[pair], self.entered[pair], pair))

    def _drop(self, pair: Pair) -> None:
        """The pair leaves the table (if it is there)."""
        if self.pairs.pop(pair, None) is not None:
            del self.entered[pair]

    def _current(self, entry: tuple[int, int, Pair]) -> bool:
        negative, serial, pair = entry
        return self.pairs.get(pair) == -negative and self.entered.get(pair) == serial

    def _first(self, n: int) -> list[tuple[int, int, Pair]]:
        """The first n entries of the table by count (ties by serial), counts above 0,
        left on the heap."""
        found: list[tuple[int, int, Pair]] = []
        while self._heap and len(found) < n:
            entry = heappop(self._heap)
            if self._current(entry) and entry[0] < 0 and (not found or entry != found[-1]):
                found.append(entry)
        for entry in found:
            heappush(self._heap, entry)
        return found

    # --- what the steps show ---------------------------------------------------------

    def vocab(self) -> tuple[str, ...]:
        """The tokens now, in the order they were first made (characters first)."""
        return tuple(sorted(self.present, key=self.order.__getitem__))

    def corpus_symbols(self) -> int:
        return self.symbols

    def segmentations(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(symbols) for symbols in self.words)

    def table(self, rows: int | None = None) -> tuple[tuple[str, str, int], ...]:
        """The pairs with a count, highest first, ties in table order (`rows`: the first)."""
        if rows is not None:
            return tuple((a, b, -negative) for negative, _, (a, b) in self._first(rows))
        ranked = sorted((kv for kv in self.pairs.items() if kv[1] > 0), key=lambda kv: -kv[1])
        return tuple((a, b, n) for (a, b), n in ranked)

    def best(self) -> tuple[Pair, int, tuple[Pair, ...]] | None:
        """The pair to merge: the highest count, the first in the table among equals; and
        the pairs tied with it. None when no pair has a count left."""
        top = self._first(1)
        if not top:
            return None
        count, pair = -top[0][0], top[0][2]
        size = 2
        while True:  # every pair of the same count, in table order
            same = [e[2] for e in self._first(size) if -e[0] == count]
            if len(same) < size:
                return pair, count, tuple(same[1:])
            size *= 2

    # --- the two events ----------------------------------------------------------------

    def _rewrite(self, i: int, symbols: list[str]) -> None:
        """Word i becomes `symbols`; the tokens' lists of words follow."""
        for symbol in self.words[i]:
            self.holders[symbol].discard(i)
        for symbol in symbols:
            self.holders.setdefault(symbol, set()).add(i)
        self.words[i] = symbols

    def merge(self, pair: Pair) -> tuple[str, int, bool]:
        """Merge `pair` in every word: the new token, the occurrences made, whether it
        had been removed before (it comes back)."""
        a, b = pair
        new = a + b
        self._drop(pair)
        restored = new in self.made_from and new not in self.present
        if new not in self.order:
            self.order[new] = len(self.order)
            self.made_from[new] = pair
        self.present.add(new)
        self.freq.setdefault(new, 0)
        made, created = 0, {}
        for i in sorted(self.holders.get(a, set()) & self.holders.get(b, set())):
            symbols, n = _merged(self.words[i], a, b)
            if not n:
                continue
            made += n * self.counts[i]
            self._rewrite(i, symbols)
            for p, k in _pairs_of(symbols).items():
                if new in p:
                    created[p] = created.get(p, 0) + k * self.counts[i]
        # the pairs the merge made enter the table; each takes its count from the pair of
        # old symbols it stands in place of ((x, a) for (x, ab); (b, y) for (ab, y))
        for p, k in created.items():
            self._add(p, k)
        for p, k in created.items():
            old = (b if p[0] == new else p[0], a if p[1] == new else p[1])
            if old in self.pairs:
                self._add(old, -k)
                if self.pairs[old] <= 0:
                    self._drop(old)
        self.freq[new] += made
        self.symbols -= made
        for part in pair:  # each part loses the occurrences merged ((x, x): twice)
            self.freq[part] -= made
        return new, made, restored

    def check(self, part: str, merged: int, threshold: float) -> PartCheck:
        """IoS of `part` after a merge made `merged` occurrences out of it: f(x1x2) over
        f(x) before the merge (its occurrences left now plus those merged)."""
        before = self.freq[part] + merged
        ios = merged / before if before else 0.0
        atomic = len(part) == 1
        return PartCheck(part, merged, before, ios, ios > threshold and not atomic, atomic)

    def walk(self, token: str) -> tuple[str, ...]:
        """The tokens a removed token falls back to: down the merges that first made it,
        stopping at a character or at a token still in the vocabulary."""
        if len(token) == 1 or token in self.present:
            return (token,)
        left, right = self.made_from[token]
        return self.walk(left) + self.walk(right)

    def remove(self, token: str) -> tuple[tuple[str, ...], int]:
        """Remove `token`: every occurrence is cut back into its walk. The parts and the
        occurrences it had."""
        self.present.discard(token)
        parts = self.walk(token)
        left = self.freq.pop(token)
        for part in parts:
            self.freq[part] += left
        self.symbols += left * (len(parts) - 1)
        for inner in zip(parts, parts[1:]):  # enters the table even at 0 (the reference)
            self._add(inner, left)
        gone: dict[Pair, int] = {}
        for i in sorted(self.holders.pop(token, set())):
            for p, k in _pairs_of(self.words[i]).items():
                if token in p:
                    gone[p] = gone.get(p, 0) + k * self.counts[i]
            cut = [s for symbol in self.words[i] for s in (parts if symbol == token else (symbol,))]
            self.holders.setdefault(token, set())
            self._rewrite(i, cut)
        self.holders.pop(token, None)
        # a pair with the removed token gives its count to the pair at the cut's edge
        for p, k in gone.items():
            edge = (parts[-1] if p[0] == token else p[0], parts[0] if p[1] == token else p[1])
            self._add(edge, k)
            self._drop(p)
        return parts, left
