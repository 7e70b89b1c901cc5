"""Picky BPE (Chizhov et al., EMNLP 2024): BPE that removes intermediate tokens.

After a merge x1 + x2 -> x1x2, a part x whose IoS = f(x1x2) / f(x) (frequencies before the
merge) exceeds the threshold τ is removed and split back; a removed token can come back.
Ours, written from the paper and checked against the authors' trainer
(``pchizhov/picky_bpe``) on the course's toys and on lines of the Lee sample
(tests/test_picky.py): the same events in the same order, ties broken as it breaks them.

- ``records``: the start, one event (``PickyStep``: a merge or a split), the model;
- ``state``: the words, the frequencies and the pair table in tie order;
- ``train``: the event loop (``iter_picky``, ``trace_picky``), ``model_from_trace``;
- ``encode``: replay the events on new text; ``explain``: sentences with IoS per part;
- ``io``: plain data and CSV; ``cli``: ``subtok train picky``.

>>> from subtok_core.corpus import load
>>> trace = trace_picky(load("toy:low-lower"), vocab_size=25, threshold=0.9)
>>> len(trace.steps), sum(step.kind == "split" for step in trace.steps)
(26, 11)
"""

from ..corpus import load
from ..entry import Algorithm, Vocabulary
from . import cli, encode, io
from .encode import segment, word_segmenter
from .explain import TIE_REASON, TIE_RULE, explain, judge_guess, judge_removal
from .records import MERGE, SPLIT, PartCheck, PickyModel, PickyStart, PickyStep
from .train import (
    SNAPSHOT_MAX_WORDS,
    SPECIALS,
    TOP_PAIRS,
    check_settings,
    corpus_at,
    iter_picky,
    model_from_trace,
    trace_picky,
)


def _trace(wc, progress=None, **params):
    return trace_picky(wc, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


VOCABULARY = Vocabulary(pieces=lambda model: tuple(model.vocab), piece_alone=encode.piece_alone)

# Not on Compare (for_compare None) and no tokenizer.json yet: a Picky model is a list of
# merges and splits, which no tokenizers model holds.
ALGORITHM = Algorithm(
    name="picky", label="Picky BPE",
    load=load, steps=iter_picky, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=None, poll="merge or removal", corpus_at=corpus_at,
    demo=("toy:low-lower", (("vocab_size", 20), ("threshold", 0.9))), vocabulary=VOCABULARY,
)  # fmt: skip

__all__ = [
    "ALGORITHM", "MERGE", "SNAPSHOT_MAX_WORDS", "SPECIALS", "SPLIT", "TIE_REASON", "TIE_RULE",
    "TOP_PAIRS", "PartCheck", "PickyModel", "PickyStart", "PickyStep", "check_settings",
    "corpus_at", "explain", "iter_picky", "judge_guess", "judge_removal", "model_from_trace",
    "segment", "trace_picky", "word_segmenter",
]  # fmt: skip
