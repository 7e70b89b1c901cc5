"""Runs that survive a restart: the store's disk cache (subtok_core.diskcache); `subtok
warm` is in test_warm.py. A restart is a new Store on the same directory (tmp_path)."""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading

import pytest

from subtok_core import bpe, corpus, diskcache, parallel, plaindata
from subtok_core.diskcache import DiskCache
from subtok_core.store import Store

MB = 1 << 20


def toy_trace():
    """A real trace: the course material's low/lower/newest/widest, 4 merges with </w>."""
    return bpe.trace_bpe(corpus.load("toy:low-lower"), merges=4, marker="eow")


def counting(value_of=toy_trace):
    """A computation that counts its calls (calls: the list it appends to)."""
    calls: list[int] = []

    def compute(report):
        calls.append(1)
        return value_of()

    return compute, calls


def store_on(directory, budget=MB, **options) -> Store:
    return Store(budget_bytes=budget, disk=DiskCache(directory, 10 * MB, **options), poll=0.01)


def test_a_new_store_on_the_same_directory_reads_the_run_back_without_training(tmp_path):
    compute, calls = counting()
    first = store_on(tmp_path).get("bpe-low-lower", compute)
    restarted = store_on(tmp_path)
    assert restarted.cached("bpe-low-lower") == first  # the page's first look, no training
    again = store_on(tmp_path)
    assert again.get("bpe-low-lower", compute) == first == toy_trace()
    assert len(calls) == 1 and restarted.computed == again.computed == 0
    assert len(again) == 1  # kept in memory too: the next ask does not read the file


def test_a_truncated_file_is_ignored_with_a_log_line_and_computed_again(tmp_path, caplog):
    compute, calls = counting()
    store_on(tmp_path).get("k", compute)
    (path,) = DiskCache(tmp_path, MB).files()
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("k", compute) == toy_trace()
    assert len(calls) == 2
    assert any("ignored cache file" in r.getMessage() for r in caplog.records)
    assert "cannot be read" in caplog.text
    assert store_on(tmp_path).get("k", compute) == toy_trace() and len(calls) == 2  # rewritten


def test_a_file_of_another_version_is_ignored_and_computed_again(tmp_path, caplog):
    compute, calls = counting()
    store_on(tmp_path, version="0.0.1 format 0").get("k", compute)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("k", compute) == toy_trace()
    assert len(calls) == 2 and "written by another version (0.0.1 format 0)" in caplog.text


def test_a_file_holding_another_key_is_not_taken_for_it(tmp_path, caplog):
    disk = DiskCache(tmp_path, MB)
    store_on(tmp_path).get("a", lambda report: "run a")
    disk.path("a").rename(disk.path("b"))  # as if two keys' digests collided
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("b", lambda report: "run b") == "run b"
    assert "holds another run" in caplog.text


def test_a_file_bigger_than_the_memory_budget_is_not_read(tmp_path, caplog):
    compute, calls = counting(lambda: "x" * 5000)
    store_on(tmp_path, budget=MB).get("big", compute)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path, budget=1000).get("big", compute) == "x" * 5000
    assert len(calls) == 2 and "over the store's budget; not read" in caplog.text


def test_the_memory_budget_holds_for_runs_read_from_disk(tmp_path):
    values = {key: key * 1000 for key in "abc"}
    writer = store_on(tmp_path)
    for key, value in values.items():
        writer.get(key, lambda report, value=value: value)
    size = os.path.getsize(DiskCache(tmp_path, MB).path("a"))
    reader = store_on(tmp_path, budget=2 * size)
    assert [reader.cached(key) for key in "abc"] == list(values.values())
    assert len(reader) == 2 and reader.used <= reader.budget and reader.cached("a") == "a" * 1000


def test_writing_is_atomic_and_leaves_no_temporary_file(tmp_path, monkeypatch, caplog):
    store = store_on(tmp_path)
    for key in range(5):
        store.get(key, lambda report, key=key: [key] * 100)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in DiskCache(tmp_path, MB).files()
    )
    assert len(list(tmp_path.iterdir())) == 5

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(diskcache.os, "replace", full)  # fails between write and rename
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store.get("new", lambda report: "run") == "run"  # the page gets its run
    assert "No space left on device" in caplog.text
    assert len(list(tmp_path.iterdir())) == 5  # the half-done file is gone, the old kept


def test_the_size_bound_removes_the_least_recently_used_files_first(tmp_path):
    disk, run = DiskCache(tmp_path, MB), plaindata.encode("x" * 1000)
    for key in "abc":
        disk.save(key, run)
    size = os.path.getsize(disk.path("a"))
    for key, when in zip("abc", (1000, 3000, 2000)):  # a used longest ago, then c, then b
        os.utime(disk.path(key), (when, when))
    disk.max_bytes = 3 * size
    disk.save("d", run)
    assert {p.name for p in disk.files()} == {disk.path(k).name for k in "bcd"}
    assert disk.load("c") == "x" * 1000  # c used now: b is the oldest
    disk.save("e", run)
    assert {p.name for p in disk.files()} == {disk.path(k).name for k in "cde"}


def test_a_half_written_file_left_by_a_dead_process_is_removed_later(tmp_path):
    disk = DiskCache(tmp_path, MB)
    old, fresh = tmp_path / ".writing-old", tmp_path / ".writing-fresh"
    old.write_bytes(b"half")
    fresh.write_bytes(b"being written")
    os.utime(old, (1000, 1000))
    disk.save("k", plaindata.encode("run"))
    assert not old.exists() and fresh.exists()


def test_off_keeps_nothing_on_disk(tmp_path, monkeypatch):
    for home in ("HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(home, str(tmp_path))
    monkeypatch.setenv("SUBTOK_CACHE_DIR", "off")
    assert diskcache.from_env() is None
    assert Store(disk=diskcache.from_env()).get("k", lambda report: "run") == "run"
    assert list(tmp_path.iterdir()) == []


def test_the_default_directory_is_per_user(tmp_path, monkeypatch):
    monkeypatch.delenv("SUBTOK_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert diskcache.directory_from_env() == tmp_path / ".cache" / "subtok" / "traces"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.directory_from_env() == tmp_path / "xdg" / "subtok" / "traces"
    monkeypatch.setenv("SUBTOK_CACHE_MB", "3")
    assert diskcache.from_env().max_bytes == 3 * MB


def test_thirty_sessions_read_a_file_once(tmp_path, monkeypatch):
    store_on(tmp_path).get("k", lambda report: "run")
    reads = []
    real_read = DiskCache.read

    def counted(self, key, max_bytes=None):
        reads.append(key)
        return real_read(self, key, max_bytes)

    monkeypatch.setattr(DiskCache, "read", counted)
    restarted, gate, results = store_on(tmp_path), threading.Barrier(30), []
    compute, calls = counting()

    def ask():  # as a page asks: what is kept (no progress bar), else the run
        gate.wait(5)
        results.append(restarted.cached("k") or restarted.get("k", compute))

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == ["run"] * 30 and reads == ["k"] and calls == []


def test_thirty_sessions_train_a_new_run_once_and_write_it_once(tmp_path, monkeypatch):
    saves, real_save = [], DiskCache.save
    monkeypatch.setattr(
        DiskCache, "save", lambda self, key, data: saves.append(key) or real_save(self, key, data)
    )
    store, gate, results = store_on(tmp_path), threading.Barrier(30), []
    compute, calls = counting()

    def ask():
        gate.wait(5)
        results.append(store.get("k", compute))

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(results) == 30 and len(calls) == 1 and saves == ["k"]


def test_two_stores_on_one_directory_share_runs_and_do_not_break_them(tmp_path):
    one, two = store_on(tmp_path), store_on(tmp_path)
    compute, calls = counting()
    threads = [
        threading.Thread(target=store.get, args=(key, compute))
        for store in (one, two)
        for key in ("same", "same", f"own-{id(store)}")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert 2 <= len(calls) <= 4  # each store: its own key, and "same" at most once
    fresh = store_on(tmp_path)
    assert all(fresh.cached(k) == toy_trace() for k in ("same", f"own-{id(one)}", f"own-{id(two)}"))
    assert fresh.computed == 0 and len(DiskCache(tmp_path, MB).files()) == 3


def _write_many(directory: str, start: int) -> None:
    """One process's part: runs of varying size, half of them under the other's keys."""
    store = Store(budget_bytes=10 * MB, disk=DiskCache(directory, 10 * MB))
    for n in range(start, start + 40):
        store.get(n % 60, lambda report, n=n: [n % 60] * (1000 + 997 * (n % 7)))


@pytest.mark.slow  # starts two processes
def test_two_processes_writing_one_directory_leave_every_file_whole(tmp_path, caplog):
    spawn = multiprocessing.get_context("spawn")
    workers = [spawn.Process(target=_write_many, args=(str(tmp_path), s)) for s in (0, 20)]
    with parallel.without_main():  # after an AppTest, __main__ is app.py: not in a child
        for worker in workers:
            worker.start()
    for worker in workers:
        worker.join(120)
    assert [w.exitcode for w in workers] == [0, 0]
    reader = store_on(tmp_path, budget=10 * MB)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        for key in range(60):
            value = reader.cached(key)
            assert value is not None and set(value) == {key}
    assert "ignored" not in caplog.text and len(os.listdir(tmp_path)) == 60
