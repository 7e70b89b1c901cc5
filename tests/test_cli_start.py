"""A light start (issue 28): `subtok --help`, `subtok corpora` and `subtok tokenizers`
import none of the heavy libraries nor the algorithms' registry; each heavy module is
imported by the command that uses it. Checked in a fresh interpreter (sys.modules after
the command), since this test process has imported everything already."""

from __future__ import annotations

import pytest
from _fresh import modules_after

HEAVY = ("pandas", "numpy", "tokenizers", "tiktoken", "gensim", "streamlit", "altair")
CORE = ("registry", "compare", "measure", "bpe", "sage", "unigram", "wordpiece", "bytebpe")


def imported_by(*argv: str) -> set[str]:
    """The top-level packages and subtok_core modules a fresh `subtok ARGV` imports."""
    command = f"status = cli.main({list(argv)!r})"
    code = f"from subtok_core import cli\n{command}\nif status:\n    sys.exit(status)"
    modules = modules_after(code, 60)
    return {m.split(".")[0] for m in modules} | {m for m in modules if m.startswith("subtok")}


@pytest.mark.parametrize("argv", [["--help"], ["corpora"], ["tokenizers"], ["warm", "--help"]])
def test_the_light_commands_import_no_heavy_library_and_no_algorithm(argv):
    modules = imported_by(*argv)
    assert not modules & set(HEAVY), modules & set(HEAVY)
    assert not modules & {f"subtok_core.{m}" for m in CORE}
    if argv != ["tokenizers"]:  # which reads Mistral's models with sentencepiece
        assert "sentencepiece" not in modules and "subtok_core.pretrained" not in modules


def test_a_training_command_still_imports_what_it_needs():
    modules = imported_by("train", "bpe", "--corpus", "toy:cat-bat", "--merges", "1")
    assert {"subtok_core.registry", "subtok_core.bpe"} <= modules


@pytest.mark.slow
def test_training_bpe_imports_no_other_algorithm_and_no_numpy():
    """The registry imports an algorithm's package when it is asked for: `subtok train bpe`
    on the Wikipedia sample, its text read from the disk cache, pays for BPE only. (The
    first run fills this test's empty disk cache: it parses the dump with gensim.)"""
    argv = ("train", "bpe", "--corpus", "sample:enwiki", "--merges", "1")
    assert "gensim" in imported_by(*argv)
    modules = imported_by(*argv)
    others = {f"subtok_core.{m}" for m in ("sage", "unigram", "wordpiece", "bytebpe")}
    assert not modules & others, modules & others
    assert not modules & {"numpy", "pandas", "gensim"}, modules & {"numpy", "pandas", "gensim"}
    assert "subtok_core.diskcache" in modules  # the sample's text came from the disk cache


def test_the_help_of_a_training_command_lists_its_options(capsys):
    from subtok_core.cli import main

    assert main(["train", "bpe", "--help"]) == 0
    assert "--marker" in capsys.readouterr().out
    assert main(["train", "nope", "--corpus", "toy:cat-bat"]) == 2


def test_subtok_help_names_check_with_the_line_check_help_gives(capsys):
    """`subtok --help` names `check` without importing its module (the light test above):
    both read the line of subtok_core/cli_help.py."""
    from subtok_core.cli import main
    from subtok_core.cli_help import CHECK_HELP

    assert main(["--help"]) == 0
    listing = " ".join(capsys.readouterr().out.split())  # argparse wraps the line
    assert main(["check", "--help"]) == 0
    own = " ".join(capsys.readouterr().out.split())
    assert CHECK_HELP in listing and CHECK_HELP in own
