"""Encode with a Picky BPE model: replay its events in order on each word, merges and
splits alike, as the authors' tokenizer does (``picky_tokenize.py``, event by event).

>>> from subtok_core.corpus import load
>>> from subtok_core.picky.train import model_from_trace, trace_picky
>>> model = model_from_trace(trace_picky(load("toy:low-lower"), vocab_size=25))
>>> segment(model, "lowest newest").pieces
['▁low', 'e', 's', 't', '▁newest']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..corpus import encode_words
from ..markers import initial_symbols, initial_widths, piece_symbols
from ..records import UNK, SegmentTrace, Span
from .records import MERGE, PickyModel


@dataclass(frozen=True, slots=True)
class PickyWordTrace:
    """How one word was encoded: its first symbols, then (event number, kind, symbol,
    symbols after) for every event that changed it."""

    word: str
    start: int
    initial: tuple[str, ...]
    applied: tuple[tuple[int, str, str, tuple[str, ...]], ...]
    widths: tuple[int, ...]

    @property
    def final(self) -> tuple[str, ...]:
        return self.applied[-1][3] if self.applied else self.initial


def _merge(symbols: list, widths: list[int], a: str, b: str) -> tuple[list, list[int]]:
    out, out_widths, i = [], [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
            out.append(a + b)
            out_widths.append(widths[i] + widths[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            out_widths.append(widths[i])
            i += 1
    return out, out_widths


def _split(symbols: list, widths: list[int], token: str, parts) -> tuple[list, list[int]]:
    out, out_widths = [], []
    for symbol, width in zip(symbols, widths):
        if symbol != token:
            out.append(symbol)
            out_widths.append(width)
            continue
        for part in parts:  # a ▁ part covers no character
            out.append(part)
            out_widths.append(len(part) - part.count("▁"))
    return out, out_widths


def replay(model: PickyModel, word: str, firsts: list[str], widths: list[int], offset=0):
    """Every event of the model on a word's first symbols, in order; a character the model
    never saw is [UNK] and takes part in none."""
    known = set(model.alphabet)
    symbols = [s if s in known else None for s in firsts]
    initial = tuple(UNK if s is None else s for s in symbols)
    applied = []
    for number, (kind, symbol, parts) in enumerate(model.events, start=1):
        if kind == MERGE:
            if not any(x == parts[0] and y == parts[1] for x, y in zip(symbols, symbols[1:])):
                continue
            symbols, widths = _merge(symbols, widths, parts[0], parts[1])
        else:
            if symbol not in symbols:
                continue
            symbols, widths = _split(symbols, widths, symbol, parts)
        applied.append((number, kind, symbol, tuple(UNK if s is None else s for s in symbols)))
    return PickyWordTrace(word, offset, initial, tuple(applied), tuple(widths))


def encode_word(model: PickyModel, word: str, offset: int = 0) -> PickyWordTrace:
    return replay(model, word, initial_symbols(word, "sow"), initial_widths(word, "sow"), offset)


def word_segmenter(model: PickyModel) -> Callable[[str], list[str]]:
    """word -> its pieces (each distinct word replayed once)."""
    seen: dict[str, list[str]] = {}

    def cut(word: str) -> list[str]:
        if word not in seen:
            seen[word] = list(encode_word(model, word).final)
        return list(seen[word])

    return cut


def segment(model: PickyModel, text: str) -> SegmentTrace:
    """Encode a text word by word: tokens as spans plus each word's events."""
    if not text.strip():
        raise ValueError("Type a word to encode.")
    words, tokens, pos = [], [], 0
    for word in encode_words(text, model.split_punct):
        start = text.index(word, pos)
        pos = start + len(word)
        trace = encode_word(model, word, start)
        words.append(trace)
        at = start
        for symbol, width in zip(trace.final, trace.widths, strict=True):
            tokens.append(Span(symbol, at, at + width))
            at += width
    return SegmentTrace(text, tuple(tokens), tuple(words))


def word_lines(encoded: SegmentTrace, model: PickyModel | None = None) -> list[str]:
    """Per word, its first symbols and every event that changed them."""
    lines = []
    for word in encoded.words:
        lines.append(f"{word.word}: {' '.join(word.initial)}")
        for number, kind, symbol, symbols in word.applied:
            lines.append(f"  {kind} {number:>3} ({symbol}): {' '.join(symbols)}")
    return lines


def piece_alone(model: PickyModel) -> Callable[[int], tuple[int, ...]]:
    """Token k of the vocabulary cut on its own, as ids of the vocabulary (-1: outside)."""
    index = {p: i for i, p in enumerate(model.vocab)}

    def alone(k: int) -> tuple[int, ...]:
        piece = model.vocab[k]
        firsts = piece_symbols(piece, "sow")
        trace = replay(model, piece, firsts, [len(s) - s.count("▁") for s in firsts])
        return tuple(index.get(p, -1) for p in trace.final)

    return alone
