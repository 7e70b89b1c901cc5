"""AppTest: the WordPiece page shows exact scores, steps, encodes, and survives bad input."""

import html
import re

import pytest
from apptools import infos, open_page
from streamlit.testing.v1 import AppTest


def wordpiece_page(**query) -> AppTest:
    return open_page("lessons/wordpiece/page.py", **query)


def score_table(at: AppTest):
    return next(df.value for df in at.dataframe if "fraction" in df.value.columns)


def test_the_step_slider_changes_the_merge_and_its_exact_score():
    at = wordpiece_page()
    at.selectbox(key="corpus").set_value("toy:sunflower").run()
    at.slider(key="step").set_value(1).run()
    assert "Merge 1: (s, ##u) scores 1/3 = 3 / (3 x 3)" in infos(at)
    first = score_table(at).iloc[0]
    assert (first["pair"], first["fraction"], first["status"]) == ("(s, ##u)", "1/3", "merged")
    at.button(key="wordpiece_step_next").click().run()
    assert "Merge 2: (##e, ##r) scores 1/4" in infos(at)
    table = score_table(at)
    tied = table[table["status"] == "tied"]
    assert list(tied["pair"]) == ["(##e, ##d)"] and list(tied["fraction"]) == ["1/4"]
    at.slider(key="step").set_value(3).run()
    assert "Merge 3: (##e, ##d) scores 1/1" in infos(at)


def test_deep_link_and_bpe_contrast():
    at = wordpiece_page(corpus="toy:sunflower", step="2")
    assert at.slider(key="step").value == 2
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["WordPiece merges (best score)"] == "(##e, ##r)"
    # the most frequent pair after s+##u: (##l, ##o) and (##o, ##w) occur 9 times; f ##l 8
    assert metrics["BPE would merge (most frequent)"] == "(##l, ##o)"


def test_encoding_shows_longest_match_and_unk_against_bpe():
    at = wordpiece_page(corpus="toy:sunflower", step="3")
    at.text_input(key="wordpiece_encode").input("fused funny").run()
    # the encode lists are chips now, and the trace a table per word (issue 14)
    lists = next(m.value for m in at.markdown if "<b>WordPiece</b>, 5 tokens" in m.value)
    wordpiece_line, bpe_line = lists.split("</style>")[1].split("<b>BPE with 3 merges</b>")
    chips = re.findall(r'<span class="chip[^"]*"[^>]*>([^<]*)</span>', wordpiece_line)
    assert [html.unescape(chip) for chip in chips] == ["f", "##u", "##s", "##ed", "[UNK]"]
    assert ">[UNK]<" in bpe_line and '<span class="chip">f</span>' in bpe_line
    fused = html.unescape(next(m.value for m in at.markdown if "<b>fused</b>" in m.value))
    assert (
        '<span class="chip miss">##sed</span><span class="chip miss">##se</span>'
        '<span class="chip hit">##s</span>'
    ) in fused


def test_hug_pug_shows_the_course_slip_and_the_exact_third_merge():
    at = wordpiece_page(corpus="toy:hug-pug", step="3")
    assert "Merge 3: (hu, ##gs) scores 1/15" in infos(at)
    table = score_table(at)
    assert table.set_index("pair").loc["(hu, ##g)", "fraction"] == "2/45"
    assert any("2/45" in md.value for md in at.markdown)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_predicting_the_next_merge_uses_scores():
    at = wordpiece_page(corpus="toy:sunflower")
    at.selectbox(key="wordpiece_guess_0").set_value(("f", "##l")).run()
    assert "(f, ##l) scores 1/9, while (s, ##u) scores 1/3" in at.warning[0].value


def test_empty_text_is_an_error_and_unicode_text_then_trains():
    at = wordpiece_page()
    at.selectbox(key="corpus").set_value("text:your own").run()
    at.text_area(key="wordpiece_text").input("").run()
    assert not at.exception and "empty" in at.error[0].value
    at.text_area(key="wordpiece_text").input("ünïcödé 🙂 wörds wörds").run()
    assert not at.exception and not at.error
    assert at.slider(key="step").max >= 1
