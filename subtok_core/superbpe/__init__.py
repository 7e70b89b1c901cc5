"""SuperBPE (Liu et al., COLM 2025), byte-level as the reference trainers of
kensho-technologies/fastboundlessbpe: ordinary byte-level BPE up to a transition point,
then supermerges, which join neighbouring pre-tokens that are each one token already.
BoundlessBPE (``subtok_core.boundless``) shares this package's machinery.

- ``presplit``: GPT-4o's pattern, and which pre-tokens may join (those with a letter);
- ``merging``: pair counts, the tie rules, one merge, merges by rank;
- ``train``: the two trainers (the merges they choose); ``steps``: their traces and models;
- ``encode``, ``explain``, ``io``, ``cli``: the encoder, sentences, plain data, the CLI.

>>> trace = trace_superbpe(load("toy:by-the-way"), merges=32, supermerges=8)
>>> model = model_from_trace(trace)
>>> way = "by the way, of the people, by the people, for the people."
>>> len(segment(model_from_trace(trace, 32), way).pieces)
16
>>> segment(model, way).pieces
['byĠtheĠway', ',', 'ĠofĠtheĠpeople', ',', 'ĠbyĠtheĠpeople', ',', 'ĠforĠtheĠpeople', '.']
"""

from ..bytebpe.symbols import to_bytes
from ..entry import Algorithm, Vocabulary
from . import cli, encode, io
from .encode import segment
from .explain import explain, judge_guess, pair_label
from .merging import TIE_RULES, TIE_TITLES
from .presplit import PATTERNS, TITLES
from .records import ORDINARY, SUPER, SuperModel, SuperStart, SuperStep
from .steps import corpus_at, model_from_trace, trace_boundless, trace_superbpe
from .train import boundless_merges, superbpe_merges

load = cli.load


def _trace(source, progress=None, **params):
    return trace_superbpe(source, progress=progress, **params)


def _steps(source, **params):
    yield from trace_superbpe(source, **params).steps


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


VOCABULARY = Vocabulary(
    pieces=lambda model: tuple(model.vocab), piece_alone=encode.piece_alone, unit="byte",
    data=to_bytes,
)  # fmt: skip

ALGORITHM = Algorithm(
    name="superbpe", label="SuperBPE",
    load=load, steps=_steps, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=None, poll="merge", corpus_at=corpus_at,
    demo=("toy:by-the-way", (("merges", 32), ("supermerges", 8))), vocabulary=VOCABULARY,
)  # fmt: skip

__all__ = [
    "ALGORITHM", "ORDINARY", "PATTERNS", "SUPER", "TIE_RULES", "TIE_TITLES", "TITLES",
    "SuperModel", "SuperStart", "SuperStep", "boundless_merges", "corpus_at", "explain",
    "judge_guess", "load", "model_from_trace", "pair_label", "segment", "superbpe_merges",
    "trace_boundless", "trace_superbpe",
]  # fmt: skip
