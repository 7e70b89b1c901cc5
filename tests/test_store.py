"""The server-wide store: single flight, progress for waiters, a byte budget, LRU order."""

from __future__ import annotations

import threading

import pytest

from subtok_core.store import Store, budget_from_env, pickled_size


def test_two_threads_asking_for_one_key_train_once():
    store = Store(budget_bytes=1 << 20, poll=0.01)
    started, release = threading.Event(), threading.Event()
    calls = []

    def compute(report):
        calls.append(1)
        started.set()
        release.wait(5)
        return ["the", "trace"]

    results = [None, None]

    def ask(slot):
        results[slot] = store.get("enwiki", compute)

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    started.wait(5)
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    release.set()
    first.join(5)
    second.join(5)
    assert len(calls) == 1 and store.computed == 1
    assert results[0] is results[1] and results[0] == ["the", "trace"]


def test_thirty_threads_at_once_train_once():
    store = Store(budget_bytes=1 << 20, poll=0.01)
    gate = threading.Barrier(30)
    calls = []

    def compute(report):
        calls.append(1)
        for i in range(5):
            report(i, 5)
        return "run"

    def ask():
        gate.wait(5)
        assert store.get("same", compute) == "run"

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(calls) == 1


def test_a_waiter_sees_the_leaders_progress():
    store = Store(budget_bytes=1 << 20, poll=0.01)
    reported, release = threading.Event(), threading.Event()

    def compute(report):
        report(3, 10)
        reported.set()
        release.wait(5)
        return "done"

    leader = threading.Thread(target=store.get, args=("k", compute))
    leader.start()
    reported.wait(5)
    seen = []

    def follow(done, total):
        seen.append((done, total))
        release.set()

    assert store.get("k", compute, on_progress=follow) == "done"
    leader.join(5)
    assert (3, 10) in seen


def test_a_stopped_leader_hands_the_run_to_the_next_session():
    store = Store(budget_bytes=1 << 20, poll=0.01)
    started, release = threading.Event(), threading.Event()

    class Stopped(Exception):
        pass

    def stopped_run(report):
        started.set()
        release.wait(5)
        raise Stopped  # Stop pressed or the tab closed

    errors = []

    def lead():
        try:
            store.get("k", stopped_run)
        except Stopped:
            errors.append("stopped")

    leader = threading.Thread(target=lead)
    leader.start()
    started.wait(5)
    result = []
    waiter = threading.Thread(target=lambda: result.append(store.get("k", lambda r: "rerun")))
    waiter.start()
    release.set()
    leader.join(5)
    waiter.join(5)
    assert errors == ["stopped"] and result == ["rerun"]
    assert store.cached("k") == "rerun"


def test_the_store_stays_within_its_budget_dropping_the_least_recently_used():
    size = pickled_size("x" * 1000)
    store = Store(budget_bytes=3 * size)
    for key in "abc":
        store.keep(key, key * 1000)
    assert store.cached("a") == "a" * 1000  # a is now the most recently used
    store.keep("d", "d" * 1000)
    assert store.cached("b") is None  # b was the least recently used
    assert {k for k in "acd" if store.cached(k)} == set("acd")
    assert store.used <= store.budget and len(store) == 3


def test_a_run_bigger_than_the_budget_is_given_back_but_not_kept():
    store = Store(budget_bytes=100)
    assert store.get("big", lambda report: "y" * 1000) == "y" * 1000
    assert store.cached("big") is None and store.used == 0


def test_an_error_is_not_kept():
    store = Store(budget_bytes=1 << 20)

    def bad(report):
        raise ValueError("vocab size 5 is smaller than the 11 characters of this corpus")

    with pytest.raises(ValueError, match="smaller than"):
        store.get("k", bad)
    assert store.cached("k") is None and not store.flights


@pytest.mark.parametrize(
    ("value", "megabytes"), [("", 400), ("64", 64), ("abc", 400), ("-3", 400), ("nan", 400)]
)
def test_budget_setting(monkeypatch, value, megabytes):
    monkeypatch.setenv("SUBTOK_STORE_MB", value)
    assert budget_from_env() == megabytes * 1024 * 1024
