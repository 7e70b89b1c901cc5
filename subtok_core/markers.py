"""Word-boundary markers, in one place: the symbols, the style of a vocabulary, a piece
read without its marker, and how BPE cuts a word before its first merge.

Marker styles (one per vocabulary): ``sow`` pieces start a word with ``▁``; ``wordpiece``
pieces continue a word with ``##``; ``eow`` pieces end a word with ``</w>``; ``none`` has no
marker. Markers are not characters, and special tokens ([UNK], [PAD], ...) are not subwords.

BPE's markers (one per model, its ``marker``): ``none``; ``eow``, ``</w>`` is one more symbol
after the word's characters (the 003 slides); ``suffix``, ``</w>`` is glued to the last
character (Hugging Face tokenizers' ``end_of_word_suffix``); ``sow``, ``▁`` is one more
symbol before them (SentencePiece). The trainer, the reference loop, encoding, dropout and
the vocabulary's token cards all cut words and pieces with the functions here.

This module imports nothing of the algorithms or the registry, so any of them (a
pretrained tokenizer reading its vocabulary, the measures, the trainers) can use it.

>>> vocab_style(["▁the", "s"]), vocab_style(["the", "##s"]), vocab_style(["the</w>"])
('sow', 'wordpiece', 'eow')
>>> [initial_symbols("low", marker) for marker in BPE_MARKERS]
[['l', 'o', 'w'], ['l', 'o', 'w', '</w>'], ['l', 'o', 'w</w>'], ['▁', 'l', 'o', 'w']]
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

BPE_MARKERS = ("none", "eow", "suffix", "sow")
BPE_STYLE = {"none": "none", "eow": "eow", "suffix": "eow", "sow": "sow"}  # marker -> style

__all__ = ["BPE_MARKERS", "BPE_STYLE", "EOW", "PREFIX", "SOW", "STYLES", "STYLE_TEXT", "bare",
           "check_marker", "check_style", "continues", "initial_alphabet", "initial_symbols",
           "initial_widths", "marker_symbols", "model_style", "piece_symbols", "vocab_style",
           "word_initial"]  # fmt: skip


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
        return BPE_STYLE.get(marker, marker)
    if getattr(model, "prefix", PREFIX) != PREFIX:
        raise ValueError(f"Metrics read continuations as ##; this model uses {model.prefix!r}.")
    return "wordpiece"


# --- BPE: a word before the first merge ------------------------------------------------


def check_marker(marker: str) -> None:
    """A ValueError for a name that is not one of BPE's markers."""
    if marker not in BPE_MARKERS:
        raise ValueError(f"Unknown marker {marker!r}; choose one of {', '.join(BPE_MARKERS)}.")


def initial_symbols(word: str, marker: str) -> list[str]:
    """A word as BPE's first symbols: its characters, and the marker as a symbol of its own
    (eow after them, sow before them) or glued to the last character (suffix).

    >>> initial_symbols("я", "suffix"), initial_symbols("ab", "sow")
    (['я</w>'], ['▁', 'a', 'b'])
    """
    chars = list(word)
    if marker == "eow":
        return [*chars, EOW]
    if marker == "suffix":
        return [*chars[:-1], chars[-1] + EOW]
    if marker == "sow":
        return [SOW, *chars]
    return chars


def initial_widths(word: str, marker: str) -> list[int]:
    """How many characters of the word each of its first symbols covers: one each, the
    marker none (a suffixed last character covers its one character).

    >>> initial_widths("low", "eow"), initial_widths("low", "suffix"), initial_widths("low", "sow")
    ([1, 1, 1, 0], [1, 1, 1], [0, 1, 1, 1])
    """
    if marker == "eow":
        return [1] * len(word) + [0]
    if marker == "sow":
        return [0] + [1] * len(word)
    return [1] * len(word)


def marker_symbols(marker: str) -> set[str]:
    """The symbols a marker adds to the alphabet by itself: ``</w>`` (eow) or ``▁`` (sow);
    none for none, and suffix glues its ``</w>`` to a character."""
    return {"eow": {EOW}, "sow": {SOW}}.get(marker, set())


def initial_alphabet(words: Sequence[str], marker: str) -> list[str]:
    """Every first symbol of a corpus, in the order Hugging Face tokenizers numbers them: the
    characters (and the marker's own symbol) by code point, then the word-final ``x</w>``
    symbols of the suffix marker as they first appear.

    >>> initial_alphabet(["low", "lo"], "eow"), initial_alphabet(["low", "lo"], "suffix")
    (['</w>', 'l', 'o', 'w'], ['l', 'o', 'w', 'w</w>', 'o</w>'])
    """
    alphabet = sorted(set("".join(words)) | marker_symbols(marker))
    if marker == "suffix":
        alphabet += dict.fromkeys(word[-1] + EOW for word in words)
    return alphabet


def piece_symbols(piece: str, marker: str) -> list[str]:
    """The first symbols a piece of a BPE vocabulary is made of, read as the inside of a
    word: its characters, and its marker as the one symbol it was (a piece without the
    marker is the inside of a word, and a lone marker is the marker).

    >>> piece_symbols("▁cat", "sow"), piece_symbols("at</w>", "eow"), piece_symbols("</w>", "eow")
    (['▁', 'c', 'a', 't'], ['a', 't', '</w>'], ['</w>'])
    >>> piece_symbols("at</w>", "suffix"), piece_symbols("at", "suffix")
    (['a', 't</w>'], ['a', 't'])
    """
    if marker == "eow" and piece.endswith(EOW):
        return [*piece.removesuffix(EOW), EOW]
    if marker == "suffix" and piece.endswith(EOW) and len(piece) > len(EOW):
        return [*piece[: -len(EOW) - 1], piece[-len(EOW) - 1 :]]
    return list(piece)  # (sow: ▁ is one character, so its own symbol already)
