"""The token card on the /vocab page: one token of one tokenizer, how it is built, and
where it stands in the vocabulary's health."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.ui.escape import as_text, inline_code
from lessons.ui.inspector import visible
from lessons.ui.keys import widget_key
from subtok_core.bytebpe.symbols import show
from subtok_core.vocab.card import Card, order_sentence
from subtok_core.vocab.health import SENTENCES
from subtok_core.vocab.trained import keeps_no_merges
from subtok_core.vocab.trees import Node

TREE_CSS = """
<style>
ul.tree, ul.tree ul {list-style: none; margin: 0; padding-left: 1.2em;}
ul.tree {padding-left: 0; font-family: monospace; font-size: 1.05rem;}
ul.tree li {border-left: 1px solid #9aa5b1; padding-left: .5em; margin: .15em 0;}
ul.tree .part {background: #f4f6f8; border: 1px solid #9aa5b1; border-radius: .3em;
               padding: 0 .35em; white-space: pre;}
ul.tree .rank {color: #4a5561; font-size: .9em; margin-left: .4em;}
</style>
"""
PAGE = "vocab"
YES_NO = {True: "yes", False: "no"}


def part_text(part, unit: str) -> str:
    """A node's part as a student reads it: bytes as text with hex for the rest."""
    if unit == "byte":
        return visible(show(bytes(part), "hex"))
    return visible(part)


def tree_html(node: Node, unit: str, rank_word: str) -> str:
    """A merge tree as nested lists: each part with its rank, its two parts under it."""

    def item(n: Node) -> str:
        rank = "" if n.rank is None else f'<span class="rank">{rank_word} {number(n.rank)}</span>'
        inner = ""
        if not n.leaf:
            inner = f"<ul>{item(n.left)}{item(n.right)}</ul>"
        part = as_text(part_text(n.part, unit))  # a tag, bold, $...$ or an image: text
        return f'<li><span class="part">{part}</span>{rank}{inner}</li>'

    return f'{TREE_CSS}<ul class="tree">{item(node)}</ul>'


def number(rank) -> str:
    """A rank or score as written beside a tree node: 1,000; -741; -1e+09; -0.25."""
    if isinstance(rank, float) and not rank.is_integer():
        return f"{rank:g}"
    return f"{int(rank):,}" if abs(rank) < 1e7 else f"{rank:g}"


def facts_frame(card: Card) -> pd.DataFrame:
    """The card's facts as a two-column table (every value computed from the vocabulary)."""
    rows = [
        ("id", f"{card.id}"),
        ("as the vocabulary writes it", card.piece),
        ("text", "(not text on its own)" if card.text is None else repr(card.text)),
        ("bytes (hex)", card.hex or "(a special token has no bytes of text)"),
        *((("GPT-2 byte letters", card.letters or "—"),) if card.unit == "byte" else ()),
        ("valid UTF-8 on its own", YES_NO[card.valid_utf8]),
        ("special", YES_NO[card.special]),
        ("reachable (its text alone encodes to it)", YES_NO[card.reachable]),
        ("category", card.category_sentence()[0]),
    ]
    if card.score is not None:
        rows.append(("Unigram score (log-probability)", f"{card.score:.4f}"))
    if card.step is not None:
        rows.append(("made by merge", f"{card.step:,}"))
    if card.frequency is not None:
        rows.append(("produced on its training corpus", f"{card.frequency:,} times"))
    return pd.DataFrame(rows, columns=["fact", "this token"])


def rank_word(card: Card, trained: bool) -> str:
    if card.order == "score":
        return "score"
    return "merge" if trained else "rank" if card.unit == "byte" else "id"


def show_card(card: Card, trained: bool) -> None:
    """Draw one card: the facts, the category's sentence, what its text alone gives, the
    merge tree and, for a tokenizer trained here, the words that use it."""
    with st.container(border=True, key=widget_key(PAGE, "card")):
        st.markdown(f"### {as_text(card.label)}, id {card.id}: {inline_code(visible(card.piece))}")
        left, right = st.columns([1, 1])
        left.table(facts_frame(card), hide_index=True)
        with right:
            built(card, trained)


def built(card: Card, trained: bool) -> None:
    """The category and its sentence, what the text alone gives, the merge tree, and the
    training words that use the token."""
    name, sentence = card.category_sentence()
    st.markdown(f"**{name}**: {sentence}")
    if card.text is not None and not card.reachable:
        cut = " + ".join(inline_code(visible(p)) for p in card.alone_pieces) or "nothing"
        st.markdown(f"Encoding {as_text(repr(card.text))} on its own gives {cut} instead.")
    word = rank_word(card, trained)
    if card.tree is not None:
        st.markdown(f"**How it is built**: {order_sentence(card, trained)}")
        st.markdown(tree_html(card.tree, card.unit, word), unsafe_allow_html=True)
    elif keeps_no_merges(card.tokenizer):  # WordPiece, Unigram: trained without merges
        st.caption(f"{as_text(card.label)} keeps no merges, so no tree shows how this token "
                   "is built.")  # fmt: skip
    elif card.data is not None and len(card.data) > 1:
        st.caption("Replaying the merges on its parts never joins them all: no tree ends in it.")
    if card.words:
        st.markdown("**Training words that use it** (the most frequent):")
        rows = [{"word": word, "count": count, "segmentation": " ".join(pieces)}
                for word, count, pieces in card.words]  # fmt: skip
        st.dataframe(pd.DataFrame(rows), hide_index=True)
    elif card.frequency == 0:
        st.markdown(f"**unused**: {SENTENCES['unused']}")
