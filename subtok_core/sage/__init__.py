"""SaGe (the SaGe paper, 000): prune a large BPE vocabulary by a skipgram context loss.

- ``corpus``: sentences cut by greedy longest prefix; ``loss``: eq. (1) and ablations;
- ``_all``: Algorithm 3, its controls, the model and the encoder (to be split like ``bpe``);
- ``explain``: one piece up close (Table 2); ``verdict``: the paper's trends on a run;
- ``io``: plain data and CSV; ``cli``: ``subtok train sage``.
"""

from ..records import Algorithm
from . import io
from ._all import *  # noqa: F403
from ._all import (
    SageSettings,
    iter_sage,
    model_from_trace,
    sample_sentences,
    segment,
    trace_sage,
    word_segmenter,
)
from .cli import CLI


def _trace(
    sentences, progress=None, settings=None, control=None, on_step=None, on_phase=None, **params
):
    """Algorithm 3 on `sentences`; `settings` (or the SageSettings fields as `params`)."""
    settings = settings if settings is not None else SageSettings(**params)

    def report(step, total: int) -> None:
        if on_step:
            on_step(step, total)
        if progress:
            progress(step.number, total)

    return trace_sage(sentences, settings, control, report, on_phase)


def explain(trace, i: int) -> str:
    """The sentence for step i (0: the BPE vocabulary SaGe starts from)."""
    start = trace.start
    if i == 0:
        return (
            f"SaGe starts from BPE's {len(start.vocab):,} pieces on {start.sentences:,} "
            f"sentences ({start.tokens:,} tokens); {start.protected:,} of them are never pruned."
        )
    step = trace.steps[i - 1]
    pruned = ", ".join(p for p, _ in step.pruned[:5])
    more = f" and {len(step.pruned) - 5} more" if len(step.pruned) > 5 else ""
    return (
        f"Step {step.number} pruned {len(step.pruned)} pieces ({pruned}{more}), leaving "
        f"{step.vocab_size:,}; the sample is now {step.tokens:,} tokens."
    )


def word_lines(encoded, model) -> list[str]:
    """Per word, the pieces greedy longest prefix cut it into."""
    from ..corpus import split_words

    cut = word_segmenter(model)
    return [
        f"{word}: {' '.join(cut(word))} (greedy longest prefix)"
        for word in split_words(encoded.text, model.split_punct)
    ]


ALGORITHM = Algorithm(
    name="sage",
    label="SaGe",
    load=sample_sentences,
    steps=iter_sage,
    trace=_trace,
    model_at=lambda trace, i=None: model_from_trace(trace, i),
    segment=segment,
    word_segmenter=word_segmenter,
    to_dict=io.model_to_dict,
    from_dict=io.model_from_dict,
    step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict,
    steps_csv=io.steps_csv,
    explain=explain,
    word_lines=word_lines,
    for_compare=None,
    demo=(
        "toy:fox",
        (
            ("vocab_size", 40),
            ("initial_size", 44),
            ("k", 2),
            ("M", 4),
            ("m", 1),
            ("l", 2),
            ("dim", 4),
            ("seed", 1),
        ),
    ),  # fmt: skip
    cli=CLI,
)
