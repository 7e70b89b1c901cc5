"""Where removing a piece changes the sample: the stretches the ablation loss compares.

The ablation loss of a piece t (``loss.ablation_losses``) compares, in every sentence that
uses t, the tokens around t's words before and after cutting those words without t. Such a
*stretch* runs from `window` tokens before the sentence's first word holding t to `window`
tokens after its last (clipped to the sentence): pairs further out are the same on both
sides. Between the changed words, the other words keep their tokens.

``stretches`` builds the stretches of many candidates at once, as arrays of piece ids with
a group number per token (a group: one candidate in one sentence), so that scoring them is
a few numpy passes rather than a Python loop per occurrence. The groups come candidate by
candidate, each candidate's in sample order.

>>> c = SentenceCorpus(["▁", "a", "b", "▁a", "▁ab", "ab"], [["ab", "ba"], ["ab"]])
>>> s = stretches(c, [c.index["▁ab"]], window=1)
>>> [c.pieces[i] for i in s.before], s.before_group.tolist()
(['▁ab', '▁', '▁ab'], [0, 0, 1])
>>> [c.pieces[i] for i in s.after], s.after_group.tolist(), s.owner.tolist()
(['▁a', 'b', '▁', '▁a', 'b'], [0, 0, 0, 1, 1], [0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from .corpus import SentenceCorpus

BATCH_TOKENS = 1 << 17  # the stretches of candidates covering this many tokens, together


@dataclass(frozen=True, eq=False)
class Stretches:
    """Every group's tokens before and after the cut without its candidate: ``before`` and
    ``after`` are piece ids, ``before_group`` and ``after_group`` the group of each token,
    ``owner`` the candidate of each group (its position in the candidate list)."""

    before: np.ndarray
    before_group: np.ndarray
    after: np.ndarray
    after_group: np.ndarray
    owner: np.ndarray


def ranges(begin: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The indices begin[i], ..., begin[i] + length[i] - 1 of every range i, one range
    after the other.

    >>> ranges(np.array([5, 0, 2]), np.array([2, 0, 3])).tolist()
    [5, 6, 2, 3, 4]
    """
    offset = np.cumsum(length) - length  # where each range starts in the result
    return np.repeat(begin - offset, length) + np.arange(int(length.sum()))


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (np.unique; one sort is faster than its default here).

    >>> distinct(np.array([3, 1, 3, 2, 1])).tolist()
    [1, 2, 3]
    """
    values = np.sort(values)
    return values[np.append(True, values[1:] != values[:-1])] if len(values) else values


def batches(corpus: SentenceCorpus, candidates: np.ndarray, tokens: int = BATCH_TOKENS):
    """Consecutive slices of the candidates whose pieces cover about `tokens` running
    tokens each, so that their stretches fit in memory together.

    >>> c = SentenceCorpus(["▁", "a", "b", "▁a", "▁b"], [["a", "b", "ab"]])
    >>> batches(c, np.array([3, 2, 4]), tokens=2)
    [slice(0, 2, None), slice(2, 3, None)]
    """
    batch = np.cumsum(corpus.usage()[candidates]) // tokens
    bounds = [0, *(np.flatnonzero(np.diff(batch)) + 1).tolist(), len(candidates)]
    return [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def stretches(corpus: SentenceCorpus, candidates: Sequence[int], window: int) -> Stretches:
    """The stretches of every candidate (distinct piece ids; see the module); unused
    candidates have none."""
    # 1. every running word holding a candidate, once per (candidate, word), by candidate
    #    then in sample order (a token of a piece that is no candidate has slot -1)
    candidates = np.asarray(candidates, dtype=np.int64)
    slot_of = np.full(len(corpus.pieces) + 1, -1)  # the extra -1 is UNKNOWN's slot
    slot_of[candidates] = np.arange(len(candidates))
    token_slot = slot_of[corpus.flat]
    hit = np.flatnonzero(token_slot >= 0)
    n_running = len(corpus.running)
    key = distinct(token_slot[hit] * n_running + corpus.word_of_token[hit])
    slot, running = np.divmod(key, n_running)
    if not len(running):
        empty = np.zeros(0, dtype=np.int64)
        return Stretches(empty, empty, empty, empty, empty)
    # 2. each distinct (candidate, word) once, with the word cut without the candidate
    n_words = len(corpus.words)
    held, holder = np.unique(slot * n_words + corpus.running[running], return_inverse=True)
    slots, words = np.divmod(held, n_words)
    pieces = candidates[slots].tolist()
    cuts = [corpus.recut(w, t) for w, t in zip(words.tolist(), pieces, strict=True)]
    # 3. a group starts where the candidate or the sentence changes
    sentence = corpus.sentence_of_word[running]
    first = np.ones(len(running), dtype=bool)
    first[1:] = (slot[1:] != slot[:-1]) | (sentence[1:] != sentence[:-1])
    last = np.append(first[1:], True)
    group = np.cumsum(first) - 1
    # 4. each group's stretch [lo, hi) of running tokens: `window` more on each side
    starts, sent = corpus.word_start, sentence[first]
    lo = np.maximum(corpus.sentence_start[sent], starts[running[first]] - window)
    hi = np.minimum(corpus.sentence_start[sent + 1], starts[running[last] + 1] + window)
    before = corpus.flat[ranges(lo, hi - lo)]
    before_group = np.repeat(np.arange(len(lo)), hi - lo)
    # 5. after the cut, each occurrence contributes three ranges of `source` (the running
    #    tokens, then all new cuts): the left context (a group's first occurrence only),
    #    the word's new cut, and the tokens up to the group's next occurrence (or to hi)
    cut_length = np.fromiter(map(len, cuts), dtype=np.int64, count=len(cuts))
    cut_start = len(corpus.flat) + np.cumsum(cut_length) - cut_length
    new_cuts = np.fromiter(chain.from_iterable(cuts), dtype=np.int64, count=int(cut_length.sum()))
    source = np.concatenate([corpus.flat, new_cuts])
    begin = np.zeros((len(running), 3), dtype=np.int64)
    length = np.zeros((len(running), 3), dtype=np.int64)
    begin[first, 0], length[first, 0] = lo, starts[running[first]] - lo
    begin[:, 1], length[:, 1] = cut_start[holder], cut_length[holder]
    next_start = starts[np.append(running[1:], 0)]  # the next occurrence's word (if in group)
    begin[:, 2] = starts[running + 1]
    length[:, 2] = np.where(last, hi[group], next_start) - begin[:, 2]
    after = source[ranges(begin.ravel(), length.ravel())]
    after_group = np.repeat(np.repeat(group, 3), length.ravel())
    return Stretches(before, before_group, after, after_group, slot[first])
