"""`subtok train bytebpe` and `subtok encode --tokenizer NAME --replay`, run in-process.

Expected merges come from Hugging Face's BpeTrainer with the ByteLevel pre-tokenizer and
expected tokens from tiktoken (through `subtok encode` without --replay, which uses it).
"""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from subtok_core.cli import main
from subtok_core.corpus import load_lines

FOX = ["train", "bytebpe", "--corpus", "toy:fox", "--vocab-size", "280", "--ties", "tokenizers"]
TEXT = "Hello, 世界! Привет 😀 x=12345678;\n\tdef f(): return  42  "


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def hf_merges(lines: list[str], vocab_size: int) -> list[tuple[str, str]]:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False, initial_alphabet=alphabet
    )
    tok.train_from_iterator(lines, trainer)
    return [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]


def test_train_json_in_gpt2_letters_is_what_tokenizers_writes(capsys):
    code, out, err = run(capsys, *FOX, "--byte-display", "gpt2", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["algorithm"] == "bytebpe"
    assert data["params"] == {"pattern": "gpt2", "ties": "tokenizers", "merges": None,
                              "vocab_size": 280, "byte_display": "gpt2"}  # fmt: skip
    merges = [tuple(step["pair"]) for step in data["steps"]]
    assert merges == hf_merges(load_lines("toy:fox"), 280)
    assert [tuple(m) for m in data["model"]["merges"]] == merges
    assert set(data) == {"algorithm", "params", "steps", "model", "stopped"}  # as train bpe
    assert set(data["steps"][0]) == {"pair", "count", "new_symbol", "tied_with"}


def test_train_json_in_hex_shows_the_space_and_keeps_the_model_in_letters(capsys):
    code, out, _ = run(capsys, *FOX, "--json", "--full")
    data = json.loads(out)
    first = data["steps"][0]
    # toy:fox: " b" occurs in " big", " brown", " box" (3); (o,x) in fox, box, ox (3):
    # a tie, and tokenizers takes the smaller ids: o (6F) before Ġ (U+0120)
    assert (first["pair"], first["count"]) == (["o", "x"], 3)
    assert data["steps"][1]["pair"] == [" ", "b"]
    assert data["model"]["merges"][1] == ["Ġ", "b"]
    assert data["start"]["words"][:3] == ["The", " big", " brown"]
    assert "pair_table" in first and first["vocab_size"] == 257


def test_train_table_and_refusals(capsys):
    code, out, _ = run(capsys, *FOX[:-4], "--merges", "2")
    assert code == 0
    assert out.splitlines()[1].split()[:5] == ["1", "[", "]", "+", "[b]"]
    code, _, err = run(capsys, "train", "bytebpe", "--corpus", "toy:fox", "--vocab-size", "9")
    assert code == 2 and "vocab size 9 is smaller than the 256 symbols" in err


def test_a_saved_model_encodes_with_its_ids_and_traces(capsys, tmp_path):
    path = str(tmp_path / "m.json")
    assert run(capsys, *FOX, "--out", path)[0] == 0
    model = json.loads((tmp_path / "m.json").read_text())
    vocab = {symbol: i for i, symbol in enumerate(model["vocab"])}
    hf = Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in model["merges"]]))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    code, out, _ = run(capsys, "encode", "--model", path, "--json", "the fox jumps")
    assert code == 0
    assert [t["id"] for t in json.loads(out)["tokens"]] == hf.encode("the fox jumps").ids
    code, out, _ = run(capsys, "encode", "--model", path, "--trace", "the box")
    assert out.splitlines()[0] == "'the': [t][h][e]"


def test_replay_json_equals_the_librarys(capsys):
    code, library, _ = run(capsys, "encode", "--tokenizer", "cl100k_base", "--json", TEXT)
    assert code == 0
    code, ours, _ = run(capsys, "encode", "--tokenizer", "cl100k_base", "--replay", "--json", TEXT)
    assert code == 0 and ours == library


def test_replay_prints_each_chunk_rank_by_rank_then_the_tokens(capsys):
    code, library, _ = run(capsys, "encode", "--tokenizer", "cl100k_base", "hello world")
    code, out, _ = run(capsys, "encode", "--tokenizer", "cl100k_base", "--replay", "hello world")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "'hello': [h][e][l][l][o]"
    assert lines[-2:] == library.splitlines()  # hello| world / 15339 1917
    assert any(line.strip().startswith("rank 1917  [ w] + [orld]") for line in lines)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "m.json"], "--replay runs our own encoder on a pretrained tokenizer"),
        (["--tokenizer", "mistral-v1"], "choose cl100k_base or tekken"),
    ],
)
def test_replay_refusals(capsys, argv, message):
    code, _, err = run(capsys, "encode", *argv, "--replay", "hello")
    assert code == 2 and message in err
