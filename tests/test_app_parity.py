"""AppTest: the parity-aware BPE page (/parity) opens a deep link on its step, says which
language the merge served and why in the dev lengths, marks the chosen and tied pairs in
words, shows the dev tokens per language beside ordinary BPE, judges a prediction, and
says bad settings in a sentence.

Expected values: the authors' trainer on the issue's toy (its --verbose lengths before
each merge and the languages served, copied in tests/test_parity.py): merge 6 serves xx at
lengths en 8, xx 9 and merges u g; merge 5 serves en on a tie of lengths 9/9; after 8
merges 7/6, against 9/4 for ordinary BPE (-g 8).
"""

from __future__ import annotations

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest


def page(**query) -> AppTest:
    return open_page("lessons/parity/page.py", **query)


def frame_with(at: AppTest, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def test_the_step_says_the_language_it_served_and_the_dev_lengths():
    at = page(step="6")
    assert at.slider(key="step").value == 6
    (said,) = [i.value for i in at.info]
    assert said.startswith(
        "Merge 6 serves xx: its dev set is the longest, 9 tokens against en's 8."
    )
    assert "(u, g)" in said and "en 8, xx 8 tokens" in said
    pairs = frame_with(at, "count")
    assert pairs.iloc[0].tolist() == ["(u, g)", 20, "merged"]  # u g: hug 10 + pug 5 + hugs 5
    assert not at.warning and not at.error


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_tie_of_lengths_and_a_tie_of_pairs_are_said_in_words():
    at = page(step="5")
    said = at.info[0].value
    assert "among the longest, 9 tokens as xx" in said and "listed first, en" in said
    pairs = frame_with(at, "count")
    status = dict(zip(pairs["pair"], pairs["status"]))
    assert status["(w, est)"] == "merged" and status["(n, e)"] == "tied"


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_dev_tokens_beside_ordinary_bpe():
    at = page(step="8")
    both = frame_with(at, "after all merges")
    assert both.values.tolist() == [["parity-aware", 7, 6, 13], ["ordinary BPE", 9, 4, 13]]
    dev = frame_with(at, "served")
    assert dev["en"].tolist() == [15, 13, 11, 10, 9, 8, 8, 7, 7]
    assert dev["xx"].tolist() == [9, 9, 9, 9, 9, 9, 8, 8, 6]
    assert any("after merge 8: en 7, xx 6" in c.value for c in at.caption)


def test_the_prediction_is_judged():
    at = page(step="5")
    box = at.selectbox(key="parity_guess_5")
    box.set_value(("u", "g")).run()
    assert at.success[0].value.startswith("Right: xx is served")


def test_a_bad_corpus_in_the_address_is_said_and_corrected():
    at = page(corpus2="toy:nope")
    assert any("corpus2=toy:nope" in w.value for w in at.warning)
    assert not at.error and at.info
