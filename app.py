"""subtok: the frame. Page config, navigation over lessons/, the shared sidebar, and the
guard every page runs inside (lessons/_guard.py)."""

from pathlib import Path

import streamlit as st

from lessons import _a11y, _present
from lessons._guard import guarded
from lessons._keys import enter_page
from lessons._views import open_view

# the favicon is a file of ours: a material icon or an emoji as page_icon is fetched from
# the internet by the browser, which a classroom offline or behind a firewall cannot reach
FAVICON = str(Path(__file__).parent / "subtok_core" / "data" / "favicon.png")
st.set_page_config(page_title="subtok: subword tokenization lab", page_icon=FAVICON, layout="wide")

LESSONS = [
    st.Page("lessons/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("lessons/bpe.py", title="BPE", icon=":material/join_inner:", url_path="bpe"),
    st.Page(
        "lessons/bytebpe.py", title="Byte-level BPE", icon=":material/memory:", url_path="bytebpe"
    ),
    st.Page(
        "lessons/wordpiece.py", title="WordPiece", icon=":material/percent:", url_path="wordpiece"
    ),
    st.Page(
        "lessons/unigram.py", title="Unigram LM", icon=":material/content_cut:", url_path="unigram"
    ),
    st.Page("lessons/sage.py", title="SaGe", icon=":material/hub:", url_path="sage"),
    st.Page("lessons/compare.py", title="Compare", icon=":material/compare:", url_path="compare"),
    st.Page(
        "lessons/check.py", title="Check your BPE", icon=":material/fact_check:", url_path="check"
    ),
    st.Page(
        "lessons/vocab.py",
        title="Inside a vocabulary",
        icon=":material/dictionary:",
        url_path="vocab",
    ),
    st.Page(
        "lessons/notes.py", title="Notes on the material", icon=":material/rule:", url_path="notes"
    ),
    # last: a student's page, reached by the link or QR code of a class poll, listed for
    # the student who has only the room code read off the projector
    st.Page("lessons/join.py", title="Join a poll", icon=":material/how_to_vote:", url_path="join"),
]

page = st.navigation(LESSONS)
enter_page(page.url_path)  # the page running now, for lessons/_views.py and the keys
with st.sidebar:
    st.caption(
        "subtok shows how subword tokenizers learn their vocabulary, one step at a time. "
        "Every number on these pages is computed from the corpus you choose."
    )
open_view()  # the page's own last view, not the last page's (lessons/_views.py)
_present.frame()
_a11y.frame()  # contrast, screen-reader text: lessons/_a11y.py
guarded(page.run, page.url_path)  # no exception reaches the browser: lessons/_guard.py
