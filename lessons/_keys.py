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


def current_page() -> str:
    """The URL path of the page running now ('bpe', 'sage', ...): the prefix of its keys."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    pages = get_script_run_ctx().pages_manager
    return pages.get_pages()[pages.current_page_script_hash]["url_pathname"]
