"""The inspector conventions students know from online tokenizer playgrounds, for any page
that draws tokens: whitespace drawn as visible marks, and a token and its id lit up
together on hover (plain CSS :hover on shared classes, no script)."""

from __future__ import annotations

import html
from urllib.parse import urlencode

MARKS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}  # what "show whitespace" draws
WHITESPACE_NOTE = (
    "Whitespace is drawn as marks: · a space, → a tab, ↵ a line break (␍ a carriage return)."
)


def visible(text: str) -> str:
    """`text` with every space, tab and line break drawn as its mark, and any other
    character that prints nothing (a control character) as its hex code.

    >>> visible(" a\\tb\\n"), visible("\\x00")
    ('·a→b↵', '<00>')
    """
    return "".join(MARKS.get(ch) or (ch if ch.isprintable() else f"<{ord(ch):02X}>") for ch in text)


def card_link(tokenizer: str, token_id: int, extra: dict | None = None) -> str:
    """The address of a token's card on the /vocab page (`extra`: more of the address, e.g.
    the corpus and size a tokenizer trained here was trained with).

    >>> card_link("cl100k_base", 15339)
    'vocab?tok=cl100k_base&id=15339'
    """
    return "vocab?" + urlencode({"tok": tokenizer, "id": token_id, **(extra or {})})


def hover_css(row: str) -> str:
    """CSS lighting a token and its id together: every chip and id of `row` (the row's own
    class) holds the class t<N> of its token; hovering either outlines both."""
    return (
        f".{row} .tk:hover, .{row} .tk:focus {{outline: 3px solid #1a4fd6; outline-offset: 1px;}}"
        f".{row}:has(.tk:hover) .ids .tk:hover {{background: #1a4fd6; color: #fff;}}"
    )


def pair_rule(row: str, n: int) -> str:
    """The rule that lights token n's chip and id together when either is hovered."""
    sel = f".{row}:has(.t{n}:hover) .t{n}"
    return f"{sel} {{outline: 3px solid #1a4fd6; outline-offset: 1px;}}"


def ids_line(row: str, ids, links=None) -> str:
    """A token's ids in a row of their own under the chips, each with the class of its
    token (so hover lights the pair) and, given `links` (id -> address), a link to its
    card."""
    out = []
    for n, token_id in enumerate(ids):
        body = html.escape(str(token_id))
        if links is not None and token_id >= 0:
            href = html.escape(links(token_id))
            body = (
                f'<a href="{href}" target="_self" title="open the card of id {token_id}">{body}</a>'
            )
        out.append(f'<span class="tk t{n}">{body}</span>')
    return f'<div class="ids {row}">{" ".join(out)}</div>'
