"""Real browser, keyboard and screen reader (issue 31): Tab reaches the step controls in
reading order, a focused button keeps Space and Enter for itself, the lesson's keys step
and play, the step sentence is a live region updated in place, chips read as their text
and count, and at 200% zoom on a 1280x720 screen nothing scrolls sideways."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
BPE3 = "/bpe?corpus=toy:low-lower&marker=eow&step=3"
CONTROLS = ["first", "prev", "slider", "next", "last", "play", "poll", "keys"]
# which step control holds the focused element (None: something else)
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el) return null;
  if (el.closest('.st-key-step')) return 'slider';
  if (el.closest('.st-key-bpe_poll_jump')) return 'poll';  // the "Class poll" button
  const box = el.closest('[class*="st-key-bpe_step_"]');
  if (box) return box.className.match(/st-key-bpe_step_(\\w+)/)[1];
  const pop = el.closest('[data-testid=stPopover]');  // Keys, not the Settings popover
  if (pop && pop.innerText.includes('Keys')) return 'keys';
  return null;
}"""


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(800)
    page.wait_for_selector(IDLE, timeout=60_000)


def unfocus(page: Page) -> None:
    """Nothing focused: the next Tab starts from the top of the page."""
    page.evaluate("document.activeElement && document.activeElement.blur()")


def tab_order(page: Page, presses: int = 80) -> list[str]:
    """The step controls in the order Tab reaches them from the top of the page."""
    unfocus(page)
    seen: list[str] = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        name = page.evaluate(FOCUSED)
        if name and name not in seen:
            seen.append(name)
        if name == "keys":
            break
    return seen


def test_the_keyboard_path_through_a_lesson(page: Page, app_url: str):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + BPE3)
    settle(page)
    said = page.get_by_role("status").filter(has_text="Merge 3: the pair (est, </w>)")
    expect(said).to_be_visible()
    assert tab_order(page) == CONTROLS  # every control by Tab, in reading order

    # Space and Enter press the focused button (the browser's keys), never "play"
    page.locator(".st-key-bpe_step_next button").first.focus()
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"step=4"), timeout=30_000)
    settle(page)
    expect(page.get_by_test_id("stRadio")).to_have_count(0)  # not playing

    # the step sentence is a live region (role=status) updated in place: a screen reader
    # hears the new step (a node replaced by a new one would not be announced)
    page.evaluate("document.querySelector('[role=status]').dataset.seen = 'before'")
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"step=5"), timeout=30_000)
    live = page.locator("[role=status][data-seen=before]")
    expect(live).to_contain_text("Merge 5", timeout=30_000)

    # the slider keeps its own arrows: one step, not two
    page.locator(".st-key-step input[type=range]").focus()
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"step=4"), timeout=30_000)
    settle(page)
    expect(page).to_have_url(re.compile(r"step=4"))

    # Alt+P plays and pauses; the Keys list says so
    unfocus(page)
    page.keyboard.press("Alt+P")
    expect(page.get_by_test_id("stRadio")).to_have_count(1, timeout=30_000)
    page.keyboard.press("Alt+P")
    expect(page.get_by_test_id("stRadio")).to_have_count(0, timeout=30_000)
    page.get_by_role("button", name="Keys").click()
    keys = page.get_by_test_id("stPopoverBody")
    for key in ("Alt+P", "Home / End", "← / →", "Alt+Q"):
        expect(keys.get_by_role("cell", name=key)).to_be_visible()
    page.keyboard.press("Escape")

    # Alt+Q unfolds the class poll under the step and brings it into view
    unfocus(page)
    page.keyboard.press("Alt+Q")
    start = page.get_by_role("button", name="Open a class poll")
    expect(start).to_be_in_viewport(timeout=30_000)


def test_chips_read_as_their_text_and_count(page: Page, app_url: str):
    page.goto(app_url + BPE3)
    settle(page)
    word = page.locator(".word").filter(has_text="est").first
    expect(word.locator(".count")).to_have_attribute("aria-hidden", "true")  # not "x 6"
    assert re.fullmatch(r", \d+ times?", word.locator(".sr-only").last.inner_text())
    new = page.locator(".chip.new").first  # the newest symbol: outlined, and said
    assert "double" in new.evaluate("el => getComputedStyle(el).borderStyle")
    assert "new symbol" in new.evaluate("el => el.nextElementSibling.textContent")


@pytest.mark.parametrize("path", [BPE3, BPE3 + "&present=1"])
def test_at_200_percent_zoom_nothing_scrolls_sideways(browser: Browser, app_url: str, path):
    """200% zoom of a 1280x720 screen: a 640x360 CSS-pixel window drawn at scale 2."""
    zoomed = browser.new_context(viewport={"width": 640, "height": 360}, device_scale_factor=2)
    try:
        page = zoomed.new_page()
        page.goto(app_url + path)
        settle(page)
        expect(page.get_by_role("status").filter(has_text="Merge 3")).to_be_visible()
        wide = page.evaluate(
            "Math.max(document.documentElement.scrollWidth, "
            "document.querySelector('[data-testid=stMain]').scrollWidth)"
        )
        assert wide <= 640, f"the page is {wide} px wide at 200% zoom"
        for part in (page.locator(".st-key-step"), page.get_by_role("status").first):
            box = part.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 640, box
        for name in ("first", "prev", "next", "last", "play"):
            box = page.locator(f".st-key-bpe_step_{name}").bounding_box()
            assert box and box["x"] + box["width"] <= 640, (name, box)
    finally:
        zoomed.close()
