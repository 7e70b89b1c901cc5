"""AppTest: the home page has a card for every lesson app.py registers (issue 25)."""

import sys
from pathlib import Path

from apptools import APP
from streamlit.testing.v1 import AppTest

NOT_LESSONS = {"home", "join"}  # the home page itself; a student's page reached by a poll


def registered_pages() -> list[str]:
    """The pages of app.py's navigation (lessons/pages.py), by address."""
    sys.path.insert(0, str(Path(APP).parent))
    from lessons.pages import PAGES

    return [page.url_path for page in PAGES]


def test_home_has_a_card_for_every_lesson():
    pages = registered_pages()
    assert {"bpe", "bytebpe", "notes", "join"} <= set(pages)
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    opening = "Learn the pieces with BPE"  # the word-level opening's link, no card
    cards = [el.proto.page for el in at.get("page_link") if el.proto.label != opening]
    assert sorted(cards) == sorted(p for p in pages if p not in NOT_LESSONS)
