"""Encode with a SaGe vocabulary: greedy longest prefix, each word after the ``▁`` marker.

>>> model = SageModel(("▁", "a", "b", "▁a", "ab", "▁ab"))
>>> word_segmenter(model)("abba")
['▁ab', 'b', 'a']
>>> [(span.text, span.start, span.end) for span in segment(model, "ab c").tokens]
[('▁ab', 0, 2), ('▁', 3, 3), ('[UNK]', 3, 4)]
>>> word_lines(segment(model, "ab"), model)
['ab: ▁ab (greedy longest prefix)']
"""

from __future__ import annotations

from collections.abc import Callable

from ..corpus import encode_words, split_words
from ..records import SOW, UNK, SegmentTrace, Span
from .corpus import UNKNOWN, greedy
from .records import SageModel


def word_segmenter(model: SageModel) -> Callable[[str], list[str]]:
    """word -> its pieces by greedy longest prefix; an unseen character becomes [UNK]."""
    index = {p: i for i, p in enumerate(model.vocab)}
    longest = max(map(len, model.vocab))
    names = list(model.vocab)
    return lambda word: [
        UNK if i == UNKNOWN else names[i] for i in greedy(SOW + word, index, longest)
    ]


def segment(model: SageModel, text: str) -> SegmentTrace:
    """Encode a text word by word (greedy longest prefix); tokens as spans."""
    if not text.strip():
        raise ValueError("Type a word to encode.")
    cut = word_segmenter(model)
    tokens, pos = [], 0
    for word in encode_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start
        for k, piece in enumerate(cut(word)):  # only the first piece holds the marker
            width = 1 if piece == UNK else len(piece) - (k == 0 and piece.startswith(SOW))
            tokens.append(Span(piece, pos, pos + width))
            pos += width
    return SegmentTrace(text, tuple(tokens), ())


def word_lines(encoded: SegmentTrace, model: SageModel) -> list[str]:
    """Per word, the pieces greedy longest prefix cut it into (``encode --trace``)."""
    cut = word_segmenter(model)
    return [
        f"{word}: {' '.join(cut(word))} (greedy longest prefix)"
        for word in split_words(encoded.text, model.split_punct)
    ]
