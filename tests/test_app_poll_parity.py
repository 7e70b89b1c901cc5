"""AppTest: a class poll on parity-aware BPE, the teacher's panel in one session and two
students on /join in others, on one SQLite file. The question is the pair merged next,
from the served language's table; the reveal gives the page's sentence.

Expected: the authors' trainer on the issue's toy (tests/test_parity.py): merge 6 serves xx
(dev lengths en 8, xx 9) and merges u g (hug 10 + pug 5 + hugs 5 = 20 times, by hand).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

ROOT = str(Path(__file__).parents[1])


def teacher_page(root: str) -> None:
    """A lesson page with only the poll: parity-aware BPE on the issue's toy at ?step=."""
    import sys

    sys.path.insert(0, root)
    import streamlit as st

    from lessons.poll import panel  # AppTest runs this function's source alone
    from subtok_core import parity

    source = parity.load("en=toy:low-lower xx=toy:hug-pug")
    dev = {"en": "low newest widest", "xx": "hug pun bun"}
    trace = parity.trace_parity(source, dev, merges=8)
    panel.teacher_panel("parity", trace, int(st.query_params.get("step", "5")), "toy")


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


def texts(elements) -> list[str]:
    return [e.value for e in elements]


@pytest.mark.slow  # a poll round
def test_the_class_is_asked_which_pair_merges_next_and_the_reveal_says_why():
    teach = AppTest.from_function(teacher_page, default_timeout=60, kwargs={"root": ROOT})
    teach.query_params["step"] = "5"
    teach.run()
    teach.button(key="parity_poll_start").click().run()
    code = teach.session_state["poll_teacher_room"]
    teach.button(key="parity_poll_round").click().run()
    pupils = [open_page("lessons/poll/page.py", room=code) for _ in range(2)]
    assert all(p.subheader[0].value == "Which pair is merged next (merge 6)?" for p in pupils)
    for pupil, pick in zip(pupils, ["(u, g)", "(u, n)"]):
        pupil.selectbox[0].set_value(pick)
        pupil.button[0].click().run()
    teach.run()
    teach.button(key="parity_poll_reveal").click().run()
    assert texts(teach.metric) == ["(u, g)", "1 of 2 (50%)"]
    assert any(i.startswith("Merge 6 serves xx: its dev set is the longest, 9 tokens against "
                            "en's 8.") for i in texts(teach.info))  # fmt: skip
    verdicts = []
    for pupil in pupils:
        pupil.run()
        verdicts.append(texts(pupil.success) + texts(pupil.warning))
    assert verdicts == [["You predicted it."], ["Not this time."]]
