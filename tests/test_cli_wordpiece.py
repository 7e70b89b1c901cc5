"""WordPiece through the command line and the JSON/CSV exports (run in-process via main).

Expected numbers are the sunflower worked example of 001 (../shared/seeds/
001_cd5e11af49399106.txt): s ##u = 3 / (3 x 3), then ##e ##r = 3 / (4 x 3) tied with
##e ##d = 1 / (4 x 1), then ##e ##d = 1 / (1 x 1).
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from subtok_core.cli import main
from subtok_core.corpus import load
from subtok_core.export import load_model, model_to_dict, save_model, steps_csv, trace_to_json
from subtok_core.wordpiece import WordPieceModel, model_from_trace, trace_wordpiece

SUNFLOWER = ["train", "wordpiece", "--corpus", "toy:sunflower"]
SLIDE_VOCAB = ["##d", "##e", "##f", "##g", "##i", "##l", "##n", "##o", "##r", "##s", "##u"]
SLIDE_VOCAB += ["##w", "f", "s", "su", "##er", "##ed"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_json_has_the_scores_of_the_slides(capsys):
    code, out, err = run(capsys, *SUNFLOWER, "--merges", "3", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["algorithm"] == "wordpiece"
    assert data["params"] == {
        "prefix": "##",
        "ties": "first",
        "special_tokens": False,
        "merges": 3,
        "vocab_size": None,
    }
    steps = data["steps"]
    assert [s["pair"] for s in steps] == [["s", "##u"], ["##e", "##r"], ["##e", "##d"]]
    assert [s["new_symbol"] for s in steps] == ["su", "##er", "##ed"]
    assert [s["score_fraction"] for s in steps] == ["1/3", "1/4", "1/1"]
    assert [s["score"] for s in steps] == pytest.approx([1 / 3, 1 / 4, 1.0])
    assert [(s["pair_count"], s["left_count"], s["right_count"]) for s in steps] == [
        (3, 3, 3),
        (3, 4, 3),
        (1, 1, 1),
    ]
    assert [s["tied_with"] for s in steps] == [[], [["##e", "##d"]], []]
    assert steps[0]["bpe_pair"] == ["##l", "##o"] and steps[0]["bpe_count"] == 9
    assert data["model"]["vocab"] == SLIDE_VOCAB and data["model"]["algorithm"] == "wordpiece"
    assert data["stopped"] == "Reached the 3 merges asked for."


def test_vocab_size_ties_special_tokens_and_prefix(capsys):
    code, out, _ = run(capsys, *SUNFLOWER, "--vocab-size", "17", "--json")
    assert code == 0 and json.loads(out)["model"]["vocab"] == SLIDE_VOCAB
    code, out, _ = run(capsys, *SUNFLOWER, "--merges", "2", "--ties", "lex", "--json")
    assert json.loads(out)["steps"][1]["new_symbol"] == "##ed"  # (##e, ##d) < (##e, ##r)
    code, out, _ = run(capsys, *SUNFLOWER, "--vocab-size", "20", "--special-tokens", "--json")
    vocab = json.loads(out)["model"]["vocab"]
    assert vocab[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] and vocab[-1] == "su"
    code, out, _ = run(capsys, *SUNFLOWER, "--merges", "2", "--prefix", "@@", "--json")
    assert [s["new_symbol"] for s in json.loads(out)["steps"]] == ["su", "@@er"]


def test_train_table_shows_each_score(capsys):
    code, out, _ = run(capsys, *SUNFLOWER, "--merges", "3")
    lines = out.splitlines()
    assert code == 0
    assert lines[1].split() == ["1", "s", "+", "##u", "su", "1/3", "=", "3", "/", "(3", "x", "3)"]
    assert lines[2].split()[-2:] == ["##e", "##d"]  # the pair it tied with
    assert lines[4] == "Reached the 3 merges asked for. Vocabulary: 17 symbols."


def test_full_json_carries_scored_tables(capsys):
    code, out, _ = run(capsys, *SUNFLOWER, "--merges", "1", "--json", "--full")
    data = json.loads(out)
    assert code == 0
    assert data["steps"][0]["pair_table"][0] == ["s", "##u", 3, 3, 3, 1 / 3, "1/3"]
    assert data["start"]["alphabet"] == SLIDE_VOCAB[:14]
    assert data["steps"][0]["segmentations"][1] == ["su", "##n"]
    assert data["steps"][0]["vocab_size"] == 15


def test_saved_model_encodes_fused_and_funny(capsys, tmp_path):
    path = tmp_path / "sun.json"
    code, _, err = run(capsys, *SUNFLOWER, "--merges", "3", "--out", str(path))
    assert code == 0 and "Saved the model" in err
    assert json.loads(path.read_text(encoding="utf-8"))["algorithm"] == "wordpiece"
    assert load_model(path) == model_from_trace(trace_wordpiece(load("toy:sunflower"), 3))
    code, out, _ = run(capsys, "encode", "--model", str(path), "fused", "funny")
    assert code == 0 and out.split() == ["f", "##u", "##s", "##ed", "[UNK]"]


def test_encode_trace_lists_every_attempt(capsys, tmp_path):
    path = tmp_path / "sun.json"
    run(capsys, *SUNFLOWER, "--merges", "3", "--out", str(path))
    code, out, _ = run(capsys, "encode", "--model", str(path), "--trace", "fused")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "fused:"
    assert lines[10:14] == ["  ##sed: no", "  ##se: no", "  ##s: yes", "  ##ed: yes"]
    assert lines[-1] == "f ##u ##s ##ed"
    code, out, _ = run(capsys, "encode", "--model", str(path), "--trace", "funny")
    assert "  ##y: no" in out and "[UNK]" in out.splitlines()[-2]


def test_vocab_size_below_the_alphabet_is_an_error(capsys):
    code, out, err = run(capsys, *SUNFLOWER, "--vocab-size", "5")
    assert code == 2 and out == ""
    assert err.startswith("error: vocab size 5 is smaller than the 14 symbols")


# --- export ---------------------------------------------------------------------------


def test_save_then_load_keeps_every_field(tmp_path):
    model = WordPieceModel(("[UNK]", "a", "@@b"), ("a", "@@b"), "@@", ("[UNK]",), True, "[UNK]", 7)
    path = tmp_path / "m.json"
    save_model(model, path)
    assert load_model(path) == model
    assert model_to_dict(model)["max_word_chars"] == 7


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"prefix": 3}, "prefix"),
        ({"prefix": "# #"}, "prefix"),
        ({"vocab": "abc"}, "vocab"),
        ({"special_tokens": [1]}, "special_tokens"),
        ({"max_word_chars": 0}, "max_word_chars"),
        ({"unk_token": ""}, "unk_token"),
        ({"split_punct": "no"}, "split_punct"),
    ],
)
def test_load_refuses_broken_wordpiece_files(tmp_path, change, words):
    data = {**model_to_dict(WordPieceModel(("a", "##b"), ("a", "##b"))), **change}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=words) as caught:
        load_model(path)
    assert str(caught.value).endswith(".")


def test_steps_csv_of_a_wordpiece_trace():
    trace = trace_wordpiece(load("toy:sunflower"), merges=3)
    rows = list(csv.reader(io.StringIO(steps_csv(trace))))
    assert rows[0][:4] == ["number", "left", "right", "new_symbol"]
    assert rows[0][4:] == [
        "score",
        "score_fraction",
        "pair_count",
        "left_count",
        "right_count",
        "ties",
    ]
    assert [r[3] for r in rows[1:]] == ["su", "##er", "##ed"]
    assert [r[5] for r in rows[1:]] == ["1/3", "1/4", "1/1"]
    assert [r[-1] for r in rows[1:]] == ["0", "1", "0"]


def test_compact_json_keeps_no_segmentations():
    trace = trace_wordpiece(load("toy:hug-pug"), merges=3, snapshot=False)
    step = json.loads(trace_to_json(trace, full=True))["steps"][2]
    assert "segmentations" not in step
    assert step["score_fraction"] == "1/15" and step["pair"] == ["hu", "##gs"]
    assert ["hu", "##g", 10, 15, 15, 2 / 45, "2/45"] in step["pair_table"]
