"""The BPE trainer: count every pair once, then keep the counts up to date merge by merge.

Worked example (001, `toy:cat-bat`): the pairs start at (a,t) 20, (b,a) 17, (a,g) 16,
(c,a) 15, (t,s) 5, (t,a) 4, and the first three merges are at, ag, cat.

>>> from subtok_core.corpus import load
>>> model = train_bpe(load("toy:cat-bat"), merges=3)
>>> model.merges
(('a', 't'), ('a', 'g'), ('c', 'at'))

Ties: the default rule ``first`` merges, among the pairs of highest count, the one seen
first scanning the words in first-appearance order, symbols left to right. ``lex`` takes
the lexicographically smallest pair; ``tokenizers`` the pair with the smallest symbol ids
(characters by code point, then merged symbols in the order they were made), which is what
Hugging Face tokenizers' BpeTrainer does.

``reference.py`` has the same algorithm as a student would first write it (recount every
pair before every merge); the property tests check that both give the same merges.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator

from ..corpus import WordCounts
from ..merging import SymbolCorpus, collect_steps, merge_goal, snapshot_mode, stop_reason
from ..records import EOW, SOW, Trace
from .encode import word_segmenter
from .records import BpeModel, BpeStart, BpeStep, _check_marker, initial_symbols

SNAPSHOT_MAX_WORDS = 400  # corpora with more distinct words get compact steps

TOP_PAIRS = 20  # pair-table rows kept per step in compact traces


class _State(SymbolCorpus):
    """The corpus during training, with pair counts kept up to date merge by merge.

    `buckets` groups pairs by count and `levels` is a heap of the counts in use (some
    stale). A merge never makes a count above the merged pair's, so the highest count only
    goes down and the pairs tied at it are one lookup away.
    """

    def __init__(self, wc: WordCounts, marker: str, ties: str, snapshot: bool):
        _check_marker(marker)
        segs = [initial_symbols(w, marker) for w in wc.words]
        bare = sorted({ch for w in wc.words for ch in w} | _marker_symbols(marker))
        suffixed = list(dict.fromkeys(s[-1] for s in segs)) if marker == "suffix" else []
        names = bare + [s for s in suffixed if s not in set(bare)]
        self._setup(wc, segs, names, ties, snapshot)

    def _setup(self, wc: WordCounts, segs: list, names: list[str], ties: str, snapshot: bool):
        """Count every pair of the words cut into `segs` (symbols numbered as in `names`);
        byte-level BPE (bytebpe/) starts here with its own symbols."""
        SymbolCorpus.__init__(self, wc, segs, names, ties)
        self.snapshot = snapshot
        self.vocab: list[str] = [self.ids[s] for s in self.names]
        self.pair_counts = self.initial_pair_counts()
        self.buckets: dict[int, set[str]] = defaultdict(set)
        for pair, c in self.pair_counts.items():
            self.buckets[c].add(pair)
        self.levels = [-c for c in self.buckets]
        heapq.heapify(self.levels)

    def _recount(self, pair: str, delta: int) -> None:
        """Move a pair to the bucket of its new count."""
        old = self.pair_counts.get(pair, 0)
        new = old + delta
        if old:
            bucket = self.buckets[old]
            bucket.discard(pair)
            if not bucket:
                del self.buckets[old]
        if new > 0:
            self.pair_counts[pair] = new
            if new not in self.buckets:
                heapq.heappush(self.levels, -new)
            self.buckets[new].add(pair)
        else:
            self.pair_counts.pop(pair, None)

    def top(self, limit: int) -> list[tuple[str, int]]:
        """The pairs of the highest count in tie order, then the groups below it, until
        at least `limit` pairs (the first group always whole)."""
        levels, buckets = self.levels, self.buckets
        found: list[tuple[str, int]] = []
        kept: list[int] = []
        key = None if self.ties == "tokenizers" else self.tie_order
        while levels and (not found or len(found) < limit):
            count = -heapq.heappop(levels)
            if count not in buckets or count in kept:
                continue  # stale level: no pair has this count any more
            kept.append(count)
            group = buckets[count]
            if found:  # below the top group only the rows of the table are needed
                group = heapq.nsmallest(limit - len(found), group, key=key)
            found.extend((pair, count) for pair in sorted(group, key=key))
        for count in kept:
            heapq.heappush(levels, -count)
        return found

    def merge(self, pair: str) -> tuple[str, bool]:
        """Replace the pair everywhere; update only the counts next to each merge."""
        new, is_new = self.intern(self.name(pair[0]) + self.name(pair[1]))
        if is_new:
            self.vocab.append(new)
        delta, _merged = self.merge_words(pair, new, is_new)
        self._recount(pair, -self.pair_counts[pair])
        for p, d in delta.items():
            if d and p != pair:
                self._recount(p, d)
        return new, is_new

    def pair_table(self, limit: int | None) -> tuple[tuple[str, str, int], ...]:
        """Pairs by count (high first), ties in tie order: all of them (snapshot), or the
        groups at the top of the queue until `limit` pairs (compact)."""
        if limit is None:
            items = sorted(self.pair_counts.items(), key=lambda pc: (-pc[1], self.tie_order(pc[0])))
        else:
            items = self.top(limit)[:limit]
        return tuple((*self.pair_name(p), count) for p, count in items)

    def start(self, wc: WordCounts) -> BpeStart:
        segs = self.segmentations() if self.snapshot else None
        table = self.pair_table(None if self.snapshot else TOP_PAIRS)
        vocab = tuple(self.name(s) for s in self.vocab)
        return BpeStart(wc.words, wc.counts, vocab, segs, table, self.corpus_symbols)


def _marker_symbols(marker: str) -> set[str]:
    return {"eow": {EOW}, "sow": {SOW}}.get(marker, set())


def _steps(state: _State, goal: int, by_merges: bool) -> Iterator[BpeStep]:
    """Merge until `goal` merges (or `goal` new symbols) are made or no pair is left."""
    number = 0
    while goal > 0:
        top = state.top(TOP_PAIRS)
        if not top:
            return
        pair, count = top[0]
        tied = [p for p, c in top[1:] if c == count]
        if state.snapshot:
            table = state.pair_table(None)
        else:
            table = tuple((*state.pair_name(p), c) for p, c in top[:TOP_PAIRS])
        new, is_new = state.merge(pair)
        number += 1
        goal -= 1 if (by_merges or is_new) else 0
        yield BpeStep(
            number=number,
            pair=state.pair_name(pair),
            count=count,
            new_symbol=state.name(new),
            tied_with=tuple(state.pair_name(p) for p in tied),
            pair_table=table,
            vocab_size=len(state.vocab),
            corpus_symbols=state.corpus_symbols,
            segmentations=state.segmentations() if state.snapshot else None,
            new_in_vocab=is_new,
        )


def iter_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
    snapshot: bool | None = None,
) -> Iterator[BpeStep]:
    """Yield one BpeStep per merge until the number of merges or the vocab size is reached.

    Ties: ``first`` (default), ``lex`` or ``tokenizers``; see the module docstring.
    Stops early when no pair is left (every word is a single symbol).
    """
    state = _State(wc, marker, ties, snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS))
    yield from _steps(state, merge_goal(len(state.vocab), merges, vocab_size), merges is not None)


def trace_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Trace:
    """Run the merges to the end and keep the start state, every step and why it stopped."""
    state = _State(wc, marker, ties, snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS))
    start = state.start(wc)
    goal = merge_goal(len(start.vocab), merges, vocab_size)
    steps = collect_steps(_steps(state, goal, merges is not None), goal, progress)
    made = len(steps) if merges is not None else len(state.vocab) - len(start.vocab)
    truncated, reason = stop_reason(made, goal, merges, vocab_size, len(steps))
    params = (("marker", marker), ("ties", ties), ("merges", merges), ("vocab_size", vocab_size))
    return Trace("bpe", params, start, tuple(steps), truncated, reason, not state.snapshot)


def model_from_trace(trace: Trace, upto: int | None = None, split_punct: bool = False) -> BpeModel:
    """The model after the first `upto` merges of a trace (all of them by default)."""
    steps = trace.steps[:upto] if upto is not None else trace.steps
    alphabet = trace.start.vocab
    vocab = list(alphabet)
    for step in steps:
        if step.new_in_vocab:
            vocab.append(step.new_symbol)
    merges = tuple(step.pair for step in steps)
    return BpeModel(merges, tuple(vocab), alphabet, trace.param("marker"), split_punct)


def train_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
) -> BpeModel:
    """Train to the end and keep the model (merges in order, vocabulary, alphabet)."""
    return model_from_trace(trace_bpe(wc, merges, vocab_size, marker, ties, snapshot=False))


def corpus_at(trace: Trace, upto: int, limit: int = 40) -> list[tuple[str, int, tuple[str, ...]]]:
    """(word, count, segmentation) after `upto` merges, for the first `limit` words.

    Snapshot traces read it from the step record; compact traces (real samples) rebuild
    it by replaying the first `upto` merges on those words.
    """
    start = trace.start
    words = list(zip(start.words, start.counts))[:limit]
    if start.segmentations is not None:
        segs = start.segmentations if upto == 0 else trace.steps[upto - 1].segmentations
        return [(w, c, s) for (w, c), s in zip(words, segs)]
    cut = word_segmenter(model_from_trace(trace, upto))
    return [(word, count, tuple(cut(word))) for word, count in words]
