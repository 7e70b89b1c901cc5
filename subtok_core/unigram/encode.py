"""Encode with a Unigram model: each word's lattice of pieces, and its Viterbi path.

>>> model = UnigramModel(("a", "b", "ab"), (-2.0, -2.0, -1.0), ("a", "b"))
>>> encoded = segment(model, "ab ba")
>>> encoded.pieces
['ab', 'b', 'a']
>>> word_lines(encoded)
['ab: ab (-1.000) = -1.000', 'ba: b (-2.000) + a (-2.000) = -4.000']

Ties: see lattice.viterbi (the latest-starting last piece wins).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import corpus
from ..lattice import WordLattice, max_piece_len, viterbi, word_lattice
from ..records import SOW, SegmentTrace, Span
from .records import UnigramModel

UNK_PENALTY = 10.0  # an unknown character costs this much below the rarest piece (nats)


class _Lookup:
    """A model's pieces as a dict, the price of [UNK] and the longest piece: built once
    per model, not once per word."""

    def __init__(self, model: UnigramModel):
        self.logp = dict(zip(model.pieces, model.logprobs, strict=True))
        self.unk = min(self.logp.values(), default=0.0) - UNK_PENALTY
        self.longest = max_piece_len(self.logp)
        self.mark = SOW if model.marker == "sow" else ""


def encode_word(model: UnigramModel, word: str, lookup: _Lookup | None = None) -> WordLattice:
    """The lattice of one word: every edge, its posterior and the Viterbi path.

    A character in no piece becomes [UNK], priced below the rarest piece.
    """
    look = lookup or _Lookup(model)
    return word_lattice(look.mark + word, look.logp, look.longest, unk_logp=look.unk)


def word_segmenter(model: UnigramModel) -> Callable[[str], list[str]]:
    """word -> its Viterbi pieces ([UNK] for unknown characters), without the lattice's
    posteriors: the fast path for encoding a whole corpus.

    >>> model = UnigramModel(("a", "b", "ab"), (-2.0, -2.0, -1.0), ("a", "b"))
    >>> word_segmenter(model)("abzab")
    ['ab', '[UNK]', 'ab']
    """
    look = _Lookup(model)

    def pieces(word: str) -> list[str]:
        return list(viterbi(look.mark + word, look.logp, look.longest, unk_logp=look.unk)[0])

    return pieces


def segment(model: UnigramModel, text: str) -> SegmentTrace:
    """Encode a text word by word with Viterbi; each word keeps its lattice."""
    if not text.strip():
        raise ValueError("Type a word to encode.")
    words = corpus.encode_words(text, model.split_punct)
    look = _Lookup(model)
    spans: list[Span] = []
    lattices = []
    offset = 0
    shift = len(look.mark)  # ▁ covers no character of the text
    for word in words:
        begin = text.index(word, offset)
        lattice = encode_word(model, word, look)
        for index in lattice.best:
            edge = lattice.edges[index]
            start, end = max(edge.start - shift, 0), edge.end - shift
            spans.append(Span(edge.piece, begin + start, begin + end))
        lattices.append(lattice)
        offset = begin + len(word)
    return SegmentTrace(text, tuple(spans), tuple(lattices))


def word_lines(encoded: SegmentTrace, model: UnigramModel | None = None) -> list[str]:
    """Per word, its Viterbi path with each piece's log-probability (``encode --trace``)."""
    lines = []
    for lattice in encoded.words:
        path = " + ".join(
            f"{lattice.edges[i].piece} ({lattice.edges[i].logp:.3f})" for i in lattice.best
        )
        lines.append(f"{lattice.word}: {path} = {lattice.best_logp:.3f}")
    return lines


def piece_alone(model) -> Callable[[int], tuple[int, ...]]:
    """Token k of the model's vocabulary cut on its own, as ids of that vocabulary (-1: a
    piece outside it; (): it cannot be cut): what vocabulary health calls reachable."""
    logp = dict(zip(model.pieces, model.logprobs, strict=True))
    index = {p: i for i, p in enumerate(model.pieces)}
    longest = max_piece_len(logp)

    def alone(k: int) -> tuple[int, ...]:
        pieces, _ = viterbi(model.pieces[k], logp, longest)
        return tuple(index.get(p, -1) for p in pieces)

    return alone
