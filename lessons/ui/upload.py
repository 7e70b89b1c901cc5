"""An uploaded file read once per server for its content: its text checked (UTF-8, 20 MB),
what a page makes of it (lines, word counts, a tokenizer) kept in the server-wide store,
held by the sessions that use it and let go when each ends, and an upload's word counts cut
to its first lines before a long training.

A session holds what it uses through its holder (`holder()`): a session-scoped resource,
which Streamlit releases when the session's tab disconnects (closed, reloaded, gone); its
release lets go of everything the session held, and the store drops what nobody holds
any more. A session that comes back (a reconnect) runs its page again and holds again.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from lessons.ui.escape import plain
from lessons.ui.estimate import upload_notice
from lessons.ui.store import TraceStore, trace_store
from subtok_core import corpus, memory

DIGESTS = "upload_digest"  # session: (file_id, SHA-256) of the last upload hashed
HELD = "upload_held"  # session: slot -> the key of the store it holds there (held())
TOKEN = "upload_holder"  # session: the token this session holds uploads under (holder())
# what a page makes of a corpus file, per byte of the file, estimated before it is read: a
# 19 MB text's word counts grew the process by 85 MB (4.5 per byte), its lines by 53 MB
TEXT_PER_BYTE = 5


@dataclass(frozen=True)
class Holder:
    """One session's hold on what it uses in the store (its token: the session's own)."""

    store: TraceStore
    token: str


def _let_go(holder: Holder) -> None:
    """The session's tab went: it lets go of everything; the memory of what was dropped
    goes back to the system (a parsed tokenizer's big blocks otherwise stay in the heap)."""
    if holder.store.release(holder.token):
        memory.give_back()


@st.cache_resource(scope="session", on_release=_let_go, show_spinner=False)
def _watched(token: str) -> Holder:
    """The holder of `token`, in this session's resource cache: Streamlit clears it (and
    `_let_go` lets go of what the token holds) when the session disconnects or ends."""
    return Holder(trace_store(), token)


def holder() -> Holder:
    """This session's holder (its token kept in the session: a session that reconnects
    after its cache was cleared holds again under the same token)."""
    token = st.session_state.setdefault(TOKEN, uuid.uuid4().hex)
    return _watched(token)


def held(slot: str, key: Hashable, build: Callable[[], Any], size: int, reading: str = "") -> Any:
    """The value under `key` in the store, built once per server (`build()`, under a
    spinner saying `reading` if given, when its estimated `size` fits in the budget: else a
    ValueError with a sentence, and nothing built) and held by this session in `slot` (a
    page's upload): what the slot held before is let go."""
    mine = holder()
    found = mine.store.held_value(key, mine.token)  # every rerun: held already
    if found is not None:
        value = found[0]
    elif reading:
        with st.spinner(reading):
            value = mine.store.hold(key, build, size, mine.token)
    else:
        value = mine.store.hold(key, build, size, mine.token)
    slots = st.session_state.setdefault(HELD, {})
    before = slots.get(slot)
    if before is not None and before != key:
        mine.store.release(mine.token, before)
    slots[slot] = key
    return value


def held_again(slot: str, key: Hashable) -> Any | None:
    """The value under `key` if the store still keeps it for some session, now held by
    this one in `slot` too; None when nobody held it any more (this session's hold was let
    go when its tab disconnected, and the value dropped)."""
    mine = holder()
    found = mine.store.held_value(key, mine.token)
    if found is None:
        return None
    st.session_state.setdefault(HELD, {})[slot] = key
    return found[0]


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
        "counts",
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
        "counts cut",
    )


def parsed_upload(upload, what: str, parse: Callable[[str], Any], slot: str | None = None) -> Any:
    """`parse(text)` of an uploaded file (`what`: what parse makes, in its key), done once
    per server for the file's content and held in the server-wide store by the sessions
    using it (in their `slot`, `what` if not given: see held); ValueError when the file is
    no UTF-8 text, or when it cannot fit in the store's budget (then it is not read)."""
    key = ("upload", upload_digest(upload), upload.name, what)

    def build() -> Any:
        return parse(corpus.decode_upload(upload.getvalue(), upload.name))

    reading = f"Reading {plain(upload.name)} ..."  # a few seconds at most, once
    return held(slot or what, key, build, TEXT_PER_BYTE * upload.size, reading)


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
