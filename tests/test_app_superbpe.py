"""AppTest: the SuperBPE (/superbpe) and BoundlessBPE (/boundless) pages open a deep link
on their step, say the core's sentence and the step's stage, judge the quiz, encode the
issue's sentence in 8 tokens (16 before the transition point) and turn bad input into
sentences.

Expected values: the sentences are the core's explain; 16 and 8 tokens are the reference
trainers' counts (tests/test_superbpe.py says how they were obtained); step 10 of
BoundlessBPE is " the" + " people" (60) over the ordinary (b, y) (50), in the reference's
order of the vocabulary.
"""

from __future__ import annotations

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from subtok_core import superbpe

TOY = "toy:by-the-way"


def page(name: str, **query) -> AppTest:
    return open_page(f"lessons/{name}/page.py", **query)


def tokens_line(at: AppTest) -> str:
    return next(c.value for c in at.code if " | " in c.value)


def test_superbpe_deep_link_shows_the_core_sentence_and_the_stage():
    at = page("superbpe", corpus=TOY, step="35")
    trace = superbpe.trace_superbpe(superbpe.load(TOY), merges=32, supermerges=8)
    assert [i.value for i in at.info] == [superbpe.explain(trace, 35)]
    assert "after the transition point (32 ordinary merges)" in at.info[0].value
    assert "is one token of 3 words" in at.info[0].value
    assert any("Stage: supermerge" in c.value for c in at.caption)
    assert not at.error and not at.warning


def test_superbpe_encodes_the_sentence_in_8_tokens_and_16_at_the_transition_point():
    at = page("superbpe", corpus=TOY, step="40")
    assert at.markdown and any(m.value == "8 tokens:" for m in at.markdown)
    at = page("superbpe", corpus=TOY, step="32")
    assert any(m.value == "16 tokens:" for m in at.markdown)
    assert "Stage: ordinary" in " ".join(c.value for c in at.caption)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_boundless_step_10_is_a_supermerge_that_beat_the_ordinary_merge():
    at = page("boundless", corpus=TOY, step="10")
    sentence = at.info[0].value
    assert sentence.startswith('Merge 10 is a supermerge: " the" and " people"')
    assert '"b" + "y", occurred 50 times' in sentence
    at = page("boundless", corpus=TOY, step="32")
    assert any(m.value == "8 tokens:" for m in at.markdown)


@pytest.mark.parametrize("name, step", [("superbpe", "34"), ("boundless", "9")])
def test_the_quiz_judges_the_next_merge(name, step):
    at = page(name, corpus=TOY, step=step)
    box = at.selectbox(key=f"{name}_guess_{step}")
    right = next(o for o in box.options if "people" in o and "the" in o)
    box.select(right).run()
    assert at.success and at.success[0].value.startswith("Right")


@pytest.mark.parametrize("name", ["superbpe", "boundless"])
@pytest.mark.slow  # trains on each bad input
def test_bad_input_is_a_sentence(name):
    at = page(name, corpus=TOY, ties="biggest", merges="5")
    assert at.warning  # the address's tie rule corrected, with a sentence
    assert not at.exception
    big = page(name, corpus="sample:enwiki", merges="5")
    assert any("at most 20,000 characters" in e.value for e in big.error)


def test_the_papers_cap_from_the_address():
    """toy:cat-mat, 20 merges, at most 4 words: the 4th supermerge is " dog" + " sat on the"
    (the hand count of tests/test_superbpe.py); a cap of 1 word is refused with a sentence."""
    at = page("superbpe", corpus="toy:cat-mat", merges="20", supermerges="6", max_words="4",
              step="24")  # fmt: skip
    assert at.info[0].value.startswith("Merge 24 is a supermerge, after the transition point")
    assert '" dog" and " sat on the"' in at.info[0].value
    one = page("superbpe", corpus="toy:cat-mat", merges="20", max_words="1")
    assert any("from 2 up" in e.value for e in one.error) and not one.exception
