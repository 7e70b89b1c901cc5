"""The few operations both stages share, on tokens as bytes: count the pairs, rank them
by the tie rule, merge one pair, and apply merges by rank (the encoder).

Counting follows the reference: in a run of one repeated pair (a a a) only the pairs that
can merge side by side count, so "aaa" gives (a, a) once.

>>> count_pairs([([b"a", b"a", b"a"], 2), ([b"a", b"b"], 1)])
{(b'a', b'a'): 2, (b'a', b'b'): 1}
>>> merge_pair([b"a", b"a", b"a"], (b"a", b"a"))
[b'aa', b'a']
>>> ranked({(b"b", b"y"): 3, (b" ", b"w"): 3, (b"a", b"y"): 4}, "smallest")
[((b'a', b'y'), 4), ((b' ', b'w'), 3), ((b'b', b'y'), 3)]
>>> ranked({(b"b", b"y"): 3, (b" ", b"w"): 3}, "first")
[((b'b', b'y'), 3), ((b' ', b'w'), 3)]
"""

from __future__ import annotations

from collections.abc import Iterable

BytePair = tuple[bytes, bytes]

# smallest: the reference's rule (BoundlessBPE's trainer): of the pairs with the highest
# count, the smallest comparing bytes (b" " before b"a"); first: the pair seen first.
TIE_RULES = ("smallest", "first")
TIE_TITLES = {
    "smallest": "BoundlessBPE: smallest pair",
    "first": "first seen in the corpus",
}


def check_ties(ties: str) -> None:
    if ties not in TIE_RULES:
        raise ValueError(f"Unknown tie rule {ties!r}; choose one of {', '.join(TIE_RULES)}.")


def count_pairs(sequences: Iterable[tuple[list[bytes], int]]) -> dict[BytePair, int]:
    """Each neighbouring pair with how often it occurs, in the order first seen."""
    counts: dict[BytePair, int] = {}
    for tokens, n in sequences:
        previous = None  # the pair counted just before, which this one may overlap
        for pair in zip(tokens, tokens[1:]):
            if pair == previous and pair[0] == pair[1]:
                previous = None  # "a a a": the second (a, a) overlaps the first
                continue
            counts[pair] = counts.get(pair, 0) + n
            previous = pair
    return counts


def ranked(counts: dict[BytePair, int], ties: str) -> list[tuple[BytePair, int]]:
    """The pairs, the one to merge first: the highest count, ties broken by `ties`."""
    if ties == "smallest":
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return sorted(counts.items(), key=lambda item: -item[1])  # stable: first seen first


def merge_pair(tokens: list[bytes], pair: BytePair) -> list[bytes]:
    """Every occurrence of `pair` joined, left to right."""
    out: list[bytes] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            out.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def apply_by_rank(tokens: list[bytes], ranks: dict[BytePair, int]) -> list[bytes]:
    """Encode: while some neighbouring pair was learned, merge the one learned first."""
    while len(tokens) > 1:
        found = [ranks[p] for p in zip(tokens, tokens[1:]) if p in ranks]
        if not found:
            break
        first = min(found)
        pair = next(p for p in zip(tokens, tokens[1:]) if ranks.get(p) == first)
        tokens = merge_pair(tokens, pair)
    return tokens
