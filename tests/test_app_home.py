"""AppTest: the home page has a card for every lesson app.py registers (issue 25)."""

import re
from pathlib import Path

from apptools import APP
from streamlit.testing.v1 import AppTest

NOT_LESSONS = {"home", "join"}  # the home page itself; a student's page reached by a poll


def registered_pages() -> list[str]:
    """The pages of app.py's navigation, by file name (lessons/NAME.py)."""
    text = Path(APP).read_text(encoding="utf-8")
    return re.findall(r'st\.Page\(\s*"lessons/(\w+)\.py"', text)


def test_home_has_a_card_for_every_lesson():
    pages = registered_pages()
    assert {"bpe", "bytebpe", "notes", "join"} <= set(pages)
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    opening = "Learn the pieces with BPE"  # the word-level opening's link, no card
    cards = [el.proto.page for el in at.get("page_link") if el.proto.label != opening]
    assert sorted(cards) == sorted(p for p in pages if p not in NOT_LESSONS)
