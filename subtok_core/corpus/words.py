"""Running text -> words -> WordCounts: the pre-tokenization every trainer shares (split at
spaces, punctuation optionally split off) and the counts in first-appearance order.

>>> wc = from_text("the cat and the hat")
>>> list(zip(wc.words, wc.counts))
[('the', 2), ('cat', 1), ('and', 1), ('hat', 1)]
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .. import limits

_PUNCT = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”»)\]]*\s+")


@dataclass(frozen=True, slots=True)
class WordCounts:
    """Distinct words in first-appearance order with their counts; ``line_ends``, when the
    corpus came as text (:func:`count_lines`, :func:`from_text`, the samples), how many
    times each word ends a line (empty: a word table has no lines). Unigram's EM seed reads
    them (unigram/em_seed.py)."""

    # pickled, fingerprinted and kept on disk (plaindata) under its public name, as before
    # the package was split: the same corpus keeps the same cache keys
    __module__ = "subtok_core.corpus"

    words: tuple[str, ...]
    counts: tuple[int, ...]
    name: str = ""
    line_ends: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.words)

    @property
    def total(self) -> int:
        """Number of running words (the sum of the counts)."""
        return sum(self.counts)

    def items(self) -> list[tuple[str, int]]:
        return list(zip(self.words, self.counts, strict=True))


def split_words(text: str, split_punct: bool = False) -> list[str]:
    """Pre-tokenize: split on whitespace; optionally split punctuation off as its own word.

    >>> split_words("Hello, world!", split_punct=True)
    ['Hello', ',', 'world', '!']
    """
    if split_punct:
        return _PUNCT.findall(text)
    return text.split()


def encode_words(text: str, split_punct: bool = False) -> list[str]:
    """split_words for an encoder: a word over limits.WORD_MAX_CHARS characters is refused
    with a sentence, whatever the model (a crafted Unigram piece of 5,000 characters and
    one word of 50,000 ran past a minute; WordPiece with max_word_chars 10**12, 1.3 GB).

    >>> encode_words("x" * 201)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The word 'xxxxxxxxxxxxxxxxxxxx…' has 201 characters; words of at most 200 ...
    """
    words = split_words(text, split_punct)
    limits.check_words(words)
    return words


def split_sentences(lines) -> list[str]:
    """Lines (paragraphs) -> sentences: a cut after . ! ? or … and the spaces that follow,
    where the next sentence starts with a capital letter, a digit or an opening quote.

    >>> split_sentences(["It rained. Then it stopped! e.g. not here", "Second line."])
    ['It rained.', 'Then it stopped! e.g. not here', 'Second line.']
    """
    sentences: list[str] = []
    for line in lines:
        start = 0
        for cut in _SENTENCE_END.finditer(line):
            head = line[cut.end() : cut.end() + 2].lstrip("\"'“«([")
            if head[:1].isupper() or head[:1].isdigit():
                sentences.append(line[start : cut.end()].strip())
                start = cut.end()
        if line[start:].strip():
            sentences.append(line[start:].strip())
    return [s for s in sentences if s]


def count_words(words: list[str] | tuple[str, ...], name: str = "") -> WordCounts:
    """Count words, keeping the order in which they first appear (a Counter is a dict:
    it keeps that order, and counts in C).

    >>> count_words("the cat saw the dog".split()).items()
    [('the', 2), ('cat', 1), ('saw', 1), ('dog', 1)]
    """
    counts = Counter(words)
    if not counts:
        raise ValueError("The corpus is empty: give it at least one word.")
    return WordCounts(tuple(counts), tuple(counts.values()), name)


def count_lines(lines: list[str], split_punct: bool = False, name: str = "") -> WordCounts:
    """Count the words of `lines`, and how many times each ends a line.

    >>> wc = count_lines(["the cat saw the dog", "the dog"])
    >>> wc.items(), wc.line_ends
    ([('the', 3), ('cat', 1), ('saw', 1), ('dog', 2)], (0, 0, 0, 2))
    """
    per_line = [split_words(line, split_punct) for line in lines]
    wc = count_words([w for words in per_line for w in words], name)
    last = Counter(words[-1] for words in per_line if words)
    return WordCounts(wc.words, wc.counts, name, tuple(last.get(w, 0) for w in wc.words))


def from_text(text: str, split_punct: bool = False, name: str = "") -> WordCounts:
    """Running text -> WordCounts (whitespace split, optionally punctuation split), with
    how many times each word ends a line."""
    if not text.strip():
        raise ValueError("The text is empty: type or upload some words first.")
    return count_lines(text.splitlines(), split_punct, name)
