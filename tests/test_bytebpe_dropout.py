"""BPE-dropout on bytes (bytebpe.dropout_samples) and ``subtok encode --dropout`` with a
byte-level model.

Expected values: p = 0 is the plain encoding (held to ``segment``, which the parity tests
hold to Hugging Face tokenizers and tiktoken); p = 1 leaves every chunk as its UTF-8 bytes
(written out by hand below); a seed repeats its samples.
"""

from __future__ import annotations

import json

import pytest

from subtok_core import bytebpe
from subtok_core.cli import main

TEXT = "the cat 😀 東京 12345"


@pytest.fixture(scope="module")
def model():
    lines = bytebpe.load("toy:emoji-cjk")
    return bytebpe.train_bytebpe(lines, merges=40, pattern="gpt2")


def test_p_zero_is_the_plain_encoding(model):
    plain = tuple(bytebpe.segment(model, TEXT).pieces)
    assert len(plain) < len(TEXT.encode())  # the model does merge something here
    assert bytebpe.dropout_samples(model, TEXT, 0.0, 3, seed=5) == [plain] * 3


def test_p_one_gives_the_single_bytes(model):
    # GPT-2's pattern: "the", " cat", " 😀", " 東京", " 12345"; each byte one piece
    data = TEXT.encode("utf-8")
    (sample,) = bytebpe.dropout_samples(model, TEXT, 1.0, 1, seed=0)
    assert [bytebpe.to_bytes(piece) for piece in sample] == [bytes([b]) for b in data]
    assert len(sample) == 3 + 4 + 5 + 7 + 6


def test_a_seed_repeats_and_another_seed_differs(model):
    first = bytebpe.dropout_samples(model, TEXT, 0.3, 8, seed=11)
    assert first == bytebpe.dropout_samples(model, TEXT, 0.3, 8, seed=11)
    assert first != bytebpe.dropout_samples(model, TEXT, 0.3, 8, seed=12)
    assert len(set(first)) > 1  # p = 0.3 does cut the text in more than one way


def test_every_sample_spells_the_text(model):
    for pieces in bytebpe.dropout_samples(model, TEXT, 0.5, 20, seed=3):
        assert b"".join(bytebpe.to_bytes(p) for p in pieces).decode() == TEXT


def test_merges_never_cross_a_chunk(model):
    # GPT-2's pattern cuts "the the" into "the" (3 bytes) and " the": every sample has a
    # piece boundary after byte 3, however the pieces inside each chunk fall
    for pieces in bytebpe.dropout_samples(model, "the the", 0.2, 20, seed=1):
        ends, at = set(), 0
        for piece in pieces:
            at += len(bytebpe.to_bytes(piece))
            ends.add(at)
        assert 3 in ends and at == 7


@pytest.mark.parametrize(
    ("p", "n", "text", "message"),
    [
        (1.5, 1, "the", "must be a number from 0 to 1"),
        (0.1, 0, "the", "samples"),
        (0.1, 1, "   ", "Type a word"),
    ],
)
def test_bad_input_is_refused_in_a_sentence(model, p, n, text, message):
    with pytest.raises(ValueError, match=message):
        bytebpe.dropout_samples(model, text, p, n)


# --- the command line ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_file(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("bb") / "bytebpe.json")
    argv = ["train", "bytebpe", "--corpus", "toy:emoji-cjk", "--merges", "40", "--out", path]
    assert main(argv) == 0
    return path


def test_cli_dropout_accepts_a_byte_level_model(model_file, model, capsys):
    args = ["encode", "--model", model_file, "--dropout", "0", "--samples", "2", "--json", TEXT]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    plain = list(bytebpe.segment(model, TEXT).pieces)  # the same training, in memory
    assert data == {"dropout": 0.0, "seed": 0, "samples": [plain, plain]}


def test_cli_dropout_one_prints_the_bytes_and_a_seed_repeats(model_file, capsys):
    assert main(["encode", "--model", model_file, "--dropout", "1", "the"]) == 0
    assert capsys.readouterr().out == "t h e\n"
    args = ["encode", "--model", model_file, "--dropout", "0.4", "--samples", "5"]
    assert main([*args, "--seed", "7", TEXT]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--seed", "7", TEXT]) == 0
    assert capsys.readouterr().out == first and len(first.splitlines()) == 5
