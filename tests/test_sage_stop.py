"""SaGe's Stop keeps the steps finished before it (issue 25): a step's report is replaced
at once by the next phase's, so a page that only reads the latest report between two polls
loses it; subtok_core.batch.Runs keeps each report its `keep` picks, in order."""

from __future__ import annotations

import threading

import pytest

from subtok_core import batch, sage
from subtok_core.parallel import Cancelled
from subtok_core.sage import worker as sage_worker
from subtok_core.store import Store

SENTENCES = [["the", "cat", "sat"], ["the", "hat"], ["a", "cat", "sat", "on", "the", "mat"]] * 4
SETTINGS = sage.SageSettings(vocab_size=16, initial_size=19, k=1, M=3, m=1, l=2, dim=4, seed=1)


def step_of(values: tuple):
    """What the SaGe page keeps of a report: the finished step it carries, else None."""
    return values[3] if len(values) > 3 else None


def test_stopped_during_the_third_step_keeps_the_first_two():
    """The run is cancelled during step 3's scoring, well after the page's last poll: the
    two finished steps are kept, with their numbers and pruned pieces, and no third."""
    finished, reached, stopped = [], threading.Event(), threading.Event()

    def compute(report):
        def spy(*values):
            report(*values)
            if step_of(values) is not None:
                finished.append(values[3])
            if len(finished) == 2 and values[2].startswith("step 3"):
                reached.set()
                stopped.wait(30)  # the page stops here: the next report raises

        return sage_worker.trace_reported(SENTENCES, SETTINGS, None, spy)

    runs = batch.Runs(Store(budget_bytes=1 << 20), {"sage": compute}, keep=step_of)
    assert reached.wait(60), "the run never reached step 3"
    # the latest report is no step: the page reading only it would have nothing to show
    assert step_of(runs.progress["sage"]) is None
    runs.cancel()
    stopped.set()
    with pytest.raises(Cancelled):
        runs.wait(["sage"], poll=0.01)
    assert [s.number for s in runs.kept["sage"]] == [1, 2]
    assert [s.pruned for s in runs.kept["sage"]] == [s.pruned for s in finished]


def test_a_whole_run_keeps_every_step_it_reported():
    """Without Stop the kept steps are the trace's own, one per prune step."""
    runs = batch.Runs(
        Store(budget_bytes=1 << 20),
        {"sage": lambda report: sage_worker.trace_reported(SENTENCES, SETTINGS, None, report)},
        keep=step_of,
    )
    trace = runs.wait(["sage"])["sage"]
    expected = sage.train.steps_needed(SETTINGS)  # (19 - 16) / 1 = 3 prune steps
    assert expected == 3 and len(trace.steps) == 3
    assert [s.number for s in runs.kept["sage"]] == [1, 2, 3]
    assert [s.pruned for s in runs.kept["sage"]] == [s.pruned for s in trace.steps]


@pytest.mark.slow  # a SaGe run stopped, run again
def test_the_page_after_stop_shows_the_steps_kept_and_runs_again(monkeypatch):
    """The SaGe page, stopped with two of its three steps finished (180 BPE pieces pruned
    to 150, 10 a step: the log kept says 170 and 160): it says so, shows their log, has no
    Stop button any more, and "Run again" runs the whole of it."""
    from apptools import open_page
    from streamlit.delta_generator import DeltaGenerator

    from lessons.sage import runs as sage_runs

    real_button = DeltaGenerator.button

    def pressed(self, label, key=None, *args, **kwargs):  # Stop, pressed as the page waits
        return real_button(self, label, key, *args, **kwargs) or key == "sage_stop_run"

    monkeypatch.setattr(DeltaGenerator, "button", pressed)
    tiny = {"corpus": "sample:crime", "V": "150", "k": "10", "M": "20"}
    at = open_page("lessons/sage/page.py", **tiny)
    assert [w.value for w in at.warning] == ["Stopped before the first step finished."]
    monkeypatch.setattr(DeltaGenerator, "button", real_button)

    # the session's runs as Stop left them: SaGe's cancelled during its third step
    key = next(k for k in at.session_state[sage_runs.STOPPED] if k[3] is None)
    settings = sage.SageSettings(**dict(key[2]))
    assert (settings.start_size, settings.vocab_size, settings.k) == (180, 150, 10)
    sentences = sage.sample_sentences("sample:crime")
    stopped = threading.Event()

    def compute(report):
        def held(*values):
            report(*values)
            if values[2].startswith("step 3"):
                stopped.wait(30)  # Stop is pressed here: the next report raises

        return sage_worker.trace_reported(sentences, settings, None, held)

    runs = batch.Runs(Store(budget_bytes=1 << 24), {key: compute}, keep=sage_runs.step_of)
    while len(runs.kept[key]) < 2:
        threading.Event().wait(0.05)
    runs.cancel()
    stopped.set()
    at.session_state[sage_runs.RUNS] = runs
    at.run()

    said = [w.value for w in at.warning]
    assert said == ["Stopped during step 3 of 3: the 2 finished steps are kept below."]
    log = next(df.value for df in at.dataframe if "pruned (ablation loss)" in df.value.columns)
    assert list(log["vocab size after"]) == [170, 160]
    labels = [b.label for b in at.button]
    assert "Stop" not in labels and "Run again" in labels

    at.button(key="sage_run_again_run").click().run()
    assert not at.warning and not at.error
    log = next(df.value for df in at.dataframe if "pruned (ablation loss)" in df.value.columns)
    assert list(log["vocab size after"]) == [170, 160, 150]
