"""The n best segmentations of a word under a trained Unigram model, and sampling (Kudo 2018).

A word's lattice (lattice.py) has one path per segmentation, with P(path) the product of
its pieces' probabilities. Here:

- ``nbest``: the n most probable paths, exactly: a forward Viterbi pass gives, for every
  node, the best score of the word up to it; a search backwards from the end then grows
  paths piece by piece, always extending the one whose best possible total is highest
  (A*). A path that reaches the start is complete, and none found later beats it.
- ``samples``: segmentations drawn with probability P(x)^alpha, normalised over every
  segmentation (alpha = 1: the model's own probabilities; small alpha: nearly uniform;
  large alpha: nearly always the best). Forward filtering sums every path's P^alpha up to
  each node; backward sampling then picks the last piece, the one before, ... each in
  proportion to its share of those sums.
- ``sampled_vs_exact``: observed frequencies next to the exact probabilities.

A character in no piece makes a word impossible to segment without [UNK]: plain encoding
(encode.py) prices [UNK] by a made-up penalty, which gives no probability to rank or sample
by, so these functions refuse such a word in a sentence.

Worked example (001, `toy:run-bug`, strict substrings, frequency / 155): run has three
segmentations; ru n and r un tie at 3·26/155² = 12,090/155³ and r u n is 3·31·26/155³ =
2,418/155³, so they share the word's probability as 5/11, 5/11 and 1/11.

>>> import math
>>> freq = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26}
>>> logprobs = tuple(math.log(f / 155) for f in freq.values())
>>> model = UnigramModel(tuple(freq), logprobs, ("r", "u", "n"))
>>> [(" ".join(s.pieces), round(s.probability, 4)) for s in nbest(model, "run", 5)]
[('ru n', 0.4545), ('r un', 0.4545), ('r u n', 0.0909)]
"""

from __future__ import annotations

import bisect
import heapq
import math
import random
from collections import Counter
from dataclasses import dataclass

from .. import limits, sampling
from ..lattice import NEG_INF, _logsumexp, edges_of, max_piece_len
from ..records import SOW
from .records import UnigramModel


@dataclass(frozen=True, slots=True)
class Scored:
    """One segmentation: its pieces, log P (natural log, the sum of its pieces') and its
    probability among all the word's segmentations, P(x) / P(word)."""

    pieces: tuple[str, ...]
    logp: float
    probability: float


class Lattice:
    """A word's lattice for n-best and sampling: the pieces ending at each node, and the
    forward sums (log of the summed P of every path from the start to each node)."""

    def __init__(self, model: UnigramModel, word: str):
        if not isinstance(word, str) or not word.strip() or len(word.split()) != 1:
            raise ValueError(f"Give one word (no spaces) to segment, not {word!r}.")
        limits.check_words([word])
        logp = {p: lp for p, lp in zip(model.pieces, model.logprobs, strict=True) if lp > NEG_INF}
        self.word = word
        self.text = (SOW if model.marker == "sow" else "") + word  # as encode.py reads it
        n = len(self.text)
        # incoming[end]: every (start, piece, logp) that ends at node `end`
        self.incoming: list[list[tuple[int, str, float]]] = [[] for _ in range(n + 1)]
        for start, end, piece, lp in edges_of(self.text, logp, max_piece_len(logp)):
            self.incoming[end].append((start, piece, lp))
        self.forward = self.sums(1.0)
        if self.forward[n] == NEG_INF:
            raise ValueError(self._why_not())

    def sums(self, alpha: float) -> list[float]:
        """forward[i] = log of the sum of P(path)^alpha over every path from 0 to node i."""
        out = [0.0] + [NEG_INF] * (len(self.text))
        for end in range(1, len(self.text) + 1):
            out[end] = _logsumexp([out[s] + alpha * lp for s, _p, lp in self.incoming[end]])
        return out

    def _why_not(self) -> str:
        covered = {
            i for end, ins in enumerate(self.incoming) for s, _p, _lp in ins for i in range(s, end)
        }
        missing = [ch for i, ch in enumerate(self.text) if i not in covered]
        if missing:
            return (
                f"{self.word!r} has the character {missing[0]!r}, which is in no piece of this "
                "vocabulary: plain encoding writes it as [UNK], but [UNK] has no probability "
                "of its own to rank or sample segmentations by."
            )
        return f"{self.word!r} cannot be segmented with this vocabulary."


def nbest(model: UnigramModel, word: str, n: int) -> list[Scored]:
    """The `n` most probable segmentations of `word` (fewer if it has fewer), most probable
    first; of equal ones, as lattice.viterbi picks: the last piece starting latest first."""
    limits.check_count("nbest", n)
    lat = Lattice(model, word)
    length, total = len(lat.text), lat.forward[-1]
    # forward Viterbi: best[i] = log P of the best path from the start to node i
    best = [0.0] + [NEG_INF] * length
    for end in range(1, length + 1):
        best[end] = max((best[s] + lp for s, _p, lp in lat.incoming[end]), default=NEG_INF)
    # backward A*: a partial path runs from some node to the end; its priority is its own
    # log P plus the best log P from the start to that node, the best total it can reach.
    # Ties in priority: the path whose pieces start latest, from the last piece back.
    heap = [(-best[length], (), length, 0.0, ())]
    found: list[Scored] = []
    while heap and len(found) < n:
        _, starts, node, logp, pieces = heapq.heappop(heap)
        if node == 0:  # reached the start: complete, and nothing left can beat it
            found.append(Scored(pieces, logp, math.exp(logp - total)))
            continue
        for start, piece, lp in lat.incoming[node]:
            if best[start] == NEG_INF:
                continue  # no path reaches this piece's start
            priority = round(-(logp + lp + best[start]), 9)  # equal up to rounding: a tie
            item = (priority, (*starts, -start), start, logp + lp, (piece, *pieces))
            heapq.heappush(heap, item)
    return found


def samples(
    model: UnigramModel, text: str, alpha: float, n: int, seed: int = 0
) -> list[tuple[str, ...]]:
    """`n` segmentations of a text, each word drawn on its own with probability
    P(x)^alpha / (sum over its segmentations y of P(y)^alpha), from
    ``random.Random(seed)``: the same seed gives the same samples."""
    alpha = sampling.check_alpha(alpha)
    limits.check_count("samples", n)
    rng = random.Random(sampling.check_seed(seed))
    draws = [
        _sampler(Lattice(model, word), alpha)
        for word in sampling.text_words(text, model.split_punct)
    ]
    return [tuple(piece for draw in draws for piece in draw(rng)) for _ in range(n)]


def _sampler(lat: Lattice, alpha: float):
    """A function rng -> one segmentation drawn by forward filtering, backward sampling."""
    forward = lat.sums(alpha)
    # at each node, the pieces ending there with the cumulative share of the forward sum
    # that comes through each: P(last piece | the path reaches this node)
    choices = []
    for end, ins in enumerate(lat.incoming):
        live = [
            (s, p, math.exp(forward[s] + alpha * lp - forward[end]))
            for s, p, lp in ins
            if forward[s] > NEG_INF
        ]
        cumulative, acc = [], 0.0
        for *_, share in live:
            acc += share
            cumulative.append(acc)
        choices.append((live, cumulative))

    def draw(rng: random.Random) -> tuple[str, ...]:
        node, pieces = len(lat.text), []
        while node > 0:  # pick the last piece, then the one before it, ...
            live, cumulative = choices[node]
            k = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            start, piece, _ = live[min(k, len(live) - 1)]
            pieces.append(piece)
            node = start
        return tuple(reversed(pieces))

    return draw


def sampled_vs_exact(
    model: UnigramModel, word: str, alpha: float, n: int, seed: int = 0, top: int = 8
) -> list[dict]:
    """Sample `word` `n` times; for its `top` most probable segmentations (and, as one row,
    all the others), the observed frequency next to the exact probability P^alpha
    normalised, and the standard error of a frequency of n samples, sqrt(p (1 - p) / n)."""
    lat = Lattice(model, word)
    alpha = sampling.check_alpha(alpha)
    log_z = lat.sums(alpha)[-1]
    ranked = nbest(model, word, top + 1)
    counts = Counter(samples(model, word, alpha, n, seed))
    rows, exact_left, seen = [], 1.0, 0
    for scored in ranked[:top]:
        exact = math.exp(alpha * scored.logp - log_z)
        count = counts[scored.pieces]
        rows.append(_row(" ".join(scored.pieces), exact, count, n))
        exact_left, seen = exact_left - exact, seen + count
    if len(ranked) > top:  # the segmentations not listed, together
        rows.append(_row("(all others)", max(exact_left, 0.0), n - seen, n))
    return rows


def _row(segmentation: str, exact: float, count: int, n: int) -> dict:
    return {
        "segmentation": segmentation,
        "exact": exact,
        "observed": count / n,
        "count": count,
        "standard error": math.sqrt(exact * (1 - exact) / n),
    }
