"""subtok: the frame. Page config, navigation over lessons/, the shared sidebar, and the
guard every page runs inside (lessons/ui/guard.py)."""

from pathlib import Path

import streamlit as st

from lessons import pages
from lessons.poll import teacher
from lessons.ui import a11y, present
from lessons.ui.guard import guarded
from lessons.ui.keys import enter_page
from lessons.ui.sessions import start_sweeper
from lessons.ui.view_memory import open_view

# the favicon is a file of ours: a material icon or an emoji as page_icon is fetched from
# the internet by the browser, which a classroom offline or behind a firewall cannot reach
FAVICON = str(Path(__file__).parent / "subtok_core" / "data" / "favicon.png")
st.set_page_config(page_title="subtok: subword tokenization lab", page_icon=FAVICON, layout="wide")

LESSONS = [
    st.Page(p.file, title=p.title, icon=p.icon, url_path=p.url_path, default=p is pages.HOME)
    for p in pages.PAGES
]

start_sweeper()  # closed tabs' sessions and files go: lessons/ui/sessions.py
# every page listed: past twelve Streamlit folds the list after ten behind "View more",
# which hid Compare, /check and Join a poll once the BPE variants came in
page = st.navigation(LESSONS, expanded=True)
enter_page(page.url_path)  # the page running now, for lessons/ui/view_memory.py and the keys
with st.sidebar:
    st.caption(
        "subtok shows how subword tokenizers learn their vocabulary, one step at a time. "
        "Every number on these pages is computed from the corpus you choose."
    )
open_view()  # the page's own last view, not the last page's (lessons/ui/view_memory.py)
teacher.page_hook(page.url_path)  # a teacher's class follows this page: lessons/poll/teacher.py
present.frame()
a11y.frame()  # contrast, screen-reader text: lessons/ui/a11y.py
guarded(page.run, page.url_path)  # no exception reaches the browser: lessons/ui/guard.py
