"""Nothing read from the disk cache runs code (issue 26): a crafted pickle, a link planted in
the folder, a file of another user and a folder others may write to."""

from __future__ import annotations

import json
import logging
import os
import pickle
import stat

import pytest

from subtok_core import plaindata
from subtok_core.diskcache import DiskCache
from subtok_core.store import Store

MB = 1 << 20


class Payload:
    """What an attacker pickles: unpickling it runs a shell command that leaves a marker."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def store_on(directory) -> Store:
    return Store(budget_bytes=MB, disk=DiskCache(directory, 10 * MB), poll=0.01)


def counted(value="computed"):
    calls: list[int] = []
    return (lambda report: calls.append(1) or value), calls


def test_the_payload_would_run_if_it_were_unpickled(tmp_path):
    """The marker test below can fail: unpickling this payload does leave the marker."""
    marker = tmp_path / "ran"
    pickle.loads(pickle.dumps(Payload(marker)))
    assert marker.exists()


@pytest.mark.parametrize("layout", ["pickle only", "old header then pickle", "new header"])
def test_a_crafted_pickle_in_the_cache_folder_never_runs(tmp_path, caplog, layout):
    cache, marker = tmp_path / "cache", tmp_path / "ran"
    disk = DiskCache(cache, 10 * MB)
    assert disk.usable()
    payload = pickle.dumps(Payload(marker))
    if layout == "old header then pickle":  # the layout the cache had before (format 1)
        payload = pickle.dumps(("subtok-run", disk.version, "k")) + payload
    elif layout == "new header":  # a right header, the attack in the body
        payload = json.dumps(["subtok-run", disk.version, "k"]).encode() + b"\n" + payload
    disk.path("k").write_bytes(payload)
    compute, calls = counted()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(cache).get("k", compute) == "computed"
    assert not marker.exists() and calls == [1]
    assert "ignored cache file" in caplog.text
    assert store_on(cache).cached("k") == "computed"  # the file was replaced by a real run


@pytest.mark.parametrize(
    "record",
    [["os", "system", ["touch x"]], ["subtok_core.__main__", "main", []], ["builtins", "eval", []]],
)
def test_a_body_naming_a_type_outside_the_core_records_is_refused(record):
    with pytest.raises(ValueError, match="not one of subtok's records"):
        plaindata.decode(json.dumps({"c": record}))


def test_a_link_planted_in_the_cache_folder_is_never_read(tmp_path, caplog):
    cache, elsewhere, marker = tmp_path / "cache", tmp_path / "elsewhere", tmp_path / "ran"
    store_on(elsewhere).get("k", lambda report: "planted run")  # a valid run for the key
    target = DiskCache(elsewhere, MB).path("k")
    DiskCache(cache, MB).usable()
    os.symlink(target, DiskCache(cache, MB).path("k"))
    pickled = tmp_path / "payload.pickle"
    pickled.write_bytes(pickle.dumps(Payload(marker)))
    os.symlink(pickled, DiskCache(cache, MB).path("j"))
    compute, calls = counted()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(cache).get("k", compute) == "computed"  # not "planted run"
        assert store_on(cache).get("j", compute) == "computed"
    assert calls == [1, 1] and not marker.exists()
    assert "is a link; not read" in caplog.text
    assert store_on(elsewhere).cached("k") == "planted run"  # the target itself untouched


def test_a_file_of_another_user_is_not_read(tmp_path, caplog):
    if os.getuid() != 0:
        pytest.skip("giving a file to another user needs root")
    store_on(tmp_path).get("k", lambda report: "their run")
    os.chown(DiskCache(tmp_path, MB).path("k"), 12345, 12345)
    compute, calls = counted()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("k", compute) == "computed"
    assert calls == [1] and "belongs to another user; not read" in caplog.text


def test_a_cache_folder_writable_by_others_is_made_private(tmp_path, caplog):
    cache = tmp_path / "shared"
    cache.mkdir()
    os.chmod(cache, 0o777)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        store_on(cache).get("k", lambda report: "run")
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert "was writable by others; made private (mode 0700)" in caplog.text
    assert len(DiskCache(cache, MB).files()) == 1


def test_a_cache_folder_of_another_user_is_not_used(tmp_path, caplog):
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    cache = tmp_path / "theirs"
    cache.mkdir(mode=0o777)
    os.chown(cache, 12345, 12345)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(cache).get("k", lambda report: "run") == "run"  # in memory only
    assert list(cache.iterdir()) == [] and "belongs to another user" in caplog.text


def test_plain_data_gives_back_every_kind_a_run_holds():
    """Tuples stay tuples, dict keys keep their type, arrays keep dtype and read-only flag."""
    import numpy as np

    frozen = np.arange(6, dtype=np.int32).reshape(2, 3)
    frozen.flags.writeable = False
    value = ({(1, "a"): [1.5, float("inf")]}, frozenset({"x"}), b"\x00\xff", frozen)
    back = plaindata.decode(plaindata.encode(value))
    assert back[:3] == value[:3] and type(back[0]) is dict
    assert back[3].dtype == np.int32 and back[3].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert not back[3].flags.writeable


@pytest.mark.parametrize("name", ["bpe", "wordpiece", "unigram", "sage", "bytebpe"])
def test_every_algorithms_trace_comes_back_equal_from_disk(tmp_path, name):
    from subtok_core import registry

    algo = registry.get(name)
    source, params = algo.demo
    trace = algo.trace(algo.load(source), **dict(params))
    store_on(tmp_path).get(("run", name), lambda report: trace)
    assert store_on(tmp_path).cached(("run", name)) == trace
