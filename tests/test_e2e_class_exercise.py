"""Real browser: /check set to a class (issue 36's class exercise). The teacher at the
projector (1280x720) opens a class on /bpe, goes to "Check your BPE" through the sidebar and
sets exercise:runs to the class; a laptop and a phone on the class's link see the exercise
without a touch, paste the merges their trainers learned and see their result; the teacher's
screen counts the lists, says how many are identical and shows the cause of the other.

The students' lists come from the trainers written in tests/test_check_bugs.py (a correct
one, and one that merges only the first occurrence of a pair in a word); the expected merge
is where those two part.
"""

from __future__ import annotations

import re

import pytest
from _servers import app_server, free_port
from playwright.sync_api import Browser, Page, expect
from test_check_bugs import first_difference, merge_first, train, words_of

from subtok_core.check import exercises

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
DESK = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    port = free_port()
    db_url = f"sqlite:///{tmp_path_factory.mktemp('exercise') / 'rooms.sqlite3'}"
    env = {"SUBTOK_DB_URL": db_url, "SUBTOK_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    with app_server(port, env) as url:
        yield url


def settle(page: Page) -> None:
    page.wait_for_selector(IDLE, timeout=90_000)


def merges_text(merges) -> str:
    return "".join(f"{a} {b}\n" for a, b in merges)


def send(page: Page, merges) -> None:
    settle(page)
    page.get_by_label("or paste them, one merge per line ('a b')").fill(merges_text(merges))
    page.get_by_role("button", name="Check and send").click()
    settle(page)


def test_a_class_exercise_set_on_check_reaches_a_laptop_and_a_phone(browser: Browser, classroom):
    words = words_of(exercises.load("runs").text.splitlines())
    right, buggy = train(words, 12), train(words, 12, merge=merge_first)
    differs = first_difference(buggy, right)

    teacher = browser.new_context(viewport=DESK)
    students = [browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)]
    try:
        desk = teacher.new_page()
        desk.goto(classroom + "/bpe?corpus=toy:low-lower&marker=eow&merges=10&step=2")
        settle(desk)
        desk.get_by_role("button", name="Class poll").click()
        settle(desk)
        desk.get_by_role("button", name="Open a class poll").click()
        code = desk.locator(".poll-code b")
        expect(code).to_be_visible(timeout=30_000)
        link = desk.locator(".poll-link b").inner_text().strip()

        desk.get_by_role("link", name="Check your BPE", exact=True).click()
        settle(desk)
        desk.get_by_role("button", name="Set exercise:runs to the class").click()
        settle(desk)
        expect(desk.get_by_text("0 students sent their merges")).to_be_visible(timeout=30_000)

        laptop, phone = (context.new_page() for context in students)
        for page in (laptop, phone):
            page.goto(link)
            settle(page)
            expect(page.get_by_text("Exercise: exercise:runs")).to_be_visible(timeout=30_000)
        send(laptop, right)
        same = laptop.get_by_text(re.compile(rf"^identical: your {len(right)} merges"))
        expect(same).to_be_visible(timeout=30_000)
        send(phone, buggy)
        expect(phone.get_by_text(f"Merge {differs} differs (first-occurrence)", exact=False))\
            .to_be_visible(timeout=30_000)  # fmt: skip

        expect(desk.get_by_text(re.compile(r"2 students sent their merges; 1 identical"))).\
            to_be_visible(timeout=15_000)  # fmt: skip
        figure = desk.locator("[data-testid='stVegaLiteChart']").last
        expect(figure).to_be_visible()
        said = desk.get_by_text(re.compile(r"Of 2 students, 1 sent a merge list identical"))
        expect(said.first).to_be_visible()
        expect(desk.get_by_text("first-occurrence").first).to_be_visible()
    finally:
        for context in (teacher, *students):
            context.close()
