"""Parity-aware BPE (Foroutan, Meister et al. 2025): each merge chosen for the language
that is currently longest on a parallel dev set.

- ``train``: the trainer (``train_parity``) on word counts per language, held to the
  authors' code (tests/test_parity.py);
- ``trace``: the lab's run (``trace_parity``): a source is LANG -> word counts (``load``
  reads ``en=toy:low-lower xx=toy:hug-pug``), the dev sets LANG -> text;
- ``records``: the start, one merge, the model (BPE merges: the encoder is BPE's);
- ``explain``: sentences in the paper's terms; ``io``: plain data; ``cli``: ``subtok
  train parity``.

Unlike the other entries it imports another algorithm's package, ``subtok_core.bpe``: its
model is BPE's (``ParityModel`` subclasses ``BpeModel``), encoded, saved and exported as
BPE's; only the choice of merges differs.
"""

from ..bpe import ALGORITHM as BPE
from ..bpe import VOCABULARY as BPE_VOCABULARY
from ..bpe import encode
from ..entry import Algorithm
from . import cli, io
from .explain import LENGTH_TIE, TIE_REASON, TIE_RULE, explain, judge_guess
from .records import ParityModel, ParityRecord, ParityStart
from .trace import corpus_at, dev_counts, iter_parity, load, model_from_trace, trace_parity
from .train import MIN_FREQUENCY, ParityRun, ParityStep, train_parity


def _trace(source, progress=None, **params):
    return trace_parity(source, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


DEMO_DEV = (("en", "low newest widest"), ("xx", "hug pun bun"))  # the toy

# Not on Compare (it trains on one corpus); its tokenizer.json is BPE's.
ALGORITHM = Algorithm(
    name="parity", label="Parity-aware BPE",
    load=load, steps=iter_parity, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=None,
    demo=("en=toy:low-lower xx=toy:hug-pug", (("dev", DEMO_DEV), ("merges", 8))),
    vocabulary=BPE_VOCABULARY, poll="merge", corpus_at=corpus_at,
    export=BPE.export,  # the model is BPE merges: BPE's tokenizer.json
)  # fmt: skip

__all__ = [
    "ALGORITHM", "LENGTH_TIE", "MIN_FREQUENCY", "TIE_REASON", "TIE_RULE", "ParityModel",
    "ParityRecord", "ParityRun", "ParityStart", "ParityStep", "corpus_at", "dev_counts", "explain",
    "iter_parity", "judge_guess", "load", "model_from_trace", "trace_parity", "train_parity",
]  # fmt: skip
