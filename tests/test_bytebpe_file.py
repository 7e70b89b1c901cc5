"""Byte-level training from a file sees its text as it is, line breaks included, as
Hugging Face tokenizers' BpeTrainer does given the same file (ByteLevel pre-tokenizer as
in test_bytebpe_parity.py, ties="tokenizers")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from subtok_core.bytebpe import load, trace_bytebpe
from subtok_core.cli import main

# gensim's folder, found without importing it (numpy and scipy: seconds at collection)
GENSIM = Path(next(iter(importlib.util.find_spec("gensim").submodule_search_locations)))
LEE = GENSIM / "test" / "test_data" / "lee_background.cor"


def hf_merges_from_file(path: Path, vocab_size: int) -> list[tuple[str, str]]:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train([str(path)], trainer)
    return [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]


def test_a_file_keeps_its_line_breaks(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("to \nbe \n\nor")
    assert load(str(path), allow_paths=True) == ("to \n", "be \n", "\n", "or")
    steps = trace_bytebpe(load(str(path), allow_paths=True), merges=1).steps
    # GPT-2's pattern keeps the space before a line end with it: " \n" twice, (t, o) once
    assert (steps[0].pair, steps[0].count) == (("Ġ", "Ċ"), 2)


def test_the_command_learns_a_line_break(tmp_path, capsys):
    path = tmp_path / "lines.txt"
    path.write_text("x \ny \n")
    assert main(["train", "bytebpe", "--corpus", str(path), "--merges", "1",
                 "--byte-display", "gpt2"]) == 0  # fmt: skip
    assert "Ġ + Ċ" in capsys.readouterr().out


@pytest.mark.slow
def test_lee_file_to_800_merges_equals_tokenizers():
    ours = trace_bytebpe(load(str(LEE), allow_paths=True), merges=800, ties="tokenizers")
    theirs = hf_merges_from_file(LEE, 256 + 800)
    assert [step.pair for step in ours.steps] == theirs
    # a line break learned, which training on the lines without their breaks never had:
    # the issue's count, tokenizers' merge 151
    assert theirs.index(("Ġ", "Ċ")) == 150
