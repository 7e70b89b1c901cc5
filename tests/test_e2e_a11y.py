"""Real browser: axe-core finds no serious or critical accessibility violation on any page,
at the projector (1280x720) and on a phone (390x844), in presenter mode, on Compare with a
toy corpus, and on /join while a round is open (issue 31).

The waivers for markup the app cannot change are in tests/axetools.py, each with its
reason."""

from __future__ import annotations

import contextlib

import axetools
import pytest
from playwright.sync_api import Browser, Page, expect

from subtok_core import bpe, corpus, rooms

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
VIEWPORTS = {"desk": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
PAGES = {  # a name for the report, the address, and a text the page shows once drawn
    "home": ("/", "subtok"),
    "bpe": ("/bpe?corpus=toy:low-lower&marker=eow&step=3", "Merge 3"),
    "bpe-present": ("/bpe?corpus=toy:low-lower&marker=eow&step=3&present=1", "Merge 3"),
    "bytebpe": ("/bytebpe?corpus=toy:low-lower&step=3", "Merge 3"),
    "picky": ("/picky?corpus=toy:low-lower&size=25&threshold=0.9&step=25", "Merge 25"),
    "picky-present": ("/picky?corpus=toy:low-lower&step=15&present=1", "Split 15"),
    "superbpe": ("/superbpe?corpus=toy:by-the-way&step=35", "Merge 35"),
    "superbpe-present": ("/superbpe?corpus=toy:by-the-way&step=35&present=1", "Merge 35"),
    "boundless": ("/boundless?corpus=toy:by-the-way&step=10", "Merge 10"),
    "wordpiece": ("/wordpiece?corpus=toy:sunflower&step=2", "Merge 2"),
    # presenter mode's large type: a step's table wider than a phone scrolls sideways
    "wordpiece-present": ("/wordpiece?corpus=toy:sunflower&step=2&present=1", "Merge 2"),
    "unigram": ("/unigram?corpus=toy:run-bug&step=2", "Unigram"),
    "unigram-present": ("/unigram?corpus=toy:run-bug&step=2&present=1", "Round 1"),
    "notes": ("/notes", "Notes"),
    "compare": ("/compare?corpus=toy:low-lower&size=20&tok=bpe,wordpiece,unigram", "Compare"),
    # no tokenizer cuts a gold word here: the morphology chart had an empty, unnamed layer
    "compare-unscored": (
        "/compare?corpus=toy:cat-bat&size=12&tok=bpe,wordpiece,unigram",
        "Compare",
    ),
    "sage": ("/sage?corpus=sample:crime&V=150&k=10&M=20&step=2", "Step 2: the candidate set"),
    "parity": ("/parity?step=6", "Merge 6 serves xx"),
    "parity-present": ("/parity?step=6&present=1", "Merge 6 serves xx"),
    "check": ("/check", "Check your own BPE"),
    "vocab": ("/vocab?tok=cl100k_base&id=9468", "9468"),
    "vocab-compare": ("/compare?corpus=toy:cat-bat&size=12&tok=bpe,cl100k_base", "Compare"),
}
# our own colours on Streamlit's dark theme
DARK = ["bpe", "bytebpe", "picky", "unigram", "compare"]


def settle(page: Page) -> None:
    """Wait until the script is idle, twice: a deep link's first load may rerun once."""
    page.wait_for_selector(IDLE, timeout=240_000)
    page.wait_for_timeout(800)
    page.wait_for_selector(IDLE, timeout=240_000)


NOT_STALE = "() => !document.querySelector('[data-stale=\"true\"]')"


def check(page: Page, where: str, tries: int = 3) -> None:
    """axe on the page as it stands between two reruns: a fragment on a timer (the poll's
    tally, every 0.75 s) fades its elements while it reruns, and axe caught on such a
    moment measures the fade's contrast. A lasting violation is found on every try."""
    for _ in range(tries):
        page.wait_for_function(NOT_STALE, timeout=30_000)
        violations = axetools.severe_violations(page)
        if axetools.node_count(violations) == 0:
            break
    assert page.evaluate("axe.version") == axetools.axe_version()  # the pinned release ran
    count = axetools.node_count(violations)
    print(f"\naxe {where}: {count} serious/critical nodes")  # the report's numbers (-s)
    assert count == 0, f"{where}: {count} serious/critical nodes\n" + axetools.describe(violations)


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_axe_violation(browser: Browser, app_url: str, name: str, viewport: str):
    visit(browser, app_url, name, viewport, "light")


@pytest.mark.parametrize("name", DARK)
def test_no_serious_axe_violation_in_the_dark_theme(browser: Browser, app_url: str, name: str):
    """Streamlit follows the system's dark theme: chips keep their own light fills."""
    visit(browser, app_url, name, "desk", "dark")


@contextlib.contextmanager
def opened(browser: Browser, app_url: str, name: str, viewport: str, scheme: str = "light"):
    """The page `name` of PAGES in a fresh context, drawn and settled."""
    path, shown = PAGES[name]
    context = browser.new_context(viewport=VIEWPORTS[viewport], color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(app_url + path)
        settle(page)
        expect(page.get_by_text(shown).first).to_be_visible(timeout=60_000)
        settle(page)
        yield page
    finally:
        context.close()


def visit(browser: Browser, app_url: str, name: str, viewport: str, scheme: str) -> None:
    with opened(browser, app_url, name, viewport, scheme) as page:
        check(page, f"{name} {viewport}" + (f" {scheme}" if scheme != "light" else ""))


# moderate and minor rules the app's own markup passes: the headings go h1, h2, h3 without a
# level skipped (a lesson's steps have an h2 for screen readers, lessons/ui/a11y.py), and
# every column of a table has a header.
OUTLINE_RULES = ["heading-order", "empty-table-header"]
OUTLINED = list(PAGES)  # every page, presenter mode and Compare with pretrained ones too


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("name", OUTLINED)
def test_headings_in_order_and_table_headers_named(
    browser: Browser, app_url: str, name: str, viewport: str
):
    with opened(browser, app_url, name, viewport) as page:
        found = axetools.rule_violations(page, OUTLINE_RULES)
        count = axetools.node_count(found)
        print(f"\naxe outline {name} {viewport}: {count} nodes")
        assert count == 0, f"{name} {viewport}\n" + axetools.describe(found)


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_no_serious_axe_violation_on_join_with_an_open_round(
    browser: Browser, app_url: str, poll_db_url: str, viewport: str
):
    polls = rooms.RoomStore(poll_db_url)
    trace = bpe.trace_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", True)
    polls.move(code, 2, rooms.step_view(trace, 2, True))  # the teacher's step, as the page does
    polls.open_round(code, rooms.next_merge(trace, 2))
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    try:
        page = context.new_page()
        page.goto(f"{app_url}/join?room={code}")
        settle(page)
        expect(page.get_by_text("Which pair is merged next (merge 3)?")).to_be_visible(
            timeout=30_000
        )
        settle(page)
        check(page, f"join {viewport}")
    finally:
        context.close()


def test_no_serious_axe_violation_once_a_poll_is_revealed(browser: Browser, app_url: str):
    """The teacher at the projector (presenter mode) opens a poll and a round, a phone
    answers, the teacher reveals: both screens, chart and verdicts drawn, pass axe."""
    teacher = browser.new_context(viewport=VIEWPORTS["desk"])
    phone = browser.new_context(viewport=VIEWPORTS["phone"])
    try:
        desk = teacher.new_page()
        desk.goto(f"{app_url}/bpe?corpus=toy:low-lower&marker=eow&step=2&present=1")
        settle(desk)
        desk.get_by_text("Class poll: everyone predicts the next merge").click()
        desk.get_by_role("button", name="Open a class poll").click()
        desk.get_by_role("button", name="Open a round on step 2").click()
        settle(desk)
        code = desk.locator(".poll-code b").inner_text().strip()
        page = phone.new_page()
        page.goto(f"{app_url}/join?room={code}")
        settle(page)
        page.get_by_label("or type another").fill("est </w>")
        page.get_by_role("button", name="Send my answer").click()
        expect(desk.get_by_text("1 student answered.")).to_be_visible(timeout=30_000)
        desk.get_by_role("button", name="Reveal").click()
        expect(desk.get_by_text("(est, </w>) occurs 9 times").first).to_be_visible(timeout=30_000)
        expect(page.get_by_text("You predicted it.")).to_be_visible(timeout=30_000)
        settle(desk)
        check(desk, "bpe-present with a revealed poll")
        settle(page)
        check(page, "join after the reveal")
    finally:
        teacher.close()
        phone.close()
