"""SaGe (the SaGe paper, 000): prune a large BPE vocabulary by a skipgram context loss.

- ``records``: the settings, the start, one prune step (``SageStep``), the model;
- ``corpus``: the sample as sentences cut by greedy longest prefix; ``loss``: eq. (1) and
  the ablation loss of a piece;
- ``train``: Algorithm 3 and its controls (``iter_sage``, ``trace_sage``, ``train_sage``)
  and the state of a run at a step (``vocab_after``, ``corpus_at``, ``embeddings_at``);
- ``encode``: greedy longest prefix on new text; ``explain``: a sentence on a step and one
  piece up close; ``verdict``: the paper's trends on a run;
- ``table1``, ``table2``, ``summary``: the paper's Tables 1 and 2 and its §4 figures on a
  run (``paper`` quotes the paper's own); ``timing``: how long the paper preset takes;
- ``io``: plain data and CSV; ``cli``: ``subtok train sage``.

>>> sentences = [["the", "cat"], ["the", "hat"], ["a", "cat", "sat"]] * 3
>>> s = SageSettings(vocab_size=14, initial_size=17, k=1, M=3, m=1, l=2, dim=4, seed=1)
>>> model = train_sage(sentences, s)
>>> len(model.vocab), segment(model, "that").pieces
(14, ['▁t', 'h', 'at'])
"""

from ..entry import Algorithm, Export
from . import cli, encode, io
from .corpus import SentenceCorpus, sample_sentences
from .encode import segment, word_lines, word_segmenter
from .explain import CloseUp, close_up, explain_step, first_used
from .records import CONTROLS, PAPER, SCORE_NAMES, SageModel, SageSettings, SageStart, SageStep
from .train import (
    bpe_model,
    check_settings,
    corpus_at,
    embeddings_at,
    iter_sage,
    model_from_trace,
    prepare,
    settings_of,
    steps_needed,
    trace_sage,
    train_sage,
    vocab_after,
)


def _settings(settings: SageSettings | None, params: dict) -> SageSettings:
    return settings if settings is not None else SageSettings(**params)


def _steps(sentences, settings=None, control=None, on_phase=None, **params):
    """Algorithm 3's prune steps on `sentences` (BPE to the initial size first)."""
    settings = _settings(settings, params)
    check_settings(settings, control)
    return iter_sage(prepare(sentences, settings), settings, control, on_phase)


def _trace(
    sentences, progress=None, settings=None, control=None, on_step=None, on_phase=None, **params
):
    """Algorithm 3 on `sentences`; `settings` (or the SageSettings fields as `params`)."""

    def report(step, total: int) -> None:
        if on_step:
            on_step(step, total)
        if progress:
            progress(step.number, total)

    return trace_sage(sentences, _settings(settings, params), control, report, on_phase)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


def _export() -> Export:
    """SaGe's tokenizer.json exporter (greedy longest prefix, as WordPiece's with no
    prefix), imported here on the first export (it loads the tokenizers library)."""
    from ..hf_export.greedy import build_sage, check_sage, notes

    return Export(check=check_sage, build=build_sage, notes=notes)


TINY = (("vocab_size", 40), ("initial_size", 44), ("k", 2), ("M", 4), ("m", 1), ("dim", 4))
ALGORITHM = Algorithm(
    name="sage", label="SaGe",
    load=sample_sentences, steps=_steps, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain_step, for_compare=None,
    demo=("toy:fox", TINY),  # a run of two prune steps on the 004 blog's sentence
    export=_export, compare_from_page=True,  # Compare shows the SaGe page's last run
)  # fmt: skip

__all__ = [
    "ALGORITHM", "CONTROLS", "PAPER", "SCORE_NAMES",
    "CloseUp", "SageModel", "SageSettings", "SageStart", "SageStep", "SentenceCorpus",
    "bpe_model", "check_settings", "close_up", "corpus_at", "embeddings_at", "explain_step",
    "first_used", "iter_sage", "model_from_trace", "prepare", "sample_sentences", "segment",
    "settings_of", "steps_needed", "trace_sage", "train_sage", "vocab_after", "word_lines",
    "word_segmenter",
]  # fmt: skip
