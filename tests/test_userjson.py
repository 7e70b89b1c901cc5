"""JSON a student gives (a merges file, a tokenizer.json, a model file) nested deeper than
Python's parser goes: a sentence, never a traceback (json.loads raises RecursionError)."""

from __future__ import annotations

import pytest

from subtok_core.cli import main
from subtok_core.pretrained import hf
from subtok_core.vocab.uploaded import hf_table

DEEP = "[" * 100_000


def test_the_cli_check_of_a_deeply_nested_merges_file_is_an_error_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    assert main(["check", "merges", str(path), "--corpus", "toy:low-lower"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nested too deeply" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("read", [hf.from_str, hf_table])
def test_a_deeply_nested_tokenizer_json_is_refused_with_a_sentence(read):
    with pytest.raises(ValueError, match=r"'deep.json' is not a Hugging Face .* nested too deep"):
        read(DEEP, "deep.json")
