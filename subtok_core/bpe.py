"""Byte-pair encoding: learn merges one at a time, then replay them to encode a word.

Worked example (001, `toy:cat-bat`): the pairs start at (a,t) 20, (b,a) 17, (a,g) 16,
(c,a) 15, (t,s) 5, (t,a) 4, and the first three merges are at, ag, cat.

>>> from subtok_core.corpus import load
>>> model = train_bpe(load("toy:cat-bat"), merges=3)
>>> model.merges
(('a', 't'), ('a', 'g'), ('c', 'at'))
>>> segment(model, "bags").pieces
['b', 'ag', 's']

Ties: the default rule ``first`` merges, among the pairs of highest count, the one seen
first scanning the words in first-appearance order, symbols left to right. ``lex`` takes
the lexicographically smallest pair; ``tokenizers`` the pair with the smallest symbol ids
(characters by code point, then merged symbols in the order they were made), which is what
Hugging Face tokenizers' BpeTrainer does.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .corpus import WordCounts
from .steps import SegmentTrace, Span, Trace

EOW = "</w>"
SOW = "\u2581"  # ▁, SentencePiece's word-start symbol
UNK = "[UNK]"
MARKERS = ("none", "eow", "suffix", "sow")
TIE_RULES = ("first", "lex", "tokenizers")
SNAPSHOT_MAX_WORDS = 400  # corpora with more distinct words get compact steps
TOP_PAIRS = 20  # pair-table rows kept per step in compact traces

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class BpeStart:
    """The corpus before the first merge."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    vocab: tuple[str, ...]
    segmentations: tuple[tuple[str, ...], ...] | None
    pair_table: tuple[tuple[str, str, int], ...]
    corpus_symbols: int


@dataclass(frozen=True, slots=True)
class BpeStep:
    """One merge: the pair table it chose from, the pair, and the corpus after it."""

    number: int
    pair: Pair
    count: int
    new_symbol: str
    tied_with: tuple[Pair, ...]
    pair_table: tuple[tuple[str, str, int], ...]
    vocab_size: int
    corpus_symbols: int
    segmentations: tuple[tuple[str, ...], ...] | None
    new_in_vocab: bool


@dataclass(frozen=True, slots=True)
class BpeModel:
    merges: tuple[Pair, ...]
    vocab: tuple[str, ...]
    alphabet: tuple[str, ...]
    marker: str
    split_punct: bool = False


@dataclass(frozen=True, slots=True)
class BpeWordTrace:
    """How one word was encoded: its first symbols, then (merge number, pair, symbols after)."""

    word: str
    start: int
    initial: tuple[str, ...]
    applied: tuple[tuple[int, Pair, tuple[str, ...]], ...]
    widths: tuple[int, ...]  # characters of the word each final symbol covers

    @property
    def final(self) -> tuple[str, ...]:
        return self.applied[-1][2] if self.applied else self.initial


def initial_symbols(word: str, marker: str) -> list[str]:
    """Split a word into characters and add the word-boundary marker.

    >>> initial_symbols("low", "eow"), initial_symbols("low", "suffix")
    (['l', 'o', 'w', '</w>'], ['l', 'o', 'w</w>'])
    """
    chars = list(word)
    if marker == "eow":
        return [*chars, EOW]
    if marker == "suffix":
        return [*chars[:-1], chars[-1] + EOW]
    if marker == "sow":
        return [SOW, *chars]
    return chars


def _check_params(marker: str, ties: str) -> None:
    if marker not in MARKERS:
        raise ValueError(f"Unknown marker {marker!r}; choose one of {', '.join(MARKERS)}.")
    if ties not in TIE_RULES:
        raise ValueError(f"Unknown tie rule {ties!r}; choose one of {', '.join(TIE_RULES)}.")


class _State:
    """The corpus during training, with pair counts kept up to date merge by merge.

    Symbol i is written as the character chr(i), so a word is a str and a pair a 2-char
    str: finding and replacing a pair runs in C (str.replace merges left to right without
    overlap, as BPE does). Ids follow tokenizers: characters by code point, then merged
    symbols in the order they are made. `where` maps a pair to the words it was seen in
    (it may keep words that lost it: merging there finds nothing). `buckets` groups pairs
    by count and `levels` is a heap of the counts in use (some stale). A merge never makes
    a count above the merged pair's, so the highest count only goes down.
    """

    def __init__(self, wc: WordCounts, marker: str, ties: str, snapshot: bool):
        self.ties, self.snapshot, self.counts = ties, snapshot, list(wc.counts)
        segs = [initial_symbols(w, marker) for w in wc.words]
        bare = sorted({ch for w in wc.words for ch in w} | _marker_symbols(marker))
        suffixed = list(dict.fromkeys(s[-1] for s in segs)) if marker == "suffix" else []
        self.names: list[str] = bare + [s for s in suffixed if s not in set(bare)]
        self.ids = {s: chr(i) for i, s in enumerate(self.names)}
        self.vocab: list[str] = [self.ids[s] for s in self.names]
        self.words = ["".join(self.ids[s] for s in seg) for seg in segs]
        self.pair_counts: dict[str, int] = defaultdict(int)
        self.where: dict[str, list[int]] = defaultdict(list)
        for w, word in enumerate(self.words):
            c = self.counts[w]
            for i in range(len(word) - 1):
                pair = word[i : i + 2]
                self.pair_counts[pair] += c
                self.where[pair].append(w)
        self.buckets: dict[int, set[str]] = defaultdict(set)
        for pair, c in self.pair_counts.items():
            self.buckets[c].add(pair)
        self.levels = [-c for c in self.buckets]
        heapq.heapify(self.levels)
        self.corpus_symbols = sum(len(s) * c for s, c in zip(self.words, self.counts))

    def name(self, symbol: str) -> str:
        return self.names[ord(symbol)]

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

    def first_seen(self, pair: str) -> tuple[int, int]:
        """(word index, symbol index) of the pair's first occurrence in the corpus now."""
        for w in sorted(set(self.where.get(pair, ()))):
            i = self.words[w].find(pair)
            if i >= 0:
                return (w, i)
        raise AssertionError("pair count and occurrences disagree")

    def tie_order(self, pair: str):
        """Sort key among pairs of equal count: the rule of this run."""
        if self.ties == "first":
            return self.first_seen(pair)
        if self.ties == "lex":
            return (self.name(pair[0]), self.name(pair[1]))
        return pair  # ids: code point order, then merge order (tokenizers' rule)

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
        a, b = pair
        name = self.name(a) + self.name(b)
        is_new = name not in self.ids
        if is_new:
            self.ids[name] = chr(len(self.names))
            self.names.append(name)
            self.vocab.append(self.ids[name])
        new = self.ids[name]
        delta: dict[str, int] = defaultdict(int)
        where, words, counts = self.where, self.words, self.counts
        merged = 0
        for w in where.pop(pair, ()):
            old = words[w]
            if pair not in old:
                continue  # this word lost the pair to an earlier merge
            c = counts[w]
            word = words[w] = old.replace(pair, new)
            merged += c * (len(old) - len(word))
            if not is_new:  # the new symbol may stand in the word already: recount it
                _diff_pairs(old, word, c, delta, where, w)
                continue
            j = word.find(new)
            while j >= 0:
                if j > 0:  # the left neighbour now pairs with the new symbol
                    left = word[j - 1]
                    delta[(b if left == new else left) + a] -= c
                    delta[left + new] += c
                    where[left + new].append(w)
                if j + 1 < len(word) and word[j + 1] != new:  # and so does the right one
                    right = word[j + 1]
                    delta[b + right] -= c
                    delta[new + right] += c
                    where[new + right].append(w)
                j = word.find(new, j + 1)
        self.corpus_symbols -= merged
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
        return tuple((self.name(p[0]), self.name(p[1]), count) for p, count in items)

    def segmentations(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(self.name(s) for s in word) for word in self.words)

    def start(self, wc: WordCounts) -> BpeStart:
        segs = self.segmentations() if self.snapshot else None
        table = self.pair_table(None if self.snapshot else TOP_PAIRS)
        vocab = tuple(self.name(s) for s in self.vocab)
        return BpeStart(wc.words, wc.counts, vocab, segs, table, self.corpus_symbols)


def _diff_pairs(old: str, new: str, c: int, delta: dict, where: dict, w: int) -> None:
    """Pair changes of one word by recounting it (when the new symbol was there before)."""
    for i in range(len(old) - 1):
        delta[old[i : i + 2]] -= c
    for i in range(len(new) - 1):
        delta[new[i : i + 2]] += c
        where[new[i : i + 2]].append(w)


def _marker_symbols(marker: str) -> set[str]:
    return {"eow": {EOW}, "sow": {SOW}}.get(marker, set())


def _target(state: _State, merges: int | None, vocab_size: int | None) -> int:
    """How many more merges to make (vocab_size: until the vocabulary has that many symbols)."""
    if (merges is None) == (vocab_size is None):
        raise ValueError("Give either a number of merges or a target vocabulary size.")
    if merges is not None:
        if merges < 0:
            raise ValueError(f"The number of merges must be 0 or more, not {merges}.")
        return merges
    start = len(state.vocab)
    if vocab_size < start:
        raise ValueError(
            f"vocab size {vocab_size} is smaller than the {start} symbols this corpus starts "
            f"with; choose at least {start}."
        )
    return vocab_size - start


def iter_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
    snapshot: bool | None = None,
    _state: _State | None = None,
) -> Iterator[BpeStep]:
    """Yield one BpeStep per merge until the number of merges or the vocab size is reached.

    Ties: ``first`` (default), ``lex`` or ``tokenizers``; see the module docstring.
    Stops early when no pair is left (every word is a single symbol).
    """
    _check_params(marker, ties)
    snap = len(wc) <= SNAPSHOT_MAX_WORDS if snapshot is None else snapshot
    state = _state or _State(wc, marker, ties, snap)
    remaining = _target(state, merges, vocab_size)
    number = 0
    while remaining > 0:
        top = state.top(TOP_PAIRS)
        if not top:
            return
        pair, count = top[0]
        tied = [p for p, c in top[1:] if c == count]
        if snap:
            table = state.pair_table(None)
        else:
            table = tuple((state.name(p[0]), state.name(p[1]), c) for p, c in top[:TOP_PAIRS])
        new, is_new = state.merge(pair)
        number += 1
        remaining -= 1 if (merges is not None or is_new) else 0
        name = state.name
        yield BpeStep(
            number=number,
            pair=(name(pair[0]), name(pair[1])),
            count=count,
            new_symbol=name(new),
            tied_with=tuple((name(p[0]), name(p[1])) for p in tied),
            pair_table=table,
            vocab_size=len(state.vocab),
            corpus_symbols=state.corpus_symbols,
            segmentations=state.segmentations() if snap else None,
            new_in_vocab=is_new,
        )


def trace_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Trace:
    """Run iter_bpe to the end and keep the start state, every step and why it stopped."""
    _check_params(marker, ties)
    snap = len(wc) <= SNAPSHOT_MAX_WORDS if snapshot is None else snapshot
    state = _State(wc, marker, ties, snap)
    start = state.start(wc)
    goal = _target(state, merges, vocab_size)
    steps = []
    for step in iter_bpe(wc, merges, vocab_size, marker, ties, snap, _state=state):
        steps.append(step)
        if progress and (len(steps) % 50 == 0 or len(steps) == goal):
            progress(len(steps), goal)
    made = len(steps) if merges is not None else len(state.vocab) - len(start.vocab)
    truncated = made < goal
    goal_text = f"{merges} merges" if merges is not None else f"vocab size {vocab_size}"
    reason = (
        f"Stopped after {len(steps)} merges: no pair is left, every word is one symbol."
        if truncated
        else f"Reached the {goal_text} asked for."
    )
    params = (("marker", marker), ("ties", ties), ("merges", merges), ("vocab_size", vocab_size))
    return Trace("bpe", params, start, tuple(steps), truncated, reason, not snap)


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


def encode_word(
    model: BpeModel, word: str, ranks: dict[Pair, int] | None = None, offset: int = 0
) -> BpeWordTrace:
    """Replay the merges in the order they were learned on one word.

    A character never seen in training becomes [UNK] and takes part in no merge.
    """
    ranks = ranks if ranks is not None else _ranks(model)
    known = set(model.alphabet)
    firsts = initial_symbols(word, model.marker)
    syms = [s if s in known else None for s in firsts]
    widths = _initial_widths(word, model.marker)
    initial = tuple(UNK if s is None else s for s in syms)
    applied = []
    nxt = 0  # merges before this one have had their turn already
    while True:
        found = [ranks.get((x, y), -1) for x, y in zip(syms, syms[1:])]
        candidates = [r for r in found if r >= nxt]
        if not candidates:
            break
        rank = min(candidates)
        a, b = model.merges[rank]
        syms, widths = _merge_list(syms, widths, a, b)
        applied.append((rank + 1, (a, b), tuple(UNK if s is None else s for s in syms)))
        nxt = rank + 1
    return BpeWordTrace(word, offset, initial, tuple(applied), tuple(widths))


def _initial_widths(word: str, marker: str) -> list[int]:
    """How many characters of the word each initial symbol covers (a marker: none)."""
    if marker == "eow":
        return [1] * len(word) + [0]
    if marker == "sow":
        return [0] + [1] * len(word)
    return [1] * len(word)


def _merge_list(syms: list, widths: list[int], a: str, b: str) -> tuple[list, list[int]]:
    """Merge every (a, b) left to right; widths add up."""
    out, out_widths, i = [], [], 0
    while i < len(syms):
        if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
            out.append(a + b)
            out_widths.append(widths[i] + widths[i + 1])
            i += 2
        else:
            out.append(syms[i])
            out_widths.append(widths[i])
            i += 1
    return out, out_widths


def _ranks(model: BpeModel) -> dict[Pair, int]:
    ranks: dict[Pair, int] = {}
    for i, pair in enumerate(model.merges):
        ranks.setdefault(pair, i)
    return ranks


def _word_spans(trace: BpeWordTrace) -> list[Span]:
    """Character spans of a word's final symbols; markers cover no character."""
    spans, pos = [], trace.start
    for sym, width in zip(trace.final, trace.widths, strict=True):
        spans.append(Span(sym, pos, pos + width))
        pos += width
    return spans


def segment(model: BpeModel, text: str) -> SegmentTrace:
    """Encode a text word by word: tokens as spans plus each word's merge trace."""
    from .corpus import split_words

    if not text.strip():
        raise ValueError("Type a word to encode.")
    ranks = _ranks(model)
    words, tokens, pos = [], [], 0
    for word in split_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start + len(word)
        trace = encode_word(model, word, ranks, start)
        words.append(trace)
        tokens.extend(_word_spans(trace))
    return SegmentTrace(text, tuple(tokens), tuple(words))


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
    model = model_from_trace(trace, upto)
    ranks = _ranks(model)
    result = []
    for word, count in words:
        result.append((word, count, encode_word(model, word, ranks).final))
    return result
