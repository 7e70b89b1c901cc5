"""The app's side of `subtok warm` (subtok_core/warm.py): open one page headlessly, as a
browser's first request would, with Streamlit's AppTest. It lives beside the pages it opens,
not in the core (which never imports Streamlit), and the core loads it from the app it was
given (``--app``, or the app.py beside the package); a wheel installs no app, so no runner.

The core passes the page by address; which pages train runs, and their files, come from the
app's one list of pages (lessons/pages.py)."""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path

from streamlit.testing.v1 import AppTest

from lessons.pages import PAGES

BARE_MODE_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"


def lesson_pages() -> dict[str, str]:
    """The pages that train runs, by address: NAME (the page at /NAME) -> its file,
    relative to app.py (lessons/NAME/page.py); home, notes and the poll's join page train
    nothing."""
    return {p.url_path: p.file for p in PAGES if p.trains}


def _errors_only(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.ERROR


@contextmanager
def quiet():
    """AppTest's bare mode warns of a missing script context on every page: no news here.
    (A filter, not a level: Streamlit sets its loggers' levels again when it loads its
    config.)"""
    bare = logging.getLogger(BARE_MODE_LOGGER)
    bare.addFilter(_errors_only)
    try:
        yield
    finally:
        bare.removeFilter(_errors_only)


def open_page(app: Path, page: str, query: dict, timeout: float) -> tuple[list[str], list[str]]:
    """Run app.py with the address's parameters, then the page (its address, one of
    lesson_pages()), as a first request does; the page's warnings and its errors (an
    exception shown, or the page not finishing within `timeout` seconds)."""
    errors = []
    at = AppTest.from_file(str(app), default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    try:
        at.run()
        at.switch_page(lesson_pages()[page]).run()
    except RuntimeError:  # AppTest's timeout: it has stopped the page
        errors.append(f"the page did not finish within {timeout:g} s (see --timeout)")
    warnings = [element.value for element in at.warning]
    errors += [element.value for element in at.error]
    errors += [str(element.value) for element in at.exception]
    return warnings, errors
