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

from collections.abc import Mapping

from . import registry
from .corpus import WordCounts
from .records import Encoded, Progress

KINDS = tuple(name for name, algo in registry.ALGORITHMS.items() if algo.for_compare)
LABELS = registry.LABELS
MIN_KINDS, MAX_KINDS = 2, 4


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
    """One tokenizer's model, trained on `wc` to `vocab_size` pieces as Compare trains it."""
    if kind not in KINDS:
        raise ValueError(f"Unknown tokenizer {kind!r}; choose from {', '.join(KINDS)}.")
    algo = registry.get(kind)
    return algo.model_at(algo.for_compare(wc, vocab_size, progress))


def encode(model, text: str) -> Encoded:
    """`text` encoded by any trained model, with token ids."""
    spans = registry.of_model(model).segment(model, text).tokens
    index = {piece: i for i, piece in enumerate(model.vocab)}
    return Encoded(tuple(spans), tuple(index.get(s.text, -1) for s in spans))


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
