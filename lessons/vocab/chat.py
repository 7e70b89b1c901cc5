"""The /vocab page's chat view: a conversation typed on the page as Mistral's chat tokens
(mistral-common's own encoding), control tokens marked as what they are, a count per turn;
for cl100k_base only the text of each turn."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from lessons.ui.escape import as_text, plain
from lessons.ui.inspector import card_link, visible
from lessons.ui.keys import widget_key
from lessons.ui.store import derived, fingerprint
from subtok_core.shapes import among, many, record
from subtok_core.vocab.chat import (
    CONTROL_MEANING,
    NOT_PUBLISHED,
    ROLES,
    Chat,
    ChatToken,
    encode_chat,
    turn_texts,
)
from subtok_core.vocab.chat import TOKENIZERS as CHAT_TOKENIZERS

PAGE = "vocab"
DEFAULTS = {
    "system": "You are a helpful assistant. Answer in one sentence.",
    "user": "Why is an emoji like 😀 several tokens?",
    "assistant": "Its four UTF-8 bytes are rarely one token.",
}
CHAT_CSS = """
<style>
.chat {line-height: 2.4; font-size: 1.05rem; overflow-wrap: anywhere;}
.chat a.ct, .chat a.ct:hover {color: inherit; text-decoration: none;}
.chat .ct {display: inline-block; padding: 0 .3em; margin: 0 .08em; border-radius: .3em;
           font-family: monospace; border: 1px solid #9aa5b1;}
.chat a.ct.control {background: #222; color: #fff; font-weight: bold;}
.chat .ct.template {background: #fff; border: 2px dashed #222;}
.chat .ct.system {background: #e8e0f8;}
.chat .ct.user {background: #dbeafe;}
.chat .ct.assistant {background: #dcfce7;}
.chat .ct .role {font-size: .7em; color: #4a5561; margin-left: .2em;}
.chat .ct.control .role {color: #ddd;}
</style>
"""
ROLE_MARK = {
    "control": "ctl",
    "template": "tpl",
    "system": "sys",
    "user": "usr",
    "assistant": "asst",
}  # fmt: skip  (the role in letters, not by colour alone)
LABELS = {"mistral-v1": "Mistral v1", "mistral-v3": "Mistral v3", "tekken": "Tekken"}
# what a conversation kept on disk must be: its tokens of the roles the chips mark; and the
# tokens of each turn's text alone (turn_texts)
CHAT = record(Chat, tokens=many(record(ChatToken, role=among(*ROLE_MARK))))
TURNS = dict.fromkeys(("system", "user", "assistant"), many(str, list))


def cached_chat(name: str, system: str, user: str, assistant: str) -> Chat:
    """One conversation through one tokenizer, kept by everything it depends on in the
    server-wide store and on disk (lessons.ui.store.derived; the texts by their digest): a
    restarted server shows the page's conversation without loading mistral-common."""
    texts = fingerprint(system, user, assistant)
    compute = lambda: encode_chat(name, system, user, assistant)  # noqa: E731
    return derived(("vocab chat", name, texts), compute, CHAT)


def chips(chat: Chat) -> str:
    """The conversation as chips, each with its role in letters and a link to its card."""
    out = []
    for t in chat.tokens:
        title = CONTROL_MEANING.get(t.piece, t.role) if t.role == "control" else t.role
        href = html.escape(card_link(chat.tokenizer, t.id))
        out.append(
            f'<a class="ct {t.role}" href="{href}" target="_self" '
            f'title="id {t.id}: {html.escape(title)}">{as_text(visible(t.piece))}'
            f'<span class="role">{ROLE_MARK[t.role]}</span></a>'
        )
    return f'{CHAT_CSS}<div class="chat">{"".join(out)}</div>'


def counts_frame(chats: dict[str, Chat]) -> pd.DataFrame:
    rows = [
        {"tokenizer": LABELS[n], **c.counts(), "total": len(c.tokens)} for n, c in chats.items()
    ]
    return pd.DataFrame(rows, columns=["tokenizer", *ROLES, "total"])


def chat_section() -> None:
    st.header("Chat turns as tokens")
    st.write(
        "A chat model never sees roles: it sees one row of tokens. Type a conversation and "
        "see it as Mistral's models were trained on it, written by mistral-common (the "
        "library Mistral publishes), here on this machine."
    )
    c1, c2, c3 = st.columns(3)
    texts = {
        role: col.text_area(role, DEFAULTS[role], key=widget_key(PAGE, f"chat_{role}"))
        for col, role in zip((c1, c2, c3), ("system", "user", "assistant"), strict=True)
    }
    chats = {}
    for name in CHAT_TOKENIZERS:
        try:
            chats[name] = cached_chat(name, texts["system"], texts["user"], texts["assistant"])
        except ValueError as err:
            st.error(plain(str(err)))
            return
    st.dataframe(counts_frame(chats), hide_index=True)
    st.caption(
        "Tokens per turn. control: a control token (black, ctl); template: text the format "
        "adds (dashed, tpl); sys, usr, asst: the tokens that spell each turn's text. A token "
        "that spells parts of two turns (a line break and the next word) counts for the first."
    )
    for name, chat in chats.items():
        st.markdown(f"**{LABELS[name]}**: {len(chat.tokens)} tokens" + chips(chat),
                    unsafe_allow_html=True)  # fmt: skip
    placed = [f"`{p}`: {m}" for p, m in CONTROL_MEANING.items()]
    st.caption("The control tokens: " + "; ".join(placed) + ". Mistral v1 has no control "
               "token for [INST]: its format writes the brackets as ordinary text.")  # fmt: skip
    st.markdown(f"**cl100k_base (GPT-4)**: {NOT_PUBLISHED}")
    turns = (texts["system"], texts["user"], texts["assistant"])
    words = derived(  # kept like the chats: cl100k_base's encoder is built once, not per server
        ("vocab chat turns", "cl100k_base", fingerprint(*turns)),
        lambda: turn_texts("cl100k_base", *turns),
        TURNS,
    )
    st.dataframe(
        pd.DataFrame([{"turn": role, "tokens of its text": len(pieces),
                       "text": " | ".join(visible(p) for p in pieces)}
                      for role, pieces in words.items()]),
        hide_index=True,
    )  # fmt: skip
