"""`subtok train picky`, run in-process: the JSON lists the events in order and the final
vocabulary; a saved model encodes; bad input is a sentence and exit status 2.

The expected events are the authors' trainer's (pchizhov/picky_bpe, see test_picky.py for
how they were obtained), read from tests/data/picky_reference.json and the toy's list.
"""

from __future__ import annotations

import json

import pytest
from test_picky import DATA, TOY_EVENTS, TOY_VOCAB

from subtok_core.cli import main
from subtok_core.corpus import sample_lines

TOY = ["train", "picky", "--corpus", "toy:low-lower", "--vocab-size", "25"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_json_lists_the_references_events_and_vocabulary(capsys):
    code, out, err = run(capsys, *TOY, "--threshold", "0.9", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    got = [(s["kind"], s["symbol"], tuple(s["parts"])) for s in data["steps"]]
    assert got == TOY_EVENTS
    assert tuple(data["model"]["vocab"]) == TOY_VOCAB
    assert data["params"] == {"vocab_size": 25, "threshold": 0.9, "specials": 4}
    lower = data["steps"][24]  # ▁low + er: ▁low's IoS 2/7 stays, er's 2/2 goes
    assert [(c["part"], c["merged"], c["before"], c["removed"]) for c in lower["ios"]] == [
        ("▁low", 2, 7, False), ("er", 2, 2, True)
    ]  # fmt: skip
    assert data["steps"][25]["after_merge"] == 25


def test_a_file_trains_as_the_reference_did(capsys, tmp_path):
    corpus = tmp_path / "lee20.txt"
    corpus.write_text("\n".join(sample_lines("lee")[:20]) + "\n", encoding="utf-8")
    code, out, _ = run(
        capsys, "train", "picky", "--corpus", str(corpus), "--vocab-size", "200",
        "--threshold", "0.5", "--json",
    )  # fmt: skip
    run_ = json.loads(DATA.read_text(encoding="utf-8"))["runs"]["0.5"]
    data = json.loads(out)
    assert code == 0
    assert [[s["kind"], s["symbol"], s["parts"]] for s in data["steps"]] == run_["events"]
    assert data["model"]["vocab"] == run_["vocab"]


def test_the_table_says_each_event_and_why_it_stopped(capsys):
    code, out, _ = run(capsys, *TOY)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + 26 + 1
    assert lines[25].split() == ["25", "merge", "▁lower", "▁low", "+", "er", "2", "▁low",
                                 "0.29,", "er", "1.00", "removed"]  # fmt: skip
    assert lines[-1].startswith("Stopped at vocab size 19 (15 merges and 11 splits)")


def test_a_saved_model_encodes_by_replaying_the_events(capsys, tmp_path):
    model = tmp_path / "picky.json"
    assert run(capsys, *TOY, "--out", str(model))[0] == 0
    code, out, _ = run(capsys, "encode", "--model", str(model), "lowest newest")
    assert code == 0 and out.split() == ["▁low", "e", "s", "t", "▁newest"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--threshold", "0"], "threshold τ must be a number above 0 and at most 1"),
        (["--threshold", "1.01"], "at most 1"),
    ],
)
def test_bad_input_is_a_sentence(capsys, extra, said):
    code, out, err = run(capsys, *TOY, *extra)
    assert code == 2 and out == "" and said in err and "Traceback" not in err


def test_a_size_below_the_start_is_a_sentence(capsys):
    code, _, err = run(capsys, "train", "picky", "--corpus", "toy:low-lower", "--vocab-size", "15")
    assert code == 2
    assert "starts with 15 tokens (4 special tokens and 11 characters" in err


def test_a_broken_model_file_is_a_sentence(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"algorithm": "picky", "format_version": 1, "alphabet": ["a"],
                               "vocab": ["a"], "events": [["merge", "ab", ["a"]]]}))  # fmt: skip
    code, _, err = run(capsys, "encode", "--model", str(bad), "ab")
    assert code == 2 and "damaged" in err
