"""Inside a vocabulary: any token's card (deep link /vocab?tok=cl100k_base&id=15339), the
health categories of real vocabularies beside the ones trained here, and a conversation as
Mistral's chat tokens."""

from __future__ import annotations

import streamlit as st

from lessons.ui.address import choice_box, limit_help, number_box
from lessons.ui.corpus import (
    corpus_editor,
    corpus_select,
    is_sample,
    sample_print,
)
from lessons.ui.escape import as_text
from lessons.ui.inspector import card_link
from lessons.ui.keys import widget_key
from lessons.ui.present import page_head, settings_row
from lessons.ui.store import fingerprint
from lessons.ui.upload import upload_digest
from lessons.vocab import card as cards
from lessons.vocab import chat, data
from lessons.vocab.health import code, health_section
from subtok_core import compare, limits

PAGE = "vocab"
MAX_ID = 10_000_000


def settings():
    """The corpus, the vocabulary size and which tokenizers to train here (as Compare)."""
    c1, c2, c3 = settings_row(PAGE).columns([3, 1, 3])
    name = corpus_select(c1, default="sample:lee").name
    top = limits.limit("vocab_size", "web")
    size = int(number_box(c2, "vocab size", "size", 1, top, 2000,
                            help=limit_help("vocab_size")))  # fmt: skip
    kinds = c3.multiselect(
        "your tokenizers, trained here on this corpus", list(data.TRAINED),
        default=list(data.TRAINED), format_func=lambda k: compare.LABELS[k],
        key=widget_key(PAGE, "mine"),
    )  # fmt: skip
    with st.expander("Add a Hugging Face tokenizer.json"):
        upload_tokenizer()
    return name, size, kinds


UPLOADED = widget_key(PAGE, "hf")  # this session's tokenizer.json: name, digest


def upload_tokenizer() -> None:
    """A tokenizer.json of the student's, added to the tokenizers of this session: its
    health is kept in the server-wide store, held by the sessions using it (released when
    another file replaces it or the session's tab disconnects): see data.uploaded_health."""
    upload = st.file_uploader("tokenizer.json", type=["json"], key=widget_key(PAGE, "hf_file"))
    if upload is None:
        return
    digest = upload_digest(upload)
    name = f"hf:{upload.name}"
    try:  # on every run: a session that came back after a disconnect holds it again
        data.uploaded_health(upload, digest)
    except ValueError as err:
        st.error(as_text(str(err)))  # it may name the file
        return
    mine = st.session_state.get(UPLOADED, {})
    if (mine.get("digest"), mine.get("name")) == (digest, name):
        return
    st.session_state[UPLOADED] = {"name": name, "digest": digest}
    st.success(f"{as_text(upload.name)} can now be chosen as {as_text(name)}.")


class Mine:
    """The tokenizers trained here, trained on first use in a run (a card of cl100k_base
    opened by a link trains nothing before it is drawn)."""

    def __init__(self, name: str, size: int, kinds: list[str]) -> None:
        self.name, self.size, self.kinds = name, size, kinds
        self.found: dict | None = None

    def get(self) -> dict:
        if self.found is None:
            self.found = {}
            with st.expander("The training corpus of your tokenizers", expanded=False):
                edited = corpus_editor(self.name, PAGE, ",".join(self.kinds) or None, self.size)
            if edited is None or not self.kinds:
                return self.found
            wc = edited.words
            if is_sample(self.name):
                corpus_print = sample_print(self.name, edited.split_punct)
            else:
                corpus_print = fingerprint(wc)
            trained = data.models(self.kinds, wc, corpus_print, self.size)
            self.found = {k: (m, fingerprint(p, corpus_print), wc) for k, (m, p) in trained.items()}
        return self.found

    def uploaded(self) -> dict[str, data.Sorted]:
        """This session's uploaded tokenizer.json, by name -> its health (or nothing)."""
        mine = st.session_state.get(UPLOADED)
        if mine is None:
            return {}
        name = mine["name"]
        report = data.health_again(mine["digest"])
        if report is None:  # let go when the tab disconnected, and no other tab held it
            del st.session_state[UPLOADED]
            return {}
        return {name: data.Sorted.of(data.named(report, name[3:]))}

    def link(self, tok: str, token_id: int) -> str:
        trained = tok in data.TRAINED
        extra = {"corpus": self.name, "size": self.size} if trained else {}
        return card_link(tok, token_id, extra)


def card_section(mine: Mine) -> None:
    """One token's card, chosen by tokenizer and id (both in the address)."""
    st.header("A token's card")
    c1, c2, c3 = st.columns([2, 1, 2])
    options = [*data.PRETRAINED, *mine.kinds, *mine.uploaded()]
    # no format_func: a bound select box reads the address through it (tok=mistral-v1)
    tok = choice_box(c1, "tokenizer", options, "tok", "cl100k_base")
    c1.caption(as_text(data.label(tok)))  # an upload's name: text
    token_id = int(number_box(c2, "token id", "id", 0, MAX_ID, 15339))
    wanted = c3.text_input(
        "or find a token by its text", key=widget_key(PAGE, "find"),
        help="Type a token's exact text, e.g. ' world' with its space.",
    )  # fmt: skip
    try:
        found = mine.get() if tok in mine.kinds else mine.uploaded()
        if wanted:  # the table of tokens is built only to search it
            found_links(data.table_of(tok, found)[0], tok, wanted, mine)
        card, trained = data.card(tok, token_id, found)
    except (ValueError, KeyError) as err:
        said = str(err) if isinstance(err, ValueError) else f"{tok} is not trained here."
        st.error(as_text(said))  # it names the tokenizer, an upload's name among them
        return
    cards.show_card(card, trained=trained)


def found_links(table, tok: str, wanted: str, mine: Mine) -> None:
    """The ids whose text or written piece is exactly `wanted`, each a link to its card."""
    raw = wanted.encode("utf-8")
    hits = [i for i, (p, d) in enumerate(zip(table.pieces, table.data)) if p == wanted or d == raw]
    if not hits:
        st.info(f"{table.label} has no token that is exactly {code(wanted)}.")
        return
    links = ", ".join(
        f"[id {table.ids[k]} {code(table.pieces[k])}]({mine.link(tok, table.ids[k])})"
        for k in hits[:10]
    )
    st.markdown(f"{code(wanted)} is {links}.")


page_head(
    "Inside a vocabulary",
    "Every token of a real vocabulary (GPT-4's, Mistral's) or of one trained here: what it "
    "is in bytes, how its merges build it, and whether any text can produce it at all.",
)
name, size, kinds = settings()
mine = Mine(name, size, kinds)
card_section(mine)
st.divider()
health_section(mine)
st.divider()
chat.chat_section()
