"""The SaGe paper's summary figures (§4) computed on a run, beside the paper's own.

The paper compares BPE(V) and SaGe(V) through the tokens only one of them has: most
BPE-only tokens are 2 or 3 characters long (56 %), most SaGe-only tokens 5 or more (55 %),
SaGe-only tokens are mostly word-initial (83 % against 22 %), and SaGe needs more tokens
to encode the same text (4.5 million against 4 million). A token's length here counts its
characters without the ``▁`` word-start mark (``▁the`` has 3; a lone ``▁`` has 0).

>>> f = summary_figures(["▁a", "b", "ab", "▁ab", "xyz"], ["▁a", "b", "▁abcde", "▁xyz"], 10, 12)
>>> f.bpe_only, f.sage_only, f.bpe_only_short, f.sage_only_long
(3, 2, 1.0, 0.5)
>>> f.sage_only_initial, f.bpe_only_initial
(1.0, 0.3333333333333333)
>>> [c.holds(f) for c in CLAIMS]
[True, False, True, True]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..measure.tokenized import bare, word_initial
from . import paper


@dataclass(frozen=True, slots=True)
class SummaryFigures:
    """The paper's figures for one pair of vocabularies; shares are fractions (nan when a
    part is empty: two equal vocabularies have no BPE-only token)."""

    bpe_only: int  # entries in BPE(V) and not in SaGe(V)
    sage_only: int
    bpe_only_short: float  # share of BPE-only entries 2 or 3 characters long
    sage_only_long: float  # share of SaGe-only entries 5 or more characters long
    bpe_tokens: int  # running tokens of the sample cut by BPE(V)
    sage_tokens: int
    sage_only_initial: float  # share of SaGe-only entries that start a word (▁ in front)
    bpe_only_initial: float


def _share(pieces: Sequence[str], test: Callable[[str], bool]) -> float:
    return sum(map(test, pieces)) / len(pieces) if pieces else math.nan


def summary_figures(
    bpe_vocab: Sequence[str], sage_vocab: Sequence[str], bpe_tokens: int, sage_tokens: int
) -> SummaryFigures:
    """The figures of two vocabularies in ▁ notation; `bpe_tokens` and `sage_tokens` are
    how many tokens each cuts the same sample into."""
    in_bpe, in_sage = set(bpe_vocab), set(sage_vocab)
    bpe_only = [p for p in dict.fromkeys(bpe_vocab) if p not in in_sage]
    sage_only = [p for p in dict.fromkeys(sage_vocab) if p not in in_bpe]
    return SummaryFigures(
        len(bpe_only),
        len(sage_only),
        _share(bpe_only, lambda p: 2 <= len(bare(p, "sow")) <= 3),
        _share(sage_only, lambda p: len(bare(p, "sow")) >= 5),
        int(bpe_tokens),
        int(sage_tokens),
        _share(sage_only, lambda p: bool(word_initial(p, "sow"))),
        _share(bpe_only, lambda p: bool(word_initial(p, "sow"))),
    )


@dataclass(frozen=True, slots=True)
class Claim:
    """One finding of the paper as a test a run passes or not (None: cannot tell)."""

    text: str
    test: Callable[[SummaryFigures], bool]
    fields: tuple[str, ...]  # the figures it reads

    def holds(self, f: SummaryFigures) -> bool | None:
        values = [getattr(f, name) for name in self.fields]
        if any(isinstance(v, float) and math.isnan(v) for v in values):
            return None
        return bool(self.test(f))


CLAIMS = (
    Claim("most BPE-only tokens are 2-3 characters long",
          lambda f: f.bpe_only_short > 0.5, ("bpe_only_short",)),
    Claim("most SaGe-only tokens are 5 or more characters long",
          lambda f: f.sage_only_long > 0.5, ("sage_only_long",)),
    Claim("SaGe needs more tokens than BPE for the same text",
          lambda f: f.sage_tokens > f.bpe_tokens, ("bpe_tokens", "sage_tokens")),
    Claim("SaGe-only tokens are more often word-initial than BPE-only tokens",
          lambda f: f.sage_only_initial > f.bpe_only_initial,
          ("sage_only_initial", "bpe_only_initial")),
)  # fmt: skip


def _percent(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.0%}"


def _tokens(n: int, base: int) -> str:
    change = f" ({n / base - 1:+.1%})" if base and n != base else ""
    return f"{n:,}{change}"


def figure_rows(run: SummaryFigures, printed: dict = paper.FIGURES) -> list[dict[str, str]]:
    """The small table: one row per figure, the paper's value beside the run's.

    >>> f = SummaryFigures(4, 2, 0.5, 1.0, 100, 110, 1.0, 0.25)
    >>> [list(r.values()) for r in figure_rows(f)][3]
    ['tokens to encode the text, SaGe', '4,500,000 (+12.5%)', '110 (+10.0%)']
    """
    p = printed
    return [
        {"figure": name, "the paper": mine, "this run": theirs}
        for name, mine, theirs in (
            ("BPE-only tokens 2-3 characters long",
             _percent(p["bpe_only_short"]), _percent(run.bpe_only_short)),
            ("SaGe-only tokens 5 or more characters long",
             _percent(p["sage_only_long"]), _percent(run.sage_only_long)),
            ("tokens to encode the text, BPE", f"{p['bpe_tokens']:,}", f"{run.bpe_tokens:,}"),
            ("tokens to encode the text, SaGe", _tokens(p["sage_tokens"], p["bpe_tokens"]),
             _tokens(run.sage_tokens, run.bpe_tokens)),
            ("word-initial share of SaGe-only tokens",
             _percent(p["sage_only_initial"]), _percent(run.sage_only_initial)),
            ("word-initial share of BPE-only tokens",
             _percent(p["bpe_only_initial"]), _percent(run.bpe_only_initial)),
        )
    ]  # fmt: skip


def agreement(run: SummaryFigures) -> str:
    """One sentence: which of the paper's findings the run shows and which it does not.

    >>> agreement(SummaryFigures(4, 2, 0.75, 0.5, 100, 90, 1.0, 0.25))
    'As in the paper: most BPE-only tokens are 2-3 characters long; SaGe-only tokens are \
more often word-initial than BPE-only tokens. Not in this run: most SaGe-only tokens are 5 \
or more characters long; SaGe needs more tokens than BPE for the same text.'
    """
    said = {True: [], False: [], None: []}
    for claim in CLAIMS:
        said[claim.holds(run)].append(claim.text)
    parts = []
    if said[True]:
        parts.append("As in the paper: " + "; ".join(said[True]) + ".")
    if said[False]:
        parts.append("Not in this run: " + "; ".join(said[False]) + ".")
    if said[None]:
        parts.append(
            "Cannot tell here (no token only one vocabulary has): " + "; ".join(said[None]) + "."
        )
    return " ".join(parts)
