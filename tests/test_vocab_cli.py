"""`subtok vocab`: the counts per category, as a table and in the issue's JSON shape."""

import json

import sentencepiece as spm

from subtok_core.cli import main
from subtok_core.pretrained import files


def test_json_shape_of_a_pretrained_tokenizer(capsys):
    assert main(["vocab", "--tokenizer", "mistral-v3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"tokenizer", "size", "categories", "examples"}
    assert data["tokenizer"] == "mistral-v3" and data["size"] == 32768
    assert list(data["categories"]) == ["special", "partial", "unreachable", "ok", "unused"]
    assert data["categories"]["unused"] is None
    assert sum(data["categories"][c] for c in ("special", "partial", "unreachable", "ok")) == 32768
    assert set(data["examples"]) == {"special", "partial", "unreachable", "ok"}
    first = data["examples"]["special"][0]
    assert first == {"id": 0, "bytes_hex": "", "text": None}  # <unk>: a control piece
    # <0x80>, a byte-fallback piece: one byte that starts no character
    sp = spm.SentencePieceProcessor(model_file=str(files.locate("mistral-v3")))
    byte = {"id": sp.piece_to_id("<0x80>"), "bytes_hex": "80", "text": None}
    assert byte in data["examples"]["partial"]


def test_trained_model_counts_its_unused_tokens(tmp_path, capsys):
    """cat-bat (cat 10, bat 5, bag 12, tag 4, cats 5) with 3 merges and ▁: a+t, ▁+b, a+g.
    By hand the words become ▁ c at, ▁b at, ▁b ag, ▁ t ag, ▁ c at s: a, b and g are
    never used on their own."""
    path = tmp_path / "m.json"
    argv = ["train", "bpe", "--corpus", "toy:cat-bat", "--merges", "3", "--marker", "sow"]
    assert main([*argv, "--out", str(path)]) == 0
    capsys.readouterr()
    assert main(["vocab", "--model", str(path), "--corpus", "toy:cat-bat", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["size"] == 10 and data["categories"]["unused"] == 3
    assert [e["text"] for e in data["examples"]["unused"]] == ["a", "b", "g"]
    assert main(["vocab", "--model", str(path)]) == 0
    out = capsys.readouterr()
    assert "ok" in out.out and "--corpus" in out.err


def test_errors_say_what_to_do(capsys):
    assert main(["vocab", "--tokenizer", "gpt-9"]) == 2
    assert capsys.readouterr().err.startswith("error: There is no pretrained tokenizer")
    assert main(["vocab", "--tokenizer", "cl100k_base", "--corpus", "toy:cat-bat"]) == 2
    assert "--model" in capsys.readouterr().err
