"""A shipped corpus's lines (a toy, a real sample, an exercise) and their fingerprint, read
and hashed once per server.

The lines are what Byte-level BPE trains on and what Compare measures on; their
fingerprint (subtok_core.keys) is the corpus's part of the runs' and tables' keys, so a
sample whose text changed under the same name (a new gensim) never gets an old run. Kept
with st.cache_resource and shared as they are: a tuple nobody can change, so no session
pays for a copy (st.cache_data unpickled the lines on every run) or for hashing them again
(some 10 ms a run on a real sample).
"""

from __future__ import annotations

import streamlit as st

from subtok_core import corpus
from subtok_core.keys import fingerprint


@st.cache_resource(max_entries=32, show_spinner=False)
def shipped_lines(name: str) -> tuple[tuple[str, ...], str]:
    """The lines of the shipped corpus `name` (a toy's table as running text, each word
    repeated as often as it counts) and their fingerprint."""
    lines = tuple(corpus.load_lines(name))
    return lines, fingerprint(lines)


@st.cache_resource(max_entries=32, show_spinner=False)
def shipped_print(name: str) -> str:
    """The fingerprint of shipped_lines(name)'s lines without reading them when the disk
    cache keeps it (a real sample: subtok_core/corpus/kept.py; reading and hashing
    enwiki's lines cost a restarted Compare some 0.3 s when every table is kept)."""
    if name.startswith("sample:"):
        return corpus.sample_lines_print(name.removeprefix("sample:"))
    return shipped_lines(name)[1]
