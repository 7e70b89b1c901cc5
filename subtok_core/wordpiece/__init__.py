"""WordPiece: merge the pair of highest score, then encode a word by longest match first.

- ``_all``: records, the trainer and the encoder (to be split like ``bpe``);
- ``explain``: sentences on a step or an encoded word;
- ``io``: plain data and CSV; ``cli``: ``subtok train wordpiece``.
"""

from ..corpus import load
from ..records import Algorithm
from . import io
from ._all import *  # noqa: F403
from ._all import iter_wordpiece, model_from_trace, segment, trace_wordpiece, word_segmenter
from .cli import CLI
from .explain import explain


def _for_compare(wc, vocab_size: int, progress=None):
    """WordPiece as Compare trains it: ## for word-internal pieces, to `vocab_size`."""
    return trace_wordpiece(wc, vocab_size=vocab_size, progress=progress)


def _trace(wc, progress=None, **params):
    return trace_wordpiece(wc, progress=progress, **params)


def word_lines(encoded, model=None) -> list[str]:
    """Per word, every longest-match attempt: the piece tried and whether it is known."""
    lines = []
    for word in encoded.words:
        lines.append(f"{word.word}:")
        lines += [f"  {a.piece}: {'yes' if a.found else 'no'}" for a in word.attempts]
        if word.unknown:
            lines.append(f"  {word.note}")
    return lines


ALGORITHM = Algorithm(
    name="wordpiece",
    label="WordPiece",
    load=load,
    steps=iter_wordpiece,
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
    demo=("toy:sunflower", (("merges", 3),)),
    cli=CLI,
)
