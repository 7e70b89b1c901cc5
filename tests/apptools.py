"""Helpers for the AppTest files: open a lesson page (optionally with URL query params)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parents[1] / "app.py")


BROKEN = "Something went wrong on this page"  # app.py's guard: an unexpected exception


def open_page(page: str, **query) -> AppTest:
    """Run app.py, switch to `page` (e.g. "pages/bpe.py"), and check nothing raised."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert not broken(at), broken(at)
    return at


def broken(at: AppTest) -> list[str]:
    """The guard's messages on the page: exceptions the page did not handle."""
    return [e.value for e in at.error if e.value.startswith(BROKEN)]


def infos(at: AppTest) -> str:
    """The text of every st.info box, where the pages explain the current step."""
    return " ".join(i.value for i in at.info)
