"""Real browser: the WordPiece corpus rows wrap inside their column instead of overflowing
(issue 14: sunflower's "× 1" cut at 1280 px, "##er" cut in half on a 390 px phone)."""

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"

# every chip box and count of the corpus and vocabulary against the box holding them
OVERFLOW = """() => [...document.querySelectorAll('.chips')].flatMap(box => {
    const edge = box.getBoundingClientRect().right + 0.5;
    return [...box.querySelectorAll('.chip, .count')]
        .filter(el => el.getBoundingClientRect().right > edge)
        .map(el => el.textContent);
})"""


@pytest.mark.parametrize("width", [1280, 390])
def test_wordpiece_corpus_chips_stay_inside_their_column(page: Page, app_url: str, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{app_url}/wordpiece?corpus=toy:sunflower&step=3")
    page.wait_for_selector(IDLE, timeout=60_000)
    page.locator(".word").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1000)
    assert page.locator(".word").count() == 8  # the eight words of sunflower
    assert page.evaluate(OVERFLOW) == []
    counts = page.locator(".word .count").all_inner_texts()
    assert [c.replace("\xa0", " ") for c in counts] == [
        "× 1", "× 2", "× 1", "× 1", "× 1", "× 2", "× 2", "× 1"
    ]  # fmt: skip
