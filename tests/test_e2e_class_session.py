"""Real browser: the class session (issue 35). The teacher opens a poll on /bpe, reloads the
page (the room is found again through the teacher's cookie), opens a second tab on
WordPiece through the sidebar, then goes to home; a phone (390 px) follows each move
without a touch, and says so when the teacher ends the class."""

import re

import pytest
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 720}


def test_a_class_follows_the_teacher_through_a_reload_a_second_tab_and_three_pages(
    browser: Browser, app_url: str
):
    teacher = browser.new_context(viewport=DESK)
    phone = browser.new_context(viewport=PHONE)
    try:
        desk = teacher.new_page()
        desk.goto(f"{app_url}/bpe?corpus=toy:low-lower&marker=eow&step=2")
        desk.wait_for_selector(IDLE, timeout=60_000)
        desk.get_by_text("Class poll: everyone predicts the next merge").click()
        desk.get_by_role("button", name="Open a class poll").click()
        expect(desk.locator(".poll-code b")).to_be_visible(timeout=30_000)
        code = desk.locator(".poll-code b").inner_text().strip()
        expect(desk.get_by_text(f"Class {code} follows")).to_be_visible(timeout=30_000)
        cookies = {c["name"]: c for c in teacher.cookies()}
        assert cookies["subtok_teacher"]["sameSite"] == "Strict"
        key = cookies["subtok_teacher"]["value"]
        link = re.search(r"(\S+/join\?room=\w{4})", desk.get_by_text("Students open").inner_text())
        assert link and key not in link.group(1)

        page = phone.new_page()
        page.goto(f"{app_url}/join?room={code}")
        expect(page.get_by_text("Your teacher is on step 2")).to_be_visible(timeout=60_000)

        desk.reload()  # the same room, no new one
        desk.wait_for_selector(IDLE, timeout=60_000)
        desk.get_by_text("Class poll: everyone predicts the next merge").click()
        expect(desk.locator(".poll-code b")).to_have_text(code, timeout=30_000)
        desk.get_by_role("button", name="Open a round on step 2").click()
        expect(page.get_by_text("Which pair is merged next (merge 3)?")).to_be_visible(
            timeout=30_000
        )

        tab = teacher.new_page()  # a second tab of the teacher's browser
        tab.goto(f"{app_url}/bpe?corpus=toy:low-lower&marker=eow&step=2")
        tab.wait_for_selector(IDLE, timeout=60_000)
        tab.get_by_role("link", name="WordPiece").first.click()
        expect(page.get_by_text(f"Room {code} · WordPiece")).to_be_visible(timeout=60_000)
        expect(page.get_by_text("Your teacher is on step 0")).to_be_visible()
        tab.get_by_role("link", name="Home").first.click()
        expect(page.get_by_text("Your teacher is showing Home")).to_be_visible(timeout=60_000)

        tab.get_by_role("link", name="BPE", exact=True).first.click()
        tab.wait_for_selector(IDLE, timeout=60_000)
        tab.get_by_text("Class poll: everyone predicts the next merge").click()
        tab.get_by_role("button", name="End the class").click()
        expect(page.get_by_text(f"Your teacher ended the class (room {code}).")).to_be_visible(
            timeout=30_000
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        teacher.close()
        phone.close()
