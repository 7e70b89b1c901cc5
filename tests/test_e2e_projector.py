"""Real browser: the class poll's panel at the projector (issue 35).

The teacher's /bpe at 1280x720 and 1024x768 (normal and presenter mode) and on a phone
(390 px): the "Class poll" button beside the step controls opens the panel and brings it
into view; its QR code is wholly on the screen, covered by nothing, and a QR reader
(zxing-cpp) reads the join link from a screenshot; after Reveal, with a class of 30 and
answers of 80 characters, no text of the panel is cut or ellipsised and every text of the
chart lies inside the chart's SVG.

Set SUBTOK_SHOTS to a directory to keep the screenshots.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import zxingcpp
from _servers import app_server, free_port
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from subtok_core import rooms

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
LESSON = "/bpe?corpus=toy:low-lower&marker=eow&merges=10&step=2"
MERGE_3 = "(est, </w>)"  # the third merge of 003's corpus (occurs 9 times after merge 2)
PUBLIC = "http://192.0.2.10:8501"  # the address the phones open (a documentation address)
SCREENS = {
    "1280x720": {"width": 1280, "height": 720},
    "1024x768": {"width": 1024, "height": 768},
    "390x844": {"width": 390, "height": 844},
}
SHOTS = os.environ.get("SUBTOK_SHOTS", "")
QR = "img[alt^='QR code of']"
PANEL = "div[class*='_poll_panel']"
# typed answers of 80 characters (a student's sentence), and one word that long
LONG = [
    "I think the pair of e and s merges next because it appears in newest and widest!",
    "est and the end-of-word marker, since every superlative in the corpus ends so...",
    "lowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlowerlower",
]
assert all(len(answer) == 80 for answer in LONG)  # the longest answer a phone may send


@pytest.fixture(scope="module")
def projector(tmp_path_factory):
    """An app of its own whose public address is PUBLIC: its QR code and link name it."""
    db_url = f"sqlite:///{tmp_path_factory.mktemp('projector') / 'rooms.sqlite3'}"
    env = {"SUBTOK_DB_URL": db_url, "SUBTOK_PUBLIC_URL": PUBLIC}
    with app_server(free_port(), env) as url:
        yield url, db_url


def shot(page: Page, name: str) -> str:
    """A screenshot of the screen (what the projector shows), kept when SUBTOK_SHOTS is set."""
    folder = Path(SHOTS) if SHOTS else Path(os.environ.get("TMPDIR", "/tmp"))
    folder.mkdir(parents=True, exist_ok=True)
    path = str(folder / f"projector-{name}.png")
    page.screenshot(path=path)
    return path


def open_round(page: Page, url: str, present: bool) -> str:
    """The teacher opens /bpe at step 2, presses "Class poll" beside the step controls,
    opens a poll and a round; returns the room's code."""
    page.goto(url + LESSON + ("&present=1" if present else ""))
    page.wait_for_selector(IDLE, timeout=90_000)
    page.get_by_role("button", name="Class poll").click()
    page.get_by_role("button", name="Open a class poll").click()
    page.get_by_role("button", name="Open a round on step 2").click()
    expect(page.get_by_text("0 students answered.")).to_be_visible(timeout=30_000)
    page.wait_for_selector(IDLE)
    return page.locator(".poll-code b").inner_text().strip()


def press_class_poll_key(page: Page) -> None:
    """Alt+Q, the class poll's key, from anywhere but a text box."""
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("Alt+q")


@pytest.mark.parametrize(
    ("screen", "present"),
    [("1280x720", False), ("1280x720", True), ("1024x768", False), ("1024x768", True)],
)
def test_the_qr_code_is_whole_uncovered_and_reads_as_the_join_link(
    browser: Browser, projector, screen: str, present: bool
):
    url, _ = projector
    context = browser.new_context(viewport=SCREENS[screen])
    try:
        page = context.new_page()
        code = open_round(page, url, present)
        link = page.locator(".poll-link b").inner_text().strip()
        assert link == f"{PUBLIC}/join?room={code}"
        # the key brings the panel back into view after the teacher scrolled away
        page.evaluate("window.scrollTo(0, 0)")
        press_class_poll_key(page)
        qr = page.locator(QR)
        expect(qr).to_be_in_viewport(ratio=1.0, timeout=10_000)
        page.wait_for_timeout(1000)  # the panel's scroll and the chart settle
        box = qr.bounding_box()
        view = SCREENS[screen]
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= view["width"], (box, view)
        assert box["y"] + box["height"] <= view["height"], (box, view)
        least = 360 if present else 280  # px: read from the back of a classroom
        assert box["width"] >= least and box["height"] >= least, box
        # nothing over it: the QR image is what the screen shows at its corners and centre
        inset = 3
        points = [
            (box["x"] + inset, box["y"] + inset),
            (box["x"] + box["width"] - inset, box["y"] + inset),
            (box["x"] + inset, box["y"] + box["height"] - inset),
            (box["x"] + box["width"] - inset, box["y"] + box["height"] - inset),
            (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2),
        ]
        for x, y in points:
            on_top = page.evaluate(
                "([x, y, sel]) => document.elementFromPoint(x, y) === document.querySelector(sel)",
                [x, y, QR],
            )
            over = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 200)", [x, y]
            )
            assert on_top, f"{over} covers the QR code at ({x:.0f}, {y:.0f})"
        # a QR reader reads the link from the screen as the projector shows it
        path = shot(page, f"qr-{screen}-{'present' if present else 'normal'}")
        read = zxingcpp.read_barcodes(Image.open(path))
        assert [r.text for r in read if r.format == zxingcpp.BarcodeFormat.QRCode] == [link]
    finally:
        context.close()


def feed_class(db_url: str, code: str) -> int:
    """30 students answer the open round, straight into the store: the question's
    candidates and three long typed answers; returns how many predicted the merge."""
    polls = rooms.RoomStore(db_url)
    current = polls.current_round(code)
    question = rooms.Question.from_json(current.question)
    said = [question.candidates[n % len(question.candidates)] for n in range(24)]
    said += [LONG[n % len(LONG)] for n in range(6)]
    for n, answer in enumerate(said):
        polls.submit(code, current.id, f"student-{n:02d}", answer)
    assert MERGE_3 in question.candidates
    return said.count(MERGE_3)


CUT_TEXT = """(sel) => {
  const cut = [];
  for (const panel of document.querySelectorAll(sel)) {
    for (const el of panel.querySelectorAll("*")) {
      const style = getComputedStyle(el);
      if (style.display === "inline" || style.display === "none" || el.closest("svg")) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const wide = el.scrollWidth > el.clientWidth + 1;
      if (wide || (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth)) {
        cut.push(`${el.tagName}.${el.className}: ${el.textContent.slice(0, 60)}`);
      }
    }
  }
  return cut;
}"""

CUT_SVG = """(sel) => {
  const cut = [];
  for (const svg of document.querySelectorAll(`${sel} svg.marks`)) {
    const box = svg.getBoundingClientRect();
    let holder = svg.parentElement.getBoundingClientRect();
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      const r = text.getBoundingClientRect();
      const inside = (b) => r.left >= b.left - 1 && r.right <= b.right + 1 &&
        r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
      if (!inside(box) || !inside(holder) || text.textContent.includes("…")) {
        cut.push(`${text.textContent} at ${Math.round(r.left)}..${Math.round(r.right)}`
          + ` in ${Math.round(box.left)}..${Math.round(box.right)}`);
      }
    }
  }
  return cut;
}"""


WIDER = """(sel) => {
  const main = document.querySelector("[data-testid='stMain']");
  const wide = [];
  if (main.scrollWidth > main.clientWidth) wide.push(`the page: ${main.scrollWidth} px`);
  if (document.documentElement.scrollWidth > innerWidth) wide.push("the document");
  for (const el of document.querySelector(sel).querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > innerWidth + 1)) {
      wide.push(`${el.tagName}.${el.className}: ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return wide.slice(0, 5);
}"""


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_nothing_is_cut_after_the_reveal_with_a_class_of_30(
    browser: Browser, projector, screen: str, present: bool
):
    url, db_url = projector
    context = browser.new_context(viewport=SCREENS[screen])
    name = f"{screen}-{'present' if present else 'normal'}"
    try:
        page = context.new_page()
        code = open_round(page, url, present)
        page.locator(QR).evaluate("el => el.scrollIntoView()")
        shot(page, f"open-{name}")
        right = feed_class(db_url, code)
        expect(page.get_by_text("30 students answered.")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Reveal").click()
        expect(page.get_by_text(f"{right} of 30 ({right / 30:.0%})")).to_be_visible(timeout=30_000)
        page.get_by_text("show what was typed").click()  # the long answers, as a table
        expect(page.get_by_text(LONG[0])).to_be_visible(timeout=30_000)
        page.wait_for_selector(IDLE)
        page.wait_for_timeout(1500)  # Vega draws the chart after the page settles
        assert page.locator(f"{PANEL} svg.marks").count() == 1
        # the chart's text alternative: its sentence under it
        expect(page.get_by_text("30 answers; the most given is")).to_be_visible()
        # what the projector shows with the round at the top of the screen
        page.get_by_text("Round on step 2").evaluate("el => el.scrollIntoView()")
        shot(page, f"revealed-{name}")
        assert page.evaluate(CUT_TEXT, PANEL) == []
        assert page.evaluate(CUT_SVG, PANEL) == []
        assert page.evaluate(WIDER, PANEL) == []
    finally:
        context.close()
