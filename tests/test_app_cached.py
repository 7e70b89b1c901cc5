"""The page caches of lessons/ui/cached.py: a chart kept as a spec sends what st.altair_chart
sends, a piece is drawn once and replayed, keys keep runs and sessions apart; the store
names the run a page holds; SaGe's states of a step made from an earlier one are those the
core makes from scratch; the status colors of a table."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest
from apptools import APP, open_page
from conftest import clear_every_cache
from streamlit.testing.v1 import AppTest

from subtok_core import bpe, corpus, sage
from subtok_core.store import Store

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))  # lessons/, as the app imports it
from lessons.sage import closeup  # noqa: E402
from lessons.ui.store import TraceStore, fingerprint, trace_store  # noqa: E402
from lessons.ui.tables import style_status  # noqa: E402

HEADER = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import pandas as pd
import streamlit as st
from lessons.ui import cached
from subtok_core.charts import lessons as viz
"""


def script(body: str) -> AppTest:
    return AppTest.from_string(HEADER + body, default_timeout=60)


def charts(at: AppTest) -> list:
    """The Vega-Lite charts a run sent, as protobufs."""
    return [chart.proto for chart in at.get("vega_lite_chart")]


GROWTH = """
df = pd.DataFrame({"step": [0, 1, 2], "vocab_size": [6, 7, 8], "corpus_symbols": [30, 26, 23]})
st.altair_chart(viz.vocab_growth_chart(df, 2), width="stretch")
cached.chart("run-1", ("growth",), lambda: viz.vocab_growth_chart(df, 0), 2)
"""


def test_a_chart_built_once_sends_what_st_altair_chart_sends_at_every_step():
    at = script(GROWTH).run()
    direct, kept = charts(at)
    assert kept.spec == direct.spec and kept.datasets == direct.datasets
    assert '"value": 2' in kept.spec  # step 2, set on the spec built at step 0
    at.run()  # now from the cache: the same again
    direct, kept = charts(at)
    assert kept.spec == direct.spec and kept.datasets == direct.datasets


def test_a_chart_kept_on_disk_is_sent_the_same_by_a_restarted_server():
    at = script(GROWTH).run()
    clear_every_cache()  # a restarted server: st caches and the in-memory store emptied
    at.run()
    direct, kept = charts(at)
    assert kept.spec == direct.spec and kept.datasets == direct.datasets
    store = trace_store()
    assert store.counted("read") == {"table: chart": 1} and store.counted("computed") == {}


LATTICE = """
df = pd.DataFrame({"start": [0, 0, 1], "end": [1, 2, 2], "piece": ["r", "ru", "u"],
                   "logp": [-3.9, -3.9, -1.6], "posterior": [0.2, 0.8, 0.2],
                   "best": [False, True, False], "row": [0, 1, 2]})
st.altair_chart(viz.lattice_chart(df, True), width="stretch")
cached.altair(viz.lattice_chart(df, True))
"""


def test_a_chart_drawn_without_the_schema_check_sends_what_st_altair_chart_sends():
    direct, unchecked = charts(script(LATTICE).run())
    assert unchecked.spec == direct.spec and unchecked.datasets == direct.datasets


DRAWN = """
@st.cache_resource
def calls():
    return []

def draw(label):
    calls().append(label)
    st.markdown(f"piece {label}")
    st.dataframe(pd.DataFrame({"a": [1, 2]}))

what = st.session_state.get("what", 1)
run = st.session_state.get("run", "run-1")
cached.drawn(run, ("piece", what), lambda: draw(f"{run} {what}"))
st.write(f"calls: {len(calls())}")
"""


def shown(at: AppTest) -> tuple[str, str]:
    return at.markdown[0].value, at.markdown[-1].value


def test_a_piece_is_drawn_once_then_replayed_and_drawn_again_for_other_values():
    at = script(DRAWN).run()
    assert shown(at) == ("piece run-1 1", "calls: 1") and len(at.dataframe) == 1
    at.run()
    assert shown(at) == ("piece run-1 1", "calls: 1") and len(at.dataframe) == 1
    at.session_state["what"] = 2
    assert shown(at.run()) == ("piece run-1 2", "calls: 2")
    at.session_state["run"] = "run-2"  # another run, the same step
    assert shown(at.run()) == ("piece run-2 2", "calls: 3")
    at.session_state["run"] = None  # a run the store does not keep: drawn every time
    assert shown(at.run()) == ("piece None 2", "calls: 4")
    assert shown(at.run()) == ("piece None 2", "calls: 5")


def test_two_sessions_on_different_corpora_each_see_their_own_step():
    low = open_page("lessons/bpe/page.py", corpus="toy:low-lower", step="2")
    cat = open_page("lessons/bpe/page.py", corpus="toy:cat-bat", step="2")

    def pairs(at: AppTest) -> list[str]:
        return list(next(df.value for df in at.dataframe if "pair" in df.value.columns)["pair"])

    assert pairs(low) != pairs(cat)
    # each opens on its own source's marker: 003's </w> on low-lower, 001's none on cat-bat
    for at, name, marker in ((low, "toy:low-lower", "eow"), (cat, "toy:cat-bat", "none")):
        trace = bpe.trace_bpe(corpus.load(name), merges=10, marker=marker)
        table = trace.steps[1].pair_table  # what the page shows at step 2
        assert pairs(at.run()) == [f"({a}, {b})" for a, b, _count in table]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_two_sessions_typing_the_same_text_share_one_run_and_another_text_trains_its_own():
    """Each session builds its own word counts from the text it typed: equal values held by
    other objects. The run's key is made from their value (subtok_core.keys), so the second
    session is served the run the first one trained; a third text trains its own."""
    from subtok_core.store import TABLE

    def trainings() -> int:  # the runs the store computed, not the tables (chart specs)
        counted = trace_store().counted("computed")
        return sum(n for kind, n in counted.items() if not kind.startswith(TABLE))

    def typed(text: str) -> AppTest:
        at = open_page(
            "lessons/bpe/page.py", corpus="text:your own", marker="eow", merges="10", step="2"
        )
        at.text_area(key="bpe_text").set_value(text).run()
        assert not at.exception, at.exception
        return at

    def pairs(at: AppTest) -> list[str]:
        return list(next(df.value for df in at.dataframe if "pair" in df.value.columns)["pair"])

    def expected(text: str) -> list[str]:  # the core's run on the text, step 2's pairs
        trace = bpe.trace_bpe(corpus.from_text(text), merges=10, marker="eow")
        return [f"({a}, {b})" for a, b, _count in trace.steps[1].pair_table]

    text, other = "low low lower lowest newest widest", "hug pug pun bun hugs"
    trace_store().clear()
    start = trainings()
    first = typed(text)
    trained = trainings()
    assert trained == start + 2  # the page's own text on opening, then the typed one
    second = typed("".join(list(text)))  # the same text, another string
    assert trainings() == trained  # both runs served from the store
    third = typed(other)
    assert trainings() == trained + 1
    assert pairs(first) == pairs(second) == expected(text) != expected(other) == pairs(third)


def test_the_store_names_the_run_it_keeps_and_nothing_else():
    store = TraceStore(budget_bytes=10_000)
    run = store.get("abc", lambda report: ["a run"])
    sage_run = store.get(("sage", "sample", 1), lambda report: ["another run"])
    assert store.key_of(run) == "abc"
    assert store.key_of(sage_run) == fingerprint(("sage", "sample", 1))
    assert store.key_of(["a run"]) is None  # equal, but not the object the store keeps
    store.clear()
    assert store.key_of(run) is None
    assert isinstance(trace_store(), Store)


@pytest.mark.slow  # SaGe on a real sample
def test_the_sample_at_a_step_made_from_an_earlier_step_is_the_one_made_from_scratch():
    sentences = sage.sample_sentences("sample:crime")
    trace = sage.trace_sage(sentences, sage.SageSettings(vocab_size=150, k=10, M=20))
    states = closeup._States()
    last = len(trace.steps) + 1
    for step in (2, 1, 3, last, 2):  # from scratch, then from the nearest earlier one
        made = states.at(trace, sentences, step)
        fresh = sage.corpus_at(trace, sentences, step)
        assert made.vocab() == fresh.vocab()
        assert made.flat.tolist() == fresh.flat.tolist()
    assert states.at(trace, sentences, 2) is states.at(trace, sentences, 2)  # kept


def test_merged_and_pruned_rows_are_red_tied_rows_orange_the_rest_plain():
    table = pd.DataFrame({"pair": ["a", "b", "c", "d"], "status": ["merged", "tied", "", "pruned"]})
    styler = style_status(table)
    styler._compute()
    red = [("background-color", "#ffd6d6"), ("font-weight", "bold")]
    orange = [("background-color", "#ffe8cc")]
    for column in range(2):
        assert styler.ctx[(0, column)] == red and styler.ctx[(3, column)] == red
        assert styler.ctx[(1, column)] == orange
        assert not styler.ctx.get((2, column))


@pytest.mark.slow  # every lesson, SaGe on a real sample too
def test_every_lesson_page_renders_twice_the_same(monkeypatch):
    """The second run replays what the first drew: the same tables and the same text."""
    for page in ("lessons/bpe/page.py", "lessons/wordpiece/page.py", "lessons/unigram/page.py"):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["corpus"] = (
            "toy:cat-bat" if page != "lessons/unigram/page.py" else "toy:run-bug"
        )
        at.query_params["step"] = "2"
        at.run()
        at.switch_page(page).run()
        first = ([df.value.to_dict() for df in at.dataframe], [m.value for m in at.markdown])
        at.run()
        again = ([df.value.to_dict() for df in at.dataframe], [m.value for m in at.markdown])
        assert first == again and first[0], page
