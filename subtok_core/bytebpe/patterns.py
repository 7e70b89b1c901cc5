"""The pre-split: a regular expression cuts the text into chunks before any merge.

Merges never cross a chunk boundary, which is why " the" and "the" are different tokens
(GPT-2 keeps the space before a word with the word) and why cl100k_base writes numbers in
groups of at most three digits. Each pattern is a list of parts, each part one
alternative of the regular expression with a sentence on what it matches; the pattern is
the parts joined by ``|``, tried left to right at every position.

- ``gpt2``: the pattern of the GPT-2 release (also Hugging Face's ByteLevel pre-tokenizer).
- ``cl100k``: GPT-4's cl100k_base (``CL100K_PATTERN``, as tiktoken defines it).
- ``none``: no regular expression of a GPT model: the text is cut at whitespace, which is
  dropped, as the BPE lesson cuts words. Tokens then never hold a space, and the only
  difference from that lesson is that the symbols are bytes, not characters.

What counts as a letter (``\\p{L}``) or a digit (``\\p{N}``) comes from the Unicode tables
of the ``regex`` module, which can be newer than those of tiktoken's Rust regex: a
character added to Unicode since (a new CJK extension, a new script) may be a letter here
and no letter there, and be cut differently. Every character of Unicode 14 is cut alike.

>>> [(c.text, c.part) for c in chunks("It's 2024!", "gpt2")]
[('It', 1), ("'s", 0), (' 2024', 2), ('!', 3)]
>>> [c.text for c in chunks("It's 2024!", "cl100k")]
['It', "'s", ' ', '202', '4', '!']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex  # unlike re, it knows \\p{L} (any letter) and \\p{N} (any digit)

from ..pretrained.tiktoken_based import CL100K_PATTERN

PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "gpt2": (
        (r"'s|'t|'re|'ve|'m|'ll|'d", "an English ending after an apostrophe: 's 't 're 've 'm "
         "'ll 'd (lower case only)"),
        (r" ?\p{L}+", "a run of letters, with the space before it if there is one"),
        (r" ?\p{N}+", "a run of digits of any length, with the space before it"),
        (r" ?[^\s\p{L}\p{N}]+", "a run of punctuation, symbols or emoji, with the space "
         "before it"),
        (r"\s+(?!\S)", "a run of whitespace, except the last space before a word: that space "
         "goes with the word"),
        (r"\s+", "whitespace the parts above left: a line break or tab before a word"),
    ),
    "cl100k": (
        (r"'(?i:[sdmt]|ll|ve|re)", "an English ending after an apostrophe, in any case: "
         "'s 'T 'll 'VE ..."),
        (r"[^\r\n\p{L}\p{N}]?+\p{L}++", "a run of letters, with the one character before it "
         "if that is no letter, digit or line break (a space, a quote, a bracket)"),
        (r"\p{N}{1,3}+", "one to three digits: a longer number is cut into groups of three "
         "from the left, with no space"),
        (r" ?[^\s\p{L}\p{N}]++[\r\n]*+", "a run of punctuation, symbols or emoji, with the "
         "space before it and the line breaks after it"),
        (r"\s++$", "whitespace at the very end of the text"),
        (r"\s*[\r\n]", "whitespace up to and including a line break"),
        (r"\s+(?!\S)", "a run of whitespace, except the last space before a word: that "
         "space goes with the word"),
        (r"\s", "one whitespace character the parts above left (the space before a number)"),
    ),
    "none": ((r"\S+", "a run of characters other than whitespace; whitespace is dropped"),),
}  # fmt: skip
PATTERNS = tuple(PARTS)
TITLES = {
    "gpt2": "GPT-2's pattern (also Hugging Face's ByteLevel pre-tokenizer)",
    "cl100k": "cl100k_base's pattern (GPT-4)",
    "none": "no pattern: words split at whitespace, as in the BPE lesson",
}


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk of a text: its characters [start, end) and the part of the pattern
    (index into ``PARTS[name]``) that matched it."""

    text: str
    start: int
    end: int
    part: int


def check_pattern(name: str) -> None:
    if name not in PARTS:
        raise ValueError(f"Unknown pattern {name!r}; choose one of {', '.join(PATTERNS)}.")


def pattern_text(name: str) -> str:
    """The regular expression of a pattern: its parts joined by ``|``.

    >>> pattern_text("none")
    '\\\\S+'
    """
    check_pattern(name)
    return "|".join(part for part, _ in PARTS[name])


@functools.cache
def compiled(name: str) -> regex.Pattern:
    """The pattern compiled (cached); ``compiled(name).findall(text)`` gives the chunks."""
    return regex.compile(pattern_text(name))


@functools.cache
def _grouped(name: str) -> regex.Pattern:
    # the same alternatives, each in a group of its own, so a match says which one matched
    return regex.compile("|".join(f"({part})" for part, _ in PARTS[name]))


def chunks(text: str, name: str) -> list[Chunk]:
    """The chunks of `text` in order, each with the part of the pattern that matched it."""
    check_pattern(name)
    return [
        Chunk(m.group(), m.start(), m.end(), m.lastindex - 1) for m in _grouped(name).finditer(text)
    ]


def split(text: str, name: str) -> list[str]:
    """Just the chunks' texts."""
    check_pattern(name)
    return compiled(name).findall(text)


assert pattern_text("cl100k") == CL100K_PATTERN  # the parts are tiktoken's pattern, cut up


# tiktoken's o200k_base pattern (GPT-4o), one alternative per line: not a pattern of the
# byte-level lesson (PATTERNS), but what /check's pre-split hypothesis, SuperBPE's and
# BoundlessBPE's trainers and a streamed file's counts use (`o200k()`)
O200K_PARTS = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",  # a word ending in lower case, one character before it
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",  # a word starting in upper case
    r"\p{N}{1,3}",  # one to three digits
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",  # punctuation and symbols, with the space before them
    r"\s*[\r\n]+",  # line breaks
    r"\s+(?!\S)",  # whitespace but the last space before a word
    r"\s+",  # any other whitespace
)


@functools.cache
def o200k() -> regex.Pattern:
    """tiktoken's o200k_base pre-split pattern, compiled (cached)."""
    return regex.compile("|".join(O200K_PARTS))
