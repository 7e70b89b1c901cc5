"""A tokenizer library that panics or fails on a user's file gives a sentence (issue 26):
pyo3's PanicException is a BaseException, which `except Exception` let through."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from subtok_core.cli import main
from subtok_core.pretrained import hf
from subtok_core.pretrained.crash import library_call
from tests.test_app_compare_upload import NO_UNK, PANIC

ROOT = Path(__file__).parents[1]


def test_the_panic_is_a_base_exception_that_except_exception_misses():
    """Why the helper exists: tokenizers raises it past an `except Exception`."""
    from tokenizers import Tokenizer

    with pytest.raises(BaseException) as caught:
        try:
            Tokenizer.from_str(PANIC.decode())
        except Exception:  # noqa: BLE001 - the handler the pages had
            pytest.fail("the panic was an Exception after all")
    assert type(caught.value).__name__ == "PanicException"


def test_stop_and_interrupt_pass_through_the_helper():
    for stop in (SystemExit, KeyboardInterrupt):
        with pytest.raises(stop), library_call("tokenizers", "testing"):
            raise stop()


@pytest.mark.slow  # starts the command line
def test_the_panic_file_in_the_cli_is_an_error_line_and_exit_2(tmp_path):
    path = tmp_path / "panic.json"
    path.write_bytes(PANIC)
    done = subprocess.run(
        [sys.executable, "-m", "subtok_core", "encode", "--tokenizer", str(path), "low"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "panicked" not in done.stderr  # checked before the library sees it (issue 40)
    assert done.stderr.splitlines() == [
        "error: 'panic.json' is not a usable tokenizer.json: merge 1 ('l', 'o') makes 'lo', "
        "which is not in the vocabulary."
    ]


def test_a_wordlevel_file_without_its_unknown_token_is_an_error_line(tmp_path, capsys):
    path = tmp_path / "nounk.json"
    path.write_bytes(NO_UNK)
    assert main(["encode", "--tokenizer", str(path), "low"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: The tokenizers library failed while encoding with 'nounk.json'")
    assert main(["encode", "--tokenizer", str(path), "hi yo"]) == 0  # words it has: fine
    assert capsys.readouterr().out.split() == ["hi|yo", "0", "1"]


def test_segmenting_with_the_file_is_a_sentence_too():
    tok = hf.from_str(NO_UNK.decode(), "nounk.json")
    with pytest.raises(ValueError, match="failed while encoding with 'nounk.json'"):
        tok.word_segmenter()("low")


def test_an_uploaded_tables_later_calls_into_tokenizers_fail_with_a_sentence():
    """/vocab's table of an upload encodes each token's text alone, later: a WordLevel file
    whose unknown token is not in its vocab fails on 'hi yo' (its 'yo' is unknown)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    from subtok_core.vocab.uploaded import hf_table

    raw = Tokenizer(models.WordLevel({"hi yo": 0, "hi": 1}, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    table = hf_table(raw.to_str(), "odd.json")
    assert table.alone(1) == (1,)
    with pytest.raises(
        ValueError, match="The tokenizers library failed while encoding with 'odd.json'"
    ):
        table.alone(0)
