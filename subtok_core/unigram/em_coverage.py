"""Character coverage, as SentencePiece's trainer applies it before the Unigram seed.

SentencePiece counts every character of its text (``▁`` included: one before every word)
and keeps the most frequent ones until they cover ``character_coverage`` of the text
(its default is 0.9995; ties: the smaller code point first). Every other character is
replaced by one placeholder, U+2585 (``▅``, its ``kUNKChar``): the placeholder is no
seed character, no seed piece contains it, but it still follows the substring before it
(so that substring may be a candidate). In the lattices a rare character is ``<unk>``:
the only path across it, so a word's lattice falls into the parts between its rare
characters, and EM over the parts gives every piece the same expected counts and Viterbi
segmentations as EM over the whole word with an ``<unk>`` edge (the ``<unk>`` edge's
probability only adds the same constant to the word's loss, which is left out here).

At coverage 1.0 (our default, the lesson's) every character is kept.

Worked example: aab 3, naïve 1 has 18 characters, a 7, ▁ 4, b 3 and e n v ï once each
(ties: e, n, v, ï by code point). a, ▁, b, e, n cover 16/18 = 0.889 < 0.9, so v is kept;
with it 17/18 = 0.944 >= 0.9, so ï is the one rare character.

>>> from subtok_core.corpus import from_pairs
>>> wc = from_pairs([("aab", 3), ("naïve", 1)])
>>> sorted(rare_characters(wc, "sow", 0.9))
['ï']
>>> sorted(rare_characters(wc, "sow", 1.0))
[]
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..corpus import WordCounts
from ..records import SOW

RARE = "\u2585"  # what SentencePiece writes for a character beyond the coverage
DEFAULT_COVERAGE = 1.0  # ours: every character stays
SENTENCEPIECE_COVERAGE = 0.9995  # sentencepiece's default character_coverage


def check_coverage(coverage: float) -> None:
    if not 0 < coverage <= 1:
        raise ValueError(
            f"The character coverage must be above 0 and at most 1, not {coverage} (1.0 "
            "keeps every character; SentencePiece's default 0.9995 drops the rarest ones)."
        )


def rare_characters(wc: WordCounts, marker: str, coverage: float) -> set[str]:
    """The characters beyond `coverage` of the running text (▁ counted before each word)."""
    check_coverage(coverage)
    counts: Counter[str] = Counter()
    for word, count in zip(wc.words, wc.counts):
        for ch in word:
            counts[ch] += count
    if marker == "sow":
        counts[SOW] += sum(wc.counts)
    total = sum(counts.values())
    kept, covered = set(), 0
    for ch, n in sorted(counts.items(), key=lambda kv: (-kv[1], ord(kv[0]))):
        if covered / total >= coverage:
            break
        covered += n
        kept.add(ch)
    return set(counts) - kept


def masked(wc: WordCounts, rare: set[str]) -> WordCounts:
    """The words with every rare character replaced by the placeholder RARE."""
    if not rare:
        return wc
    table = {ord(ch): RARE for ch in rare}
    words = tuple(w.translate(table) for w in wc.words)
    return WordCounts(words, wc.counts, wc.name, wc.line_ends)


def split_at_rare(marked: list[str], word: np.ndarray, start: np.ndarray, end: np.ndarray):
    """The lattices' words cut at each RARE character: per part its length and the word it
    comes from, and per edge (word, start, end) its part and its start and end in the part.
    A word without RARE is one part, unchanged."""
    lengths, owner, first = [], [], np.empty(len(marked), dtype=np.int64)
    cuts: dict[int, list[int]] = {}  # word -> the positions of its RARE characters
    for w, m in enumerate(marked):
        first[w] = len(lengths)
        if RARE not in m:
            lengths.append(len(m)), owner.append(w)
            continue
        parts = m.split(RARE)
        cuts[w] = [i for i, ch in enumerate(m) if ch == RARE]
        lengths.extend(map(len, parts)), owner.extend([w] * len(parts))
    part, shift = first[word].copy(), np.zeros(word.size, dtype=np.int64)
    for e in np.flatnonzero(np.isin(word, list(cuts))).tolist():
        before = [c for c in cuts[int(word[e])] if c < start[e]]
        part[e] += len(before)
        shift[e] = before[-1] + 1 if before else 0
    return np.array(lengths, dtype=np.int64), np.array(owner, dtype=np.int64), part, \
        start - shift, end - shift  # fmt: skip
