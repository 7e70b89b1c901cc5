"""AppTest: the SaGe page's "Paper vs this run" tab (Tables 1 and 2 and the summary
figures, each beside the paper's) and the page's labels (issue 14: one-line names with the
paper's letter in the help, no course file numbers, the paper preset's time said first)."""

import html

import pandas as pd
import pytest
import streamlit as st
from apptools import open_page

from subtok_core import measure as metrics
from subtok_core import sage
from subtok_core.sage import paper, summary, table1

TINY = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}  # 19 Russian sentences
SETTINGS = sage.SageSettings(vocab_size=150, k=10, M=20)

pytestmark = pytest.mark.slow  # SaGe runs on a real sample (crime or Lee)


@pytest.fixture(scope="module")
def page():
    st.cache_data.clear()
    st.cache_resource.clear()
    at = open_page("lessons/sage/page.py", **TINY)
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.fixture(scope="module")
def run():
    sentences = sage.sample_sentences("sample:crime")
    return sentences, sage.trace_sage(sentences, SETTINGS)


def texts(at) -> str:
    """The page's text, as read (a token's signs are character references in its HTML)."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    return html.unescape("\n".join(
        parts + [s.value for s in [*at.header, *at.subheader]] + [i.value for i in at.info]
    ))  # fmt: skip


def test_the_paper_tab_sets_table_1_beside_the_papers(page, run):
    sentences, trace = run
    found = table1.table_one(sage.bpe_model(trace).vocab, sage.vocab_after(trace), sentences)
    text = texts(page)
    assert "Table 1: a token BPE keeps and SaGe drops" in text
    assert f"This run: {found.token}**" in text
    assert f"inside {found.words:,} different words" in text
    assert "_This _gene _is _a _pseud og ene" in text  # the paper's own rows beside it
    assert paper.CITATION in text


def test_the_paper_tab_has_a_target_centric_table_2(page):
    text = texts(page)
    assert "Table 2: a target whose window changed from outside it" in text
    assert "Tokenization using V \\ {_includ}" in text  # the paper's, always shown
    assert "_use _of _an _inc l u [de _direct <b>ive</b> _is _when] _ref er r ing _to" in text


def test_the_summary_figures_are_the_runs(page, run):
    sentences, trace = run
    lines = [" ".join(words) for words in sentences]
    bpe, kept = sage.bpe_model(trace).vocab, sage.vocab_after(trace)
    counts = [len(metrics.tokenize_with(sage.SageModel(v), lines)) for v in (bpe, kept)]
    expected = summary.figure_rows(summary.summary_figures(bpe, kept, *counts))
    table = next(d.value for d in page.dataframe if "figure" in d.value.columns)
    assert list(table.columns) == ["figure", "the paper (V = 16,000)", "this run (V = 150)"]
    assert list(table["this run (V = 150)"]) == [row["this run"] for row in expected]
    assert list(table["the paper (V = 16,000)"]) == [row["the paper"] for row in expected]
    assert list(table["figure"]) == [row["figure"] for row in expected]
    assert summary.agreement(summary.summary_figures(bpe, kept, *counts)) in texts(page)


def test_labels_fit_one_line_and_name_the_paper_letter_in_the_help(page):
    for key in ("V", "n", "k", "M", "m", "l"):
        box = page.number_input(key=key)
        assert len(box.label) <= 24 and ":" not in box.label, box.label
        assert f"Algorithm 3 (Yehezkel & Pinter, 2023): {key}." in box.help
    labels = [page.number_input(key=k).label.lower() for k in ("M", "m")]
    assert labels[0] != labels[1]  # not the same name in another case
    assert "W in the SaGe paper" in page.number_input(key="window").help


def test_no_course_file_numbers_and_the_preset_time_is_said_first(page):
    text = texts(page)
    assert "paper 000" not in text and "(002)" not in text and "(000)" not in text
    note = next(c.value for c in page.caption if c.value.startswith("Paper settings:"))
    assert "min" in note or "not been measured" in note


def test_step_log_keeps_every_digit_of_the_loss_for_the_download(page, run):
    _, trace = run
    log = next(d.value for d in page.dataframe if "loss before the prune" in d.value.columns)
    assert isinstance(log, pd.DataFrame)
    assert list(log["loss before the prune"]) == [s.loss for s in trace.steps]
