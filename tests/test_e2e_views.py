"""Real browser: each page opens on its own last view through the sidebar, and Back after a
page switch returns to the view left (see pages/_views.py for what Streamlit does)."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def settle(page: Page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=60_000)


def sidebar(page: Page, title: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
    settle(page)


def test_pages_keep_their_views_and_back_returns_to_the_last_one(page: Page, app_url: str):
    page.goto(f"{app_url}/bpe?corpus=toy:low-lower&step=5")
    settle(page)
    bpe_five = page.get_by_text("Merge 5: the pair (lo, w) occurs 7 times")
    expect(bpe_five).to_be_visible(timeout=30_000)

    sidebar(page, "WordPiece")  # sunflower, before its first merge, a bare address
    expect(page.get_by_text("Before the first merge").first).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/wordpiece$"))

    sidebar(page, "BPE")  # as it was left, and the address says so
    expect(bpe_five).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/bpe\?corpus=toy%3Alow-lower&step=5$"))

    sidebar(page, "WordPiece")
    expect(page).to_have_url(re.compile(r"/wordpiece$"))
    page.go_back()
    settle(page)
    expect(bpe_five).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/bpe\?corpus=toy%3Alow-lower&step=5$"))
