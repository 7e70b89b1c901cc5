"""The reference run of a check: our own step-recorded trainers, the merges only.

>>> from subtok_core.check.setup import Setup
>>> reference_merges(Setup(("low low lower",)), 2)
[('l', 'o'), ('lo', 'w')]
"""

from __future__ import annotations

from ..bpe import train_bpe
from ..bytebpe import trace_bytebpe
from ..bytebpe.train import Chunked
from ..corpus import count_words, split_words
from . import variants
from .setup import Setup, file_split, units


def reference_merges(setup: Setup, n: int) -> list[tuple[str, str]]:
    """The first `n` merges of the reference trainer (fewer if no pair is left)."""
    return [pair for pair, _count in reference_steps(setup, n)]


def reference_steps(setup: Setup, n: int) -> list[tuple[tuple[str, str], int]]:
    """(pair, count) of the first `n` merges (greatest-pair ties: our readable trainer,
    as the step-recorded trainers do not have that rule; no counts then)."""
    if setup.ties == "greatest":
        merges = variants.train(units(setup), n, ties="greatest", bytelevel=setup.bytelevel)
        return [(pair, 0) for pair in merges]
    if setup.bytelevel:
        source = (
            Chunked(setup.file.counts(file_split(setup)), setup.pattern)
            if setup.file
            else setup.pieces()
        )
        trace = trace_bytebpe(
            source, merges=n, pattern=setup.pattern, ties=setup.ties, snapshot=False
        )
        return [(step.pair, step.count) for step in trace.steps]
    if setup.file:  # a big file: its words streamed
        words = setup.file.counts(file_split(setup))
    else:
        words = count_words(
            [w for line in setup.lines for w in split_words(line, setup.split_punct)]
        )
    model = train_bpe(words, merges=n, marker=setup.marker, ties=setup.ties)
    return [(pair, 0) for pair in model.merges]
