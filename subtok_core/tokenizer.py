"""Any tokenizer behind one interface (records.Tokenizer): a model trained here or a
pretrained tokenizer, for Compare, the measures and the CLI.

A pretrained tokenizer is one already; a trained model (BPE, WordPiece, Unigram, SaGe,
byte-level BPE) is read through its algorithm in the registry:

>>> from subtok_core import bpe
>>> from subtok_core.corpus import load
>>> tok = tokenizer(bpe.train_bpe(load("toy:cat-bat"), merges=2, marker="sow"))
>>> coded = tok.encode("bag")
>>> tok.label, tok.trained, tok.style, [tok.model.vocab[i] for i in coded.ids] == [
...     s.text for s in coded.spans]
('BPE', True, 'sow', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import registry
from .markers import model_style
from .pretrained.base import Pretrained
from .records import UNK, Encoded, Tokenizer


def unknown_id(vocab: tuple[str, ...]) -> int:
    """The id of the unknown token [UNK]: its place in the vocabulary if it is a piece,
    else the id right after the last piece, which the exported tokenizer.json gives it.

    >>> unknown_id(("a", "b", "ab")), unknown_id(("[UNK]", "a"))
    (3, 0)
    """
    return vocab.index(UNK) if UNK in vocab else len(vocab)


class Trained:
    """A model trained here, as a Tokenizer: its algorithm (from the registry) segments it."""

    trained = True
    provenance = "trained here on the corpus"

    def __init__(self, model: Any) -> None:
        self.model = model
        self.algorithm = registry.of_model(model)

    @property
    def name(self) -> str:
        return self.algorithm.name

    @property
    def label(self) -> str:
        return self.algorithm.label

    @property
    def style(self) -> str:
        return model_style(self.model)

    @property
    def vocab_size(self) -> int:
        """Its vocabulary's size |V| (the pieces it learnt)."""
        return len(self.model.vocab)

    def encode(self, text: str) -> Encoded:
        """`text` as spans and ids; a piece outside the vocabulary gets [UNK]'s id."""
        spans = self.algorithm.segment(self.model, text).tokens
        vocab = tuple(self.model.vocab)
        index = {piece: i for i, piece in enumerate(vocab)}
        unknown = unknown_id(vocab)
        return Encoded(tuple(spans), tuple(index.get(s.text, unknown) for s in spans))

    def word_segmenter(self) -> Callable[[str], list[str]]:
        return self.algorithm.word_segmenter(self.model)

    def vocabulary(self, used: tuple[str, ...]) -> tuple[str, ...]:
        """Its whole vocabulary, learnt on the corpus (`used` does not matter)."""
        return tuple(self.model.vocab)


def tokenizer(model: Any) -> Tokenizer:
    """`model` as a Tokenizer: a pretrained tokenizer as it is, a trained model through its
    algorithm; anything else raises ValueError (registry.of_model says why)."""
    if isinstance(model, Pretrained):  # the one place that tells the two kinds apart
        return model
    return Trained(model)
