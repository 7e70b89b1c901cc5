"""AppTest: the Picky BPE page (/picky) opens a deep link on its step, says the core's
sentence, shows IoS per part (the paper's why), judges the prediction of a merge and of a
removal, encodes a word, and says bad settings in a sentence.

Expected values: the events are the authors' trainer's on the toy (tests/test_picky.py
says how they were obtained): event 25 merges ▁low + er, ▁low's IoS 2/7 (it stays), er's
2/2 (removed at event 26).
"""

from __future__ import annotations

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from subtok_core import picky
from subtok_core.corpus import load


def page(**query) -> AppTest:
    return open_page("lessons/picky/page.py", **query)


def frame_with(at: AppTest, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def test_deep_link_shows_the_merge_and_ios_per_part():
    at = page(corpus="toy:low-lower", size="25", threshold="0.9", step="25")
    assert at.slider(key="step").value == 25
    trace = picky.trace_picky(load("toy:low-lower"), vocab_size=25, threshold=0.9)
    assert [i.value for i in at.info] == [picky.explain(trace, 25)]
    assert "IoS of ▁low = f(▁lower) / f(▁low) = 2/7 = 0.29" in at.info[0].value
    ios = frame_with(at, "IoS")
    assert list(ios["part"]) == ["▁low", "er"]
    assert list(ios["f(part) before"]) == [7, 2]
    assert list(ios["status"]) == ["stays", "removed"]
    assert list(ios["IoS"]) == ["2/7 = 0.286", "2/2 = 1.000"]
    assert list(ios["IoS > 0.9"]) == ["no", "yes"]
    assert not at.warning and not at.error


def test_after_a_removing_merge_the_prediction_asks_which_part():
    at = page(corpus="toy:low-lower", size="25", threshold="0.9", step="25")
    box = at.selectbox(key="picky_removal_25")
    assert box.label == "Merge 25 made ▁lower: which of its parts is removed?"
    box.set_value("▁low").run()
    assert at.warning[0].value.startswith("Not this time: er is removed")
    at.selectbox(key="picky_removal_25").set_value("er").run()
    assert at.success[0].value.startswith("Right: er is removed")


def test_a_split_step_names_what_falls_back():
    at = page(corpus="toy:low-lower", size="25", threshold="0.9", step="15")
    assert at.info[0].value.startswith("Split 15: ▁new is removed, since merge 14 took 6 of its 6")
    assert "▁ + n + e + w" in at.info[0].value
    at.selectbox(key="picky_guess_15").set_value(("▁", "w")).run()
    assert at.success[0].value.startswith("Right: (▁, w) occurs 3 times")


def test_the_encoder_replays_merges_and_splits():
    at = page(corpus="toy:low-lower", size="25", threshold="0.9", step="26")
    at.text_input(key="picky_encode").set_value("lowest").run()
    assert "**4 tokens:** `▁low` `e` `s` `t`" in [m.value for m in at.markdown]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_bad_settings_are_sentences():
    at = page(corpus="toy:low-lower", size="10")
    assert any("leaves nothing to learn" in e.value for e in at.error)
    at = page(corpus="toy:low-lower", threshold="7")
    # the address is corrected to the nearest τ allowed, and the page says so
    assert at.number_input(key="threshold").value == 1.0
    assert any("threshold" in w.value for w in at.warning)


def test_a_character_above_tau_stays():
    from lessons.picky import views

    trace = picky.trace_picky(load("toy:low-lower"), vocab_size=25, threshold=0.9)
    frame = views.ios_frame(trace.steps[0], 0.9)
    # hand count: es takes all 9 s (newest 6, widest 3) and 9 of the 17 e (lower 2,
    # newest 12, widest 3): s is above τ, but a single character is never removed
    assert list(frame["IoS"]) == ["9/17 = 0.529", "9/9 = 1.000"]
    assert list(frame["IoS > 0.9"]) == ["no", "yes, but a character"]
    assert list(frame["status"]) == ["stays", "stays"]
