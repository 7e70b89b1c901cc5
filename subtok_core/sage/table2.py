"""The SaGe paper's Table 2 on a run: a *target* token whose context window changed
because a piece *outside* that window was removed.

Removing a piece re-cuts every word that used it; the tokens after the piece in such a
word can change (``_includ e`` becomes ``_inc l u de``), and a target a few tokens further
on sees another context although the removed piece was never in its window. This is why
the paper scores a removal on whole sentences, not on the windows around the piece.

With greedy longest prefix only the tokens *after* the removed piece in its word change,
so the changed context is always on the target's left, as in the paper's example:

>>> before = [("_use",), ("_of",), ("_an",), ("_includ", "e"), ("_direct", "ive"),
...           ("_is",), ("_when",), ("_ref", "er", "r", "ing"), ("_to",)]
>>> after = before[:3] + [("_inc", "l", "u", "de")] + before[4:]
>>> [c] = window_changes(before, after, "_includ", 2)
>>> c.before[c.target], c.replaced, c.shown(margin=1)
('ive', (('e',), ('de',)), ((2, 10), (2, 12)))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..records import SOW, Trace
from .corpus import SentenceCorpus, greedy
from .train import corpus_at, settings_of


@dataclass(frozen=True, slots=True)
class WindowChange:
    """One sentence cut with the vocabulary and without `piece`, and a target whose window
    (`window` tokens on each side) changed though `piece` lay outside it."""

    piece: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    target: int  # the target's position in `before`
    target_after: int  # and in `after` (the same token: its word was not re-cut)
    window: int
    removed: tuple[int, ...]  # where `piece` was in `before` (all outside the window)
    step: int = 0  # the prune step of the run (0: none given)
    sentence: int = -1  # the sentence of the sample (-1: none given)
    mark: str = SOW  # the word-start mark of the tokens (the paper writes _)

    @property
    def before_window(self) -> tuple[int, int]:
        """[lo, hi) of the target's window before the removal."""
        return _span(self.target, len(self.before), self.window)

    @property
    def after_window(self) -> tuple[int, int]:
        return _span(self.target_after, len(self.after), self.window)

    def shown(self, margin: int = 2) -> tuple[tuple[int, int], tuple[int, int]]:
        """[lo, hi) of the tokens to show before and after: from `margin` tokens before
        the removed piece nearest the window on its left (or before the window) to `margin`
        after the window. Both start at the same place: the tokens before the removed
        piece are the same with and without it."""
        lo, hi = self.before_window
        left = [r for r in self.removed if r < lo]
        start = max(0, (max(left) if left else lo) - margin)
        end, end_after = hi + margin, self.after_window[1] + margin
        return (start, min(len(self.before), end)), (start, min(len(self.after), end_after))

    def text(self, lo: int, hi: int) -> str:
        """The words of tokens lo to hi (before the removal) as plain text."""
        return "".join(self.before[lo:hi]).replace(self.mark, " ").strip()

    @property
    def replaced(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The run of context tokens that differs between the two windows: (the tokens it
        had, the tokens it has now), each left to right."""
        lo, hi = self.before_window
        lo2, hi2 = self.after_window
        old, new = list(self.before[lo:hi]), list(self.after[lo2:hi2])
        while old and new and old[-1] == new[-1]:  # the same from the right end ...
            old.pop(), new.pop()
        start = 0
        while start < min(len(old), len(new)) and old[start] == new[start]:  # ... and left
            start += 1
        return tuple(old[start:]), tuple(new[start:])


def _span(t: int, length: int, window: int) -> tuple[int, int]:
    return max(0, t - window), min(length, t + window + 1)


def window_changes(
    before: Sequence[Sequence[str]],
    after: Sequence[Sequence[str]],
    piece: str,
    window: int,
) -> list[WindowChange]:
    """Every target of a sentence whose window changed while `piece` was outside it.

    `before` and `after` are the sentence's words cut with and without `piece`. A target is
    a token of a word the removal did not re-cut (so it is the same token after); its
    window is `window` tokens on each side within the sentence."""
    if len(before) != len(after):
        raise ValueError("The sentence must have the same words before and after the removal.")
    if window < 1:
        raise ValueError(f"The window must be at least 1 token, not {window}.")
    flat_before = tuple(t for word in before for t in word)
    flat_after = tuple(t for word in after for t in word)
    starts_before = [0, *accumulate(map(len, before))]
    starts_after = [0, *accumulate(map(len, after))]
    removed = tuple(i for i, t in enumerate(flat_before) if t == piece)
    found = []
    for w, (old, new) in enumerate(zip(before, after, strict=True)):
        if tuple(old) != tuple(new):
            continue  # a re-cut word: its tokens are not the same targets any more
        for offset in range(len(old)):
            t, t2 = starts_before[w] + offset, starts_after[w] + offset
            lo, hi = _span(t, len(flat_before), window)
            if any(lo <= r < hi for r in removed):
                continue  # the piece was inside this window: not the paper's case
            lo2, hi2 = _span(t2, len(flat_after), window)
            if flat_before[lo:hi] != flat_after[lo2:hi2]:
                found.append(WindowChange(piece, flat_before, flat_after, t, t2, window, removed))
    return found


def sentence_cuts(state: SentenceCorpus, sentence: int, piece: str):
    """Sentence `sentence` of `state` word by word, with and without `piece` (the words
    that do not use it are not re-cut)."""
    a, b = state.sentence_word_start[sentence], state.sentence_word_start[sentence + 1]
    banned, names = state.index[piece], state.pieces
    before, after = [], []
    for w in state.running[a:b].tolist():
        seg = state.segs[w]
        new = greedy(state.words[w], state.index, state.max_len, banned) if banned in seg else seg
        before.append(tuple(names[t] for t in seg))
        after.append(tuple(names[t] for t in new))
    return before, after


SEARCHED_STEPS = 3  # the first steps of a run searched for a window changed from outside


def find_window_change(
    trace: Trace,
    sentences: Sequence[Sequence[str]],
    state_at: Callable[[int], SentenceCorpus] | None = None,
    steps: int = SEARCHED_STEPS,
    per_piece: int = 50,
) -> WindowChange | None:
    """In the run's log, the first pruned piece (step by step, in prune order) whose
    removal changed a target's window from outside it, in one of the first `per_piece`
    sentences that used it; the run's own window W. Only the first `steps` steps are
    searched (each needs the sample as that step found it: `state_at(step)`, by default
    ``corpus_at``). None when no such target turns up there."""
    window = settings_of(trace).window
    state_at = state_at or (lambda step: corpus_at(trace, sentences, step))
    for number, record in enumerate(trace.steps[:steps], 1):
        state = state_at(number)
        for piece, _ in record.pruned:
            holders = state.sentence_of_token[state.flat == state.index[piece]]
            for s in list(dict.fromkeys(holders.tolist()))[:per_piece]:
                before, after = sentence_cuts(state, s, piece)
                found = window_changes(before, after, piece, window)
                if found:
                    first = found[0]
                    return WindowChange(
                        piece, first.before, first.after, first.target, first.target_after,
                        window, first.removed, number, s,
                    )  # fmt: skip
    return None
