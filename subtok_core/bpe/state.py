"""The corpus during BPE training: pair counts grouped by count, kept up to date merge by merge.

``train.py`` runs the merges; this module holds what one merge reads and changes. Words
are strings of symbol ids (``merging.SymbolCorpus``: symbol i is the character chr(i)), so
cutting a pair out of a word is one ``str.replace`` in C. A merge visits only the words
that have the pair (``where``) and changes only the counts next to each merge; the pairs of
one count are one set in ``buckets``, so the pairs tied at the top are one lookup away and
the next pair to merge is the smallest of that set in the tie order.

Worked example (001, `toy:cat-bat`: cat 10, bat 5, bag 12, tag 4, cats 5): (a,t) 20 is
alone at the top. Merging it visits cat, bat and cats only: (c,a) 15 becomes (c,at) 15,
(b,a) 17 loses bat's 5, and (a,g) 16 is now the top.

>>> from subtok_core.corpus import load
>>> state = BpeState(load("toy:cat-bat"), "none", "first", snapshot=False)
>>> pair, count = state.best()
>>> state.pair_name(pair), count
(('a', 't'), 20)
>>> _ = state.merge(pair)
>>> state.rows(state.top(3), 3)
(('a', 'g', 16), ('c', 'at', 15), ('b', 'a', 12))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from heapq import heapify, heappop, heappush

from ..corpus import WordCounts
from ..markers import check_marker, initial_alphabet, initial_symbols
from ..merging import SymbolCorpus
from .records import BpeStart

TOP_PAIRS = 20  # pair-table rows kept per step in compact traces


class BpeState(SymbolCorpus):
    """The corpus during training, with pair counts kept up to date merge by merge.

    `buckets` files the pairs by count and `levels` is a heap of the filed counts (some
    stale: their bucket emptied). A count that goes down leaves its pair where it is (most
    never come near the top) and marks it `dirty`, noting the count it is filed at; when a
    bucket is looked at, its dirty pairs move to the bucket of their count. Every pair is
    filed at its count or above it, so the top bucket, once its dirty pairs are gone,
    holds the pairs of the highest count.

    `named` keeps one (symbol, symbol) tuple per pair and `table_rows` one (symbol,
    symbol, count) row, which the steps share while they hold (a late step lists hundreds
    of tied pairs, and its table is mostly the one before). `keys` keeps the tie key of
    rule ``first`` per pair: the word and character offset of its first occurrence, which
    cannot move while the pair's occurrences stay the same, so it is dropped whenever the
    pair is filed again.
    """

    def __init__(self, wc: WordCounts, marker: str, ties: str, snapshot: bool):
        check_marker(marker)
        names = initial_alphabet(wc.words, marker)  # symbol i is names[i]
        self._setup(wc, _first_symbols(wc.words, marker), names, ties, snapshot)

    @classmethod
    def from_symbols(
        cls,
        wc: WordCounts,
        segs: Iterable,
        names: list[str],
        ties: str,
        snapshot: bool,
        *,
        symbol_key: Callable[[str], object] | None = None,
        refuse_unknown: bool = True,
    ) -> BpeState:
        """A run on words already cut into their first symbols (numbered as in `names`)
        rather than characters and a marker: byte-level BPE's bytes (bytebpe/train.py).
        `symbol_key` is how the tie rule ``lex`` compares two symbols (None: as strings);
        `refuse_unknown` False lets the text "[UNK]" be learned (there is no unknown token).
        """
        state = cls.__new__(cls)
        state._setup(wc, segs, names, ties, snapshot, symbol_key, refuse_unknown)
        return state

    def _setup(
        self,
        wc: WordCounts,
        segs: Iterable,
        names: list[str],
        ties: str,
        snapshot: bool,
        symbol_key: Callable[[str], object] | None = None,
        refuse_unknown: bool = True,
    ) -> None:
        """Count every pair of the words cut into `segs` (symbols numbered as in `names`)."""
        SymbolCorpus.__init__(self, wc, segs, names, ties, refuse_unknown)
        self.symbol_key = symbol_key
        self.snapshot = snapshot
        self.vocab: list[str] = [self.ids[s] for s in self.names]
        self.pair_counts: dict[str, int] = dict(self.initial_pair_counts())
        self.dirty: dict[str, int] = {}  # pair -> the count it is filed at, above its own
        self.buckets: dict[int, set[str]] = {}
        for pair, c in self.pair_counts.items():
            self.buckets.setdefault(c, set()).add(pair)
        self.levels = [-c for c in self.buckets]
        heapify(self.levels)
        self.keys: dict[str, tuple[int, int]] = {}
        self.named: dict[str, tuple[str, str]] = {}
        self.table_rows: dict[str, tuple[str, str, int]] = {}
        self.last_top: tuple[int, list[str]] = (0, [])  # the top group top() last sorted
        # the key that orders tied pairs (None: the pair itself, its ids in order)
        self.tie_key = {"first": self.first_key, "lex": self.tie_order}.get(ties)

    def pair_name(self, pair: str) -> tuple[str, str]:
        """The two symbols of a pair, one tuple per pair however many steps list it."""
        named = self.named.get(pair)
        if named is None:
            named = self.named[pair] = (self.names[ord(pair[0])], self.names[ord(pair[1])])
        return named

    def tie_order(self, pair: str):
        """Sort key among equally good pairs; rule ``lex`` compares the symbols through
        `symbol_key` when the run has one (bytes, not their GPT-2 letters)."""
        if self.ties == "lex" and self.symbol_key is not None:
            return tuple(map(self.symbol_key, self.pair_name(pair)))
        return super().tie_order(pair)

    def first_key(self, pair: str) -> tuple[int, int]:
        """(word index, character offset) of the pair's first occurrence: sorts as
        ``first_seen``, and stays right while the pair's count does not change."""
        key = self.keys.get(pair)
        if key is None:
            w, i = self.first_seen(pair)
            offset = sum(len(self.names[ord(s)]) for s in self.words[w][:i])
            key = self.keys[pair] = (w, offset)
        return key

    def _file(self, pair: str, old: int, count: int) -> None:
        """Move a pair filed at count `old` (0: nowhere yet) to the bucket of `count` (a pair
        of count 0 goes nowhere)."""
        if old:  # filed before: take it out (emptied buckets go when looked at)
            self.buckets[old].discard(pair)
            self.keys.pop(pair, None)
        if count > 0:
            bucket = self.buckets.get(count)
            if bucket is None:
                self.buckets[count] = {pair}
                heappush(self.levels, -count)
            else:
                bucket.add(pair)

    def _group(self, count: int) -> set[str] | None:
        """The pairs of this count (None if there are none), after moving down those whose
        count has gone down since they were filed here."""
        bucket = self.buckets.get(count)
        if bucket is None:
            return None
        dirty = self.dirty
        for pair in dirty.keys() & bucket:  # (the smaller of the two is walked)
            del dirty[pair]
            self._file(pair, count, self.pair_counts.get(pair, 0))
        if not bucket:
            del self.buckets[count]
            return None
        return bucket

    def best(self) -> tuple[str, int] | None:
        """The pair to merge next and its count (None when no pair is left)."""
        levels = self.levels
        while levels:
            count = -levels[0]
            group = self._group(count)
            if group:
                return min(group, key=self.tie_key), count
            heappop(levels)  # stale level: no pair has this count any more
        return None

    def top(self, limit: int) -> list[tuple[int, list[str]]]:
        """The groups of highest count, each (count, its pairs in tie order): the first
        group whole, then the next ones until at least `limit` pairs."""
        levels, key = self.levels, self.tie_key
        groups: list[tuple[int, list[str]]] = []
        size = 0
        while levels and (not groups or size < limit):
            count = -heappop(levels)
            group = self._group(count) if all(c != count for c, _ in groups) else None
            if not group:
                continue  # stale level: no pair has this count any more
            pairs = sorted(self._last_order_first(count, group), key=self._filled(group, key))
            if groups:  # below the top group only the rows of the table are needed
                pairs = pairs[: limit - size]
            else:
                self.last_top = (count, pairs)
            groups.append((count, pairs))
            size += len(pairs)
        for count, _ in groups:
            heappush(levels, -count)
        return groups

    def _last_order_first(self, count: int, group: set[str]) -> Iterable[str]:
        """The pairs of `group`, those of the last sorted top group first and in its order.

        Only for speed: the top count holds from one merge to the next most of the time
        (6,757 of the 7,591 merges of the Wikipedia sample to 8,000), losing a few pairs
        and gaining fewer, so Python's sort finds one long sorted run and merges the new
        pairs into it instead of sorting hundreds of pairs again. The order it returns is
        the same either way (no two pairs have the same tie key)."""
        last_count, last = self.last_top
        if last_count != count:
            return group
        kept = [pair for pair in last if pair in group]
        return [*kept, *group.difference(kept)]

    def _filled(self, group: set[str], key):
        """The 'first' rule's key as a plain dict lookup, its cache filled for every pair
        of `group` first: a large tie (thousands of pairs of count 2, near the end of a
        small corpus) is then sorted without a Python call per pair."""
        if key != self.first_key:
            return key  # None (the ids themselves) or 'lex' (tie_order)
        keys = self.keys
        for pair in group.difference(keys):  # only the pairs never keyed yet (walks `group`)
            key(pair)
        return keys.__getitem__

    def names_of(self, pairs) -> tuple[tuple[str, str], ...]:
        """The symbols of each pair (pair_name for many, the cache read directly)."""
        try:  # most pairs were named at an earlier step
            return tuple(map(self.named.__getitem__, pairs))
        except KeyError:
            return tuple(map(self.pair_name, pairs))

    def rows(self, groups: list[tuple[int, list[str]]], limit: int) -> tuple[tuple, ...]:
        """The first `limit` rows of the pair table: (symbol, symbol, count)."""
        rows: list[tuple[str, str, int]] = []
        for count, pairs in groups:
            rows += [self.row(p, count) for p in pairs[: limit - len(rows)]]
        return tuple(rows)

    def row(self, pair: str, count: int) -> tuple[str, str, int]:
        """One row of the pair table, the same tuple as long as the count holds."""
        row = self.table_rows.get(pair)
        if row is None or row[2] != count:
            row = self.table_rows[pair] = (*self.pair_name(pair), count)
        return row

    def merge(self, pair: str) -> tuple[str, bool]:
        """Replace the pair everywhere; update only the counts next to each merge."""
        new, is_new = self.intern(self.name(pair[0]) + self.name(pair[1]))
        if not is_new:  # an old symbol made again (rare): words are recounted whole
            self._merge_again(pair, new)
            return new, False
        self.vocab.append(new)
        made, _merged = self.replace_pair(pair, new)
        counts, dirty, buckets = self.pair_counts, self.dirty, self.buckets
        count_of = self.counts.__getitem__
        # the merged pair is gone; it leaves its bucket when the bucket is looked at
        dirty.setdefault(pair, counts.pop(pair))
        for made_pair, replaced, made_words in zip(*made):
            # a pair with the new symbol: counted and filed for the first time
            n = counts[made_pair] = sum(map(count_of, made_words))
            bucket = buckets.get(n)
            if bucket is None:
                buckets[n] = {made_pair}
                heappush(self.levels, -n)
            else:
                bucket.add(made_pair)
            # the pair it stands in place of goes down as much, and stays filed for now
            if replaced != pair:  # (the merged pair itself, when a == b, is gone already)
                count = counts[replaced]
                dirty.setdefault(replaced, count)  # filed at its count, unless gone down before
                if count > n:
                    counts[replaced] = count - n
                else:
                    del counts[replaced]
        self.note_made(pair, made)
        return new, True

    def _merge_again(self, pair: str, new: str) -> None:
        """A merge that makes an old symbol again: pairs may move in a word and keep their
        count, so the first occurrences (tie rule ``first``) are looked up afresh."""
        self.keys.clear()
        delta, _merged = self.merge_words(pair, new, False)
        delta[pair] = -self.pair_counts[pair]  # the merged pair is gone
        counts, dirty = self.pair_counts, self.dirty
        for p, d in delta.items():
            count = counts.get(p, 0)
            if d < 0:  # gone down: it stays filed where it is for now
                dirty.setdefault(p, count)
                if count + d:
                    counts[p] = count + d
                else:
                    del counts[p]
            elif d > 0:  # more of a pair: file it again
                counts[p] = count + d
                self._file(p, dirty.pop(p, count), count + d)

    def pair_table(self, limit: int | None) -> tuple[tuple[str, str, int], ...]:
        """Pairs by count (high first), ties in tie order: all of them (snapshot), or the
        groups at the top of the queue until `limit` pairs (compact)."""
        if limit is not None:
            return self.rows(self.top(limit), limit)
        items = sorted(self.pair_counts.items(), key=lambda pc: (-pc[1], self.tie_order(pc[0])))
        return tuple((*self.pair_name(p), count) for p, count in items)

    def start(self, wc: WordCounts) -> BpeStart:
        segs = self.segmentations() if self.snapshot else None
        table = self.pair_table(None if self.snapshot else TOP_PAIRS)
        vocab = tuple(self.name(s) for s in self.vocab)
        return BpeStart(wc.words, wc.counts, vocab, segs, table, self.corpus_symbols)


def _first_symbols(words: tuple[str, ...], marker: str) -> Iterable:
    """Each word cut into its first symbols (``initial_symbols``), made one at a time; glued
    back into one str when every symbol is one character (no marker, or SentencePiece's
    one-character ▁): SymbolCorpus then numbers the symbols of a str in one go, in C."""
    if marker == "none":
        return words  # its first symbols are its characters
    if marker == "sow":
        return ("".join(initial_symbols(w, marker)) for w in words)
    return (initial_symbols(w, marker) for w in words)
