"""The command line, run in-process through main(argv) (and once as `python -m subtok_core`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from subtok_core.bpe import model_from_trace, segment, trace_bpe
from subtok_core.cli import main
from subtok_core.corpus import load
from subtok_core.export import load_model

REPO = Path(__file__).resolve().parents[1]
LOW_LOWER = ["train", "bpe", "--corpus", "toy:low-lower", "--merges", "4", "--marker", "eow"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_json_gives_the_worked_example(capsys):
    code, out, err = run(capsys, *LOW_LOWER, "--ties", "first", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["algorithm"] == "bpe"
    assert data["params"] == {"marker": "eow", "ties": "first", "merges": 4, "vocab_size": None}
    steps = data["steps"]
    assert [s["new_symbol"] for s in steps] == ["es", "est", "est</w>", "lo"]
    assert [s["pair"] for s in steps] == [["e", "s"], ["es", "t"], ["est", "</w>"], ["l", "o"]]
    assert [s["count"] for s in steps] == [9, 9, 9, 7]
    assert steps[-1]["tied_with"] == [["o", "w"]]
    assert data["model"]["merges"] == [s["pair"] for s in steps]
    assert data["model"]["vocab"][-4:] == ["es", "est", "est</w>", "lo"]
    assert data["stopped"] == "Reached the 4 merges asked for."


def test_train_table_has_one_merge_per_line(capsys):
    code, out, _ = run(capsys, *LOW_LOWER)
    lines = out.splitlines()
    assert code == 0
    assert lines[1].split()[:5] == ["1", "e", "+", "s", "es"]
    assert lines[4].split() == ["4", "l", "+", "o", "lo", "7", "o", "w"]
    assert lines[5].startswith("Reached the 4 merges asked for.")


def test_train_to_a_vocab_size(capsys):
    code, out, _ = run(
        capsys, "train", "bpe", "--corpus", "toy:cat-bat", "--vocab-size", "9", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert data["params"]["vocab_size"] == 9 and data["params"]["merges"] is None
    assert len(data["model"]["vocab"]) == 9
    assert [s["new_symbol"] for s in data["steps"]] == ["at", "ag", "cat"]


def test_full_json_carries_the_snapshots(capsys):
    code, out, _ = run(capsys, *LOW_LOWER, "--json", "--full")
    step = json.loads(out)["steps"][0]
    assert code == 0
    assert step["pair_table"][0] == ["e", "s", 9]
    assert step["vocab_size"] == 12 and step["corpus_symbols"] == 86
    assert step["segmentations"][2] == ["n", "e", "w", "es", "t", "</w>"]


def test_saved_model_encodes_like_segment(capsys, tmp_path):
    path = tmp_path / "low.json"
    code, _, err = run(capsys, *LOW_LOWER, "--out", str(path))
    assert code == 0 and "Saved the model" in err
    expected = segment(model_from_trace(trace_bpe(load("toy:low-lower"), 4, None, "eow")), "lowest")
    assert load_model(path) == model_from_trace(trace_bpe(load("toy:low-lower"), 4, None, "eow"))

    code, out, _ = run(capsys, "encode", "--model", str(path), "lowest")
    assert code == 0
    assert out.split() == expected.pieces == ["lo", "w", "est</w>"]


def test_encode_trace_shows_each_merge(capsys, tmp_path):
    path = tmp_path / "low.json"
    run(capsys, *LOW_LOWER, "--out", str(path))
    code, out, _ = run(capsys, "encode", "--model", str(path), "--trace", "lowest")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "lowest: l o w e s t </w>"
    assert [line.split()[1] for line in lines[1:5]] == ["1", "2", "3", "4"]
    assert lines[-1] == "lo w est</w>"


def test_corpora_lists_toys_and_samples(capsys):
    code, out, _ = run(capsys, "corpora")
    names = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert code == 0
    assert "toy:cat-bat" in names and "sample:enwiki" in names
    assert "source:" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["train", "bpe", "--corpus", "toy:nope", "--merges", "2"], "no toy corpus"),
        (["train", "bpe", "--corpus", "toy:cat-bat", "--vocab-size", "3"], "smaller than"),
        (["train", "bpe", "--corpus", "no/such/file.txt", "--merges", "2"], "Unknown corpus"),
        (["encode", "--model", "no/such/model.json", "cat"], "no model file"),
    ],
)
def test_errors_exit_2_with_a_sentence(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and words in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_unwritable_out_file_is_an_error(capsys, tmp_path):
    code, _, err = run(capsys, *LOW_LOWER, "--out", str(tmp_path / "missing" / "m.json"))
    assert code == 2 and err.startswith("error: Cannot save the model")


def test_usage_errors_return_2(capsys):
    assert main(["train", "bpe", "--corpus", "toy:cat-bat"]) == 2  # neither size given
    assert "error:" in capsys.readouterr().err
    assert main([]) == 2


def test_python_dash_m_runs_the_cli():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "subtok_core", "corpora"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "toy:cat-bat" in done.stdout and "sample:enwiki" in done.stdout


# --- bounded work and damaged model files ------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "bpe", "--corpus", "sample:lee", "--merges", "1000000000"],
        ["train", "wordpiece", "--corpus", "toy:sunflower", "--vocab-size", "100000000"],
        ["train", "unigram", "--corpus", "toy:run-bug", "--variant", "em",
         "--em-iterations", "1000000000"],
    ],
)  # fmt: skip
def test_absurd_sizes_end_with_a_sentence_at_once(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "allowed here" in err and "Traceback" not in err


def _encode_with(path, capsys):
    code = main(["encode", "--model", str(path), "low"])
    return code, capsys.readouterr().err


def test_a_deeply_nested_model_file_is_refused(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code, err = _encode_with(path, capsys)
    assert code == 2 and "nested too deeply" in err


def test_a_device_or_fifo_is_not_read(tmp_path, capsys):
    code, err = _encode_with("/dev/zero", capsys)
    assert code == 2 and "not a regular file" in err
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, err = _encode_with(fifo, capsys)  # would block for ever if it were opened
    assert code == 2 and "not a regular file" in err


def test_a_huge_model_file_is_refused_unread(tmp_path, capsys, monkeypatch):
    from subtok_core import export

    monkeypatch.setattr(export, "MODEL_MAX_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"algorithm": "bpe", "vocab": ["x"] * 100}))
    code, err = _encode_with(path, capsys)
    assert code == 2 and "a model file has at most 100" in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m["merges"].append(["l", "q"]), "needs 'q', which is not in its vocabulary"),
        (lambda m: m["vocab"].append(""), "has an empty piece"),
        (lambda m: m["vocab"].append(m["vocab"][0]), "twice"),
    ],
)
def test_a_bpe_model_whose_merges_or_pieces_do_not_fit_is_refused(
    tmp_path, capsys, change, message
):
    path = tmp_path / "m.json"
    assert (
        main(["train", "bpe", "--corpus", "toy:low-lower", "--merges", "4", "--out", str(path)])
        == 0
    )
    capsys.readouterr()
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    code, err = _encode_with(path, capsys)
    assert code == 2 and message in err


def test_a_unigram_model_with_an_empty_piece_is_refused(tmp_path, capsys):
    path = tmp_path / "u.json"
    argv = ["train", "unigram", "--corpus", "toy:run-bug", "--strict", "--out", str(path)]
    assert main(argv) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    data["vocab"][0], data["logprobs"][0] = "", -1.0
    path.write_text(json.dumps(data))
    code, err = _encode_with(path, capsys)
    assert code == 2 and "has an empty piece" in err
