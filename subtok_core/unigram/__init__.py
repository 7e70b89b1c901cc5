"""Unigram LM: start from a big vocabulary and prune the pieces the likelihood misses least.

- ``records``: the step records both variants share;
- ``textbook``, ``seed``: the course material's variant and its seed vocabularies;
- ``em``, ``em_arrays``: EM as SentencePiece trains it;
- ``_all``: the entry points, the model and the encoder (to be split like ``bpe``);
- ``io``: plain data and CSV; ``cli``: ``subtok train unigram``.
"""

from ..corpus import load
from ..records import Algorithm
from . import io
from ._all import *  # noqa: F403
from ._all import iter_unigram, model_from_trace, segment, trace_unigram, word_segmenter
from .cli import CLI


def _for_compare(wc, vocab_size: int, progress=None):
    """Unigram as Compare trains it: EM as SentencePiece, to `vocab_size` pieces."""
    return trace_unigram(wc, "em", vocab_size=vocab_size, progress=progress)


def _trace(wc, progress=None, **params):
    return trace_unigram(wc, progress=progress, **params)


def explain(trace, i: int) -> str:
    """The sentence for step i (0: how the seed was made)."""
    return trace.start.seed if i == 0 else trace.steps[i - 1].note


def word_lines(encoded, model=None) -> list[str]:
    """Per word, its Viterbi path with each piece's log-probability."""
    lines = []
    for lattice in encoded.words:
        path = " + ".join(
            f"{lattice.edges[i].piece} ({lattice.edges[i].logp:.3f})" for i in lattice.best
        )
        lines.append(f"{lattice.word}: {path} = {lattice.best_logp:.3f}")
    return lines


ALGORITHM = Algorithm(
    name="unigram",
    label="Unigram",
    load=load,
    steps=iter_unigram,
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
    for_compare=_for_compare,
    demo=("toy:run-bug", (("seed", "strict"), ("vocab_size", 12), ("log_base", "10"))),
    cli=CLI,
)
