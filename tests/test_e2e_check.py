"""Real browser: /check names the overlap bug of a pasted merge list, and its link opens
/bpe at that merge (the counts by hand: exercise runs, (a, a) 13 with overlap, (a, b) 8;
the list is the first two merges of test_check.py's no-overlap textbook loop, so the
re-training under that hypothesis reproduces it past the difference)."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def test_check_names_the_cause_and_links_into_the_lesson(page: Page, app_url: str):
    page.goto(f"{app_url}/check?data=exercise:runs")
    page.wait_for_selector(IDLE, timeout=60_000)
    box = page.get_by_label("or paste them, one merge per line ('a b')")
    box.fill("a b\na a\n")
    box.press("Control+Enter")
    expect(page.get_by_text("Cause: overlap.")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Merge 1: your list leaves the reference")).to_be_visible()
    # the table is drawn on a canvas; its accessible grid holds the marks in words
    expect(page.get_by_text("◀ yours").first).to_be_attached()
    expect(page.get_by_text("under this hypothesis your first 2 merges match")).to_be_visible()
    page.get_by_role("link", name="Open /bpe at merge 1").click()
    expect(page).to_have_url(re.compile(r"/bpe\?.*step=1"), timeout=30_000)
    expect(page.get_by_text("Merge 1: the pair (a, a) occurs 13 times")).to_be_visible(
        timeout=30_000
    )


def test_the_verdict_is_on_the_first_screen_after_a_paste(page: Page, app_url: str):
    """At the projector's 1280x720, a paste's verdict, its headline and its cause, shows
    without scrolling (issue 39: it started below the fold, under the formats' caption and
    the status box)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{app_url}/check?data=exercise:runs")
    page.wait_for_selector(IDLE, timeout=60_000)
    box = page.get_by_label("or paste them, one merge per line ('a b')")
    box.fill("a b\na a\n")
    box.press("Control+Enter")
    cause = page.get_by_text("Cause: overlap.")
    expect(cause).to_be_visible(timeout=30_000)
    page.wait_for_selector(IDLE, timeout=60_000)
    headline = page.get_by_text("Merge 1: your list leaves the reference")
    assert page.locator("[data-testid=stMain]").evaluate("main => main.scrollTop") == 0
    for part in (headline, cause):
        bottom = part.evaluate("el => el.getBoundingClientRect().bottom")
        assert bottom <= 720, f"{part} ends at {bottom} px"
