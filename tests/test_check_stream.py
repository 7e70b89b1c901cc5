"""``subtok check`` on a corpus file over 20 MB streams it (check/streamed.py): the verdict
is the one the file read whole gets. The limit is lowered here to a few hundred bytes, so
that small files take the streamed path; the expected verdicts come from the same check
on the same file read whole, and from tokenizers' BpeTrainer on the file."""

from __future__ import annotations

import json

import pytest

from subtok_core.bytebpe import trace_bytebpe
from subtok_core.check import streamed
from subtok_core.cli import main
from subtok_core.corpus import file_lines
from subtok_core.corpus.exercises import exercise
from tests.test_bytebpe_file import LEE, hf_merges_from_file
from tests.test_check import GPT2, STUDENT


def check_json(argv: list[str], capsys) -> tuple[int, dict]:
    status = main([*argv, "--json"])
    return status, json.loads(capsys.readouterr().out)


def write_merges(path, merges) -> str:
    path.write_text("".join(f"{a} {b}\n" for a, b in merges), encoding="utf-8")
    return str(path)


def test_tokenizers_merges_on_a_streamed_file_are_identical(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(streamed, "MAX_BYTES", 1000)
    assert streamed.is_big(str(LEE))
    merges = write_merges(tmp_path / "merges.txt", hf_merges_from_file(LEE, 256 + 60))
    argv = ["check", "merges", merges, "--corpus", str(LEE), "--bytebpe", "--workers", "2"]
    status, verdict = check_json([*argv, "--ties", "tokenizers"], capsys)
    assert status == 0 and verdict["identical"] and verdict["merges"] == 60


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.slow  # the Lee sample checked whole and in pieces
def test_a_difference_is_named_as_on_the_file_read_whole(tmp_path, monkeypatch, capsys, workers):
    lowered = file_lines(LEE.read_text(encoding="utf-8").lower())  # a lowercasing trainer
    steps = trace_bytebpe(lowered, merges=40, ties="tokenizers").steps
    merges = write_merges(tmp_path / "merges.txt", [s.pair for s in steps])
    argv = ["check", "merges", merges, "--corpus", str(LEE), "--bytebpe", "--ties", "tokenizers"]
    whole_status, whole = check_json(argv, capsys)
    monkeypatch.setattr(streamed, "MAX_BYTES", 1000)
    status, streamed_verdict = check_json([*argv, "--workers", workers], capsys)
    assert whole_status == status == 1
    first, ours = whole["first_difference"], streamed_verdict["first_difference"]
    assert first["cause"] == "normalised"  # the file read whole names it (the reference)
    for key in ("merge", "yours", "expected", "cause", "counts", "matched"):
        assert ours[key] == first[key], key


def test_a_bad_big_file_is_a_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(streamed, "MAX_BYTES", 10)
    corpus = tmp_path / "big.txt"
    corpus.write_bytes(b"low lower\n" * 5 + b"\xff\n")
    merges = write_merges(tmp_path / "merges.txt", [("l", "o")])
    assert main(["check", "merges", merges, "--corpus", str(corpus)]) == 2
    assert "byte 50 cannot be read" in capsys.readouterr().err


def test_a_students_trainer_on_a_streamed_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(streamed, "MAX_BYTES", 100)
    corpus = tmp_path / "special.txt"
    corpus.write_text(exercise("exercise:special")[1], encoding="utf-8", newline="")
    (tmp_path / "student_bpe.py").write_text(STUDENT.format(pattern=GPT2.pattern))
    monkeypatch.chdir(tmp_path)
    argv = ["check", "trainer", "student_bpe:train_bpe", "--corpus", str(corpus),
            "--vocab-size", "270", "--special", "<|endoftext|>"]  # fmt: skip
    status, verdict = check_json(argv, capsys)
    assert streamed.is_big(str(corpus))
    assert status == 0 and verdict["identical"] and verdict["merges"] == 270 - 257


def test_kept_counts_follow_the_files_content(tmp_path):
    """The counts kept for a file (streamed.FileCorpus) are keyed by its size and time of
    change: a file written again is counted again; two files never share counts."""
    from subtok_core.corpus.stream import Split

    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("low low\n")
    two.write_text("low low\n")
    split = Split(None)
    assert streamed.FileCorpus.of(str(one)).counts(split).items() == [("low", 2)]
    one.write_text("low lower low\n")
    assert streamed.FileCorpus.of(str(one)).counts(split).items() == [("low", 2), ("lower", 1)]
    assert streamed.FileCorpus.of(str(two)).counts(split).items() == [("low", 2)]
