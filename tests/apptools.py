"""Helpers for the AppTest files: open a lesson page (optionally with URL query params)."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parents[1] / "app.py")


BROKEN = "Something went wrong on this page"  # app.py's guard: an unexpected exception


def open_page(page: str, **query) -> AppTest:
    """Run app.py, switch to `page` (e.g. "lessons/bpe/page.py"), and check nothing raised."""
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
    """The text of every st.info box, where the pages explain the current step, as the
    browser shows it (markdown's backslash escapes read: the pages escape a student's
    symbols, lessons/ui/escape.py plain)."""
    return re.sub(r"\\(.)", r"\1", " ".join(i.value for i in at.info))


def seeds_dir() -> Path:
    """The course material (../shared/seeds beside the repository, or SUBTOK_SEEDS): the
    tests that find the material's printed numbers in its text read it from here. A clone
    made where the material is not beside it skips them, saying why."""
    import os

    import pytest

    candidates = [Path(os.environ["SUBTOK_SEEDS"])] if os.environ.get("SUBTOK_SEEDS") else []
    candidates += [parent / "shared" / "seeds" for parent in Path(__file__).resolve().parents]
    for path in candidates:
        if path.is_dir():
            return path
    pytest.skip("the course material (shared/seeds) is not beside this clone; set SUBTOK_SEEDS")
