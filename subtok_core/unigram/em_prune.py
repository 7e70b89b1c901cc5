"""Pruning in the EM variant of Unigram LM: how many pieces each round keeps, and what each
piece would cost the corpus, as SentencePiece computes it.

A piece's count is how often the Viterbi segmentations use it, weighted by word count.
Without the piece, that count moves to its alternative, the Viterbi segmentation of its
own string without it, and the loss rises by count x (log P(piece) - sum of log P(the
alternative's pieces)), these probabilities being the Viterbi counts over their total,
raised by the moved count.

Worked example: "ab" seen 4 times, P(a) = P(b) = 0.25, P(ab) = 0.5. Viterbi takes ab 4
times; without it, a and b take those 4 each, so P(a) = P(b) = 4 / 8 and the loss rises
by 4 x (log 1 - 2 log 0.5) = 8 log 2.

>>> from subtok_core.unigram.em_arrays import lattices_of
>>> lat = lattices_of(["ab"], ["a", "b", "ab"])
>>> logp = np.log([0.25, 0.25, 0.5])
>>> loss = piece_losses(lat, logp, np.array([4.0]), np.array([False, False, True]))
>>> [round(float(x), 3) for x in loss]
[0.0, 0.0, 5.545]
>>> schedule(100, 20, 0.75)  # down to 1.1 x 20
[75, 56, 42, 31, 23, 22]
"""

from __future__ import annotations

import math

import numpy as np

from .em_arrays import Lattices

DESIRED_MARGIN = 1.1  # SentencePiece prunes down to 1.1 x vocab_size, then finalizes


def schedule(size: int, vocab_size: int, shrinking_factor: float) -> list[int]:
    """The vocab size after each regular prune."""
    desired = max(vocab_size, int(vocab_size * DESIRED_MARGIN))
    sizes = []
    while size > desired:
        size = max(desired, math.floor(shrinking_factor * size))
        sizes.append(size)
    return sizes


def piece_losses(
    lat: Lattices, logp: np.ndarray, weights: np.ndarray, removable: np.ndarray
) -> np.ndarray:
    """SentencePiece's loss of every removable piece used by a Viterbi segmentation (0
    otherwise): its count moves to its alternative, the Viterbi segmentation of its string
    without it. `weights` are the word counts, `removable` a mask over the pieces."""
    # each piece's count: its uses in the Viterbi segmentations, weighted by word count
    path = lat.best_edges(lat.viterbi(logp))
    freq = np.bincount(lat.piece[path], weights=weights[lat.lat[path]], minlength=logp.size)
    loss = np.zeros(logp.size)
    cand = np.flatnonzero(removable & (freq > 0))
    if cand.size == 0:
        return loss
    # each candidate's alternative: Viterbi on one of its edges, without that edge
    sub = lat.sub_lattices(lat.an_edge[cand])  # a candidate is used, so it has an edge
    path = sub.best_edges(sub.viterbi(logp))
    owner, alt = sub.lat[path], sub.piece[path]
    parts = np.bincount(owner, minlength=cand.size)
    mine, total = freq[cand], freq.sum()
    # the alternatives' counts grow by the piece's count, so does the total (parts - 1)
    alt_logp = np.bincount(owner, weights=np.log(freq[alt] + mine[owner]), minlength=cand.size)
    alt_logp -= parts * np.log(total + mine * (parts - 1))
    loss[cand] = mine * (np.log(mine) - math.log(total) - alt_logp)
    return loss
