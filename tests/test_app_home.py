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
    # the word-level opening's link and the students' page under "Teach a class": no cards
    not_cards = {"Learn the pieces with BPE", "Join a poll (students)"}
    cards = [el.proto.page for el in at.get("page_link") if el.proto.label not in not_cards]
    assert sorted(cards) == sorted(p for p in pages if p not in NOT_LESSONS)


def test_home_says_a_class_can_follow_on_phones_and_how():
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert "Teach a class" in [h.value for h in at.header]
    (said,) = [m.value for m in at.markdown if "phones" in m.value]
    assert "**Class poll**" in said and "Alt+Q" in said and "QR code" in said
    links = {el.proto.label: el.proto.page for el in at.get("page_link")}
    assert links["Join a poll (students)"].endswith("join")
