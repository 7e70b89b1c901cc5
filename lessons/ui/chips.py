"""Symbols as chips, our own HTML: a word's pieces, a corpus of words with their counts, a
vocabulary (every lesson that shows pieces draws them so)."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from lessons.ui.escape import as_text

# Our own HTML only (chips, corpus rows, encode lists), at a size a projector shows. A
# word is one box in a row that wraps between words; a word wider than the whole column
# wraps between its chips, and a chip longer than the column breaks inside: nothing
# overflows, at 1280 px or on a 390 px phone.
CHIP_CSS = """
<style>
.chips {line-height: 2.3; font-size: 1.2rem; overflow-wrap: anywhere;}
.chip {display: inline-block; max-width: 100%; padding: 0 .45em; margin: 0 .12em;
       border-radius: .35em; border: 1px solid #6b7785; background: #f4f6f8;
       font-family: monospace; color: #1a1a1a;}
.chip.new {background: #ffd6d6; border: 3px double #a4161a; font-weight: bold;}
.chip.unk {background: #444; color: #fff;}
.chip.marker {color: #4f5a66;}
.chip.miss {background: #fff; border-style: dashed; color: #5f6b78;
            text-decoration: line-through;}
.chip.hit {background: #dff3e4; border-color: #2ca02c; font-weight: bold;}
.word {display: inline-block; max-width: 100%; margin: 0 .8em .3em 0; padding: 0 .3em;
       border-radius: .5em; background: #f9fafb; box-shadow: inset 0 0 0 1px #dde1e6;
       color: #1a1a1a;}
.count {font-size: .8em;}
.tail {white-space: nowrap;}
.chips .gap {display: inline-block; width: .9em;}
table.tries {font-size: 1.05rem; border-collapse: collapse; margin: .3em 0 .8em;}
table.tries th, table.tries td {padding: .15em .6em; border-bottom: 1px solid #e3e6ea;
                                text-align: left; vertical-align: top;}
table.tries td:not(:last-child), table.tries th {white-space: nowrap;}
</style>
"""


def chips(
    symbols: Iterable[str], highlight: Iterable[str] = (), markers: Iterable[str] = ()
) -> str:
    """Symbols as HTML chips; highlighted ones red with a double outline (and "new symbol"
    for a screen reader), markers grey, [UNK] dark."""
    highlight, markers = set(highlight), set(markers)
    parts = []
    for sym in symbols:
        cls = "chip"
        if sym == "[UNK]":
            cls += " unk"
        elif sym in highlight:
            cls += " new"
        elif sym in markers:
            cls += " marker"
        said = '<span class="sr-only"> (new symbol)</span>' if cls.endswith("new") else ""
        parts.append(f'<span class="{cls}">{as_text(sym)}</span>{said}')
    return "".join(parts)


def show_chips(rows: str, css: str = "", kind: str = "") -> None:
    """Rows of chips (our own HTML, each user string escaped by whoever made it) in one
    box; a page's own `css` after the chips' own, its rules scoped by the class `kind`
    (/bytebpe's "bb": a chip holding a space keeps it, parts coloured)."""
    classes = f"chips {kind}" if kind else "chips"
    st.markdown(CHIP_CSS + css + f'<div class="{classes}">{rows}</div>', unsafe_allow_html=True)


# word-boundary markers, drawn grey in a chip
MARKERS = ("</w>", "\u2581")


def show_corpus(rows, total_words: int, highlight: set[str]) -> None:
    """Each word as chips with its count; the newest symbol highlighted."""
    # the last chip and the count stay together ("##er × 1"), never a count alone on a line
    lines = [
        f'<div class="word">{chips(seg[:-1], highlight, MARKERS)}<span class="tail">'
        f'{chips(seg[-1:], highlight, MARKERS)} <small class="count" aria-hidden="true">×&nbsp;'
        f'{count}</small><span class="sr-only">, {count} time{"" if count == 1 else "s"}</span>'
        "</span></div>"
        for _word, count, seg in rows
    ]
    show_chips("".join(lines))
    if total_words > len(rows):
        st.caption(f"The first {len(rows)} of {total_words:,} distinct words.")


def show_vocab(vocab, highlight: set[str]) -> None:
    shown = vocab if len(vocab) <= 300 else vocab[:60] + vocab[-240:]
    show_chips(chips(shown, highlight, MARKERS))
    if len(vocab) > len(shown):
        st.caption(f"{len(vocab):,} symbols: the first 60 and the newest 240 are shown.")
