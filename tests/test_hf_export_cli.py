"""`subtok export --model M --format hf [--out FILE]` and the page's download helper
(lessons/ui/export.py's plan), without AppTest."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from subtok_core import corpus, export, hf_export
from subtok_core.bpe import train_bpe
from subtok_core.cli import main
from subtok_core.unigram import UnigramModel, train_unigram

sys.path.insert(0, str(Path(__file__).parents[1]))  # lessons/, as the app imports it
from lessons.ui import export as page_export  # noqa: E402

TEXT = "lowest newer wider, slower"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def bpe_file(tmp_path) -> tuple[Path, object]:
    model = train_bpe(corpus.load("toy:low-lower"), merges=6, marker="sow")
    path = tmp_path / "bpe.json"
    export.save_model(model, path)
    return path, model


def test_export_prints_a_tokenizer_json_that_encodes_as_ours(capsys, bpe_file):
    path, model = bpe_file
    code, out, err = run(capsys, "export", "--model", str(path), "--format", "hf")
    assert code == 0 and err == ""
    tok = Tokenizer.from_str(out)
    assert hf_export.our_tokens(tok, TEXT) == hf_export.segment(model, TEXT)
    assert json.loads(out)["model"]["type"] == "BPE"


def test_export_out_writes_the_file(capsys, bpe_file, tmp_path):
    path, model = bpe_file
    target = tmp_path / "tokenizer.json"
    code, out, err = run(capsys, "export", "--model", str(path), "--out", str(target))
    assert code == 0 and out == ""
    assert f"to {target}" in err
    tok = Tokenizer.from_file(str(target))
    assert hf_export.our_tokens(tok, TEXT) == hf_export.segment(model, TEXT)


def test_export_of_a_bad_model_file_is_an_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out, err = run(capsys, "export", "--model", str(bad), "--format", "hf")
    assert code == 2 and out == ""
    assert err == f"error: {str(bad)!r} is not a model file: its content is not JSON.\n"
    code, _, err = run(capsys, "export", "--model", str(tmp_path / "missing.json"))
    assert code == 2 and err.startswith("error: There is no model file")


def test_export_refuses_a_tied_model_with_the_reason(capsys, tmp_path):
    model = train_unigram(corpus.load("toy:run-bug"), "textbook", seed="strict", vocab_size=11)
    path = tmp_path / "unigram.json"
    export.save_model(model, path)
    code, out, err = run(capsys, "export", "--model", str(path), "--out", str(tmp_path / "t.json"))
    assert code == 2 and out == ""
    assert err.startswith("error: 'fun' has two segmentations of equal probability")
    assert not (tmp_path / "t.json").exists()


def test_export_notes_go_to_stderr_and_the_json_stays_valid(capsys, tmp_path):
    path = tmp_path / "unigram.json"
    export.save_model(train_unigram(corpus.load("toy:hug-pug"), "em", vocab_size=12), path)
    code, out, err = run(capsys, "export", "--model", str(path))
    assert code == 0
    assert json.loads(out)["model"]["type"] == "Unigram"
    assert err.startswith("note: Where the same pieces fit a word in two orders")


def test_export_knows_only_its_formats(capsys, bpe_file):
    path, _ = bpe_file
    code, out, err = run(capsys, "export", "--model", str(path), "--format", "spm")
    assert code == 2 and "invalid choice: 'spm'" in err


def test_page_plan_builds_the_file_only_when_asked(bpe_file, monkeypatch):
    _, model = bpe_file
    built = []
    monkeypatch.setattr(page_export.hf_export, "hf_json", lambda m: built.append(m) or "{}")
    reason, notes, build = page_export.plan(model)
    assert reason is None and notes == [] and built == []
    assert build() == "{}" and built == [model]
    assert build() == "{}" and built == [model]  # the second click reads the cache


def test_page_plan_gives_the_reason_of_a_refusal():
    model = UnigramModel(("a", "b", "ab", "ba"), (-1.0, -1.0, -1.5, -1.5), ("a", "b"))
    reason, _, _ = page_export.plan(model)
    assert reason is not None and reason.startswith("'aba' has two segmentations")
