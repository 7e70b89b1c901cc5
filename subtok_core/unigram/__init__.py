"""Unigram LM: start from a big vocabulary and prune the pieces the likelihood misses least.

- ``records``: the seed, one E, M or prune step (``UnigramStep``), the model;
- ``train``: the entry points for both variants (``iter_unigram``, ``trace_unigram``,
  ``train_unigram``);
- ``textbook``, ``seed``: the course material's variant and its seed vocabularies;
- ``em``, ``em_seed``, ``em_arrays``, ``em_prune``: EM as SentencePiece trains it, its
  seed, its lattices as flat arrays, its prune losses;
- ``encode``: Viterbi on each word's lattice; ``explain``: the sentence of a step;
- ``io``: plain data and CSV; ``cli``: ``subtok train unigram``.

>>> from subtok_core.corpus import load
>>> model = train_unigram(load("toy:hug-pug"), seed="given", vocab_size=14)
>>> segment(model, "hugs pun").pieces
['hug', 's', 'pu', 'n']
"""

from ..corpus import load
from ..entry import Algorithm, Export, Sampling, Vocabulary
from . import cli, encode, io, nbest
from .encode import UNK_PENALTY, encode_word, segment, word_lines, word_segmenter
from .explain import explain
from .records import PieceRow, UnigramModel, UnigramStart, UnigramStep, WordBest
from .train import (
    SNAPSHOT_MAX_WORDS,
    VARIANTS,
    Settings,
    iter_unigram,
    model_from_trace,
    trace_unigram,
    train_unigram,
)


def _for_compare(wc, vocab_size: int, progress=None):
    """Unigram as Compare trains it: EM as SentencePiece, to `vocab_size` pieces."""
    return trace_unigram(wc, "em", vocab_size=vocab_size, progress=progress)


def _trace(wc, progress=None, **params):
    return trace_unigram(wc, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


def _export() -> Export:
    """Unigram's tokenizer.json exporter, imported here on the first export (it loads the
    tokenizers library)."""
    from ..hf_export.unigram import build, check, notes

    return Export(check=check, build=build, notes=notes)


VOCABULARY = Vocabulary(
    pieces=lambda model: tuple(model.pieces), piece_alone=encode.piece_alone,
    scores=lambda model: tuple(model.logprobs), merges=False,
)  # fmt: skip


ALGORITHM = Algorithm(
    name="unigram", label="Unigram",
    load=load, steps=iter_unigram, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=_for_compare,
    demo=("toy:run-bug", (("seed", "strict"), ("vocab_size", 12), ("log_base", "10"))),
    compare_options="--variant em", paper_002="unigram LM", poll="prune", export=_export,
    vocabulary=VOCABULARY, sampling=Sampling(nbest=nbest.nbest, alpha=nbest.samples),
)  # fmt: skip

__all__ = [
    "ALGORITHM", "SNAPSHOT_MAX_WORDS", "UNK_PENALTY", "VARIANTS", "PieceRow", "Settings",
    "UnigramModel", "UnigramStart", "UnigramStep", "WordBest", "encode_word", "explain",
    "iter_unigram", "model_from_trace", "segment", "trace_unigram", "train_unigram",
    "word_lines", "word_segmenter",
]  # fmt: skip
