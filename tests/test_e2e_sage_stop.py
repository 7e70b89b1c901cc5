"""Streamlit's own Stop (top right) during a SaGe run ends where the page's Stop does
(issue 39): a sentence that says so, the finished steps, and "Run again". Before, the page
stayed on the status box with its clock stopped until the student clicked something."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# Lee's sample, BPE to 1.2 x 400 = 480 pieces, pruned 10 a step: (480 - 400) / 10 = 8 steps.
# Word2Vec is trained again every l = 2 steps, so step 3 starts with a Word2Vec training
# (several seconds on Lee), the moment Stop is clicked. A seed no other test uses keeps the
# run out of the server's store.
LINK = "/sage?corpus=sample:lee&V=400&k=10&M=60&seed=39"


def test_streamlits_own_stop_ends_like_the_pages_stop(page: Page, app_url: str):
    page.goto(f"{app_url}{LINK}")
    status = page.get_by_test_id("stExpander")  # st.status draws an expander
    expect(status.get_by_text(re.compile(r"SaGe: step 3: training Word2Vec"))).to_be_visible(
        timeout=180_000
    )
    page.get_by_test_id("stStatusWidget").get_by_role("button", name="Stop").click()

    said = page.get_by_text("Stopped during step 3 of 8: the 2 finished steps are kept below.")
    expect(said).to_be_visible(timeout=15_000)
    expect(page.get_by_text(re.compile(r"SaGe: step 3"))).to_have_count(0)
    # the log kept: 470 and 460 pieces after steps 1 and 2, no third step (st.dataframe's
    # cells: the accessible table it keeps beside its canvas)
    cells = page.locator("[data-testid=stDataFrame] [role=gridcell]")
    cells.first.wait_for(state="attached")
    texts = [text.strip() for text in cells.all_inner_texts()]
    assert "470" in texts and "460" in texts and "450" not in texts, texts
    expect(page.get_by_role("button", name="Stop", exact=True)).to_have_count(0)

    # the next run is possible, as after the page's Stop
    page.get_by_role("button", name="Run again").click()
    expect(status.get_by_text(re.compile(r"SaGe: "))).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Stop", exact=True).click()  # the page's own Stop
    expect(page.get_by_text(re.compile(r"^Stopped (during|before)"))).to_be_visible(timeout=15_000)
