"""The command line's seams with the rest of subtok (issue 25): what `--out` prints, the
unknown token's id, the BPE marker it says, an overshoot n it cannot use."""

from __future__ import annotations

import json

import pytest

from subtok_core import compare
from subtok_core.cli import main
from subtok_core.corpus import load
from subtok_core.export import load_model


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("n", ["inf", "nan", "-1", "1e300", "-inf"])
def test_an_overshoot_n_it_cannot_use_is_refused_with_a_sentence(capsys, n):
    code, out, err = run(capsys, "train", "sage", "--corpus", "toy:low-lower", f"--n={n}")
    assert code == 2 and out == ""
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: ") and "overshoot n" in last
    # no absurd pieces count announced before the refusal
    assert "prune steps" not in err


def test_out_prints_one_line_not_the_merge_table(capsys, tmp_path):
    path = tmp_path / "m.json"
    code, out, err = run(
        capsys, "train", "bpe", "--corpus", "toy:cat-bat", "--merges", "5", "--out", str(path)
    )
    assert code == 0 and path.exists()
    assert len(out.strip().splitlines()) == 1
    assert "5 merges" in out and "Vocabulary" in out
    assert f"Saved the model to {path}." in err


def test_the_table_says_which_marker_bpe_used(capsys):
    _, out, _ = run(capsys, "train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2")
    assert "marker: none" in out.splitlines()[-1]
    _, out, _ = run(capsys, "train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2",
                    "--marker", "sow")  # fmt: skip
    assert "marker: sow (▁)" in out.splitlines()[-1]


def test_the_command_compare_names_trains_compares_bpe(capsys, tmp_path):
    """The page's caption gives the command line of its BPE: the same vocabulary."""
    path = tmp_path / "bpe.json"
    argv = compare.cli_command("bpe", "toy:low-lower", 14).split()[1:]
    assert argv[:2] == ["train", "bpe"]
    code, _, _ = run(capsys, *argv, "--out", str(path))
    assert code == 0
    assert load_model(path).vocab == compare.train("bpe", load("toy:low-lower"), 14).vocab


ALGORITHMS = [
    ("bpe", ["--merges", "4"]),
    ("bpe", ["--merges", "4", "--marker", "sow"]),
    ("wordpiece", ["--merges", "4"]),
    ("unigram", ["--vocab-size", "14"]),
]


@pytest.mark.parametrize(("algorithm", "options"), ALGORITHMS)
def test_unknown_token_has_the_id_of_the_exported_file(capsys, tmp_path, algorithm, options):
    """--json and the exported tokenizer.json (read by the tokenizers library) give [UNK]
    the same id, a real one: not -1."""
    from tokenizers import Tokenizer

    model, hf = tmp_path / "m.json", tmp_path / "tokenizer.json"
    assert run(capsys, "train", algorithm, "--corpus", "toy:cat-bat", *options,
               "--out", str(model))[0] == 0  # fmt: skip
    assert run(capsys, "export", "--model", str(model), "--out", str(hf))[0] == 0
    code, out, _ = run(capsys, "encode", "--model", str(model), "--json", "cat qz")
    assert code == 0
    ours = [(t["text"], t["id"]) for t in json.loads(out)["tokens"]]
    theirs = Tokenizer.from_file(str(hf))
    unk = theirs.token_to_id("[UNK]")
    assert unk is not None and unk >= 0
    assert ("[UNK]", unk) in ours
    assert all(i >= 0 for _, i in ours)


def test_help_says_which_id_the_unknown_token_has(capsys):
    assert main(["encode", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "[UNK]" in out and "the id after the vocabulary's last piece" in out
