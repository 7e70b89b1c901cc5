"""From the merges a trainer chose to the records a page, the CLI and the tests read: the
start, one SuperStep per merge (with the corpus's tokens after it), the model.

Hand count: pre-tokens "the" 2, " cat" 3, " the" 1; ties to the smallest pair make
Ġc, Ġca, Ġcat, he, the, then (Ġ, the) once. The runs [the Ġcat Ġthe Ġcat] and [the Ġcat]
hold (the, Ġcat) twice, the other pairs once.

>>> trace = trace_superbpe(["the cat the cat", "the cat"], merges=6, supermerges=1)
>>> [(s.stage, s.pair, s.count) for s in trace.steps][-2:]
[('ordinary', ('Ġ', 'the'), 1), ('super', ('the', 'Ġcat'), 2)]
>>> trace.steps[-1].segmentations
(('theĠcat', 'Ġthe', 'Ġcat'), ('theĠcat',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .. import limits
from ..bytebpe.symbols import BASE_SYMBOLS, to_bytes, to_letters
from ..merging import merge_goal
from ..records import Trace
from .encode import Encoder
from .merging import check_ties, count_pairs, ranked
from .presplit import check_pattern, split
from .records import SUPER, SuperModel, SuperStart, SuperStep
from .train import (
    SHOWN_LINES,
    TABLE_ROWS,
    Found,
    boundless_merges,
    distinct_lines,
    pretoken_counts,
    superbpe_merges,
)

Progress = Callable[[int, int], None] | None


def _letters(pair) -> tuple[str, str]:
    return to_letters(pair[0]), to_letters(pair[1])


def _table(candidates) -> tuple:
    return tuple((*_letters(p), n) for p, n in candidates[:TABLE_ROWS])


def _encoded(cut: Encoder, lines: dict[str, int]) -> tuple[tuple, int]:
    """The first lines' tokens, and the corpus's length in tokens."""
    shown, total = [], 0
    for k, (line, n) in enumerate(lines.items()):
        tokens = cut.tokens(line)
        total += n * len(tokens)
        if k < SHOWN_LINES:
            shown.append(tuple(map(to_letters, tokens)))
    return tuple(shown), total


def _start(lines, pattern, ties) -> SuperStart:
    pretokens = pretoken_counts(lines, pattern)
    first = ranked(
        count_pairs(([p[i : i + 1] for i in range(len(p))], n) for p, n in pretokens.items()), ties
    )
    shown, total = _encoded(Encoder((), (), pattern), lines)
    return SuperStart(
        tuple(lines), tuple(lines.values()), shown, BASE_SYMBOLS, _table(first), total
    )


def _steps(
    found: Iterator[Found], lines, pattern, goal: int, progress: Progress
) -> list[SuperStep]:
    steps: list[SuperStep] = []
    merges: list[tuple[str, str]] = []
    supers: list[bool] = []
    vocab = set(BASE_SYMBOLS)
    for f in found:
        pair = _letters(f.pair)
        merges.append(pair)
        supers.append(f.stage == SUPER)
        new = pair[0] + pair[1]
        fresh = new not in vocab
        vocab.add(new)
        cut = Encoder(merges, supers, pattern)
        shown, total = _encoded(cut, lines)
        table = _table(f.candidates)
        if f.rival is not None and f.stage == SUPER:  # BoundlessBPE: the ordinary merge lost
            table = (*table, (*_letters(f.rival[0]), f.rival[1]))
        elif f.rival is not None:  # the best supermerge lost to the ordinary merge
            table = ((*_letters(f.rival[0]), f.rival[1]), *table)
        tied = tuple(_letters(p) for p, n in f.candidates[1:] if n == f.count)
        words = len(split(to_bytes(new).decode("utf-8", "replace"), pattern)) if supers[-1] else 1
        rival = None if f.rival is None else (_letters(f.rival[0]), f.rival[1])
        steps.append(SuperStep(
            len(steps) + 1, f.stage, pair, f.count, new, fresh, tied, table, words, rival,
            len(vocab), total, shown,
        ))  # fmt: skip
        if progress:
            progress(len(steps), goal)
    return steps


def _trace(name, found, source, pattern, ties, params, goal, progress) -> Trace:
    lines = distinct_lines(source)
    start = _start(lines, pattern, ties)
    steps = _steps(found(lines), lines, pattern, goal, progress)
    truncated = len(steps) < goal
    if truncated:
        reason = f"Stopped after {len(steps)} of {goal} merges: no pair was left that may merge."
    else:
        reason = f"Made the {goal} merges asked for."
    return Trace(name, params, start, tuple(steps), truncated, reason, False)


def _check(pattern: str, ties: str, merges: int) -> None:
    check_pattern(pattern)
    check_ties(ties)
    merge_goal(256, merges, None, " (the 256 byte values)")


def trace_superbpe(source, merges: int = 32, supermerges: int = 8, pattern: str = "o200k",
                   ties: str = "smallest", max_words: int = 0,
                   progress: Progress = None) -> Trace:  # fmt: skip
    """SuperBPE: `merges` ordinary merges (the transition point), then `supermerges`, each
    joining at most `max_words` words (0: no limit, as the reference; the paper's is 4)."""
    _check(pattern, ties, merges)
    if not isinstance(supermerges, int) or supermerges < 0:
        raise ValueError("The number of supermerges must be a whole number, 0 or more.")
    limits.check("merges", supermerges)
    if not isinstance(max_words, int) or max_words < 0 or max_words == 1:
        raise ValueError(
            "The most words a token may join is 0 (no limit) or a whole number from 2 up."
        )
    params = (("pattern", pattern), ("ties", ties), ("merges", merges),
              ("supermerges", supermerges), ("max_words", max_words))  # fmt: skip
    found = lambda lines: superbpe_merges(  # noqa: E731
        lines, pattern, merges, supermerges, ties, max_words
    )
    return _trace("superbpe", found, source, pattern, ties, params, merges + supermerges, progress)


def trace_boundless(source, merges: int = 32, pattern: str = "o200k", ties: str = "smallest",
                    progress: Progress = None) -> Trace:  # fmt: skip
    """BoundlessBPE: `merges` merges in all, ordinary and supermerges competing for them."""
    _check(pattern, ties, merges)
    params = (("pattern", pattern), ("ties", ties), ("merges", merges))
    found = lambda lines: boundless_merges(lines, pattern, merges, ties)  # noqa: E731
    return _trace("boundless", found, source, pattern, ties, params, merges, progress)


def model_from_trace(trace: Trace, upto: int | None = None) -> SuperModel:
    """The model after the first `upto` merges of a trace (all of them by default)."""
    steps = trace.steps[:upto] if upto is not None else trace.steps
    vocab = list(trace.start.vocab) + [s.new_symbol for s in steps if s.new_in_vocab]
    return SuperModel(
        trace.algorithm, tuple(s.pair for s in steps), tuple(s.stage == SUPER for s in steps),
        tuple(vocab), trace.param("pattern"),
    )  # fmt: skip


def corpus_at(trace: Trace, upto: int, limit: int = 40) -> list[tuple[str, int, tuple]]:
    """(line, count, tokens in GPT-2 letters) after `upto` merges, for the first lines."""
    start = trace.start
    segs = start.segmentations if upto == 0 else trace.steps[upto - 1].segmentations
    return list(zip(start.words, start.counts, segs, strict=False))[:limit]
