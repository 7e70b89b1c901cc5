"""Unigram through the command line and the JSON/CSV/model exports (run in-process via main).

Expected numbers are the run/bug/fun/sun worked example of 001 (../shared/seeds/
001_cd5e11af49399106.txt), computed exactly: loss 66.109 with the strict seed in log base
10; after the slides remove un, 61.165 (the slides round probabilities and get 66.102 and
61.155).
"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from subtok_core.cli import main
from subtok_core.corpus import load
from subtok_core.export import (
    load_model,
    model_from_dict,
    model_to_dict,
    save_model,
    steps_csv,
    trace_to_dict,
)
from subtok_core.unigram import UnigramModel, model_from_trace, trace_unigram

RUN_BUG = ["train", "unigram", "--corpus", "toy:run-bug", "--variant", "textbook"]
SLIDES = [*RUN_BUG, "--log-base", "10", "--strict"]
SEED_FREQ = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26, "b": 5, "g": 5, "bu": 5, "ug": 5}
SEED_FREQ |= {"f": 13, "fu": 13, "s": 10, "su": 10}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_json_carries_every_step_of_the_slides(capsys):
    code, out, err = run(capsys, *SLIDES, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["algorithm"] == "unigram"
    assert data["params"]["seed"] == "strict" and data["params"]["log_base"] == "10"
    steps = data["steps"]
    assert [s["kind"] for s in steps] == ["e", "m", "prune"] * 6 + ["e"]
    assert [s["number"] for s in steps] == list(range(1, 20))
    e1, m1, prune = steps[:3]
    assert round(e1["loss"], 3) == 66.109
    assert e1["probabilities"] == pytest.approx({p: f / 155 for p, f in SEED_FREQ.items()})
    assert list(e1["probabilities"]) == list(SEED_FREQ)
    assert e1["removal_losses"] == {} and e1["removed"] == []
    assert e1["segmentations"] == {
        "run": [["ru", "n"], pytest.approx(3 * 26 / 155**2)],
        "bug": [["bu", "g"], pytest.approx(5 * 5 / 155**2)],
        "fun": [["fu", "n"], pytest.approx(13 * 26 / 155**2)],
        "sun": [["su", "n"], pytest.approx(10 * 26 / 155**2)],
    }
    # the M-step table: piece -> corpus loss without it; every one is 66.109 here
    assert list(m1["removal_losses"]) == ["ru", "un", "bu", "ug", "fu", "su"]
    assert all(round(v, 3) == 66.109 for v in m1["removal_losses"].values())
    assert prune["removed"] == ["ru"] and prune["vocab_size"] == 12
    assert data["model"]["vocab"] == ["r", "u", "n", "b", "g", "f", "s"]
    assert data["stopped"] == "Reached the vocab size 7 asked for."


def test_remove_applies_the_slides_choice(capsys):
    code, out, _ = run(capsys, *SLIDES, "--remove", "un", "--json", "--full")
    assert code == 0
    data = json.loads(out)
    steps = data["steps"]
    assert steps[2]["removed"] == ["un"] and data["params"]["choices"] == ["un"]
    assert round(steps[3]["loss"], 3) == 61.165
    assert sum(steps[3]["frequencies"].values()) == 129
    m2 = {p: round(v, 3) for p, v in steps[4]["removal_losses"].items()}
    assert m2 == {"ru": 63.023, "bu": 61.165, "ug": 61.165, "fu": 69.215, "su": 67.357}
    assert data["start"]["frequencies"] == SEED_FREQ
    assert data["start"]["words"] == ["run", "bug", "fun", "sun"]
    assert data["start"]["counts"] == [3, 5, 13, 10]


def test_train_table(capsys):
    code, out, err = run(capsys, *SLIDES, "--vocab-size", "12", "--remove", "un")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["#", "round", "kind", "pieces", "loss", "removed"]
    assert [line.split() for line in lines[1:5]] == [
        ["1", "1", "E", "13", "66.109"],
        ["2", "1", "M", "13", "66.109"],
        ["3", "1", "prune", "12", "66.109", "un"],
        ["4", "2", "E", "12", "61.165"],
    ]
    assert lines[5] == "Reached the vocab size 12 asked for. Vocabulary: 12 symbols."


def test_out_then_encode_with_trace(capsys, tmp_path):
    path = tmp_path / "run_bug.json"
    code, out, err = run(capsys, *SLIDES, "--vocab-size", "12", "--remove", "un", "--out",
                         str(path), "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["model"]["vocab"] == list(load_model(path).pieces)
    assert err == f"Saved the model to {path}.\n"
    model = load_model(path)
    assert isinstance(model, UnigramModel) and len(model.pieces) == 12 and "un" not in model.pieces
    # the model keeps natural-log probabilities of the last E-step (total 129)
    assert dict(zip(model.pieces, model.logprobs)) == pytest.approx(
        {p: math.log(f / 129) for p, f in SEED_FREQ.items() if p != "un"}
    )
    code, out, err = run(capsys, "encode", "--model", str(path), "run", "sunx")
    assert code == 0 and err == "" and out == "ru n su n [UNK]\n"
    code, out, _ = run(capsys, "encode", "--model", str(path), "--trace", "run", "sunx")
    lines = out.splitlines()
    ru, n = math.log(3 / 129), math.log(26 / 129)
    assert lines[0] == f"run: ru ({ru:.3f}) + n ({n:.3f}) = {ru + n:.3f}"
    assert lines[1].startswith("sunx: su (") and " + [UNK] (" in lines[1]
    assert lines[2] == "ru n su n [UNK]"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--vocab-size", "3"], "vocab size 3 is smaller than the 7 characters"),
        (["--remove", "u"], "single characters are never removed"),
        (["--remove", "zz"], "not in the vocabulary"),
        (["--seed", "given"], "comes with no seed list"),
        (["--prune-percent", "0"], "Prune between 0 and 100"),
        (["--max-piece-len", "0"], "at least 1"),
        (["--seed", "frequent"], "needs a size of at least 7"),
    ],
)
def test_bad_training_input_exits_2_with_a_sentence(capsys, argv, words):
    code, out, err = run(capsys, *RUN_BUG, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and words in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        [*RUN_BUG, "--log-base", "2"],
        [*RUN_BUG, "--variant", "bogus"],
        [*RUN_BUG, "--seed", "strict", "--strict"],
        ["train", "unigram"],
    ],
)
def test_bad_arguments_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "error:" in err


def test_bad_corpus_and_bad_model_file_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "train", "unigram", "--corpus", "toy:nope")
    assert code == 2 and err.startswith("error: ")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**model_to_dict(UNIGRAM), "logprobs": [0.5, -1.0]}))
    code, out, err = run(capsys, "encode", "--model", str(broken), "ab")
    assert code == 2 and out == "" and err.startswith("error: ") and "logprobs" in err


# --- export --------------------------------------------------------------------------------

UNIGRAM = UnigramModel(("a", "b", "ab"), (-1.5, -2.0, -0.5), ("a", "b"))


def test_unigram_steps_csv():
    trace = trace_unigram(load("toy:run-bug"), seed="strict", vocab_size=12, choices=("un",),
                          log_base="10")  # fmt: skip
    rows = list(csv.reader(io.StringIO(steps_csv(trace))))
    assert rows == [
        ["number", "round", "kind", "vocab_size", "loss", "removed"],
        ["1", "1", "e", "13", "66.10893", ""],
        ["2", "1", "m", "13", "66.10893", ""],
        ["3", "1", "prune", "12", "66.10893", "un"],
        ["4", "2", "e", "12", "61.16493", ""],
    ]


def test_trace_to_dict_keys_and_compact_model():
    trace = trace_unigram(load("toy:hug-pug"), seed="given", vocab_size=14)
    data = trace_to_dict(trace)
    assert list(data) == ["algorithm", "params", "steps", "model", "stopped"]
    assert list(data["steps"][0]) == ["number", "round", "kind", "loss", "vocab_size",
                                      "probabilities", "removal_losses", "removed", "note",
                                      "segmentations"]  # fmt: skip
    assert data["steps"][0]["segmentations"]["pug"] == [["pu", "g"], pytest.approx(340 / 210**2)]
    assert model_from_dict(data["model"]) == model_from_trace(trace)


@pytest.mark.parametrize(
    "model",
    [
        UNIGRAM,
        UnigramModel(("▁a", "b"), (-0.1, -3.0), ("a", "b"), "sow", True),
        model_from_trace(trace_unigram(load("toy:hug-pug"), seed="given", vocab_size=12)),
    ],
)
def test_unigram_model_round_trip(tmp_path, model):
    path = tmp_path / "m.json"
    save_model(model, path)
    assert load_model(path) == model
    assert json.loads(path.read_text(encoding="utf-8"))["algorithm"] == "unigram"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"logprobs": [-1.0, -2.0]}, "'logprobs' should hold one log-probability"),
        ({"logprobs": [-1.0, 0.5, -2.0]}, "'logprobs' should hold one log-probability"),
        ({"logprobs": [-1.0, "x", -2.0]}, "'logprobs' should hold one log-probability"),
        ({"logprobs": [-1.0, False, -2.0]}, "'logprobs' should hold one log-probability"),
        ({"logprobs": None}, "'logprobs' should hold one log-probability"),
        ({"marker": "eow"}, "a Unigram model has none or sow"),
        ({"marker": None}, "a Unigram model has none or sow"),
        ({"split_punct": "yes"}, "split_punct"),
        ({"vocab": "ab"}, "'vocab' field should be a list"),
        ({"alphabet": [1, 2]}, "'alphabet' field should be a list"),
    ],
)
def test_damaged_unigram_files_are_refused(tmp_path, change, words):
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps({**model_to_dict(UNIGRAM), **change}), encoding="utf-8")
    with pytest.raises(ValueError, match=words):
        load_model(path)
