"""The ways a student's trainer may differ from the reference, each as a re-training: the
units it would count (the corpus cut or changed its way) and the options of our readable
trainer (``variants``). A hypothesis whose result the file's own symbols rule out (a
marker the file never writes, a piece across words it never has) is not tried.

>>> from .setup import Setup
>>> [h.cause for h in tried(Setup(("aaa ab",)), [("a", "a")])][:5]
['overlap', 'frequencies', 'once-per-word', 'first-occurrence', 'right-to-left']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from ..bytebpe.patterns import PATTERNS, o200k, split
from ..bytebpe.symbols import to_bytes, to_letters
from ..markers import initial_symbols
from .setup import Setup, Unit, units, whole_lines

O200K = o200k()  # tiktoken's o200k_base pattern (GPT-4o): not one of the lesson's
PATTERN_NAMES = {"gpt2": "GPT-2's", "cl100k": "cl100k's", "none": "whitespace", "o200k": "o200k's"}

BECAUSE = {
    "tie": "your trainer breaks ties by another rule.",
    "overlap": "your trainer counts a run of one symbol without overlap.",
    "frequencies": "your trainer ignores word frequencies (each distinct word counts once).",
    "once-per-word": "your trainer counts each pair once per word, not every occurrence.",
    "first-occurrence": "your trainer merges only the first occurrence of a pair in a word.",
    "right-to-left": "your trainer merges a pair's occurrences from right to left.",
    "normalised": "your trainer changes the text before counting.",
    "boundary": "your trainer counts pairs across the boundaries of the pre-split.",
    "stale-counts": "your trainer does not lower the counts a merge breaks up.",
    "special-token": "your trainer does not treat the special tokens as boundaries.",
    "pre-split": "your trainer cuts the text another way before counting.",
    "marker": "your trainer marks word boundaries another way.",
}


@dataclass(frozen=True)
class Hypothesis:
    cause: str
    how: str  # "a trainer that ..." (a phrase)
    units: Callable[[], dict[Unit, int]] = field(compare=False)
    options: tuple[tuple[str, object], ...] = ()


def tried(setup: Setup, merges: list[tuple[str, str]]) -> Iterator[Hypothesis]:
    """The hypotheses worth re-training for this file, in the order they are tried."""
    same = lambda: units(setup)  # noqa: E731
    where = "chunk" if setup.bytelevel else "word"
    yield Hypothesis("overlap", "counts a run like a a a as one (a, a)", same,
                     (("count", "taken"),))  # fmt: skip
    yield Hypothesis("frequencies", "ignores word frequencies", same, (("weights", False),))
    yield Hypothesis("once-per-word", f"counts each pair once per {where}", same,
                     (("count", "once"),))  # fmt: skip
    yield Hypothesis("first-occurrence", f"merges only the first occurrence in each {where}",
                     same, (("merge", "first"),))  # fmt: skip
    yield Hypothesis("right-to-left", "merges from right to left", same, (("merge", "rtl"),))
    yield Hypothesis("stale-counts", "never lowers a count after a merge", same,
                     (("lower", False),))  # fmt: skip
    for name, change in (("lowercases", str.lower), ("NFKC-normalises", _nfkc)):
        if setup.file:  # a big file: streamed again, changed as it is read
            normal = replace(setup, normal="lower" if change is str.lower else "NFKC")
            yield Hypothesis("normalised", f"{name} the corpus", lambda s=normal: units(s))
            continue
        lines = tuple(change(line) for line in setup.lines)
        if lines != setup.lines:
            changed = replace(setup, lines=lines)
            yield Hypothesis("normalised", f"{name} the corpus", lambda s=changed: units(s))
    symbols = {s for pair in merges for s in pair} | {a + b for a, b in merges}
    if setup.bytelevel:
        yield from _byte_level(setup, symbols)
    else:
        yield from _character_level(setup, symbols)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _byte_level(setup: Setup, symbols: set[str]) -> Iterator[Hypothesis]:
    if setup.specials:
        yield Hypothesis("special-token", "reads the special tokens as ordinary text",
                         lambda: units(setup, specials=False))  # fmt: skip
    for pattern in (*PATTERNS, "o200k"):
        if pattern != setup.pattern:
            chunks = (lambda p=pattern: units(setup, pattern=p)) if setup.file else (
                lambda p=pattern: _chunks(setup, setup.pieces(), p))  # fmt: skip
            yield Hypothesis("pre-split", f"pre-splits with {PATTERN_NAMES[pattern]} pattern",
                             chunks)  # fmt: skip
    if setup.file:
        return  # a big file is never held whole, nor a line as one unit (streamed.NOT_TRIED)
    if len(setup.lines) > 1:
        whole = ["".join(setup.pieces())] if not setup.specials else _whole_pieces(setup)
        yield Hypothesis("pre-split", "runs the pattern over the file read whole, not line by line",
                         lambda: _chunks(setup, whole, setup.pattern))  # fmt: skip
    if any(len(split(to_bytes(s).decode("utf-8", "replace"), setup.pattern)) > 1
           for s in symbols):  # fmt: skip
        yield Hypothesis("boundary", "does not pre-split (pairs cross chunks)",
                         lambda: whole_lines(setup))  # fmt: skip


def _whole_pieces(setup: Setup) -> list[str]:
    return replace(setup, lines=("".join(setup.lines),)).pieces()


def _chunks(setup: Setup, pieces: list[str], pattern: str) -> dict[Unit, int]:
    counts: dict[Unit, int] = {}
    for piece in pieces:
        found = O200K.findall(piece) if pattern == "o200k" else split(piece, pattern)
        for chunk in found:
            unit = tuple(to_letters(chunk.encode("utf-8")))
            counts[unit] = counts.get(unit, 0) + 1
    return counts


def _character_level(setup: Setup, symbols: set[str]) -> Iterator[Hypothesis]:
    punct = not setup.split_punct
    how = "splits punctuation off words" if punct else "leaves punctuation in the words"
    yield Hypothesis("pre-split", how, lambda: units(setup, split_punct=punct))
    written = "".join(symbols)
    for marker in setup.other_markers():
        mark = "".join(s for s in initial_symbols("a", marker) if s != "a").replace("a", "")
        if marker == "none" or (mark and mark in written):
            yield Hypothesis("marker", f"marks words with '{marker}'",
                             lambda m=marker: units(setup, marker=m))  # fmt: skip
    if setup.file:
        return  # see _byte_level
    yield Hypothesis("boundary", "counts across word boundaries (words run together)",
                     lambda: whole_lines(setup))  # fmt: skip
    if any(" " in s for s in symbols):
        yield Hypothesis("boundary", "counts over the text with its spaces",
                         lambda: whole_lines(setup, " "))  # fmt: skip
