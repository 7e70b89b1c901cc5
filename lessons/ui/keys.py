"""Widget keys: every key not bound to the URL starts with its page."""

from __future__ import annotations

PAGES = (
    "bpe",
    "bytebpe",
    "wordpiece",
    "unigram",
    "sage",
    "compare",
    "join",
    "home",
    "check",
    "vocab",
    "picky",
    "superbpe",
    "boundless",
    "parity",
)  # key prefixes


def widget_key(page: str, name: str) -> str:
    """The key of a widget (or a value kept in the session) that is not bound to the URL.

    Every such key is made here: it starts with its page, so two pages never share one, and
    tests/test_app_keys.py checks that no two places make the same name on one page.
    Widgets bound to the URL (bind="query-params") keep their parameter name as key.

    >>> widget_key("bpe", "encode")
    'bpe_encode'
    """
    if page not in PAGES:
        raise ValueError(f"Widget keys start with a page ({', '.join(PAGES)}), not {page!r}.")
    return f"{page}_{name}"


CURRENT = "page_now"  # session: the URL path of the page st.navigation chose in this run


def enter_page(url_path: str) -> None:
    """Record the page st.navigation chose for this run (app.py, before anything reads it).

    Kept in the session: a fragment rerun (a step click) does not pass through app.py, and
    it runs on the page the last full run showed."""
    import streamlit as st

    st.session_state[CURRENT] = url_path


def current_page() -> str:
    """The URL path of the page running now ('bpe', 'sage', ...; '' the home page): the
    prefix of its keys."""
    import streamlit as st

    return st.session_state[CURRENT]
