"""Real browser: a student's phone (390 px wide) on /join follows the class poll while the
teacher opens and reveals a round (through the poll store of the app's database).

AppTest cannot run the page's polling fragment; this test sees it redraw the page.
"""

import os
import re
import time
from pathlib import Path

import pytest
from _servers import app_server, free_port
from playwright.sync_api import Browser, expect
from sqlalchemy import select

from subtok_core import bpe, corpus, rooms
from subtok_core.rooms import db

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
PHONE = {"width": 390, "height": 844}
FOLLOW_SLACK = float(os.environ.get("SUBTOK_FOLLOW_SLACK", "0.5"))  # s over 2 s, for CI noise


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


# --- a whole lesson, rehearsed: the projector, five phones, one or two servers ---------

DESK = {"width": 1280, "height": 720}
LESSON = "/bpe?corpus=toy:low-lower&marker=eow&merges=10&step=2"
SAID = ["est </w>", "est </w>", "est </w>", "l o", "l o"]  # phone 4 then changes its mind
SHOTS = os.environ.get("SUBTOK_SHOTS", "")  # a directory: screenshots of the rehearsal


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def send(phone, answer: str) -> None:
    phone.get_by_label("or type another").fill(answer)
    phone.get_by_role("button", name="Send my answer").click()
    expect(phone.get_by_text("Recorded.")).to_be_visible(timeout=20_000)


def step_controls_bottom(desk) -> float:
    """Where the teacher's step slider ends, from the top of the page (px)."""
    box = desk.locator(".st-key-step").bounding_box()
    return box["y"] + box["height"] + desk.evaluate("window.scrollY")


def play_lesson(browser: Browser, teacher_url: str, phone_base: str, db_url: str) -> dict:
    """The teacher opens /bpe on 003's toy corpus at the projector and starts a poll; five
    phones join through the link the panel shows (which must lead to `phone_base`); each
    answers, one reloads and answers again; the teacher sees 5 students, reveals, steps
    forward, and the phones follow. Returns what was measured."""
    teacher = browser.new_context(viewport=DESK)
    phones = [browser.new_context(viewport=PHONE) for _ in SAID]
    try:
        desk = teacher.new_page()
        desk.goto(teacher_url + LESSON)
        desk.wait_for_selector(IDLE, timeout=90_000)
        desk.get_by_text("Class poll: everyone predicts the next merge").click()
        desk.get_by_role("button", name="Open a class poll").click()
        desk.get_by_role("button", name="Open a round on step 2").click()
        expect(desk.get_by_text("0 students answered.")).to_be_visible(timeout=30_000)
        link = re.search(r"(\S+/join\?room=\w{4})", desk.get_by_text("Students open").inner_text())
        assert link and link.group(1).startswith(phone_base + "/join?room="), link
        shot(desk, "teacher-round-open-1280")
        bottoms = [step_controls_bottom(desk)]

        pages = [context.new_page() for context in phones]
        for page in pages:
            page.goto(link.group(1))
        for page, answer in zip(pages, SAID):
            expect(page.get_by_text("Which pair is merged next (merge 3)?")).to_be_visible(
                timeout=60_000
            )
            page.wait_for_selector(IDLE)
            send(page, answer)
        shot(pages[0], "phone-answered-390")
        pages[4].reload()  # the same browser: the same student, with the answer it gave
        pages[4].wait_for_selector(IDLE, timeout=60_000)
        expect(pages[4].get_by_text("Your answer", exact=True)).to_be_visible(timeout=30_000)
        expect(pages[4].get_by_text("(l, o)")).to_be_visible()
        send(pages[4], "est </w>")
        second_tab = phones[2].new_page()  # a new tab of the same browser: the same student
        second_tab.goto(link.group(1))
        expect(second_tab.get_by_text("Your answer", exact=True)).to_be_visible(timeout=60_000)
        second_tab.close()

        expect(desk.get_by_text("5 students answered.")).to_be_visible(timeout=30_000)
        desk.get_by_role("button", name="Reveal").click()
        expect(desk.get_by_text("4 of 5 (80%)")).to_be_visible(timeout=30_000)
        for page in pages[:3]:
            expect(page.get_by_text("You predicted it.")).to_be_visible(timeout=30_000)
        expect(pages[3].get_by_text("Not this time.")).to_be_visible(timeout=30_000)
        expect(pages[4].get_by_text("You predicted it.")).to_be_visible(timeout=30_000)
        shot(desk, "teacher-revealed-1280")
        bottoms.append(step_controls_bottom(desk))
        shot(pages[3], "phone-revealed-390")

        desk.wait_for_selector(IDLE)
        clicked = time.monotonic()
        desk.locator(".st-key-bpe_step_next button").first.click()
        code = link.group(1)[-4:]
        polls = rooms.RoomStore(db_url)
        while polls.join(code).step != 3 and time.monotonic() - clicked < 30:
            time.sleep(0.02)
        written = time.monotonic() - clicked
        followed = []
        for page in pages:
            expect(page.get_by_text("Your teacher is on step 3")).to_be_visible(timeout=30_000)
            followed.append(time.monotonic() - clicked)
        shot(pages[0], "phone-followed-390")
        bottoms.append(step_controls_bottom(desk))
        return {"follow_s": max(followed), "written_s": written, "slider_bottom": max(bottoms)}
    finally:
        teacher.close()
        for context in phones:
            context.close()


def test_a_whole_lesson_rehearsed_projector_and_five_phones(browser: Browser, tmp_path: Path):
    port = free_port()
    env = {
        "SUBTOK_DB_URL": f"sqlite:///{tmp_path / 'rooms.sqlite3'}",
        # the proxy setting: the address the phones open (a loopback one, in a test)
        "SUBTOK_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    with app_server(port, env) as url:
        measured = play_lesson(browser, url, url, env["SUBTOK_DB_URL"])
    print(
        f"phones followed the step in {measured['follow_s']:.2f} s (slowest of 5; the "
        f"teacher's page wrote it after {measured['written_s']:.2f} s)"
    )
    assert measured["follow_s"] < 2.0 + FOLLOW_SLACK
    assert measured["slider_bottom"] < DESK["height"]  # the step controls: first screen


@pytest.mark.server
def test_two_servers_one_class_on_postgresql(browser: Browser):
    """The teacher on one app server, the five phones on another, one PostgreSQL database:
    the same rounds, answers and steps on both."""
    url = os.environ.get("SUBTOK_TEST_PG_URL", "")
    if not url:
        pytest.skip("set SUBTOK_TEST_PG_URL (.ci/postgres prints one) to run two servers")
    engine = db.engine(url)
    db.metadata.drop_all(engine)
    db.metadata.create_all(engine)
    teacher_port, phone_port = free_port(), free_port()
    phone_url = f"http://127.0.0.1:{phone_port}"
    env = {"SUBTOK_DB_URL": url, "SUBTOK_PUBLIC_URL": phone_url}
    with app_server(teacher_port, env) as teacher_url, app_server(phone_port, env):
        measured = play_lesson(browser, teacher_url, phone_url, url)
    polls = rooms.RoomStore(url)
    with polls.engine.connect() as conn:
        (code,) = conn.execute(select(db.rooms.c.code)).one()
    last = polls.current_round(code)
    assert last.state == "revealed" and last.step == 2
    assert polls.tally(last.id) == [("(est, </w>)", 4), ("(l, o)", 1)]
    assert polls.join(code).step == 3
    print(f"phones on the other server followed in {measured['follow_s']:.2f} s")
