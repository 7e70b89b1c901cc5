"""The Unigram trainer: one entry point for both variants, which share the step records
(records.UnigramStep, kinds "e", "m", "prune"):

- ``textbook`` (textbook.py): the course material's simplification. Probabilities
  are substring frequencies over their total, the loss counts only each word's best
  segmentation, removal losses keep the other probabilities as they are.
- ``em`` (em.py): Kudo (2018) as SentencePiece trains it. Expected counts over all
  segmentations (forward-backward), maximum-likelihood re-estimation, pruning by the
  likelihood each piece would cost, words marked with ``▁`` at their start.

Worked example (004, `toy:hug-pug`, the blog's seed, natural log):

>>> from subtok_core.corpus import load
>>> from subtok_core.unigram.encode import segment
>>> trace = trace_unigram(load("toy:hug-pug"), seed="given", vocab_size=14)
>>> first = trace.steps[0]
>>> round(first.loss, 3), first.segmentations[1].pieces
(169.803, ('pu', 'g'))
>>> model = model_from_trace(trace)
>>> segment(model, "hugs pun").pieces
['hug', 's', 'pu', 'n']

Ties: see lattice.viterbi (the latest-starting last piece wins) and textbook.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .. import corpus, limits
from ..corpus import WordCounts
from ..records import Trace
from .records import UnigramModel, UnigramStep
from .seed import SEED_TEXT, seed_rows
from .textbook import TextbookRun

VARIANTS = ("textbook", "em")
SNAPSHOT_MAX_WORDS = 400  # corpora with more distinct words get compact steps
TEXTBOOK_MAX_WORDS = 12_000  # the textbook variant re-segments words piece by piece,
TEXTBOOK_MAX_SEED = 25_000  # so it is kept to corpora and seeds of this size


def _run(wc: WordCounts, variant: str, snapshot: bool | None, params: dict):
    """The run object of a variant (TextbookRun or em.EmRun)."""
    if variant not in VARIANTS:
        raise ValueError(f"Unknown variant {variant!r}; choose textbook or em.")
    if not wc.words:
        raise ValueError("The corpus is empty: there is no word to learn pieces from.")
    limits.check_words(wc.words)
    for name in ("vocab_size", "em_iterations", "seed_size"):
        limits.check(name, params[name])
    snap = len(wc) <= SNAPSHOT_MAX_WORDS if snapshot is None else snapshot
    if variant == "em":
        from .em import EmRun  # numpy-heavy; only the EM variant needs it

        keys = ("seed_size", "shrinking_factor", "em_iterations", "max_piece_len")
        options = {k: params[k] for k in keys if params[k] is not None}
        size = params["vocab_size"]
        if size is None:  # down to the characters, ▁ included
            size = len({ch for w in wc.words for ch in w}) + 1
        return EmRun(wc, size, snapshot=snap, **options)
    if len(wc) > TEXTBOOK_MAX_WORDS:
        raise ValueError(
            f"The textbook variant re-segments every word for every piece, so it takes at "
            f"most {TEXTBOOK_MAX_WORDS} distinct words; this corpus has {len(wc)}. Use the "
            "EM variant (as SentencePiece) for real samples."
        )
    seed = params["seed"]
    lengths = (len(word) for word in wc.words)
    substrings = limits.substring_count(lengths, params["max_piece_len"])
    if seed != "given" and substrings > limits.TEXTBOOK_MAX_SUBSTRINGS:
        raise ValueError(  # counted before a single substring is made
            f"The textbook seed would list {substrings:,} substrings of these words; it takes "
            f"at most {limits.TEXTBOOK_MAX_SUBSTRINGS:,}. Set a maximum piece length, or use "
            "the EM variant (as SentencePiece) for long words and real samples."
        )
    rows = seed_rows(wc, seed, params["max_piece_len"], params["seed_size"])
    if len(rows) > TEXTBOOK_MAX_SEED:
        raise ValueError(
            f"This seed has {len(rows)} pieces; the textbook variant takes at most "
            f"{TEXTBOOK_MAX_SEED}. Choose the most frequent substrings with a seed size, or a "
            "maximum piece length."
        )
    return TextbookRun(
        wc, rows, params["vocab_size"], params["prune_percent"], params["choices"],
        params["log_base"], snap, _seed_sentence(wc, seed, len(rows)),
    )  # fmt: skip


def _seed_sentence(wc: WordCounts, seed: str, size: int) -> str:
    text = f"Seed: {SEED_TEXT[seed]}, {size} pieces"
    if seed == "given":
        text += f" (source: {corpus.builtin.toy_seed(wc.name)[1]})"
    return text + "."


@dataclass(frozen=True, slots=True)
class Settings:
    """Every choice of a Unigram run, with its default; the trace keeps them as params.

    Textbook: ``seed`` (strict/all/frequent/given; ``seed_size`` for frequent),
    ``prune_percent`` of the candidates per round, ``choices`` the piece to remove in
    round 1, 2, ... ('' = automatic; the student's picks), ``log_base`` "e" or "10".
    EM: ``seed_size``, ``shrinking_factor``, ``em_iterations`` (None: EmRun's defaults).
    Both: ``vocab_size`` (None: down to the characters), ``max_piece_len``.
    """

    variant: str = "textbook"
    vocab_size: int | None = None
    seed: str = "all"
    seed_size: int | None = None
    max_piece_len: int | None = None
    prune_percent: float = 10.0
    choices: tuple[str, ...] = ()
    log_base: str = "e"
    shrinking_factor: float | None = None
    em_iterations: int | None = None

    def items(self) -> tuple[tuple[str, object], ...]:
        log_base = self.log_base if self.variant == "textbook" else "e"  # EM: nats
        values = {**{k: getattr(self, k) for k in self.__slots__}, "log_base": log_base}
        return tuple({**values, "choices": tuple(self.choices)}.items())


def iter_unigram(
    wc: WordCounts, variant: str = "textbook", snapshot: bool | None = None, **settings
) -> Iterator[UnigramStep]:
    """Yield every E, M and prune step until the vocab size is reached; `settings` are
    the fields of Settings. Ties: see the module docstring."""
    params = dict(Settings(variant, **settings).items())
    yield from _run(wc, variant, snapshot, params).steps()


def trace_unigram(
    wc: WordCounts,
    variant: str = "textbook",
    snapshot: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    **settings,
) -> Trace:
    """Run to the end and keep the seed, every step and why it stopped."""
    params = dict(Settings(variant, **settings).items())
    run = _run(wc, variant, snapshot, params)
    goal = getattr(run, "expected_steps", 0)
    steps = []
    for step in run.steps():
        steps.append(step)
        if progress:
            progress(len(steps), max(goal, len(steps)))
    compact = steps[0].segmentations is None if steps else True
    return Trace(
        "unigram", tuple(params.items()), run.start, tuple(steps), run.truncated,
        run.stop_reason, compact,
    )  # fmt: skip


def model_from_trace(trace: Trace, upto: int | None = None, split_punct: bool = False):
    """The model after the first `upto` steps (all of them by default; 0 is the seed)."""
    upto = len(trace.steps) if upto is None else upto
    record = trace.start if upto == 0 else trace.steps[upto - 1]
    size = record.vocab_size if upto else len(record.vocab)
    if len(record.vocab) < size:
        raise ValueError(
            f"Step {upto} of this run keeps only its {len(record.vocab)} most probable pieces; "
            "the whole model is kept for the last step."
        )
    marker = "sow" if trace.param("variant") == "em" else "none"
    pieces = tuple(row.piece for row in record.vocab)
    logprobs = tuple(math.log(row.prob) if row.prob > 0 else -math.inf for row in record.vocab)
    return UnigramModel(pieces, logprobs, trace.start.alphabet, marker, split_punct)


def train_unigram(wc: WordCounts, variant: str = "textbook", **params) -> UnigramModel:
    """Train to the end and keep the model (pieces and their log-probabilities)."""
    return model_from_trace(trace_unigram(wc, variant, **params))
