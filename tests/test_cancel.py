"""Long work can be stopped: every trainer reports progress often, and an exception raised
there (Streamlit raises one when Stop is pressed or the tab is closed) ends the run at once.
"""

from __future__ import annotations

import pytest

from subtok_core import registry
from subtok_core.corpus import load


class Stop(Exception):
    """Stands for Streamlit's StopException, raised inside a progress callback."""


RUNS = {
    "bpe": ("sample:lee", {"merges": 2000}),
    "wordpiece": ("sample:lee", {"merges": 2000}),
    "unigram": ("sample:lee", {"variant": "em", "vocab_size": 1000}),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_run_stops_at_the_first_report_after_the_stop(name):
    algo = registry.get(name)
    corpus, params = RUNS[name]
    reports = []

    def progress(done: int, total: int) -> None:
        reports.append((done, total))
        if len(reports) == 2:
            raise Stop

    with pytest.raises(Stop):
        algo.trace(load(corpus), progress=progress, **params)
    done, total = reports[-1]
    assert len(reports) == 2 and done < total  # it stopped well before the end


@pytest.mark.slow  # SaGe on a real sample
def test_sage_stops_between_prune_steps():
    algo = registry.get("sage")
    steps = []

    def progress(done: int, total: int) -> None:
        steps.append(done)
        raise Stop

    params = {"vocab_size": 400, "initial_size": 480, "k": 20, "M": 60, "m": 1, "l": 2, "dim": 8}
    with pytest.raises(Stop):
        algo.trace(algo.load("sample:lee", 300), progress=progress, **params)
    assert steps == [1]  # one prune step of four was done
