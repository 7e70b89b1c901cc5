"""The table of a tokenizer trained here (BPE, byte-level BPE, WordPiece, Unigram), and how
the final tokenizer uses its tokens on its own training corpus.

A token's text "on its own" is read the way the model reads the inside of a word: a BPE
piece that carries the word-start marker ``▁`` (or ``</w>``) is a whole word's start (or
end), and its other characters are replayed from single characters with the learned
merges; a piece without the marker is replayed without one. WordPiece takes the longest
match (a ``##`` piece as the inside of a word), Unigram the Viterbi path over the piece's
characters.

>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import train_bpe
>>> wc = load("toy:cat-bat")
>>> model = train_bpe(wc, merges=3, marker="sow")
>>> table = trained_table(model)
>>> table.pieces[-3:], [table.pieces[i] for i in table.alone(table.size - 1)]
(('at', '▁b', 'ag'), ['ag'])
>>> sorted(usage(model, wc).items())[:3]
[('ag', 16), ('at', 20), ('c', 15)]
"""

from __future__ import annotations

from collections import Counter

from .. import registry
from ..corpus import WordCounts
from ..entry import Vocabulary
from .table import Table


def vocabulary_of(model) -> Vocabulary:
    """What the table reads of a model trained here, from its algorithm's registry entry;
    an algorithm with no health table raises ValueError."""
    entry = registry.of_model(model)
    if entry.vocabulary is None:
        read = [a.label for a in registry.ALGORITHMS.values() if a.vocabulary]
        raise ValueError(f"Vocabulary health reads {', '.join(read[:-1])} and {read[-1]} "
                         f"models, not {entry.name!r}.")  # fmt: skip
    return entry.vocabulary


def vocab_of(model) -> tuple[str, ...]:
    """A trained model's tokens in id order (Unigram's pieces, the others' vocab)."""
    return vocabulary_of(model).pieces(model)


def data_of(model, piece: str) -> bytes:
    """A trained token's bytes: byte-level symbols through GPT-2's letters, others as text."""
    return vocabulary_of(model).data(piece)


def keeps_no_merges(name: str) -> bool:
    """Whether the algorithm `name` is trained here without merges (WordPiece, Unigram),
    so no merge tree shows how its tokens are built; False for any other name."""
    entry = registry.ALGORITHMS.get(name)
    return entry is not None and entry.vocabulary is not None and not entry.vocabulary.merges


def trained_table(model, name: str = "", label: str = "") -> Table:
    """The table of a model trained here (BPE, byte-level BPE, WordPiece or Unigram)."""
    entry = registry.of_model(model)
    vocabulary = vocabulary_of(model)
    pieces = vocabulary.pieces(model)
    specials = set(getattr(model, "special_tokens", ()))
    data = tuple(None if p in specials else vocabulary.data(p) for p in pieces)
    rank_of = vocabulary.rank_of(model) if vocabulary.rank_of else None
    scores = vocabulary.scores(model) if vocabulary.scores else None
    alone = vocabulary.piece_alone(model)
    return Table(name or entry.name, label or entry.label, tuple(range(len(pieces))),
                 pieces, data, alone, vocabulary.unit, rank_of, scores, "trained")  # fmt: skip


def usage(model, wc: WordCounts) -> Counter[str]:
    """How often the final tokenizer produces each token on its training words."""
    cut = registry.of_model(model).word_segmenter(model)
    counts: Counter[str] = Counter()
    for word, count in wc.items():
        for piece in cut(word):
            counts[piece] += count
    return counts


def made_at(model, piece: str) -> int | None:
    """The merge (1 = first) that made a piece of a BPE or byte-level BPE model; None for
    the alphabet and for other algorithms."""
    for number, (left, right) in enumerate(getattr(model, "merges", ()), start=1):
        if left + right == piece:
            return number
    return None
