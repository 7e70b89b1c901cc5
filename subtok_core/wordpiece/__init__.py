"""WordPiece: merge the pair of highest score, then encode a word by longest match first.

- ``records``: a scored pair, the start state, one merge (``WordPieceStep``), the model,
  one encoded word, and the constants (``PREFIX``, ``SPECIAL_TOKENS``, ...);
- ``train``: the trainer (``iter_wordpiece``, ``trace_wordpiece``, ``train_wordpiece``),
  on ``state``, the counts and scores kept up to date merge by merge;
- ``encode``: longest match first on new text; ``explain``: sentences on a step or a word;
- ``io``: plain data and CSV; ``cli``: ``subtok train wordpiece``.

>>> from subtok_core.corpus import load
>>> model = train_wordpiece(load("toy:sunflower"), merges=3)
>>> model.vocab[-3:]
('su', '##er', '##ed')
>>> segment(model, "fused funny").pieces
['f', '##u', '##s', '##ed', '[UNK]']
"""

from ..bpe.train import SNAPSHOT_MAX_WORDS, TOP_PAIRS
from ..corpus import load
from ..entry import Algorithm, Export, Vocabulary
from ..records import UNK
from . import cli, encode, io
from .encode import encode_word, segment, word_lines, word_segmenter
from .explain import (
    explain,
    explain_wordpiece_start,
    explain_wordpiece_step,
    explain_wordpiece_word,
    judge_wordpiece_guess,
)
from .records import (
    HF_COURSE_NOTE,
    MAX_WORD_CHARS,
    PREFIX,
    SPECIAL_TOKENS,
    Attempt,
    Pair,
    ScoredPair,
    WordPieceModel,
    WordPieceStart,
    WordPieceStep,
    WordPieceWordTrace,
    fraction_text,
    initial_symbols,
)
from .train import (
    apply_merge,
    corpus_at,
    iter_wordpiece,
    model_from_trace,
    trace_wordpiece,
    train_wordpiece,
)


def _for_compare(wc, vocab_size: int, progress=None):
    """WordPiece as Compare trains it: ## for word-internal pieces, to `vocab_size`."""
    return trace_wordpiece(wc, vocab_size=vocab_size, progress=progress)


def _trace(wc, progress=None, **params):
    return trace_wordpiece(wc, progress=progress, **params)


def _model_at(trace, i=None):
    return model_from_trace(trace, i)


def _export() -> Export:
    """WordPiece's tokenizer.json exporter, imported here on the first export (it loads
    the tokenizers library)."""
    from ..hf_export.greedy import build_wordpiece, check_wordpiece, notes

    return Export(check=check_wordpiece, build=build_wordpiece, notes=notes)


VOCABULARY = Vocabulary(
    pieces=lambda model: tuple(model.vocab), piece_alone=encode.piece_alone, merges=False
)
LONG_WHY = (  # why WordPiece may need far more tokens than the others (Compare says it)
    "Its score count(ab) / (count(a) × count(b)) favours pairs of rare symbols, so its "
    "early merges build rare strings and frequent words stay in pieces until the "
    "vocabulary is much larger."
)


ALGORITHM = Algorithm(
    name="wordpiece", label="WordPiece",
    load=load, steps=iter_wordpiece, trace=_trace, model_at=_model_at,
    segment=encode.segment, word_segmenter=encode.word_segmenter, word_lines=encode.word_lines,
    to_dict=io.model_to_dict, from_dict=io.model_from_dict, step_to_dict=io.step_to_dict,
    start_to_dict=io.start_to_dict, steps_csv=io.steps_csv, cli=cli,
    explain=explain, for_compare=_for_compare,
    demo=("toy:sunflower", (("merges", 3),)), compare_options="",
    compare_long_why=LONG_WHY, export=_export, poll="merge", corpus_at=corpus_at,
    vocabulary=VOCABULARY,
)  # fmt: skip

__all__ = [
    "ALGORITHM", "HF_COURSE_NOTE", "MAX_WORD_CHARS", "PREFIX", "SNAPSHOT_MAX_WORDS",
    "SPECIAL_TOKENS", "TOP_PAIRS", "UNK", "Attempt", "Pair", "ScoredPair", "WordPieceModel",
    "WordPieceStart", "WordPieceStep", "WordPieceWordTrace", "apply_merge", "corpus_at",
    "encode_word", "explain", "explain_wordpiece_start", "explain_wordpiece_step",
    "explain_wordpiece_word", "fraction_text", "initial_symbols", "iter_wordpiece",
    "judge_wordpiece_guess", "model_from_trace", "segment", "trace_wordpiece",
    "train_wordpiece", "word_lines", "word_segmenter",
]  # fmt: skip
