"""The corpus a lesson trains on: chosen, shown, edited, uploaded."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from lessons.ui.address import choice_box, stage
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint
from lessons.ui.upload import counted_upload
from lessons.ui.view_memory import last_shown, note_rewritten
from subtok_core import corpus, toys

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


# shared, not copied: WordCounts is frozen (tuples), and unpickling a copy on every run
# cost 1 ms on Lee and 11 ms on the Wikipedia sample (bench/load_ws.py's profile)
@st.cache_resource(show_spinner=False)
def cached_load(name: str, split_punct: bool = False) -> corpus.WordCounts:
    return corpus.load(name, split_punct)


def is_sample(name: str) -> bool:
    """A real sample shipped in a package: the same words for every session."""
    return name not in (TEXT, UPLOAD) and not corpus.is_toy(name)


@st.cache_data(show_spinner=False)
def sample_print(name: str, split_punct: bool) -> str:
    """The fingerprint of a real sample's word counts, computed once (pickling them on
    every run costs some 7 ms on the Lee sample), and kept on disk with them
    (subtok_core/corpus/kept.py: 0.2 s of a restarted server's first page on enwiki). An
    exercise corpus, shipped too but small, is hashed as it is loaded."""
    if not name.startswith("sample:"):
        return fingerprint(cached_load(name, split_punct))
    return corpus.sample_counts(name.removeprefix("sample:"), split_punct)[1]


def punct_box(prefix: str) -> bool:
    return st.checkbox(
        "split punctuation off as separate words",
        key=widget_key(prefix, "punct"),
        help="By default words are split at spaces only, so 'fox.' is one word.",
    )


@dataclass(frozen=True)
class Edited:
    """The corpus the editor gives: its word counts, and whether its words were split with
    punctuation off (the box of punct_box; a toy's never are). A real sample's fingerprint
    (sample_print) and a model's pre-tokenization depend on the second."""

    words: corpus.WordCounts
    split_punct: bool = False


def corpus_editor(
    name: str, prefix: str, algorithm: str | None = None, size: int = 0
) -> Edited | None:
    """Show the chosen corpus so the student can edit it; return its word counts and how
    its words were split.

    Toy tables are editable in place, free text goes in a text box, a file is uploaded.
    Returns None (after an st.error) when the input cannot be used; a table that cannot be
    used gives its error under it, and the lesson goes on with the last table that could.
    """
    try:
        if corpus.is_toy(name):
            return Edited(toy_table(name, prefix))
        if name == TEXT:
            text = st.text_area("Your text", DEFAULT_TEXT, key=widget_key(prefix, "text"))
            split = punct_box(prefix)
            return Edited(corpus.from_text(text, split, name="your text"), split)
        if name == UPLOAD:
            upload = st.file_uploader(
                "A UTF-8 .txt file (20 MB at most)", key=widget_key(prefix, "upload")
            )
            if upload is None:
                st.info("Upload a file to train on it.")
                return None
            split = punct_box(prefix)
            return Edited(counted_upload(upload, split, prefix, algorithm, size), split)
        split = punct_box(prefix)
        with st.spinner(f"Reading {name} from the gensim package ..."):
            wc = cached_load(name, split)
        st.caption(f"{wc.total:,} running words, {len(wc):,} distinct.")
        return Edited(wc, split)
    except ValueError as err:
        st.error(plain(str(err)))
        return None


def toy_table(name: str, prefix: str) -> corpus.WordCounts:
    """A toy's word/count table, editable. The counts are edited as text, so that "abc" or
    2.5 reach the check as typed (a number column turns them into nothing, or 2); a row the
    check refuses is named under the table, and the last table that could be used (kept
    per page and corpus) goes on teaching."""
    info = next(i for i in corpus.list_corpora() if i.name == name)
    st.caption(f"Source: {info.source}. Edit the table to try your own words.")
    wc = cached_load(name)
    rows = pd.DataFrame({"word": wc.words, "count": [str(c) for c in wc.counts]})
    edited = st.data_editor(
        rows,
        num_rows="dynamic",
        key=widget_key(prefix, f"table_{name}"),
        hide_index=True,
        width="stretch",
    )
    last = widget_key(prefix, f"valid_{name}")
    try:
        st.session_state[last] = corpus.from_pairs(edited.itertuples(index=False), name)
    except ValueError as err:
        st.error(
            f"{plain(str(err))} The lesson goes on with the table as it was before this change."
        )
    return st.session_state.get(last, wc)


@dataclass(frozen=True)
class Corpus:
    """The corpus a page's select box chose in this run: its name, and whether the student
    has just chosen it (another than the one the last run of this page showed)."""

    name: str
    changed: bool = False


def corpus_select(col, default: str | None = None) -> Corpus:
    """The corpus choice, bound to the URL as ?corpus=NAME (`default` when the URL has none).

    A corpus chosen on the page starts again from its source's settings (corpus_setting)
    and, on a page with steps, before its first step (lessons.ui.steps.start_over): a step
    number or a marker of the last corpus would mean nothing on it (merge 5 of fox, merges
    1-4 skipped)."""
    options = corpus_options()
    name = choice_box(
        col, "corpus", options, "corpus", default if default in options else options[0]
    )
    col.caption(corpus_label(name))
    return Corpus(name, chosen_anew(name))


def chosen_anew(name: str, key: str = "corpus") -> bool:
    """Whether the student has just chosen `name` in the box bound to `key` (another value
    than the last run of this page showed). Then Back returns to the last corpus's view,
    not to this one's at its step (view_memory.note_rewritten)."""
    was = last_shown(key)
    changed = was is not None and was != name
    if changed:
        note_rewritten()
        stage(key)
    return changed


def corpus_setting(chosen: Corpus, key: str, fallback, state_key: str | None = None):
    """The value the page's setting `key` starts from on the `chosen` corpus: its source's
    (subtok_core/data/toys.toml), else the page's `fallback`. Pass it as the widget's
    default, before the widget is drawn: when the student has just chosen this corpus, the
    widget (its session key `state_key`, the key itself for a widget bound to the address)
    is set to it."""
    value = toys.setting(chosen.name, key, fallback)
    if chosen.changed and state_key is not None:
        st.session_state[state_key] = value
    elif chosen.changed:
        stage(key, value)
    return value


def settings_caption(col, name: str, **used) -> None:
    """One caption in `col` crediting the source of the settings in use that are the
    corpus's own (used: setting -> the value the page uses), e.g. "As in 003: `</w>` after
    each word."; nothing when the student (or the address) chose otherwise."""
    said = toys.as_in(name, used)
    if said:
        col.caption(said)
