"""Every registered algorithm answers the same verbs the same way (registry.py).

Each algorithm's ``demo`` names a toy corpus of the course material and a short run on it;
these tests train that run and hold every verb to what the others promise.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from subtok_core import export, registry
from subtok_core.records import Trace

TEXTS = ("the lowest newest fox", "bags of cats", "naïve 😀 жук")


@pytest.fixture(scope="module", params=sorted(registry.ALGORITHMS))
def run(request):
    algo = registry.get(request.param)
    name, params = algo.demo
    source = algo.load(name)
    trace = algo.trace(source, **dict(params))
    return algo, source, dict(params), trace


def test_every_algorithm_is_registered_under_its_own_name():
    assert sorted(registry.ALGORITHMS) == [
        "boundless", "bpe", "bytebpe", "parity", "picky", "sage", "superbpe", "unigram",
        "wordpiece",
    ]  # fmt: skip
    for name, algo in registry.ALGORITHMS.items():
        assert algo.name == name and algo.label


def test_an_algorithm_is_imported_when_it_is_first_asked_for():
    """Names, `in` and `len` import no algorithm; reading one imports its package only
    (in a fresh interpreter: this one has imported every algorithm already)."""
    code = """if True:
        import sys
        from subtok_core import registry as r
        known = ("sage" in r.ALGORITHMS, "nope" in r.ALGORITHMS, list(r.ALGORITHMS))
        before = "subtok_core.sage" in sys.modules or "subtok_core.bpe" in sys.modules
        label = r.LABELS["sage"]
        print(known, len(r.LABELS), before, label, "subtok_core.sage" in sys.modules,
              "subtok_core.unigram" in sys.modules)
    """
    root = Path(__file__).parents[1]  # this checkout's subtok_core
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    names = [
        "bpe",
        "wordpiece",
        "unigram",
        "sage",
        "bytebpe",
        "picky",
        "superbpe",
        "boundless",
        "parity",
    ]
    assert done.stdout.strip() == f"{(True, False, names)} {len(names)} False SaGe True False"


def test_training_gives_a_trace_of_that_algorithm(run):
    algo, _, _, trace = run
    assert isinstance(trace, Trace) and trace.algorithm == algo.name
    assert len(trace.steps) > 0
    assert registry.of_trace(trace) is algo


def test_the_model_names_the_algorithm_that_made_it(run):
    algo, _, _, trace = run
    model = algo.model_at(trace)
    assert model.algorithm == algo.name
    assert registry.of_model(model) is algo


def test_steps_yield_the_steps_of_the_trace(run):
    """The generator and the whole run agree step for step (as plain data: SaGe's steps
    hold embedding arrays, which do not compare with ==)."""
    algo, source, params, trace = run
    yielded = list(algo.steps(source, **params))
    as_data = [algo.step_to_dict(step, True) for step in yielded]
    assert as_data == [algo.step_to_dict(step, True) for step in trace.steps]


def test_step_zero_is_the_start_and_the_last_step_is_the_final_model(run):
    algo, _, _, trace = run
    first, last = algo.model_at(trace, 0), algo.model_at(trace, len(trace.steps))
    start = [getattr(row, "piece", row) for row in trace.start.vocab]  # Unigram keeps rows
    assert list(first.vocab) == start
    assert last == algo.model_at(trace)
    assert first != last


@pytest.mark.parametrize("text", TEXTS)
def test_spans_cover_the_text_in_order(run, text):
    """Tokens are spans of the text: in order, never overlapping, and the characters they
    cover are exactly the text without its spaces (a marker covers no character)."""
    algo, _, _, trace = run
    model = algo.model_at(trace)
    spans = algo.segment(model, text).tokens
    assert all(0 <= s.start <= s.end <= len(text) for s in spans)
    if getattr(model, "byte_level", False):
        # byte tokens: two tokens that cut a character's bytes apart both cover it (the
        # rule of pretrained/base.py), and a space before a word goes with the word
        assert all(a.start <= b.start and a.end - 1 <= b.start for a, b in zip(spans, spans[1:]))
        covered = {i for s in spans for i in range(s.start, s.end)}
        assert covered >= {i for i, ch in enumerate(text) if not ch.isspace()}
        return
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    covered = "".join(text[s.start : s.end] for s in spans)
    assert covered == "".join(text.split())


def test_blank_text_is_refused_with_a_sentence(run):
    algo, _, _, trace = run
    with pytest.raises(ValueError, match="Type a word"):
        algo.segment(algo.model_at(trace), "   ")


def test_word_segmenter_agrees_with_segment(run):
    algo, _, _, trace = run
    model = algo.model_at(trace)
    cut = algo.word_segmenter(model)
    for text in TEXTS:
        words = text.split()
        if getattr(model, "byte_level", False):  # a word is cut as after a space
            text = " " + text
        assert [p for w in words for p in cut(w)] == algo.segment(model, text).pieces


def test_model_round_trips_through_plain_data(run, tmp_path):
    algo, _, _, trace = run
    model = algo.model_at(trace)
    data = json.loads(json.dumps(algo.to_dict(model)))
    assert algo.from_dict(data, "m.json") == model
    export.save_model(model, tmp_path / "m.json")
    assert export.load_model(tmp_path / "m.json") == model


def test_trace_json_carries_the_final_model(run):
    algo, _, _, trace = run
    data = json.loads(export.trace_to_json(trace, full=True))
    assert data["algorithm"] == algo.name and len(data["steps"]) == len(trace.steps)
    assert export.model_from_dict(data["model"]) == algo.model_at(trace)


def test_explain_says_something_about_every_step(run):
    algo, _, _, trace = run
    sentences = [algo.explain(trace, i) for i in range(len(trace.steps) + 1)]
    assert all(isinstance(s, str) and s for s in sentences)


def test_csv_has_a_row_per_step(run):
    algo, _, _, trace = run
    lines = algo.steps_csv(trace).splitlines()
    assert len(lines) == 1 + len(trace.steps)


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="no algorithm called 'xyz'"):
        registry.get("xyz")
    with pytest.raises(ValueError, match="not a model of any algorithm"):
        registry.of_model(object())
