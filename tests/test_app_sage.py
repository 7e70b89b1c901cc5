"""AppTest: the SaGe page runs on a tiny real sample, logs its steps, explains one token,
compares four vocabularies with a verdict per trend, refuses bad settings, and hands its
vocabulary to the Compare page."""

import pytest
from apptools import open_page
from streamlit.testing.v1 import AppTest

from subtok_core import sage
from subtok_core.sage import verdict as sage_verdict

TINY = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}  # 19 Russian sentences


def sage_page(**query) -> AppTest:
    at = open_page("pages/sage.py", **{**TINY, **query})
    assert not at.error, [e.value for e in at.error]
    return at


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture(scope="module")
def tiny_trace():
    sentences = sage.sample_sentences("sample:crime")
    return sage.trace_sage(sentences, sage.SageSettings(vocab_size=150, k=10, M=20))


def test_the_step_log_lists_every_prune_step_of_the_run(tiny_trace):
    at = sage_page()
    log = next(df.value for df in at.dataframe if "pruned (ablation loss)" in df.value.columns)
    assert list(log["vocab size after"]) == [s.vocab_size for s in tiny_trace.steps]
    assert list(log["vocab size after"])[-1] == 150
    first = tiny_trace.steps[0].pruned[0]
    assert f"{first[0]} ({first[1]:,.1f})" in log["pruned (ablation loss)"].iloc[0]


def test_moving_the_step_shows_that_steps_candidate_set_with_the_pruned_rows(tiny_trace):
    at = sage_page(step="2")
    assert "Step 2: the candidate set" in markdown(at)
    table = next(df.value for df in at.dataframe if "ablation loss" in df.value.columns)
    pruned = {p for p, _ in tiny_trace.steps[1].pruned}
    assert set(table.loc[table["status"] == "pruned", "piece"]) == pruned


def test_one_token_up_close_shows_both_cuts_and_the_loss_change():
    at = sage_page(step="1")
    text = markdown(at)
    assert "<p>with " in text and "without it:" in text and "[" in text
    labels = [m.label for m in at.metric]
    assert {"sentence loss with it", "without it", "change"} <= set(labels)


def test_the_result_view_compares_four_vocabularies_with_a_verdict_per_trend():
    at = sage_page()
    lines = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert len(lines) == len(sage_verdict.TRENDS)
    for trend, line in zip(sage_verdict.TRENDS, lines, strict=True):
        assert line.startswith(f"- {trend.text}: SaGe ")
        assert "frequency pruning" in line and "random pruning in" in line
        assert "of 5 seeds" in line
    measures = next(df.value for df in at.dataframe if "vocabulary" in df.value.columns)
    assert list(measures["vocabulary"]) == ["BPE", "SaGe", "frequency-pruned", "random-pruned"]
    assert "that frequency pruning removed" in markdown(at)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"V": "60"}, "smaller than the 73 characters"),
        ({"M": "5"}, "must hold the k x m = 10"),
        ({"corpus": "sample:lee", "lines": "3", "V": "1000"}, "too small"),
    ],
)
def test_bad_settings_give_a_message_and_no_traceback(query, message):
    at = open_page("pages/sage.py", **{**TINY, **query})
    assert any(message in e.value for e in at.error), [e.value for e in at.error]


def test_the_compare_page_offers_the_vocabulary_sage_trained():
    at = sage_page()
    at.switch_page("pages/compare.py")
    at.query_params["corpus"] = "sample:crime"
    at.query_params["size"] = "150"
    at.run()
    assert at.multiselect(key="compare_tok").options == ["BPE", "WordPiece", "Unigram", "SaGe"]
    at.multiselect(key="compare_tok").set_value(["bpe", "sage"]).run()
    assert not at.exception
    assert any("trained on the SaGe page" in i.value for i in at.info)
