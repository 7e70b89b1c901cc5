"""Context metrics of SaGe §4: distinct neighbours of each token (Fig. 3) and the ratio of
distinct neighbours to frequency (Fig. 4).

A neighbour of a token occurrence is any token at most `window` positions before or after
it in the running tokens of the same line: windows cross word boundaries (context is
what the next words are cut into) but never a line end (a paragraph or sentence of the
corpus). A piece that occurs next to itself is its own neighbour.

>>> from subtok_core.measure.tokenized import tokenize_corpus
>>> t = tokenize_corpus(list, ["a b a c"])
>>> distinct_neighbours(t, window=1)[["token", "neighbours", "frequency"]].values.tolist()
[['a', 2, 2], ['b', 1, 1], ['c', 1, 1]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .tokenized import Tokenized

BLOCK_CELLS = 1 << 26  # the piece x piece table is filled in blocks of at most 64 MB


def _check(t: Tokenized, window: int) -> None:
    if not isinstance(window, int | np.integer) or window < 1:
        raise ValueError(f"The window must be a whole number of tokens, at least 1; got {window}.")
    if t.line_index is None:
        raise ValueError(
            "This corpus was given as word counts, which keep no running order, so tokens have "
            "no neighbours. Tokenize the lines of the text instead."
        )


def neighbour_counts(t: Tokenized, window: int = 5, block_cells: int = BLOCK_CELLS) -> np.ndarray:
    """Distinct neighbours of each piece (aligned with ``t.pieces``).

    A boolean piece x piece table marks every pair seen within the window (both ways round);
    a piece's count is its row's number of marks. Big vocabularies fill it in row blocks of
    at most `block_cells` cells.
    """
    _check(t, window)
    n = len(t.pieces)
    ids, lines = t.ids.astype(np.int64), t.line_index
    counts = np.zeros(n, dtype=np.int64)
    rows = max(1, block_cells // n)
    for r0 in range(0, n, rows):
        r1 = min(r0 + rows, n)
        seen = np.zeros((r1 - r0) * n, dtype=bool)
        for d in range(1, window + 1):
            same_line = lines[:-d] == lines[d:]  # the window stops at a line end
            left, right = ids[:-d][same_line], ids[d:][same_line]
            for x, y in ((left, right), (right, left)):  # x sees y, and y sees x
                if rows < n:
                    keep = (x >= r0) & (x < r1)
                    x, y = x[keep], y[keep]
                seen[(x - r0) * n + y] = True
        counts[r0:r1] = np.count_nonzero(seen.reshape(r1 - r0, n), axis=1)
    return counts


def distinct_neighbours(t: Tokenized, window: int = 5) -> pd.DataFrame:
    """For each piece of the corpus, how many distinct pieces occur within `window` tokens
    of it, ranked high to low (ties: more frequent first, then first seen). SaGe Fig. 3.

    Columns: rank, token, neighbours, frequency.
    """
    counts = neighbour_counts(t, window)
    table = pd.DataFrame(
        {"token": t.pieces, "neighbours": counts, "frequency": t.frequencies()}
    ).sort_values(["neighbours", "frequency"], ascending=False, kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)


@dataclass(frozen=True, slots=True)
class NeighbourRatio:
    """Distinct neighbours / frequency per piece (``table``, highest ratio first) and how
    the pieces spread over equal bins of the ratio from 0 to 2 x window (``histogram``,
    columns bin_start, bin_end, tokens, share). No ratio can exceed 2 x window."""

    window: int
    table: pd.DataFrame
    histogram: pd.DataFrame

    @property
    def mean(self) -> float:
        return float(self.table["ratio"].mean())


def neighbour_ratio(t: Tokenized, window: int = 5, bins: int = 20) -> NeighbourRatio:
    """Each piece's distinct neighbours divided by its corpus frequency. SaGe Fig. 4.

    Micro case "a b a c", window 1: a has 2 distinct neighbours (b, c) in 2 occurrences,
    b has 1 (a) in 1, c has 1 (a) in 1: every ratio is 1.0, in the upper of the two bins
    [0, 1) and [1, 2] (the last bin holds its right edge).

    >>> from subtok_core.measure.tokenized import tokenize_corpus
    >>> r = neighbour_ratio(tokenize_corpus(list, ["a b a c"]), window=1, bins=2)
    >>> r.table["ratio"].tolist(), r.histogram["tokens"].tolist()
    ([1.0, 1.0, 1.0], [0, 3])
    """
    if not isinstance(bins, int | np.integer) or bins < 1:
        raise ValueError(f"The histogram needs at least 1 bin; got {bins}.")
    table = distinct_neighbours(t, window).drop(columns="rank")
    table["ratio"] = table["neighbours"] / table["frequency"]
    table = table.sort_values("ratio", ascending=False, kind="stable").reset_index(drop=True)
    tokens, edges = np.histogram(table["ratio"], bins=bins, range=(0.0, 2.0 * window))
    histogram = pd.DataFrame(
        {"bin_start": edges[:-1], "bin_end": edges[1:], "tokens": tokens,
         "share": tokens / len(table)}
    )  # fmt: skip
    return NeighbourRatio(window, table, histogram)
