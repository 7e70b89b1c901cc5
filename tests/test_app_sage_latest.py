"""The SaGe vocabulary a session last trained has one owner, lessons/sage/latest.py: the
SaGe page writes it there, the Compare page reads it there, and no other module spells its
session key."""

from pathlib import Path

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from lessons.sage.latest import LATEST

ROOT = Path(__file__).parents[1]


def kept_and_read() -> None:
    import streamlit as st

    from lessons.sage import latest

    st.write(f"before: {latest.latest()}")
    latest.remember("the model", "sample:crime", 150)
    st.write(f"after: {latest.latest()}")


def test_what_the_sage_page_remembers_is_what_is_read_back():
    at = AppTest.from_function(kept_and_read).run()
    assert not at.exception, at.exception
    said = [m.value for m in at.markdown]
    assert said[0] == "before: None"
    assert said[1] == "after: {'model': 'the model', 'sample': 'sample:crime', 'size': 150}"
    assert at.session_state[LATEST]["size"] == 150


def test_the_session_key_keeps_its_value_and_is_spelled_in_one_module():
    assert LATEST == "sage_latest"  # a session's SaGe vocabulary stays where it was
    spelled = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "lessons").rglob("*.py")
        if '"sage_latest"' in path.read_text() or '"latest")' in path.read_text()
    )
    assert spelled == ["lessons/sage/latest.py"]


@pytest.mark.slow  # SaGe then compare
def test_compare_offers_sage_once_the_owner_holds_a_run_and_not_before():
    from subtok_core import sage

    query = {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,unigram"}
    before = open_page("lessons/compare/page.py", **query)
    assert "SaGe" not in before.multiselect(key="compare_tok").options
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for name, value in query.items():
        at.query_params[name] = value
    at.session_state[LATEST] = {
        "model": sage.SageModel(("c", "a", "t", "b")),
        "sample": "sample:crime",
        "size": 4,
    }
    at.run()
    at.switch_page("lessons/compare/page.py").run()
    assert not at.exception, at.exception
    assert "SaGe" in at.multiselect(key="compare_tok").options
