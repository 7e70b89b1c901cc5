"""Every word's lattice at once, as flat numpy arrays, for the EM variant of Unigram LM.

An edge is one occurrence of a vocabulary piece in a word: (lattice, start, end, piece),
kept in word order (lattice, then start, then end). Nodes are numbered word after word,
``node0[w] + position``. Forward, backward and Viterbi sweep the positions once: at
position p every edge ending there (or, backward, starting there) is handled at once for
all words, and the edges of one node are reduced together (``np.maximum.reduceat``,
``np.add.reduceat``; a sum of exponentials is shifted by the node one character away
when that is safe, Lattices.shift_by_neighbour, which spares a maximum per node).
Pruning a piece filters its edges; nothing is rebuilt from text.
The seed and its lattices are built in em_seed.py.

>>> import math
>>> logp = {"▁": math.log(0.3), "a": math.log(0.3), "▁a": math.log(0.4)}
>>> lat = lattices_of(["▁a"], list(logp))  # P(▁a) = P(▁)·P(a) + P(▁a) = 0.09 + 0.4
>>> round(float(np.exp(lat.totals(lat.forward(np.log([0.3, 0.3, 0.4])))[0])), 6)
0.49

Ties: among paths within lattice.TIE_TOLERANCE of the best, the one whose last piece
starts latest wins, and so on backwards, as in lattice.viterbi.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike

from ..lattice import TIE_TOLERANCE


@dataclass(frozen=True, slots=True)
class Level:
    """The edges that end (forward) or start (backward) at one position, grouped by node."""

    lo: int  # slice of the sweep order
    hi: int
    starts: np.ndarray  # first edge of each node's group, relative to lo
    group: np.ndarray  # group of each edge in the slice
    nodes: np.ndarray  # the node each group updates


@dataclass(frozen=True, slots=True)
class Best:
    """Viterbi result: per node the best log-probability, its last edge, its tied paths."""

    score: np.ndarray
    back: np.ndarray  # edge index (word order) of the best path's last edge, -1 at starts
    paths: np.ndarray | None  # number of paths within the tolerance of the best


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Concatenate arange(lo[i], hi[i]) for every i."""
    sizes = hi - lo
    owner = np.repeat(np.arange(sizes.size), sizes)
    offset = np.arange(owner.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return lo[owner] + offset


class Lattices:
    """Many lattices as flat edge arrays (word order); see the module docstring."""

    def __init__(
        self,
        lengths: ArrayLike,
        lat: ArrayLike,
        start: ArrayLike,
        end: ArrayLike,
        piece: ArrayLike,
        orders: tuple[np.ndarray, np.ndarray | None] | None = None,
    ) -> None:
        """`orders`: the forward and backward sweep orders when already known (keep)."""
        self.lengths = np.asarray(lengths, dtype=np.int64)
        self.lat = np.asarray(lat, dtype=np.int64)
        self.start = np.asarray(start, dtype=np.int64)
        self.end = np.asarray(end, dtype=np.int64)
        self.piece = np.asarray(piece, dtype=np.int64)
        self.node0 = np.concatenate(([0], np.cumsum(self.lengths + 1)[:-1]))
        self.n_nodes = int((self.lengths + 1).sum())
        self.src = self.node0[self.lat] + self.start
        self.dst = self.node0[self.lat] + self.end
        self._bwd_order = orders[1] if orders else None
        self.fwd, self.fwd_levels = self._sweep(self.end, self.dst, orders and orders[0])

    def _sweep(
        self, position: np.ndarray, nodes: np.ndarray, order: np.ndarray | None = None
    ) -> tuple[np.ndarray, list[Level]]:
        """The order that groups edges by `position` (stable), and one Level per position."""
        if order is None:
            key = position.astype(np.int16) if self.lengths.max(initial=0) < 2**15 else position
            order = np.argsort(key, kind="stable")  # radix sort: word order within a position
        bounds = np.concatenate(([0], np.cumsum(np.bincount(position))))  # one slice a position
        node = nodes[order]
        # a new node's group starts where the node changes (compared in place: np.diff
        # would subtract into a new int64 array first, five times slower)
        is_first = np.empty(node.size, dtype=bool)
        is_first[:1] = True
        np.not_equal(node[1:], node[:-1], out=is_first[1:])
        firsts, group = np.flatnonzero(is_first), np.cumsum(is_first)
        group -= 1
        cut = np.searchsorted(firsts, bounds)
        levels = []
        for k, (lo, hi) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist())):
            if lo < hi:
                starts = firsts[cut[k] : cut[k + 1]] - lo
                levels.append(Level(lo, hi, starts, group[lo:hi] - group[lo], node[lo + starts]))
        return order, levels

    @cached_property
    def bwd(self) -> tuple[np.ndarray, list[Level]]:
        """Edges by start position, last position first (the backward sweep)."""
        position = self.lengths.max(initial=0) - self.start
        order, levels = self._sweep(position, self.src, self._bwd_order)
        return order, levels

    @cached_property
    def fwd_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Source node and piece of every edge, in the forward sweep's order."""
        return self.src[self.fwd], self.piece[self.fwd]

    @cached_property
    def bwd_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Destination node and piece of every edge, in the backward sweep's order."""
        order = self.bwd[0]
        return self.dst[order], self.piece[order]

    def keep(self, alive: np.ndarray) -> Lattices:
        """The same lattices without the edges of pieces that are not `alive`. Dropping
        edges keeps the others in order, so the sweep orders are filtered, not re-sorted."""
        m = alive[self.piece]
        new_index = np.cumsum(m) - 1

        def kept(order: np.ndarray) -> np.ndarray:
            return new_index[order[m[order]]]

        bwd = kept(self.bwd[0]) if "bwd" in self.__dict__ else None
        return Lattices(self.lengths, self.lat[m], self.start[m], self.end[m], self.piece[m],
                        (kept(self.fwd), bwd))  # fmt: skip

    def totals(self, alpha: np.ndarray) -> np.ndarray:
        """log of the summed probability of every segmentation, per lattice."""
        return alpha[self.node0 + self.lengths]

    def forward(self, logp: np.ndarray) -> np.ndarray:
        """alpha[node] = log of the summed probability of every path from the start."""
        src, piece = self.fwd_edges
        lp = logp[piece]
        alpha = np.full(self.n_nodes, -np.inf)
        alpha[self.node0] = 0.0
        neighbour = self.shift_by_neighbour(logp)
        for lv in self.fwd_levels:
            shift = alpha[lv.nodes - 1] if neighbour else None  # one character back
            vals = alpha[src[lv.lo : lv.hi]]  # a new array: added to in place
            vals += lp[lv.lo : lv.hi]
            alpha[lv.nodes] = _logsumexp(vals, lv, shift)
        return alpha

    def backward(self, logp: np.ndarray) -> np.ndarray:
        """beta[node] = log of the summed probability of every path to the end."""
        levels = self.bwd[1]
        dst, piece = self.bwd_edges
        lp = logp[piece]
        beta = np.full(self.n_nodes, -np.inf)
        beta[self.node0 + self.lengths] = 0.0
        neighbour = self.shift_by_neighbour(logp)
        for lv in levels:
            shift = beta[lv.nodes + 1] if neighbour else None  # one character on
            vals = beta[dst[lv.lo : lv.hi]]  # a new array: added to in place
            vals += lp[lv.lo : lv.hi]
            beta[lv.nodes] = _logsumexp(vals, lv, shift)
        return beta

    @cached_property
    def char_pieces(self) -> np.ndarray | None:
        """The distinct pieces of the one-character edges, if every position of every word
        has one (a piece is an edge once per place, so as many as there are characters).
        Distinct: shift_by_neighbour reads them at every forward and backward pass."""
        one = self.end - self.start == 1
        return np.unique(self.piece[one]) if one.sum() == self.lengths.sum() else None

    @cached_property
    def longest(self) -> int:
        """The most characters an edge spans (kept: shift_by_neighbour asks at every pass)."""
        return int((self.end - self.start).max(initial=0))

    def shift_by_neighbour(self, logp: np.ndarray) -> bool:
        """Whether forward (backward) may shift a node's sum by the value of the node one
        character back (on) instead of the group's maximum. The character's own edge is
        then a term of at least exp(log P(char)), and no term exceeds the shift by more
        than the characters a piece skips could lose: (longest piece - 1) x -log P(least
        probable character). Both must stay within EXP_RANGE. EmRun keeps every character
        with P >= 1e-10 (23 nats), 16 characters at most: 345."""
        if self.char_pieces is None or not self.char_pieces.size:
            return False
        worst = -float(logp[self.char_pieces].min())
        return worst * max(self.longest - 1, 1) < EXP_RANGE

    def expected_counts(
        self, logp: np.ndarray, weights: np.ndarray, alpha: np.ndarray
    ) -> np.ndarray:
        """Every piece's expected count: edge posteriors times the weight of their lattice."""
        beta = self.backward(logp)
        total = self.totals(alpha)
        total = np.where(np.isfinite(total), total, np.inf)  # a word without a path: 0
        # posterior x word count = exp(alpha + log P(piece) + beta - total + log count)
        with np.errstate(divide="ignore"):
            per_word = np.log(weights) - total
        # summed in place, in the same order: one edge-long array instead of four
        weighted = alpha[self.src]
        weighted += logp[self.piece]
        weighted += beta[self.dst]
        weighted += per_word[self.lat]
        np.exp(weighted, out=weighted)
        return np.bincount(self.piece, weights=weighted, minlength=logp.size)

    def viterbi(self, logp: np.ndarray, count_paths: bool = False) -> Best:
        """Best path into every node; ties go to the edge that starts latest."""
        order, (src, piece) = self.fwd, self.fwd_edges
        lp = logp[piece]
        score = np.full(self.n_nodes, -np.inf)
        score[self.node0] = 0.0
        back = np.full(self.n_nodes, -1, dtype=np.int64)
        paths = np.zeros(self.n_nodes) if count_paths else None
        if paths is not None:
            paths[self.node0] = 1.0
        for lv in self.fwd_levels:
            vals = score[src[lv.lo : lv.hi]]  # a new array: added to in place
            vals += lp[lv.lo : lv.hi]
            top = np.maximum.reduceat(vals, lv.starts)
            top -= TIE_TOLERANCE  # per node, not per edge: the same thresholds
            near = vals >= top[lv.group]
            # edges of a node come by start, so the last near-best edge starts latest: the
            # near-best edges in order, each the last of its node's when the next one's
            # node differs (every node has one: its best)
            at = np.flatnonzero(near)
            node = lv.group[at]
            pick = at[np.append(node[1:] != node[:-1], True)]
            score[lv.nodes], back[lv.nodes] = vals[pick], order[lv.lo + pick]
            if paths is not None:
                tied = np.where(near, paths[src[lv.lo : lv.hi]], 0.0)
                paths[lv.nodes] = np.add.reduceat(tied, lv.starts)
        return Best(score, back, paths)

    def best_edges(self, best: Best) -> np.ndarray:
        """The edges (word order) of every lattice's best path, lattice by lattice."""
        node = (self.node0 + self.lengths)[self.lengths > 0]
        found = []
        while node.size:
            edge = best.back[node]
            edge = edge[edge >= 0]  # a lattice without any path has no edge to follow
            found.append(edge)
            node = self.src[edge][self.start[edge] > 0]
        return np.sort(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)

    @cached_property
    def an_edge(self) -> np.ndarray:
        """One edge of each piece (-1: none), any will do (em_prune); kept, as a lattice
        serves several prunes while it keeps its dead edges."""
        some = np.full(int(self.piece.max(initial=-1)) + 1, -1)
        some[self.piece] = np.arange(self.piece.size)
        return some

    @cached_property
    def out_ptr(self) -> np.ndarray:
        """The edges leaving node n are out_ptr[n]:out_ptr[n + 1] (word order sorts them by
        source); kept, as a lattice serves several prunes while it keeps its dead edges."""
        return np.concatenate(([0], np.cumsum(np.bincount(self.src, minlength=self.n_nodes))))

    def sub_lattices(self, edges: np.ndarray) -> Lattices:
        """For each edge, the lattice of its piece's string without that edge itself: every
        other edge of its word inside [start, end), shifted to start at 0."""
        out_ptr = self.out_ptr
        first = self.node0[self.lat[edges]]
        s, e = self.start[edges], self.end[edges]
        lo, hi = out_ptr[first + s], out_ptr[first + e]
        idx = _ranges(lo, hi)
        owner = np.repeat(np.arange(edges.size), hi - lo)
        keep = (self.end[idx] <= e[owner]) & (idx != edges[owner])
        idx, owner = idx[keep], owner[keep]
        shift = s[owner]
        return Lattices(
            e - s, owner, self.start[idx] - shift, self.end[idx] - shift, self.piece[idx]
        )


def _logsumexp(vals: np.ndarray, lv: Level, shift: np.ndarray | None = None) -> np.ndarray:
    """log(sum(exp(vals))) of every group of a level. Each group is shifted before exp, so
    that exp stays within floating point: by `shift` when given (Lattices.shift_by_neighbour
    says when that is safe), else by its maximum (a max per group: the slower way).
    `vals` is overwritten: in place, a pass allocates and fills fewer edge-long arrays."""
    if shift is None:
        shift = np.maximum.reduceat(vals, lv.starts)
        shift[~np.isfinite(shift)] = 0.0  # a node no path reaches: exp(-inf) = 0 below
    vals -= shift[lv.group]
    sums = np.bincount(lv.group, weights=np.exp(vals, out=vals), minlength=shift.size)
    with np.errstate(divide="ignore"):
        return shift + np.log(sums, out=sums)


EXP_RANGE = 700.0  # exp(x) is a finite, non-zero double for |x| below about 708


def lattices_of(
    words: Sequence[str], pieces: Sequence[str], max_len: int | None = None
) -> Lattices:
    """The lattices of `words` over the vocabulary `pieces` (piece i has id i)."""
    ids = {p: i for i, p in enumerate(pieces)}
    limit = max_len or max((len(p) for p in pieces), default=1)
    lat, start, end, piece = [], [], [], []
    for w, word in enumerate(words):
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + limit) + 1):
                k = ids.get(word[i:j])
                if k is not None:
                    lat.append(w), start.append(i), end.append(j), piece.append(k)
    return Lattices([len(w) for w in words], lat, start, end, piece)
