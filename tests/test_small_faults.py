"""The smaller faults of issue 26: a word-length limit in every encoder, whatever the model
file says; format_version checked when a model file is read."""

from __future__ import annotations

import json
import time

import pytest

from subtok_core import export, limits, registry
from subtok_core.cli import main

LONG = "a" * 50_000


def demo_model(name: str):
    algo = registry.get(name)
    source, params = algo.demo
    return algo.model_at(algo.trace(algo.load(source), **dict(params)))


def saved(tmp_path, data: dict, name: str = "m.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["bpe", "wordpiece", "unigram", "sage"])
def test_every_encoder_takes_200_characters_and_refuses_201(name):
    model, algo = demo_model(name), registry.get(name)
    assert limits.WORD_MAX_CHARS == 200
    algo.segment(model, "a" * 200)  # at the limit: encoded
    with pytest.raises(ValueError, match="has 201 characters; words of at most 200 are taken"):
        algo.segment(model, "low " + "a" * 201)


def test_a_crafted_unigram_piece_and_a_50000_character_word_end_in_a_sentence(tmp_path, capsys):
    data = export.model_to_dict(demo_model("unigram"))
    extra = ["a" * 5000] + ([] if "a" in data["vocab"] else ["a"])  # a crafted long piece
    data["vocab"] += extra
    data["logprobs"] += [-1.0] * len(extra)
    data["alphabet"] = sorted(set(data["alphabet"]) | {"a"})
    path = saved(tmp_path, data)
    began = time.perf_counter()
    assert main(["encode", "--model", path, LONG]) == 2
    assert time.perf_counter() - began < 10  # it ran past 60 s
    assert "has 50,000 characters; words of at most 200 are taken" in capsys.readouterr().err


def test_wordpiece_with_max_word_chars_10_to_the_12_keeps_to_the_limit(tmp_path, capsys):
    data = export.model_to_dict(demo_model("wordpiece"))
    data["max_word_chars"] = 10**12
    path = saved(tmp_path, data)
    began = time.perf_counter()
    assert main(["encode", "--model", path, LONG]) == 2
    assert time.perf_counter() - began < 10
    assert "has 50,000 characters; words of at most 200" in capsys.readouterr().err


def test_a_model_file_of_format_version_99_is_refused_with_a_sentence(tmp_path, capsys):
    data = export.model_to_dict(demo_model("bpe"))
    assert data["format_version"] == 1
    path = saved(tmp_path, {**data, "format_version": 99}, "future.json")
    assert main(["encode", "--model", path, "low"]) == 2
    assert capsys.readouterr().err == (
        "error: 'future.json' is a model file of format version 99; this subtok reads "
        "version 1. Train the model again with this subtok.\n"
    ).replace("'future.json'", repr(path))
    assert main(["encode", "--model", saved(tmp_path, data), "low"]) == 0  # version 1 reads


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_bytebpe_sample_run_is_kept_under_its_texts_fingerprint_not_its_name(monkeypatch):
    """A sample whose text changed under the same name (a new gensim) is trained again:
    its run was kept under the name, so the old text's run was served."""
    from lessons.ui.shipped import shipped_lines
    from lessons.ui.store import trace_store
    from subtok_core import corpus
    from subtok_core.store import TABLE
    from tests.apptools import open_page

    def trainings() -> int:  # the runs the store computed, not the tables (chart specs)
        counted = trace_store().counted("computed")
        return sum(n for kind, n in counted.items() if not kind.startswith(TABLE))

    texts = {"sample:lee": ["the cat sat on the mat"]}
    real = corpus.load_lines
    monkeypatch.setattr(corpus, "load_lines", lambda name, **kw: texts.get(name) or real(name))
    shipped_lines.clear()
    trace_store().clear()
    start = trainings()
    open_page("lessons/bytebpe/page.py", corpus="sample:lee", merges="3")
    before = trainings()
    assert before == start + 1  # the first text trained
    texts["sample:lee"] = ["a dog ran in the fog"]
    shipped_lines.clear()  # a new server: the store (like the disk cache) keeps its runs
    at = open_page("lessons/bytebpe/page.py", corpus="sample:lee", merges="3")
    assert trainings() == before + 1  # trained on the new text, not served
    assert not at.exception
    shipped_lines.clear()  # the next test reads the real sample
