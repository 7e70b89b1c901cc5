"""Real-browser checks of issue 25's seams: nothing leaves the machine, and Compare's
charts keep their axis titles and legends on a phone."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=120_000)


@pytest.mark.parametrize("path", ["/", "/bpe?corpus=toy:cat-bat", "/notes"])
def test_no_request_leaves_the_machine(page: Page, app_url: str, path: str):
    """The favicon (and everything else a page loads) comes from the app's own server:
    a class offline, or behind a firewall, loses nothing."""
    hosts: list[str] = []
    page.on("request", lambda request: hosts.append(urlsplit(request.url).hostname or ""))
    page.goto(app_url + path)
    settle(page)
    expect(page.locator("h1").first).to_be_visible(timeout=30_000)
    page.wait_for_timeout(1500)  # the favicon is asked for after the first paint
    outside = sorted({h for h in hosts if h and h not in LOOPBACK})
    assert not outside, outside
