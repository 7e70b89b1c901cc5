"""Real-browser tests: Playwright drives Debian's chromium against the running app."""

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=60_000)


def pick_from(page: Page, label: str, option: str) -> None:
    """Choose `option` in a select box. A deep link's first load can rerun the script
    once more (the URL's values reach the widgets), which redraws an open list under the
    pointer, so wait for quiet and try again if the list was redrawn."""
    for _attempt in range(3):
        settle(page)
        page.wait_for_timeout(1000)
        settle(page)
        page.get_by_role("combobox", name=label).click()
        choice = page.locator("[role=option]").filter(has_text=re.compile(f"^{option}$"))
        try:
            choice.click(timeout=5_000)
            settle(page)
            return
        except PlaywrightError:
            page.keyboard.press("Escape")
    raise AssertionError(f"could not choose {option!r} in {label!r}")


def test_deep_link_opens_merge_three_and_next_shows_the_fourth(page: Page, app_url: str):
    page.goto(f"{app_url}/bpe?corpus=toy:low-lower&marker=eow&step=3")
    settle(page)
    expect(page.get_by_text("Merge 3: the pair (est, </w>) occurs 9 times")).to_be_visible(
        timeout=30_000
    )
    page.locator(".st-key-bpe_step_next button").first.click()
    expect(
        page.get_by_text("Merge 4: the pair (l, o) occurs 7 times, tied with (o, w)")
    ).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"step=4"))
    # the charts are drawn by vega in the browser, not only sent
    expect(page.locator(".vega-embed canvas, .vega-embed svg").first).to_be_visible()
    # the page runs inside app.py's navigation (wide layout, lesson titles in the sidebar)
    expect(page.get_by_test_id("stSidebarNav").get_by_text("BPE", exact=True)).to_be_visible()


def test_wordpiece_deep_link_shows_the_tie_at_one_quarter(page: Page, app_url: str):
    page.goto(f"{app_url}/wordpiece?corpus=toy:sunflower&step=2")
    settle(page)
    expect(page.get_by_text("Merge 2: (##e, ##r) scores 1/4")).to_be_visible(timeout=30_000)
    page.locator(".st-key-wordpiece_step_next button").first.click()
    expect(page.get_by_text("Merge 3: (##e, ##d) scores 1/1")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"step=3"))
    expect(page.locator(".vega-embed canvas, .vega-embed svg").first).to_be_visible()


def test_unigram_deep_link_opens_the_m_step_and_the_choice_goes_to_the_url(
    page: Page, app_url: str
):
    page.goto(f"{app_url}/unigram?corpus=toy:run-bug&step=2")
    settle(page)
    expect(page.get_by_text("Round 1 · Pruning: the loss of removing each piece")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text("smallest increase: ru (+0.000), tied with un")).to_be_visible()
    pick_from(page, "Prune another piece this round", "un")
    page.get_by_role("button", name="Prune it now").click()
    settle(page)
    expect(page).to_have_url(re.compile(r"remove=un"))
    # the click goes on to the prune step, which removes the piece at once
    expect(page).to_have_url(re.compile(r"step=3"))
    expect(page.get_by_text("Pruned un (chosen by you)")).to_be_visible(timeout=30_000)
    expect(page.locator(".vega-embed canvas, .vega-embed svg").first).to_be_visible()


def test_compare_deep_link_trains_on_enwiki_and_draws_the_charts(page: Page, app_url: str):
    page.goto(f"{app_url}/compare?corpus=sample:enwiki&size=8000&tok=bpe,unigram")
    page.wait_for_selector(IDLE, timeout=240_000)
    expect(page.get_by_text("Token length", exact=True)).to_be_visible(timeout=240_000)
    expect(page.get_by_text("Unigram: ", exact=False).first).to_be_visible()
    # every chart of the page is drawn by vega in the browser
    charts = page.locator(".vega-embed canvas, .vega-embed svg")
    expect(charts.nth(5)).to_be_visible(timeout=60_000)
    expect(page).to_have_url(re.compile(r"tok=bpe(%2C|,)unigram"))


def test_compare_with_gpt4_and_mistral_draws_every_chart_and_outlines_byte_pieces(
    page: Page, app_url: str
):
    page.goto(f"{app_url}/compare?corpus=sample:lee&size=1000&tok=bpe,cl100k_base,mistral-v1")
    page.wait_for_selector(IDLE, timeout=240_000)
    expect(page.get_by_text("Token length", exact=True)).to_be_visible(timeout=240_000)
    expect(page.get_by_text("cl100k_base (GPT-4): ", exact=False).first).to_be_visible()
    expect(page.get_by_text("Mistral v1: ", exact=False).first).to_be_visible()
    # characters per token, the premium, five measures, one pair's frequency shifts and
    # the morphology alignment of 002's view
    charts = page.locator("[data-testid='stVegaLiteChart']")
    expect(charts).to_have_count(9, timeout=60_000)
    for n in range(9):
        charts.nth(n).scroll_into_view_if_needed()
        expect(charts.nth(n).locator("canvas, svg").first).to_be_visible(timeout=60_000)
    page.get_by_text("emoji and Chinese", exact=True).click()
    settle(page)
    expect(page.locator(".tok.part").first).to_be_visible(timeout=30_000)
    expect(page.get_by_text("holds only part of a character", exact=False)).to_be_visible()


def test_sage_deep_link_runs_on_a_small_sample_and_shows_the_verdict(page: Page, app_url: str):
    page.goto(f"{app_url}/sage?corpus=sample:crime&V=150&k=10&M=20&step=2")
    page.wait_for_selector(IDLE, timeout=240_000)
    expect(page.get_by_text("Step 2: the candidate set")).to_be_visible(timeout=240_000)
    # the loss curve is drawn by vega in the browser
    expect(page.locator(".vega-embed canvas, .vega-embed svg").first).to_be_visible()
    page.get_by_role("tab", name="BPE vs SaGe").click()
    expect(page.get_by_text("Which of the paper's trends")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^longer tokens: SaGe (yes|no)"))).to_be_visible()
    expect(page).to_have_url(re.compile(r"V=150"))


def test_unigram_seed_vocabulary_keeps_its_url_name_and_ignores_the_sage_seed(
    page: Page, app_url: str
):
    seed_box = page.get_by_role("combobox", name="seed vocabulary")
    page.goto(f"{app_url}/unigram?corpus=toy:run-bug&seed=frequent")
    settle(page)
    page.get_by_role("button", name="Settings").first.click()  # the settings popover
    page.get_by_text("Seed and pruning settings").click()
    expect(seed_box).to_have_value("frequent", timeout=30_000)
    pick_from(page, "seed vocabulary", "all")
    expect(page).to_have_url(re.compile(r"seed=all"))
    # a SaGe link binds ?seed= to Word2Vec's seed; it follows the student, not into Unigram
    page.goto(f"{app_url}/sage?corpus=sample:crime&V=60&seed=3")
    settle(page)
    expect(page.get_by_text("smaller than the 73 characters")).to_be_visible(timeout=60_000)
    page.get_by_test_id("stSidebarNav").get_by_text("Unigram LM").click()
    settle(page)
    page.get_by_role("button", name="Settings").first.click()  # the settings popover
    page.get_by_text("Seed and pruning settings").click()
    expect(seed_box).to_have_value("strict", timeout=30_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)
