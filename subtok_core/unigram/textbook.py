"""The textbook Unigram LM of the course material (001 slides, 004 blog, Hugging Face course).

Each round has three steps:

- E: P(piece) = frequency / total frequency of the vocabulary; every word gets its best
  (Viterbi) segmentation; loss = sum over words of count x -log P(best segmentation).
- removal losses (kind "m", but no M-step of EM: nothing is re-estimated): for each piece
  longer than one character, the corpus loss if it were removed, with the probabilities
  left as they are (not renormalized), as the material computes it.
- prune: remove the pieces whose removal raises the loss least (``prune_percent`` of the
  candidates, at least one), or the piece the student chose for this round; the next
  E-step re-estimates the probabilities over what remains. Characters are never removed.

Worked example (001, `toy:run-bug`, strict substrings, log base 10):

>>> from subtok_core.corpus import load
>>> from subtok_core.unigram.seed import seed_rows
>>> wc = load("toy:run-bug")
>>> run = TextbookRun(wc, seed_rows(wc, "strict"), vocab_size=12, choices=("un",), log_base="10")
>>> e1, m1, prune, e2 = run.steps()
>>> round(e1.loss, 3), [w.pieces for w in e1.segmentations]
(66.109, [('ru', 'n'), ('bu', 'g'), ('fu', 'n'), ('su', 'n')])
>>> prune.removed, round(e2.loss, 3)
(('un',), 61.165)

Ties: equally probable segmentations go to the one whose last piece starts latest
(lattice.viterbi); pieces whose removal raises the loss equally are pruned in seed order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..corpus import WordCounts
from ..lattice import TIE_TOLERANCE, all_segmentations, segmentation_logp, viterbi
from .records import PieceRow, UnigramStart, UnigramStep, WordBest

LOG_BASES = {"e": math.e, "10": 10.0}
TIE_COUNT_MAX_CHARS = 12  # words longer than this are not searched for tied segmentations


class TextbookRun:
    """One run of the textbook variant: the start state, then ``steps()``."""

    def __init__(
        self,
        wc: WordCounts,
        rows: list[tuple[str, int]],
        vocab_size: int | None = None,
        prune_percent: float = 10.0,
        choices: tuple[str, ...] = (),
        log_base: str = "e",
        snapshot: bool = True,
        seed_text: str = "",
    ):
        if log_base not in LOG_BASES:
            raise ValueError(f"The log base must be one of {', '.join(LOG_BASES)}, not {log_base}.")
        if not 0 < prune_percent <= 100:
            raise ValueError(f"Prune between 0 and 100 % per round, not {prune_percent} %.")
        self.wc, self.snapshot, self.choices = wc, snapshot, tuple(choices)
        self.seed, self.freq = tuple(rows), dict(rows)
        self.alphabet = tuple(dict.fromkeys(ch for w in wc.words for ch in w))
        self.target = len(self.alphabet) if vocab_size is None else vocab_size
        if self.target < len(self.alphabet):
            raise ValueError(
                f"vocab size {self.target} is smaller than the {len(self.alphabet)} characters "
                f"of this corpus; choose at least {len(self.alphabet)}."
            )
        self.percent = prune_percent
        self.scale = 1 / math.log(LOG_BASES[log_base])  # nats -> the chosen base
        self.start = UnigramStart(
            wc.words, wc.counts, self.alphabet, self._rows(self._logp()), seed_text
        )
        self.stop_reason, self.truncated = "", False

    # --- the model at one point --------------------------------------------------------

    def _logp(self) -> dict[str, float]:
        total = sum(self.freq.values())
        return {p: math.log(f / total) for p, f in self.freq.items()}

    def _rows(self, logp: dict[str, float]) -> tuple[PieceRow, ...]:
        return tuple(PieceRow(p, self.freq[p], math.exp(logp[p])) for p in logp)

    def _best(self, logp: dict[str, float]) -> list[tuple[tuple[str, ...], float]]:
        longest = max(len(p) for p in logp)
        return [viterbi(word, logp, longest) for word in self.wc.words]

    def _loss(self, best: list[tuple[tuple[str, ...], float]]) -> float:
        return -sum(c * lp for c, (_, lp) in zip(self.wc.counts, best)) * self.scale

    def _segmentations(self, best, logp) -> tuple[WordBest, ...] | None:
        if not self.snapshot:
            return None
        return tuple(
            WordBest(word, count, pieces, lp, _ties(word, lp, logp))
            for word, count, (pieces, lp) in zip(self.wc.words, self.wc.counts, best)
        )

    # --- the three steps ---------------------------------------------------------------

    def _removal(self, logp, best, loss: float) -> tuple[tuple[str, float], ...]:
        """Each multi-character piece -> the corpus loss without it (not renormalized),
        smallest increase first, ties in seed order."""
        users: dict[str, list[int]] = {}
        for index, (pieces, _) in enumerate(best):
            for piece in set(pieces):
                users.setdefault(piece, []).append(index)
        table = []
        longest = max(len(p) for p in logp)
        for piece in (p for p in logp if len(p) > 1):
            change = 0.0
            for index in users.get(piece, ()):
                _, new_lp = viterbi(self.wc.words[index], logp, longest, skip=piece)
                change += self.wc.counts[index] * (best[index][1] - new_lp)
            table.append((piece, loss + change * self.scale))
        order = {p: i for i, p in enumerate(logp)}
        return tuple(sorted(table, key=lambda row: (round(row[1] - loss, 9), order[row[0]])))

    def _choose(self, round_no: int, removal) -> tuple[tuple[str, ...], str]:
        """The pieces to prune this round, and who chose them."""
        if round_no <= len(self.choices) and self.choices[round_no - 1]:
            choice = self.choices[round_no - 1]
            if choice not in dict(removal):
                why = (
                    "single characters are never removed"
                    if len(choice) == 1
                    else ("it is not in the vocabulary at that point")
                )
                raise ValueError(f"Cannot remove {choice!r} in round {round_no}: {why}.")
            return (choice,), "chosen by you"
        count = max(1, math.floor(len(removal) * self.percent / 100))
        count = min(count, len(self.freq) - self.target)
        return tuple(p for p, _ in removal[:count]), CHOSEN_BY_LOSS

    def _step(self, number, round_no, kind, logp, best, loss, removal=(), removed=(), note=""):
        return UnigramStep(
            number, round_no, kind, self._rows(logp), len(logp), loss,
            self._segmentations(best, logp), tuple(removal), tuple(removed), note,
        )  # fmt: skip

    def steps(self) -> Iterator[UnigramStep]:
        self.freq = dict(self.seed)  # every call starts again from the seed
        number, round_no = 0, 1
        while True:
            # E: P(piece) = frequency / total; each word's best segmentation; the loss
            logp = self._logp()
            best = self._best(logp)
            loss = self._loss(best)
            number += 1
            yield self._step(number, round_no, "e", logp, best, loss, note=self._e_note(loss))
            # stop at the vocab size, or when only characters are left
            if len(self.freq) <= self.target or all(len(p) == 1 for p in self.freq):
                self._stop()
                return
            # M: the corpus loss without each multi-character piece (P not renormalized)
            removal = self._removal(logp, best, loss)
            number += 1
            yield self._step(
                number, round_no, "m", logp, best, loss, removal, (), _m_note(removal, loss)
            )
            # prune: the pieces that raise the loss least, or the one the student chose
            removed, why = self._choose(round_no, removal)
            kept = {p: lp for p, lp in logp.items() if p not in removed}
            best = self._best(kept)
            number += 1
            note = _prune_note(removed, why, removal, loss)
            yield self._step(
                number, round_no, "prune", kept, best, self._loss(best), removal, removed, note
            )
            # the next E-step re-estimates P over the frequencies of what remains
            for piece in removed:
                del self.freq[piece]
            round_no += 1

    def _e_note(self, loss: float) -> str:
        total = sum(self.freq.values())
        return (
            f"E-step: P(piece) = frequency / {total} over {len(self.freq)} pieces; "
            f"every word takes its most probable segmentation; loss {loss:.3f}."
        )

    def _stop(self) -> None:
        if len(self.freq) <= self.target:
            self.stop_reason = f"Reached the vocab size {self.target} asked for."
        else:
            self.truncated = True
            self.stop_reason = (
                f"Stopped at {len(self.freq)} pieces: only single characters are left, and "
                "they are never removed."
            )


CHOSEN_BY_LOSS = "smallest increase of the loss"


def _m_note(removal, loss: float) -> str:
    """The pricing step's sentence; the page's title above it already says "Pruning:"."""
    piece, value = removal[0]
    tied = [p for p, v in removal[1:] if abs(v - value) <= TIE_TOLERANCE]
    also = f", tied with {', '.join(tied)}" if tied else ""
    return (
        f"The loss without each of {len(removal)} pieces (probabilities not "
        f"renormalized); smallest increase: {piece} (+{value - loss:.3f}){also}."
    )


def _prune_note(removed, why: str, removal, loss: float) -> str:
    """'Pruned lo, ow, we (...)': and, when pieces kept cost the same as the last one
    pruned, how many tie with it and that the seed's order chose among them."""
    said = f"Pruned {', '.join(removed)} ({why})"
    losses = dict(removal)
    last = losses[removed[-1]]
    tied = [p for p, v in removal if p not in removed and abs(v - last) <= TIE_TOLERANCE]
    same = all(abs(losses[p] - last) <= TIE_TOLERANCE for p in removed)
    if tied and why == CHOSEN_BY_LOSS:
        shown = ", ".join(tied[:5]) + (", ..." if len(tied) > 5 else "")
        whom = "them" if same else removed[-1]
        said += (
            f"; {len(tied)} other pieces tie with {whom} at +{last - loss:.3f} ({shown}), "
            "and the order of the seed chose which go first"
        )
    return said + "; the next E-step re-estimates P."


def _ties(word: str, best_lp: float, logp: dict[str, float]) -> int:
    """How many other segmentations of `word` are exactly as probable as the best one."""
    if len(word) > TIE_COUNT_MAX_CHARS:
        return 0
    segs = all_segmentations(word, logp, limit=5000)
    return sum(abs(segmentation_logp(s, logp) - best_lp) <= TIE_TOLERANCE for s in segs) - 1


def rounded_loss(step: UnigramStep, log_base: str, digits: int = 4) -> float | None:
    """The loss of a step as the 001 slides compute it: every probability rounded to
    `digits` decimals before the products (None when the step keeps no segmentations or
    a piece's probability rounds to 0).

    >>> from subtok_core.corpus import load
    >>> from subtok_core.unigram.seed import seed_rows
    >>> wc = load("toy:run-bug")
    >>> first = next(TextbookRun(wc, seed_rows(wc, "strict"), log_base="10").steps())
    >>> round(rounded_loss(first, "10"), 3), round(first.loss, 3)
    (66.102, 66.109)
    """
    if step.segmentations is None:
        return None
    prob = {row.piece: round(row.prob, digits) for row in step.vocab}
    if any(prob[p] == 0 for w in step.segmentations for p in w.pieces):
        return None  # a probability that rounds to 0 makes the rounded loss infinite
    base = LOG_BASES[log_base]
    return sum(
        w.count * -math.log(math.prod(prob[p] for p in w.pieces), base) for w in step.segmentations
    )
