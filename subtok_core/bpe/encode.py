"""Encode with a BPE model: replay the learned merges, in the order they were learned.

>>> alphabet = ("a", "b", "g", "s")
>>> model = BpeModel((("a", "g"), ("b", "ag")), (*alphabet, "ag", "bag"), alphabet, "none")
>>> segment(model, "bags").pieces
['bag', 's']
>>> [(number, "".join(pair)) for number, pair, _ in segment(model, "bags").words[0].applied]
[(1, 'ag'), (2, 'bag')]
"""

from __future__ import annotations

from collections.abc import Callable

from ..corpus import encode_words
from ..markers import initial_symbols, initial_widths, piece_symbols
from ..records import UNK, SegmentTrace, Span
from .records import BpeModel, BpeWordTrace, Pair


def encode_word(
    model: BpeModel, word: str, ranks: dict[Pair, int] | None = None, offset: int = 0
) -> BpeWordTrace:
    """Replay the merges in the order they were learned on one word.

    A character never seen in training becomes [UNK] and takes part in no merge.
    """
    firsts = initial_symbols(word, model.marker)
    return replay(model, word, firsts, initial_widths(word, model.marker), ranks, offset)


def replay(
    model: BpeModel,
    word: str,
    firsts: list[str],
    widths: list[int],
    ranks: dict[Pair, int] | None = None,
    offset: int = 0,
) -> BpeWordTrace:
    """Replay the merges on the first symbols of a word (`widths`: the characters each
    covers); a symbol outside the model's alphabet is [UNK] and takes part in no merge."""
    ranks = ranks if ranks is not None else _ranks(model)
    known = set(model.alphabet)
    syms = [s if s in known else None for s in firsts]
    initial = tuple(UNK if s is None else s for s in syms)
    applied = []
    nxt = 0  # merges before this one have had their turn already
    while True:
        found = [ranks.get((x, y), -1) for x, y in zip(syms, syms[1:])]
        candidates = [r for r in found if r >= nxt]
        if not candidates:
            break
        rank = min(candidates)
        a, b = model.merges[rank]
        syms, widths = _merge_list(syms, widths, a, b)
        applied.append((rank + 1, (a, b), tuple(UNK if s is None else s for s in syms)))
        nxt = rank + 1
    return BpeWordTrace(word, offset, initial, tuple(applied), tuple(widths))


def word_segmenter(model: BpeModel) -> Callable[[str], list[str]]:
    """word -> its pieces, with the merge ranks built once: the fast path for encoding a
    whole corpus.

    >>> model = BpeModel((("a", "g"),), ("a", "b", "g", "s", "ag"), ("a", "b", "g", "s"), "none")
    >>> word_segmenter(model)("bags")
    ['b', 'ag', 's']
    """
    ranks = _ranks(model)
    return lambda word: list(encode_word(model, word, ranks).final)


def _merge_list(syms: list, widths: list[int], a: str, b: str) -> tuple[list, list[int]]:
    """Merge every (a, b) left to right; widths add up."""
    out, out_widths, i = [], [], 0
    while i < len(syms):
        if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
            out.append(a + b)
            out_widths.append(widths[i] + widths[i + 1])
            i += 2
        else:
            out.append(syms[i])
            out_widths.append(widths[i])
            i += 1
    return out, out_widths


def _ranks(model: BpeModel) -> dict[Pair, int]:
    ranks: dict[Pair, int] = {}
    for i, pair in enumerate(model.merges):
        ranks.setdefault(pair, i)
    return ranks


def _word_spans(trace: BpeWordTrace) -> list[Span]:
    """Character spans of a word's final symbols; markers cover no character."""
    spans, pos = [], trace.start
    for sym, width in zip(trace.final, trace.widths, strict=True):
        spans.append(Span(sym, pos, pos + width))
        pos += width
    return spans


def segment(model: BpeModel, text: str) -> SegmentTrace:
    """Encode a text word by word: tokens as spans plus each word's merge trace."""
    if not text.strip():
        raise ValueError("Type a word to encode.")
    ranks = _ranks(model)
    words, tokens, pos = [], [], 0
    for word in encode_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start + len(word)
        trace = encode_word(model, word, ranks, start)
        words.append(trace)
        tokens.extend(_word_spans(trace))
    return SegmentTrace(text, tuple(tokens), tuple(words))


def word_lines(encoded: SegmentTrace, model: BpeModel | None = None) -> list[str]:
    """Per word, its first symbols and every merge applied to them (``encode --trace``)."""
    lines = []
    for word in encoded.words:
        lines.append(f"{word.word}: {' '.join(word.initial)}")
        for number, (a, b), symbols in word.applied:
            lines.append(f"  merge {number:>3} ({a} + {b}): {' '.join(symbols)}")
    return lines


def piece_alone(model) -> Callable[[int], tuple[int, ...]]:
    """Token k of the model's vocabulary cut on its own, as ids of that vocabulary (-1: a
    piece outside it; (): it cannot be cut): what vocabulary health calls reachable. A
    piece is read as the inside of a word, its marker (if it has one) as the one symbol
    it was: ``▁ab`` from ▁, a, b; ``ab`` from a, b; ``</w>`` alone from </w>."""
    ranks, index = _ranks(model), {p: i for i, p in enumerate(model.vocab)}

    def alone(k: int) -> tuple[int, ...]:
        piece = model.vocab[k]
        firsts = piece_symbols(piece, model.marker)
        trace = replay(model, piece, firsts, [len(s) for s in firsts], ranks)
        return tuple(index.get(p, -1) for p in trace.final)

    return alone
