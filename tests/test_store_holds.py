"""Uploads in the server-wide store (issue 40): held by the sessions that use them, counted
at what building them grew the process by (never less than the estimate), refused before
they are built when the estimate does not fit, and dropped, their bytes back, when the
last session holding them lets go."""

from __future__ import annotations

import threading

import pytest

from subtok_core import memory
from subtok_core.store import Store

MB = 1 << 20


def unmeasured(build):
    """A build's value, its growth not measured (a few bytes' values in a few bytes' budget:
    the resident size moves by whole pages)."""
    return build(), 0


def counting(calls: list, value=None):
    """A build that notes each call (a parser the test can see)."""

    def build():
        calls.append(1)
        return object() if value is None else value

    return build


def test_sessions_holding_one_file_share_one_copy_built_once():
    store, calls = Store(budget_bytes=1000, grown_by=unmeasured), []
    gate, got = threading.Barrier(3), []

    def session(n: int):
        gate.wait(5)
        got.append(store.hold(("tokenizer.json", "abc"), counting(calls), 300, f"s{n}"))

    threads = [threading.Thread(target=session, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert calls == [1] and len(store) == 1 and store.used >= 300
    assert store.holders == {("tokenizer.json", "abc"): {"s0", "s1", "s2"}}
    assert got[0] is got[1] is got[2]


def test_the_value_goes_with_its_last_holder_and_its_bytes_with_it():
    store = Store(budget_bytes=1000, size_of=lambda value: 100, grown_by=unmeasured)
    store.get("run", lambda report: "a run")  # an ordinary run beside the uploads
    store.hold("a", lambda: "file a", 300, "tab 1")
    store.hold("a", lambda: "never built", 300, "tab 2")
    store.hold("b", lambda: "file b", 200, "tab 2")
    assert store.held_bytes() == 500 and store.used == 600
    assert store.release("tab 1") == 0  # tab 2 still holds a
    assert "a" in store.runs and store.held_bytes() == 500
    assert store.release("tab 2") == 2  # the last holder of both: both dropped at once
    assert store.holders == {} and store.held_bytes() == 0
    assert list(store.runs) == ["run"] and store.used == 100


def test_a_holder_lets_go_of_one_slot_and_keeps_the_other():
    store = Store(budget_bytes=1000, grown_by=unmeasured)
    store.hold("old file", lambda: "old", 100, "tab")
    store.hold("other file", lambda: "other", 100, "tab")
    store.release("tab", "old file")  # the page's file replaced by another
    assert list(store.holders) == ["other file"] and list(store.runs) == ["other file"]


def test_a_file_that_cannot_fit_is_refused_before_it_is_built():
    store, calls = Store(budget_bytes=1000, grown_by=unmeasured), []
    store.hold("first", lambda: "held by an open tab", 700, "tab 1")
    with pytest.raises(ValueError, match="There is no room for this") as refused:
        store.hold("second", counting(calls), 400, "tab 2")
    assert calls == []  # the parser was never called
    assert str(refused.value).startswith(
        "There is no room for this in the server's memory now: it needs about 0 MB, and "
        "open tabs hold 0 MB of the 0 MB budget (SUBTOK_STORE_MB)."
    )
    assert "second" not in store.runs and "second" not in store.holders
    store.release("tab 1")  # the only tab closed: the same file is accepted now
    assert store.hold("second", counting(calls), 400, "tab 2") is not None and calls == [1]


def test_a_value_is_counted_at_what_building_it_grew_the_process_by():
    if memory.resident_bytes() == 0:
        pytest.skip("no resident size on this system")
    store = Store(budget_bytes=1000 * MB)
    # estimated at 1 MB, it takes 80 (a tokenizer's tables in the library, unseen by pickle)
    store.hold("big", lambda: bytearray(80 * MB), 1 * MB, "tab")
    assert store.held_bytes() >= 70 * MB
    store.release("tab")
    assert store.used == 0


def test_a_value_that_grew_past_the_room_left_is_refused_and_not_kept():
    if memory.resident_bytes() == 0:
        pytest.skip("no resident size on this system")
    store = Store(budget_bytes=50 * MB)
    with pytest.raises(ValueError, match="needs about [5-9][0-9] MB"):
        store.hold("big", lambda: bytearray(80 * MB), 1 * MB, "tab")
    assert store.runs == {} and store.holders == {} and store.used == 0


def test_a_held_value_is_never_dropped_for_a_run():
    store = Store(budget_bytes=1000, size_of=lambda value: 400, grown_by=unmeasured)
    store.hold("upload", lambda: "tokenizer", 500, "tab")
    for key in "abc":  # runs of 400 bytes: only one fits beside the held 500
        store.get(key, lambda report, key=key: key)
    assert list(store.runs) == ["upload", "c"] and store.used == 900
    store.release("tab")
    assert list(store.runs) == ["c"] and store.used == 400


def test_thirty_tabs_uploading_stay_within_the_budget_and_get_room_back():
    store = Store(budget_bytes=400 * MB, grown_by=unmeasured)  # SUBTOK_STORE_MB's default
    refused = []
    for n in range(30):  # each 2 MB file estimated at 15 times that
        try:
            store.hold(("tokenizer.json", n), object, 30 * MB, f"tab {n}")
        except ValueError:
            refused.append(n)
        assert store.used <= store.budget
    assert len(store.holders) == 400 // 30 == 13 and len(refused) == 17
    for n in range(13):  # every tab closed
        store.release(f"tab {n}")
    assert store.used == 0 and store.holders == {}
    for n in refused[:13]:  # the refused files fit now
        store.hold(("tokenizer.json", n), object, 30 * MB, f"tab {n}")
    assert len(store.holders) == 13


def test_a_value_bigger_than_the_whole_budget_is_refused_unbuilt():
    store, calls = Store(budget_bytes=1000, grown_by=unmeasured), []
    with pytest.raises(ValueError, match="needs about 0 MB"):
        store.hold("huge", counting(calls), 1001, "tab")
    assert calls == [] and store.holders == {} and len(store) == 0
