"""BPE as a student would first write it: recount every pair before every merge.

This is the loop the BPE page shows under "read the code". It is slow (every merge looks
at the whole corpus again) but has nothing to get wrong; the property tests check that the
fast trainer in ``train.py`` makes exactly the same merges, with the same counts, under
every tie rule and marker. It shares only the markers' definitions with the trainer (a
word's first symbols, ``subtok_core.markers``), which tests check by hand on their own.

Worked example (003, `toy:low-lower` with ``</w>``): the first merges are e+s, es+t,
est+</w>, each 9 times, then l+o 7 times (tied with o+w, which comes later in the corpus).

>>> from subtok_core.corpus import load
>>> wc = load("toy:low-lower")
>>> merges, _ = learn_merges(wc.words, wc.counts, 4, marker="eow")
>>> [("".join(pair), count) for pair, count in merges]
[('es', 9), ('est', 9), ('est</w>', 9), ('lo', 7)]
"""

from __future__ import annotations

from itertools import pairwise

from ..markers import initial_alphabet, initial_symbols

Pair = tuple[str, str]


def count_pairs(segmentations, counts) -> dict[Pair, int]:
    """Every adjacent pair of every word, each occurrence weighted by the word's count."""
    table: dict[Pair, int] = {}
    for symbols, count in zip(segmentations, counts, strict=True):
        for pair in pairwise(symbols):
            table[pair] = table.get(pair, 0) + count
    return table


def merge_pair(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    """Replace every occurrence of the pair, left to right, without overlap."""
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def learn_merges(words, counts, n_merges: int, marker: str = "none", ties: str = "first"):
    """Learn `n_merges` merges; return [(pair, count), ...] and the final segmentations.

    Ties: among the pairs of the highest count, ``first`` takes the one that occurs first
    (words in corpus order, symbols left to right), ``lex`` the alphabetically smallest,
    ``tokenizers`` the one whose symbols were created first (as Hugging Face tokenizers).
    """
    # each word as its characters and the word-boundary marker, if any
    segmentations = [tuple(initial_symbols(word, marker)) for word in words]
    # symbol ids as Hugging Face tokenizers gives them (tie rule "tokenizers")
    created = {symbol: i for i, symbol in enumerate(initial_alphabet(words, marker))}
    merges = []
    for _ in range(n_merges):
        # 1. count every adjacent pair in the whole corpus
        table = count_pairs(segmentations, counts)
        if not table:
            break  # every word is a single symbol: nothing left to merge
        # 2. the most frequent pair wins; the tie rule picks among equal counts
        best = max(table.values())
        tied = [pair for pair, count in table.items() if count == best]
        pair = min(tied, key=_tie_key(ties, segmentations, created))
        merges.append((pair, best))
        created.setdefault(pair[0] + pair[1], len(created))
        # 3. merge that pair in every word
        segmentations = [merge_pair(symbols, pair) for symbols in segmentations]
    return merges, segmentations


def _first_positions(segmentations) -> dict[Pair, tuple[int, int]]:
    """(word index, symbol index) of each pair's first occurrence."""
    found: dict[Pair, tuple[int, int]] = {}
    for w, symbols in enumerate(segmentations):
        for i, pair in enumerate(pairwise(symbols)):
            found.setdefault(pair, (w, i))
    return found


def _tie_key(ties: str, segmentations, created: dict[str, int]):
    if ties == "first":
        positions = _first_positions(segmentations)
        return lambda pair: positions[pair]
    if ties == "lex":
        return lambda pair: pair
    return lambda pair: (created[pair[0]], created[pair[1]])
