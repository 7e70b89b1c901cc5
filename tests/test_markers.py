"""BPE's word-boundary markers in subtok_core.markers, the one module the trainer, the
reference loop, encoding, dropout and the token cards cut words and pieces with. Every
expected value is written out by hand from the marker's definition (003 slides: ``</w>``
after the characters; tokenizers' end_of_word_suffix: glued to the last one;
SentencePiece: ``▁`` before them)."""

from __future__ import annotations

import pytest

from subtok_core import bpe, markers
from subtok_core.bpe import BpeModel, train_bpe
from subtok_core.corpus import load
from subtok_core.vocab.card import token_card
from subtok_core.vocab.health import health
from subtok_core.vocab.trained import trained_table

EOW, SOW = "</w>", "\u2581"


def test_the_markers_are_bpes_markers():
    assert markers.BPE_MARKERS == bpe.MARKERS == ("none", "eow", "suffix", "sow")
    with pytest.raises(ValueError, match="Unknown marker 'bow'; choose one of none, eow"):
        markers.check_marker("bow")


@pytest.mark.parametrize(
    ("marker", "symbols", "widths"),
    [
        ("none", ["c", "a", "t"], [1, 1, 1]),
        ("eow", ["c", "a", "t", EOW], [1, 1, 1, 0]),
        ("suffix", ["c", "a", "t" + EOW], [1, 1, 1]),
        ("sow", [SOW, "c", "a", "t"], [0, 1, 1, 1]),
    ],
)
def test_a_words_first_symbols_and_the_characters_each_covers(marker, symbols, widths):
    assert markers.initial_symbols("cat", marker) == symbols
    assert markers.initial_widths("cat", marker) == widths


@pytest.mark.parametrize(
    ("marker", "alphabet"),
    [
        ("none", ["a", "b", "c"]),
        ("eow", [EOW, "a", "b", "c"]),  # "<" (U+003C) sorts before the letters
        ("sow", ["a", "b", "c", SOW]),  # ▁ (U+2581) after them
        # the characters by code point, then each word's last one with </w>, as first seen
        ("suffix", ["a", "b", "c", "b" + EOW, "c" + EOW]),
    ],
)
def test_the_alphabet_before_the_first_merge(marker, alphabet):
    assert markers.initial_alphabet(["cab", "ab", "bc"], marker) == alphabet


def test_the_marker_symbols_of_their_own():
    assert markers.marker_symbols("eow") == {EOW} and markers.marker_symbols("sow") == {SOW}
    assert markers.marker_symbols("none") == markers.marker_symbols("suffix") == set()


@pytest.mark.parametrize(
    ("piece", "marker", "symbols"),
    [
        ("▁ab", "sow", [SOW, "a", "b"]),
        ("ab", "sow", ["a", "b"]),
        ("ab</w>", "eow", ["a", "b", EOW]),
        (EOW, "eow", [EOW]),  # the marker on its own is one symbol, not four characters
        ("ab</w>", "suffix", ["a", "b" + EOW]),
        ("b</w>", "suffix", ["b" + EOW]),
        ("ab", "none", ["a", "b"]),
    ],
)
def test_a_pieces_first_symbols(piece, marker, symbols):
    assert markers.piece_symbols(piece, marker) == symbols


def test_the_end_of_word_marker_alone_is_a_token_of_its_own():
    """toy:low-lower with </w>: the marker is a symbol of the first vocabulary, so its text
    alone is itself (it was read as the four characters <, /, w, >: three unknown and
    'w', so vocabulary health called it unreachable)."""
    model = train_bpe(load("toy:low-lower"), merges=4, marker="eow")
    table = trained_table(model)
    k = model.vocab.index(EOW)
    assert health(table).category[k] == "ok"
    assert token_card(table, k, model=model).alone_pieces == (EOW,)


def alone_pieces(model, piece: str) -> tuple[str, ...]:
    """`piece` cut on its own by the model, as pieces (-1, outside the vocabulary: '?')."""
    ids = bpe.encode.piece_alone(model)(model.vocab.index(piece))
    return tuple(model.vocab[i] if i >= 0 else "?" for i in ids)


def test_a_marked_piece_is_replayed_from_its_marker():
    """By hand. Merges ▁+a, a+b, then ▁a+b: '▁ab' alone is ▁, a, b: ▁+a first (rank 1),
    then ▁a+b: one piece; 'ab' alone has no marker: a+b. The same pieces with a+b ranked
    first: '▁ab' is ▁, a, b, then a+b, and no merge joins ▁ and ab: two pieces, so the
    replay follows the ranks from the marker, it does not just find the piece."""
    alphabet = ("a", "b", SOW)
    vocab = (*alphabet, "▁a", "ab", "▁ab")
    model = BpeModel(((SOW, "a"), ("a", "b"), (SOW + "a", "b")), vocab, alphabet, "sow")
    assert [alone_pieces(model, p) for p in ("▁a", "ab", "▁ab")] == [("▁a",), ("ab",), ("▁ab",)]
    other = BpeModel((("a", "b"), (SOW, "a"), (SOW + "a", "b")), vocab, alphabet, "sow")
    assert [alone_pieces(other, p) for p in ("▁a", "ab", "▁ab")] == [("▁a",), ("ab",), (SOW, "ab")]
