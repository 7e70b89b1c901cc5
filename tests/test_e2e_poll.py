"""Real browser: a student's phone (390 px wide) on /join follows the class poll while the
teacher opens and reveals a round (through the poll store of the app's database).

AppTest cannot run the page's polling fragment; this test sees it redraw the page.
"""

import pytest
from playwright.sync_api import Browser, expect

from subtok_core import bpe, corpus, rooms

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
PHONE = {"width": 390, "height": 844}


def test_a_phone_follows_the_round_answers_once_and_sees_the_reveal(
    browser: Browser, app_url: str, poll_db_url: str
):
    polls = rooms.RoomStore(poll_db_url)
    trace = bpe.trace_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", True)
    phone = browser.new_context(viewport=PHONE)
    try:
        page = phone.new_page()
        page.goto(f"{app_url}/join?room={code}")
        page.wait_for_selector(IDLE, timeout=60_000)
        expect(page.get_by_text("Waiting for your teacher")).to_be_visible(timeout=30_000)
        # the teacher opens a round on step 2: the phone shows it without a reload
        polls.move(code, 2, rooms.step_view(trace, 2, True))
        round_id = polls.open_round(code, rooms.next_merge(trace, 2))
        expect(page.get_by_text("Which pair is merged next (merge 3)?")).to_be_visible(
            timeout=15_000
        )
        page.wait_for_selector(IDLE)
        page.get_by_label("or type another").fill("est </w>")
        page.get_by_role("button", name="Send my answer").click()
        expect(page.get_by_text("Recorded.")).to_be_visible(timeout=15_000)
        assert polls.tally(round_id) == [("(est, </w>)", 1)]
        polls.reveal(round_id)
        expect(page.get_by_text("You predicted it.")).to_be_visible(timeout=15_000)
        expect(page.get_by_text("(est, </w>) occurs 9 times")).to_be_visible()
        # nothing is wider than the phone
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()


def test_a_round_driven_by_the_teachers_browser_and_a_students_phone(
    browser: Browser, app_url: str
):
    """Both sides in the browser: the teacher at the projector in presenter mode opens the
    poll and a round on merge 3 of 003's corpus, a student's phone answers est </w>, the
    teacher's live chart counts it, and the reveal shows the trace's merge (9 times)."""
    teacher = browser.new_context(viewport={"width": 1280, "height": 720})
    phone = browser.new_context(viewport=PHONE)
    try:
        desk = teacher.new_page()
        desk.goto(f"{app_url}/bpe?corpus=toy:low-lower&marker=eow&step=2&present=1")
        desk.wait_for_selector(IDLE, timeout=60_000)
        desk.get_by_text("Class poll: everyone predicts the next merge").click()
        desk.get_by_role("button", name="Open a class poll").click()
        desk.get_by_role("button", name="Open a round on step 2").click()
        desk.wait_for_selector(IDLE, timeout=60_000)
        code = desk.locator(".poll-code b").inner_text().strip()
        assert len(code) == 4, code

        page = phone.new_page()
        page.goto(f"{app_url}/join?room={code}")
        page.wait_for_selector(IDLE, timeout=60_000)
        expect(page.get_by_text("Which pair is merged next (merge 3)?")).to_be_visible(
            timeout=30_000
        )
        page.get_by_label("or type another").fill("est </w>")
        page.get_by_role("button", name="Send my answer").click()
        expect(page.get_by_text("Recorded.")).to_be_visible(timeout=15_000)

        # the teacher's panel rereads the round on its own (a fragment on a timer)
        expect(desk.get_by_text("1 student answered.")).to_be_visible(timeout=30_000)
        desk.get_by_role("button", name="Reveal").click()
        expect(desk.get_by_text("(est, </w>) occurs 9 times").first).to_be_visible(timeout=30_000)
        expect(page.get_by_text("You predicted it.")).to_be_visible(timeout=30_000)
    finally:
        teacher.close()
        phone.close()
