"""AppTest: the class session (issue 35) through app.py. The teacher's browser keeps its
room through a reload (a new session sending the teacher's cookie), moves it from BPE to
WordPiece to Unigram and home, and a phone on /join shows each lesson; the students' link
never carries the teacher's key; the teacher ends the class and takes the record home.

Expected steps come from the course material: 003 (../shared/seeds/003_fbf19eb985f31fbe.txt)
merges "est </w>" third on low/lower/newest/widest with </w>; 001 (WordPiece sunflower,
Unigram run/bug/fun/sun) names the first WordPiece merge (s, u).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from apptools import open_page
from sqlalchemy import update

from lessons.poll import student as anonymous
from lessons.poll import teacher
from subtok_core import rooms
from subtok_core.rooms import db

BPE = {"corpus": "toy:low-lower", "marker": "eow", "step": "2"}


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def everything(at) -> str:
    """All the text on the page, to look for what must not be there."""
    kinds = ("markdown", "caption", "text", "info", "warning", "error", "subheader")
    shown = [str(e.value) for kind in kinds for e in at.get(kind)]
    return "\n".join(shown + [h.proto.body for h in at.get("html")])


def open_panel(at, page: str):
    at.session_state[f"{page}_class_poll_open"] = True
    return at.run()


def go(at, page: str, **query):
    """The teacher follows a link to another lesson page (its own address)."""
    for key in list(at.query_params):
        del at.query_params[key]
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"lessons/{page}/page.py").run()
    assert not at.exception, at.exception
    return at


def start_class(monkeypatch):
    """A teacher opens a class poll on BPE step 2; returns the page, its key and code."""
    monkeypatch.setattr(teacher, "browser_cookies", lambda: {})  # a browser with no key
    at = open_panel(open_page("lessons/bpe/page.py", **BPE), "bpe")
    at.button(key="bpe_poll_start").click().run()
    key, code = at.session_state[teacher.KEY], at.session_state[teacher.ROOM]
    assert any(f"Room code <b>{code}</b>" in m for m in texts(at.markdown))
    return at, key, code


def test_the_teachers_cookie_is_written_strict_and_the_students_link_never_carries_it(
    monkeypatch,
):
    at, key, code = start_class(monkeypatch)
    written = [h.proto.body for h in at.get("html") if teacher.COOKIE in h.proto.body]
    assert len(written) == 1 and f"{teacher.COOKIE}={key};" in written[0]
    assert "SameSite=Strict" in written[0] and f"max-age={rooms.LIFETIME}" in written[0]
    links = re.findall(r"[^\s<>*]*join\?room=[^\s<>*]*", everything(at))
    assert links and all(link.endswith(f"join?room={code}") for link in links)
    shown = everything(at).replace(written[0], "")
    assert key not in shown  # the cookie's script aside, the key is nowhere on the page
    assert key not in rooms.store().join(code).link


@pytest.mark.slow  # a class session replayed
def test_a_reload_finds_the_room_again_through_the_cookie(monkeypatch):
    _, key, code = start_class(monkeypatch)
    monkeypatch.setattr(teacher, "browser_cookies", lambda: {teacher.COOKIE: key})
    reloaded = open_panel(open_page("lessons/bpe/page.py", **BPE), "bpe")
    assert reloaded.session_state[teacher.ROOM] == code
    assert any(f"Room code <b>{code}</b>" in m for m in texts(reloaded.markdown))
    assert "bpe_poll_start" not in [b.key for b in reloaded.button]  # no second room
    monkeypatch.setattr(teacher, "browser_cookies", lambda: {teacher.COOKIE: "x" * 22})
    stranger = open_panel(open_page("lessons/bpe/page.py", **BPE), "bpe")
    assert stranger.button(key="bpe_poll_start")  # another browser's key: not this room


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_phones_follow_the_teacher_from_bpe_to_wordpiece_to_unigram_and_home(monkeypatch):
    at, key, code = start_class(monkeypatch)
    monkeypatch.setattr(anonymous, "browser_cookies", lambda: {})
    phone = open_page("lessons/poll/page.py", room=code)
    assert texts(phone.subheader) == ["Your teacher is on step 2"]
    assert f"Room {code} · BPE · toy:low-lower · step 2" in texts(phone.caption)
    assert "**The corpus after merge 2**" in texts(phone.markdown)

    go(at, "wordpiece", corpus="toy:sunflower")  # the sidebar: a page opens at its start
    room = rooms.store().join(code)
    assert (room.page, room.algorithm, room.corpus, room.step) == (
        "wordpiece", "wordpiece", "toy:sunflower", 0,
    )  # fmt: skip
    assert room.view["title"] == "The corpus, before any merge"
    sunflower = ["s", "##u", "##n", "##f", "##l", "##o", "##w", "##e", "##r"]  # 001, step 0
    assert sunflower in [r[2] for r in room.view["rows"]]
    phone.run()
    assert f"Room {code} · WordPiece · toy:sunflower · step 0" in texts(phone.caption)
    assert "**The corpus, before any merge**" in texts(phone.markdown)

    go(at, "unigram", corpus="toy:run-bug")
    room = rooms.store().join(code)
    assert (room.page, room.algorithm, room.step, room.view["kind"]) == (
        "unigram", "unigram", 0, "vocab",
    )  # fmt: skip
    open_panel(at, "unigram").button(key="unigram_poll_round").click().run()
    current = rooms.store().current_round(code)
    asked = rooms.Question.from_json(current.question)
    assert (current.page, current.step, asked.kind) == ("unigram", 0, "piece")
    phone.run()
    assert texts(phone.subheader) == [asked.prompt]
    assert asked.prompt.startswith("Which piece is pruned next")
    assert phone.selectbox[0].options == list(asked.candidates)

    at.switch_page("lessons/home/page.py").run()
    room = rooms.store().join(code)
    assert (room.page, room.title, room.algorithm) == ("home", "Home", "")
    assert rooms.store().current_round(code).state == "closed"  # the class moved on
    phone.run()
    assert texts(phone.subheader) == ["Your teacher is showing Home"]
    assert texts(phone.info) == [
        "Nothing is asked now: look at your teacher's screen. This page follows it."
    ]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_phone_says_when_the_teacher_is_away_and_when_the_class_ended(monkeypatch):
    at, key, code = start_class(monkeypatch)
    monkeypatch.setattr(anonymous, "browser_cookies", lambda: {})
    phone = open_page("lessons/poll/page.py", room=code)
    assert not phone.warning
    polls = rooms.store()
    with polls.engine.begin() as conn:  # the teacher's page last seen 61 s ago
        conn.execute(update(db.rooms).values(seen=polls.clock() - rooms.ABSENT - 1))
    phone.run()
    assert texts(phone.warning) == [
        "Your teacher's screen has not been seen for a minute: this page keeps looking and "
        "follows again as soon as it is back."
    ]
    polls.seen(code)  # the teacher's heartbeat again
    assert not phone.run().warning
    at.button(key="bpe_poll_end").click().run()
    assert at.button(key="bpe_poll_start")  # the panel can open a new class
    assert f"The record of your last class (room {code}, ended)" in [e.label for e in at.expander]
    phone.run()
    assert texts(phone.info) == [f"Your teacher ended the class (room {code})."]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_record_counts_what_the_panel_counts(monkeypatch):
    at, key, code = start_class(monkeypatch)
    at.button(key="bpe_poll_round").click().run()
    polls = rooms.store()
    round_id = polls.current_round(code).id
    for k, said in enumerate(["(est, </w>)", "(est, </w>)", "(l, o)"]):
        polls.submit(code, round_id, f"s{k}", said)
    at.run()
    assert "**Round on step 2** (open): **3** students answered." in texts(at.markdown)
    assert not at.get("arrow_vega_lite_chart")  # the tally stays hidden until Reveal
    assert "**The class so far**: 1 rounds, 3 answers." in texts(at.markdown)
    summary = [d.value for d in at.dataframe if "answered" in d.value.columns][0]
    assert summary[["answered", "predicted"]].values.tolist() == [[3, 2]]
    assert summary["% predicted"].tolist() == [67]
    link = urlsplit(summary["link"].tolist()[0])
    assert link.path == "/bpe" and dict(parse_qsl(link.query)) == BPE  # named as opened
    labels = [d.proto.label for d in at.get("download_button")]
    assert {"Download the answers (CSV)", "Download the summary (CSV)"} <= set(labels)
