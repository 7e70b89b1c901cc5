"""Several tokenizers trained the same way, and a text encoded by each, side by side.

Every tokenizer learns from the same words to the same vocabulary size: BPE with the
``▁`` word-start marker (as SentencePiece, so its pieces read like Unigram's), WordPiece
with ``##`` for word-internal pieces, Unigram by EM as SentencePiece trains it.

>>> from subtok_core.corpus import load
>>> wc = load("toy:cat-bat")
>>> models = {kind: train(kind, wc, 12) for kind in ("bpe", "wordpiece")}
>>> coded = {kind: encode(model, "cats bag") for kind, model in models.items()}
>>> [(s.text, s.start, s.end) for s in coded["bpe"].spans]
[('▁cat', 0, 3), ('s', 3, 4), ('▁b', 5, 6), ('ag', 6, 8)]
>>> [s.text for s in coded["wordpiece"].spans]
['cats', 'ba', '##g']
>>> sorted(unshared(coded)["wordpiece"])
[(0, 4), (5, 7), (7, 8)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from . import bpe, unigram, wordpiece
from .corpus import WordCounts
from .steps import Span

KINDS = ("bpe", "wordpiece", "unigram")
LABELS = {"bpe": "BPE", "wordpiece": "WordPiece", "unigram": "Unigram", "sage": "SaGe"}
MIN_KINDS, MAX_KINDS = 2, 4

Progress = Callable[[int, int], None] | None


@dataclass(frozen=True, slots=True)
class Encoded:
    """A text encoded by one tokenizer: its tokens as spans and their vocabulary ids
    (-1 for a token outside the vocabulary, such as [UNK])."""

    spans: tuple[Span, ...]
    ids: tuple[int, ...]


def parse_kinds(text: str, known: tuple[str, ...] = KINDS) -> tuple[str, ...]:
    """'bpe,unigram' -> ('bpe', 'unigram'), refusing unknown names and the wrong count.

    >>> parse_kinds("unigram, bpe")
    ('unigram', 'bpe')
    """
    kinds = tuple(dict.fromkeys(k.strip().lower() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in known]
    if unknown:
        raise ValueError(f"Unknown tokenizer {unknown[0]!r}; choose from {', '.join(known)}.")
    if not MIN_KINDS <= len(kinds) <= MAX_KINDS:
        raise ValueError(
            f"Compare {MIN_KINDS} to {MAX_KINDS} tokenizers at a time, not {len(kinds)}."
        )
    return kinds


def train(kind: str, wc: WordCounts, vocab_size: int, progress: Progress = None):
    """One tokenizer's model, trained on `wc` to `vocab_size` pieces."""
    if kind == "bpe":
        trace = bpe.trace_bpe(wc, vocab_size=vocab_size, marker="sow", progress=progress)
        return bpe.model_from_trace(trace)
    if kind == "wordpiece":
        trace = wordpiece.trace_wordpiece(wc, vocab_size=vocab_size, progress=progress)
        return wordpiece.model_from_trace(trace)
    if kind == "unigram":
        trace = unigram.trace_unigram(wc, "em", vocab_size=vocab_size, progress=progress)
        return unigram.model_from_trace(trace)
    raise ValueError(f"Unknown tokenizer {kind!r}; choose from {', '.join(KINDS)}.")


def vocab_of(model) -> tuple[str, ...]:
    return tuple(model.vocab)


def encode(model, text: str) -> Encoded:
    """`text` encoded by a trained BPE, WordPiece or Unigram model, with token ids."""
    spans = algorithm_of(model).segment(model, text).tokens
    index = {piece: i for i, piece in enumerate(vocab_of(model))}
    return Encoded(tuple(spans), tuple(index.get(s.text, -1) for s in spans))


def algorithm_of(model):
    """The module (bpe, wordpiece, unigram or sage) that trained `model` and encodes with it."""
    from . import sage  # gensim-heavy training, but its encoder is plain Python

    for module in (bpe, wordpiece, unigram, sage):
        if type(model).__module__ == module.__name__:
            return module
    raise ValueError(f"There is no word segmenter or encoder for a {type(model).__name__}.")


def unshared(encoded: Mapping[str, Encoded]) -> dict[str, set[tuple[int, int]]]:
    """Per tokenizer, the character spans (start, end) of its tokens that not every
    tokenizer has: where they cut the text differently. Markers covering no character
    are left out."""
    cuts = {
        kind: {(s.start, s.end) for s in enc.spans if s.end > s.start}
        for kind, enc in encoded.items()
    }
    common = set.intersection(*cuts.values()) if cuts else set()
    return {kind: spans - common for kind, spans in cuts.items()}
