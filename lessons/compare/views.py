"""The Compare page's views of typed text: one text through every tokenizer as colored
chips, and each trained tokenizer to take away (the same sentences in six languages:
languages.py)."""

from __future__ import annotations

import html

import streamlit as st

from lessons.ui import inspector as inspect
from lessons.ui.escape import as_text, plain
from lessons.ui.keys import widget_key
from subtok_core import compare, languages, palette
from subtok_core.tokenizer import tokenizer

PAGE = "compare"
DEFAULT_TEXT = "Tokenizers disagree most about rare words such as unbelievably or tokenization."
EXAMPLES = {  # what a class asks about, each in one click
    "rare words": DEFAULT_TEXT,
    "emoji and Chinese": "I ❤️ Tokyo! 😀 我爱东京。",
    "numbers and code": "In 2024, 1234567 + 89 = 1234656; print(f'{x:>10}')",
    "Russian": "Сегодня хорошая погода, поэтому мы идём гулять в парк.",
}

SPAN_CSS = """
<style>
.toks {line-height: 2.6; font-size: 1.15rem;}
.tok {display: inline-block; padding: 0 .3em; margin: 0 .06em; border-radius: .3em;
      font-family: monospace; border: 1px solid #444444; color: #1a1a1a;}
.tok.odd {border: 2px dashed #222;}
.tok.part {border: 3px double #b00020; font-size: .85em;}
.tok sub {font-size: .7em; color: #444; margin-left: .15em;}
.gap {display: inline-block; width: .9em;}
</style>
"""
SAID = {  # the outline's meaning, for a screen reader (lessons/ui/a11y.py: .sr-only)
    "tok odd": '<span class="sr-only"> (a cut not every tokenizer makes)</span>',
    "tok part": '<span class="sr-only"> (part of a character)</span>',
}
PART_NOTE = (
    "A double red outline marks a token that holds only part of a character, drawn as its bytes in "
    "hex (`<F0 9F>`): {who} cut{s} the UTF-8 bytes of a character (an emoji is 4 bytes, a "
    "Chinese character 3) where no token spells the whole character, so it takes several "
    "tokens, and each covers that character."
)


def color_of(token: str, previous: str | None = None) -> str:
    """A light color fixed by the token's string, the same on every run and page, never the
    color of the chip before (`previous`): subtok_core/palette.py, contrast tested."""
    return palette.fill_for(token, previous)


def spans_html(
    text: str, encoded, odd: set, parts: set, show_ids: bool, whitespace=False, link=None
) -> str:
    """Tokens as colored chips; a gap where the text has a space; tokens whose cut not
    every tokenizer shares are outlined dashed, tokens holding part of a character red.
    Chip n holds an element of class t<n> (lessons.ui.inspector lights it with its
    characters on hover);
    `whitespace` draws spaces, tabs and line breaks as marks; `link(id)` is the address
    of a token's card."""
    chips, last, fill = [], 0, None
    for n, (span, token_id) in enumerate(zip(encoded.spans, encoded.ids, strict=True)):
        if span.start > last and text[last : span.start].isspace():
            gap = as_text(inspect.visible(text[last : span.start])) if whitespace else ""
            chips.append(f'<span class="gap">{gap}</span>')
        last = max(last, span.end)
        cls = "tok part" if n in parts else "tok odd" if (span.start, span.end) in odd else "tok"
        sub = f"<sub>{token_id}</sub>" if show_ids else ""
        # an unknown token says, on hover, which text it stands for
        tip = f' title="{html.escape(unknown_text(text, span))}"' if is_unknown(span) else ""
        body = as_text(inspect.visible(span.text) if whitespace else span.text) + sub
        tag = "a" if link is not None and token_id >= 0 else "span"
        href = f' href="{html.escape(link(token_id))}" target="_self"' if tag == "a" else ""
        fill = color_of(span.text, fill)
        chips.append(
            f'<span class="{cls}" style="background:{fill}"{tip}>'
            f'<{tag} class="t{n}"{href}>{body}</{tag}></span>{SAID.get(cls, "")}'
        )
    return f'<div class="toks">{"".join(chips)}</div>'


def is_unknown(span) -> bool:
    return span.text in languages.UNKNOWN and span.end > span.start


def unknown_text(text: str, span) -> str:
    """'[UNK] = 'é'': an unknown token and the text it stands for."""
    return f"{span.text} = {text[span.start : span.end]!r}"


def unknown_note(text: str, encoded: dict, labels: dict) -> str:
    """Which text each tokenizer's unknown tokens stand for, in one sentence ('' if none)."""
    said = []
    for kind, enc in encoded.items():
        shown = dict.fromkeys(unknown_text(text, s) for s in enc.spans if is_unknown(s))
        if shown:
            said.append(f"{labels[kind]}: {', '.join(shown)}")
    if not said:
        return ""
    return (
        "An unknown token stands for text the tokenizer never saw in training (hover it): "
        + "; ".join(said)
        + "."
    )


def many_tokens_note(encoded: dict, labels: dict) -> str:
    """Why a tokenizer needs far more tokens than the best other one for this text (more
    than 1.5 times as many), with both counts, when its registry entry says why it may
    (``compare_long_why``: WordPiece); '' otherwise."""
    if len(encoded) < 2:
        return ""
    for kind, coded in encoded.items():
        algo = compare.entry(kind)
        if algo is None or algo.compare_long_why is None:
            continue
        mine = len(coded.spans)
        others = {k: len(e.spans) for k, e in encoded.items() if k != kind and e.spans}
        if not others:
            continue
        best = min(others, key=others.get)
        if mine > 1.5 * others[best]:
            return (
                f"{labels[kind]} needs {mine} tokens for this text, {labels[best]} "
                f"{others[best]}. {algo.compare_long_why}"
            )
    return ""


def _use_example() -> None:
    choice = st.session_state[widget_key(PAGE, "example")]
    if choice:
        st.session_state[widget_key(PAGE, "encode")] = EXAMPLES[choice]
        inspect.text_to_url(widget_key(PAGE, "encode"))


def side_by_side(models: dict, labels: dict, cards: tuple[dict | None, str]) -> None:
    """The typed text through every tokenizer: tokens, their count, characters per token;
    each token linked to its card on /vocab (`cards`: inspect.card_corpus)."""
    st.header("One text, every tokenizer")
    st.pills("examples", list(EXAMPLES), key=widget_key(PAGE, "example"), on_change=_use_example)
    typed = widget_key(PAGE, "encode")
    inspect.text_from_url(typed)  # ?text= reopens the view
    text = st.text_area("Type any text", DEFAULT_TEXT, key=widget_key(PAGE, "encode"),
                        on_change=inspect.text_to_url, args=(typed,))  # fmt: skip
    show_ids = st.checkbox("show token ids", key=widget_key(PAGE, "ids"))
    whitespace = st.toggle("show whitespace", key=widget_key(PAGE, "whitespace"))
    try:
        encoded = {kind: compare.encode(model, text) for kind, model in models.items()}
    except ValueError as err:
        st.error(plain(str(err)))
        return
    odd = compare.unshared(encoded)
    split = []
    for kind, enc in encoded.items():
        parts = compare.byte_pieces(enc, text)
        if parts:
            split.append(labels[kind])
        per = f", {len(text) / len(enc.spans):.2f} characters per token" if enc.spans else ""
        st.markdown(
            f"**{as_text(labels[kind])}**: {len(enc.spans)} tokens{per}"
            + SPAN_CSS
            + inspect.row_html(
                inspect.row_class(kind),
                text,
                enc.spans,
                whitespace,
                spans_html(
                    text,
                    enc,
                    odd[kind],
                    parts,
                    show_ids,
                    whitespace,
                    inspect.card_links(kind, cards[0]),
                ),
            ),  # fmt: skip
            unsafe_allow_html=True,
        )
    why = many_tokens_note(encoded, labels)
    if why:
        st.info(why)
    unknown = unknown_note(text, encoded, labels)
    if unknown:
        st.caption(plain(unknown))
    st.caption(
        "Each token string has its own color on every line (never that of its neighbour); a "
        "dashed outline marks a token "
        "whose cut not every tokenizer makes; a gap is a space of the text. ▁ starts a word "
        "(BPE, Unigram, SentencePiece models), ## continues one (WordPiece); cl100k_base and "
        "Tekken keep the space inside the token (' world')."
    )
    st.caption(inspect.HOVER_NOTE + (" " + inspect.WHITESPACE_NOTE if whitespace else ""))
    if cards[0] is None and any(inspect.card_trained(kind) for kind in models):
        st.caption(inspect.no_card_note(cards[1]))
    if split:
        who = " and ".join(split)
        st.caption(PART_NOTE.format(who=who, s="" if len(split) > 1 else "s"))


def export_panel(models: dict, prints: dict, labels: dict) -> None:
    """Each tokenizer trained here as a Hugging Face tokenizer.json, to load elsewhere."""
    from lessons.ui import export  # the exporter loads only on pages that export

    trained = [k for k, m in models.items() if tokenizer(m).trained]
    if not trained:
        return
    with st.expander("Take a tokenizer trained here with you: Hugging Face tokenizer.json"):
        for kind in trained:
            st.markdown(f"**{labels[kind]}**")
            export.hf_download(lambda m=models[kind]: m, PAGE, f"hf_{kind}", prints[kind])
