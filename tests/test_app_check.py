"""AppTest: the /check page. A pasted merge list with the overlap bug of the issue's
example is named at merge 1 with its counts (runs: (a, a) 13 with overlap, 7 without,
(a, b) 8, counted by hand); a list equal to the textbook loop is identical; the marked
rows of the pair table say in words which pair is whose; the link opens /bpe at that
merge; each exercise has a zip with its corpus and the answer keys; bad input is an
st.error and the page keeps working. A verdict is read as the student reads it: the
student's symbols are written as character references (lessons/ui/escape.py)."""

from __future__ import annotations

import html
import io
import zipfile

import pytest
from apptools import infos, open_page
from streamlit.proto.Block_pb2 import Block

StatusProto = Block.Expandable


def paste(at, text: str):
    at.text_area[0].set_value(text).run()
    assert not at.exception, at.exception
    return at


def test_the_overlap_bug_is_named_at_merge_one():
    at = paste(open_page("lessons/check/page.py", data="exercise:runs"), "a b\n")
    said = " ".join(html.unescape(i.value) for i in at.info)
    assert "Cause: overlap." in said
    assert "(a, b), which occurs 8 times" in said and "(a, a), which occurs 13 times" in said
    assert "(a, a) has 7" in said
    frame = at.dataframe[0].value
    marked = frame[frame["mark"] != ""]
    assert marked[["left", "right"]].values.tolist() == [["a", "a"], ["a", "b"]]
    assert marked["count"].tolist() == [13, 8]
    assert [m.startswith("◀") for m in marked["mark"]] == [True, True]
    link = at.get("page_link")[-1].proto
    assert (link.page, link.label) == ("bpe", "Open /bpe at merge 1")
    assert "corpus=exercise%3Aruns" in link.query_string and "step=1" in link.query_string


def test_the_link_opens_bpe_at_that_merge_with_the_same_pair():
    at = open_page("lessons/bpe/page.py", corpus="exercise:runs", marker="none", ties="first",
                   merges="10", step="1")  # fmt: skip
    assert "Merge 1: the pair (a, a) occurs 13 times" in infos(at)


def test_a_correct_list_is_identical():
    at = paste(open_page("lessons/check/page.py", data="exercise:runs"), "a a\na b\n")
    assert at.success and "identical: your 2 merges" in html.unescape(at.success[0].value)


def test_a_byte_level_exercise_takes_its_settings():
    at = open_page("lessons/check/page.py", data="exercise:special")
    assert at.selectbox(key="level").value == "bytes"
    assert at.text_input[0].value == "<|endoftext|>"
    at = paste(at, "a t\n< |\n")
    assert "Cause: special-token." in " ".join(html.unescape(i.value) for i in at.info)


def test_bad_merges_are_an_error_and_the_page_goes_on():
    at = paste(open_page("lessons/check/page.py", data="exercise:runs"), "a b c\n")
    assert at.error and "none of the formats the checker reads" in html.unescape(at.error[0].value)
    assert any("Exercise corpora" in s.value for s in at.header)


def test_every_exercise_has_a_zip_with_its_answer_keys():
    at = open_page("lessons/check/page.py")
    buttons = [b for b in at.get("download_button")]
    assert len(buttons) >= 6
    from lessons.check.views import exercise_zip

    names = zipfile.ZipFile(io.BytesIO(exercise_zip("runs"))).namelist()
    assert sorted(names) == sorted(
        ["runs/corpus.txt", "runs/merges-first.txt", "runs/merges-lex.txt",
         "runs/merges-greatest.txt", "runs/merges-tokenizers.txt", "runs/README.txt"]
    )  # fmt: skip
    key = zipfile.ZipFile(io.BytesIO(exercise_zip("runs"))).read("runs/merges-first.txt")
    assert key.decode().splitlines()[1:3] == ["a a", "a b"]  # by hand: (a, a) 13, then (a, b) 8


def test_two_sessions_with_other_tie_rules_get_their_own_verdicts():
    """The same pasted list (the first 6 merges under 'lex', by the textbook loop in
    test_check.py) checked under 'first' in one session and 'lex' in another: the cached
    verdict is keyed by the rule, so each session sees its own."""
    from test_check import lex, textbook, words

    from subtok_core.check import exercises

    merges = "".join(f"{a} {b}\n" for a, b in textbook(words(exercises.load("ties")), 6, pick=lex))
    first = paste(open_page("lessons/check/page.py", data="exercise:ties", rule="first"), merges)
    lex = paste(open_page("lessons/check/page.py", data="exercise:ties", rule="lex"), merges)
    assert not first.success
    assert "Cause: tie." in " ".join(html.unescape(i.value) for i in first.info)
    assert lex.success and "identical: your 6 merges" in html.unescape(lex.success[0].value)
    first.run()
    assert "Cause: tie." in " ".join(html.unescape(i.value) for i in first.info)


def test_your_own_text_is_checked_too():
    """'aaa aaa ab ab ab', the issue's example: (a, a) 4 with overlap, 2 without, (a, b) 3."""
    at = open_page("lessons/check/page.py", data="text:your own")
    at.text_area[0].set_value("aaa aaa ab ab ab").run()
    at = paste_at(at, 1, "a b\n")
    said = " ".join(html.unescape(i.value) for i in at.info)
    assert "Cause: overlap." in said and "(a, a) has 2" in said and "occurs 4 times" in said
    assert not at.get("page_link")


def paste_at(at, index: int, text: str):
    at.text_area[index].set_value(text).run()
    assert not at.exception, at.exception
    return at


def test_a_list_longer_than_the_web_limit_is_refused_before_training():
    import time

    from subtok_core import limits

    top = int(limits.limit("merges", "web"))
    at = open_page("lessons/check/page.py", data="exercise:runs")
    started = time.perf_counter()
    at = paste(at, "a b\n" * (top + 1))
    assert time.perf_counter() - started < 10  # refused, not trained
    said = " ".join(html.unescape(e.value) for e in at.error)
    assert f"{top + 1:,} merges" in said and f"at most {top:,}" in said
    assert any("Exercise corpora" in s.value for s in at.header)  # the page goes on


def test_choosing_another_exercise_takes_its_settings():
    """A student on exercise:runs (characters, marker none) who picks exercise:endings
    gets its marker eow (its settings file says so), then bytes on exercise:special, and
    back on endings characters and eow again."""
    at = open_page("lessons/check/page.py", data="exercise:runs")
    assert (at.selectbox(key="level").value, at.selectbox(key="mark").value) == (
        "characters",
        "none",
    )
    at.selectbox(key="data").set_value("exercise:endings").run()
    assert (at.selectbox(key="level").value, at.selectbox(key="mark").value) == (
        "characters",
        "eow",
    )
    at.selectbox(key="data").set_value("exercise:special").run()
    assert at.selectbox(key="level").value == "bytes"
    assert at.selectbox(key="split").value == "gpt2"
    at.selectbox(key="data").set_value("exercise:endings").run()
    assert (at.selectbox(key="level").value, at.selectbox(key="mark").value) == (
        "characters",
        "eow",
    )
    assert not at.exception


def test_the_check_shows_its_phases_in_a_status():
    """The long work is an st.status: complete once the verdict is drawn; an error when
    the merges cannot be read (the sentence stays an st.error below it)."""
    at = paste(open_page("lessons/check/page.py", data="exercise:runs"), "a b\n")
    assert [(s.label, s.proto.state) for s in at.get("status")] == [
        ("Checked against the reference run.", StatusProto.COMPLETE)
    ]
    at = paste(open_page("lessons/check/page.py", data="exercise:runs"), "a b c\n")
    assert [(s.label, s.proto.state) for s in at.get("status")] == [
        ("Your merges could not be checked.", StatusProto.ERROR)
    ]
    assert at.error and "none of the formats the checker reads" in html.unescape(at.error[0].value)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_auto_names_cs336s_rule_and_the_evidence_is_shown():
    """The ties exercise trained by a textbook loop that breaks ties as CS336 does (the
    greater pair): under the default rule 'auto' the page says the list is identical and
    names CS336's rule; under 'first' the cause is a tie, with the re-trainings in a table."""
    from test_check import textbook, words

    from subtok_core.check import exercises

    def greatest(table):
        return max(table, key=lambda p: (table[p], p))

    merges = textbook(words(exercises.load("ties")), 12, pick=greatest)
    text = "".join(f"{a} {b}\n" for a, b in merges)
    at = paste(open_page("lessons/check/page.py", data="exercise:ties"), text)
    assert at.success and "CS336's rule (greatest pair)" in html.unescape(at.success[0].value)
    at = paste(open_page("lessons/check/page.py", data="exercise:ties", rule="first"), text)
    assert "Cause: tie." in " ".join(html.unescape(i.value) for i in at.info)
    evidence = at.dataframe[1].value
    named = evidence[evidence["mark"] != ""]
    assert named["cause"].tolist() == ["tie"] and named["your merges matched"].tolist() == [12]
