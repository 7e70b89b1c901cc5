"""Byte-pair encoding: learn merges one at a time, then replay them to encode a word.

- ``records``: the start state, one merge (``BpeStep``), the model, one encoded word;
- ``train``: the incremental trainer (``iter_bpe``, ``trace_bpe``, ``train_bpe``), and
  ``state`` the pair counts it keeps up to date merge by merge;
- ``reference``: the same algorithm as the textbook loop, the one the page shows;
- ``encode``: replay the merges on new text; ``explain``: sentences on a step;
- ``io``: plain data and CSV; ``cli``: ``subtok train bpe``.

>>> from subtok_core.corpus import load
>>> model = train_bpe(load("toy:cat-bat"), merges=3)
>>> model.merges
(('a', 't'), ('a', 'g'), ('c', 'at'))
>>> segment(model, "bags").pieces
['b', 'ag', 's']
"""

from ..corpus import load
from ..entry import Algorithm, Export, Sampling, Vocabulary
from ..markers import piece_symbols
from ..merging import TIE_RULES
from ..records import EOW, SOW, UNK
from . import cli, dropout, encode, io
from .encode import encode_word, segment, word_segmenter
from .explain import explain, explain_bpe_start, explain_bpe_step, judge_guess
from .records import MARKERS, BpeModel, BpeStart, BpeStep, BpeWordTrace, Pair, initial_symbols
from .train import (
    SNAPSHOT_MAX_WORDS,
    TOP_PAIRS,
    corpus_at,
    iter_bpe,
    model_from_trace,
    trace_bpe,
    train_bpe,
)


def _for_compare(wc, vocab_size: int, progress=None):
    """BPE as Compare trains it: the ▁ marker (as SentencePiece), to `vocab_size` symbols."""
    return trace_bpe(wc, vocab_size=vocab_size, marker="sow", progress=progress)


def _trace(wc, progress=None, **params):
    return trace_bpe(wc, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


def _export() -> Export:
    """BPE's tokenizer.json exporter, imported here on the first export (it loads the
    tokenizers library)."""
    from ..hf_export.bpe import build, check

    return Export(check=check, build=build)


def _replay(model: BpeModel, piece: str) -> tuple[list[str], tuple[Pair, ...]]:
    """A token's symbols before any merge, and the merges that build it from them."""
    return piece_symbols(piece, model.marker), model.merges


VOCABULARY = Vocabulary(
    pieces=lambda model: tuple(model.vocab), piece_alone=encode.piece_alone, replay=_replay
)
COMPARE_NOTE = (
    "BPE here marks the start of each word with ▁ (as SentencePiece and Unigram do)",
    ". `subtok train bpe` marks no word boundary unless asked (`--marker`).",
)


ALGORITHM = Algorithm(
    name="bpe", label="BPE",
    load=load, steps=iter_bpe, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=_for_compare,
    demo=("toy:low-lower", (("merges", 4), ("marker", "eow"))), compare_options="--marker sow",
    compare_note=COMPARE_NOTE, paper_002="BPE", export=_export, poll="merge",
    corpus_at=corpus_at, vocabulary=VOCABULARY, sampling=Sampling(dropout=dropout.samples),
)  # fmt: skip

__all__ = [
    "ALGORITHM", "EOW", "MARKERS", "SNAPSHOT_MAX_WORDS", "SOW", "TIE_RULES", "TOP_PAIRS", "UNK",
    "BpeModel", "BpeStart", "BpeStep", "BpeWordTrace", "Pair", "corpus_at", "encode_word",
    "explain", "explain_bpe_start", "explain_bpe_step", "initial_symbols", "iter_bpe",
    "judge_guess", "model_from_trace", "segment", "trace_bpe", "train_bpe", "word_segmenter",
]  # fmt: skip
