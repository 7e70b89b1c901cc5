"""Real browser: each page opens on its own last view through the sidebar, and Back after a
page switch returns to the view left (see lessons/ui/view_memory.py for what Streamlit does)."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# a corpus chosen brings its own settings (004's marker, tie rule and merges), and the
# address names them (issue 39: a link names what it shows, a default too)
# /bpe as the test left it, named whole when the sidebar brings it back
LOW_FIVE = re.compile(r"/bpe\?corpus=toy%3Alow-lower&marker=eow&ties=first&merges=10&step=5$")
SUNFLOWER = re.compile(r"/wordpiece\?corpus=toy%3Asunflower&ties=first&merges=10$")
EOW = "marker=eow&ties=first&merges=10$"  # 003's and 004's settings
FOX = re.compile(r"/bpe\?corpus=toy%3Afox&marker=eow&ties=first&merges=10$")
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
    expect(page).to_have_url(LOW_FIVE)

    sidebar(page, "WordPiece")  # a page seen before comes back with its view named whole
    expect(page).to_have_url(SUNFLOWER)
    page.go_back()
    settle(page)
    expect(bpe_five).to_be_visible(timeout=30_000)
    expect(page).to_have_url(LOW_FIVE)


def open_settings(page: Page) -> None:
    """Open the lesson's Settings popover (where the corpus is chosen), unless it is open."""
    if not page.get_by_role("combobox", name="corpus", exact=True).is_visible():
        page.get_by_role("button", name="Settings").first.click()


def choose_corpus(page: Page, name: str) -> None:
    open_settings(page)
    page.get_by_role("combobox", name="corpus", exact=True).click()
    page.get_by_role("option", name=name, exact=True).click()
    settle(page)


def test_back_after_a_new_corpus_returns_to_the_last_corpus_at_its_step(page: Page, app_url: str):
    """Streamlit's browser side rewrites the history entry of the view shown when a bound
    widget changes (the new corpus at the old step), then the page's reset to step 0
    pushes the new view: Back lands on the rewritten entry, which must show the view it
    held (lessons/ui/view_memory.py, note_rewritten), not fox at merge 4."""
    page.goto(f"{app_url}/bpe?corpus=toy:low-lower&step=3")
    settle(page)
    expect(page.get_by_text("Merge 3: the pair (est, </w>) occurs 9 times")).to_be_visible(
        timeout=30_000
    )
    page.get_by_role("button", name="chevron_right").click()  # the step's next button
    low_four = page.get_by_text("Merge 4: the pair (l, o) occurs 7 times")
    expect(low_four).to_be_visible(timeout=30_000)
    settle(page)

    choose_corpus(page, "toy:fox")  # a new corpus starts before its first merge
    expect(page).to_have_url(re.compile(FOX), timeout=30_000)
    expect(page.get_by_text("Before the first merge").first).to_be_visible()

    page.go_back()
    settle(page)
    expect(low_four).to_be_visible(timeout=30_000)
    # Back onto the entry the browser rewrote brings the view it held, and names its settings
    expect(page).to_have_url(re.compile(r"corpus=toy%3Alow-lower&step=4&" + EOW), timeout=30_000)
    page.go_back()
    settle(page)
    expect(page.get_by_text("Merge 3: the pair (est, </w>) occurs 9 times")).to_be_visible(
        timeout=30_000
    )
    page.go_forward()
    settle(page)
    expect(low_four).to_be_visible(timeout=30_000)
    page.go_forward()
    settle(page)
    expect(page).to_have_url(re.compile(FOX), timeout=30_000)
    expect(page.get_by_text("Before the first merge").first).to_be_visible()


def test_a_new_corpus_chosen_at_step_0_keeps_its_own_entry_on_forward(page: Page, app_url: str):
    """At step 0 a new corpus adds its settings to the address, in one new entry: Back
    shows the last corpus at step 0 (the view the rewritten entry held), Forward the new
    corpus, each once."""
    page.goto(f"{app_url}/bpe?corpus=toy:low-lower&step=2")
    settle(page)
    expect(page.get_by_text("Merge 2:").first).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="first_page").click()  # step 0: a pushed entry
    expect(page).to_have_url(re.compile(r"/bpe\?corpus=toy%3Alow-lower$"), timeout=30_000)
    settle(page)
    choose_corpus(page, "toy:fox")
    expect(page).to_have_url(re.compile(FOX), timeout=30_000)
    page.go_back()
    settle(page)
    expect(page).to_have_url(re.compile(r"corpus=toy(%3A|:)low-lower&" + EOW), timeout=30_000)
    expect(page.get_by_text("Before the first merge").first).to_be_visible(timeout=30_000)
    page.go_back()
    settle(page)
    # the entry the test opened: the page names the settings it shows in it
    expect(page).to_have_url(
        re.compile(r"corpus=toy(%3A|:)low-lower&step=2&" + EOW), timeout=30_000
    )
    expect(page.get_by_text("Merge 2:").first).to_be_visible(timeout=30_000)
    page.go_forward()
    settle(page)
    page.go_forward()
    settle(page)
    expect(page).to_have_url(re.compile(FOX), timeout=30_000)
    expect(page.get_by_text("Before the first merge").first).to_be_visible(timeout=30_000)
    open_settings(page)
    expect(page.get_by_role("combobox", name="corpus", exact=True)).to_have_value("toy:fox")


def test_a_shared_link_keeps_naming_its_defaults(page: Page, app_url: str):
    """Issue 39: /wordpiece?corpus=toy:sunflower&step=2 became /wordpiece?step=2 (the
    corpus is the page's default, which Streamlit took out of the address), so the link
    would show another corpus once the default changed. Every parameter it names stays."""
    page.goto(f"{app_url}/wordpiece?corpus=toy:sunflower&step=2&ties=first&merges=10")
    settle(page)
    expect(page.get_by_text("Merge 2: (##e, ##r) scores 1/4").first).to_be_visible(timeout=30_000)
    page.wait_for_timeout(1_000)
    expect(page).to_have_url(
        re.compile(r"/wordpiece\?corpus=toy(%3A|:)sunflower&step=2&ties=first&merges=10$")
    )
    page.get_by_role("button", name="chevron_right").click()  # the next step keeps them too
    settle(page)
    expect(page).to_have_url(
        re.compile(r"/wordpiece\?corpus=toy(%3A|:)sunflower&step=3&ties=first&merges=10$")
    )
