"""subtok: the frame. Page config, navigation over pages/, the shared sidebar."""

import streamlit as st

st.set_page_config(
    page_title="subtok: subword tokenization lab", page_icon=":material/text_fields:", layout="wide"
)

LESSONS = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/bpe.py", title="BPE", icon=":material/join_inner:", url_path="bpe"),
    st.Page(
        "pages/wordpiece.py", title="WordPiece", icon=":material/percent:", url_path="wordpiece"
    ),
    st.Page(
        "pages/unigram.py", title="Unigram LM", icon=":material/content_cut:", url_path="unigram"
    ),
    st.Page("pages/sage.py", title="SaGe", icon=":material/hub:", url_path="sage"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare:", url_path="compare"),
]

page = st.navigation(LESSONS)
with st.sidebar:
    st.caption(
        "subtok shows how subword tokenizers learn their vocabulary, one step at a time. "
        "Every number on these pages is computed from the corpus you choose."
    )
page.run()
