"""The corpus a lesson trains on: chosen, shown, edited, uploaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages._keys import widget_key
from pages._store import fingerprint
from pages._url import choice_box
from subtok_core import corpus

TEXT, UPLOAD = "text:your own", "upload:a .txt file"
DEFAULT_TEXT = "the cat sat on the mat with the other cats"


def corpus_label(name: str) -> str:
    """How a corpus name reads in a select box."""
    infos = {info.name: info for info in corpus.list_corpora()}
    if name in infos:
        return f"{name} — {infos[name].title}"
    return {"text:your own": "your own text", "upload:a .txt file": "upload a .txt file"}[name]


def corpus_options(samples: bool = True) -> list[str]:
    names = [info.name for info in corpus.list_corpora()]
    if not samples:
        names = [n for n in names if corpus.is_toy(n)]
    return [*names, TEXT, UPLOAD]


@st.cache_data(show_spinner=False)
def cached_load(name: str, split_punct: bool = False) -> corpus.WordCounts:
    return corpus.load(name, split_punct)


def is_sample(name: str) -> bool:
    """A real sample shipped in a package: the same words for every session."""
    return name not in (TEXT, UPLOAD) and not corpus.is_toy(name)


@st.cache_data(show_spinner=False)
def sample_print(name: str, split_punct: bool) -> str:
    """The fingerprint of a real sample's word counts, computed once (pickling them on
    every run costs some 7 ms on the Lee sample)."""
    return fingerprint(cached_load(name, split_punct))


def punct_box(prefix: str) -> bool:
    return st.checkbox(
        "split punctuation off as separate words",
        key=widget_key(prefix, "punct"),
        help="By default words are split at spaces only, so 'fox.' is one word.",
    )


def corpus_editor(name: str, prefix: str) -> corpus.WordCounts | None:
    """Show the chosen corpus so the student can edit it; return its word counts.

    Toy tables are editable in place, free text goes in a text box, a file is uploaded.
    Returns None (after an st.error) when the input cannot be used.
    """
    try:
        if corpus.is_toy(name):
            info = next(i for i in corpus.list_corpora() if i.name == name)
            st.caption(f"Source: {info.source}. Edit the table to try your own words.")
            rows = pd.DataFrame(cached_load(name).items(), columns=["word", "count"])
            edited = st.data_editor(
                rows,
                num_rows="dynamic",
                key=widget_key(prefix, f"table_{name}"),
                hide_index=True,
                width="stretch",
            )
            return corpus.from_pairs(edited.itertuples(index=False), name)
        if name == TEXT:
            text = st.text_area("Your text", DEFAULT_TEXT, key=widget_key(prefix, "text"))
            return corpus.from_text(text, punct_box(prefix), name="your text")
        if name == UPLOAD:
            upload = st.file_uploader(
                "A UTF-8 .txt file (20 MB at most)", key=widget_key(prefix, "upload")
            )
            if upload is None:
                st.info("Upload a file to train on it.")
                return None
            text = read_upload(upload)
            return None if text is None else corpus.from_text(text, punct_box(prefix), upload.name)
        split = punct_box(prefix)
        with st.spinner(f"Reading {name} from the gensim package ..."):
            wc = cached_load(name, split)
        st.caption(f"{wc.total:,} running words, {len(wc):,} distinct.")
        return wc
    except ValueError as err:
        st.error(str(err))
        return None


def read_upload(upload) -> str | None:
    """The text of an uploaded file; None after an st.error with the core's sentence when
    it is no UTF-8 text (binary, another encoding, empty, over 20 MB)."""
    try:
        return corpus.decode_upload(upload.getvalue(), upload.name)
    except ValueError as err:
        st.error(str(err))
        return None


def corpus_select(col, default: str | None = None) -> str:
    """The corpus choice, bound to the URL as ?corpus=NAME (`default` when the URL has none)."""
    options = corpus_options()
    name = choice_box(
        col, "corpus", options, "corpus", default if default in options else options[0]
    )
    col.caption(corpus_label(name))
    return name


def punct_on(prefix: str) -> bool:
    """Whether the corpus was pre-tokenized with punctuation split off (toys never are)."""
    return not corpus.is_toy(st.session_state.get("corpus", "")) and bool(
        st.session_state.get(widget_key(prefix, "punct"), False)
    )
