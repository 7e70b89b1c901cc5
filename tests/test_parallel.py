"""Trainings in worker processes (subtok_core.parallel, subtok_core.batch): two runs at once
in two processes, single flight kept, the child's ValueError, cancellation, progress; and
the Compare page, whose tokenizers now train in worker processes, showing the same numbers.

The functions the children run are defined here at module level: a worker imports this
module by name to unpickle them. Nothing here asserts a duration.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

import pytest
from apptools import open_page

from subtok_core import batch, compare, corpus, parallel
from subtok_core import measure as metrics
from subtok_core.store import Store

LONG = 100_000  # steps of a run that is never meant to finish


class Stop(Exception):
    """Stands for Streamlit's StopException, raised where the page draws the progress."""


def meet(barrier, report):
    """Wait until another child reaches the same barrier (so both run at once); say which
    process this is, at which priority."""
    report(0, 1)
    barrier.wait()
    return os.getpid(), os.nice(0)


def count(n: int, log, report):
    """Report steps 1..n, a little apart; `log` receives the last step reached."""
    done = 0
    try:
        for done in range(1, n + 1):
            time.sleep(0.01)
            report(done, n, f"step {done}")
        return n
    finally:
        log.append(done)


def held(gate, log, report):
    """Report step 1 of 2, then wait for `gate` (two minutes at most) before step 2."""
    report(1, 2)
    gate.wait(120)
    report(2, 2)
    log.append(2)
    return 2


def refuse(report):
    raise ValueError("vocab size 5 is smaller than the 11 characters of this corpus")


@pytest.fixture(scope="module")
def manager():
    """Shared objects the tests hand to the children (a barrier, a log)."""
    with parallel.without_main():  # after an AppTest, __main__ is app.py: not in a child
        shared = multiprocessing.get_context("spawn").Manager()
    with shared:
        yield shared


@pytest.fixture(autouse=True)
def pool_of_two(monkeypatch):
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores for two worker processes")
    monkeypatch.setenv("SUBTOK_WORKERS", "2")


def until(condition) -> None:
    """Wait for `condition()` (this waits for other threads and processes; it is not a
    bound on how fast they are)."""
    for _ in range(1200):
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("waited two minutes in vain")


def ended(log) -> int:
    """The last step a child reached, once it has ended (it writes it as it ends)."""
    until(lambda: len(log) > 0)
    return log[0]


@pytest.mark.slow  # starts worker processes
def test_two_keys_train_in_two_processes_at_once(manager):
    barrier = manager.Barrier(2, timeout=120)  # broken (an error) unless both run together
    store = Store(budget_bytes=1 << 20)
    computes = {
        key: lambda report: parallel.run(meet, barrier, report=report) for key in ("a", "b")
    }
    found = batch.get_all(store, computes)
    pids = {key: pid for key, (pid, _) in found.items()}
    assert pids["a"] != pids["b"] and os.getpid() not in pids.values()
    assert store.cached("a") == found["a"] and store.computed == 2
    # below the page's priority, so that a training never slows a click
    assert all(nice == os.nice(0) + parallel.NICE for _, nice in found.values())


@pytest.mark.slow  # a long run (fast tier: README)
def test_the_same_key_asked_twice_trains_once(manager):
    """The first session's child reports, then waits at `gate` until the second session
    follows the same run; only then does it end. (It used to run 20 short steps and the
    test waited for a report of them: on a warm pool the child could end between two of
    the page's polls, which show only a run still under way, so no report came, the test
    waited its 120 s and the second session found the run kept, not under way.)"""
    store = Store(budget_bytes=1 << 20, poll=0.01)
    log, gate = manager.list(), manager.Event()
    calls, results = [], []
    following = {who: threading.Event() for who in ("first", "second")}

    def compute(report):
        calls.append(1)
        return parallel.run(held, gate, log, report=report)

    def ask(who):
        def follow(key, done, total, *more):
            if done:  # the child has started (the leader), or is followed (the waiter)
                following[who].set()

        results.append(batch.get_all(store, {"k": compute}, follow)["k"])

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    try:
        assert following["first"].wait(120)  # the first run is under way
        second = threading.Thread(target=ask, args=("second",))
        second.start()
        assert following["second"].wait(120)  # the second session follows it
    finally:
        gate.set()
    first.join(120)
    second.join(120)
    assert results == [2, 2] and len(calls) == 1 and store.computed == 1
    assert list(log) == [2]  # one child ran, to its end


def test_a_value_error_in_the_child_comes_back_as_the_same_value_error():
    with pytest.raises(ValueError) as here:
        compare.train("bpe", corpus.load("toy:cat-bat"), 3)
    with pytest.raises(ValueError) as there:
        parallel.run(compare.train, "bpe", corpus.load("toy:cat-bat"), 3)
    assert type(there.value) is ValueError and str(there.value) == str(here.value)
    with pytest.raises(ValueError, match="^vocab size 5 is smaller than the 11 characters"):
        batch.get_all(Store(budget_bytes=1 << 20), {"k": lambda r: parallel.run(refuse, report=r)})


@pytest.mark.slow  # a long run (fast tier: README)
def test_stop_in_the_page_cancels_the_child_before_it_finishes(manager):
    log, seen = manager.list(), []

    def show(done, total, *more):  # the page's bar; Stop is raised where it draws
        seen.append(done)
        if done >= 3:
            raise Stop

    with pytest.raises(Stop):
        parallel.run(count, LONG, log, report=show)
    assert 3 <= ended(log) < LONG  # stopped at a report after the flag, far from the end


def test_stop_while_several_runs_go_cancels_every_one(manager):
    logs = {key: manager.list() for key in ("a", "b")}
    store = Store(budget_bytes=1 << 20)

    def show(key, done, total, *more):
        if done >= 3:
            raise Stop

    computes = {
        k: lambda r, log=log: parallel.run(count, LONG, log, report=r) for k, log in logs.items()
    }
    with pytest.raises(Stop):
        batch.get_all(store, computes, show)
    assert all(ended(log) < LONG for log in logs.values())
    until(lambda: not store.flights)  # nothing left under way (the helpers have ended)
    assert len(store) == 0


def test_progress_reports_reach_the_parent_in_order(manager):
    heard = []
    assert parallel.run(count, 5, manager.list(), report=lambda *p: heard.append(p)) == 5
    distinct = [p for n, p in enumerate(heard) if p != (0, 0) and (n == 0 or p != heard[n - 1])]
    assert distinct == [(i, 5, f"step {i}") for i in range(1, 6)]


@pytest.mark.slow  # worker processes
def test_compare_trains_three_tokenizers_in_workers_and_shows_the_same_numbers(monkeypatch):
    """The page's summary against the core computed here, in this process; the page sends
    each training, then each encoding of the corpus, to the pool (two workers here)
    through parallel.run."""
    wc, lines = corpus.load("toy:cat-bat"), corpus.load_lines("toy:cat-bat")
    expected = {}
    for kind in ("bpe", "wordpiece", "unigram"):
        t = metrics.tokenize_with(compare.train(kind, wc, 12), lines, kind)
        expected[compare.LABELS[kind]] = (
            metrics.efficiency(t).tokens,
            metrics.fertility(t).tokens_per_word,
        )
    sent, real_run = [], parallel.run

    def spy(fn, *args, **kwargs):
        sent.append((fn.__name__, args[0] if fn is compare.train else args[2]))  # the kind
        return real_run(fn, *args, **kwargs)

    monkeypatch.setattr(parallel, "run", spy)
    query = {"corpus": "toy:cat-bat", "size": "12", "tok": "bpe,wordpiece,unigram"}
    at = open_page("lessons/compare/page.py", **query)
    assert not at.error, [e.value for e in at.error]
    kinds = ("bpe", "unigram", "wordpiece")
    assert sorted(sent) == [(fn, k) for fn in ("encode_corpus", "train") for k in kinds]
    summary = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    shown = {
        row["tokenizer"]: (row["tokens"], row["tokens per word"]) for _, row in summary.iterrows()
    }
    assert shown == expected


def test_runs_are_asked_for_in_order_and_waited_for_in_parts(manager):
    """SaGe's page: its own run first, the controls after it; it waits for its run, draws
    the log, then waits for the controls, which went on meanwhile."""
    store, order = Store(budget_bytes=1 << 20), []

    def queued(key, n):
        def compute(report):
            order.append(key)
            return parallel.run(count, n, manager.list(), report=report)

        return compute

    runs = batch.Runs(
        store, {key: queued(key, n) for key, n in [("sage", 3), ("c1", 30), ("c2", 30)]}
    )
    assert runs.wait(["sage"]) == {"sage": 3}
    assert runs.wait(["c1", "c2"]) == {"c1": 30, "c2": 30}
    assert order == ["sage", "c1", "c2"] and store.computed == 3
