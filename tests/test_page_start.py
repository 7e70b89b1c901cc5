"""A restarted server's first page (issue 39): a student's page loads neither SQLAlchemy
(the class poll's store, which only a browser holding a teacher key needs) nor pandas'
Styler and its templates (Compare's tables are formatted by the grid). Checked in a fresh
interpreter (sys.modules after the page), since this test process has imported
everything already."""

from __future__ import annotations

from _fresh import modules_after

NOT_LOADED = ("sqlalchemy", "subtok_core.rooms", "pandas.io.formats.style")


def loaded_by(page: str, **query: str) -> set[str]:
    """The modules a fresh interpreter holds after app.py and `page` ran once (AppTest)."""
    code = (
        "sys.path[:0] = ['tests', '.']\nfrom apptools import open_page\n"
        f"open_page({page!r}, **{query!r})"
    )
    return modules_after(code, 300)


def test_a_students_compare_loads_no_poll_store_and_no_styler():
    modules = loaded_by("lessons/compare/page.py", corpus="toy:cat-bat", size="12")
    assert "pandas" in modules and "subtok_core.compare" in modules  # the page did run
    assert not modules & set(NOT_LOADED), modules & set(NOT_LOADED)
