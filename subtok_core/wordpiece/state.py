"""The corpus during WordPiece training: pair counts, symbol counts and exact scores, kept
up to date merge by merge (``train.py`` runs the merges).

>>> from subtok_core.corpus import load
>>> state = _State(load("toy:sunflower"), "##", "first", ())
>>> [(state.pair_name(pair), score) for pair, score in state.top(1)]
[(('s', '##u'), Fraction(1, 3))]
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from fractions import Fraction

from ..bpe.train import TOP_PAIRS
from ..corpus import WordCounts
from ..merging import SymbolCorpus
from .records import ScoredPair, WordPieceStart, _check_prefix, initial_symbols


class _State(SymbolCorpus):
    """The corpus during training, with pair counts, symbol counts and scores kept up to date.

    `uses` maps a symbol to the pairs it is part of: a merge changes the counts of a, b and
    the new symbol, so only those pairs get a new score. `heap` holds (-score, pair)
    entries as floats; an entry is stale when its pair's score moved on. Floats order the
    heap only: c / (x * y) of integers is correctly rounded, hence monotonic, so the pairs of
    highest exact score are all in the group of highest float, where fractions decide.
    """

    def __init__(self, wc: WordCounts, prefix: str, ties: str, specials: tuple[str, ...]):
        _check_prefix(prefix)
        segs = [initial_symbols(w, prefix) for w in wc.words]
        super().__init__(wc, segs, sorted({s for seg in segs for s in seg}), ties)
        self.prefix, self.specials = prefix, specials
        self.vocab = [self.ids[s] for s in self.names if s not in specials]
        self.in_vocab = set(self.vocab)
        # count every symbol, weighted by the word counts
        self.symbol_counts: dict[str, int] = defaultdict(int)
        for word, c in zip(self.words, self.counts):
            for symbol, n in Counter(word).items():
                self.symbol_counts[symbol] += n * c
        self.pair_counts: dict[str, int] = {}
        self.uses: dict[str, set[str]] = defaultdict(set)
        self.scores: dict[str, float] = {}
        self.heap: list[tuple[float, str]] = []
        self.by_count: list[tuple[int, str]] = []
        # count every pair, then score every pair
        for pair, count in self.initial_pair_counts().items():
            self._set_count(pair, count)
            self._rescore(pair)

    def fraction(self, pair: str) -> Fraction:
        sc = self.symbol_counts
        return Fraction(self.pair_counts[pair], sc[pair[0]] * sc[pair[1]])

    def row(self, pair: str, score: Fraction) -> ScoredPair:
        sc, name = self.symbol_counts, self.name
        a, b = pair
        count = self.pair_counts[pair]
        return ScoredPair(name(a), name(b), count, sc[a], sc[b], float(score), score)

    def _set_count(self, pair: str, count: int) -> None:
        """Give a pair its new count, keeping `uses` and the count heap in step."""
        if count > 0:
            if pair not in self.pair_counts:
                self.uses[pair[0]].add(pair)
                self.uses[pair[1]].add(pair)
            self.pair_counts[pair] = count
            heapq.heappush(self.by_count, (-count, pair))
        elif pair in self.pair_counts:
            del self.pair_counts[pair]
            self.scores.pop(pair, None)
            self.uses[pair[0]].discard(pair)
            self.uses[pair[1]].discard(pair)

    def _rescore(self, pair: str) -> None:
        # score(a, b) = count(a b) / (count(a) x count(b)), as a float for the heap
        sc = self.symbol_counts
        score = self.pair_counts[pair] / (sc[pair[0]] * sc[pair[1]])
        if self.scores.get(pair) != score:
            self.scores[pair] = score
            heapq.heappush(self.heap, (-score, pair))

    def top(self, limit: int) -> list[tuple[str, Fraction]]:
        """Pairs by exact score (high first), ties in tie order: the whole group of the
        highest score, then the groups below it until at least `limit` pairs."""
        heap, scores = self.heap, self.scores
        found: list[tuple[str, Fraction]] = []
        kept: list[tuple[float, set[str]]] = []
        while heap and len(found) < limit:
            neg = heap[0][0]
            group = set()
            while heap and heap[0][0] == neg:
                pair = heapq.heappop(heap)[1]
                if scores.get(pair) == -neg:  # else stale: the pair's score moved on
                    group.add(pair)
            if group:
                kept.append((neg, group))
                # exact fractions decide within the group, then the tie rule
                scored = [(p, self.fraction(p)) for p in group]
                found.extend(sorted(scored, key=lambda ps: (-ps[1], self.tie_order(ps[0]))))
        for neg, group in kept:
            for pair in group:
                heapq.heappush(heap, (neg, pair))
        return found

    def most_frequent(self) -> tuple[str, int]:
        """The pair BPE would merge now: the highest count, ties by the same rule."""
        heap, counts = self.by_count, self.pair_counts
        group: set[str] = set()
        top = -heap[0][0]
        while heap and (not group or -heap[0][0] == top):
            neg, pair = heapq.heappop(heap)
            if counts.get(pair) == -neg:  # else stale
                top = -neg
                group.add(pair)
        for pair in group:
            heapq.heappush(heap, (-top, pair))
        return min(group, key=self.tie_order), top

    def merge(self, pair: str) -> tuple[str, bool]:
        """Replace the pair everywhere; update the counts next to each merge, the counts of
        the three symbols involved, and the scores of the pairs that use them."""
        a, b = pair
        name = self.name(a) + self.name(b)[len(self.prefix) :]
        new, is_new = self.intern(name)
        in_vocab = new in self.in_vocab or name in self.specials
        if not in_vocab:
            self.vocab.append(new)
            self.in_vocab.add(new)
        # merge the pair in every word that has it
        delta, merged = self.merge_words(pair, new, is_new)
        # a, b lose one occurrence per merge, the new symbol gains one
        self.symbol_counts[a] -= merged
        self.symbol_counts[b] -= merged
        self.symbol_counts[new] += merged
        if is_new:  # delta does not track the merged pair itself: it is gone
            self._set_count(pair, 0)
        # update the counts of the pairs next to each merge
        for p, d in delta.items():
            if d and not (is_new and p == pair):
                self._set_count(p, self.pair_counts.get(p, 0) + d)
        # only the pairs using a, b or the new symbol get a new score
        for symbol in {a, b, new}:
            for p in self.uses.get(symbol, ()):
                self._rescore(p)
        self._compact_heaps()
        return new, not in_vocab

    def _compact_heaps(self) -> None:
        """Drop stale heap entries once they outnumber the live ones."""
        if len(self.heap) > 4 * len(self.scores) + 4096:
            self.heap = [(-s, p) for p, s in self.scores.items()]
            heapq.heapify(self.heap)
        if len(self.by_count) > 4 * len(self.pair_counts) + 4096:
            self.by_count = [(-c, p) for p, c in self.pair_counts.items()]
            heapq.heapify(self.by_count)

    def pair_table(self) -> tuple[ScoredPair, ...]:
        """Every pair by exact score (high first), ties in tie order."""
        scored = [(p, self.fraction(p)) for p in self.pair_counts]
        scored.sort(key=lambda ps: (-ps[1], self.tie_order(ps[0])))
        return tuple(self.row(p, f) for p, f in scored)

    def start(self, wc: WordCounts, snapshot: bool) -> WordPieceStart:
        segs = self.segmentations() if snapshot else None
        if snapshot:
            table = self.pair_table()
        else:
            table = tuple(self.row(p, f) for p, f in self.top(TOP_PAIRS)[:TOP_PAIRS])
        alphabet = tuple(self.name(s) for s in self.vocab)
        vocab = self.specials + alphabet
        return WordPieceStart(
            wc.words, wc.counts, vocab, alphabet, segs, table, self.corpus_symbols
        )
