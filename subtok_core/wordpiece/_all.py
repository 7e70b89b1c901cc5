"""WordPiece: merge the pair of highest score, then encode a word by longest match first.

Training starts from characters, every word-internal one carrying the prefix ``##``, and
merges at each step the pair with the highest score

    score(a, b) = count(a b) / (count(a) x count(b))

where counts are occurrences in the corpus weighted by the word counts. The new symbol
is ``a + b`` without b's prefix: ``##e + ##r -> ##er``, ``s + ##u -> su``. Scores are
compared exactly (as fractions), never as floats.

Worked example (001, `toy:sunflower`): (s, ##u) scores 3 / (3 x 3) = 1/3 and is merged
first; then (##e, ##r) and (##e, ##d) tie at 1/4 and ##er, seen first, wins; then (##e, ##d)
scores 1 / (1 x 1) = 1.

>>> from subtok_core.corpus import load
>>> trace = trace_wordpiece(load("toy:sunflower"), merges=3)
>>> [(s.new_symbol, fraction_text(s.score_fraction)) for s in trace.steps]
[('su', '1/3'), ('##er', '1/4'), ('##ed', '1/1')]
>>> model = model_from_trace(trace)
>>> segment(model, "fused funny").pieces
['f', '##u', '##s', '##ed', '[UNK]']

Ties: the default rule ``first`` merges, among the pairs of highest score, the one seen
first scanning the words in first-appearance order, symbols left to right. ``lex`` takes
the lexicographically smallest pair; ``tokenizers`` the pair with the smallest symbol ids
(initial symbols in code point order, then merged symbols in the order they were made).
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, NamedTuple

from ..bpe import SNAPSHOT_MAX_WORDS, TOP_PAIRS, UNK
from ..corpus import WordCounts
from ..merging import SymbolCorpus, collect_steps, merge_goal, snapshot_mode, stop_reason
from ..records import SegmentTrace, Span, Trace

PREFIX = "##"
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
        self.symbol_counts: dict[str, int] = defaultdict(int)
        for word, c in zip(self.words, self.counts):
            for symbol, n in Counter(word).items():
                self.symbol_counts[symbol] += n * c
        self.pair_counts: dict[str, int] = {}
        self.uses: dict[str, set[str]] = defaultdict(set)
        self.scores: dict[str, float] = {}
        self.heap: list[tuple[float, str]] = []
        self.by_count: list[tuple[int, str]] = []
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
        delta, merged = self.merge_words(pair, new, is_new)
        # a, b lose one occurrence per merge, the new symbol gains one
        self.symbol_counts[a] -= merged
        self.symbol_counts[b] -= merged
        self.symbol_counts[new] += merged
        if is_new:  # delta does not track the merged pair itself: it is gone
            self._set_count(pair, 0)
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


def _goal(state: _State, merges: int | None, vocab_size: int | None) -> int:
    """How many merges to make (vocab_size: until the vocabulary has that many entries,
    special tokens included)."""
    what = f" ({len(state.vocab)} symbols and 5 special tokens)" if state.specials else ""
    return merge_goal(len(state.vocab) + len(state.specials), merges, vocab_size, what)


def _steps(state: _State, goal: int, by_merges: bool, snap: bool) -> Iterator[WordPieceStep]:
    """Merge until `goal` merges (or `goal` new symbols) are made or no pair is left."""
    number = 0
    while goal > 0:
        top = state.top(TOP_PAIRS)
        if not top:
            return
        best = top[0][1]
        winner = state.row(top[0][0], best)
        tied = [p for p, score in top[1:] if score == best]
        bpe_pair, bpe_count = state.most_frequent()
        table = state.pair_table() if snap else tuple(state.row(*ps) for ps in top[:TOP_PAIRS])
        new, new_in_vocab = state.merge(top[0][0])
        number += 1
        goal -= 1 if (by_merges or new_in_vocab) else 0
        yield WordPieceStep(
            number=number,
            pair=(winner.left, winner.right),
            new_symbol=state.name(new),
            pair_count=winner.pair_count,
            left_count=winner.left_count,
            right_count=winner.right_count,
            score=winner.score,
            score_fraction=best,
            tied_with=tuple(state.pair_name(p) for p in tied),
            bpe_pair=state.pair_name(bpe_pair),
            bpe_count=bpe_count,
            pair_table=table,
            vocab_size=len(state.vocab) + len(state.specials),
            corpus_symbols=state.corpus_symbols,
            segmentations=state.segmentations() if snap else None,
            new_in_vocab=new_in_vocab,
        )


def iter_wordpiece(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    prefix: str = PREFIX,
    ties: str = "first",
    special_tokens: bool = False,
    snapshot: bool | None = None,
) -> Iterator[WordPieceStep]:
    """Yield one WordPieceStep per merge until the number of merges or the vocab size is
    reached (the vocab size counts the special tokens when they are on).

    Ties: ``first`` (default), ``lex`` or ``tokenizers``; see the module docstring.
    Stops early when no pair is left (every word is a single symbol).
    """
    state = _State(wc, prefix, ties, SPECIAL_TOKENS if special_tokens else ())
    goal = _goal(state, merges, vocab_size)
    snap = snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS)
    yield from _steps(state, goal, merges is not None, snap)


def trace_wordpiece(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    prefix: str = PREFIX,
    ties: str = "first",
    special_tokens: bool = False,
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Trace:
    """Run the merges to the end and keep the start state, every step and why it stopped.

    >>> from subtok_core.corpus import load
    >>> trace = trace_wordpiece(load("toy:hug-pug"), merges=2)
    >>> trace.steps[1].pair, trace.steps[1].score_fraction, len(trace.steps[1].tied_with)
    (('h', '##u'), Fraction(1, 36), 5)
    """
    state = _State(wc, prefix, ties, SPECIAL_TOKENS if special_tokens else ())
    snap = snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS)
    start = state.start(wc, snap)
    goal = _goal(state, merges, vocab_size)
    steps = collect_steps(_steps(state, goal, merges is not None, snap), goal, progress)
    made = len(steps) if merges is not None else len(state.vocab) - len(start.alphabet)
    truncated, reason = stop_reason(made, goal, merges, vocab_size, len(steps))
    params = (
        ("prefix", prefix),
        ("ties", ties),
        ("special_tokens", special_tokens),
        ("merges", merges),
        ("vocab_size", vocab_size),
    )
    return Trace("wordpiece", params, start, tuple(steps), truncated, reason, not snap)


def model_from_trace(
    trace: Trace, upto: int | None = None, split_punct: bool = False
) -> WordPieceModel:
    """The model after the first `upto` merges of a trace (all of them by default)."""
    steps = trace.steps[:upto] if upto is not None else trace.steps
    vocab = list(trace.start.vocab)
    vocab.extend(step.new_symbol for step in steps if step.new_in_vocab)
    specials = SPECIAL_TOKENS if trace.param("special_tokens") else ()
    prefix = trace.param("prefix", PREFIX)
    return WordPieceModel(tuple(vocab), trace.start.alphabet, prefix, specials, split_punct)


def train_wordpiece(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    prefix: str = PREFIX,
    ties: str = "first",
    special_tokens: bool = False,
) -> WordPieceModel:
    """Train to the end and keep the model (the vocabulary; WordPiece keeps no merges)."""
    trace = trace_wordpiece(wc, merges, vocab_size, prefix, ties, special_tokens, snapshot=False)
    return model_from_trace(trace)


# --- encoding -------------------------------------------------------------------------


def word_segmenter(model: WordPieceModel) -> Callable[[str], list[str]]:
    """word -> its pieces by longest match, with the vocabulary set built once.

    >>> word_segmenter(WordPieceModel(("f", "##u", "##s", "##ed"), ()))("fused")
    ['f', '##u', '##s', '##ed']
    """
    vocab = frozenset(model.vocab)
    return lambda word: list(encode_word(model, word, vocab).pieces)


def encode_word(
    model: WordPieceModel,
    word: str,
    vocab: set[str] | frozenset[str] | None = None,
    offset: int = 0,
) -> WordPieceWordTrace:
    """Longest match first: from the word start take the longest prefix in the vocabulary,
    then go on with the rest (with the ``##`` prefix). If some rest matches nothing, the
    whole word becomes [UNK].

    >>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
    >>> [(a.piece, a.found) for a in encode_word(model, "fused").attempts][-4:]
    [('##sed', False), ('##se', False), ('##s', True), ('##ed', True)]
    """
    vocab = vocab if vocab is not None else frozenset(model.vocab)
    if len(word) > model.max_word_chars:
        note = f"the word is longer than {model.max_word_chars} characters"
        return _unknown(model, word, offset, (), note)
    attempts: list[Attempt] = []
    pieces: list[str] = []
    widths: list[int] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else model.prefix + word[start:end]
            attempts.append(Attempt(start, end, piece, piece in vocab))
            if attempts[-1].found:  # the longest piece that is in the vocabulary
                break
        else:
            return _unknown(model, word, offset, tuple(attempts), _no_match(model, word, start))
        pieces.append(piece)
        widths.append(end - start)
        start = end
    return WordPieceWordTrace(
        word, offset, tuple(attempts), tuple(pieces), tuple(widths), False, ""
    )


def _no_match(model: WordPieceModel, word: str, start: int) -> str:
    """Why the rest of a word from `start` on matches nothing."""
    mark = model.prefix if start > 0 else ""
    rest, first = mark + word[start:], mark + word[start]
    if rest == first:
        return f"{rest!r} is not in the vocabulary"
    return f"no start of {rest!r} is in the vocabulary, not even {first!r}"


def _unknown(
    model: WordPieceModel, word: str, offset: int, attempts: tuple[Attempt, ...], note: str
) -> WordPieceWordTrace:
    unk = model.unk_token
    note = f"{note}, so the whole word becomes {unk}."
    return WordPieceWordTrace(word, offset, attempts, (unk,), (len(word),), True, note)


def segment(model: WordPieceModel, text: str) -> SegmentTrace:
    """Encode a text word by word: tokens as spans plus each word's attempts.

    A span covers the characters of the word its piece stands for; the prefix covers none.

    >>> model = WordPieceModel(("f", "##u", "##s", "##ed"), ())
    >>> segment(model, "a fused").tokens[1:3]
    (Span(text='f', start=2, end=3), Span(text='##u', start=3, end=4))
    """
    from ..corpus import split_words

    if not text.strip():
        raise ValueError("Type a word to encode.")
    vocab = frozenset(model.vocab)
    words, tokens, pos = [], [], 0
    for word in split_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start + len(word)
        trace = encode_word(model, word, vocab, start)
        words.append(trace)
        edge = start
        for piece, width in zip(trace.pieces, trace.widths, strict=True):
            tokens.append(Span(piece, edge, edge + width))
            edge += width
    return SegmentTrace(text, tuple(tokens), tuple(words))


def corpus_at(trace: Trace, upto: int, limit: int = 40) -> list[tuple[str, int, tuple[str, ...]]]:
    """(word, count, segmentation) after `upto` merges, for the first `limit` words.

    Snapshot traces read it from the step record; compact traces (real samples) rebuild
    it by applying the first `upto` merges, in order, to those words. (This is the
    training segmentation, not the longest-match encoding of segment().)
    """
    start = trace.start
    words = list(zip(start.words, start.counts))[:limit]
    if start.segmentations is not None:
        segs = start.segmentations if upto == 0 else trace.steps[upto - 1].segmentations
        return [(w, c, s) for (w, c), s in zip(words, segs)]
    prefix = trace.param("prefix", PREFIX)
    segs = [initial_symbols(w, prefix) for w, _ in words]
    for step in trace.steps[:upto]:
        a, b = step.pair
        for i, seg in enumerate(segs):
            if a in seg and b in seg:
                segs[i] = apply_merge(seg, step.pair, prefix)
    return [(w, c, tuple(s)) for (w, c), s in zip(words, segs)]


def apply_merge(seg: list[str], pair: Pair, prefix: str = PREFIX) -> list[str]:
    """Merge every (a, b) of one word left to right, without overlap.

    >>> apply_merge(["f", "##l", "##o", "##w", "##e", "##r"], ("##e", "##r"))
    ['f', '##l', '##o', '##w', '##er']
    """
    a, b = pair
    out, i = [], 0
    while i < len(seg):
        if i + 1 < len(seg) and seg[i] == a and seg[i + 1] == b:
            out.append(a + b[len(prefix) :])
            i += 2
        else:
            out.append(seg[i])
            i += 1
    return out
