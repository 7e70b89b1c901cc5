"""A corpus file streamed in pieces (corpus/stream.py) gives the counts, and so the merges,
of the file read whole; the command line reads any size that way and says why it cannot.

Expected values come from the file's text (offsets found with str.index), from the
trainers run on the file read whole (the path every other test checks), and from Hugging
Face tokenizers' BpeTrainer given the same file."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from subtok_core.bpe import trace_bpe
from subtok_core.bytebpe import load, trace_bytebpe
from subtok_core.bytebpe.train import Chunked
from subtok_core.cli import main
from subtok_core.corpus import file_lines, files, from_text, stream
from subtok_core.corpus.stream import Split, count_file, cuts

# gensim's folder, found without importing it (numpy and scipy: seconds at collection)
GENSIM = Path(next(iter(importlib.util.find_spec("gensim").submodule_search_locations)))
DATA = GENSIM / "test" / "test_data"
EOT = "<|endoftext|>"


def write(tmp_path: Path, text: str | bytes, name: str = "corpus.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


# --- where the pieces start ---------------------------------------------------------------


def test_a_special_token_split_across_two_reads_is_found_whole(tmp_path):
    text = "x" * 10 + EOT + "tail"  # no line break: only the token is a safe cut
    path = write(tmp_path, text)
    # reads of 4 bytes from byte 5: the token (13 bytes) lies across four of them
    assert cuts(path, 5, (EOT,), probe=4) == [0, text.index(EOT), len(text)]


def test_without_a_special_token_pieces_start_after_a_line_break(tmp_path):
    text = "aaa\nbbbbbbb\ncc\n"
    path = write(tmp_path, text)
    first = text.index("\n") + 1  # byte 2 is inside "aaa": the next line starts at 4
    second = text.index("\n", first + 2) + 1  # target 4 + 2 = 6 is inside "bbbbbbb"
    assert cuts(path, 2, (), probe=3) == [0, first, second, len(text)]


def test_a_file_of_one_line_bigger_than_a_piece_is_one_piece(tmp_path):
    text = "one long line " * 50
    path = write(tmp_path, text)
    assert cuts(path, 16, (), probe=8) == [0, len(text)]


def test_one_line_counts_are_the_lines_counts(tmp_path):
    text = "one long line " * 50
    path = write(tmp_path, text)
    whole = trace_bytebpe(load(str(path), allow_paths=True), merges=0).start
    streamed = count_file(path, Split("gpt2"), workers=2, chunk_bytes=16)
    assert streamed.items() == list(zip(whole.words, whole.counts))


# --- the same counts and merges as the file read whole ------------------------------------


def lee_with_documents(tmp_path: Path) -> tuple[Path, str]:
    """Lee's news sentences, a document end after every tenth line (as TinyStories)."""
    lines = (DATA / "lee_background.cor").read_text(encoding="utf-8").splitlines()
    docs = ["\n".join(lines[i : i + 10]) for i in range(0, len(lines), 10)]
    text = (EOT + "\n").join(docs) + "\n"
    return write(tmp_path, text, "lee.txt"), text


@pytest.mark.parametrize("workers", [1, 2])
def test_byte_level_streamed_equals_whole_file(tmp_path, workers):
    path, text = lee_with_documents(tmp_path)
    cut = re.compile(re.escape(EOT)).split
    pieces = [p for doc in cut(text) for p in file_lines(doc)]  # the file read whole
    whole = trace_bytebpe(pieces, merges=150, ties="tokenizers")
    counts = count_file(path, Split("gpt2", specials=(EOT,)), workers, chunk_bytes=20_000)
    assert len(cuts(path, 20_000, (EOT,))) > 5  # several pieces really
    streamed = trace_bytebpe(Chunked(counts, "gpt2"), merges=150, ties="tokenizers")
    assert [s.pair for s in streamed.steps] == [s.pair for s in whole.steps]
    assert streamed.start.words == whole.start.words  # first-appearance order kept
    assert streamed.start.counts == whole.start.counts


@pytest.mark.parametrize("workers", [1, 2])
def test_bpe_streamed_equals_whole_file(tmp_path, workers):
    path = DATA / "lee_background.cor"
    whole = from_text(path.read_text(encoding="utf-8"))
    streamed = count_file(path, Split(None), workers, chunk_bytes=10_000)
    assert streamed.items() == whole.items()
    ties = "first"  # the rule that reads the words' order
    ours = trace_bpe(streamed, merges=100, ties=ties)
    assert [s.pair for s in ours.steps] == [s.pair for s in trace_bpe(whole, 100, ties=ties).steps]


def test_the_command_on_a_file_in_pieces_equals_tokenizers(tmp_path, monkeypatch, capsys):
    from tests.test_bytebpe_file import hf_merges_from_file

    path = DATA / "lee_background.cor"
    monkeypatch.setattr(stream, "CHUNK_BYTES", 50_000)  # 5 pieces
    out = tmp_path / "model.json"
    argv = ["train", "bytebpe", "--corpus", str(path), "--merges", "120", "--ties",
            "tokenizers", "--workers", "2", "--json", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    from subtok_core.export import load_model

    assert [tuple(m) for m in load_model(str(out)).merges] == hf_merges_from_file(path, 376)


# --- the command line: any size, bad files in a sentence ----------------------------------


def test_the_command_line_has_no_20_mb_limit_for_training(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(files, "MAX_BYTES", 10)  # the web's limit, as if it were 10 bytes
    path = write(tmp_path, "low lower lowest\n" * 4)
    for algo in ("bpe", "bytebpe"):
        assert main(["train", algo, "--corpus", str(path), "--merges", "2"]) == 0
    assert capsys.readouterr().err == ""  # no progress line on a pipe


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"abc\x00def", "a NUL byte at byte 3"),
        ("caf\u00e9 ok\n".encode("latin-1"), "not UTF-8 text (byte 3 cannot be read)"),
        (b"", "is empty"),
        (b" \n\t\n", "is empty"),
        ("low".encode("utf-16"), "UTF-16 text, not UTF-8"),
    ],
)
@pytest.mark.parametrize("algo", ["bpe", "bytebpe"])
def test_a_bad_file_is_a_sentence_and_status_2(tmp_path, capsys, data, said, algo):
    path = write(tmp_path, data)
    assert main(["train", algo, "--corpus", str(path), "--merges", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and "Traceback" not in err


def test_a_bad_byte_far_in_the_file_is_found_at_its_offset(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(stream, "CHUNK_BYTES", 8)  # the bad byte is in the seventh piece
    path = write(tmp_path, b"abcd\n" * 10 + b"\xff\n")
    assert main(["train", "bytebpe", "--corpus", str(path), "--merges", "2"]) == 2
    assert "byte 50 cannot be read" in capsys.readouterr().err


def test_workers_must_be_a_positive_number(tmp_path, capsys):
    path = write(tmp_path, "a b\n")
    assert main(["train", "bpe", "--corpus", str(path), "--merges", "1", "--workers", "0"]) == 2
    assert "between 1 and 256" in capsys.readouterr().err


def test_special_tokens_are_cut_out_of_a_named_corpus_too(capsys):
    # toy:cat-bat has no special token: the same merges with and without one
    plain = ["train", "bytebpe", "--corpus", "toy:cat-bat", "--merges", "3"]
    assert main(plain) == 0
    before = capsys.readouterr().out
    assert main([*plain, "--special", "<|endoftext|>"]) == 0
    assert capsys.readouterr().out == before


def test_progress_is_one_line_on_a_terminal():
    import io

    from subtok_core.stream_cli import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    screen = Tty()
    bar = Progress("Reading x.txt", "MB", screen)
    bar.update(100 * 1024 * 1024, 200 * 1024 * 1024)
    bar.update(200 * 1024 * 1024, 200 * 1024 * 1024)
    bar.close()
    assert screen.getvalue().endswith("\rReading x.txt: 100% (200/200 MB, 0 s)\n")
    piped = io.StringIO()
    silent = Progress("Reading x.txt", "MB", piped)
    silent.update(1, 2)
    silent.close()
    assert piped.getvalue() == ""
