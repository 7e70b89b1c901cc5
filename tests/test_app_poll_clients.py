"""AppTest: the poll's limits counted per browser and per client address through the pages
(issues 39 and 40): the teacher passcode's box on the panel, one browser's many sessions
held to the README's 5 rooms per 10 minutes, and the /join page counting code tries at
the phone's address, whatever session or cookie it comes with."""

from __future__ import annotations

import pytest
from apptools import open_page
from test_app_poll import teacher, texts

from lessons.poll import student as anonymous
from lessons.poll import teacher as teacher_side
from lessons.ui import client
from subtok_core import rooms
from subtok_core.rooms.clients import PASSCODE_SETTING


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """Every session of a test shares one SQLite file, as the sessions of a server do."""
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def from_address(monkeypatch, address: str | None, headers=None) -> None:
    """Every session from now on connects from `address` (Streamlit's; None: this machine)."""
    monkeypatch.setattr(client, "context", lambda: (address, headers or {}))


def test_the_panel_asks_for_the_teacher_passcode_when_the_operator_set_one(monkeypatch):
    monkeypatch.setenv(PASSCODE_SETTING, "owl lantern 42")
    from_address(monkeypatch, None)  # even on the server's own machine
    at = teacher()
    box = at.text_input(key="bpe_poll_passcode")
    assert box.label == "Teacher passcode" and box.proto.type == box.proto.Type.PASSWORD
    at.button(key="bpe_poll_start").click().run()
    assert texts(at.error)[0].startswith("Opening a class poll needs the teacher passcode")
    assert not at.session_state["poll_teacher_room"]
    at.text_input(key="bpe_poll_passcode").input("owl lantern 41")
    at.button(key="bpe_poll_start").click().run()
    assert texts(at.error)[0].startswith("That is not the teacher passcode")
    at.text_input(key="bpe_poll_passcode").input("owl lantern 42")
    at.button(key="bpe_poll_start").click().run()
    code = at.session_state["poll_teacher_room"]
    assert code and any(f"Room code <b>{code}</b>" in m for m in texts(at.markdown))
    assert "owl lantern 42" not in " ".join(texts(at.markdown) + texts(at.caption))
    rooms.store().end(code)  # the next class of this session: no second prompt
    at.session_state["poll_teacher_room"] = ""
    at.run()
    assert not [t for t in at.text_input if t.key == "bpe_poll_passcode"]
    at.button(key="bpe_poll_start").click().run()
    assert at.session_state["poll_teacher_room"] not in ("", code)


def test_without_a_passcode_the_panel_asks_for_none(monkeypatch):
    monkeypatch.delenv(PASSCODE_SETTING, raising=False)
    from_address(monkeypatch, None)
    at = teacher()
    assert not [t for t in at.text_input if t.key == "bpe_poll_passcode"]
    at.button(key="bpe_poll_start").click().run()
    assert at.session_state["poll_teacher_room"]


@pytest.mark.slow  # seven teacher sessions
def test_one_browser_opens_5_rooms_however_many_sessions_it_uses(monkeypatch):
    """Issue 39: one browser opened 7 rooms in 30 s, the limit counting sessions."""
    monkeypatch.delenv(PASSCODE_SETTING, raising=False)
    from_address(monkeypatch, "192.0.2.30")  # a teacher's laptop on the network
    key = "one-browsers-teacher-key"
    monkeypatch.setattr(teacher_side, "browser_cookies", lambda: {teacher_side.COOKIE: key})
    said = []
    for _ in range(7):  # a new tab each time, sending the browser's cookie
        at = teacher()
        at.button(key="bpe_poll_start").click().run()
        code = at.session_state["poll_teacher_room"]
        if code:
            rooms.store().end(code)  # the teacher ends it and opens another
        said.append(code or texts(at.error)[0])
    assert all(rooms.normal_code(c) for c in said[:5])
    assert [s.split(":")[0] for s in said[5:]] == ["Too many new rooms from this browser"] * 2


@pytest.mark.slow  # hundreds of AppTest runs of /join
def test_join_counts_code_tries_per_address_not_per_session_or_cookie(monkeypatch):
    """Issue 40: code guessing was limited per session, so it grew with the sockets."""
    from_address(monkeypatch, "203.0.113.5")
    monkeypatch.setattr(anonymous, "browser_cookies", lambda: {})  # a fresh id each session
    monkeypatch.setattr(rooms.store(), "clock", lambda: 1_000_000.0)  # the minute stands still
    # 12 sessions, not the 60 of a class: the count is the store's (test_rooms_clients.py
    # checks 60 against the README); the page is what this test is about
    monkeypatch.setattr(rooms.store().limits.client_code_tries, "count", 12)
    wrong = 0
    for _ in range(rooms.store().limits.client_code_tries.count):
        at = open_page("lessons/poll/page.py", room="KKKK")
        wrong += any("There is no room KKKK" in e for e in texts(at.error))
    assert wrong == rooms.store().limits.client_code_tries.count
    at = open_page("lessons/poll/page.py", room="KKKK")
    assert texts(at.error)[0] == (
        "Too many room-code tries from your network address: wait 60 s, then try again."
    )
    from_address(monkeypatch, "203.0.113.6", {"X-Forwarded-For": "198.51.100.1"})
    at = open_page("lessons/poll/page.py", room="KKKK")  # another address: its own tries
    assert texts(at.error)[0].startswith("There is no room KKKK")
