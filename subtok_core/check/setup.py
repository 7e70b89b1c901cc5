"""What a check compares against: the corpus as running text and the settings of the
reference run, and the units (words or chunks) each hypothesis cuts that text into.

Character-level BPE trains on the words of the text (split at whitespace, as the BPE
lesson does); byte-level BPE on the chunks its pattern cuts, the text first split at
every special token, which is no part of any chunk.

>>> setup = Setup(("aaa aaa ab ab ab",))
>>> units(setup)
{('a', 'a', 'a'): 2, ('a', 'b'): 3}
>>> byte = Setup(("hi<|s|>hi",), bytelevel=True, specials=("<|s|>",))
>>> units(byte), list(units(byte, specials=False))
({('h', 'i'): 2}, [('h', 'i'), ('<', '|'), ('s',), ('|', '>')])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..bpe.records import MARKERS, initial_symbols
from ..bytebpe.patterns import PATTERNS, check_pattern, split
from ..bytebpe.symbols import to_letters
from ..corpus import split_words
from ..corpus.stream import Split
from .rules import check_rule
from .streamed import FileCorpus

Unit = tuple[str, ...]  # a word or chunk as its first symbols


@dataclass(frozen=True, slots=True)
class Setup:
    """The corpus as lines of running text, and the settings of the reference run."""

    lines: tuple[str, ...]
    bytelevel: bool = False
    marker: str = "none"
    pattern: str = "gpt2"
    ties: str = "first"
    specials: tuple[str, ...] = ()
    split_punct: bool = False
    file: FileCorpus | None = None  # a big file, streamed: `lines` is empty then
    normal: str | None = None  # a streamed file's text lowercased or NFKC (hypotheses)

    def __post_init__(self) -> None:
        check_rule(self.ties, auto=True)  # "auto": the check picks the rule
        if self.marker not in MARKERS:
            raise ValueError(f"Unknown marker {self.marker!r}; choose one of {', '.join(MARKERS)}.")
        check_pattern(self.pattern)
        if self.bytelevel and self.marker != "none":
            raise ValueError("Byte-level BPE has no word-boundary marker: leave out --marker.")
        if self.specials and not self.bytelevel:
            raise ValueError(
                "Special tokens are a byte-level setting (as in CS336): add --bytebpe, or "
                "leave out --special."
            )
        if any(not s for s in self.specials):
            raise ValueError("A special token cannot be empty.")
        if self.file is None and not any(line.strip() for line in self.lines):
            raise ValueError("The corpus is empty: give it at least one word.")

    def with_ties(self, ties: str) -> Setup:
        return replace(self, ties=ties)

    def pieces(self, specials: bool = True) -> list[str]:
        """The text between special tokens (the lines whole with `specials` False)."""
        if not (specials and self.specials):
            return list(self.lines)
        cut = re.compile("|".join(map(re.escape, sorted(self.specials, key=len, reverse=True))))
        return [piece for line in self.lines for piece in cut.split(line) if piece]

    def other_patterns(self) -> tuple[str, ...]:
        return tuple(p for p in PATTERNS if p != self.pattern)

    def other_markers(self) -> tuple[str, ...]:
        return tuple(m for m in MARKERS if m != self.marker)


def running(
    setup: Setup,
    marker: str | None = None,
    pattern: str | None = None,
    specials: bool = True,
    split_punct: bool | None = None,
) -> list[list[Unit]]:
    """Each line (or piece between special tokens) as its units in running order."""
    marker = setup.marker if marker is None else marker
    punct = setup.split_punct if split_punct is None else split_punct
    out = []
    for piece in setup.pieces(specials):
        if setup.bytelevel:
            found = split(piece, setup.pattern if pattern is None else pattern)
            out.append([tuple(to_letters(chunk.encode("utf-8"))) for chunk in found])
        else:
            out.append([tuple(initial_symbols(w, marker)) for w in split_words(piece, punct)])
    return out


def units(setup: Setup, **options) -> dict[Unit, int]:
    """The distinct units in first-appearance order, with their counts."""
    if setup.file is not None:
        return _file_units(setup, **options)
    counts: dict[Unit, int] = {}
    for line in running(setup, **options):
        for unit in line:
            counts[unit] = counts.get(unit, 0) + 1
    if not counts:
        raise ValueError("The corpus is empty: the pre-split found no word in it.")
    return counts


def whole_lines(setup: Setup, joiner: str | None = None) -> dict[Unit, int]:
    """Each line (or piece between special tokens) as one unit, with no pre-split: a
    byte-level line as its bytes; a character-level line as its words' symbols one
    after another, `joiner` (a space) between them if given."""
    counts: dict[Unit, int] = {}
    for piece, line in zip(setup.pieces(), running(setup), strict=True):
        if setup.bytelevel:
            unit: Unit = tuple(to_letters(piece.encode("utf-8")))
        else:
            unit = tuple(
                s for i, w in enumerate(line) for s in ((joiner,) if i and joiner else ()) + w
            )
        if unit:
            counts[unit] = counts.get(unit, 0) + 1
    return counts


def file_split(setup: Setup, pattern=None, specials: bool = True, split_punct=None) -> Split:
    """How a streamed file is cut for these options (see ``running``)."""
    punct = setup.split_punct if split_punct is None else split_punct
    return Split(
        (setup.pattern if pattern is None else pattern) if setup.bytelevel else None,
        punct,
        setup.specials if specials else (),
        setup.normal,
    )


def _file_units(setup: Setup, marker=None, **options) -> dict[Unit, int]:
    """``units`` of a streamed file: its words or chunks counted, then as their symbols."""
    counted = setup.file.counts(file_split(setup, **options))
    marker = setup.marker if marker is None else marker
    counts: dict[Unit, int] = {}
    for word, n in counted.items():
        unit = (
            tuple(to_letters(word.encode("utf-8")))
            if setup.bytelevel
            else tuple(initial_symbols(word, marker))
        )
        counts[unit] = counts.get(unit, 0) + n
    return counts
