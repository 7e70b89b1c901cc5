"""The character a word marker covers in a span, as the tokenizers library aligns it.

A model trained here glues a marker to each word (``▁`` in front for sow, ``</w>`` behind
for eow); our segmenters give it no character (a lone ``▁`` token spans start = end). The
exported tokenizer.json puts the marker into the text with a normalizer, and tokenizers
aligns an inserted character with the character just before it: the space a ``▁`` stands
for, the word's last character for a ``</w>``; at the very start of the text it covers
nothing. ``aligned`` moves our spans to those offsets, so that ``subtok encode --model M --json``
and the exported file give the same offsets (tests/test_marker_spans.py). The pages keep
the segmenters' spans, where a marker covers nothing: Compare's cuts then line up with
those of tokenizers without markers (WordPiece).

>>> from subtok_core.records import Span
>>> aligned([Span("▁", 0, 0), Span("c", 0, 1), Span("▁b", 2, 3), Span("▁", 4, 4)], "sow")
[Span(text='▁', start=0, end=0), Span(text='c', start=0, end=1), \
Span(text='▁b', start=1, end=3), Span(text='▁', start=3, end=4)]
>>> aligned([Span("you", 4, 7), Span("</w>", 7, 7), Span("a</w>", 8, 9)], "eow")
[Span(text='you', start=4, end=7), Span(text='</w>', start=6, end=7), \
Span(text='a</w>', start=8, end=9)]
"""

from __future__ import annotations

from collections.abc import Iterable

from .records import EOW, SOW, Span


def aligned(spans: Iterable[Span], marker: str | None) -> list[Span]:
    """`spans` with each word marker given the character tokenizers aligns it with (see
    the module docstring); spans without a marker are left as they are."""
    out = []
    for span in spans:
        start, end, text = span.start, span.end, span.text
        width = end - start
        if marker == "sow" and text.startswith(SOW) and width == len(text) - 1 and start:
            start -= 1  # the marker at `start` stands for the character before it
        elif marker == "eow" and text.endswith(EOW) and width == len(text) - len(EOW):
            start = min(start, end - 1) if end else start  # the word's last character
        out.append(span if start == span.start else Span(text, start, end))
    return out
