"""How much work one request may ask for, with the reason, in one place.

The web app keeps one request under about a minute on a two-core server; the command
line allows more (it runs on the user's own machine and its own time). Every trainer
checks its inputs against the command-line limits before it starts, and every page
against the web limits, so an address such as ``/bpe?merges=1000000000`` gets a sentence,
not an hour of work.

>>> check("merges", 500, "web")
>>> check("merges", 1_000_000_000, "cli")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: merges 1,000,000,000 is more than the 200,000 allowed here: every merge is ...
>>> check_words(["low", "x" * 300])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: The word 'xxxxxxxxxxxxxxxxxxxx…' has 300 characters; words of at most 200 ...
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """The largest value of a setting in the web app and on the command line, and why."""

    what: str
    web: float
    cli: float
    why: str


LIMITS = {
    "merges": Limit("merges", 20_000, 200_000, "every merge is one step the trace keeps"),
    "vocab_size": Limit(
        "vocab size",
        20_000,
        500_000,
        "each new symbol is one step of training, and the "
        "Compare page trains three or four tokenizers at once",
    ),  # fmt: skip
    "em_iterations": Limit(
        "EM iterations per round", 10, 50, "SentencePiece uses 2; more change little"
    ),
    "seed_size": Limit("seed size", 200_000, 2_000_000, "every seed piece is in every lattice"),
    "sage_vocab_size": Limit(
        "SaGe's vocab size", 20_000, 100_000, "every piece's ablation loss is recomputed"
    ),
    "sage_window": Limit("window", 10, 50, "the loss sums over every pair within the window"),
    "sage_n": Limit("overshoot n", 4, 10, "BPE first learns n x V pieces to prune"),
    "sample_lines": Limit(
        "lines", 100_000, 10_000_000, "the whole sample is re-tokenized at every prune step"
    ),
    "text_chars": Limit("characters", 10_000, 1_000_000, "the text is encoded on every click"),
    "samples": Limit(
        "samples", 2_000, 100_000, "every sample encodes the text once more, at random"
    ),
    "nbest": Limit(
        "n-best segmentations",
        100,
        10_000,
        "the search keeps every partial segmentation that could still be among the n best",
    ),  # fmt: skip
    # byte-level BPE (bytebpe/): merging a chunk rescans its pairs after every merge
    "chunk_bytes": Limit(
        "bytes in one chunk",
        1_000,
        10_000,
        "merging a chunk costs the square of its length in bytes (10,000 bytes: seconds)",
    ),
    "replay_bytes": Limit(
        "bytes to replay",
        2_000,
        200_000,
        "the replay lists every merge of every chunk with the parts after it",
    ),
}
WORD_MAX_CHARS = 200  # training and encoding: the cost of a word grows with its length squared
WORDPIECE_TRIES = 200_000  # longest-match tries a text's trace keeps (each is a record)
TEXTBOOK_MAX_SUBSTRINGS = 500_000  # the textbook Unigram seed enumerates every substring


def limit(name: str, where: str = "web") -> float:
    """The largest value allowed for `name` in the web app or on the command line."""
    entry = LIMITS[name]
    return entry.web if where == "web" else entry.cli


def describe(name: str) -> str:
    """One phrase for --help and the pages: the limits and the reason.

    >>> print(describe("em_iterations"))
    at most 10 in the web app, 50 on the command line: SentencePiece uses 2; more change little
    """
    entry = LIMITS[name]
    return f"at most {entry.web:,} in the web app, {entry.cli:,} on the command line: {entry.why}"


def check(name: str, value, where: str = "cli") -> None:
    """Refuse a value that is not a finite number or is over the limit, in a sentence."""
    if value is None:
        return
    entry = LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{entry.what} must be a finite number, not {value!r}.")
    top = limit(name, where)
    if value > top:
        raise ValueError(
            f"{entry.what} {value:,} is more than the {top:,} allowed here: {entry.why}."
        )


def check_count(name: str, value, where: str = "cli") -> None:
    """Refuse a count (of samples, of segmentations) that is not a whole number from 1 to
    the limit of `name`.

    >>> check_count("samples", 0)
    Traceback (most recent call last):
    ...
    ValueError: samples must be a whole number of at least 1, not 0.
    """
    entry = LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{entry.what} must be a whole number of at least 1, not {value!r}.")
    check(name, value, where)


def check_words(words: Iterable[str], max_chars: int = WORD_MAX_CHARS) -> None:
    """Refuse a corpus or a text with a word longer than `max_chars` characters."""
    for word in words:
        if len(word) > max_chars:
            shown = word[:20] + "…"
            raise ValueError(
                f"The word {shown!r} has {len(word):,} characters; words of at most "
                f"{max_chars} are taken (a longer one is usually not text, and its cost "
                "grows with the square of its length)."
            )


def substring_count(lengths: Iterable[int], max_len: int | None = None) -> int:
    """How many substrings a textbook seed enumerates, counted without enumerating them.

    A word of n characters has n (n + 1) / 2 substrings; with pieces of at most m
    characters, m (2n - m + 1) / 2 of them.

    >>> substring_count([3, 4]), substring_count([4], max_len=2)
    (16, 7)
    """
    total = 0
    for n in lengths:
        m = n if max_len is None else min(n, max_len)
        total += m * (2 * n - m + 1) // 2
    return total
