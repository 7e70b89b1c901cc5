"""AppTest: /check set to a class (issue 36's class exercise). A teacher with a class open
chooses an exercise on /check and sets it; the room follows; students on /join see the
exercise and its corpus, paste the merges their own trainer learned, and see their result;
the teacher's screen counts the identical lists, draws the causes of the others and links
each first difference to its merge in the lesson; the record keeps one outcome per
student, no names and no merge lists.

The students' trainers are the ones written in tests/test_check_bugs.py (none uses the
checker's code): a correct one, and one that merges only the first occurrence of a pair in
each word. The expected first difference is where those two trainers part.
"""

from __future__ import annotations

import html

import pytest
from apptools import open_page
from test_check_bugs import first_difference, merge_first, train, words_of

from lessons.poll import student as anonymous
from lessons.poll import teacher
from subtok_core import rooms
from subtok_core.check import classwork, exercises

MERGES = 12  # the students' lists: the exercise's short corpus runs out soon after


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def texts(elements) -> list[str]:
    """What the elements say (the page writes a student's symbols as escaped text)."""
    return [html.unescape(str(e.value)) for e in elements]


def lists():
    """The exercise's corpus and two students' lists: a correct trainer's, a buggy one's."""
    ex = exercises.load("runs")
    lines = ex.text.splitlines()
    words = words_of(lines)
    right = train(words, MERGES)
    buggy = train(words, MERGES, merge=merge_first)
    return right, buggy, first_difference(buggy, right)


def as_text(merges) -> str:
    return "".join(f"{a} {b}\n" for a, b in merges)


def teacher_on_check(monkeypatch):
    """A teacher opens a class on BPE, then goes to /check (exercise:runs, its default)."""
    monkeypatch.setattr(teacher, "browser_cookies", lambda: {})
    at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", step="2")
    at.session_state["bpe_class_poll_open"] = True
    at.run()
    at.button(key="bpe_poll_start").click().run()
    code = at.session_state[teacher.ROOM]
    for key in list(at.query_params):
        del at.query_params[key]
    at.query_params["data"] = "exercise:runs"
    at.query_params["rule"] = "first"
    at.switch_page("lessons/check/page.py").run()
    assert not at.exception, at.exception
    return at, code


def student(monkeypatch, code: str, sid: str):
    monkeypatch.setattr(anonymous, "browser_cookies", lambda: {anonymous.COOKIE: sid})
    phone = open_page("lessons/poll/page.py", room=code)
    assert not phone.exception, phone.exception
    return phone


def send(phone, merges) -> None:
    phone.text_area(key="join_m_text").input(as_text(merges))
    phone.button[-1].click().run()  # the form's "Check and send"
    assert not phone.exception, phone.exception


@pytest.mark.slow  # a class exercise replayed
def test_a_class_exercise_from_check_to_the_phones_and_back(monkeypatch):
    right, buggy, differs = lists()
    at, code = teacher_on_check(monkeypatch)
    room = rooms.store().join(code)
    assert (room.page, room.corpus, room.view["kind"], room.view["exercise"]) == (
        "check",
        "exercise:runs",
        "exercise",
        "runs",
    )
    assert room.view["settings"]["ties"] == "first"

    waiting = student(monkeypatch, code, "s" * 22)
    assert "Exercise: exercise:runs" in texts(waiting.subheader)
    assert any("Waiting for your teacher to set this exercise" in t for t in texts(waiting.info))
    assert "Settings: character-level BPE, marker none, tie rule first." in texts(waiting.caption)

    at.button(key="check_class_set").click().run()
    assert not at.exception, at.exception
    current = rooms.store().current_round(code)
    assert current.state == "open" and current.run == room.run
    assert "0 students sent their merges; 0 identical to the reference." in " ".join(
        texts(at.markdown)
    ).replace("*", "")

    one = student(monkeypatch, code, "a" * 22)
    send(one, right)
    assert any(t.startswith("identical") for t in texts(one.success))
    two = student(monkeypatch, code, "b" * 22)
    send(two, buggy)
    said = " ".join(texts(two.warning))
    assert f"Merge {differs} differs (first-occurrence)" in said
    three = student(monkeypatch, code, "c" * 22)
    send(three, buggy)

    tally = dict(rooms.store().tally(current.id))
    assert tally == {"identical": 1, f"merge {differs}: first-occurrence": 2}
    at.run()
    shown = " ".join(texts(at.markdown)).replace("*", "")
    assert "3 students sent their merges; 1 identical to the reference." in shown
    table = at.dataframe[-1].value
    assert list(table["first difference"]) == [f"merge {differs}"]
    assert list(table["students"]) == [2] and list(table["cause"]) == ["first-occurrence"]
    link = table["lesson"][0]
    assert f"/bpe?corpus=exercise%3Aruns&ties=first&merges={max(differs, 10)}" in link
    assert link.endswith(f"step={differs}&marker=none")
    # the record: one outcome per student, no merge list
    rows = rooms.store().answer_rows(code)
    assert sorted(r["answer"] for r in rows) == sorted(tally and ["identical"] + 2 * [
        f"merge {differs}: first-occurrence"])  # fmt: skip
    assert not any(f"{a} {b}" in str(r) for r in rows for a, b in right[:3])


@pytest.mark.slow  # three checks of lists
def test_a_second_list_replaces_the_first_and_a_bad_one_is_a_sentence(monkeypatch):
    right, buggy, differs = lists()
    at, code = teacher_on_check(monkeypatch)
    at.button(key="check_class_set").click().run()
    phone = student(monkeypatch, code, "d" * 22)
    send(phone, buggy)
    send(phone, right)  # fixed the trainer and sent again
    current = rooms.store().current_round(code)
    assert rooms.store().tally(current.id) == [("identical", 1)]
    phone.text_area(key="join_m_text").input("this is no merge list at all\n")
    phone.button[-1].click().run()
    assert not phone.exception and phone.error  # the checker's sentence, nothing sent
    assert rooms.store().tally(current.id) == [("identical", 1)]


def test_changing_the_settings_moves_the_room_to_another_exercise_run(monkeypatch):
    at, code = teacher_on_check(monkeypatch)
    at.button(key="check_class_set").click().run()
    before = rooms.store().join(code).run
    at.selectbox(key="rule").select("greatest").run()  # the teacher picks CS336's rule
    room = rooms.store().join(code)
    assert room.run != before and room.view["settings"]["ties"] == "greatest"
    phone = student(monkeypatch, code, "e" * 22)  # the round was for the first settings
    assert any("Waiting for your teacher to set this exercise" in t for t in texts(phone.info))
    assert classwork.settings_of(room.view)[3] == "greatest"
    assert classwork.run_print("runs", room.view["settings"]) == room.run
