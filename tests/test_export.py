"""Traces and models as JSON and CSV: shapes, round trips, and refusing broken files."""

from __future__ import annotations

import csv
import io
import json

import pytest

from subtok_core.bpe import BpeModel, model_from_trace, segment, trace_bpe
from subtok_core.corpus import from_text, load
from subtok_core.export import (
    load_model,
    model_from_dict,
    model_to_dict,
    save_model,
    steps_csv,
    trace_to_dict,
    trace_to_json,
)


@pytest.fixture(scope="module")
def low_trace():
    return trace_bpe(load("toy:low-lower"), merges=4, marker="eow")


def test_trace_to_dict_has_exactly_the_documented_keys(low_trace):
    data = trace_to_dict(low_trace)
    assert list(data) == ["algorithm", "params", "steps", "model", "stopped"]
    assert list(data["params"]) == ["marker", "ties", "merges", "vocab_size"]
    assert all(list(s) == ["pair", "count", "new_symbol", "tied_with"] for s in data["steps"])
    # the trace's model is the model file save_model writes: it loads as the trained model
    assert model_from_dict(data["model"]) == model_from_trace(low_trace)
    assert data["steps"][0] == {
        "pair": ["e", "s"],
        "count": 9,
        "new_symbol": "es",
        "tied_with": [["s", "t"], ["t", "</w>"]],
    }
    assert data["stopped"] == low_trace.stop_reason
    assert json.loads(json.dumps(data)) == data  # plain JSON data only


def test_trace_to_json_short_and_full(low_trace):
    short = json.loads(trace_to_json(low_trace))
    assert short == trace_to_dict(low_trace)
    full = json.loads(trace_to_json(low_trace, full=True))
    last = full["steps"][-1]
    assert last["vocab_size"] == 15 and last["corpus_symbols"] == 61
    assert last["pair_table"][:2] == [["l", "o", 7], ["o", "w", 7]]
    assert last["segmentations"][0] == ["lo", "w", "</w>"]
    assert full["start"]["vocab"] == list(low_trace.start.vocab)
    assert full["model"] == short["model"]


def test_compact_trace_has_no_segmentations():
    trace = trace_bpe(load("toy:cat-bat"), merges=2, snapshot=False)
    step = json.loads(trace_to_json(trace, full=True))["steps"][0]
    assert "segmentations" not in step and step["pair_table"][0] == ["a", "t", 20]


def test_sow_marker_survives_json():
    trace = trace_bpe(load("toy:cat-bat"), merges=3, marker="sow")
    text = trace_to_json(trace)
    assert "\u2581" in text  # kept as the character, not escaped as \\u2581
    assert "\u2581" in json.loads(text)["model"]["vocab"]
    assert json.loads(text)["model"]["merges"][0] == ["a", "t"]


def test_steps_csv_header_and_rows(low_trace):
    rows = list(csv.reader(io.StringIO(steps_csv(low_trace))))
    assert rows[0] == ["number", "left", "right", "new_symbol", "count", "ties"]
    assert rows[1:] == [
        ["1", "e", "s", "es", "9", "2"],
        ["2", "es", "t", "est", "9", "1"],
        ["3", "est", "</w>", "est</w>", "9", "0"],
        ["4", "l", "o", "lo", "7", "1"],
    ]


def test_steps_csv_quotes_a_comma_symbol():
    trace = trace_bpe(from_text("a, a, a, b."), merges=1)
    assert trace.steps[0].pair == ("a", ",")
    text = steps_csv(trace)
    assert text.splitlines()[1] == '1,a,",","a,",3,0'
    assert list(csv.reader(io.StringIO(text)))[1][1:4] == ["a", ",", "a,"]


@pytest.mark.parametrize("marker", ["none", "eow", "suffix", "sow"])
def test_save_then_load_gives_the_same_model(tmp_path, marker):
    model = model_from_trace(
        trace_bpe(load("toy:cat-bat"), merges=5, marker=marker), split_punct=True
    )
    path = tmp_path / "model.json"
    save_model(model, path)
    again = load_model(path)
    assert again == model
    assert segment(again, "cats bag").pieces == segment(model, "cats bag").pieces
    assert json.loads(path.read_text(encoding="utf-8"))["algorithm"] == "bpe"


def test_model_to_dict_fields():
    model = BpeModel((("a", "t"),), ("a", "t", "at"), ("a", "t"), "eow", True)
    data = model_to_dict(model)
    assert data["algorithm"] == "bpe" and data["marker"] == "eow" and data["split_punct"]
    assert data["merges"] == [["a", "t"]] and data["vocab"] == ["a", "t", "at"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x00\x9f\xff garbage", "cannot be read"),
        (b"not json at all", "not JSON"),
        (b"[1, 2, 3]", "no 'algorithm'"),
        (
            b'{"algorithm": "xyz"}',
            "only BPE, WordPiece, Unigram, SaGe, Byte-level BPE, Picky BPE, SuperBPE, "
            "BoundlessBPE and Parity-aware BPE models load here",
        ),
        (b'{"algorithm": "unigram"}', "a Unigram model has none or sow"),
        (b'{"algorithm": "bpe", "marker": "eow", "alphabet": [], "vocab": []}', "merges"),
        (
            b'{"algorithm": "bpe", "marker": "eow", "alphabet": ["a"], "vocab": ["a"],'
            b' "merges": [["a"]]}',
            "merges",
        ),
        (b'{"algorithm": "bpe", "marker": "xyz"}', "marker"),
    ],
)
def test_load_model_refuses_broken_files(tmp_path, content, words):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=words) as caught:
        load_model(path)
    assert str(caught.value).endswith(".")


def test_load_model_missing_file_and_folder(tmp_path):
    with pytest.raises(ValueError, match="no model file"):
        load_model(tmp_path / "absent.json")
    with pytest.raises(ValueError, match="cannot be read"):
        load_model(tmp_path)


def test_unknown_algorithm_trace_is_refused(low_trace):
    from dataclasses import replace

    with pytest.raises(ValueError, match="no algorithm called 'xyz'"):
        trace_to_dict(replace(low_trace, algorithm="xyz"))
