"""Unigram's pruning when removals tie (issue 25): toy:low-lower's first round prices every
removal at +0.000, so the three pieces pruned are chosen among equals (seed order), and
the chart of the increases must still show the pieces, and say it."""

from __future__ import annotations

import pandas as pd
from apptools import open_page

from subtok_core.charts.lessons import removal_chart
from subtok_core.corpus import load
from subtok_core.unigram.train import trace_unigram


def first_prune():
    trace = trace_unigram(load("toy:low-lower"), "textbook")
    return next(s for s in trace.steps if s.kind == "prune")


def test_the_prune_sentence_says_the_others_tie():
    step = first_prune()
    assert step.removed == ("lo", "ow", "we")
    last = dict(step.removal)[step.removed[-1]]
    tied = [p for p, loss in step.removal if p not in step.removed and abs(loss - last) < 1e-9]
    assert len(tied) > 10  # every other removal costs the same on this corpus
    note = step.note
    assert note.startswith("Pruned lo, ow, we")
    assert f"{len(tied)} other pieces tie with them" in note
    assert "order of the seed" in note


def test_the_removal_chart_shows_pieces_when_every_increase_is_zero():
    df = pd.DataFrame(
        {"piece": ["lo", "ow", "we", "er"], "increase": [0.0] * 4,
         "status": ["pruned", "pruned", "pruned", ""]}
    )  # fmt: skip
    spec = removal_chart(df).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert "point" in marks and "text" in marks  # a dot and its value, even at 0
    x = next(layer["encoding"]["x"] for layer in spec["layer"] if layer["mark"]["type"] == "bar")
    assert x["scale"]["domain"][1] > 0  # a real axis, not the empty range [0, 0]


def test_the_unigram_page_draws_the_chart_at_zero_increases():
    at = open_page("lessons/unigram/page.py", corpus="toy:low-lower", step="2")
    charts = [c for c in at.get("vega_lite_chart") if "loss increase" in str(c.proto.spec)]
    assert charts, "the removal chart is drawn when every increase is 0.000"
