"""The WordPiece trainer: merge the pair of highest score until the vocabulary is big enough.

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
>>> from subtok_core.wordpiece import fraction_text, segment
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

``state.py`` keeps the counts and scores up to date merge by merge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..bpe.train import SNAPSHOT_MAX_WORDS, TOP_PAIRS
from ..corpus import WordCounts
from ..merging import collect_steps, merge_goal, snapshot_mode, stop_reason
from ..records import Trace
from .records import PREFIX, SPECIAL_TOKENS, Pair, WordPieceModel, WordPieceStep, initial_symbols
from .state import _State


def _goal(state: _State, merges: int | None, vocab_size: int | None) -> int:
    """How many merges to make (vocab_size: until the vocabulary has that many entries,
    special tokens included)."""
    what = f" ({len(state.vocab)} symbols and 5 special tokens)" if state.specials else ""
    return merge_goal(len(state.vocab) + len(state.specials), merges, vocab_size, what)


def _steps(state: _State, goal: int, by_merges: bool, snap: bool) -> Iterator[WordPieceStep]:
    """Merge until `goal` merges (or `goal` new symbols) are made or no pair is left."""
    number = 0
    while goal > 0:
        # the pairs of highest exact score (every pair is scored), in tie order
        top = state.top(TOP_PAIRS)
        if not top:
            return
        # pick the best: the first of them, by the tie rule; note the others at its score
        best = top[0][1]
        winner = state.row(top[0][0], best)
        tied = [p for p, score in top[1:] if score == best]
        # what BPE would merge instead: the most frequent pair
        bpe_pair, bpe_count = state.most_frequent()
        table = state.pair_table() if snap else tuple(state.row(*ps) for ps in top[:TOP_PAIRS])
        # merge it everywhere; the counts and scores next to each merge follow
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
