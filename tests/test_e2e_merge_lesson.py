"""Real browser: a merge lesson's step view reruns alone (a fragment) when a widget in it
changes, so what the student types there must not depend on a flag the last full run left
in the session. A corpus just chosen once reset the encoder's word on every such rerun
(the word typed after choosing toy:sunflower went back to the corpus's own at once)."""

import pytest
from playwright.sync_api import Page, expect

expect.set_options(timeout=30_000)  # a busy machine: each page may rerun once

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(800)  # a change may rerun the page once more
    page.wait_for_selector(IDLE, timeout=60_000)


def test_a_word_typed_after_choosing_another_corpus_stays(page: Page, app_url: str):
    page.goto(app_url + "/bpe?corpus=toy:low-lower&marker=eow&step=3")
    settle(page)
    page.get_by_role("button", name="Settings").click()
    corpus = page.get_by_role("combobox", name="corpus", exact=True)
    corpus.click()
    corpus.fill("toy:sunflower")
    page.keyboard.press("Enter")
    settle(page)
    page.keyboard.press("Escape")  # the settings popover closes
    encode = page.get_by_role("textbox", name="word or words to encode")
    # the corpus's own words (subtok_core/data/toys.toml, from 001): the setting still resets
    expect(encode).to_have_value("fused funny")
    encode.fill("newer")
    encode.press("Enter")  # reruns the step view alone
    settle(page)
    expect(encode).to_have_value("newer")
