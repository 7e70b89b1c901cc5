"""The Picky BPE trainer (Chizhov et al., EMNLP 2024): BPE that may remove a token again.

After each merge x1 + x2 -> x1x2, each part x is judged by its IoS, f(x1x2) / f(x) with
the frequencies before the merge: the share of x's occurrences the merge took. A part
whose IoS exceeds the threshold τ has become an intermediate token, and is removed: every
occurrence left is cut back into the tokens it was made of (a split). A removed token can
come back when a later merge makes it again. τ = 1 never removes anything (plain BPE).

Words start with ▁, a symbol of its own, and the vocabulary size counts as the authors'
trainer counts it: its 4 special tokens, the characters, +1 per merge, -1 per split; the
run stops when it reaches the size, or when no pair is left.

>>> from subtok_core.corpus import load
>>> trace = trace_picky(load("toy:low-lower"), vocab_size=25, threshold=0.9)
>>> [(s.kind, s.symbol) for s in trace.steps[:4]]
[('merge', 'es'), ('merge', 'est'), ('split', 'es'), ('merge', '▁l')]
>>> model_from_trace(trace).vocab[11:]
('▁low', '▁newest', '▁widest', '▁lower')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .. import limits
from ..corpus import WordCounts
from ..merge_runs import collect_steps, snapshot_mode
from ..records import Trace
from .records import MERGE, SPLIT, PickyModel, PickyStart, PickyStep
from .state import PickyState

SNAPSHOT_MAX_WORDS = 400  # corpora with more distinct words get compact steps
TOP_PAIRS = 20  # rows of the pair table a compact step keeps
SPECIALS = 4  # the reference's <PAD>, <UNK>, <BOS>, <EOS>, counted in its vocabulary size


def check_settings(vocab_size, threshold, specials: int = SPECIALS) -> None:
    """Refuse settings the trainer cannot run, with a sentence."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool) or vocab_size < 1:
        raise ValueError(
            f"The vocabulary size must be a whole number of 1 or more, not {vocab_size!r}."
        )
    limits.check("vocab_size", vocab_size)
    if not isinstance(threshold, int | float) or not 0 < threshold <= 1:
        raise ValueError(
            f"The threshold τ must be a number above 0 and at most 1, not {threshold!r}: a "
            "part is removed when its IoS (a share, 0 to 1) exceeds τ, so τ = 1 removes none."
        )
    if not isinstance(specials, int) or specials < 0:
        raise ValueError(f"The special tokens must be 0 or more, not {specials!r}.")


def _snapshot(state: PickyState, snapshot: bool, size: int) -> dict:
    """What a step shows of the corpus right after it (taken before the next event)."""
    return {
        "vocab_size": len(state.present),
        "size": size,
        "corpus_symbols": state.corpus_symbols(),
        "segmentations": state.segmentations() if snapshot else None,
    }


def run_events(
    state: PickyState, target: int, threshold: float, specials: int, snapshot: bool, rows: int
) -> Iterator[PickyStep]:
    """Merge the most frequent pair, then remove the parts IoS judges, until the size
    (in the reference's counting) reaches `target` or no pair is left."""
    size = specials + len(state.alphabet)
    number = 0
    cap = 20 * target + 1000  # a guard: merges and splits may not cycle for ever
    while size < target and number < cap:
        best = state.best()
        if best is None:
            return  # no pair has a count left
        pair, count, tied = best
        table = state.table(None if snapshot else rows)
        # 1. merge the pair everywhere; the parts lose the occurrences merged
        new, made, restored = state.merge(pair)
        size += 1  # the reference counts every merge, even of a token already there
        merged = _snapshot(state, snapshot, size)
        # 2. judge each part by IoS; a removal comes before the next part is judged
        checks, splits = [], []
        for part in dict.fromkeys(pair):
            check = state.check(part, made, threshold)
            checks.append(check)
            if check.removed:
                cut, left = state.remove(part)
                size -= 1
                splits.append((check, cut, left, _snapshot(state, snapshot, size)))
        number += 1
        yield PickyStep(
            number=number, kind=MERGE, symbol=new, parts=pair, count=count, tied_with=tied,
            pair_table=table, checks=tuple(checks), after=0, restored=restored, **merged,
        )  # fmt: skip
        merge_number = number
        for check, cut, left, after in splits:
            number += 1
            yield PickyStep(
                number=number, kind=SPLIT, symbol=check.part, parts=cut, count=left,
                tied_with=(), pair_table=(), checks=(check,), after=merge_number,
                restored=False, **after,
            )  # fmt: skip


def iter_picky(
    wc: WordCounts,
    vocab_size: int,
    threshold: float = 0.9,
    specials: int = SPECIALS,
    snapshot: bool | None = None,
    table_rows: int = TOP_PAIRS,
) -> Iterator[PickyStep]:
    """Yield one PickyStep per event (a merge, or a split after one)."""
    check_settings(vocab_size, threshold, specials)
    state = PickyState(wc)
    _check_start(state, vocab_size, specials)
    snap = snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS)
    yield from run_events(state, vocab_size, threshold, specials, snap, table_rows)


def _check_start(state: PickyState, vocab_size: int, specials: int) -> None:
    start = specials + len(state.alphabet)
    if vocab_size <= start:
        raise ValueError(
            f"vocab size {vocab_size} leaves nothing to learn: this corpus starts with "
            f"{start} tokens ({specials} special tokens and {len(state.alphabet)} characters, "
            f"▁ included); choose more than {start}."
        )


def trace_picky(
    wc: WordCounts,
    vocab_size: int,
    threshold: float = 0.9,
    specials: int = SPECIALS,
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    table_rows: int = TOP_PAIRS,
) -> Trace:
    """The whole run: the start, every event, and why it stopped."""
    check_settings(vocab_size, threshold, specials)
    state = PickyState(wc)
    _check_start(state, vocab_size, specials)
    snap = snapshot_mode(wc, snapshot, SNAPSHOT_MAX_WORDS)
    start = PickyStart(
        words=tuple(wc.words),
        counts=tuple(wc.counts),
        vocab=state.alphabet,
        segmentations=state.segmentations() if snap else None,
        pair_table=state.table(None if snap else table_rows),
        corpus_symbols=state.corpus_symbols(),
    )
    goal = vocab_size - specials - len(state.alphabet)
    events = run_events(state, vocab_size, threshold, specials, snap, table_rows)
    steps = tuple(collect_steps(events, goal, progress))
    size = steps[-1].size if steps else specials + len(state.alphabet)
    merges = sum(s.kind == MERGE for s in steps)
    splits = len(steps) - merges
    counted = f"{merges} merges and {splits} splits"
    if size >= vocab_size:
        truncated, reason = False, f"Reached the vocab size {vocab_size} asked for ({counted})."
    elif state.best() is None:
        truncated, reason = (
            True,
            (
                f"Stopped at vocab size {size} ({counted}): no pair is left, every word is one "
                "token."
            ),
        )
    else:
        truncated, reason = (
            True,
            f"Stopped after {len(steps)} events ({counted}) without reaching the size.",
        )
    params = (("vocab_size", vocab_size), ("threshold", threshold), ("specials", specials))
    return Trace("picky", params, start, steps, truncated, reason, not snap)


def model_from_trace(
    trace: Trace, upto: int | None = None, split_punct: bool = False
) -> PickyModel:
    """The model after the first `upto` events (all of them by default)."""
    steps = trace.steps[:upto] if upto is not None else trace.steps
    alphabet = trace.start.vocab
    order = {symbol: n for n, symbol in enumerate(alphabet)}
    present = set(alphabet)
    for step in steps:
        if step.kind == MERGE:
            order.setdefault(step.symbol, len(order))
            present.add(step.symbol)
        else:
            present.discard(step.symbol)
    vocab = tuple(sorted(present, key=order.__getitem__))
    events = tuple((s.kind, s.symbol, tuple(s.parts)) for s in steps)
    return PickyModel(events, vocab, alphabet, "sow", split_punct)


def corpus_at(trace: Trace, upto: int, limit: int = 40) -> list[tuple[str, int, tuple[str, ...]]]:
    """(word, count, segmentation) after `upto` events, for the first `limit` words."""
    start = trace.start
    words = list(zip(start.words, start.counts))[:limit]
    if start.segmentations is not None:
        segs = start.segmentations if upto == 0 else trace.steps[upto - 1].segmentations
        return [(w, c, s) for (w, c), s in zip(words, segs)]
    from .encode import word_segmenter

    cut = word_segmenter(model_from_trace(trace, upto))
    return [(word, count, tuple(cut(word))) for word, count in words]
