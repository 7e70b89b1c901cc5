"""BoundlessBPE (Schmidt et al. 2025), byte-level as the reference trainer of
kensho-technologies/fastboundlessbpe: ordinary merges and supermerges (two neighbouring
pre-tokens, each one token already, become one) compete for one budget of merges. The
trainer and its records are SuperBPE's package's (``subtok_core.superbpe.train``).

>>> from subtok_core.superbpe import model_from_trace, segment, trace_boundless
>>> trace = trace_boundless(load("toy:by-the-way"), merges=32)
>>> sum(step.stage == "super" for step in trace.steps)
6
>>> way = "by the way, of the people, by the people, for the people."
>>> len(segment(model_from_trace(trace), way).pieces)
8
"""

from ..entry import Algorithm
from ..superbpe import VOCABULARY, corpus_at, encode, explain, io, model_from_trace, trace_boundless
from . import cli

load = cli.load


def _trace(source, progress=None, **params):
    return trace_boundless(source, progress=progress, **params)


def _steps(source, **params):
    yield from trace_boundless(source, **params).steps


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


ALGORITHM = Algorithm(
    name="boundless", label="BoundlessBPE",
    load=load, steps=_steps, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=None, poll="merge", corpus_at=corpus_at,
    demo=("toy:by-the-way", (("merges", 32),)), vocabulary=VOCABULARY,
)  # fmt: skip

__all__ = ["ALGORITHM", "load"]
