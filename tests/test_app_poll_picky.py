"""AppTest: a class poll on Picky BPE asks which part a merge removes. The teacher's panel
(lessons/poll/panel.py) in one session, two students on /join in two others, one SQLite
file.

Expected: the authors' trainer's events on the toy (tests/test_picky.py): event 25 merges
▁low + er, and event 26 removes er (IoS 2/2 > 0.9) while ▁low stays (2/7).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from subtok_core import rooms

ROOT = str(Path(__file__).parents[1])


def teacher_page(root: str) -> None:
    """The Picky BPE poll alone: toy:low-lower, size 25, τ 0.9, at ?step=."""
    import sys

    sys.path.insert(0, root)
    import streamlit as st

    from lessons.poll import panel  # AppTest runs this function's source alone
    from subtok_core import corpus, picky

    trace = picky.trace_picky(corpus.load("toy:low-lower"), vocab_size=25, threshold=0.9)
    step = int(st.query_params.get("step", "25"))
    panel.teacher_panel("picky", trace, step, "toy:low-lower")


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def texts(elements) -> list[str]:
    return [e.value for e in elements]


@pytest.mark.slow  # a poll round
def test_the_class_is_asked_which_part_is_removed_and_the_reveal_says_why():
    teach = AppTest.from_function(teacher_page, default_timeout=60, kwargs={"root": ROOT})
    teach.query_params["step"] = "25"
    teach.run()
    teach.button(key="picky_poll_start").click().run()
    code = teach.session_state["poll_teacher_room"]
    teach.button(key="picky_poll_round").click().run()
    pupils = [open_page("lessons/poll/page.py", room=code) for _ in range(2)]
    asked = "Merge 25 made ▁lower: which of its parts is removed?"
    assert all(p.subheader[0].value == asked for p in pupils)
    for pupil, pick in zip(pupils, ("er", "▁low")):
        pupil.selectbox[0].set_value(pick)
        pupil.button[0].click().run()
    polls = rooms.store()
    assert sorted(polls.tally(polls.current_round(code).id)) == [("er", 1), ("▁low", 1)]
    teach.run().button(key="picky_poll_reveal").click().run()
    assert texts(teach.metric) == ["er", "1 of 2 (50%)"]
    assert any(
        "Split 26: er is removed, since merge 25 took 2 of its 2" in i for i in texts(teach.info)
    )
    verdicts = [texts(p.run().success) + texts(p.warning) for p in pupils]
    assert verdicts == [["You predicted it."], ["Not this time."]]
