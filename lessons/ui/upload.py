"""An uploaded file read once per server for its content: its text checked (UTF-8, 20 MB),
what a page makes of it (lines, word counts) kept in the server-wide store, and an upload's
word counts cut to its first lines before a long training."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import streamlit as st

from lessons.ui.escape import plain
from lessons.ui.estimate import upload_notice
from lessons.ui.store import trace_store
from subtok_core import corpus

DIGESTS = "upload_digest"  # session: (file_id, SHA-256) of the last upload hashed


def counted_upload(
    upload, split: bool, prefix: str, algorithm: str | None, size: int
) -> corpus.WordCounts:
    """An upload's word counts (`split`: punctuation split off), read and counted once per
    server for the file's content (a 20 MB file took 3 s of the server on every rerun).
    Before a long training (`algorithm` to `size`, estimated from bench/scaling.py's
    figures) the page says how long and offers its first lines, counted once likewise."""
    file = upload.name
    wc, n_lines = parsed_upload(
        upload,
        f"counts {split}",
        lambda text: (corpus.from_text(text, split, file), len(text.splitlines())),
    )
    if not algorithm:
        return wc
    keep = upload_notice(wc, algorithm, size, n_lines=n_lines, page=prefix)
    if keep is None or keep >= n_lines:
        return wc
    name = f"{file} (first {keep:,} lines)"
    return parsed_upload(
        upload,
        f"counts {split} {keep}",
        lambda text: corpus.from_text("\n".join(text.splitlines()[:keep]), split, name),
    )


def parsed_upload(upload, what: str, parse: Callable[[str], Any]) -> Any:
    """`parse(text)` of an uploaded file (`what`: what parse makes, in its key), done once
    per server for the file's content and kept in the server-wide store, in memory only,
    within its budget; ValueError when the file is no UTF-8 text."""
    key = ("upload", upload_digest(upload), upload.name, what)

    def compute(report) -> Any:
        return parse(corpus.decode_upload(upload.getvalue(), upload.name))

    store = trace_store()
    found = store.cached(key)
    if found is None:  # read and counted here (or by another tab now): a few seconds at most
        with st.spinner(f"Reading {plain(upload.name)} ..."):
            found = store.get(key, compute, on_disk=False)
    return found


def upload_digest(upload) -> str:
    """The SHA-256 of an uploaded file's content, hashed once per upload (by its file_id)."""
    memo = st.session_state.get(DIGESTS, ("", ""))
    if memo[0] != upload.file_id:
        memo = st.session_state[DIGESTS] = (
            upload.file_id,
            hashlib.sha256(upload.getvalue()).hexdigest(),
        )
    return memo[1]


def read_upload(upload) -> str | None:
    """The text of an uploaded file; None after an st.error with the core's sentence when
    it is no UTF-8 text (binary, another encoding, empty, over 20 MB)."""
    try:
        return corpus.decode_upload(upload.getvalue(), upload.name)
    except ValueError as err:
        st.error(plain(str(err)))
        return None
