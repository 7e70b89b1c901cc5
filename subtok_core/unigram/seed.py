"""The seed vocabulary of the textbook Unigram variant: substrings and their frequencies.

A piece's frequency is how often it occurs in the corpus: every occurrence inside every
word, times the word's count. With ``strict``, only the substrings that are shorter than
the word they come from are pieces (001: run-bug keeps ru and un but not run), though a
piece's frequency still counts the words it makes whole (004: hug 15 = hug 10 + hugs 5).

>>> from subtok_core.corpus import load
>>> rows = seed_rows(load("toy:run-bug"), "strict")
>>> [piece for piece, _ in rows]
['r', 'u', 'n', 'ru', 'un', 'b', 'g', 'bu', 'ug', 'f', 'fu', 's', 'su']
>>> dict(rows)["un"], sum(f for _, f in rows)
(26, 155)
"""

from __future__ import annotations

from ..corpus import WordCounts
from ..corpus.builtin import toy_seed

SEEDS = ("strict", "all", "frequent", "given")
SEED_TEXT = {
    "strict": "every strict substring of a word (001)",
    "all": "every substring of every word, whole words included",
    "frequent": "the characters and the most frequent substrings",
    "given": "the list the course material gives",
}


def _substrings(word: str, max_len: int | None, strict: bool) -> list[str]:
    """Substrings of one word, by length then position (the order of the 001 slides)."""
    longest = min(len(word) - (1 if strict else 0), max_len or len(word))
    longest = max(longest, 1)  # a word of one character still gives its character
    return [word[i : i + n] for n in range(1, longest + 1) for i in range(len(word) - n + 1)]


def _frequencies(wc: WordCounts, pieces: list[str]) -> dict[str, int]:
    freq = dict.fromkeys(pieces, 0)
    longest = max((len(p) for p in pieces), default=1)
    for word, count in wc.items():
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + longest) + 1):
                if word[i:j] in freq:
                    freq[word[i:j]] += count
    return freq


def seed_rows(
    wc: WordCounts, seed: str = "all", max_len: int | None = None, size: int | None = None
) -> list[tuple[str, int]]:
    """(piece, frequency) for every seed piece, in first-seen order.

    ``frequent`` keeps every character and then the `size` pieces in all (ties: first
    seen); ``given`` reads the toy's list from subtok_core/data/toys.toml.
    """
    if not wc.words:
        raise ValueError("The corpus is empty: there is no word to take substrings from.")
    if seed not in SEEDS:
        raise ValueError(f"Unknown seed {seed!r}; choose one of {', '.join(SEEDS)}.")
    if max_len is not None and max_len < 1:
        raise ValueError(f"The maximum piece length must be at least 1, not {max_len}.")
    if seed == "given":
        return _given(wc)
    pieces = list(
        dict.fromkeys(p for w in wc.words for p in _substrings(w, max_len, seed == "strict"))
    )
    freq = _frequencies(wc, pieces)
    if seed == "frequent":
        return _most_frequent(freq, size)
    return list(freq.items())


def _most_frequent(freq: dict[str, int], size: int | None) -> list[tuple[str, int]]:
    chars = [p for p in freq if len(p) == 1]
    if size is None or size < len(chars):
        raise ValueError(
            f"A seed of the most frequent substrings needs a size of at least {len(chars)}, "
            f"the number of characters of this corpus (got {size})."
        )
    longer = sorted((p for p in freq if len(p) > 1), key=lambda p: -freq[p])  # stable
    keep = set(chars) | set(longer[: size - len(chars)])
    return [(p, f) for p, f in freq.items() if p in keep]


def _given(wc: WordCounts) -> list[tuple[str, int]]:
    found = toy_seed(wc.name)
    if found is None:
        raise ValueError(
            f"{wc.name or 'This corpus'} comes with no seed list; choose the strict, all or "
            "frequent substrings instead."
        )
    rows = list(found[0])
    missing = sorted({ch for w in wc.words for ch in w} - {p for p, _ in rows})
    if missing:
        raise ValueError(f"The given seed lacks the characters {' '.join(missing)}.")
    return rows
