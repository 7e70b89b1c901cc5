"""BPE-dropout (Provilkov et al., 2020): encode with the learned merges, each skipped at random.

At every merge step, each occurrence of an adjacent pair the model can merge is dropped
independently with probability p; of the occurrences that survive, the one whose merge
was learned first (the leftmost of equals) is applied. The word is done when no
occurrence survives a step. With p = 0 nothing is dropped and the word is cut as plain BPE
cuts it; with p = 1 every merge is dropped and the word stays as its first symbols.

>>> alphabet = ("a", "b", "g", "s")
>>> model = BpeModel((("a", "g"), ("b", "ag")), (*alphabet, "ag", "bag"), alphabet, "none")
>>> samples(model, "bags", 0.0, 2, seed=1)
[('bag', 's'), ('bag', 's')]
>>> samples(model, "bags", 1.0, 1, seed=1)
[('b', 'a', 'g', 's')]

With p = 0.5 each of the three cuts the two merges allow turns up in 50 samples:

>>> sorted(set(samples(model, "bags", 0.5, 50, seed=3)))
[('b', 'a', 'g', 's'), ('b', 'ag', 's'), ('bag', 's')]
"""

from __future__ import annotations

import random

from .. import limits, sampling
from ..markers import initial_symbols
from ..records import UNK
from .encode import _ranks
from .records import BpeModel, Pair

P_GRID = tuple(k / 10 for k in range(11))  # the dropout probabilities of count_spread


def dropout_word(
    model: BpeModel, word: str, p: float, rng: random.Random, ranks: dict[Pair, int]
) -> tuple[str, ...]:
    """One BPE-dropout segmentation of one word; `ranks` maps a pair to its merge number
    (from 0). A character never seen in training is [UNK] and takes part in no merge."""
    known = set(model.alphabet)
    symbols = [s if s in known else None for s in initial_symbols(word, model.marker)]
    return tuple(UNK if s is None else s for s in drop_merges(symbols, ranks, p, rng))


def drop_merges(symbols: list, ranks: dict[Pair, int], p: float, rng: random.Random) -> list:
    """BPE-dropout on any list of first symbols (characters here; a byte-level BPE would
    give bytes): the merged symbols. A symbol that is None takes part in no merge."""
    symbols = list(symbols)
    while True:
        # every occurrence of a mergeable pair survives with probability 1 - p ...
        best = None  # (rank, position) of the surviving occurrence learned first
        for i, pair in enumerate(zip(symbols, symbols[1:])):
            rank = ranks.get(pair)
            if rank is None or rng.random() < p:
                continue
            if best is None or rank < best[0]:  # strict: the leftmost of equal ranks
                best = (rank, i)
        # ... and the word is done when none survives
        if best is None:
            return symbols
        # apply that one occurrence: its two symbols become one
        i = best[1]
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]


def samples(model: BpeModel, text: str, p: float, n: int, seed: int = 0) -> list[tuple[str, ...]]:
    """`n` BPE-dropout segmentations of a text (each word cut on its own, its pieces in
    order), drawn from ``random.Random(seed)``: the same seed gives the same samples."""
    p = sampling.check_probability(p)
    limits.check_count("samples", n)
    rng = random.Random(sampling.check_seed(seed))
    words = sampling.text_words(text, model.split_punct)
    ranks = _ranks(model)
    return [
        tuple(piece for word in words for piece in dropout_word(model, word, p, rng, ranks))
        for _ in range(n)
    ]


def count_spread(
    model: BpeModel, text: str, n: int, seed: int = 0, grid: tuple[float, ...] = P_GRID
) -> list[dict[str, float]]:
    """How the number of tokens spreads as p grows: for each p of `grid`, the mean, the
    smallest, the quartiles and the largest token count of `n` samples (those of
    ``samples(model, text, p, n, seed)``), one record per p.

    >>> alphabet = ("a", "b", "g", "s")
    >>> model = BpeModel((("a", "g"), ("b", "ag")), (*alphabet, "ag", "bag"), alphabet, "none")
    >>> [(row["p"], row["min"], row["max"]) for row in count_spread(model, "bags", 20)[::5]]
    [(0.0, 2, 2), (0.5, 2, 4), (1.0, 4, 4)]
    """
    rows = []
    for p in grid:
        counts = [len(pieces) for pieces in samples(model, text, p, n, seed)]
        rows.append({"p": p, **sampling.count_summary(counts), "samples": n})
    return rows
