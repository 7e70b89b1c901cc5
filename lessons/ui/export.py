"""The download of a trained model as a Hugging Face tokenizer.json (subtok_core/hf_export).

A page calls ``hf_download(model_of, page, name, ident)`` under the model it shows: a button that,
once pressed, gives a download button when the model exports faithfully (with a caption
for what the file may still do otherwise), else a caption with the reason. Whether it
exports is asked once per model (cached by its fingerprint); the file itself is built
only when the download button is clicked, and then cached.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint, run_key
from subtok_core import export, hf_export

LABEL = "Download as Hugging Face tokenizer.json"
HELP = (
    "A tokenizer.json that the tokenizers library loads (Tokenizer.from_file) and that cuts "
    "every word into the same tokens as this page, with the same ids. Markers: ▁ and ## "
    "as they are, </w> written as the private-use character U+E000."
)


@st.cache_data(show_spinner=False, max_entries=64)
def _refusal(model_print: str, _model) -> str | None:
    try:
        hf_export.check(_model)
    except ValueError as err:
        return str(err)
    return None


@st.cache_data(show_spinner=False, max_entries=16)
def _tokenizer_json(model_print: str, _model) -> str:
    return hf_export.hf_json(_model)


def plan(model) -> tuple[str | None, list[str], Callable[[], str]]:
    """Why `model` cannot be exported (None when it can), what the file may still do
    otherwise (notes), and the function that builds its tokenizer.json text (run by the
    button on click, cached by the model's fingerprint)."""
    digest = fingerprint("hf_export", model)
    build = lambda: _tokenizer_json(digest, model)  # noqa: E731
    return _refusal(digest, model), hf_export.notes(model), build


def run_ident(trace) -> str:
    """What names the run whose model a page exports (`hf_download`'s `ident`): its key in
    the server-wide store, or a digest of the trace when the store does not keep it. Never
    the text "None", which every run the store does not keep would share: one press of the
    button would then stand for all of them."""
    key = run_key(trace)
    return key if key is not None else fingerprint("hf_export_run", trace)


def hf_download(model_of: Callable[[], object], page: str, name: str, ident: str | None) -> None:
    """A button that prepares the model (``model_of()``) as a tokenizer.json; once pressed,
    for this model (`ident`: its fingerprint or run key), the download button, or a caption
    saying why the model cannot be exported. The check runs only on request: for a Unigram
    model it searches thousands of words for ties (about a second), too long for a page
    that reruns at every step click. Keys: `name` on `page` (see _keys.widget_key)."""
    asked = widget_key(page, name)
    if st.session_state.get(asked) != ident or ident is None:
        st.button(
            "Export as a Hugging Face tokenizer.json", key=widget_key(page, f"{name}_ask"),
            help=HELP, on_click=st.session_state.__setitem__, args=(asked, ident),
        )  # fmt: skip
        return
    reason, notes, build = plan(model_of())
    if reason is not None:
        st.caption(f"No Hugging Face tokenizer.json for this model: {reason}")
        return
    st.download_button(
        LABEL, data=build, file_name="tokenizer.json", mime="application/json",
        key=widget_key(page, f"{name}_file"), help=HELP, on_click="ignore",
    )  # fmt: skip
    for note in notes:
        st.caption(note)


def downloads(
    trace,
    prefix: str,
    csv: tuple[str, Callable] = ("merges (CSV)", export.steps_csv),
    full: bool | None = None,
) -> None:
    """A CSV of the steps (`csv`: its button label and writer) and the trace as JSON (the
    full snapshots unless the trace is compact, or as `full` says), written only when a
    button is clicked."""
    st.subheader("Download")
    left, right = st.columns(2)
    label, write = csv
    left.download_button(
        label,
        lambda: write(trace),
        f"{prefix}_{label.split()[0]}.csv",
        "text/csv",
        key=widget_key(prefix, "dl_csv"),
        on_click="ignore",
    )
    right.download_button(
        "whole trace (JSON)",
        lambda: export.trace_to_json(trace, full=not trace.compact if full is None else full),
        f"{prefix}_trace.json",
        "application/json",
        key=widget_key(prefix, "dl_json"),
        on_click="ignore",
    )
