"""subtok: the frame. Page config, navigation over pages/, the shared sidebar, and the
guard every page runs inside (pages/_guard.py)."""

import streamlit as st

from pages import _present
from pages import _widgets as w
from pages._guard import guarded

st.set_page_config(
    page_title="subtok: subword tokenization lab", page_icon=":material/text_fields:", layout="wide"
)

LESSONS = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/bpe.py", title="BPE", icon=":material/join_inner:", url_path="bpe"),
    st.Page(
        "pages/bytebpe.py", title="Byte-level BPE", icon=":material/memory:", url_path="bytebpe"
    ),
    st.Page(
        "pages/wordpiece.py", title="WordPiece", icon=":material/percent:", url_path="wordpiece"
    ),
    st.Page(
        "pages/unigram.py", title="Unigram LM", icon=":material/content_cut:", url_path="unigram"
    ),
    st.Page("pages/sage.py", title="SaGe", icon=":material/hub:", url_path="sage"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare:", url_path="compare"),
    st.Page(
        "pages/notes.py", title="Notes on the material", icon=":material/rule:", url_path="notes"
    ),
    # last: a student's page, reached by the link or QR code of a class poll, listed for
    # the student who has only the room code read off the projector
    st.Page("pages/join.py", title="Join a poll", icon=":material/how_to_vote:", url_path="join"),
]

page = st.navigation(LESSONS)
with st.sidebar:
    st.caption(
        "subtok shows how subword tokenizers learn their vocabulary, one step at a time. "
        "Every number on these pages is computed from the corpus you choose."
    )
w.open_view()  # the page's own last view, not the last page's (pages/_views.py)
_present.frame()
guarded(page.run, page.url_path)  # no exception reaches the browser: pages/_guard.py
