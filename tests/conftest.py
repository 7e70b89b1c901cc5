"""Shared fixtures: a running app for the real-browser tests, Debian's chromium for Playwright."""

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import streamlit as st

ROOT = Path(__file__).parents[1]
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Playwright drives Debian's chromium: never a browser downloaded by playwright."""
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def app_url():
    """Start `streamlit run app.py` on a free loopback port; stop it after the session."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (see .ci/run)")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as resp:
                    if resp.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the app did not answer /_stcore/health within 60 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def clear_every_cache() -> None:
    """Empty st.cache_data and st.cache_resource; the server-wide trace store
    (pages._widgets.trace_store) is a cache_resource, so it goes with them."""
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Streamlit's caches and the trace store outlive an AppTest; every test starts and
    ends with them empty (a test that shares them between sessions does so on purpose)."""
    clear_every_cache()
    yield
    clear_every_cache()


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
