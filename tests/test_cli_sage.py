"""SaGe through the command line and the JSON/model exports (run in-process via main).

The corpus is 38 short sentences over 12 characters, so 3 prune steps of 5 pieces
(45 -> 30) train in well under a second; one slow test runs the issue's command on
sample:lee (about 15 s).
"""

from __future__ import annotations

import itertools
import json

import pytest

from subtok_core import sage
from subtok_core.cli import main
from subtok_core.export import load_model, model_from_dict, model_to_dict, trace_to_dict

SUBJECTS = ["the cat", "a rat", "the hen", "an ant", "the heron", "a tern"]
VERBS = ["sat on", "ate", "sees", "chases", "hears"]
OBJECTS = ["the mat", "a nest", "the hat", "three seeds", "the stone"]
SIZES = ["--vocab-size", "30", "--initial-size", "45", "--k", "5", "--M", "20"]
STEP_KEYS = ["number", "vocab_size", "loss", "recomputed_losses", "retrained_embeddings",
             "tokens", "pruned"]  # fmt: skip


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> str:
    """38 sentences, one a line, made of 12 characters."""
    every = itertools.product(SUBJECTS, VERBS, OBJECTS)
    lines = [" ".join(parts) for parts in itertools.islice(every, 0, None, 4)]
    path = tmp_path_factory.mktemp("sage") / "tiny.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def train_json(capsys, corpus: str, *extra: str) -> dict:
    code, out, err = run(capsys, "train", "sage", "--corpus", corpus, *extra, "--json")
    assert code == 0, err
    return json.loads(out)


def test_json_steps_and_model(capsys, tiny):
    code, out, err = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, "--json")
    assert code == 0
    assert "step 1/3: 40 pieces" in err and "step 3/3: 30 pieces" in err  # progress: stderr
    data = json.loads(out)
    assert list(data) == ["algorithm", "params", "steps", "model", "stopped"]
    assert data["algorithm"] == "sage"
    params = data["params"]
    assert (params["k"], params["M"], params["m"], params["l"]) == (5, 20, 1, 2)
    assert params["control"] is None and params["initial_size"] == 45
    steps = data["steps"]
    assert [list(step) for step in steps] == [STEP_KEYS] * 3
    assert [step["number"] for step in steps] == [1, 2, 3]
    assert [step["vocab_size"] for step in steps] == [40, 35, 30]
    assert [step["retrained_embeddings"] for step in steps] == [True, False, True]
    assert all(step["recomputed_losses"] for step in steps)
    assert all(isinstance(step["loss"], float) and step["loss"] > 0 for step in steps)
    assert all(isinstance(step["tokens"], int) for step in steps)
    for step in steps:
        assert len(step["pruned"]) == 5
        assert all(isinstance(p, str) and isinstance(v, float) for p, v in step["pruned"])
    model = data["model"]
    assert model["marker"] == "sow" and model["algorithm"] == "sage"
    assert len(model["vocab"]) == 30
    pruned = {p for step in steps for p, _ in step["pruned"]}
    assert not pruned & set(model["vocab"]) and len(pruned) == 15
    assert data["stopped"] == "Reached the vocab size 30 in 3 prune steps."


def test_full_adds_start_and_candidates_never_embeddings(capsys, tiny):
    data = train_json(capsys, tiny, *SIZES, "--full")
    assert len(data["start"]["vocab"]) == 45
    for step in data["steps"]:
        assert list(step) == [*STEP_KEYS, "candidates"]
        assert step["pruned"] == step["candidates"][:5] and len(step["candidates"]) <= 20
        losses = [v for _, v in step["candidates"]]
        assert losses == sorted(losses)
    assert '"embeddings"' not in json.dumps(data)  # the vectors are never exported
    pruned = {p for step in data["steps"] for p, _ in step["pruned"]}
    assert data["model"]["vocab"] == [p for p in data["start"]["vocab"] if p not in pruned]


def test_same_seed_same_json(capsys, tiny):
    first = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, "--seed", "3", "--json")
    again = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, "--seed", "3", "--json")
    assert first[0] == 0 and first[1] == again[1]


@pytest.mark.parametrize("control", ["frequency", "random"])
def test_controls_have_no_loss(capsys, tiny, control):
    data = train_json(capsys, tiny, *SIZES, "--control", control)
    assert data["params"]["control"] == control
    assert [step["loss"] for step in data["steps"]] == [None, None, None]
    assert not any(step["retrained_embeddings"] for step in data["steps"])
    assert [len(step["pruned"]) for step in data["steps"]] == [5, 5, 5]
    assert len(data["model"]["vocab"]) == 30


def test_random_control_follows_the_seed(capsys, tiny):
    def pruned(seed: str) -> list:
        data = train_json(capsys, tiny, *SIZES, "--control", "random", "--seed", seed)
        return [step["pruned"] for step in data["steps"]]

    assert pruned("1") == pruned("1") != pruned("2")


def test_big_m_and_small_m_are_distinct_options(capsys, tiny):
    data = train_json(capsys, tiny, *SIZES, "--m", "2")
    assert (data["params"]["M"], data["params"]["m"]) == (20, 2)
    steps = data["steps"]
    assert [step["recomputed_losses"] for step in steps] == [True, False, True]
    assert [step["retrained_embeddings"] for step in steps] == [True, False, False]  # l x m = 4


def test_paper_preset_under_the_options_and_overshoot_factor(capsys, tiny):
    data = train_json(capsys, tiny, "--paper", *SIZES, "--M", "50")  # M >= k x m = 50
    params = data["params"]
    assert (params["n"], params["m"], params["l"], params["vocab_size"]) == (1.25, 10, 4, 30)
    assert [step["recomputed_losses"] for step in data["steps"]] == [True, False, False]
    data = train_json(capsys, tiny, "--vocab-size", "30", "--n", "1.5", "--k", "5", "--M", "20")
    assert data["params"]["initial_size"] is None and data["params"]["n"] == 1.5
    assert [step["vocab_size"] for step in data["steps"]] == [40, 35, 30]


def test_limit_keeps_the_first_lines(capsys, tiny):
    data = train_json(capsys, tiny, "--limit", "20", "--vocab-size", "25", "--initial-size",
                      "30", "--k", "5", "--M", "20", "--full")  # fmt: skip
    assert data["start"]["sentences"] == 20


def test_table(capsys, tiny):
    code, out, _ = run(capsys, "train", "sage", "--corpus", tiny, *SIZES)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["#", "pieces", "loss", "all", "scores", "retrained", "pruned",
                                "(ablation", "loss)"]  # fmt: skip
    assert [line.split()[:2] for line in lines[1:4]] == [["1", "40"], ["2", "35"], ["3", "30"]]
    assert [line.split()[3:5] for line in lines[1:4]] == [["yes", "yes"], ["yes", "no"],
                                                           ["yes", "yes"]]  # fmt: skip
    assert lines[1].count("(") == 5 and "..." not in lines[1]  # all 5 pruned pieces shown
    assert lines[4] == "Reached the vocab size 30 in 3 prune steps. Vocabulary: 30 symbols."
    code, out, _ = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, "--control", "frequency")
    assert out.splitlines()[0].endswith("pruned (uses)") and out.splitlines()[1].split()[2] == "-"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--k", "30"], "(M = 20) must hold the k x m = 30 pieces"),
        (["--m", "5"], "(M = 20) must hold the k x m = 25 pieces"),
        (["--vocab-size", "8", "--initial-size", "20"], "smaller than the 12 characters"),
        (["--vocab-size", "45"], "must be larger than the final vocab size 45"),
        (["--initial-size", "400"], "too small for an initial vocabulary of 400"),
        (["--l", "0"], "l must be at least 1"),
        (["--limit", "0"], "--limit must be at least 1 line"),
    ],
)
def test_bad_input_exits_2_with_a_sentence(capsys, tiny, argv, words):
    code, out, err = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    last = err.splitlines()[-1]
    assert last.startswith("error: ") and words in last


def test_bad_corpus_and_bad_option_exit_2(capsys):
    code, out, err = run(capsys, "train", "sage", "--corpus", "sample:nope")
    assert code == 2 and out == "" and err.startswith("error: Unknown sample 'nope'")
    code, out, err = run(capsys, "train", "sage", "--corpus", "sample:lee", "--control", "x")
    assert code == 2 and out == "" and "error:" in err


def test_out_then_encode(capsys, tiny, tmp_path):
    path = tmp_path / "sage.json"
    code, out, err = run(capsys, "train", "sage", "--corpus", tiny, *SIZES, "--out", str(path),
                         "--json")  # fmt: skip
    assert code == 0 and err.endswith(f"Saved the model to {path}.\n")
    model = load_model(path)
    assert isinstance(model, sage.SageModel)
    assert list(model.vocab) == json.loads(out)["model"]["vocab"] and len(model.vocab) == 30
    text = "the heron sees a cat xyz"
    code, out, err = run(capsys, "encode", "--model", str(path), *text.split())
    assert code == 0 and err == ""
    assert out == " ".join(sage.segment(model, text).pieces) + "\n"
    assert out.split()[0].startswith("▁") and out.split()[-3:] == ["[UNK]"] * 3
    code, out, _ = run(capsys, "encode", "--model", str(path), "--trace", "the", "cat")
    lines = out.splitlines()
    assert lines[0].startswith("the: ▁") and lines[0].endswith("(greedy longest prefix)")
    assert lines[1].startswith("cat: ") and len(lines) == 3


def test_trace_to_dict_and_model_round_trip(tiny):
    sentences = sage.sample_sentences(tiny, allow_paths=True)
    settings = sage.SageSettings(vocab_size=30, initial_size=40, k=5, M=20)
    trace = sage.trace_sage(sentences, settings, "frequency")
    data = json.loads(json.dumps(trace_to_dict(trace, full=True)))
    assert model_from_dict(data["model"]) == sage.model_from_trace(trace)
    assert data["params"]["control"] == "frequency"
    assert data["start"]["protected"] == trace.start.protected
    uses = data["steps"][0]["candidates"]
    assert [v for _, v in uses] == sorted(v for _, v in uses)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"marker": "eow"}, "a SaGe model has the sow marker"),
        ({"vocab": []}, "'vocab' should list non-empty pieces"),
        ({"vocab": ["a", ""]}, "'vocab' should list non-empty pieces"),
        ({"vocab": "ab"}, "'vocab' field should be a list"),
        ({"split_punct": "no"}, "split_punct"),
    ],
)
def test_damaged_sage_models_are_refused(tmp_path, change, words):
    path = tmp_path / "damaged.json"
    data = {**model_to_dict(sage.SageModel(("▁", "a", "▁a"))), **change}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=words):
        load_model(path)


@pytest.mark.slow
def test_the_issue_command_on_lee(capsys):
    data = train_json(capsys, "sample:lee", "--vocab-size", "1000", "--initial-size", "1200",
                      "--k", "50", "--m", "1", "--M", "400", "--l", "2", "--seed", "1")  # fmt: skip
    steps = data["steps"]
    assert [step["vocab_size"] for step in steps] == [1150, 1100, 1050, 1000]
    assert [len(step["pruned"]) for step in steps] == [50] * 4
    assert [step["retrained_embeddings"] for step in steps] == [True, False, True, False]
    assert all(step["recomputed_losses"] for step in steps)
    assert len(data["model"]["vocab"]) == 1000
