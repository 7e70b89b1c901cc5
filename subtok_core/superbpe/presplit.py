"""The pre-split of SuperBPE and BoundlessBPE: GPT-4o's pattern (tiktoken's o200k_base),
which the reference trainers (kensho-technologies/fastboundlessbpe) use by default, or one
of byte-level BPE's patterns.

A supermerge may join two neighbouring pre-tokens only when each is already one token of
the ordinary vocabulary and holds a letter (``joinable``): "," and "." never join, so a
superword never runs across punctuation.

>>> split("by the way, of the people.", "o200k")
['by', ' the', ' way', ',', ' of', ' the', ' people', '.']
>>> joinable(" the"), joinable(","), joinable(" 42")
(True, False, False)
"""

from __future__ import annotations

import functools

import regex

from ..bytebpe.patterns import O200K_PARTS, pattern_text

# not byte-level BPE's "none": it drops the spaces a superword must keep between its words
PATTERNS = ("o200k", "gpt2", "cl100k")
TITLES = {
    "o200k": "GPT-4o's pattern (o200k_base), as the reference trainers use",
    "gpt2": "GPT-2's pattern",
    "cl100k": "GPT-4's pattern (cl100k_base)",
}
LETTER = regex.compile(r"\p{L}")


def check_pattern(name: str) -> None:
    if name not in PATTERNS:
        raise ValueError(f"Unknown pattern {name!r}; choose one of {', '.join(PATTERNS)}.")


@functools.cache
def compiled(name: str) -> regex.Pattern:
    check_pattern(name)
    text = "|".join(O200K_PARTS) if name == "o200k" else pattern_text(name)
    return regex.compile(text)


def split(text: str, name: str) -> list[str]:
    """The pre-tokens of `text`, in order."""
    return compiled(name).findall(text)


def joinable(pretoken: str) -> bool:
    """Whether a pre-token may be part of a superword: it holds a letter (the reference's
    SIMPLE_MERGE_PATTERN, a search for \\p{L})."""
    return LETTER.search(pretoken) is not None
