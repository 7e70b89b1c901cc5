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
``state.py`` keeps the counts: a merge visits only the words that have the pair.
``trace_bpe`` keeps a record of every step (what the BPE page shows: the top of the pair
table, the pairs tied with the chosen one); ``train_bpe`` makes the same merges and keeps
only the model, as Hugging Face's BpeTrainer does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..corpus import WordCounts
from ..merging import collect_steps, merge_goal, snapshot_mode, stop_reason
from ..records import Trace
from .encode import word_segmenter
from .records import BpeModel, BpeStep
from .state import TOP_PAIRS, BpeState

SNAPSHOT_MAX_WORDS = 400  # corpora with more distinct words get compact steps


def run_merges(
    state: BpeState, goal: int, by_merges: bool, table_rows: int = TOP_PAIRS
) -> Iterator[BpeStep]:
    """Merge until `goal` merges (or `goal` new symbols) are made or no pair is left: one
    BpeStep per merge. The trainer's public loop: byte-level BPE runs it on a
    ``BpeState.from_symbols`` of bytes."""
    number = 0
    while goal > 0:
        # 1. the groups of highest count, in tie order: the first pair is the one to merge
        groups = state.top(max(table_rows, 1))
        if not groups:
            return  # every word is a single symbol: nothing left to merge
        count, (pair, *tied) = groups[0]
        # 2. the table the step shows: every pair (toys) or the first rows (real samples)
        table = state.pair_table(None) if state.snapshot else state.rows(groups, table_rows)
        # 3. merge the pair in every word that has it, moving only the counts next to it
        new, is_new = state.merge(pair)
        number += 1
        goal -= 1 if (by_merges or is_new) else 0
        yield BpeStep(
            number=number,
            pair=state.pair_name(pair),
            count=count,
            new_symbol=state.name(new),
            tied_with=state.names_of(tied),
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
    state = BpeState(wc, marker, ties, snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS))
    yield from run_merges(
        state, merge_goal(len(state.vocab), merges, vocab_size), merges is not None
    )


def trace_bpe(
    wc: WordCounts,
    merges: int | None = None,
    vocab_size: int | None = None,
    marker: str = "none",
    ties: str = "first",
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    table_rows: int = TOP_PAIRS,
) -> Trace:
    """Run the merges to the end and keep the start state, every step and why it stopped.

    `table_rows`: how many rows of the pair table a compact step keeps (real samples; a
    snapshot keeps every pair); 0 keeps none, for a reader that shows only the merges,
    their counts and ties (the command line without --full): the same merges, faster."""
    state = BpeState(wc, marker, ties, snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS))
    start = state.start(wc)
    goal = merge_goal(len(start.vocab), merges, vocab_size)
    steps = collect_steps(run_merges(state, goal, merges is not None, table_rows), goal, progress)
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
    """Train to the end and keep the model (merges in order, vocabulary, alphabet).

    The same merges as ``trace_bpe``, without its step records (pair tables, tied pairs):
    what a model needs, and all that Hugging Face's BpeTrainer makes.
    """
    state = BpeState(wc, marker, ties, snapshot=False)
    alphabet = tuple(state.name(s) for s in state.vocab)
    goal = merge_goal(len(alphabet), merges, vocab_size)
    learned = []
    while goal > 0:
        # 1. the pair of highest count (the tie rule picks among equal counts)
        best = state.best()
        if best is None:
            break  # every word is a single symbol: nothing left to merge
        # 2. merge it in every word that has it, moving only the counts next to it
        _new, is_new = state.merge(best[0])
        learned.append(state.pair_name(best[0]))
        goal -= 1 if (merges is not None or is_new) else 0
    vocab = tuple(state.name(s) for s in state.vocab)
    return BpeModel(tuple(learned), vocab, alphabet, marker)


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
