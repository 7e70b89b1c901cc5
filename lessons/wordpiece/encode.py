"""The WordPiece page's encoder: the longest-match search of each word typed, and its
tokens beside those of BPE with as many merges on the same corpus."""

from __future__ import annotations

import html
from collections.abc import Callable

import streamlit as st

from lessons.ui.chips import MARKERS, chips, show_chips
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from subtok_core import bpe, wordpiece
from subtok_core.wordpiece.explain import explain_wordpiece_word, tries_by_position

PAGE = "wordpiece"


def encode_panel(model, twin: Callable, i: int, example: str) -> None:
    """The longest-match search of each word typed, and its tokens beside those of
    `twin()`, the model of BPE with as many merges (i) on the same corpus."""
    st.subheader("Encode a word")
    st.caption(
        "WordPiece keeps no merges, only the vocabulary: from the start of the word it takes "
        "the longest piece in the vocabulary, then goes on with the rest (as ##...)."
    )
    text = st.text_input("word or words to encode", example, key=widget_key(PAGE, "encode"))
    try:
        seg = wordpiece.segment(model, text)
        seg_bpe = bpe.segment(twin(), text)
    except ValueError as err:
        st.error(plain(str(err)))
        return
    for word in seg.words:
        show_chips(tries_table(word))
        st.caption(plain(explain_wordpiece_word(word)))
    st.caption(
        "Struck out: not in the vocabulary; green: the longest match, kept. Hover an [UNK] "
        "to see the text it stands for."
    )
    show_chips(
        f"<div><b>WordPiece</b>, {len(seg.tokens)} tokens: {token_chips(seg.tokens, text)}</div>"
        f"<div><b>BPE with {i} merges</b>, {len(seg_bpe.tokens)} tokens: "
        f"{token_chips(seg_bpe.tokens, text)}</div>"
    )
    st.caption(
        "A piece WordPiece cannot match turns the whole word into one [UNK]; BPE marks only "
        "the unknown characters (001)."
    )


def tries_table(word) -> str:
    """A word's longest-match search as an HTML table: one row per position, every
    candidate tried there (longest first) as a chip, struck out when it is not in the
    vocabulary, green when it is the piece kept."""
    rows = []
    for row in tries_by_position(word):
        cells = "".join(
            f'<span class="chip {"hit" if found else "miss"}">{as_text(piece)}</span>'
            for piece, found in row.tried
        )
        kept = "" if row.kept else " → none: the word becomes [UNK]"
        rows.append(
            f"<tr><td>{row.start}</td><td>{as_text(row.rest)}</td><td>{cells}{kept}</td></tr>"
        )
    head = "<tr><th>from</th><th>rest of the word</th><th>tried, longest first</th></tr>"
    return (
        f"<b>{as_text(word.word)}</b>"
        f'<table class="tries">{head}{"".join(rows) or "<tr><td>no try</td></tr>"}</table>'
    )


def token_chips(tokens, text: str) -> str:
    """Encoded tokens as chips, a gap between words; an [UNK] chip's tooltip says which
    text it stands for."""
    parts, last = [], 0
    for token in tokens:
        if token.start > last:
            parts.append('<span class="gap"></span>')
        last = max(last, token.end)
        if token.text == wordpiece.UNK:
            covered = html.escape(repr(text[token.start : token.end]), quote=True)
            parts.append(f'<span class="chip unk" title="[UNK] = {covered}">[UNK]</span>')
        else:
            parts.append(chips([token.text], (), MARKERS))
    return "".join(parts)
