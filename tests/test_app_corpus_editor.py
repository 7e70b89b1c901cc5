"""The corpus editor gives its words and how they were split (the punctuation box), and the
pages pass that value on: nothing reads the box back from the session."""

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest


def edited_text() -> None:
    import streamlit as st

    from lessons.ui.corpus import TEXT, corpus_editor

    for name in (TEXT, "toy:low-lower"):
        edited = corpus_editor(name, "bpe")
        st.write(f"{name}: {edited.split_punct}, {sorted(edited.words.words)[:3]}")


def test_the_editor_says_whether_it_split_punctuation_off():
    at = AppTest.from_function(edited_text).run()
    assert not at.exception, at.exception
    said = [m.value for m in at.markdown if ": " in m.value]
    assert said[0] == "text:your own: False, ['cat', 'cats', 'mat']"
    assert said[1].startswith("toy:low-lower: False")  # a toy has no box
    at.text_area(key="bpe_text").input("the cat, the cat.").run()
    at.checkbox(key="bpe_punct").check().run()
    said = [m.value for m in at.markdown if ": " in m.value]
    assert said[0] == "text:your own: True, [',', '.', 'cat']"  # 'cat,' cut in two
    assert said[1].startswith("toy:low-lower: False")


def commands(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if "subtok train bpe" in c.value]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_compare_writes_the_command_with_the_punctuation_box_as_checked():
    at = open_page("lessons/compare/page.py", corpus="sample:crime", size="150", tok="bpe,unigram")
    assert commands(at) and "--split-punct" not in commands(at)[0]
    at.checkbox(key="compare_punct").check().run()
    assert not at.exception, at.exception
    assert "--split-punct" in commands(at)[0]
