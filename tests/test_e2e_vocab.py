"""Real-browser tests of /vocab (the card by deep link, the health view) and of Compare's
whitespace toggle and hover, drawn by chromium."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
TOY = "corpus=toy:cat-bat&size=12"


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=120_000)


def test_card_by_deep_link_and_the_health_view(page: Page, app_url: str):
    page.goto(f"{app_url}/vocab?tok=cl100k_base&id=15339&{TOY}")
    settle(page)
    expect(page.get_by_text("cl100k_base (GPT-4), id 15339")).to_be_visible(timeout=60_000)
    tree = page.locator("ul.tree").first
    expect(tree).to_contain_text("rank 15,339")  # the root: the token's own rank
    expect(tree.locator(".part").first).to_have_text("hello")
    health = page.get_by_text("Vocabulary health", exact=True)
    health.scroll_into_view_if_needed()
    expect(health).to_be_visible(timeout=60_000)
    # an example of each category links to its card: cl100k_base's first special token
    link = page.get_by_role("link", name="<|endoftext|>").first
    expect(link).to_have_attribute("href", re.compile(r"vocab\?tok=cl100k_base&id=100257"))
    page.goto(f"{app_url}/vocab?tok=cl100k_base&id=100257&{TOY}")
    settle(page)
    expect(page.get_by_text("cl100k_base (GPT-4), id 100257")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("special: A control token").first).to_be_visible()


def test_show_whitespace_and_hover_on_compare(page: Page, app_url: str):
    page.goto(f"{app_url}/compare?{TOY}&tok=bpe,cl100k_base&text=cats%20bag")
    settle(page)
    row = page.locator("div[class^='tokrow-']").filter(has_text="bag").last  # cl100k_base's
    expect(row.locator("a.t1")).to_have_text(" bag", timeout=60_000)
    page.get_by_text("show whitespace").click()
    settle(page)
    row = page.locator("div[class^='tokrow-']").last
    expect(row.locator("a.t1")).to_have_text("·bag")
    # hovering the token lights its characters in the text line above it
    chars = row.locator(".textline .t1")
    assert chars.evaluate("e => getComputedStyle(e).outlineStyle") == "none"
    row.locator("a.t1").hover()
    assert chars.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    expect(page).to_have_url(re.compile(r"text=cats(\+|%20)bag"))
