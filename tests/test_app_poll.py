"""AppTest: a class poll round, the teacher's panel (lessons/poll/panel.py) in one session and
three students on /join (lessons/poll/page.py) in three others, on one SQLite file.

The expected merges are those of 003 (../shared/seeds/003_fbf19eb985f31fbe.txt): on
low/lower/newest/widest with </w>, merge 3 is "est </w>" (6 + 3 = 9 times), merge 4 "l o".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from lessons.poll import results, room
from lessons.ui.escape import as_text
from subtok_core import rooms
from subtok_core.charts.poll import answers_chart

ROOT = str(Path(__file__).parents[1])
SCRIPT = "<script>alert(1)</script>"


def teacher_page(root: str) -> None:
    """A lesson page with only the poll: BPE on toy:low-lower, marker eow, at ?step=."""
    import sys

    sys.path.insert(0, root)
    import streamlit as st

    from lessons.poll import panel  # AppTest runs this function's source alone
    from subtok_core import bpe, corpus

    trace = bpe.trace_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    step, corpus = int(st.query_params.get("step", "2")), st.query_params.get("corpus", "")
    panel.teacher_panel("bpe", trace, step, corpus)


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """Every session of a test shares one SQLite file, as the sessions of a server do."""
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def teacher() -> AppTest:
    at = AppTest.from_function(teacher_page, default_timeout=60, kwargs={"root": ROOT})
    at.query_params["step"] = "2"
    return at.run()


def student(code: str) -> AppTest:
    return open_page("lessons/poll/page.py", room=code)


def answer(at: AppTest, pick: str = "", typed: str = "") -> AppTest:
    """Send the form of the round on screen: a pair picked in the list, or typed."""
    if pick:
        at.selectbox[0].set_value(pick)
    if typed:
        at.text_input[0].input(typed)
    return at.button[0].click().run()


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def open_room_and_round(at: AppTest) -> str:
    at.button(key="bpe_poll_start").click().run()
    code = at.session_state["poll_teacher_room"]
    at.button(key="bpe_poll_round").click().run()
    assert "**Round on step 2** (open): **0** students answered." in texts(at.markdown)
    return code


@pytest.mark.slow  # four sessions
def test_a_poll_round_three_students_answer_and_the_reveal_shows_the_trace_merge():
    teach = teacher()
    code = open_room_and_round(teach)
    assert any(f"Room code <b>{code}</b>" in m for m in texts(teach.markdown))
    pupils = [student(code) for _ in range(3)]
    assert len({p.session_state["join_session"] for p in pupils}) == 3  # anonymous, distinct
    assert all(p.subheader[0].value == "Which pair is merged next (merge 3)?" for p in pupils)
    answer(pupils[0], pick="(est, </w>)")
    answer(pupils[1], typed="est </w>")  # typed, read as the pair it names
    answer(pupils[2], pick="(l, o)")
    for pupil in pupils:
        assert any(s.startswith("Recorded. Wait for your teacher") for s in texts(pupil.success))
    teach.run()
    assert "**Round on step 2** (open): **3** students answered." in texts(teach.markdown)
    teach.button(key="bpe_poll_reveal").click().run()
    assert texts(teach.metric) == ["(est, </w>)", "2 of 3 (67%)"]
    assert any("(est, </w>) occurs 9 times" in info for info in texts(teach.info))
    verdicts = []
    for pupil in pupils:
        pupil.run()
        assert "(est, </w>)" in texts(pupil.metric)
        verdicts.append(texts(pupil.success) + texts(pupil.warning))
    assert verdicts == [["You predicted it."], ["You predicted it."], ["Not this time."]]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_second_answer_replaces_the_first_and_the_student_follows_to_the_next_step():
    teach = teacher()
    code = open_room_and_round(teach)
    pupil = answer(student(code), pick="(l, o)")
    assert texts(pupil.text) == ["(l, o)"] and pupil.selectbox  # the form stays, to change
    answer(pupil, pick="(est, </w>)")
    polls = rooms.store()
    assert polls.tally(polls.current_round(code).id) == [("(est, </w>)", 1)]
    teach.query_params["step"] = "3"
    teach.run().button(key="bpe_poll_round").click().run()
    pupil.run()
    assert pupil.subheader[0].value == "Which pair is merged next (merge 4)?"
    answer(pupil, pick="(o, w)")
    assert polls.tally(polls.current_round(code).id) == [("(o, w)", 1)]
    teach.run().button(key="bpe_poll_reveal").click().run()
    assert texts(pupil.run().warning) == [
        "Close: yours was tied with it, and the tie rule chose the other."
    ]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_one_answer_per_student_across_a_reload(monkeypatch):
    """A reload is a new session of the same browser: it sends the cookie the first visit
    wrote, so it is the same student, and the answer it sends replaces the first."""
    from lessons.poll import student as anonymous

    teach = teacher()
    code = open_room_and_round(teach)
    first = student(code)
    me = first.session_state["join_session"]
    assert any(f"subtok_student={me};" in h.proto.body for h in first.get("html"))
    answer(first, pick="(l, o)")
    monkeypatch.setattr(anonymous, "browser_cookies", lambda: {"subtok_student": me})
    reloaded = student(code)
    assert reloaded.session_state["join_session"] == me
    assert texts(reloaded.text) == ["(l, o)"]  # the answer it gave before the reload
    answer(reloaded, pick="(est, </w>)")
    polls = rooms.store()
    assert polls.tally(polls.current_round(code).id) == [("(est, </w>)", 1)]
    teach.run()
    assert "**Round on step 2** (open): **1** student answered." in texts(teach.markdown)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_typed_answer_is_a_count_until_the_teacher_shows_it_as_plain_text():
    teach = teacher()
    code = open_room_and_round(teach)
    pupil = answer(student(code), typed=SCRIPT)
    assert texts(pupil.text) == [SCRIPT]
    teach.run()
    current = rooms.store().current_round(code)
    frame = results.answers_frame(rooms.store().tally(current.id), current)
    assert list(frame["answer"]) == [results.OTHER]  # what the projector's chart shows
    assert "bpe_poll_typed" not in [t.key for t in teach.toggle]  # hidden tally: no words
    teach.toggle(key=f"bpe_poll_live_{code}").set_value(True).run()
    assert not any("poll-typed" in m.value for m in teach.markdown)
    teach.toggle(key="bpe_poll_typed").set_value(True).run()
    html = [m.value for m in teach.markdown if m.proto.allow_html]
    (table,) = [value for value in html if "poll-typed" in value]  # on request
    assert f"<td>{as_text(SCRIPT)}</td><td>1</td>" in table  # as the text typed
    assert not any("<script" in value for value in html)
    typed = results.answers_frame(rooms.store().tally(current.id), current, show_typed=True)
    assert answers_chart(typed).to_dict()["datasets"]  # an answer is data for Vega


@pytest.mark.parametrize(
    ("room", "message"), [("XXXX", "There is no room XXXX"), ("hello", "is not a room code")]
)
def test_a_wrong_room_code_says_so_and_asks_again(room, message):
    at = open_page("lessons/poll/page.py", room=room)
    assert any(message in error for error in texts(at.error))
    assert at.text_input(key="join_code")


def test_an_expired_room_is_refused_on_the_join_page(monkeypatch):
    polls = rooms.store()
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", True)
    later = polls.clock() + rooms.LIFETIME + 1
    monkeypatch.setattr(polls, "clock", lambda: later)
    at = open_page("lessons/poll/page.py", room=code)
    assert any(f"Room {code} has expired" in error for error in texts(at.error))


def test_without_a_round_the_student_waits():
    polls = rooms.store()
    code = polls.open_room("bpe", "bpe", "toy:low-lower", "print", "run", "/bpe", True)
    at = open_page("lessons/poll/page.py", room=code)
    assert texts(at.info) == ["Waiting for your teacher to open the first round."]


def test_a_unigram_round_asks_for_the_piece_pruned_next():
    from subtok_core.corpus import load
    from subtok_core.unigram import trace_unigram

    trace = trace_unigram(load("toy:run-bug"), log_base="10", vocab_size=14)
    polls = rooms.store()
    code = polls.open_room("unigram", "unigram", "toy:run-bug", "print", "run", "/unigram", True)
    polls.move(code, 1, rooms.step_view(trace, 1, True))
    round_id = polls.open_round(code, rooms.next_prune(trace, 1))
    pupil = answer(student(code), typed="un")
    assert pupil.subheader[0].value == "Which piece is pruned next (step 3)?"
    assert polls.tally(round_id) == [("un", 1)]
    polls.reveal(round_id)
    assert texts(pupil.run().metric) == ["ru"]


def test_the_join_link_and_its_qr_code():
    link, base = room.join_link("K7RD", "bpe", "http://10.0.0.5:8501/bpe")
    assert link == "http://10.0.0.5:8501/join?room=K7RD" and not base.local
    png = room.qr_png("http://10.0.0.5:8501/join?room=K7RD")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_the_phones_follow_the_teachers_step_without_a_round():
    teach = teacher()
    teach.button(key="bpe_poll_start").click().run()
    code = teach.session_state["poll_teacher_room"]
    pupil = student(code)
    assert texts(pupil.subheader) == ["Your teacher is on step 2"]
    assert "**The corpus after merge 2**" in texts(pupil.markdown)
    teach.query_params["step"] = "3"
    teach.run()  # the page writes its step to the room; the phone's next look sees it
    assert rooms.store().join(code).step == 3
    pupil.run()
    assert texts(pupil.subheader) == ["Your teacher is on step 3"]
    assert "**The corpus after merge 3**" in texts(pupil.markdown)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_an_uploaded_corpus_stays_off_the_phones_unless_the_teacher_shares_it():
    teach = AppTest.from_function(teacher_page, default_timeout=60, kwargs={"root": ROOT})
    teach.query_params["corpus"] = "upload:a .txt file"
    teach.query_params["step"] = "2"
    teach.run()
    share = teach.checkbox(key="bpe_poll_share")
    assert share.value is False  # kept private unless the teacher ticks it
    teach.button(key="bpe_poll_start").click().run()
    code = teach.session_state["poll_teacher_room"]
    assert rooms.store().join(code).view == {}
    pupil = student(code)
    assert "Your teacher keeps this corpus's words on their own screen." in texts(pupil.caption)
    assert not any("corpus after" in m for m in texts(pupil.markdown))
    teach.toggle(key=f"bpe_poll_shared_{code}").set_value(True).run()  # changed their mind
    assert rooms.store().join(code).share
    assert "**The corpus after merge 2**" in texts(pupil.run().markdown)


@pytest.mark.slow  # tries codes to the limit
def test_room_codes_tried_too_often_are_refused_on_the_join_page():
    at = open_page("lessons/poll/page.py", room="KKKK")
    for _ in range(rooms.store().limits.code_tries.count - 1):
        at.text_input(key="join_code").input("KKKM")
        at.button(key="join_go").click().run()
        at.text_input(key="join_code").input("KKKK")
        at.button(key="join_go").click().run()
    assert any("Too many room-code tries from this browser: wait" in e for e in texts(at.error))


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_room_code_in_lowercase_in_the_address_is_tried_once_not_at_every_rerun():
    teach = teacher()
    code = open_room_and_round(teach)
    typed = code.lower()[:2] + "-" + code.lower()[2:]  # as a student may type it
    pupil = student(typed)
    for _ in range(12):  # the fragment reruns the page every 0.75 s
        pupil.run()
    assert not any("Too many" in e for e in texts(pupil.error)), texts(pupil.error)
    assert f"Room {code}" in " ".join(texts(pupil.caption))


BUTTONS = [
    ("bpe", True),
    ("wordpiece", True),
    ("unigram", True),
    ("bytebpe", True),
    ("picky", True),
    ("superbpe", True),
    ("boundless", True),
    ("parity", True),
]


def test_the_pages_that_move_the_room_are_the_pages_with_a_poll():
    """The class session writes the step view of these pages (lessons/poll/teacher.py's
    POLL_PAGES, from lessons/pages.py) and every other page as "nothing is asked now"."""
    from lessons.poll.teacher import POLL_PAGES

    assert {page for page, poll in BUTTONS if poll} == POLL_PAGES


@pytest.mark.parametrize(("page", "poll"), BUTTONS)
def test_the_class_poll_button_beside_the_step_controls(page: str, poll: bool):
    """Every lesson with a class poll has its button beside the step controls (and its key
    in Keys); pressing it unfolds the poll, whose panel offers to open a room."""
    at = open_page(f"lessons/{page}/page.py", step="1")
    jump = [b for b in at.button if b.key == f"{page}_poll_jump"]
    keys = " ".join(m.value for m in at.markdown if "| key | does |" in m.value)
    assert bool(jump) == poll and ("Alt+Q" in keys) == poll
    if not poll:
        return
    assert not [b for b in at.button if b.key == f"{page}_poll_start"]  # folded, not run
    jump[0].click().run()
    assert at.session_state[f"{page}_class_poll_open"] is True
    assert [b for b in at.button if b.key == f"{page}_poll_start"]  # the panel runs
