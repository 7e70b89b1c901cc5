"""Unigram LM as Kudo (2018) and SentencePiece train it: EM over every segmentation, then
pruning by the likelihood each piece would cost.

Every word gets ``▁`` in front (marker "sow"; "none" keeps the bare words). The seed is
every character and the most frequent substrings (em_seed.build_seed, as SentencePiece's
suffix array finds them); its initial
probabilities are the seed scores (frequency x length) over their total. Each round runs
``em_iterations`` pairs of

- E-step: each piece's expected count, summed over every segmentation of every word
  (forward-backward on the word's lattice, in log space) and weighted by the word count;
  the loss is the corpus negative log-likelihood, -sum(count x log P(word)), P(word)
  summed over every segmentation (natural log);
- M-step: P(piece) = expected count / the sum of expected counts, plain maximum
  likelihood, so the loss never rises. Only a character whose probability would fall
  below CHAR_FLOOR (1e-10) is held there, so that every word stays segmentable after a
  prune; that is still the most likely choice under this constraint, so the loss still
  never rises. No piece is dropped in the M-step;

then a prune step. As SentencePiece does, a piece's loss comes from the Viterbi
segmentations: its count (count-weighted uses in the best segmentations) moves to its
alternative, the Viterbi segmentation of its own string without it (em_prune.py has the
formula). The pieces with the largest losses stay, floor(shrinking_factor x size) of them
but never fewer than 1.1 x vocab_size; the characters always stay; the survivors'
probabilities are renormalized. Once the vocab is within 1.1 x vocab_size, a final prune
keeps the vocab_size most probable pieces, as SentencePiece finishes, and one more E/M
pair re-estimates them.

Unlike SentencePiece, the M-step is plain maximum likelihood (SentencePiece uses a
digamma prior and drops pieces expected less than 0.5 times), and every prune keeps
exactly floor(shrinking_factor x size) pieces (SentencePiece also drops every piece that no
Viterbi segmentation uses).

>>> from subtok_core.corpus import from_pairs
>>> wc = from_pairs([("hug", 10), ("pug", 5), ("hugs", 5), ("pun", 12), ("bun", 4)])
>>> run = EmRun(wc, vocab_size=12)
>>> len(run.start.vocab), run.expected_steps
(24, 17)
>>> steps = list(run.steps())
>>> [(s.kind, round(s.loss, 1)) for s in steps[:5]]
[('e', 100.0), ('m', 59.0), ('e', 59.0), ('m', 54.7), ('prune', 54.7)]
>>> steps[4].removed, steps[14].removed
(('gs', 'ugs', 'un', 'ug', 'pu', 'bun'), ('▁bun',))
>>> [row.piece for row in steps[-1].vocab][:4]
['▁pun', '▁hug', '▁pug', '▁hugs']

Ties: equally probable segmentations go to the one whose last piece starts latest
(lattice.viterbi); pieces whose removal costs the same go least probable first, then
latest in the seed first.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from ..corpus import WordCounts
from ..records import SOW
from .em_arrays import Best
from .em_coverage import DEFAULT_COVERAGE
from .em_prune import DESIRED_MARGIN, piece_losses, schedule
from .em_seed import MAX_PIECE_LEN, SEED_SIZE, Seed, build_seed
from .records import PieceRow, UnigramStart, UnigramStep, WordBest

COMPACT_ROWS = 50  # vocab rows kept per step in compact traces (all rows on the last step)
COMPACT_MORE = 20  # removal rows kept beyond the removed pieces in compact traces
MARKERS = ("sow", "none")
UNK = "<unk>"  # a character beyond the coverage, in a segmentation
CHAR_FLOOR = 1e-10  # no character's probability falls below this: words stay segmentable
DEAD_EDGES = 0.4  # the lattices drop removed pieces' edges once they are this share


def _check(wc: WordCounts, vocab_size, seed_size, shrinking_factor, em_iterations, max_piece_len,
           marker) -> None:  # fmt: skip
    """Refuse parameters a run cannot use, with a sentence a student understands."""
    if not wc.words or sum(wc.counts) == 0:
        raise ValueError("The corpus is empty: give it at least one word.")
    if seed_size < 0:
        raise ValueError(f"The seed size cannot be negative ({seed_size}).")
    if marker not in MARKERS:
        raise ValueError(f"Unknown marker {marker!r}; choose sow (▁ starts a word) or none.")
    if not 0 < shrinking_factor < 1:
        raise ValueError(
            f"The shrinking factor must be between 0 and 1, not {shrinking_factor} "
            "(0.75 keeps three quarters of the pieces each round)."
        )
    if em_iterations < 1:
        raise ValueError(f"Run at least one EM iteration per round, not {em_iterations}.")
    if max_piece_len < 1:
        raise ValueError(f"A piece needs at least 1 character; max piece length {max_piece_len}.")
    chars = set("".join(wc.words)) | ({SOW} if marker == "sow" else set())
    if vocab_size < len(chars):
        marked = " (▁ included)" if marker == "sow" else ""
        raise ValueError(
            f"vocab size {vocab_size} is smaller than the {len(chars)} characters of this "
            f"corpus{marked}; choose at least {len(chars)}."
        )


def _m_step(counts: np.ndarray, alive: np.ndarray, is_char: np.ndarray, floor: float) -> np.ndarray:
    """log P(piece) = log(expected count / total), except that no character falls below
    `floor`: the maximum likelihood under that constraint (water-filling)."""
    counts = np.where(alive, counts, 0.0)
    low = np.zeros(counts.size, dtype=bool)
    while True:
        scale = counts[~low].sum() / (1.0 - low.sum() * floor)
        more = is_char & alive & ~low & (counts < floor * scale)
        if not more.any():
            break
        low |= more  # the scale only grows, so a floored character stays floored
    with np.errstate(divide="ignore"):
        return np.where(low, math.log(floor), np.log(counts) - math.log(scale))


class EmRun:
    """One EM run: ``start`` (the seed), then ``steps()``; ``stop_reason`` and ``truncated``
    are set once the steps are exhausted."""

    def __init__(
        self,
        wc: WordCounts,
        vocab_size: int,
        seed_size: int = SEED_SIZE,
        shrinking_factor: float = 0.75,
        em_iterations: int = 2,
        max_piece_len: int = MAX_PIECE_LEN,
        marker: str = "sow",
        snapshot: bool = False,
        character_coverage: float = DEFAULT_COVERAGE,
    ) -> None:
        _check(wc, vocab_size, seed_size, shrinking_factor, em_iterations, max_piece_len, marker)
        self.wc, self.vocab_size, self.snapshot = wc, vocab_size, snapshot
        self.shrinking_factor, self.em_iterations = shrinking_factor, em_iterations
        seed = build_seed(wc, marker, seed_size, max_piece_len, character_coverage)
        self._pieces, self._lat = seed.pieces, seed.lattices
        self._weights, self._owner = seed.weights, seed.owner  # per lattice (em_coverage)
        self._is_char = np.arange(len(seed.pieces)) < seed.n_chars
        self._alive = np.ones(len(seed.pieces), dtype=bool)
        start_probs = np.exp(seed.logp)  # the seed's scores, characters floored as in M-steps
        self._logp = _m_step(start_probs, self._alive, self._is_char, CHAR_FLOOR)
        self._counts = seed.freq.copy()
        self._alpha: np.ndarray | None = None
        self._best: Best | None = None
        self._loss, self._number = math.nan, 0
        self._sizes = schedule(len(seed.pieces), vocab_size, shrinking_factor)
        self._final = (self._sizes[-1] if self._sizes else len(seed.pieces)) > vocab_size
        rounds = len(self._sizes) + 1
        self.expected_steps = 2 * rounds * em_iterations + len(self._sizes) + 3 * self._final
        self.start = self._start(seed, max_piece_len, character_coverage)
        self.stop_reason, self.truncated = "", False

    def _start(self, seed: Seed, max_piece_len: int, coverage: float) -> UnigramStart:
        probs = np.exp(self._logp)
        # Python floats by tolist: a hundred thousand rows, numpy scalars one by one are slow
        rows = tuple(map(PieceRow, seed.pieces, seed.freq.tolist(), probs.tolist()))
        text = (
            f"Seed: the {seed.n_chars} characters and the {len(rows) - seed.n_chars:,} most "
            f"frequent substrings by frequency x length (up to {max_piece_len} characters, "
            "followed by at least two different characters: at a word's end the next word's ▁ "
            f"and the end of a line count as characters), {len(rows):,} pieces."
        )
        if seed.rare:
            text += (
                f" Character coverage {coverage:g}: the {len(seed.rare)} rarest "
                f"characters ({' '.join(seed.rare)}) are in no piece and read as {UNK}."
            )
        return UnigramStart(self.wc.words, self.wc.counts, seed.alphabet, rows, text)

    def steps(self) -> Iterator[UnigramStep]:
        """Yield every E, M and prune step (see the module docstring); a run goes once."""
        if self._number:
            raise RuntimeError("This EmRun has already run; make a new one to run again.")
        # each round: em_iterations E/M pairs, then a prune to the next size of the schedule
        for rnd, size in enumerate(self._sizes, start=1):
            yield from self._em(rnd, self.em_iterations, last=False)
            yield self._prune(rnd, size, final=False)
        # the last round: E/M pairs at 1.1 x vocab_size (or below) ...
        rnd = len(self._sizes) + 1
        yield from self._em(rnd, self.em_iterations, last=not self._final)
        # ... then, if above vocab_size, keep the most probable and re-estimate once
        if self._final:
            yield self._prune(rnd, self.vocab_size, final=True)
            yield from self._em(rnd + 1, 1, last=True)
        self.stop_reason, self.truncated = self._stop()

    def _stop(self) -> tuple[str, bool]:
        seed = len(self._pieces)
        if seed <= self.vocab_size:
            return (
                f"The seed has {seed:,} pieces, no more than the vocab size {self.vocab_size:,}, "
                "so nothing was pruned.",
                seed < self.vocab_size,
            )
        final = " and a final prune by probability" if self._final else ""
        rounds = len(self._sizes) + int(self._final)
        return f"Reached {self.vocab_size:,} pieces after {rounds} prune steps{final}.", False

    # --- E and M -------------------------------------------------------------------------

    def _forward(self) -> np.ndarray:
        """alpha under the current probabilities (kept until they change)."""
        if self._alpha is None:
            self._alpha = self._lat.forward(self._logp)
            self._loss = float(-(self._weights * self._lat.totals(self._alpha)).sum())
        return self._alpha

    def _set_logp(self, logp: np.ndarray) -> None:
        self._logp, self._alpha, self._best = logp, None, None
        self._forward()

    def _em(self, rnd: int, pairs: int, last: bool) -> Iterator[UnigramStep]:
        for i in range(pairs):
            # E: expected counts by forward-backward over every lattice (the loss: forward)
            alpha = self._forward()
            self._counts = self._lat.expected_counts(self._logp, self._weights, alpha)
            note = (
                f"E-step: expected counts of {int(self._alive.sum()):,} pieces over "
                f"{len(self.wc):,} words."
            )
            yield self._step("e", rnd, note)
            # M: each probability is its expected count over the total (characters floored)
            before, total = self._loss, float(self._counts[self._alive].sum())
            self._set_logp(_m_step(self._counts, self._alive, self._is_char, CHAR_FLOOR))
            note = (
                f"M-step: each probability becomes its expected count over the total "
                f"({total:,.1f}); the loss goes from {before:,.3f} to {self._loss:,.3f}."
            )
            yield self._step("m", rnd, note, last=last and i == pairs - 1)

    # --- prune ---------------------------------------------------------------------------

    def _prune(self, rnd: int, size: int, final: bool) -> UnigramStep:
        before, count = self._loss, int(self._alive.sum())
        removable = self._alive & ~self._is_char  # characters always stay
        # the likelihood each piece would cost (SentencePiece's criterion, em_prune)
        piece_loss = piece_losses(self._lat, self._logp, self._weights, removable)
        cand = np.flatnonzero(removable)
        logp = self._logp[cand]
        by_loss = cand[np.lexsort((-cand, logp, piece_loss[cand]))]
        # drop the pieces that cost least (the final prune: the least probable)
        drop = cand[np.lexsort((-cand, logp))] if final else by_loss
        removed = drop[: count - size]
        self._alive[removed] = False
        # a removed piece's edges stay in the lattices with probability 0 (they change no
        # sum and no best path) until they are 40 % of the edges: filtering the arrays
        # (about 4 passes' time) costs more than sweeping over dead edges for a few rounds;
        # on enwiki at 8,000 pieces that is one filtering (after the 5th prune) instead of
        # four at a tenth, 0.1-0.2 s of CPU less
        if (~self._alive[self._lat.piece]).mean() >= DEAD_EDGES:
            self._lat = self._lat.keep(self._alive)
        # renormalize the survivors' probabilities
        kept = np.where(self._alive, self._logp, -np.inf)
        self._set_logp(kept - np.logaddexp.reduce(kept[self._alive]))
        removal = self._removal(by_loss, removed, before + piece_loss)
        if final:
            note = (
                f"Final prune: the vocab is within {DESIRED_MARGIN:g} x {self.vocab_size:,}, so "
                f"the {self.vocab_size:,} most probable pieces stay (every character stays), as "
                "SentencePiece finishes."
            )
        else:
            least = max(self.vocab_size, int(self.vocab_size * DESIRED_MARGIN))
            note = (
                f"Prune: {removed.size:,} of {count:,} pieces go, those whose removal costs the "
                f"least likelihood; {size:,} stay ({self.shrinking_factor:g} x {count:,} rounded "
                f"down, but never fewer than {least:,})."
            )
        names = tuple(map(self._pieces.__getitem__, removed.tolist()))
        return self._step("prune", rnd, note, removal=removal, removed=names)

    def _removal(self, by_loss, removed, loss_without) -> tuple[tuple[str, float], ...]:
        """(piece, corpus loss without it), smallest first; compact: the removed + 20 more."""
        if not self.snapshot:
            gone = np.zeros(len(self._pieces), dtype=bool)
            gone[removed] = True
            others = np.flatnonzero(~gone[by_loss])[:COMPACT_MORE]
            show = np.zeros(by_loss.size, dtype=bool)
            show[others] = True
            by_loss = by_loss[show | gone[by_loss]]
        names = map(self._pieces.__getitem__, by_loss.tolist())  # Python ints: many rows
        return tuple(zip(names, loss_without[by_loss].tolist()))

    # --- records -------------------------------------------------------------------------

    def _step(self, kind: str, rnd: int, note: str, removal=(), removed=(), last=False):
        self._number += 1
        return UnigramStep(
            self._number, rnd, kind, self._rows(last), int(self._alive.sum()), self._loss,
            self._segmentations() if self.snapshot else None, removal, removed, note,
        )  # fmt: skip

    def _rows(self, last: bool) -> tuple[PieceRow, ...]:
        """Vocab rows, most probable first (compact traces: the top rows but on the last step)."""
        idx = np.flatnonzero(self._alive)
        compact = not (self.snapshot or last)
        if compact and idx.size > COMPACT_ROWS:  # sort only those at least as probable as
            cut = np.partition(-self._logp[idx], COMPACT_ROWS - 1)[COMPACT_ROWS - 1]  # the 50th
            idx = idx[-self._logp[idx] <= cut]
        idx = idx[np.lexsort((idx, -self._logp[idx]))]
        if compact:
            idx = idx[:COMPACT_ROWS]
        probs = np.exp(self._logp[idx])
        return tuple(
            PieceRow(self._pieces[i], float(self._counts[i]), float(q)) for i, q in zip(idx, probs)
        )

    def _segmentations(self) -> tuple[WordBest, ...]:
        """Every corpus word's Viterbi segmentation, with the number of tied ones."""
        lat = self._lat
        if self._best is None:
            self._best = lat.viterbi(self._logp, count_paths=True)
        best, found = self._best, [[] for _ in self._owner]
        for edge in lat.best_edges(best):
            found[lat.lat[edge]].append(self._pieces[lat.piece[edge]])
        ends = lat.node0 + lat.lengths
        # a word cut at its rare characters (em_coverage): its parts joined by <unk>, the
        # parts' scores summed and their numbers of best paths multiplied
        n = len(self.wc)
        pieces, score, paths = [[] for _ in range(n)], [0.0] * n, [1] * n
        begun = [False] * n
        for w, part, e in zip(self._owner.tolist(), found, ends):
            pieces[w] += [UNK, *part] if begun[w] else part
            begun[w] = True
            score[w] += float(best.score[e])
            paths[w] *= int(round(best.paths[e]))
        return tuple(
            WordBest(w, c, tuple(p), s, max(k - 1, 0))
            for w, c, p, s, k in zip(self.wc.words, self.wc.counts, pieces, score, paths)
        )
