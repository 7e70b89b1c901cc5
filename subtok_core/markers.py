"""Word-boundary markers, in one place: the symbols, the style of a vocabulary, and a
piece read without its marker.

Marker styles (one per vocabulary): ``sow`` pieces start a word with ``▁``; ``wordpiece``
pieces continue a word with ``##``; ``eow`` pieces end a word with ``</w>``; ``none`` has no
marker. Markers are not characters, and special tokens ([UNK], [PAD], ...) are not subwords.

This module imports nothing of the algorithms or the registry, so any of them (a
pretrained tokenizer reading its vocabulary, the measures, the trainers) can use it.

>>> vocab_style(["▁the", "s"]), vocab_style(["the", "##s"]), vocab_style(["the</w>"])
('sow', 'wordpiece', 'eow')
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import EOW, SOW

PREFIX = "##"  # WordPiece's continuation mark
STYLES = ("sow", "wordpiece", "eow", "none")
STYLE_TEXT = {
    "sow": "word starts with ▁",
    "wordpiece": "word continuations with ##",
    "eow": "word ends with </w>",
    "none": "no word boundary at all",
}

__all__ = ["EOW", "PREFIX", "SOW", "STYLES", "STYLE_TEXT", "bare", "check_style", "continues",
           "model_style", "vocab_style", "word_initial"]  # fmt: skip


def vocab_style(vocab: Sequence[str]) -> str:
    """Which marker a vocabulary uses: the first of ▁, </w>, ## found in it, else "none"."""
    if any(p.startswith(SOW) for p in vocab):
        return "sow"
    if any(p.endswith(EOW) for p in vocab):
        return "eow"
    if any(continues(p) for p in vocab):
        return "wordpiece"
    return "none"


def continues(piece: str) -> bool:
    """A WordPiece continuation: ``##`` and at least one character (so "##" alone is the
    two-character word-initial piece, never an empty continuation)."""
    return piece.startswith(PREFIX) and len(piece) > len(PREFIX)


def check_style(style: str | None, vocab: Sequence[str]) -> str:
    """The given style, or the detected one when None; a ValueError for an unknown name."""
    if style is None:
        return vocab_style(vocab)
    if style not in STYLES:
        raise ValueError(f"Unknown marker style {style!r}; choose one of {', '.join(STYLES)}.")
    return style


def bare(piece: str, style: str) -> str:
    """The characters of a piece, its marker removed; a lone marker is the empty string.

    >>> bare("▁the", "sow"), bare("##ing", "wordpiece"), bare("</w>", "eow"), bare("▁", "sow")
    ('the', 'ing', '', '')
    """
    if style == "sow":
        return piece.removeprefix(SOW)
    if style == "wordpiece":
        return piece[len(PREFIX) :] if continues(piece) else piece
    if style == "eow":
        return piece.removesuffix(EOW)
    return piece


def word_initial(piece: str, style: str) -> bool | None:
    """Whether a piece starts a word: sow, it starts with ▁; wordpiece, it does not start
    with ##. eow and none vocabularies do not mark word starts: None."""
    if style == "sow":
        return piece.startswith(SOW)
    if style == "wordpiece":
        return not continues(piece)
    return None


def model_style(model) -> str:
    """The marker style of a trained model: its ``marker`` (BPE: none/eow/suffix/sow;
    Unigram: none/sow), else WordPiece's ``##`` continuations."""
    marker = getattr(model, "marker", None)
    if marker is not None:
        return {"suffix": "eow"}.get(marker, marker)
    if getattr(model, "prefix", PREFIX) != PREFIX:
        raise ValueError(f"Metrics read continuations as ##; this model uses {model.prefix!r}.")
    return "wordpiece"
