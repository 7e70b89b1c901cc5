"""Which of the SaGe paper's trends (§4) a sample reproduces, for SaGe and its controls.

Each trend compares a vocabulary X of size V with BPE(V) on the same sample, both applied
by greedy longest prefix:

- longer tokens (Fig. 1): the mean length of X's entries is above BPE's;
- more tokens to encode the sample (§4, 4.5M against 4M);
- fewer distinct neighbours past the top ranks (Fig. 3): the mean over ranks 51-200;
- a lower neighbour / frequency ratio (Fig. 4): the mean over the pieces used;
- X's own entries more often word-initial than BPE's own (83 % against 22 %).

>>> m = {"BPE": Measures(3.0, 100, 20.0, 1.5, 0.5, 0.5),
...      "SaGe": Measures(3.4, 110, 18.0, 1.6, 0.8, 0.3)}
>>> [t.key for t in TRENDS if shows(t, m["SaGe"], m["BPE"])]
['longer', 'more_tokens', 'fewer_neighbours', 'initial']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import measure as metrics
from ..measure.tokenized import Tokenized, bare, word_initial

TOP_RANKS = (50, 200)  # Fig. 3: "after a few dozen tokens", of the top 200


@dataclass(frozen=True, slots=True)
class Measures:
    """What the trends compare, for one vocabulary (its own-entries shares against BPE)."""

    mean_length: float
    tokens: int
    neighbours: float  # mean distinct neighbours over ranks 51-200
    ratio: float  # mean distinct neighbours / frequency
    own_initial: float  # word-initial share of the entries only X has (vs BPE)
    bpe_initial: float  # word-initial share of the entries only BPE has (vs X)


@dataclass(frozen=True, slots=True)
class Trend:
    key: str
    text: str  # what the paper found, as a phrase
    field: str
    higher: bool  # True: the trend is X above BPE


TRENDS = (
    Trend("longer", "longer tokens", "mean_length", True),
    Trend("more_tokens", "more tokens to encode the sample", "tokens", True),
    Trend("fewer_neighbours", "fewer distinct neighbours past the top ranks", "neighbours", False),
    Trend("lower_ratio", "a lower neighbour / frequency ratio", "ratio", False),
    Trend("initial", "its own tokens mostly word-initial", "own_initial", True),
)


def _share_initial(tokens: Sequence[str]) -> float:
    return float(np.mean([bool(word_initial(p, "sow")) for p in tokens])) if tokens else np.nan


def measure(vocab: Sequence[str], t: Tokenized, bpe_vocab: Sequence[str], window: int = 5):
    """The Measures of one vocabulary `vocab` (tokenizing the sample as `t`)."""
    mine, theirs = set(vocab), set(bpe_vocab)
    lengths = [len(bare(p, "sow")) for p in vocab]
    ratio = metrics.neighbour_ratio(t, window)  # counts each piece's neighbours once
    ranked = np.sort(ratio.table["neighbours"].to_numpy())[::-1]
    lo, hi = TOP_RANKS
    part = ranked[lo:hi] if len(ranked) > lo else ranked
    return Measures(
        float(np.mean(lengths)), len(t), float(np.mean(part)) if len(part) else np.nan,
        ratio.mean,
        _share_initial([p for p in vocab if p not in theirs]),
        _share_initial([p for p in bpe_vocab if p not in mine]),
    )  # fmt: skip


def shows(trend: Trend, x: Measures, bpe: Measures) -> bool:
    """Whether X shows the trend against BPE (the word-initial trend compares X's own
    entries with BPE's own)."""
    if trend.key == "initial":
        return bool(x.own_initial > x.bpe_initial)
    mine, base = getattr(x, trend.field), getattr(bpe, trend.field)
    return bool(mine > base) if trend.higher else bool(mine < base)


def difference(trend: Trend, x: Measures, bpe: Measures) -> float:
    """How far X is from BPE on the trend's measure (own minus BPE's own for word-initial)."""
    if trend.key == "initial":
        return float(x.own_initial - x.bpe_initial)
    return float(getattr(x, trend.field) - getattr(bpe, trend.field))


def _signed(x: float) -> str:
    """+6,420 for big differences, +0.0667 for small ones."""
    return f"{x:+,.0f}" if abs(x) >= 100 else f"{x:+.3g}"


def verdict(
    trend: Trend,
    bpe: Measures,
    sage: Measures,
    frequency: Measures | None = None,
    randoms: Sequence[Measures] = (),
) -> str:
    """One line: does SaGe show the trend here, do the controls, and so what.

    >>> b, s = Measures(3.0, 100, 20, 1.5, .5, .5), Measures(3.4, 110, 18, 1.6, .8, .3)
    >>> verdict(TRENDS[0], b, s, frequency=b, randoms=[s, b])
    'longer tokens: SaGe yes · frequency pruning no · random pruning in 1 of 2 seeds \
(difference from BPE +0 to +0.4, SaGe +0.4) → not specific to context'
    """
    yes = shows(trend, sage, bpe)
    parts = [f"{trend.text}: SaGe {'yes' if yes else 'no'}"]
    others = 0
    if frequency is not None:
        hit = shows(trend, frequency, bpe)
        others += hit
        parts.append(f"frequency pruning {'yes' if hit else 'no'}")
    if randoms:
        hits = sum(shows(trend, r, bpe) for r in randoms)
        others += hits
        spread = [difference(trend, r, bpe) for r in randoms]
        parts.append(
            f"random pruning in {hits} of {len(randoms)} seeds (difference from BPE "
            f"{_signed(min(spread))} to {_signed(max(spread))}, "
            f"SaGe {_signed(difference(trend, sage, bpe))})"
        )
    if not yes:
        end = "not reproduced here"
    elif others:
        end = "not specific to context"
    else:
        end = "only SaGe: context's doing"
    return " · ".join(parts) + f" → {end}"
