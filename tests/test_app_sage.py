"""AppTest: the SaGe page runs on a tiny real sample, logs its steps, explains one token,
compares four vocabularies with a verdict per trend, refuses bad settings, and hands its
vocabulary to the Compare page."""

import threading
import time

import pytest
import streamlit as st
from apptools import open_page
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest

from subtok_core import sage
from subtok_core.sage import verdict as sage_verdict
from subtok_core.sage import worker as sage_worker

TINY = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}  # 19 Russian sentences
# 300 BPE pieces pruned to 150 in three steps of 50: step 2 exists with k = 50
SPLIT = {**TINY, "n": "2.0", "k": "50", "M": "100", "step": "2"}

pytestmark = pytest.mark.slow  # SaGe runs on a real sample (crime or Lee)


def sage_page(**query) -> AppTest:
    at = open_page("lessons/sage/page.py", **{**TINY, **query})
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
    at = open_page("lessons/sage/page.py", **{**TINY, **query})
    assert any(message in e.value for e in at.error), [e.value for e in at.error]


def test_the_compare_page_offers_the_vocabulary_sage_trained():
    at = sage_page()
    at.switch_page("lessons/compare/page.py")
    at.query_params["corpus"] = "sample:crime"
    at.query_params["size"] = "150"
    at.run()
    # the trained ones, SaGe once this session trained it, then the pretrained ones
    assert at.multiselect(key="compare_tok").options == [
        "BPE", "WordPiece", "Unigram", "SaGe",
        "cl100k_base (GPT-4)", "Mistral v1", "Mistral v3", "Tekken (Mistral)",
    ]  # fmt: skip
    at.multiselect(key="compare_tok").set_value(["bpe", "sage"]).run()
    assert not at.exception
    assert any("trained on the SaGe page" in i.value for i in at.info)


# --- two sessions in one process: nothing cached for one run may show up in another ------


def up_close(at: AppTest) -> dict[str, str]:
    """The three loss metrics of the "One token up close" tab."""
    names = ("sentence loss with it", "without it", "change")
    return {m.label: m.value for m in at.metric if m.label in names}


def expected_up_close(at: AppTest, settings: sage.SageSettings, step: int) -> dict[str, str]:
    """What the tab should show for the piece and sentence picked on it, straight from the
    core on a fresh run with `settings`."""
    sentences = sage.sample_sentences("sample:crime")
    trace = sage.trace_sage(sentences, settings)
    piece = at.selectbox(key="sage_piece").value
    assert at.selectbox(key="sage_piece").options == [
        p for p, _ in trace.steps[step - 1].candidates
    ]
    sentence = at.selectbox(key="sage_sentence").value
    state = sage.corpus_at(trace, sentences, step)
    ex = sage.close_up(trace, state, step, piece, sentence).example
    return {
        "sentence loss with it": f"{ex.loss_before:,.3f}",
        "without it": f"{ex.loss_after:,.3f}",
        "change": f"{ex.change:+,.3f}",
    }


def test_changing_k_at_step_2_shows_the_new_runs_step_2_up_close():
    """The class's KeyError ('▁вст'): the re-tokenized sample was cached by sample and step
    only, so after k changed the page looked the new run's candidates up in the old run's
    sample. Caches are not cleared between the two runs."""
    st.cache_data.clear()
    st.cache_resource.clear()
    at = sage_page(**SPLIT)
    settings = sage.SageSettings(vocab_size=150, n=2.0, k=50, M=100)
    assert up_close(at) == expected_up_close(at, settings, 2)
    at.number_input(key="k").set_value(20).run()
    assert not at.exception, at.exception
    assert at.slider(key="step").value == 2
    assert "Step 2 (choose another in the step log)" in markdown(at)
    changed = sage.SageSettings(vocab_size=150, n=2.0, k=20, M=100)
    assert up_close(at) == expected_up_close(at, changed, 2)


def test_a_second_session_on_the_same_sample_with_another_v_sees_its_own_run():
    """The class's IndexError: a second session on the same sample with another V got the
    first session's re-tokenized sample (another vocabulary) for the same step."""
    st.cache_data.clear()
    st.cache_resource.clear()
    first = sage_page(**SPLIT)
    second = sage_page(**{**SPLIT, "V": "120"})
    assert not second.exception, second.exception
    other = sage.SageSettings(vocab_size=120, n=2.0, k=50, M=100)
    assert up_close(second) == expected_up_close(second, other, 2)
    first.run()  # the first session again, after the second: still its own run
    assert not first.exception, first.exception
    own = sage.SageSettings(vocab_size=150, n=2.0, k=50, M=100)
    assert up_close(first) == expected_up_close(first, own, 2)


def test_stop_during_the_controls_ends_the_page_and_each_run_finishes_once(monkeypatch):
    """The controls run all at once beside SaGe's run (lessons/sage/runs.py). Here they are
    held until Stop is pressed while the page waits for them: every one ends (they stop
    at their next report), the page says it stopped, and a second session computes the
    controls and takes SaGe's run from the store. Runs in this process (SUBTOK_WORKERS=0)
    so that the spy sees them. AppTest cannot deliver a button's return value on these
    pages (a rerun inside an AppTest run resets triggers), so the
    press is simulated where the page reads the button."""
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setenv("SUBTOK_WORKERS", "0")
    started, finished, release = [], [], threading.Event()
    real_trace = sage_worker.trace_reported

    def spy(sentences, s, control, report):
        started.append((control, s.seed))
        while control is not None and not release.is_set():
            report(0, 0, "held by the test", None)  # raises once the runs are cancelled
            time.sleep(0.01)
        trace = real_trace(sentences, s, control, report)
        finished.append((control, s.seed))
        return trace

    real_button = DeltaGenerator.button

    def pressed(self, label, key=None, *args, **kwargs):
        clicked = real_button(self, label, key, *args, **kwargs)
        return clicked or key == "sage_stop_controls"

    monkeypatch.setattr(sage_worker, "trace_reported", spy)
    monkeypatch.setattr(DeltaGenerator, "button", pressed)
    at = sage_page()
    assert [w.value for w in at.warning] == ["Stopped before the first step finished."]
    every = [(None, 1), ("frequency", 1)] + [("random", x) for x in range(1, 6)]
    assert sorted(started, key=str) == sorted(every, key=str)  # all at once
    assert finished == [(None, 1)]
    monkeypatch.setattr(DeltaGenerator, "button", real_button)
    release.set()
    again = sage_page()  # a second session: SaGe's run from the store, the controls anew
    assert "of 5 seeds" in markdown(again)
    assert sorted(finished, key=str) == sorted(every, key=str)  # each one finished once


def test_choosing_another_sample_starts_over_before_the_first_step():
    """As on the other lessons (lessons.ui.corpus.corpus_select): step 2 of the crime
    sample's run means nothing on Lee's, so the new sample's run opens at step 0."""
    at = sage_page(**SPLIT)
    assert at.slider(key="step").value == 2
    at.number_input(key="lines").set_value(20).run()
    assert at.slider(key="step").value == 2  # another setting keeps the step
    at.selectbox(key="corpus").set_value("sample:lee").run()
    assert not at.exception, at.exception
    assert at.slider(key="step").value == 0
    assert dict(at.query_params).get("step") in (None, "0", ["0"])  # the address follows
