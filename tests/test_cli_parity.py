"""`subtok train parity`, run in-process: the JSON lists the merges with the language each
served and the dev lengths before it, as the authors' trainer printed them (its --verbose
lines, copied in tests/test_parity.py); a saved model encodes as BPE; bad input is a
sentence and exit status 2; the other algorithms' --corpus still takes one name."""

from __future__ import annotations

import json

import pytest

from subtok_core.cli import main

TOY = ["train", "parity", "--corpus", "en=toy:low-lower", "xx=toy:hug-pug",
       "--dev", "en=low newest widest", "xx=hug pun bun", "--merges", "8"]  # fmt: skip
# the authors' parity_aware_learn_bpe.py on the toy (tests/test_parity.py): the merges
# file and its --verbose "lengths [..]: picking best subword in corpus K" lines
REFERENCE = [("s t", "en", [15, 9]), ("e st", "en", [13, 9]), ("o w", "en", [11, 9]),
             ("l ow", "en", [10, 9]), ("w est", "en", [9, 9]), ("u g", "xx", [8, 9]),
             ("n e", "en", [8, 8]), ("u n", "xx", [7, 8])]  # fmt: skip


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_json_lists_each_merge_with_the_language_it_served(capsys):
    code, out, err = run(capsys, *TOY, "--json", "--full")
    assert code == 0 and err == ""
    data = json.loads(out)
    got = [(" ".join(s["pair"]), s["language"], s["dev_before"]) for s in data["steps"]]
    assert got == REFERENCE
    assert data["steps"][-1]["dev_after"] == [7, 6]  # the 7/6
    assert data["start"]["dev_lengths"] == [15, 9]  # characters: 3+6+6, 3+3+3
    assert data["model"]["algorithm"] == "parity"
    assert [tuple(m) for m in data["model"]["merges"]][:2] == [("s", "t"), ("e", "st")]


def test_every_merge_global_is_plain_bpe(capsys):
    code, out, _ = run(capsys, *TOY, "--global-merges", "8", "--json")
    data = json.loads(out)
    assert code == 0 and all(s["language"] is None for s in data["steps"])
    assert [" ".join(s["pair"]) for s in data["steps"]] == [
        "u g",
        "u n",
        "h ug",
        "p un",
        "s t",
        "e st",
        "o w",
        "l ow",
    ]  # the reference with -g 8
    assert data["steps"][-1]["dev_after"] == [9, 4]


def test_the_table_and_the_summary_say_the_dev_lengths(capsys):
    code, out, _ = run(capsys, *TOY)
    assert code == 0
    sixth = out.splitlines()[6].split()
    assert sixth[:9] == ["6", "xx", "en", "8,", "xx", "9", "u", "+", "g"]
    assert "Dev tokens: en 7, xx 6 (13 in all)." in out


def test_a_saved_model_encodes_with_the_merges(capsys, tmp_path):
    model = tmp_path / "par.json"
    assert run(capsys, *TOY, "--out", str(model))[0] == 0
    code, out, _ = run(capsys, "encode", "--model", str(model), "lowest", "hugs")
    # by hand: low (merge 4) + est (merge 2); h + ug (merge 6) + s
    assert code == 0 and "low est" in out and "h ug s" in out, out


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--corpus", "en=toy:low-lower", "--dev", "en=low", "--merges", "3"],
         "at least two languages"),
        (["--corpus", "toy:low-lower", "xx=toy:hug-pug", "--dev", "en=low", "xx=hug",
          "--merges", "3"], "LANG=VALUE"),
        (["--corpus", "en=toy:low-lower", "xx=toy:hug-pug", "--dev", "en=low", "yy=hug",
          "--merges", "3"], "dev text for each language"),
        (["--corpus", "en=toy:low-lower", "en=toy:hug-pug", "--dev", "en=low", "xx=hug",
          "--merges", "3"], "given twice"),
        (["--corpus", "en=toy:nope", "xx=toy:hug-pug", "--dev", "en=low", "xx=hug",
          "--merges", "3"], "no toy corpus"),
        (["--corpus", "en=toy:low-lower", "xx=toy:hug-pug", "--dev", "en=low", "xx=hug",
          "--merges", "-1"], "0 or more"),
    ],
)  # fmt: skip
def test_bad_input_is_a_sentence_and_status_2(capsys, argv, said):
    code, out, err = run(capsys, "train", "parity", *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and said in err and "Traceback" not in err


def test_other_algorithms_still_take_one_corpus(capsys):
    code, _, err = run(capsys, "train", "bpe", "--corpus", "toy:cat-bat", "toy:fox",
                       "--merges", "1")  # fmt: skip
    assert code == 2 and "unrecognized arguments: toy:fox" in err


def test_the_tokenizer_json_cuts_as_our_encoder(capsys, tmp_path):
    from tokenizers import Tokenizer

    model, hf = tmp_path / "par.json", tmp_path / "tok.json"
    assert run(capsys, *TOY, "--out", str(model))[0] == 0
    assert run(capsys, "export", "--model", str(model), "--out", str(hf))[0] == 0
    # by hand, the 8 merges: widest is w i d est (w + est needs w before est), bun b un
    tokens = Tokenizer.from_file(str(hf)).encode("lowest hugs widest bun").tokens
    assert tokens == ["low", "est", "h", "ug", "s", "w", "i", "d", "est", "b", "un"]


def test_a_dev_set_may_be_a_corpus(capsys):
    """--dev xx=toy:hug-pug reads the toy's lines: by hand hug 10 x 3 + pug 5 x 3 + pun 12 x 3
    + bun 4 x 3 + hugs 5 x 4 = 113 symbols; en's text "low newest widest" has 15."""
    assert main(["train", "parity", "--corpus", "en=toy:low-lower", "xx=toy:hug-pug",
                 "--dev", "en=low newest widest", "xx=toy:hug-pug", "--merges", "1",
                 "--json"]) == 0  # fmt: skip
    step = json.loads(capsys.readouterr().out)["steps"][0]
    assert step["dev_before"] == [15, 113] and step["language"] == "xx"
    assert step["pair"] == ["u", "g"] and step["dev_after"] == [15, 93]  # ug: 20 fewer
