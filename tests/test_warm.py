"""`subtok warm URL...`: the pages a teacher will open are run headlessly before the class,
and their runs kept in the disk cache (each test has its own: tests/conftest.py)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import streamlit as st
from apptools import open_page

from subtok_core import bpe
from subtok_core.charts import lessons as viz
from subtok_core.cli import main
from subtok_core.diskcache import DiskCache
from subtok_core.warm import find_app, lesson_pages

LINK = "/bpe?corpus=toy:low-lower&marker=eow&merges=4"


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_warm_fills_the_cache_and_the_deep_link_then_trains_nothing(
    fresh_cache_dir, monkeypatch, capsys, caplog
):
    assert main(["warm", LINK]) == 0
    out = capsys.readouterr().out
    assert f"Cache: {fresh_cache_dir}" in out and "trained Learning merges" in out
    assert "1 run trained" in out and "tables derived from them: 2 computed (chart 2)" in out
    # the run, the whole run's chart and the step's pair-count chart (its spec)
    assert len(DiskCache(fresh_cache_dir, 1 << 20).files()) == 3
    st.cache_data.clear()  # a restarted server: nothing in memory
    st.cache_resource.clear()
    trained, built = [], []
    monkeypatch.setattr(bpe, "trace_bpe", lambda *a, **k: trained.append(1))
    monkeypatch.setattr(viz, "pair_count_chart", lambda *a, **k: built.append(1))
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        at = open_page("lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", merges="4")
    assert trained == [] and "from the disk cache" in caplog.text
    assert built == []  # the step's chart read as warm kept it: no Altair chart built
    assert at.slider(key="step").max == 4  # the 4 merges of the run warmed


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["/notes"], "/notes trains nothing to keep"),
        (["/"], "/ trains nothing to keep"),
        (["/bpe?merges=2", "/tokens"], "The app has no page /tokens"),
        ([LINK, "--app", "/nowhere/app.py"], "There is no app at /nowhere/app.py"),
        (["/_chips"], "The app has no page /_chips"),  # a module of lessons/, no page
    ],
)
def test_warm_refuses_what_it_cannot_open(args, said, capsys):
    assert main(["warm", *args]) == 2
    assert said in capsys.readouterr().err


def test_warm_refuses_when_the_cache_is_off(monkeypatch, capsys):
    monkeypatch.setenv("SUBTOK_CACHE_DIR", "off")
    assert main(["warm", LINK]) == 2
    assert "SUBTOK_CACHE_DIR is off" in capsys.readouterr().err


def test_a_page_that_does_not_finish_in_time_is_reported(capsys):
    assert main(["warm", LINK, "--timeout", "0.001"]) == 2
    captured = capsys.readouterr()
    assert "error on the page: the page did not finish within 0.001 s" in captured.out
    assert "1 of 1 pages showed an error" in captured.err


def test_the_pages_warm_opens_are_the_apps_lessons():
    lessons = lesson_pages(find_app(None))
    assert {"bpe", "wordpiece", "unigram", "sage", "compare"} <= set(lessons)
    assert not {"home", "notes", "join"} & set(lessons)
    assert not any(name.startswith("_") for name in lessons)


def test_warm_compiles_the_apps_and_the_cores_sources(tmp_path, monkeypatch):
    """A restarted server reads the bytecode warm wrote, even where Python writes none
    (PYTHONDONTWRITEBYTECODE); a source that does not compile is said, the rest compiled."""
    import importlib.util

    from subtok_core import warm_compile

    app, core = tmp_path / "app" / "app.py", tmp_path / "core"
    (app.parent / "lessons" / "bpe").mkdir(parents=True)
    core.mkdir()
    sources = [app, app.parent / "lessons" / "bpe" / "page.py", core / "store.py"]
    for path in sources:
        path.write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(warm_compile, "CORE", core)
    compiled = lambda: [Path(importlib.util.cache_from_source(p)).is_file() for p in sources]  # noqa: E731
    assert compiled() == [False, False, False]
    assert warm_compile.compile_sources(app) is True
    assert compiled() == [True, True, True]
    (core / "broken.py").write_text("def (\n", encoding="utf-8")
    assert warm_compile.compile_sources(app) is False


def test_a_warmed_unigram_step_builds_no_chart(fresh_cache_dir, monkeypatch, capsys, caplog):
    """The README's Unigram link: its lattice (of the word the page opens on) and every other
    chart of the step are read as warm kept them, none built again (no Altair)."""
    assert main(["warm", "/unigram?corpus=toy:run-bug&step=2"]) == 0
    out = capsys.readouterr().out
    charts = int(out.split(" computed (chart ")[1].split(")")[0])
    st.cache_data.clear()  # a restarted server: nothing in memory
    st.cache_resource.clear()
    built = []
    for name in ("lattice_chart", "removal_chart", "loss_curve_chart"):
        monkeypatch.setattr(viz, name, lambda *a, name=name, **k: built.append(name))
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        open_page("lessons/unigram/page.py", corpus="toy:run-bug", step="2")
    assert built == []
    assert caplog.text.count("read table: chart") == charts >= 2  # the lattice's among them
