"""Our word split (``corpus.split_words``) and word markers, as tokenizers' own parts.

``split_words`` cuts at Python's whitespace (``str.split``) or, for ``split_punct`` models,
keeps the runs of Python's ``\\w`` and every other non-space character on its own. The
regular expressions of tokenizers (Oniguruma) read ``\\w`` and ``\\s`` with another
Unicode table, so the classes here are written out as code-point ranges taken from this
Python: the exported file then cuts every text exactly where our ``segment`` cuts it.

A marker glued to every word (``▁`` in front, or a stand-in for ``</w>`` behind) is put
into the text by a normalizer, as a zero-width replacement at each word's edge; the
pre-tokenizer then keeps it with its word.

>>> cut = pre_tokenizer(split_punct=True, marker="▁", where="start")
>>> text = normalizer("▁", "start", split_punct=True).normalize_str("Hi, you")
>>> text
'▁Hi▁, ▁you'
>>> [word for word, _ in cut.pre_tokenize_str(text)]
['▁Hi', '▁,', '▁you']
"""

from __future__ import annotations

import functools
import re

from tokenizers import Regex, normalizers, pre_tokenizers

MAX_CODE_POINT = 0x10FFFF


def _char(ch: str) -> str:
    """One character as Oniguruma writes it by its code point."""
    return f"\\x{{{ord(ch):X}}}"


def _ranges(pattern: str) -> str:
    """The characters `pattern` matches on its own, as a character class body of ranges.

    Every code point is written once, in order, so a run of matches is a run of
    consecutive code points: one range. (Surrogates are never matched and tokenizers never
    sees them, since its text is UTF-8.)
    """
    every = "".join(map(chr, range(MAX_CODE_POINT + 1)))
    parts = []
    for run in re.finditer(f"{pattern}+", every):
        first, last = run.group()[0], run.group()[-1]
        parts.append(_char(first) + (f"-{_char(last)}" if last > first else ""))
    return "".join(parts)


@functools.cache
def word_chars() -> str:
    r"""Python's ``\w`` (letters, digits, numerals, ``_``) as a class body.

    >>> word_chars().startswith(r"\x{30}-\x{39}\x{41}-\x{5A}\x{5F}\x{61}-\x{7A}")
    True
    """
    return _ranges(r"\w")


@functools.cache
def space_chars() -> str:
    r"""Python's whitespace (``str.isspace``, ``\s``), as a class body.

    >>> space_chars().startswith(r"\x{9}-\x{D}\x{1C}-\x{20}\x{85}\x{A0}")
    True
    """
    return _ranges(r"\s")


def _edges(where: str, split_punct: bool) -> str:
    """A zero-width pattern at every word start (`where` "start") or word end ("end")."""
    word, space = word_chars(), space_chars()
    if not split_punct:  # a word is a run of non-space characters
        if where == "start":
            return f"(?<![^{space}])(?=[^{space}])"
        return f"(?<=[^{space}])(?![^{space}])"
    if where == "start":  # a run of \w starts, or a character that is no \w and no space
        return f"(?<![{word}])(?=[{word}])|(?=[^{word}{space}])"
    return f"(?<=[{word}])(?![{word}])|(?<=[^{word}{space}])"


def normalizer(marker: str, where: str, split_punct: bool) -> normalizers.Normalizer:
    """Write `marker` (one character) at the start or the end of every word of the text."""
    return normalizers.Replace(Regex(_edges(where, split_punct)), marker)


def pre_tokenizer(
    split_punct: bool, marker: str = "", where: str = "start"
) -> pre_tokenizers.PreTokenizer:
    """Cut a text into the words of split_words, each with its marker when there is one.

    >>> cut = pre_tokenizer(split_punct=False)
    >>> [word for word, _ in cut.pre_tokenize_str("a\\x1cb c")]  # \\x1c: a Python space
    ['a', 'b', 'c']
    """
    if not split_punct:  # words of non-space characters; the marker is one of them
        return pre_tokenizers.Split(Regex(f"[{space_chars()}]+"), behavior="removed")
    word = f"(?:[{word_chars()}]+|[^{word_chars()}{space_chars()}])"
    if marker:
        word = f"{_char(marker)}{word}" if where == "start" else f"{word}{_char(marker)}"
    # keep what the pattern matches, each match a word of its own; drop the spaces between
    return pre_tokenizers.Split(Regex(word), behavior="removed", invert=True)


def isolate(known: set[str]) -> pre_tokenizers.PreTokenizer:
    """Cut every character outside `known` off as a word of its own (it becomes the
    unknown token alone, as in our encoders)."""
    body = "".join(map(_char, sorted(known)))
    pattern = f"[^{body}]" if body else "."
    return pre_tokenizers.Split(Regex(pattern), behavior="isolated")
