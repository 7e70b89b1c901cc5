"""A word's lattice: character positions are nodes, vocabulary pieces are edges.

Every path from node 0 to the last node is one segmentation; its probability is the
product of its pieces' probabilities (a sum of log-probabilities). Viterbi finds the most
probable path; forward-backward gives each edge its posterior, the expected number of
times that piece is used in one occurrence of the word.

Worked example (001, `toy:run-bug`, strict substrings): P(ru)·P(n) = P(r)·P(un), a tie.
The path whose last piece starts latest wins, so run -> ru n, as the slides pick.

>>> import math
>>> freq = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26}
>>> logp = {piece: math.log(f / 155) for piece, f in freq.items()}
>>> pieces, best = viterbi("run", logp)
>>> pieces, round(math.exp(best), 8)
(('ru', 'n'), 0.00324662)
>>> all_segmentations("run", logp)
[('r', 'u', 'n'), ('r', 'un'), ('ru', 'n')]

Ties: among segmentations whose log-probabilities differ by less than TIE_TOLERANCE, the
one whose last piece starts latest wins (and so on backwards, piece by piece).
"""

from __future__ import annotations

import math
from collections.abc import Container, Mapping
from dataclasses import dataclass

from .records import UNK

NEG_INF = float("-inf")
TIE_TOLERANCE = 1e-9  # log-probabilities closer than this count as equal


@dataclass(frozen=True, slots=True)
class Edge:
    """One piece of the vocabulary found in the word, at characters [start, end)."""

    start: int
    end: int
    piece: str
    logp: float
    posterior: float  # expected uses of this edge in one occurrence of the word


@dataclass(frozen=True, slots=True)
class WordLattice:
    """Every edge of a word's lattice, the Viterbi path through it and its totals."""

    word: str
    edges: tuple[Edge, ...]
    best: tuple[int, ...]  # indices into edges, left to right
    best_logp: float  # log P(best segmentation)
    total_logp: float  # log of the sum of P over every segmentation

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(self.edges[i].piece for i in self.best)


def max_piece_len(logp: Mapping[str, float]) -> int:
    return max((len(p) for p in logp), default=1)


def edges_of(
    word: str,
    logp: Mapping[str, float],
    max_len: int | None = None,
    unk_logp: float | None = None,
    skip: str | None = None,
) -> list[tuple[int, int, str, float]]:
    """Every (start, end, piece, logp) of the vocabulary inside `word`, by start then end.

    With `unk_logp`, a character that is no piece of its own also gets an edge of piece
    [UNK], so that every word has a segmentation. `skip` leaves one piece out, as if it
    were removed from the vocabulary.
    """
    limit = max_len or max_piece_len(logp)
    found = []
    for start in range(len(word)):
        own = False
        for end in range(start + 1, min(len(word), start + limit) + 1):
            piece = word[start:end]
            if piece in logp and piece != skip:
                found.append((start, end, piece, logp[piece]))
                own = own or end == start + 1
        if not own and unk_logp is not None:
            found.append((start, start + 1, UNK, unk_logp))
    return sorted(found, key=lambda e: (e[0], e[1]))


def _viterbi_table(word: str, edges: list) -> tuple[list[float], list[int]]:
    """best[i] = log P of the best segmentation of word[:i]; back[i] = its last edge."""
    best = [0.0] + [NEG_INF] * len(word)
    back = [-1] * (len(word) + 1)
    for index, (start, end, _piece, lp) in enumerate(edges):  # edges come by start
        score = best[start] + lp
        # a later start wins a tie: edges arrive by start, so a tie replaces
        if score > best[end] + TIE_TOLERANCE or (
            back[end] >= 0 and abs(score - best[end]) <= TIE_TOLERANCE
        ):
            best[end], back[end] = score, index
    return best, back


def _path(back: list[int], edges: list, length: int) -> tuple[int, ...]:
    path, node = [], length
    while node > 0:
        if back[node] < 0:
            return ()
        path.append(back[node])
        node = edges[back[node]][0]
    return tuple(reversed(path))


def viterbi(
    word: str,
    logp: Mapping[str, float],
    max_len: int | None = None,
    skip: str | None = None,
    unk_logp: float | None = None,
) -> tuple[tuple[str, ...], float]:
    """The most probable segmentation of `word` and its log-probability (see Ties above);
    `skip` leaves one piece out of the vocabulary, `unk_logp` prices [UNK] (see edges_of)."""
    edges = edges_of(word, logp, max_len, unk_logp, skip)
    best, back = _viterbi_table(word, edges)
    path = _path(back, edges, len(word))
    if not path and word:
        raise ValueError(f"{word!r} cannot be segmented with this vocabulary.")
    return tuple(edges[i][2] for i in path), best[len(word)]


def _logsumexp(values: list[float]) -> float:
    top = max(values, default=NEG_INF)
    if top == NEG_INF:
        return NEG_INF
    return top + math.log(sum(math.exp(v - top) for v in values))


def word_lattice(
    word: str, logp: Mapping[str, float], max_len: int | None = None, unk_logp: float | None = None
) -> WordLattice:
    """The whole lattice of `word`: edges with posteriors (forward-backward), Viterbi path."""
    edges = edges_of(word, logp, max_len, unk_logp)
    n = len(word)
    # forward: alpha[i] = log of the summed probability of every segmentation of word[:i]
    alpha = [0.0] + [NEG_INF] * n
    for i in range(1, n + 1):
        alpha[i] = _logsumexp([alpha[s] + lp for s, e, _p, lp in edges if e == i])
    # backward: beta[i] = the same for word[i:]
    beta = [NEG_INF] * n + [0.0]
    for i in range(n - 1, -1, -1):
        beta[i] = _logsumexp([lp + beta[e] for s, e, _p, lp in edges if s == i])
    total = alpha[n]
    if n and total == NEG_INF:
        raise ValueError(f"{word!r} cannot be segmented with this vocabulary.")
    records = tuple(
        Edge(s, e, p, lp, math.exp(alpha[s] + lp + beta[e] - total) if n else 0.0)
        for s, e, p, lp in edges
    )
    best, back = _viterbi_table(word, edges)
    return WordLattice(word, records, _path(back, edges, n), best[n], total)


def all_segmentations(
    word: str, pieces: Container[str], limit: int = 1000, max_len: int | None = None
) -> list[tuple[str, ...]]:
    """Every segmentation of `word` into pieces of the vocabulary, up to `limit` of them,
    in lexicographic order of their piece lengths (shortest first piece first)."""
    longest = max_len or len(word)
    found: list[tuple[str, ...]] = []

    def extend(start: int, prefix: tuple[str, ...]) -> None:
        if len(found) >= limit:
            return
        if start == len(word):
            found.append(prefix)
            return
        for end in range(start + 1, min(len(word), start + longest) + 1):
            if word[start:end] in pieces:
                extend(end, prefix + (word[start:end],))

    extend(0, ())
    return found


def segmentation_logp(pieces: tuple[str, ...], logp: Mapping[str, float]) -> float:
    """log P of one segmentation: the sum of its pieces' log-probabilities."""
    return sum(logp[p] for p in pieces)
