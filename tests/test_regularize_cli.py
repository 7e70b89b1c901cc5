"""Subword regularization on the command line (``subtok encode --dropout/--nbest/--alpha``)
and on the pages (the BPE-dropout panel of /bpe, the n-best panel of /unigram).

Expected numbers are hand computations: run under 001's strict seed (frequency / 155) has
the segmentations ru n and r un (3·26/155² each) and r u n (3·31·26/155³), so 5/11, 5/11
and 1/11 of the word's probability; dropout with p = 0 is plain BPE, with p = 1 the
characters.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from apptools import open_page

from subtok_core.cli import main
from subtok_core.corpus import load
from subtok_core.export import save_model
from subtok_core.unigram.records import UnigramModel

RUN_BUG = {"r": 3, "u": 31, "n": 26, "ru": 3, "un": 26, "b": 5, "g": 5, "bu": 5, "ug": 5}
RUN_BUG |= {"f": 13, "fu": 13, "s": 10, "su": 10}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """A BPE model of low-lower (eow) and the run-bug seed model as Unigram, saved."""
    folder = tmp_path_factory.mktemp("models")
    bpe_path, uni_path = str(folder / "bpe.json"), str(folder / "uni.json")
    assert (
        main(
            [
                "train",
                "bpe",
                "--corpus",
                "toy:low-lower",
                "--merges",
                "10",
                "--marker",
                "eow",
                "--out",
                bpe_path,
            ]
        )
        == 0
    )
    logprobs = tuple(math.log(f / 155) for f in RUN_BUG.values())
    save_model(UnigramModel(tuple(RUN_BUG), logprobs, tuple("rungbfs")), uni_path)
    return {"bpe": bpe_path, "unigram": uni_path}


def test_dropout_zero_prints_the_plain_pieces_once_per_sample(files, capsys):
    _, plain, _ = run(capsys, "encode", "--model", files["bpe"], "lowest newer")
    code, out, err = run(
        capsys,
        "encode",
        "--model",
        files["bpe"],
        "--dropout",
        "0",
        "--samples",
        "3",
        "lowest newer",
    )
    assert code == 0 and err == ""
    assert out.splitlines() == [plain.strip()] * 3


def test_dropout_one_prints_the_characters_and_json_repeats_for_a_seed(files, capsys):
    code, out, _ = run(capsys, "encode", "--model", files["bpe"], "--dropout", "1", "--json", "low")
    assert code == 0
    assert json.loads(out) == {"dropout": 1.0, "seed": 0, "samples": [["l", "o", "w", "</w>"]]}
    args = ["encode", "--model", files["bpe"], "--dropout", "0.5", "--samples", "20", "--json"]
    first = run(capsys, *args, "--seed", "4", "lowest newest")[1]
    assert run(capsys, *args, "--seed", "4", "lowest newest")[1] == first
    assert run(capsys, *args, "--seed", "5", "lowest newest")[1] != first
    assert len(json.loads(first)["samples"]) == 20


def test_nbest_prints_each_segmentation_with_its_share_of_the_word(files, capsys):
    code, out, err = run(capsys, "encode", "--model", files["unigram"], "--nbest", "5", "run")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "run: all 3 of its segmentations"
    assert [line.split()[1:3] for line in lines[1:]] == [["ru", "n"], ["r", "un"], ["r", "u"]]
    shares = [float(line.split()[-1]) for line in lines[1:]]
    assert shares == pytest.approx([5 / 11, 5 / 11, 1 / 11], abs=1e-4)


def test_nbest_json_per_word(files, capsys):
    code, out, _ = run(
        capsys, "encode", "--model", files["unigram"], "--nbest", "2", "--json", "run sun"
    )
    data = json.loads(out)
    assert code == 0 and data["nbest"] == 2 and [w["word"] for w in data["words"]] == ["run", "sun"]
    first = data["words"][0]["segmentations"][0]
    assert first["pieces"] == ["ru", "n"]
    assert first["logp"] == pytest.approx(math.log(3 * 26 / 155**2))
    assert first["probability"] == pytest.approx(5 / 11)
    # sun: su n (10·26) and s un (10·26) tie, s u n is 10·31·26/155: 5/11 each again
    assert [s["probability"] for s in data["words"][1]["segmentations"]] == pytest.approx(
        [5 / 11] * 2
    )


def test_alpha_samples_as_json(files, capsys):
    code, out, _ = run(
        capsys,
        "encode",
        "--model",
        files["unigram"],
        "--alpha",
        "0.5",
        "--samples",
        "400",
        "--seed",
        "2",
        "--json",
        "run",
    )
    data = json.loads(out)
    assert code == 0 and data["alpha"] == 0.5 and data["seed"] == 2
    seen = {tuple(s) for s in data["samples"]}
    assert seen == {("ru", "n"), ("r", "un"), ("r", "u", "n")}


@pytest.mark.parametrize(
    ("model", "args", "message"),
    [
        ("unigram", ["--dropout", "0.1"], "byte-level BPE model; this model is Unigram"),
        ("bpe", ["--nbest", "3"], "Unigram model; this model is BPE"),
        ("bpe", ["--alpha", "1"], "Unigram model; this model is BPE"),
        ("bpe", ["--dropout", "1.5"], "from 0 to 1"),
        ("bpe", ["--dropout", "nan"], "from 0 to 1"),
        ("bpe", ["--dropout", "0.1", "--samples", "0"], "at least 1"),
        ("bpe", ["--dropout", "0.1", "--samples", "1000001"], "allowed here"),
        ("unigram", ["--alpha", "0"], "above 0"),
        ("unigram", ["--alpha", "inf"], "above 0"),
        ("unigram", ["--nbest", "100000"], "allowed here"),
        ("unigram", ["--nbest", "2", "--alpha", "1"], "not --nbest and --alpha together"),
        ("unigram", ["--nbest", "2", "--samples", "3"], "draws nothing"),
        ("unigram", ["--samples", "3"], "give one of them too"),
        ("bpe", ["--dropout", "0.1", "--trace"], "leave out --trace"),
        ("unigram", ["--nbest", "2"], r"'z'.*\[UNK\]"),
    ],
)
def test_refusals_are_one_sentence_and_exit_2(files, capsys, model, args, message):
    code, out, err = run(capsys, "encode", "--model", files[model], *args, "runz")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert re.search(message, err), err


def test_a_pretrained_tokenizer_is_refused(capsys):
    code, _, err = run(capsys, "encode", "--tokenizer", "cl100k_base", "--dropout", "0.1", "hi")
    assert code == 2 and "need a model you trained" in err


def test_help_documents_the_json_shapes(capsys):
    assert main(["encode", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert '{"dropout": P, "seed": S, "samples": [["piece", ...], ...]}' in out
    assert '"segmentations": [{"pieces", "logp", "probability"}, ...]' in out


# --- the pages -----------------------------------------------------------------------------


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_bpe_page_draws_dropout_samples_and_the_spread():
    at = open_page(
        "lessons/bpe/page.py", corpus="toy:low-lower", marker="eow", merges="10", step="10"
    )
    assert "bpe_reg_text" not in [t.key for t in at.text_input]  # closed: nothing runs
    at.session_state["bpe_dropout_open"] = True  # the student opens the expander
    at.run()
    assert at.text_input(key="bpe_reg_text").value == "lowest"
    rows = [m.value for m in at.markdown if "plain BPE" in m.value]
    assert rows and rows[0].count("sample ") == 5  # five samples by default
    at.slider(key="bpe_reg_p").set_value(1.0).run()
    shown = next(m.value for m in at.markdown if "plain BPE" in m.value)
    assert shown.count("(7 tokens)") == 5  # l o w e s t </w>, every sample
    captions = " ".join(c.value for c in at.caption)
    assert "At p = 0 every sample has" in captions
    at.text_input(key="bpe_reg_text").input(" ").run()
    assert any("Type a word" in e.value for e in at.error) and not at.exception


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_unigram_page_lists_the_n_best_and_samples(tmp_path):
    at = open_page("lessons/unigram/page.py", corpus="toy:hug-pug", step="1", seed="given")
    at.session_state["unigram_nbest_open"] = True  # the student opens the expander
    at.run()
    box = at.text_input(key="unigram_reg_text")
    assert box.value == load("toy:hug-pug").words[0]
    box.input("hugs").run()
    at.number_input(key="unigram_reg_nbest").set_value(50).run()
    table = next(df.value for df in at.dataframe if "P(x | word)" in df.value.columns)
    assert len(table) == 7  # h u g s, h u gs, h ug s, h ugs, hu g s, hu gs, hug s
    assert table["P(x | word)"].sum() == pytest.approx(1.0)
    assert any("1,000 samples with alpha = 1" in m.value for m in at.markdown)
    assert any("standard errors" in c.value for c in at.caption)
    at.text_input(key="unigram_reg_text").input("hugz").run()
    assert any("[UNK]" in e.value.replace("\\", "") for e in at.error) and not at.exception
