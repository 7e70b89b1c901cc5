"""The class poll's chart at the projector (issue 35): an answer of 80 characters is drawn
in lines, never cut; the bars make room for its lines; the key after the reveal is in words."""

import pandas as pd

from subtok_core.charts import poll

LONG = "I think the pair of e and s merges next because it appears in newest and widest!"


def test_a_long_answer_is_drawn_in_lines_none_cut():
    assert len(LONG) == 80
    frame = pd.DataFrame({"answer": [LONG, "(e, s)"], "count": [3, 2], "verdict": ["", ""]})
    spec = poll.answers_chart(frame).to_dict()
    axis = spec["encoding"]["y"]["axis"]
    assert axis["labelLimit"] == 0  # Vega cuts nothing
    (data,) = spec["datasets"].values()
    label = next(row["label"] for row in data if row["answer"] == LONG)
    lines = label.split("\n")
    assert " ".join(lines) == LONG  # every word kept, in order
    assert len(lines) == 4 and max(map(len, lines)) <= 22  # 80 characters, 22 a line
    # each bar is tall enough for its four lines of 21 px
    assert spec["height"]["step"] >= 4 * 21
    assert spec["description"].startswith("5 answers; the most given is " + LONG)


def test_the_sentence_counts_the_answers_of_bars_left_out():
    answers = [f"(a, {n})" for n in range(14)]
    frame = pd.DataFrame({"answer": answers, "count": [1] * 14, "verdict": [""] * 14})
    said = poll.answers_chart(frame).to_dict()["description"]
    assert said.startswith("14 answers;") and "12 given most often of 14" in said


def test_the_key_after_the_reveal_says_each_verdict_and_its_outline():
    key = poll.legend_html()
    for words in ("the algorithm's choice, thick outline", "tied, dashed outline", "other"):
        assert words in key
