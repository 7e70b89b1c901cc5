"""What is read from the cache folder is checked before it is served (issue 40): the folder
itself (a link of another user), the Wikipedia sample's text, and crafted files of this
user (a huge numpy number, a run of the wrong type, another run's body under a true
header, a chart's spec that names addresses)."""

from __future__ import annotations

import json
import logging
import os
import time

import pytest

from subtok_core import plaindata
from subtok_core.diskcache import DiskCache
from subtok_core.records import Span, Trace
from subtok_core.store import Store

MB = 1 << 20


def store_on(directory) -> Store:
    return Store(budget_bytes=MB, disk=DiskCache(directory, 10 * MB), poll=0.01)


def counted(value="computed"):
    calls: list[int] = []
    return (lambda report: calls.append(1) or value), calls


def test_a_cache_folder_that_is_a_link_of_another_user_is_not_used(tmp_path, caplog):
    """Before: the link was followed, and pruning to the budget removed the target's runs."""
    if os.getuid() != 0:
        pytest.skip("giving a link to another user needs root")
    mine = tmp_path / "mine"
    store_on(mine).get("old run", lambda report: "x" * 4000)
    (kept,) = DiskCache(mine, MB).files()
    link = tmp_path / "their-link"
    os.symlink(mine, link)
    os.lchown(link, 12345, 12345)
    tiny = Store(budget_bytes=MB, disk=DiskCache(link, 100), poll=0.01)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert tiny.get("new run", lambda report: "y" * 50) == "y" * 50  # in memory only
    assert kept.exists() and DiskCache(mine, MB).files() == [kept]
    assert "is a link made by another user" in caplog.text


def test_a_huge_numpy_number_is_refused_at_once():
    """118 bytes of JSON asked numpy for a 2 GB void scalar (50 MB here, so the test that
    fails before the fix stays cheap)."""
    import numpy  # noqa: F401  (its first import is not what is timed)

    for body in (b'{"n":["V",50000000]}', b'{"n":["V2000000000",0]}', b'{"n":["<U9",1]}'):
        began = time.perf_counter()
        with pytest.raises(ValueError, match="is not plain data"):
            plaindata.decode(body)
        assert time.perf_counter() - began < 0.5


def test_an_array_whose_bytes_do_not_fill_its_shape_is_refused():
    with pytest.raises(ValueError):
        plaindata.decode(json.dumps({"a": ["V1000000", [3], "", True]}))
    with pytest.raises(ValueError, match="not its size"):
        plaindata.decode(json.dumps({"a": ["<i8", [2], "AAAAAAAAAAA=", True]}))


def test_a_crafted_number_file_is_dropped_with_a_log_line(tmp_path, caplog):
    disk = DiskCache(tmp_path, 10 * MB)
    disk.save("k", b'{"n":["V",50000000]}')  # a true header (this user wrote it)
    compute, calls = counted()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("k", compute) == "computed"
    assert calls == [1] and "ignored cache file" in caplog.text
    assert store_on(tmp_path).cached("k") == "computed"  # the file was replaced


def test_a_record_field_of_the_wrong_type_is_refused():
    good = plaindata.encode(Span("lo", 0, 2))
    assert plaindata.decode(good) == Span("lo", 0, 2)
    bad = good.replace(b'"lo",0', b'"lo",{"l":[]}')
    with pytest.raises(ValueError, match="Span.start holds a list"):
        plaindata.decode(bad)


def test_a_run_of_the_wrong_type_is_dropped_not_served(tmp_path, caplog):
    """Before: a string kept under a trace's key was served (and kept in memory), so the
    page broke for every visitor until a restart."""
    DiskCache(tmp_path, 10 * MB).save(("bpe", "k"), plaindata.encode("not a trace"))
    compute, calls = counted(value=("a", "tuple"))
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        got = store_on(tmp_path).get(("bpe", "k"), compute, expect=tuple)
    assert got == ("a", "tuple") and calls == [1]
    assert "it holds a str, not a tuple" in caplog.text
    assert store_on(tmp_path).cached(("bpe", "k"), expect=tuple) == ("a", "tuple")


def test_the_pages_store_reads_only_a_trace_under_a_trace_key(tmp_path, caplog):
    from lessons.ui.store import TraceStore
    from subtok_core import registry

    algo = registry.get("bpe")
    source, params = algo.demo
    trace = algo.trace(algo.load(source), **dict(params))
    assert isinstance(trace, Trace)
    key = ("bpe", "demo")
    DiskCache(tmp_path, 10 * MB).save(key, plaindata.encode(Span("lo", 0, 2)))
    pages = TraceStore(budget_bytes=10 * MB, disk=DiskCache(tmp_path, 10 * MB), poll=0.01)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert pages.trained(key, lambda report: trace, "Learning merges:") == trace
    assert "it holds a Span, not a Trace" in caplog.text


def test_another_runs_body_under_a_true_header_is_not_served(tmp_path, caplog):
    store_on(tmp_path).get("a", lambda report: "run of a")
    store_on(tmp_path).get("b", lambda report: "run of b")
    disk = DiskCache(tmp_path, 10 * MB)
    head_a = disk.path("a").read_bytes().split(b"\n", 1)[0]
    body_b = disk.path("b").read_bytes().split(b"\n", 1)[1]
    disk.path("a").write_bytes(head_a + b"\n" + body_b)
    compute, calls = counted()
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("a", compute) == "computed"  # not "run of b"
    assert calls == [1] and "not the one its header was written with" in caplog.text


SPECS_THAT_FETCH = [
    {"data": {"url": "http://e/x.json"}, "mark": "bar"},
    {"mark": "image", "encoding": {"url": {"field": "u"}}},
    {"mark": "bar", "encoding": {"href": {"value": "https://e/"}}},
    {"layer": [{"mark": {"type": "text", "text": "//e.example/x"}}]},
    {"$schema": "https://evil.example/schema.json"},
    ["not", "a", "spec"],
]


@pytest.mark.parametrize("spec", SPECS_THAT_FETCH)
def test_a_kept_chart_spec_that_names_an_address_is_refused(spec):
    from lessons.ui.cached import spec_refused

    assert spec_refused(spec)


def test_a_chart_spec_streamlit_makes_is_accepted():
    import altair as alt
    import pandas as pd

    from lessons.ui.cached import spec_refused
    from lessons.ui.compat import altair_spec

    frame = pd.DataFrame({"token": ["http://e", "lo"], "n": [1, 2]})
    chart = alt.Chart(frame).mark_bar().encode(x="token", y="n", tooltip="token")
    assert spec_refused(altair_spec(chart)) is None


def test_a_crafted_chart_spec_on_disk_is_dropped(tmp_path, caplog):
    from lessons.ui.cached import spec_refused

    DiskCache(tmp_path, 10 * MB).save("chart", plaindata.encode(SPECS_THAT_FETCH[0]))
    compute, calls = counted(value={"mark": "bar"})
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        assert store_on(tmp_path).get("chart", compute, expect=spec_refused) == {"mark": "bar"}
    assert calls == [1] and "names an address to fetch (data.url)" in caplog.text


def _wiki_lines(monkeypatch, folder, megabytes=None):
    from subtok_core.corpus import samples

    monkeypatch.setenv("SUBTOK_CACHE_DIR", str(folder))
    if megabytes is not None:
        monkeypatch.setenv("SUBTOK_CACHE_MB", str(megabytes))
    samples.sample_lines.cache_clear()
    try:
        return samples.sample_lines("enwiki")
    finally:
        samples.sample_lines.cache_clear()


@pytest.mark.slow
def test_the_wikipedia_text_is_never_read_through_a_planted_link(tmp_path, monkeypatch):
    """Before: the kept text was read with a plain read_text, which follows a link."""
    cache, planted = tmp_path / "cache", tmp_path / "planted.txt"
    made = _wiki_lines(monkeypatch, cache)
    planted.write_text("a line someone planted", encoding="utf-8")
    kept = list(cache.iterdir())
    assert kept
    for path in kept:
        path.unlink()
        path.symlink_to(planted)
    assert _wiki_lines(monkeypatch, cache) == made


@pytest.mark.slow
def test_the_wikipedia_text_counts_in_the_cache_budget(tmp_path, monkeypatch):
    """Before: the text (some MB) was kept whatever SUBTOK_CACHE_MB said."""
    cache = tmp_path / "cache"
    _wiki_lines(monkeypatch, cache, megabytes=0.05)
    assert sum(path.stat().st_size for path in cache.iterdir()) <= 0.05 * MB
