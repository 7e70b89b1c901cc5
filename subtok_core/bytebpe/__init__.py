"""Byte-level BPE, as GPT models train it: cut the text with a regular expression, then
learn merges of UTF-8 bytes (256 base symbols) with BPE's own trainer.

- ``patterns``: the pre-split (GPT-2's, cl100k_base's, or none), part by part;
- ``symbols``: GPT-2's byte letters, and ``show`` (hex or GPT-2 letters);
- ``train``: chunks counted, BPE's trainer on their bytes, ``corpus_at``;
- ``ranks``: the encoder that merges by rank as tiktoken does, for a trained model or
  cl100k_base's and Tekken's ranks; ``encode``: segment, replays, pretrained encoding;
- ``dropout``: BPE-dropout on a chunk's bytes;
- ``explain``, ``io``, ``cli``: sentences, plain data, ``subtok train bytebpe``.

GPT-2's pattern cuts the lines of ``toy:low-lower`` ("low low low low low", ...) into
"low" once and " low" four times, and so on; (e,s) and (s,t) both occur 9 times (newest 6,
widest 3), then (es,t) 9, then (l,o) 7 (low 5 and lower 2):

>>> model = train_bytebpe(load("toy:low-lower"), merges=3)
>>> model.merges
(('e', 's'), ('es', 't'), ('l', 'o'))
>>> segment(model, "lowest lowest").pieces
['lo', 'w', 'est', 'Ġ', 'lo', 'w', 'est']
>>> cl100k = for_tokenizer("cl100k_base")
>>> encode_text(cl100k, "hello world").ids
(15339, 1917)
"""

from ..entry import Algorithm, Sampling, Vocabulary
from . import cli, encode, io
from .dropout import dropout_samples
from .encode import encode_text, replay_lines, replay_text, segment, word_segmenter
from .explain import explain, judge_guess, symbol_text
from .patterns import PARTS, PATTERNS, TITLES, Chunk, chunks, pattern_text, split
from .ranks import NEVER, Encoder, for_model, for_ranks, for_tokenizer, merge_steps
from .records import ByteBpeModel, ChunkReplay, MergeApplied
from .symbols import BASE_SYMBOLS, BYTE_LETTERS, STYLES, show, to_bytes, to_letters
from .train import (
    SNAPSHOT_MAX_CHUNKS,
    chunk_counts,
    corpus_at,
    iter_bytebpe,
    load,
    model_from_trace,
    trace_bytebpe,
    train_bytebpe,
)


def _trace(source, progress=None, **params):
    return trace_bytebpe(source, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


def _rank_of(model: ByteBpeModel):
    """(bytes, bytes) -> the number of the first merge that joins them (None: none)."""
    numbers: dict[bytes, int] = {}
    for number, (left, right) in enumerate(model.merges, start=1):
        numbers.setdefault(to_bytes(left) + to_bytes(right), number)
    return lambda a, b: numbers.get(a + b)


VOCABULARY = Vocabulary(
    pieces=lambda model: tuple(model.vocab), piece_alone=encode.piece_alone, unit="byte",
    data=to_bytes, rank_of=_rank_of,
)  # fmt: skip


# Not on the Compare page (for_compare None): Compare trains every tokenizer on the same
# whitespace words to the same small sizes, and byte-level BPE starts at 256 symbols and
# learns from running text; cl100k_base stands for byte-level BPE there.
ALGORITHM = Algorithm(
    name="bytebpe", label="Byte-level BPE",
    load=load, steps=iter_bytebpe, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=None, poll="merge", corpus_at=corpus_at,
    demo=("toy:low-lower", (("merges", 6), ("pattern", "gpt2"))), vocabulary=VOCABULARY,
    sampling=Sampling(dropout=dropout_samples),  # pieces in GPT-2 letters (Ġ: a space)
)  # fmt: skip

__all__ = [
    "ALGORITHM", "BASE_SYMBOLS", "BYTE_LETTERS", "NEVER", "PARTS", "PATTERNS",
    "SNAPSHOT_MAX_CHUNKS", "STYLES", "TITLES", "ByteBpeModel", "Chunk", "ChunkReplay",
    "Encoder", "MergeApplied", "chunk_counts", "chunks", "corpus_at", "dropout_samples",
    "encode_text", "explain", "for_model", "for_ranks", "for_tokenizer", "iter_bytebpe",
    "judge_guess", "load", "merge_steps", "model_from_trace", "pattern_text", "replay_lines",
    "replay_text", "segment", "show", "split", "symbol_text", "to_bytes", "to_letters",
    "trace_bytebpe", "train_bytebpe", "word_segmenter",
]  # fmt: skip
