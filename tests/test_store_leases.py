"""Uploads inside the store's budget (issue 26): a value a session holds a lease on is kept
once per server, counted against the budget and never dropped while held; once every
session holding it is gone it is dropped like any run."""

from __future__ import annotations

import gc
import threading

import pytest

from subtok_core.store import Store


def parse_counted(calls: list):
    def compute(report):
        calls.append(1)
        return object()  # like a tokenizer: cannot be pickled or measured, only leased

    return compute


def test_three_sessions_leasing_one_file_share_one_copy():
    store, calls = Store(budget_bytes=1000), []
    gate, leases = threading.Barrier(3), []

    def session():
        gate.wait(5)
        leases.append(store.lease(("tokenizer.json", "abc"), parse_counted(calls), size=300))

    threads = [threading.Thread(target=session) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert calls == [1] and len(store) == 1 and store.used == 300
    assert store.pins == {("tokenizer.json", "abc"): 3}
    assert leases[0].value is leases[1].value is leases[2].value


def test_a_held_value_is_never_dropped_for_a_run_and_goes_when_released():
    store = Store(budget_bytes=1000, size_of=lambda value: 400)
    lease = store.lease("upload", lambda report: "tokenizer", size=500)
    for key in "abc":  # runs of 400 bytes: only one fits beside the held 500
        store.get(key, lambda report, key=key: key)
    assert "upload" in store.runs and list(store.runs) == ["upload", "c"]
    assert store.used == 900 <= store.budget
    lease.release()
    store.get("d", lambda report: "d")
    assert "upload" not in store.runs and store.used == 800


def test_a_lease_lets_go_when_its_session_is_gone():
    store = Store(budget_bytes=1000)
    session_state = {"lease": store.lease("upload", lambda report: "tokenizer", size=600)}
    assert store.pins == {"upload": 1}
    del session_state  # Streamlit drops a closed session's state
    gc.collect()
    assert store.pins == {}
    store.keep("run", "r", size=600)
    assert list(store.runs) == ["run"] and store.used == 600


def test_thirty_different_uploads_stay_within_the_budget():
    mb = 1 << 20
    store = Store(budget_bytes=400 * mb)  # SUBTOK_STORE_MB's default
    held, refused = [], []
    for n in range(30):  # each file of 2 MB counts 15 times that, as the Compare page does
        try:
            held.append(store.lease(("tokenizer.json", n), lambda report: object(), 30 * mb))
        except ValueError as err:
            refused.append(str(err))
        assert store.used <= store.budget
    assert len(held) == 400 // 30 == 13 and len(refused) == 17  # 13 x 30 = 390 MB held
    assert refused[0].startswith(
        "There is no room for this in the server's memory now: it needs "
        "about 30 MB, and open tabs hold 390 MB of the 400 MB budget"
    )
    for lease in held:  # every tab closed: new uploads fit again, the old ones dropped
        lease.release()
    for n in range(30, 60):
        store.lease(("tokenizer.json", n), lambda report: object(), 30 * mb).release()
        assert store.used <= store.budget
    assert len(store) == 13 and all(key[1] >= 47 for key in store.runs)


def test_a_leased_value_bigger_than_the_whole_budget_is_refused():
    store = Store(budget_bytes=1000)
    with pytest.raises(ValueError, match="needs about 0 MB"):
        store.lease("huge", lambda report: "x", size=1001)
    assert store.pins == {} and len(store) == 0
