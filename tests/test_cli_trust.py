"""The command line with crafted files (issue 40): a tokenizer.json whose merges make a
token its vocabulary lacks (Rust's panic report printed before our sentence), a WordPiece
model with max_word_chars 10**12, a long chunk replayed, a merges.txt whose first merge
starts with [ or {."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bad_tokenizer(folder: Path) -> Path:
    """A BPE tokenizer.json whose second merge makes 'abb', which its vocabulary lacks:
    tokenizers panics on it."""
    from tokenizers import Tokenizer, models

    data = json.loads(Tokenizer(models.BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])).to_str())
    data["model"]["merges"] = [["a", "b"], ["ab", "b"]]
    path = folder / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "RUST_BACKTRACE": "1", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "subtok_core", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.slow  # a long run (fast tier: README)
def test_a_tokenizer_json_whose_merges_leave_its_vocabulary_gets_our_sentence_only(tmp_path):
    done = run("encode", "--tokenizer", str(bad_tokenizer(tmp_path)), "abab")
    assert done.returncode == 2, done.stderr
    assert "panicked" not in done.stderr and "stack backtrace" not in done.stderr, done.stderr
    assert "merge 2 ('ab', 'b') makes 'abb', which is not in the vocabulary" in done.stderr


PANIC = """
import json, sys
from tokenizers import Tokenizer
from subtok_core.pretrained.crash import library_call
text = open(sys.argv[1] if len(sys.argv) > 1 else {path!r}).read()
try:
    with library_call("tokenizers", "reading it", quiet={quiet}):
        Tokenizer.from_str(text)
except ValueError as err:
    print("sentence:", err)
"""


@pytest.mark.parametrize("quiet", [False, True])
def test_a_panic_that_reaches_the_library_is_kept_off_stderr(tmp_path, quiet):
    """The library itself, handed the file (the check above skipped): its panic becomes
    our sentence, and with quiet its report never reaches stderr (without, it does: so
    the test can fail)."""
    code = textwrap.dedent(PANIC.format(path=str(bad_tokenizer(tmp_path)), quiet=quiet))
    done = run(code=code)
    assert "sentence: The tokenizers library failed while reading it" in done.stdout
    assert ("panicked" in done.stderr) is not quiet, done.stderr


@pytest.mark.slow  # counts tries of long words
def test_a_crafted_max_word_chars_costs_tries_in_proportion_to_the_word():
    """Before: every try was made and kept, n(n+1)/2 per word (600 words of 199
    characters: 12 million tries, 48.7 s, 2.6 GB); here 100 such words."""
    from subtok_core import limits
    from subtok_core.wordpiece.encode import segment
    from subtok_core.wordpiece.records import WordPieceModel

    model = WordPieceModel(("a", "##a"), (), max_word_chars=10**12)
    encoded = segment(model, " ".join(["a" * 199] * 100))
    assert encoded.tokens and all(t.text in ("a", "##a") for t in encoded.tokens)
    assert len(encoded.tokens) == 199 * 100
    tries = sum(len(word.attempts) for word in encoded.words)
    assert tries <= limits.WORDPIECE_TRIES + 100 * 199 * 2


@pytest.mark.parametrize("text", ["fused funny", "unaffable lower", "a" * 30 + " ##"])
def test_the_bounded_search_finds_the_same_pieces(text):
    from subtok_core.wordpiece.encode import encode_word, segment
    from subtok_core.wordpiece.records import WordPieceModel

    model = WordPieceModel(("f", "##u", "##s", "##ed", "un", "##aff", "##able", "a", "##a",
                            "##aa", "l", "##ow", "##er", "#"), ())  # fmt: skip
    vocab = frozenset(model.vocab)
    for word in segment(model, text).words:
        bounded = encode_word(model, word.word, vocab, longest=6)
        assert bounded.pieces == encode_word(model, word.word, vocab).pieces == word.pieces


def test_a_long_chunks_replay_prints_lines_in_proportion_to_its_merges():
    """Before: each merge's line held every part of the chunk (a 9,999-byte chunk: 186 MB
    of lines, 87 s and more); 2,000 bytes here."""
    from subtok_core.bytebpe.encode import replay_lines, replay_text
    from subtok_core.bytebpe.ranks import for_tokenizer

    (chunk,) = replay_text(for_tokenizer("cl100k_base"), "a" * 2000)
    lines = replay_lines(chunk, "rank")
    assert len(lines) == len(chunk.merges) + 1
    assert sum(map(len, lines)) < 200 * len(lines)


def test_a_merges_txt_whose_first_merge_starts_with_a_bracket_is_read_as_lines():
    from subtok_core.check.formats import read_merges

    assert read_merges("[ a\n{ b\nl o\n") == [("[", "a"), ("{", "b"), ("l", "o")]
    with pytest.raises(ValueError, match="looks like JSON but cannot be read"):
        read_merges('{"merges": [["a", "b"]]\n')  # JSON cut short, and no merges.txt either
