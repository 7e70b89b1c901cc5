"""The inspector conventions students know from online tokenizer playgrounds, for any page
that draws tokens: whitespace drawn as visible marks, and a token and its id lit up
together on hover (plain CSS :hover on shared classes, no script)."""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

import streamlit as st

from lessons.ui.escape import as_text
from subtok_core import registry
from subtok_core.measure.tokenized import BYTES_SHOWN

MARKS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}  # what "show whitespace" draws
WHITESPACE_NOTE = (
    "Whitespace is drawn as marks: · a space, → a tab, ↵ a line break (␍ a carriage return)."
)


def visible(text: str) -> str:
    """`text` with every space, tab and line break drawn as its mark, and any other
    character that prints nothing (a control character) as its hex code; bytes already
    shown as hex (``<F0 9F>``) stay as they are.

    >>> visible(" a\\tb\\n"), visible("\\x00"), visible(" <F0 9F>")
    ('·a→b↵', '<00>', '·<F0 9F>')
    """
    out, last = [], 0
    for m in BYTES_SHOWN.finditer(text):
        out += [_marked(text[last : m.start()]), m.group()]
        last = m.end()
    return "".join([*out, _marked(text[last:])])


def _marked(text: str) -> str:
    return "".join(MARKS.get(ch) or (ch if ch.isprintable() else f"<{ord(ch):02X}>") for ch in text)


def card_link(tokenizer: str, token_id: int, extra: dict | None = None) -> str:
    """The address of a token's card on the /vocab page (`extra`: more of the address, e.g.
    the corpus and size a tokenizer trained here was trained with).

    >>> card_link("cl100k_base", 15339)
    'vocab?tok=cl100k_base&id=15339'
    """
    return "vocab?" + urlencode({"tok": tokenizer, "id": token_id, **(extra or {})})


HOVER_NOTE = (
    "Point at a token, its id or a character of the text above it: all three light up "
    "together. Click a token to open its card on the vocabulary page."
)
URL_TEXT_MAX = 2000  # characters of typed text kept in the address (longer: not kept)
HOVER = "outline: 3px solid #1a4fd6; outline-offset: 1px; background-color: #fff3b0;"


def hover_css(row: str, count: int) -> str:
    """CSS rules lighting token n everywhere in `row` (its chip with its id, and its
    characters in the text line) while any of them is hovered: one rule per token, plain
    :hover and :has, no script."""
    rules = [f".{row}:has(.t{n}:hover) .t{n} {{{HOVER}}}" for n in range(count)]
    return "<style>" + "".join(rules) + "</style>"


def text_line(text: str, spans, row: str, whitespace: bool) -> str:
    """The typed text with each character marked by the tokens that cover it (class t<N>;
    a character cut apart by byte tokens has several), so that hovering a character
    lights its tokens and a token lights its characters."""
    owners: list[list[int]] = [[] for _ in text]
    for n, span in enumerate(spans):
        for i in range(max(span.start, 0), min(span.end, len(text))):
            owners[i].append(n)
    out, i = [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and owners[j] == owners[i]:
            j += 1
        shown = visible(text[i:j]) if whitespace else text[i:j]
        classes = " ".join(f"t{n}" for n in owners[i])
        out.append(f'<span class="{classes}">{as_text(shown)}</span>')
        i = j
    return f'<div class="textline">{"".join(out)}</div>'


INSPECT_CSS = """
<style>
.textline {font-family: monospace; white-space: pre-wrap; overflow-wrap: anywhere;
           font-size: 1rem; margin: .2em 0 .1em; color: #333;}
.tok a, a.tok {color: inherit; text-decoration: none;}
</style>
"""

TEXT_PARAM = "text"
CARD_TOKENIZERS = ("cl100k_base", "mistral-v1", "mistral-v3", "tekken")  # /vocab reads these


def text_from_url(state_key: str) -> None:
    """Before a text box is drawn: the address's ?text= becomes its value (on the first
    run of the session, as a link reopens the view)."""
    from lessons.ui.address import url_text

    given = url_text(TEXT_PARAM, state_key)
    if given is not None:
        st.session_state[state_key] = given[:URL_TEXT_MAX]


def text_to_url(state_key: str) -> None:
    """After the text changed: write it into the address (a text too long to share is
    left out of it)."""
    value = st.session_state.get(state_key, "")
    if value and len(value) <= URL_TEXT_MAX:
        st.query_params[TEXT_PARAM] = value
    else:
        st.query_params.pop(TEXT_PARAM, None)


def card_trained(kind: str) -> bool:
    """Whether /vocab trains the tokenizer `kind` as Compare trains it, to show its cards:
    an algorithm of ours with a Compare training (``for_compare``) and a vocabulary table
    (BPE, WordPiece, Unigram)."""
    algo = registry.ALGORITHMS.get(kind)
    return algo is not None and algo.for_compare is not None and algo.vocabulary is not None


def card_links(kind: str, trained_on: dict | None = None):
    """id -> the address of its card on /vocab, for a tokenizer /vocab knows (None for the
    others: SaGe, an uploaded tokenizer.json). A tokenizer trained here links only with
    `trained_on` (card_corpus: the corpus and size that make /vocab train the same model)."""
    if kind in CARD_TOKENIZERS:
        return lambda token_id: card_link(kind, token_id)
    if trained_on is not None and card_trained(kind):
        return lambda token_id: card_link(kind, token_id, trained_on)
    return None


def card_corpus(name: str, size: int, corpus_print: str) -> tuple[dict | None, str]:
    """What the card links of the tokenizers trained here on corpus `name` (fingerprint
    `corpus_print`) carry: {corpus, size} when /vocab, opened by that address, trains on
    the same words (the named corpus unedited, split at spaces only), so an id is the
    same token there; else None, and why not in words."""
    from lessons.ui import corpus as c

    if name == c.TEXT:
        return None, "your own text, which no address carries"
    if name == c.UPLOAD:
        return None, "an uploaded file, which no address carries"
    plain = c.sample_print(name, False) if c.is_sample(name) else c.fingerprint(c.cached_load(name))
    if corpus_print != plain:
        why = "with punctuation split off" if c.is_sample(name) else "as you edited its table"
        return None, f"{name} {why}, which the address does not carry"
    return {"corpus": name, "size": size}, ""


def no_card_note(why: str) -> str:
    """The caption under a side-by-side view whose trained tokenizers link to no card."""
    return (
        f"The tokens of the tokenizers trained here link to no card: the vocabulary page "
        f"trains on the corpus named in its address, and this one is {why}; there the same "
        "id would be another token."
    )


def row_class(kind: str) -> str:
    """A CSS class for one tokenizer's row, whatever characters its name has.

    >>> row_class("hf:my tok.json") == row_class("hf:my tok.json"), row_class("bpe")[:7]
    (True, 'tokrow-')
    """
    return "tokrow-" + hashlib.sha1(kind.encode()).hexdigest()[:10]


def row_html(row: str, text: str, spans, whitespace: bool, chips: str) -> str:
    """One tokenizer's row for the inspector: the text line and the chips in one block
    whose hover rules light a token's chip, id and characters together."""
    return (
        INSPECT_CSS
        + hover_css(row, len(spans))
        + f'<div class="{row}">{text_line(text, spans, row, whitespace)}{chips}</div>'
    )
